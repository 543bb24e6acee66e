"""llmc.core.record against dataclasses: the same classes built both ways behave the same."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmc.core import record as rec

NAMES = ["a", "b", "c", "d"]


@st.composite
def specs(draw):
    """A class description: fields (name, default kind, repr, compare) and the decorator's options."""
    count = draw(st.integers(0, 4))
    fields, defaulted = [], False
    for name in NAMES[:count]:
        kind = draw(st.sampled_from(["default", "factory"] if defaulted else ["required", "default", "factory"]))
        defaulted = defaulted or kind != "required"
        fields.append((name, kind, draw(st.booleans()), draw(st.booleans())))
    eq = draw(st.booleans())
    return {
        "fields": fields,
        "eq": eq,
        "frozen": draw(st.booleans()),
        "order": eq and draw(st.booleans()),
        "slots": draw(st.booleans()),
        "post_init": draw(st.booleans()),
    }


def build(spec, make, field):
    """The class of `spec`, decorated by `make` (dataclass or record) with its `field`."""
    namespace = {"__annotations__": {}, "__module__": __name__, "__qualname__": "Thing"}
    for name, kind, show, compare in spec["fields"]:
        namespace["__annotations__"][name] = "int"
        if kind == "default":
            namespace[name] = field(default=len(name) * 7, repr=show, compare=compare)
        elif kind == "factory":
            namespace[name] = field(default_factory=lambda: [1, 2], repr=show, compare=compare)
        elif not (show and compare):
            namespace[name] = field(repr=show, compare=compare)
    if spec["post_init"]:
        def __post_init__(self):
            log.append(type(self).__name__)
        namespace["__post_init__"] = __post_init__
    cls = type("Thing", (), namespace)
    return make(eq=spec["eq"], frozen=spec["frozen"], order=spec["order"], slots=spec["slots"])(cls)


log: list[str] = []


def outcome(call):
    """What a call returns, or the kind of exception it raises (and its message)."""
    try:
        return ("value", call())
    except AttributeError as exc:  # FrozenInstanceError is one for both
        return ("AttributeError", str(exc))
    except TypeError as exc:
        return ("TypeError", str(exc))


@settings(max_examples=300, deadline=None)
@given(specs(), st.lists(st.integers(-2, 2), min_size=4, max_size=4), st.lists(st.integers(-2, 2), min_size=4, max_size=4))
def test_record_behaves_as_dataclass(spec, first, second) -> None:
    ours = build(spec, rec.record, rec.field)
    theirs = build(spec, dataclasses.dataclass, dataclasses.field)
    names = [f[0] for f in spec["fields"]]
    required = [f[0] for f in spec["fields"] if f[1] == "required"]

    log.clear()
    ours_default = outcome(lambda: ours(*first[:len(required)]))
    theirs_default = outcome(lambda: theirs(*first[:len(required)]))
    assert log[:1] == log[1:2] and len(log) in (0, 2)
    assert type(ours_default[1]).__name__ == type(theirs_default[1]).__name__
    assert repr(ours_default[1]) == repr(theirs_default[1])

    a1, a2 = ours(**dict(zip(names, first))), ours(**dict(zip(names, second)))
    b1, b2 = theirs(**dict(zip(names, first))), theirs(**dict(zip(names, second)))
    assert repr(a1) == repr(b1)
    assert (a1 == a2) == (b1 == b2) and (a1 == a1) == (b1 == b1) and (a1 != a2) == (b1 != b2)
    assert (a1 == "x") == (b1 == "x")
    assert outcome(lambda: hash(a1) == hash(a2)) == outcome(lambda: hash(b1) == hash(b2))
    if spec["eq"] and spec["frozen"]:
        assert hash(a1) == hash(b1)
    for op in ("__lt__", "__le__", "__gt__", "__ge__"):
        assert outcome(lambda: getattr(a1, op)(a2)) == outcome(lambda: getattr(b1, op)(b2))
    # 3.11's frozen dataclass with slots fails on a non-field name (its __setattr__ calls super() with
    # the class it replaced: TypeError); a record raises FrozenInstanceError, as without slots
    unknown = [] if spec["frozen"] and spec["slots"] else ["other"]
    for name in names + unknown:
        assert outcome(lambda: setattr(a1, name, 5)) == outcome(lambda: setattr(b1, name, 5))
        assert outcome(lambda: delattr(a2, name)) == outcome(lambda: delattr(b2, name))
    assert hasattr(ours, "__slots__") == hasattr(theirs, "__slots__")
    assert hasattr(a1, "__dict__") == hasattr(b1, "__dict__")
    for name in names:
        assert repr(outcome(lambda: getattr(ours, name))) == repr(outcome(lambda: getattr(theirs, name)))
    assert outcome(lambda: repr(rec.replace(a1, **dict(zip(names, second))))) == \
        outcome(lambda: repr(dataclasses.replace(b1, **dict(zip(names, second)))))
    assert outcome(lambda: ours(*first, 9)) == outcome(lambda: theirs(*first, 9))
    if required:
        assert outcome(lambda: ours()) == outcome(lambda: theirs())
    assert tuple(a1.__record_fields__) == tuple(f.name for f in dataclasses.fields(b1))


@rec.record(frozen=True, slots=True)  # module level, so that pickle finds the classes
class FrozenSlots:
    a: int
    b: str = "x"


@rec.record(frozen=True, order=True)
class Ordered:
    a: int
    b: list = rec.field(default_factory=list, compare=False)


def test_frozen_records_pickle() -> None:
    for value in (FrozenSlots(1, "y"), Ordered(3, [1])):
        assert pickle.loads(pickle.dumps(value)) == value
    with pytest.raises(AttributeError, match="cannot assign to field 'c'"):
        FrozenSlots(1).c = 2
    assert sorted([Ordered(2, [9]), Ordered(1, [0])]) == [Ordered(1, [5]), Ordered(2, [])]


def test_record_refuses_what_dataclass_refuses() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        rec.record(type("Bad", (), {"__annotations__": {"a": "int", "b": "int"}, "a": 1}))
    with pytest.raises(ValueError, match="mutable default"):
        rec.record(type("Bad", (), {"__annotations__": {"a": "list"}, "a": []}))
    with pytest.raises(ValueError, match="eq must be true if order is true"):
        rec.record(eq=False, order=True)(type("Bad", (), {}))
    with pytest.raises(TypeError, match="cannot overwrite attribute __lt__"):
        rec.record(order=True)(type("Bad", (), {"__lt__": lambda s, o: True}))
    with pytest.raises(ValueError, match="both default and default_factory"):
        rec.field(default=1, default_factory=list)


def test_own_methods_win() -> None:
    @rec.record(frozen=True)
    class Own:
        a: int

        def __repr__(self) -> str:
            return "mine"

        def __eq__(self, other) -> bool:
            return True

    assert repr(Own(1)) == "mine" and Own(1) == Own(2) and hash(Own(1)) == hash((1,))


def test_the_precompiled_inits_are_current_and_cover_every_llmc_class() -> None:
    """llmc/core/record_inits.py is what `python -m llmc.core.record` writes, and no llmc class compiles its own __init__."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "from llmc.core import record\n"
        "print(record._generate(), end='')\n"
    )
    generated = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert generated == (Path(rec.__file__).with_name("record_inits.py")).read_text(), "run: python -m llmc.core.record"
    check = (
        "from llmc.core import record\n"
        "calls = []\n"
        "original = record._compile_init\n"
        "record._compile_init = lambda *shape: calls.append(shape) or original(*shape)\n"
        "import importlib, pkgutil, llmc\n"
        "for info in pkgutil.walk_packages(llmc.__path__, 'llmc.'):\n"
        "    if info.name != 'llmc.__main__':\n"
        "        importlib.import_module(info.name)\n"
        "print(calls)\n"
    )
    compiled = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True).stdout
    assert compiled.strip() == "[]"


def test_a_precompiled_init_behaves_like_a_compiled_one() -> None:
    @rec.record(frozen=True)
    class Point:
        x: int
        y: int = 2
        tags: list = rec.field(default_factory=list)

    point = Point(1)
    assert (point.x, point.y, point.tags) == (1, 2, [])
    assert Point.__init__.__code__.co_name == "__init__"
    assert Point.__init__.__code__.co_varnames[:4] == ("self", "x", "y", "tags")
    with pytest.raises(rec.FrozenInstanceError):
        point.x = 3
