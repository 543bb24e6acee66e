"""Go values as the template engine sees them: a Go type plus a payload.

Templates only ever see this model, never Python objects, so they cannot reach
files, the environment or interpreter internals. Data decoded from JSON is
wrapped lazily: a struct value keeps its JSON object and builds field values on
access, typed by its `GoType`, so absent fields read as Go zero values and
absent pointers as nil.

Payloads by kind: scalars hold Python bool/int/float/complex/str; `ptr` holds
the pointee `Value` or None (nil); `struct` holds a dict (JSON object, JSON keys)
or None (zero struct); `slice` a list or None (nil); `map` a dict or None (nil);
`interface` the dynamic `Value` or None (nil).
"""

from __future__ import annotations


from llmc.core.record import field, record

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any, Callable

INT_KINDS = frozenset({"int", "int8", "int16", "int32", "int64"})
UINT_KINDS = frozenset({"uint", "uint8", "uint16", "uint32", "uint64", "uintptr"})
FLOAT_KINDS = frozenset({"float32", "float64"})
COMPLEX_KINDS = frozenset({"complex64", "complex128"})
NILLABLE_KINDS = frozenset({"ptr", "slice", "map", "interface", "func", "chan"})

_BITS = {"int": 64, "int8": 8, "int16": 16, "int32": 32, "int64": 64}
_UBITS = {"uint": 64, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64, "uintptr": 64}


@record(eq=False)
class GoField:
    """One struct field: Go name, JSON key (None: the same JSON object, i.e. `,inline`), type."""

    name: str
    json: str | None
    type: "GoType"
    embedded: bool = False

    @property
    def exported(self) -> bool:
        return self.name[:1].isupper()


@record(eq=False)
class GoType:
    """A Go type: `name` is what reflect.Type.String() prints (e.g. `*v1alpha2.ParallelismSpec`).

    `stringer` is the String method, if any (it gets None for a nil pointer receiver
    and returns None where Go's method would panic); `stringer_ptr` says whether it
    has a pointer receiver (then only addressable values use it when printed).
    `methods` maps method names to Python callables taking the receiver Value
    (and argument Values) and returning a Value; `from_raw` converts a JSON value
    into this type's payload for types whose payload is not the JSON itself.
    """

    name: str
    kind: str
    elem: "GoType | None" = None
    key: "GoType | None" = None
    fields: list[GoField] = field(default_factory=list)
    stringer: Callable[["Value | None"], str | None] | None = None
    stringer_ptr: bool = False
    methods: dict[str, "Method"] = field(default_factory=dict)
    from_raw: Callable[[Any], Any] | None = None
    opaque: bool = False  # internals Go would print are not modelled
    partial: bool = False  # a struct of which llmc models only some fields

    def __str__(self) -> str:
        return self.name

    def field_index(self) -> dict[str, GoField]:
        cached = self.__dict__.get("_index")
        if cached is None:
            cached = {f.name: f for f in self.fields}
            self.__dict__["_index"] = cached
        return cached


@record(frozen=True)
class Method:
    """A Go method the model exposes: fixed parameter types, one result, pointer or value receiver."""

    params: tuple[GoType, ...]
    result: GoType
    fn: Callable[..., "Value"]
    ptr_receiver: bool = False


class Value:
    """A Go value: type, payload, and whether it is addressable (reached through a pointer)."""

    __slots__ = ("t", "x", "addr")

    def __init__(self, t: GoType, x: Any, addr: bool = False) -> None:
        self.t = t
        self.x = x
        self.addr = addr

    @property
    def kind(self) -> str:
        return self.t.kind

    def __repr__(self) -> str:
        return f"Value({self.t.name}, {self.x!r})"


def basic(name: str, kind: str | None = None) -> GoType:
    return GoType(name, kind or name)


BOOL = basic("bool")
INT = basic("int")
INT8 = basic("int8")
INT16 = basic("int16")
INT32 = basic("int32")
INT64 = basic("int64")
UINT = basic("uint")
UINT8 = basic("uint8")
UINT16 = basic("uint16")
UINT32 = basic("uint32")
UINT64 = basic("uint64")
UINTPTR = basic("uintptr")
FLOAT32 = basic("float32")
FLOAT64 = basic("float64")
COMPLEX64 = basic("complex64")
COMPLEX128 = basic("complex128")
STRING = basic("string")
ANY = GoType("interface {}", "interface")
BASIC = {t.name: t for t in (BOOL, INT, INT8, INT16, INT32, INT64, UINT, UINT8, UINT16, UINT32, UINT64,
                             UINTPTR, FLOAT32, FLOAT64, COMPLEX64, COMPLEX128, STRING)}

# (kind, id(elem), id(key)) -> the one type made of them, as Go has one *T per T. A made type
# refers to its elem and key, so the ids in the keys stay those of live objects.
_MADE: dict[tuple[str, int, int], GoType] = {}


def _made(kind: str, elem: GoType, key: GoType | None = None) -> GoType:
    cache_key = (kind, id(elem), id(key))
    t = _MADE.get(cache_key)
    if t is None:
        prefix = "*" if kind == "ptr" else "[]" if kind == "slice" else f"map[{key.name}]"  # type: ignore[union-attr]
        t = _MADE[cache_key] = GoType(prefix + elem.name, kind, elem=elem, key=key)
    return t


def ptr_to(t: GoType) -> GoType:
    return _made("ptr", t)


def slice_of(t: GoType) -> GoType:
    return _made("slice", t)


def map_of(k: GoType, v: GoType) -> GoType:
    return _made("map", v, k)


MAP_ANY = map_of(STRING, ANY)
SLICE_ANY = slice_of(ANY)
BYTES = slice_of(UINT8)


# -- construction -----------------------------------------------------------


def zero_payload(t: GoType) -> Any:
    k = t.kind
    if k == "bool":
        return False
    if k in INT_KINDS or k in UINT_KINDS:
        return 0
    if k in FLOAT_KINDS:
        return 0.0
    if k in COMPLEX_KINDS:
        return 0j
    if k == "string":
        return ""
    if k == "struct":
        return None
    return None


def zero(t: GoType) -> Value:
    return Value(t, zero_payload(t))


def from_json(t: GoType, raw: Any, addr: bool = False) -> Value:
    """Wrap decoded JSON as a value of type t (absent/null → zero value)."""
    k = t.kind
    if t.from_raw is not None:
        return Value(t, t.from_raw(raw), addr)
    if raw is None:
        return Value(t, zero_payload(t), addr)
    if k == "ptr":
        return Value(t, from_json(t.elem, raw, True), addr)
    if k == "interface":
        return Value(t, dynamic(raw), addr)
    if k in INT_KINDS or k in UINT_KINDS:
        return Value(t, int(raw), addr)
    if k in FLOAT_KINDS:
        return Value(t, float(raw), addr)
    if k == "bool":
        return Value(t, bool(raw), addr)
    if k == "string":
        return Value(t, raw if isinstance(raw, str) else str(raw), addr)
    return Value(t, raw, addr)


def dynamic(raw: Any) -> Value | None:
    """What encoding/json puts into an interface{}: map[string]interface {}, []interface {}, float64, ..."""
    if raw is None:
        return None
    if isinstance(raw, bool):
        return Value(BOOL, raw)
    if isinstance(raw, (int, float)):
        return Value(FLOAT64, float(raw))
    if isinstance(raw, str):
        return Value(STRING, raw)
    if isinstance(raw, list):
        return Value(SLICE_ANY, raw)
    if isinstance(raw, dict):
        return Value(MAP_ANY, raw)
    raise TypeError(f"not JSON: {type(raw).__name__}")


# -- access -----------------------------------------------------------------


def is_nil(v: Value | None) -> bool:
    """Go's isNil in funcs.go: invalid, or a nil value of a nillable kind."""
    if v is None:
        return True
    return v.t.kind in NILLABLE_KINDS and v.x is None


def indirect(v: Value | None) -> tuple[Value | None, bool]:
    """Follow pointers and interfaces; stop at a nil one (returned with True)."""
    while v is not None and v.t.kind in ("ptr", "interface"):
        if v.x is None:
            return v, True
        v = v.x
    return v, False


def indirect_interface(v: Value | None) -> Value | None:
    if v is None or v.t.kind != "interface":
        return v
    return v.x


def find_field(t: GoType, name: str) -> list[GoField] | None:
    """reflect's FieldByName: the path of fields to `name`, breadth-first through embedded structs.

    Remembered per type (like `field_index`, it assumes a type's fields are final once used);
    callers must not modify the returned list.
    """
    paths = t.__dict__.setdefault("_paths", {})
    if name not in paths:
        paths[name] = _find_field(t, name)
    return paths[name]


def _find_field(t: GoType, name: str) -> list[GoField] | None:
    level: list[tuple[GoType, list[GoField]]] = [(t, [])]
    seen: set[int] = set()
    while level:
        found: list[list[GoField]] = []
        nxt: list[tuple[GoType, list[GoField]]] = []
        for st, path in level:
            if id(st) in seen:
                continue
            seen.add(id(st))
            f = st.field_index().get(name)
            if f is not None:
                found.append(path + [f])
                continue
            for f in st.fields:
                if f.embedded:
                    ft = f.type.elem if f.type.kind == "ptr" else f.type
                    if ft is not None and ft.kind == "struct":
                        nxt.append((ft, path + [f]))
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            return None
        level = nxt
    return None


class NilEmbedded(Exception):
    """A promoted field was reached through a nil embedded pointer."""

    def __init__(self, field_name: str) -> None:
        super().__init__(field_name)
        self.field_name = field_name


def struct_field(v: Value, f: GoField) -> Value:
    raw = v.x
    if f.json is None:
        sub = raw
    else:
        sub = raw.get(f.json) if raw is not None else None
    if f.json is None and f.type.kind == "struct":
        return Value(f.type, raw if raw is not None else None, v.addr)
    return from_json(f.type, sub, v.addr)


def field_by_path(v: Value, path: list[GoField]) -> Value:
    cur = v
    for i, f in enumerate(path):
        if i > 0 and cur.t.kind == "ptr":
            if cur.x is None:
                raise NilEmbedded(path[i - 1].name)
            cur = cur.x
        cur = struct_field(cur, f)
    return cur


def length(v: Value) -> int:
    x = v.x
    if x is None:
        return 0
    return len(x) if v.t.kind != "string" else len(x.encode())


def index_elem(v: Value, i: int) -> Value:
    """Element i of a slice/array (addressable) or byte i of a string."""
    if v.t.kind == "string":
        return Value(UINT8, v.x.encode()[i])
    return from_json(v.t.elem, v.x[i], v.t.kind == "slice" or v.addr)


def map_get(v: Value, key: str) -> Value | None:
    if v.x is None or key not in v.x:
        return None
    return from_json(v.t.elem, v.x[key])


def string_order(s: str) -> bytes:
    """The bytes Go holds for a string, for sorting as Go sorts strings.

    Code point order is the same unless invalid UTF-8 is held as surrogateescape surrogates;
    a lone surrogate from a JSON escape is U+FFFD in Go.
    """
    try:
        return s.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" and not "\udc80" <= c <= "\udcff" else c
                       for c in s).encode("utf-8", "surrogateescape")


def sorted_map_items(v: Value) -> list[tuple[Value, Value]]:
    """fmtsort order for the map keys llmc's data can have (strings, numbers, bools)."""
    if not v.x:
        return []
    keys = sorted(v.x, key=string_order) if v.t.key.kind == "string" else sorted(v.x)
    kt = v.t.key
    return [(from_json(kt, k), from_json(v.t.elem, v.x[k])) for k in keys]


def int_range(kind: str) -> tuple[int, int]:
    if kind in _BITS:
        b = _BITS[kind]
        return -(1 << (b - 1)), (1 << (b - 1)) - 1
    return 0, (1 << _UBITS[kind]) - 1
