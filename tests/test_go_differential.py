"""llmc.go against Go itself: strconv.Quote/QuoteToASCII/FormatFloat/ParseInt/ParseUint/ParseFloat,
json.Marshal, fmt.Sprint and fmt.Sprintf, byte for byte (tests/go/gofuncs, one process per batch).

Strings reach Go as bytes: an invalid UTF-8 byte is a surrogateescape surrogate on llmc's side.
Characters Python's Unicode tables leave unassigned are not generated (Go's tables may be newer;
see llmc/go/strconv.py). Floats reach Go as their IEEE-754 bits.
"""

from __future__ import annotations

import base64
import json
import math
import struct
import subprocess
import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from llmc.go import strconv
from llmc.go import json as gojson
from llmc.go.fmt import sprint_json, sprintf
from llmc.go.reflect import dynamic
from llmc.resolve import dra_claims

SETTINGS = settings(max_examples=8, deadline=None, derandomize=True, phases=[Phase.generate],
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                           HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def go_run(go_build):
    out = go_build("gofuncs")

    def run(cases: list[dict[str, Any]]) -> list[bytes | None]:
        """Go's output bytes per case, None where Go returned an error."""
        lines = "".join(json.dumps(c) + "\n" for c in cases)
        done = subprocess.run([str(out)], input=lines, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        results = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(results) == len(cases)
        return [None if "err" in r else base64.b64decode(r["out"]) for r in results]

    return run


def _bytes(text: str) -> list[int]:
    return list(text.encode("utf-8", "surrogateescape"))


def _bits(value: float) -> str:
    return str(struct.unpack("<Q", struct.pack("<d", value))[0])


def _wire(value: Any, ints_as_floats: bool = False) -> Any:
    """A value as the harness reads it: strings as bytes, floats as bits, maps as ordered pairs."""
    if isinstance(value, str):
        return {"b": _bytes(value)}
    if isinstance(value, float) or (ints_as_floats and isinstance(value, int) and not isinstance(value, bool)):
        return {"f": _bits(float(value))}
    if isinstance(value, list):
        return [_wire(v, ints_as_floats) for v in value]
    if isinstance(value, dict):
        return {"map": [[_wire(k), _wire(v, ints_as_floats)] for k, v in value.items()]}
    return value


def _mine(text: str | None) -> bytes | None:
    return None if text is None else text.encode("utf-8", "surrogateescape")


def _compare(cases: list[Any], mine: list[bytes | None], go: list[bytes | None]) -> None:
    wrong = [(c, m, g) for c, m, g in zip(cases, mine, go) if m != g]
    assert not wrong, "\n".join(f"{c!r}: llmc {m!r}, Go {g!r}" for c, m, g in wrong[:10])


# -- strategies -------------------------------------------------------------


def _assigned(text: str) -> str:
    """The string Go sees (adjacent escaped bytes may form a character), without the characters Python's
    Unicode tables leave unassigned but Go's newer ones may assign (U+0378 is unassigned in both)."""
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
    return "".join(c for c in text if c == "\u0378" or unicodedata.category(c) != "Cn")


CONTROL = st.characters(min_codepoint=0, max_codepoint=0x9F)
UNICODE = st.characters(blacklist_categories=("Cn", "Cs"))
SPECIAL = st.sampled_from(["\u2028", "\u2029", "<", ">", "&", "\\", '"', "'", "`", "\ufeff", "\ufffd", "\u00a0",
                           "\u200b", "\U0001f600", "\u0378", "\U000e0001", "\x7f"])
INVALID = st.binary(min_size=1, max_size=4).map(lambda b: b.decode("utf-8", "surrogateescape"))
STRINGS = st.lists(st.one_of(st.text(CONTROL, max_size=4), st.text(UNICODE, max_size=6), SPECIAL, INVALID),
                   max_size=6).map(lambda parts: _assigned("".join(parts)))

FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-1e-300, max_value=1e-300),  # subnormals and tiny values
    st.floats(min_value=-1e25, max_value=1e25),
    st.floats(width=32),
    st.sampled_from([0.0, -0.0, 1e-7, 1e-6, 9.999999e-7, 1e20, 1e21, 1e21 - 65536, 1e-5, 1e6, 123456.0,
                     1234567.0, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 3.4028235e38,
                     3.4028236e38, 16777217.0, 0.1, 2.5, 0.5, 1.0, 100.0]),
    st.integers(-40, 40).map(lambda e: 10.0 ** e),
)
FINITE = FLOATS.filter(math.isfinite)
FLOAT_FORMATS = st.tuples(FLOATS, st.sampled_from("eEfgG"), st.integers(-1, 25), st.sampled_from([32, 64]))

NUMBER_TEXT = st.lists(st.sampled_from(["+", "-", "0", "0x", "0X", "0o", "0b", "0B", "1", "7", "8", "9", "_", "a",
                                        "F", "9223372036854775807", "9223372036854775808", "18446744073709551615",
                                        "18446744073709551616", ".", "e", "E", "p", "P", "5", "e-3", "p+2"]),
                       min_size=1, max_size=6).map("".join)

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**63 - 1), FLOATS, STRINGS)


def json_values(scalars: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(STRINGS, inner, max_size=4)),
                        max_leaves=12)


# -- strconv ----------------------------------------------------------------


@SETTINGS
@given(texts=st.lists(STRINGS, min_size=50, max_size=150))
def test_quote_is_go(go_run, texts: list[str]) -> None:
    cases = [{"op": op, "b": _bytes(t)} for t in texts for op in ("quote", "quote_ascii")]
    mine = [_mine(strconv.quote(t) if op == "quote" else strconv.quote_ascii(t)) for t in texts
            for op in ("quote", "quote_ascii")]
    _compare(cases, mine, go_run(cases))


@SETTINGS
@given(floats=st.lists(FLOAT_FORMATS, min_size=100, max_size=300))
def test_format_float_is_go(go_run, floats: list[tuple[float, str, int, int]]) -> None:
    cases = [{"op": "format_float", "bits": _bits(v), "fmt": f, "prec": p, "size": n} for v, f, p, n in floats]
    mine = [_mine(strconv.format_float(v, f, p, n)) for v, f, p, n in floats]
    _compare(cases, mine, go_run(cases))


@SETTINGS
@given(texts=st.lists(NUMBER_TEXT, min_size=100, max_size=300))
def test_parse_int_and_uint_are_go(go_run, texts: list[str]) -> None:
    cases = [{"op": op, "b": _bytes(t)} for t in texts for op in ("parse_int", "parse_uint")]
    mine = []
    for t in texts:
        for parse in (strconv.parse_int, strconv.parse_uint):
            n = parse(t)
            mine.append(None if n is None else str(n).encode())
    _compare(cases, mine, go_run(cases))


@SETTINGS
@given(texts=st.lists(NUMBER_TEXT, min_size=100, max_size=300))
def test_parse_float_is_go(go_run, texts: list[str]) -> None:
    cases = [{"op": "parse_float", "b": _bytes(t)} for t in texts]
    mine = []
    for t in texts:
        v = strconv.parse_float(t)
        mine.append(None if v is None else _bits(v).encode())
    _compare(cases, mine, go_run(cases))


# -- encoding/json ----------------------------------------------------------


@SETTINGS
@given(values=st.lists(json_values(SCALARS), min_size=30, max_size=100))
def test_marshal_is_go(go_run, values: list[Any]) -> None:
    cases = [{"op": "marshal", "value": _wire(v)} for v in values]
    mine = []
    for v in values:
        try:
            mine.append(_mine(gojson.marshal(v)))
        except gojson.UnsupportedValueError:
            mine.append(None)
    _compare(cases, mine, go_run(cases))


@SETTINGS
@given(values=st.lists(json_values(SCALARS), min_size=30, max_size=100))
def test_marshal_shortcut_is_the_full_encoder(values: list[Any]) -> None:
    """json.dumps is taken only where it writes Go's text: the float and surrogate scans miss nothing."""
    for v in values:
        try:
            slow = gojson._marshal(v, True)
        except gojson.UnsupportedValueError:
            continue
        assert gojson.marshal(v) == slow
        floats = [x for x in _leaves(v) if isinstance(x, float)]
        if floats:
            assert gojson._float_token(json.dumps(v, separators=(",", ":"))) or json.dumps(v)[:1] in "-0123456789"


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [x for item in value.values() for x in _leaves(item)]
    if isinstance(value, list):
        return [x for item in value for x in _leaves(item)]
    return [value]


CHARS = st.one_of(CONTROL, UNICODE, SPECIAL, INVALID).map(_assigned).filter(lambda c: c and c not in '"\\ \t\n\r')


@SETTINGS
@given(chars=st.lists(CHARS, min_size=30, max_size=100))
def test_json_syntax_errors_show_the_byte_as_go(go_run, chars: list[str]) -> None:
    """encoding/json's quoteChar (through templatedata.go_json_error): the offending byte, quoted."""
    from llmc.resolve.templatedata import go_json_error

    texts = [t for c in chars for t in ('{"x":""' + c + '"}', "[true" + c + "]", '{"a" ' + c + "}")]
    cases = [{"op": "unmarshal_error", "b": _bytes(t)} for t in texts]
    mine = []
    for t in texts:
        try:
            json.loads(t)
            mine.append(b"")
        except json.JSONDecodeError as e:
            mine.append(_mine(go_json_error(t, e)))
    _compare(cases, mine, go_run(cases))


# -- fmt --------------------------------------------------------------------


@SETTINGS
@given(values=st.lists(json_values(st.one_of(st.none(), st.booleans(), FLOATS, STRINGS)), min_size=30, max_size=100))
def test_sprint_of_decoded_json_is_go(go_run, values: list[Any]) -> None:
    cases = [{"op": "sprint", "value": _wire(v, ints_as_floats=True)} for v in values]
    _compare(cases, [_mine(sprint_json(v)) for v in values], go_run(cases))


FLOAT_VERBS = ["%v", "%g", "%G", "%e", "%E", "%f", "%F", "%.0f", "%.3g", "%12.4e", "%-9.2f|", "%+v", "% g", "%08.3f",
               "%#g", "%#.3e", "%+.10g", "%5.0e"]
STRING_VERBS = ["%v", "%s", "%q", "%+q", "%#q", "%x", "%X", "% x", "%#x", "%10s|", "%-6q|", "%.2s", "%.3q", "%#v"]


@SETTINGS
@given(args=st.lists(st.one_of(st.tuples(st.sampled_from(FLOAT_VERBS), FLOATS),
                               st.tuples(st.sampled_from(STRING_VERBS), STRINGS)), min_size=50, max_size=150))
def test_sprintf_verbs_are_go(go_run, args: list[tuple[str, Any]]) -> None:
    cases = [{"op": "sprintf", "b": _bytes(f), "value": _wire(v)} for f, v in args]
    _compare(cases, [_mine(sprintf(f, [dynamic(v)])) for f, v in args], go_run(cases))


# -- known values, for machines without Go --------------------------------


@pytest.mark.parametrize("call, text", [
    (lambda: strconv.quote('a"b\n\x00\x7fé\u00a0\t'), '"a\\"b\\n\\x00\\x7fé\\u00a0\\t"'),
    (lambda: strconv.quote("\udcff\x01\ud800"), '"\\xff\\x01\ufffd"'),  # invalid byte, control, lone surrogate
    (lambda: strconv.format_float(1e6, "g", -1), "1e+06"),
    (lambda: strconv.format_float(2147483647.0, "g", -1, 32), "2.1474836e+09"),
    (lambda: strconv.format_float(-0.0, "g", -1), "-0"),
    (lambda: gojson.marshal({"b": [1.0, 0.5, 1e-7, 1e20, 1e21], "a": "<&>", "c": None}),
     '{"a":"\\u003c\\u0026\\u003e","b":[1,0.5,1e-7,100000000000000000000,1e+21],"c":null}'),
    (lambda: gojson.marshal({"b": 1, "a": 2}, sort_keys=False), '{"b":1,"a":2}'),
    (lambda: sprint_json({"name": "x", "port": 8000, "list": [1.5, True, None, -0.0]}),
     "map[list:[1.5 true <nil> -0] name:x port:8000]"),
])
def test_known_values(call, text: str) -> None:
    assert call() == text


# -- the fixes the differential tests pinned, on llmc's own paths ----------


def test_dra_device_count_error_quotes_control_characters_as_go() -> None:
    """strconv.Atoi's message quotes with strconv.Quote (`\\x01`); json.dumps wrote `\\u0001`."""
    from llmc.core.errors import LlmcError

    with pytest.raises(LlmcError) as err:
        dra_claims.parse_annotations({dra_claims.DEVICE_CLASS: "gpu.example.com", dra_claims.DEVICE_COUNT: "2\x01"})
    assert '"2\\x01"' in err.value.message and "\\u0001" not in err.value.message


@settings(max_examples=200, deadline=None)
@given(texts=st.lists(st.lists(st.one_of(CONTROL, UNICODE, SPECIAL, INVALID, st.sampled_from('"\\<>&\u2028\u2029')),
                               max_size=12).map("".join), min_size=20, max_size=60))
def test_string_shortcut_is_the_escaper(texts: list[str]) -> None:
    """json.string's shortcuts (a string quoted as it is, or json.dumps) write what the
    character-by-character escaper writes (which test_marshal_is_go compares with Go)."""
    for text in texts:
        assert gojson.string(text) == gojson._string(text)
