"""Go's YAML as the endpoint picker config meets it: sigs.k8s.io/yaml over goyaml.v2 (Go's JSON is llmc.go.json).

Parsing: YAML 1.1 scalars as goyaml.v2 resolves them (y/n/on/off are booleans, timestamps stay
strings, ints in Go's base-0 syntax), then converted to JSON and back as the API machinery does:
keys become strings, integral numbers become ints, NaN/Inf make the document unparsable.
Dumping: goyaml.v2's emitter (a libyaml port, like PyYAML's): keys in goyaml.v2's natural order,
strings that would read back as another type double-quoted, multi-line strings literal,
2-space indentation, sequences not indented under their key, lines folded at 80 columns.
"""

from __future__ import annotations

import datetime
import functools
import math
import re
import unicodedata

import yaml

from llmc.core.jsoncopy import copy_json
from llmc.go.strconv import format_float, parse_int, parse_uint

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any, Callable

_STR, _BOOL, _NULL, _INT, _FLOAT = (f"tag:yaml.org,2002:{t}" for t in ("str", "bool", "null", "int", "float"))
_MERGE = "tag:yaml.org,2002:merge"
_WORDS: dict[str, tuple[str, Any]] = {}
for _words, _value in (("y Y yes Yes YES true True TRUE on On ON", True), ("n N no No NO false False FALSE off Off OFF", False)):
    _WORDS.update({w: (_BOOL, _value) for w in _words.split()})
_WORDS.update({w: (_NULL, None) for w in ("~", "null", "Null", "NULL")})
_WORDS[""] = (_NULL, None)
for _words, _value in ((".nan .NaN .NAN", math.nan), (".inf .Inf .INF +.inf +.Inf +.INF", math.inf), ("-.inf -.Inf -.INF", -math.inf)):
    _WORDS.update({w: (_FLOAT, _value) for w in _words.split()})

_BASE60_FLOAT = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?")
_TIMESTAMP = re.compile(
    r"(\d{4})-(\d{1,2})-(\d{1,2})"
    r"(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})"
    r"| (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?)?"
)
_INT64 = 1 << 63
YAML_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")  # goyaml.v2 resolve.go yamlStyleFloat


def resolve_int(plain: str) -> int | None:
    """goyaml.v2's int resolution of a plain scalar (underscores removed): `strconv.ParseInt(plain, 0, 64)`,
    else `ParseUint(plain, 0, 64)`; None if neither parses."""
    value = parse_int(plain)
    return value if value is not None else parse_uint(plain)


def go_yaml_resolve(text: str) -> tuple[str, Any]:
    """goyaml.v2 `resolve` for a plain scalar: (tag, value). Timestamps are reported as strings
    (decoding into interface{} keeps them so) but still make an emitted string quoted."""
    if text in _WORDS:
        return _WORDS[text]
    first = text[0]
    if first == ".":
        if re.fullmatch(r"\.[0-9]+([eE][-+]?[0-9]+)?", text):
            return _FLOAT, float(text)
    elif first in "+-0123456789":
        plain = text.replace("_", "")
        value = resolve_int(plain)
        if value is not None:
            return _INT, value
        if YAML_FLOAT.fullmatch(plain):
            return _FLOAT, float(plain)
    return _STR, text


def _reads_as_other_type(text: str) -> bool:
    """Whether goyaml.v2 quotes this string: it would resolve to another type (a timestamp
    included), or is a base-60 float, or is `<<` (resolve.go's merge tag)."""
    if text == "<<" or go_yaml_resolve(text)[0] != _STR:
        return True
    return _is_timestamp(text) or bool(_BASE60_FLOAT.fullmatch(text))


def _is_timestamp(text: str) -> bool:
    """goyaml.v2 parseTimestamp: `2006-1-2`, with `T`/`t` time and zone, or ` ` time without zone."""
    match = _TIMESTAMP.fullmatch(text)
    if match is None:
        return False
    year, month, day = (int(g) for g in match.groups()[:3])
    clock = [int(g) for g in match.groups()[3:] if g is not None]
    try:
        datetime.date(year, month, day)
    except ValueError:
        return False
    return not clock or (clock[0] < 24 and clock[1] < 60 and clock[2] < 60)


class _GoLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """libyaml's parser (PyYAML's pure-Python one without libyaml) with goyaml.v2's plain-scalar resolution.

    CParser calls this class's `resolve` for every scalar, as the Python parser does; it is about ten
    times faster, and goyaml.v2 is itself a port of libyaml.
    """

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:  # noqa: D401 - PyYAML hook
        if kind is yaml.ScalarNode and implicit[0]:
            if value == "<<":
                return _MERGE
            return go_yaml_resolve(value)[0]
        return super().resolve(kind, value, implicit)


for _tag in (_BOOL, _NULL, _INT, _FLOAT):
    _GoLoader.add_constructor(_tag, lambda loader, node: go_yaml_resolve(loader.construct_scalar(node))[1])


class _Unparsable(Exception):
    pass


def parse_go_yaml(text: str) -> Any:
    """sigs.k8s.io/yaml.Unmarshal of the first document into JSON values; None when it fails.

    Every call returns a new value; each text is parsed once per run (services share their config text).
    """
    return copy_json(_parse_go_yaml(text))


@functools.lru_cache(maxsize=256)
def _parse_go_yaml(text: str) -> Any:
    try:
        loader = _GoLoader(text)
    except yaml.YAMLError:  # e.g. a character YAML does not allow, seen while reading the stream
        return None
    try:
        if not loader.check_node():
            return None
        return _jsonable(loader.construct_document(loader.get_node()))
    except (yaml.YAMLError, _Unparsable, RecursionError):
        return None
    finally:
        loader.dispose()


def _jsonable(value: Any) -> Any:
    """YAML → JSON → Go values: string keys, integral numbers as ints, no NaN/Inf."""
    if isinstance(value, dict):
        return {_json_key(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise _Unparsable()
        if value.is_integer() and abs(value) < 1e21 and -_INT64 <= int(value) < _INT64:
            return int(value)
        return value
    if isinstance(value, int) and not isinstance(value, bool) and not -_INT64 <= value < _INT64:
        return float(value)
    if value is None or isinstance(value, (str, int)):
        return value
    raise _Unparsable()  # explicit !!timestamp, !!binary, !!set ...: not worth reproducing


def _json_key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, int):
        return str(key)
    if isinstance(key, float):  # sigs.k8s.io/yaml: FormatFloat(key, 'g', -1, 32), infinities and NaN in YAML's words
        if math.isnan(key):
            return ".nan"
        if math.isinf(key):
            return ".inf" if key > 0 else "-.inf"
        return format_float(key, "g", -1, 32)
    raise _Unparsable()


def _go_key_less(a: str, b: str) -> bool:
    """goyaml.v2 keyList.Less for string keys: letters by code point, non-letters first, digit runs
    by value (Go's unicode.IsDigit: category Nd, valued as rune - '0')."""
    digit = lambda c: unicodedata.category(c) == "Nd"  # noqa: E731
    for i in range(min(len(a), len(b))):
        ca, cb = a[i], b[i]
        if ca == cb:
            continue
        la, lb = ca.isalpha(), cb.isalpha()
        if la and lb:
            return ca < cb
        if la or lb:
            return lb
        an = bn = 0
        if ca == "0" or cb == "0":
            j = i - 1
            while j >= 0 and digit(a[j]):
                if a[j] != "0":
                    an = bn = 1
                    break
                j -= 1
        ai = i
        while ai < len(a) and digit(a[ai]):
            an = an * 10 + ord(a[ai]) - 48
            ai += 1
        bi = i
        while bi < len(b) and digit(b[bi]):
            bn = bn * 10 + ord(b[bi]) - 48
            bi += 1
        if an != bn:
            return an < bn
        if ai != bi:
            return ai < bi
        return ca < cb
    return len(a) < len(b)


def _go_sorted_keys(keys: list[str]) -> list[str]:
    return sorted(keys, key=functools.cmp_to_key(lambda x, y: -1 if _go_key_less(x, y) else (1 if _go_key_less(y, x) else 0)))


class _GoDumper(yaml.SafeDumper):
    """Every scalar is written as a str-tagged node whose style is chosen like goyaml.v2's encoder."""

    yaml_implicit_resolvers: dict = {}

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text else ('"' if _reads_as_other_type(text) else None)
    return dumper.represent_scalar(_STR, text, style=style)


def _represent_plain(text: str) -> Callable[[yaml.SafeDumper, Any], yaml.ScalarNode]:
    return lambda dumper, _: dumper.represent_scalar(_STR, text)


_GoDumper.add_representer(str, _represent_str)
_GoDumper.add_representer(bool, lambda d, v: d.represent_scalar(_STR, "true" if v else "false"))
_GoDumper.add_representer(int, lambda d, v: d.represent_scalar(_STR, str(v)))
_GoDumper.add_representer(float, lambda d, v: d.represent_scalar(_STR, _yaml_float(v)))
_GoDumper.add_representer(type(None), _represent_plain("null"))
def _represent_map(dumper: yaml.SafeDumper, value: dict[str, Any]) -> yaml.MappingNode:
    return dumper.represent_mapping("tag:yaml.org,2002:map", [(k, value[k]) for k in _go_sorted_keys(list(value))])


_GoDumper.add_representer(dict, _represent_map)
_GoDumper.add_multi_representer(dict, _represent_map)  # subclasses, e.g. a config that keeps its raw text


def _yaml_float(value: float) -> str:
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    return format_float(value, "g", -1)


_DUMPED: dict[str, str] = {}
_DUMPED_MAX = 1024


def dump_go_yaml(value: Any) -> str:
    """sigs.k8s.io/yaml.Marshal of JSON values.

    Remembered by `repr(value)`, which for JSON values tells every type, key order and
    number apart: services that share a config get its text without a second dump.
    """
    key = repr(value)
    text = _DUMPED.get(key)
    if text is None:
        text = yaml.dump(value, Dumper=_GoDumper, default_flow_style=False, allow_unicode=True, width=80, indent=2)
        if len(_DUMPED) < _DUMPED_MAX:
            _DUMPED[key] = text
    return text
