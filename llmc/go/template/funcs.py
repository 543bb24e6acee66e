"""Go text/template's builtin functions, with their Go signatures and error texts.

A `Func` records what the executor needs to call a Go function the way
reflect does: parameter types (`VALUE` stands for reflect.Value, which takes
any argument unconverted), whether it is variadic, and the implementation.
Implementations take and return `Value`s (None is Go's invalid/untyped nil)
and raise `FuncError` where the Go function returns an error.
"""

from __future__ import annotations


from llmc.core.record import record
from llmc.go import fmt as gofmt
from llmc.go.reflect import (
    ANY, BOOL, COMPLEX_KINDS, FLOAT_KINDS, INT, INT_KINDS, STRING, UINT_KINDS, GoType, Value, indirect,
    indirect_interface, index_elem, is_nil, length, map_get, struct_field, zero,
)

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Callable


class FuncError(Exception):
    """The error a Go template function returns (or a panic it recovers), worded as Go's."""


VALUE = GoType("reflect.Value", "struct")


@record(frozen=True)
class Func:
    """A template function as Go's reflection sees it: its parameter types, whether it is variadic, and its implementation."""

    name: str
    params: tuple[GoType, ...]
    variadic: bool
    impl: Callable[..., Value | None]

    def num_in(self) -> int:
        return len(self.params)


# -- truth and comparison -----------------------------------------------------


def is_true(v: Value | None) -> bool:
    """Go's isTrue (every kind the model has is meaningful)."""
    if v is None:
        return False
    k = v.t.kind
    if k in ("slice", "map", "array"):
        return bool(v.x)
    if k == "string":
        return v.x != ""
    if k == "bool":
        return v.x
    if k in COMPLEX_KINDS or k in INT_KINDS or k in UINT_KINDS or k in FLOAT_KINDS:
        return v.x != 0
    if k in ("ptr", "interface", "func", "chan"):
        return v.x is not None
    return True  # struct


def truth(v: Value | None) -> bool:
    return is_true(indirect_interface(v))


def basic_kind(v: Value | None) -> str | None:
    if v is None:
        return None
    k = v.t.kind
    if k == "bool":
        return "bool"
    if k in INT_KINDS:
        return "int"
    if k in UINT_KINDS:
        return "uint"
    if k in FLOAT_KINDS:
        return "float"
    if k in COMPLEX_KINDS:
        return "complex"
    if k == "string":
        return "string"
    return None


def comparable(t: GoType) -> bool:
    if t.kind in ("slice", "map", "func"):
        return False
    if t.kind == "struct":
        return all(comparable(f.type) for f in t.fields)
    return True


def _sprint_v(v: Value | None) -> str:
    p = gofmt.Printer()
    p.print_arg(v, "v")
    return p.text()


def _sprint_s(v: Value | None) -> str:
    p = gofmt.Printer()
    p.print_arg(v, "s")
    return p.text()


def _equal(a: Value, b: Value) -> bool:
    """Go's == on two values of one comparable type (no nil involved at the top)."""
    k = a.t.kind
    if a.t.name != b.t.name:
        return False
    if k == "ptr":
        if a.x is None or b.x is None:
            return a.x is None and b.x is None
        raise gofmt.Unreproducible("comparing two non-nil pointers (Go compares memory addresses)")
    if k == "struct":
        if a.t.opaque:
            raise gofmt.Unreproducible(f"comparing values of {a.t.name}")
        return all(_equal(struct_field(a, f), struct_field(b, f)) for f in a.t.fields)
    if k == "interface":
        if a.x is None or b.x is None:
            return a.x is None and b.x is None
        return _equal(a.x, b.x)
    return a.x == b.x


def eq(arg1: Value | None, *arg2: Value | None) -> Value:
    arg1 = indirect_interface(arg1)
    if not arg2:
        raise FuncError("missing argument for comparison")
    k1 = basic_kind(arg1)
    for arg in arg2:
        arg = indirect_interface(arg)
        k2 = basic_kind(arg)
        t = False
        if k1 != k2:
            if k1 == "int" and k2 == "uint":
                t = arg1.x >= 0 and arg1.x == arg.x
            elif k1 == "uint" and k2 == "int":
                t = arg.x >= 0 and arg1.x == arg.x
            elif arg1 is not None and arg is not None:
                raise FuncError(f"incompatible types for comparison: {arg1.t} and {arg.t}")
        elif k1 is not None:
            t = arg1.x == arg.x
        else:
            if not (arg1 is None or arg is None or arg1.t.kind == arg.t.kind):
                raise FuncError(f"non-comparable types {_sprint_s(arg1)}: {arg1.t}, {arg.t}: {_sprint_v(arg)}")
            if is_nil(arg1) or is_nil(arg):
                t = is_nil(arg) == is_nil(arg1)
            else:
                if not comparable(arg.t):
                    raise FuncError(f"non-comparable type {_sprint_s(arg)}: {arg.t}")
                t = _equal(arg1, arg)
        if t:
            return Value(BOOL, True)
    return Value(BOOL, False)


def ne(arg1: Value | None, arg2: Value | None) -> Value:
    return Value(BOOL, not eq(arg1, arg2).x)


def _lt(arg1: Value | None, arg2: Value | None) -> bool:
    arg1 = indirect_interface(arg1)
    k1 = basic_kind(arg1)
    if k1 is None:
        raise FuncError("invalid type for comparison")
    arg2 = indirect_interface(arg2)
    k2 = basic_kind(arg2)
    if k2 is None:
        raise FuncError("invalid type for comparison")
    if k1 != k2:
        if k1 == "int" and k2 == "uint":
            return arg1.x < 0 or arg1.x < arg2.x
        if k1 == "uint" and k2 == "int":
            return arg2.x >= 0 and arg1.x < arg2.x
        raise FuncError(f"incompatible types for comparison: {arg1.t} and {arg2.t}")
    if k1 in ("bool", "complex"):
        raise FuncError("invalid type for comparison")
    if k1 == "string":
        return arg1.x.encode() < arg2.x.encode()
    return arg1.x < arg2.x


def lt(a: Value | None, b: Value | None) -> Value:
    return Value(BOOL, _lt(a, b))


def le(a: Value | None, b: Value | None) -> Value:
    if _lt(a, b):
        return Value(BOOL, True)
    return eq(a, b)


def gt(a: Value | None, b: Value | None) -> Value:
    return Value(BOOL, not le(a, b).x)


def ge(a: Value | None, b: Value | None) -> Value:
    return Value(BOOL, not _lt(a, b))


def not_(a: Value | None) -> Value:
    return Value(BOOL, not truth(a))


# -- len, index, slice --------------------------------------------------------


def length_fn(item: Value | None) -> Value:
    item, isnil = indirect(item)
    if isnil:
        raise FuncError("len of nil pointer")
    if item is None:
        raise FuncError("reflect: call of reflect.Value.Type on zero Value")
    if item.t.kind in ("array", "chan", "map", "slice", "string"):
        return Value(INT, length(item))
    raise FuncError(f"len of type {item.t}")


def _index_arg(index: Value | None, cap: int) -> int:
    if index is None:
        raise FuncError("cannot index slice/array with nil")
    if index.t.kind in INT_KINDS or index.t.kind in UINT_KINDS:
        x = index.x
    else:
        raise FuncError(f"cannot index slice/array with type {index.t}")
    if x < 0 or x > cap:
        raise FuncError(f"index out of range: {x}")
    return x


def _prepare_map_key(index: Value | None, key: GoType) -> Value:
    if index is None:
        raise FuncError(f"value is nil; should be of type {key}")
    if index.t.name == key.name:
        return index
    if (index.t.kind in INT_KINDS or index.t.kind in UINT_KINDS) and (key.kind in INT_KINDS or key.kind in UINT_KINDS):
        return Value(key, index.x)
    raise FuncError(f"value has type {index.t}; should be {key}")


def index_fn(item: Value | None, *indexes: Value | None) -> Value | None:
    item = indirect_interface(item)
    if item is None:
        raise FuncError("index of untyped nil")
    for index in indexes:
        index = indirect_interface(index)
        item, isnil = indirect(item)
        if isnil:
            raise FuncError("index of nil pointer")
        k = item.t.kind
        if k in ("array", "slice", "string"):
            n = length(item)
            x = _index_arg(index, n)
            if x >= n:
                what = {"slice": "slice", "array": "array", "string": "string"}[k]
                raise FuncError(f"reflect: {what} index out of range")
            item = index_elem(item, x)
        elif k == "map":
            key = _prepare_map_key(index, item.t.key)
            found = map_get(item, str(key.x)) if item.t.key.kind == "string" else None
            item = found if found is not None else zero(item.t.elem)
        else:
            raise FuncError(f"can't index item of type {item.t}")
    return item


def slice_fn(item: Value | None, *indexes: Value | None) -> Value:
    item = indirect_interface(item)
    if item is None:
        raise FuncError("slice of untyped nil")
    item, isnil = indirect(item)
    if isnil:
        raise FuncError("slice of nil pointer")
    if len(indexes) > 3:
        raise FuncError(f"too many slice indexes: {len(indexes)}")
    k = item.t.kind
    if k == "string":
        if len(indexes) == 3:
            raise FuncError("cannot 3-index slice a string")
    elif k not in ("array", "slice"):
        raise FuncError(f"can't slice item of type {item.t}")
    n = length(item)
    idx = [0, n, 0]
    for i, index in enumerate(indexes):
        idx[i] = _index_arg(index, n)
    if idx[0] > idx[1]:
        raise FuncError(f"invalid slice index: {idx[0]} > {idx[1]}")
    if len(indexes) == 3 and idx[1] > idx[2]:
        raise FuncError(f"invalid slice index: {idx[1]} > {idx[2]}")
    if k == "string":
        return Value(item.t, item.x.encode()[idx[0] : idx[1]].decode("utf-8", "replace"))
    raw = item.x or []
    return Value(item.t, raw[idx[0] : idx[1]])


# -- printing -----------------------------------------------------------------


def _printable(v: Value | None) -> Value | None:
    """text/template's printableValue on a non-addressable value (what evalArgs sees)."""
    if v is not None and v.t.kind == "ptr":
        v, _ = indirect(v)
    if v is None:
        return Value(STRING, "<no value>")
    return v


def eval_args(args: tuple[Value | None, ...]) -> str:
    if len(args) == 1 and args[0] is not None and args[0].t is STRING:
        return args[0].x
    return gofmt.sprint([_printable(indirect_interface(a)) for a in args])


_HTML_ESCAPES = {"\0": "\ufffd", '"': "&#34;", "'": "&#39;", "&": "&amp;", "<": "&lt;", ">": "&gt;"}
_JS_ESCAPES = {"\\": "\\\\", "'": "\\'", '"': '\\"', "<": "\\u003C", ">": "\\u003E", "&": "\\u0026", "=": "\\u003D"}


def html_escape(s: str) -> str:
    return "".join(_HTML_ESCAPES.get(c, c) for c in s)


def js_escape(s: str) -> str:
    out = []
    for c in s:
        if c in _JS_ESCAPES:
            out.append(_JS_ESCAPES[c])
        elif ord(c) < 0x20:
            out.append(f"\\u00{ord(c):02X}")
        elif ord(c) < 0x80 or gofmt.is_print(c):
            out.append(c)
        else:
            out.append(f"\\u{ord(c):04X}")
    return "".join(out)


def query_escape(s: str) -> str:
    out = []
    for b in s.encode():
        c = chr(b)
        if c.isascii() and (c.isalnum() or c in "-_.~"):
            out.append(c)
        elif c == " ":
            out.append("+")
        else:
            out.append(f"%{b:02X}")
    return "".join(out)


def _str(s: str) -> Value:
    return Value(STRING, s)


def _printf(fmt: Value, *args: Value | None) -> Value:
    return _str(gofmt.sprintf(fmt.x, [indirect_interface(a) for a in args]))


def _call_not_reached(*_: Value | None) -> Value | None:
    raise AssertionError("and/or/call are evaluated by the executor")


BUILTINS: dict[str, Func] = {
    "and": Func("and", (VALUE, VALUE), True, _call_not_reached),
    "or": Func("or", (VALUE, VALUE), True, _call_not_reached),
    "call": Func("call", (VALUE, VALUE), True, _call_not_reached),
    "not": Func("not", (VALUE,), False, not_),
    "len": Func("len", (VALUE,), False, length_fn),
    "index": Func("index", (VALUE, VALUE), True, index_fn),
    "slice": Func("slice", (VALUE, VALUE), True, slice_fn),
    "print": Func("print", (ANY,), True, lambda *a: _str(gofmt.sprint([indirect_interface(x) for x in a]))),
    "printf": Func("printf", (STRING, ANY), True, _printf),
    "println": Func("println", (ANY,), True, lambda *a: _str(gofmt.sprintln([indirect_interface(x) for x in a]))),
    "html": Func("html", (ANY,), True, lambda *a: _str(html_escape(eval_args(a)))),
    "js": Func("js", (ANY,), True, lambda *a: _str(js_escape(eval_args(a)))),
    "urlquery": Func("urlquery", (ANY,), True, lambda *a: _str(query_escape(eval_args(a)))),
    "eq": Func("eq", (VALUE, VALUE), True, eq),
    "ne": Func("ne", (VALUE, VALUE), False, ne),
    "lt": Func("lt", (VALUE, VALUE), False, lt),
    "le": Func("le", (VALUE, VALUE), False, le),
    "gt": Func("gt", (VALUE, VALUE), False, gt),
    "ge": Func("ge", (VALUE, VALUE), False, ge),
}


def call_fn(name: str, fn: Value | None, *args: Value | None) -> Value | None:
    """The `call` builtin: the data model holds no function values, so it can only fail as Go does."""
    fn = indirect_interface(fn)
    if fn is None:
        raise FuncError("call of nil")
    raise FuncError(f"non-function {name} of type {fn.t}")

