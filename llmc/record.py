"""`record`: the part of `dataclasses.dataclass` llmc uses, at a fraction of its class-creation cost.

Python 3.11's `dataclass` compiles every generated method separately (six
compilations for a frozen class) and imports `inspect` (with `ast`, `dis` and
`tokenize`); the ~60 classes a `llmc render` defines before it reads a file cost
about 25 ms that way, more than rendering a service. `record` compiles one source
per class and imports nothing.

It supports what llmc's classes need, with dataclasses' semantics: fields from
the class's own annotations (no inheritance of fields, no ClassVar or InitVar),
defaults and `field(default=..., default_factory=..., repr=..., compare=...)`,
`eq`, `frozen`, `order` and `slots`, `__post_init__`, and methods the class
defines itself left in place. tests/test_record.py compares it with `dataclass`.
"""

from __future__ import annotations

from typing import Any

MISSING: Any = type("MISSING", (), {"__repr__": lambda self: "MISSING"})()
_FACTORY: Any = type("FACTORY", (), {"__repr__": lambda self: "<factory>"})()


class FrozenInstanceError(AttributeError):
    """Assigning to or deleting a field of a frozen record."""


class Field:
    """A field's default or default factory and whether `repr` and comparisons include it."""

    __slots__ = ("default", "default_factory", "repr", "compare")

    def __init__(self, default: Any, default_factory: Any, repr: bool, compare: bool) -> None:
        self.default, self.default_factory, self.repr, self.compare = default, default_factory, repr, compare


def field(*, default: Any = MISSING, default_factory: Any = MISSING, repr: bool = True, compare: bool = True) -> Any:
    """A field's options, as the class attribute's value (`dataclasses.field` for the options llmc uses)."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, repr, compare)


def record(cls: type | None = None, /, *, eq: bool = True, frozen: bool = False, order: bool = False,
           slots: bool = False):
    """Make `cls` a record class: `@record` or `@record(frozen=True, ...)`, like `@dataclass`."""

    def wrap(cls: type) -> type:
        return _process(cls, eq, frozen, order, slots)

    return wrap if cls is None else wrap(cls)


def replace(obj: Any, /, **changes: Any) -> Any:
    """A new record like `obj` with `changes` (`dataclasses.replace`)."""
    for name in obj.__record_fields__:
        if name not in changes:
            changes[name] = getattr(obj, name)
    return obj.__class__(**changes)


def fields(cls_or_obj: Any) -> tuple[str, ...]:
    """The field names of a record class or instance, in order."""
    return tuple(cls_or_obj.__record_fields__)


def _process(cls: type, eq: bool, frozen: bool, order: bool, slots: bool) -> type:
    if order and not eq:
        raise ValueError("eq must be true if order is true")
    own = cls.__dict__
    class_hash = own.get("__hash__", MISSING)  # a class defining __eq__ gets __hash__ = None from Python itself
    explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in own))
    specs: dict[str, Field] = {}
    seen_default = False
    for name in own.get("__annotations__", {}):
        value = own.get(name, MISSING)
        spec = value if isinstance(value, Field) else Field(value, MISSING, True, True)
        if isinstance(spec.default, (list, dict, set)):
            raise ValueError(f"mutable default {type(spec.default)} for field {name} is not allowed: use default_factory")
        has_default = spec.default is not MISSING or spec.default_factory is not MISSING
        if seen_default and not has_default:
            raise TypeError(f"non-default argument {name!r} follows default argument")
        seen_default = seen_default or has_default
        specs[name] = spec
    if slots:
        cls = _with_slots(cls, specs)
    else:
        for name, spec in specs.items():  # as dataclasses: the default stays a class attribute, a factory does not
            if spec.default is MISSING:
                if isinstance(own.get(name), Field):
                    delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
    cls.__record_fields__ = specs

    source, names = _source(cls, specs, eq, frozen and not explicit_hash, frozen, order, slots)
    scope: dict[str, Any] = {}
    exec(source, {"__cls__": cls, "__specs__": specs, "MISSING": MISSING, "_FACTORY": _FACTORY,
                  "FrozenInstanceError": FrozenInstanceError, "_setattr": object.__setattr__}, scope)
    for name in names:
        function = scope[name]
        function.__qualname__ = f"{cls.__qualname__}.{name}"
        if name in ("__setattr__", "__delattr__") or name in _ORDER:
            if name in own:
                raise TypeError(f"cannot overwrite attribute {name} in class {cls.__name__}")
        elif name in own and name != "__hash__":
            continue  # the class's own method wins, as with dataclasses
        setattr(cls, name, function)
    if eq and not frozen and not explicit_hash:
        cls.__hash__ = None  # eq without frozen: unhashable, as dataclasses makes it
    return cls


_ORDER = {"__lt__": "<", "__le__": "<=", "__gt__": ">", "__ge__": ">="}


def _source(cls: type, specs: dict[str, Field], eq: bool, hashed: bool, frozen: bool, order: bool,
            slots: bool) -> tuple[str, list[str]]:
    """The generated methods' source, and their names."""
    params, body = [], []
    for name, spec in specs.items():
        if spec.default_factory is not MISSING:
            params.append(f"{name}=_FACTORY")
            value = f"__specs__[{name!r}].default_factory() if {name} is _FACTORY else {name}"
        elif spec.default is not MISSING:
            params.append(f"{name}=__specs__[{name!r}].default")
            value = name
        else:
            params.append(name)
            value = name
        body.append(f"  _setattr(self, {name!r}, {value})" if frozen else f"  self.{name} = {value}")
    if "__post_init__" in cls.__dict__:
        body.append("  self.__post_init__()")
    lines = [f"def __init__(self, {', '.join(params)}):" if params else "def __init__(self):", *(body or ["  pass"])]
    shown = ", ".join(f"{name}={{self.{name}!r}}" for name, spec in specs.items() if spec.repr)
    lines += ["def __repr__(self):", f"  return f'{{self.__class__.__qualname__}}({shown})'"]
    names = ["__init__", "__repr__"]
    compared = [name for name, spec in specs.items() if spec.compare]
    mine = "(" + "".join(f"self.{n}," for n in compared) + ")"
    theirs = "(" + "".join(f"other.{n}," for n in compared) + ")"
    if eq:
        lines += ["def __eq__(self, other):", "  if other.__class__ is self.__class__:",
                  f"    return {mine} == {theirs}", "  return NotImplemented"]
        names.append("__eq__")
    if order:
        for name, op in _ORDER.items():
            lines += [f"def {name}(self, other):", "  if other.__class__ is self.__class__:",
                      f"    return {mine} {op} {theirs}", "  return NotImplemented"]
            names.append(name)
    if eq and hashed:
        lines += ["def __hash__(self):", f"  return hash({mine})"]
        names.append("__hash__")
    if frozen:
        fields_tuple = repr(tuple(specs))
        for name, verb in (("__setattr__", "assign to"), ("__delattr__", "delete")):
            args = "self, name, value" if name == "__setattr__" else "self, name"
            call = f"super(__cls__, self).{name}({args.removeprefix('self, ')})"
            lines += [f"def {name}({args}):", f"  if type(self) is __cls__ or name in {fields_tuple}:",
                      f"    raise FrozenInstanceError(f'cannot {verb} field {{name!r}}')", f"  {call}"]
            names.append(name)
        if slots:
            lines += ["def __getstate__(self):", f"  return [getattr(self, n) for n in {fields_tuple}]",
                      "def __setstate__(self, state):", f"  for n, v in zip({fields_tuple}, state):",
                      "    _setattr(self, n, v)"]
            names += ["__getstate__", "__setstate__"]
    return "\n".join(lines) + "\n", names


def _with_slots(cls: type, specs: dict[str, Field]) -> type:
    """`cls` made again with `__slots__` for its fields (a class's slots cannot be added afterwards)."""
    namespace = {k: v for k, v in cls.__dict__.items() if k not in specs and k not in ("__dict__", "__weakref__")}
    namespace["__slots__"] = tuple(specs)
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made
