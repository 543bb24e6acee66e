"""`record`: the part of `dataclasses.dataclass` llmc uses, at a fraction of its class-creation cost.

Python 3.11's `dataclass` compiles every generated method separately (six
compilations for a frozen class) and imports `inspect` (with `ast`, `dis` and
`tokenize`); the ~60 classes a `llmc render` defines before it reads a file cost
about 25 ms that way, more than rendering a service. `record` compiles one
`__init__` per shape of class, builds the other methods as closures, and imports
nothing heavy.

It supports what llmc's classes need, with dataclasses' semantics: fields from
the class's own annotations (no inheritance of fields, no ClassVar or InitVar),
defaults and `field(default=..., default_factory=..., repr=..., compare=...)`,
`eq`, `frozen`, `order` and `slots`, `__post_init__`, and methods the class
defines itself left in place. tests/test_record.py compares it with `dataclass`.
"""

from __future__ import annotations

import builtins
import operator
import types
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


def _process(cls: type, eq: bool, frozen: bool, order: bool, slots: bool) -> type:
    if order and not eq:
        raise ValueError("eq must be true if order is true")
    own = cls.__dict__
    class_hash = own.get("__hash__", MISSING)  # a class defining __eq__ gets __hash__ = None from Python itself
    explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in own))
    specs: dict[str, Field] = {}
    seen_default = False
    for name in own.get("__annotations__", {}):
        if name in _RESERVED:
            raise TypeError(f"field name {name!r} is reserved by llmc.record")
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

    methods = {"__init__": _init(cls, specs, frozen), "__repr__": _repr(tuple(n for n, f in specs.items() if f.repr))}
    key = _key(tuple(n for n, f in specs.items() if f.compare))
    if eq:
        methods["__eq__"] = _compare(key, "__eq__")
    if order:
        methods.update((name, _compare(key, name)) for name in _ORDER)
    if eq and frozen and not explicit_hash:
        methods["__hash__"] = _hash(key)
    if frozen:
        methods.update(_frozen(cls, tuple(specs), slots))
    for name, function in methods.items():
        function.__qualname__ = f"{cls.__qualname__}.{name}"
        if name in _ORDER or name in ("__setattr__", "__delattr__"):
            if name in own:
                raise TypeError(f"cannot overwrite attribute {name} in class {cls.__name__}")
        elif name in own and name != "__hash__":
            continue  # the class's own method wins, as with dataclasses
        setattr(cls, name, function)
    if eq and not frozen and not explicit_hash:
        cls.__hash__ = None  # eq without frozen: unhashable, as dataclasses makes it
    return cls


# Names the generated __init__ uses besides the fields (and `self`).
_RESERVED = frozenset({"self", "_factories", "_FACTORY", "_setattr"})
_ORDER = {"__lt__": operator.lt, "__le__": operator.le, "__gt__": operator.gt, "__ge__": operator.ge}
_TEMPLATES: dict[tuple, types.CodeType] = {}


def _init(cls: type, specs: dict[str, Field], frozen: bool):
    """`__init__` from a template compiled once per shape (frozen or not, which fields a factory makes,
    `__post_init__` or not), its placeholder names replaced by the fields'.

    Compiling per shape instead of per class, and building the other methods as closures, is what makes a
    record cheaper to define than a dataclass.
    """
    # Which parameters are optional is the function's `__defaults__`, not its code: only factories shape it.
    factories = tuple(f.default_factory is not MISSING for f in specs.values())
    shape = (frozen, factories, "__post_init__" in cls.__dict__)
    template = _TEMPLATES.get(shape)
    if template is None:
        template = _TEMPLATES[shape] = _compile_init(*shape)
    rename = {f"_f{i}": name for i, name in enumerate(specs)}
    code = template.replace(
        co_varnames=tuple(rename.get(n, n) for n in template.co_varnames),
        co_names=tuple(rename.get(n, n) for n in template.co_names),
        co_consts=tuple(rename.get(c, c) if isinstance(c, str) else c for c in template.co_consts),
        co_qualname=f"{cls.__qualname__}.__init__",
    )
    scope = {"_factories": tuple(f.default_factory for f in specs.values()), "_FACTORY": _FACTORY,
             "_setattr": object.__setattr__, "__builtins__": builtins}
    defaults = tuple(_FACTORY if f.default_factory is not MISSING else f.default
                     for f in specs.values() if f.default is not MISSING or f.default_factory is not MISSING)
    return types.FunctionType(code, scope, "__init__", defaults or None)


def _compile_init(frozen: bool, factories: tuple[bool, ...], post_init: bool) -> types.CodeType:
    params, body = [], []
    for i, factory in enumerate(factories):
        name = f"_f{i}"
        params.append(name)
        value = f"_factories[{i}]() if {name} is _FACTORY else {name}" if factory else name
        body.append(f"  _setattr(self, {name!r}, {value})" if frozen else f"  self.{name} = {value}")
    if post_init:
        body.append("  self.__post_init__()")
    source = f"def __init__({', '.join(['self', *params])}):\n" + "\n".join(body or ["  pass"]) + "\n"
    module = compile(source, "<llmc.record>", "exec")
    return next(c for c in module.co_consts if isinstance(c, types.CodeType))


def _key(names: tuple[str, ...]):
    """The tuple of a record's compared fields, as dataclasses compares and hashes them."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    if names:
        get = operator.attrgetter(names[0])
        return lambda obj: (get(obj),)
    return lambda obj: ()


def _repr(names: tuple[str, ...]):
    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _compare(key, name: str):
    op = _ORDER.get(name, operator.eq)

    def compare(self, other):
        if other.__class__ is self.__class__:
            return op(key(self), key(other))
        return NotImplemented

    compare.__name__ = name
    return compare


def _hash(key):
    def __hash__(self) -> int:
        return hash(key(self))

    return __hash__


def _frozen(cls: type, names: tuple[str, ...], slots: bool) -> dict[str, Any]:
    fields = frozenset(names)

    def __setattr__(self, name, value):
        if type(self) is cls or name in fields:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in fields:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    methods: dict[str, Any] = {"__setattr__": __setattr__, "__delattr__": __delattr__}
    if slots:  # pickle restores slots with setattr, which a frozen record refuses
        def __getstate__(self):
            return [getattr(self, n) for n in names]

        def __setstate__(self, state):
            for n, v in zip(names, state):
                object.__setattr__(self, n, v)

        methods.update(__getstate__=__getstate__, __setstate__=__setstate__)
    return methods


def _with_slots(cls: type, specs: dict[str, Field]) -> type:
    """`cls` made again with `__slots__` for its fields (a class's slots cannot be added afterwards)."""
    namespace = {k: v for k, v in cls.__dict__.items() if k not in specs and k not in ("__dict__", "__weakref__")}
    namespace["__slots__"] = tuple(specs)
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made
