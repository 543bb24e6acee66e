"""Go's strconv parsing as text/template uses it: integers (base 0), floats, quoted strings and runes.

Each parser returns None where Go's returns an error; the template parser turns
that into Go's message.
"""

from __future__ import annotations

import math

_INT64_MAX = (1 << 63) - 1
_UINT64_MAX = (1 << 64) - 1


def underscore_ok(s: str) -> bool:
    """Underscores only between digits, or between a base prefix and a digit."""
    saw = "^"
    i = 0
    if s[:1] in ("+", "-"):
        s = s[1:]
    hexa = False
    if len(s) >= 2 and s[0] == "0" and s[1].lower() in "box":
        i = 2
        saw = "0"
        hexa = s[1].lower() == "x"
    while i < len(s):
        c = s[i]
        if "0" <= c <= "9" or (hexa and "a" <= c.lower() <= "f"):
            saw = "0"
        elif c == "_":
            if saw != "0":
                return False
            saw = "_"
        else:
            if saw == "_":
                return False
            saw = "!"
        i += 1
    return saw != "_"


def parse_uint(s: str) -> int | None:
    """strconv.ParseUint(s, 0, 64)."""
    if not s:
        return None
    s0 = s
    base = 10
    if s[0] == "0":
        if len(s) >= 3 and s[1].lower() == "b":
            base, s = 2, s[2:]
        elif len(s) >= 3 and s[1].lower() == "o":
            base, s = 8, s[2:]
        elif len(s) >= 3 and s[1].lower() == "x":
            base, s = 16, s[2:]
        else:
            base, s = 8, s[1:]
    n = 0
    underscores = False
    for c in s:
        if c == "_":
            underscores = True
            continue
        if "0" <= c <= "9":
            d = ord(c) - 48
        elif "a" <= c.lower() <= "z":
            d = ord(c.lower()) - ord("a") + 10
        else:
            return None
        if d >= base:
            return None
        n = n * base + d
        if n > _UINT64_MAX:
            return None
    if underscores and not underscore_ok(s0):
        return None
    return n


def parse_int(s: str) -> int | None:
    """strconv.ParseInt(s, 0, 64)."""
    if not s:
        return None
    neg = False
    body = s
    if s[0] in "+-":
        neg = s[0] == "-"
        body = s[1:]
    u = parse_uint(body)
    if u is None:
        return None
    if not neg and u > _INT64_MAX:
        return None
    if neg and u > _INT64_MAX + 1:
        return None
    return -u if neg else u


def parse_float(s: str) -> float | None:
    """strconv.ParseFloat(s, 64) for the spellings the template lexer can produce."""
    if not s:
        return None
    body = s[1:] if s[0] in "+-" else s
    neg = s[0] == "-"
    if "_" in s:
        if not underscore_ok(s):
            return None
        body = body.replace("_", "")
    if len(body) > 2 and body[0] == "0" and body[1] in "xX":
        if "p" not in body.lower():
            return None
        try:
            v = float.fromhex(body)
        except (ValueError, OverflowError):
            return None
    else:
        if not body or any(c not in "0123456789.eE+-" for c in body):
            return None
        try:
            v = float(body)
        except ValueError:
            return None
    if math.isinf(v):
        return None
    return -v if neg else v


_SIMPLE = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\"}


def unquote_char(s: str, i: int, quote: str) -> tuple[str, int] | None:
    """strconv.UnquoteChar on s[i:]: the value (as a str of one char, or one byte for \\x / octal) and the next index."""
    if i >= len(s):
        return None
    c = s[i]
    if c == quote and quote in ("'", '"'):
        return None
    if c != "\\":
        return c, i + 1
    if i + 1 >= len(s):
        return None
    c = s[i + 1]
    j = i + 2
    if c in _SIMPLE:
        return _SIMPLE[c], j
    if c in "xuU":
        n = {"x": 2, "u": 4, "U": 8}[c]
        digits = s[j : j + n]
        if len(digits) < n or any(d not in "0123456789abcdefABCDEF" for d in digits):
            return None
        v = int(digits, 16)
        if c == "x":
            return chr(v) if quote == "'" else _byte(v), j + n
        if v > 0x10FFFF or 0xD800 <= v <= 0xDFFF:
            return None
        return chr(v), j + n
    if "0" <= c <= "7":
        digits = s[i + 1 : i + 4]
        if len(digits) < 3 or any(d not in "01234567" for d in digits):
            return None
        v = int(digits, 8)
        if v > 255:
            return None
        return chr(v) if quote == "'" else _byte(v), i + 4
    if c in ("'", '"'):
        if c != quote:
            return None
        return c, j
    return None


def _byte(v: int) -> str:
    """A raw byte inside a string literal; llmc keeps text as str, so bytes >= 0x80 become U+FFFD."""
    return chr(v) if v < 0x80 else "\ufffd"


def unquote(s: str) -> str | None:
    """strconv.Unquote for "..." and `...` literals."""
    if len(s) < 2 or s[0] != s[-1]:
        return None
    q = s[0]
    body = s[1:-1]
    if q == "`":
        if "`" in body:
            return None
        return body.replace("\r", "")
    if q != '"':
        return None
    if "\n" in body:
        return None
    if "\\" not in body and q not in body:
        return body
    out = []
    i = 0
    while i < len(body):
        r = unquote_char(body, i, q)
        if r is None:
            return None
        out.append(r[0])
        i = r[1]
    return "".join(out)


def unquote_rune(text: str) -> int | None:
    """The value of a character constant 'x' (text includes the quotes), or None if malformed."""
    r = unquote_char(text, 1, "'")
    if r is None:
        return None
    return ord(r[0])


def rune_tail_ok(text: str) -> bool | None:
    """After the first rune of a character constant, is the rest exactly the closing quote?"""
    r = unquote_char(text, 1, "'")
    if r is None:
        return None
    return text[r[1] :] == "'"
