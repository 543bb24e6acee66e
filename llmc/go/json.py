"""Go's encoding/json Marshal of plain data (None, bool, int, float, str, list, dict): compact text.

As Go writes it: `<`, `>`, `&`, U+2028 and U+2029 escaped (HTML-safe), `\\b \\f \\n \\r \\t` and
`\\u00XX` for the other control characters, an invalid UTF-8 byte (a surrogateescape
surrogate) or a lone surrogate as U+FFFD; floats in fixed notation unless below 1e-6
or from 1e21 on (`1e-7`, `1e+21`); NaN and infinities refused as Go refuses them.
"""

from __future__ import annotations

import json
import math
import re

from llmc.go.reflect import string_order
from llmc.go.strconv import format_float

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f",
            "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_SPECIAL = re.compile('["\\\\\x00-\x1f<>&\u2028\u2029\ud800-\udfff]')


class UnsupportedValueError(ValueError):
    """json.UnsupportedValueError: `json: unsupported value: NaN`."""


def _escape(m: re.Match[str]) -> str:
    c = m.group()
    if c in _ESCAPES:
        return _ESCAPES[c]
    return "\ufffd" if "\ud800" <= c <= "\udfff" else f"\\u{ord(c):04x}"


def string(text: str) -> str:
    """A JSON string literal as encoding/json writes it (HTML escaping on).

    Most strings need no escape. For the others json.dumps writes Go's escapes in C (a preset's script
    has hundreds of newlines and quotes), but for the HTML-safe ones (added after) and a surrogate
    (written as U+FFFD by `_escape`).
    """
    if _SPECIAL.search(text) is None:
        return '"' + text + '"'
    if has_surrogate(text):
        return _string(text)
    quoted = json.dumps(text, ensure_ascii=False)
    if not any(c in text for c in "<>&\u2028\u2029"):
        return quoted
    return _html_safe(quoted)


def _string(text: str) -> str:
    """`string` escaping character by character: the full encoder's (`_marshal`)."""
    return '"' + _SPECIAL.sub(_escape, text) + '"'


def _html_safe(text: str) -> str:
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def format_float64(value: float) -> str:
    """encoding/json's floatEncoder for a float64."""
    if math.isnan(value) or math.isinf(value):
        raise UnsupportedValueError(f"json: unsupported value: {format_float(value, 'g', -1)}")
    if value != 0 and (abs(value) < 1e-6 or abs(value) >= 1e21):
        text = format_float(value, "e", -1)
        if text[-4:-1] == "e-0":  # e-07 -> e-7
            text = text[:-2] + text[-1]
        return text
    return format_float(value, "f", -1)


# Python's json.dumps writes what encoding/json writes, but for the HTML escapes, floats and
# invalid UTF-8: a float token or a surrogate sends the value to `_marshal`. Python writes every
# float with a `.` or an `e+`/`e-` after a digit; the scans look for those literals (which the
# regex engine finds at memchr speed) and check the token before them (a string may look like one
# too, which only costs the slow path).
_FLOAT_MARKS = (re.compile(r"\.(?<=[0-9]\.)"), re.compile(r"e\+(?<=[0-9]e\+)"), re.compile(r"e-(?<=[0-9]e-)"))
_DIGITS = frozenset("0123456789")


def _float_token(text: str) -> bool:
    """Whether compact JSON `text` may hold a float: digits after `:`, `,` or `[` (a `-` between), then a mark."""
    for mark in _FLOAT_MARKS:
        for m in mark.finditer(text):
            start = m.start() - 1
            while start > 0 and text[start - 1] in _DIGITS:
                start -= 1
            if start > 0 and text[start - 1] == "-":
                start -= 1
            if start == 0 or text[start - 1] in ":,[":
                return True
    return False


def has_surrogate(text: str) -> bool:
    """Whether `text` holds a surrogate (no UTF-8 encoding: Go writes U+FFFD for it)."""
    if text.isascii():
        return False
    try:
        text.encode()
    except UnicodeEncodeError:
        return True
    return False


def marshal(value: Any, sort_keys: bool = True) -> str:
    """json.Marshal. Maps are sorted by key as Go sorts a map[string]T; `sort_keys=False` keeps the
    given order, for values standing in for Go structs (fields in declaration order)."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys, allow_nan=False)
    except (TypeError, ValueError):
        return _marshal(value, sort_keys)
    if _float_token(text) or has_surrogate(text) or text[:1] in "-0123456789":
        return _marshal(value, sort_keys)
    if not any(c in text for c in "<>&\u2028\u2029"):
        return text
    return _html_safe(text)


def _marshal(value: Any, sort_keys: bool) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return format_float64(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: string_order(kv[0])) if sort_keys else value.items()
        return "{" + ",".join(f"{_string(k)}:{_marshal(v, sort_keys)}" for k, v in items) + "}"
    return "[" + ",".join(_marshal(v, sort_keys) for v in value) + "]"
