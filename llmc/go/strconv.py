"""Go's strconv: Quote and its kin, FormatFloat, and the parsers (integers in base 0, floats, quoted text).

Each parser returns None where Go's returns an error; callers word Go's message.
Strings are Python str; an invalid UTF-8 byte is a lone surrogate (surrogateescape)
and is printed as Go prints an invalid byte. `is_print` follows Python's Unicode
tables (unicodedata), which may be older than Go's: a character that only Go's
newer Unicode version assigns is escaped here and printed by Go.
"""

from __future__ import annotations

import math
import struct
import unicodedata

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
    if s[0] != "0" and s.isascii() and s.isdigit():  # the common case, plain decimal
        n = int(s)
        return n if n <= _UINT64_MAX else None
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
    if body[:1] in ("+", "-"):
        return None
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


# -- quoting ----------------------------------------------------------------

_ESC = {"\a": r"\a", "\b": r"\b", "\f": r"\f", "\n": r"\n", "\r": r"\r", "\t": r"\t", "\v": r"\v", "\\": "\\\\"}


def is_print(r: str) -> bool:
    """strconv.IsPrint: letters, marks, numbers, punctuation, symbols and U+0020."""
    if r == " ":
        return True
    return unicodedata.category(r)[0] in "LMNPS"


def _quote_with(s: str, q: str, ascii_only: bool) -> str:
    out = [q]
    for r in s:
        c = ord(r)
        if 0xD800 <= c <= 0xDFFF:
            if 0xDC80 <= c <= 0xDCFF:  # an invalid UTF-8 byte, as surrogateescape decodes it
                out.append(f"\\x{c - 0xDC00:02x}")
                continue
            r, c = "\ufffd", 0xFFFD  # a lone surrogate from a JSON escape: Go's decoder made it U+FFFD
        if r == q:
            out.append("\\" + q)
        elif r in _ESC:
            out.append(_ESC[r])
        elif (c < 0x80 or not ascii_only) and is_print(r):
            out.append(r)
        elif c < 0x20 or c == 0x7F:
            out.append(f"\\x{c:02x}")
        elif c < 0x10000:
            out.append(f"\\u{c:04x}")
        else:
            out.append(f"\\U{c:08x}")
    out.append(q)
    return "".join(out)


def quote(s: str) -> str:
    """strconv.Quote (what %q prints)."""
    return _quote_with(s, '"', False)


def quote_ascii(s: str) -> str:
    """strconv.QuoteToASCII (%+q)."""
    return _quote_with(s, '"', True)


def quote_rune(code: int, ascii_only: bool = False) -> str:
    """strconv.QuoteRune / QuoteRuneToASCII."""
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        code = 0xFFFD
    return _quote_with(chr(code), "'", ascii_only)


def can_backquote(s: str) -> bool:
    """strconv.CanBackquote."""
    for r in s:
        if r == "`" or r == "\ufeff" or 0xD800 <= ord(r) <= 0xDFFF:
            return False
        if r != "\t" and (ord(r) < 0x20 or ord(r) == 0x7F):
            return False
    return True


# -- FormatFloat ------------------------------------------------------------


def _f32(v: float) -> float:
    """float32(v): rounded to nearest even, infinite beyond float32's range."""
    try:
        return struct.unpack("f", struct.pack("f", v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def _digits_of(text: str) -> tuple[str, int]:
    """Digits (no leading or trailing zeros) and decimal-point position of a positive decimal text."""
    mant, _, exp = text.partition("e")
    ip, _, fp = mant.partition(".")
    all_digits = ip + fp
    lead = len(all_digits) - len(all_digits.lstrip("0"))
    digits = all_digits[lead:].rstrip("0") or "0"
    return digits, len(ip) + int(exp or 0) - lead


def _shortest_digits(v: float, bits: int) -> tuple[str, int]:
    """Shortest round-trip decimal digits of |v| at that float size, and the decimal-point position."""
    v = abs(v)
    if bits == 64:
        return _digits_of(repr(v))
    for precision in range(9):
        text = f"{v:.{precision}e}"
        if _f32(float(text)) == v:
            return _digits_of(text)
    return _digits_of(repr(v))


def _round_digits(v: float, prec: int) -> tuple[str, int]:
    """`prec` significant digits of |v|, correctly rounded, and the decimal-point position."""
    mant, exp = f"{abs(v):.{max(prec - 1, 0)}e}".split("e")
    return mant.replace(".", ""), int(exp) + 1


def _fmt_e(neg: bool, digits: str, dp: int, prec: int, ch: str) -> str:
    out = ("-" if neg else "") + digits[0]
    if prec > 0:
        frac = digits[1 : 1 + prec]
        out += "." + frac + "0" * (prec - len(frac))
    exp = dp - 1 if digits != "0" else 0
    return f"{out}{ch}{'+' if exp >= 0 else '-'}{abs(exp):02d}"


def _fmt_f(neg: bool, digits: str, dp: int, prec: int) -> str:
    out = ("-" if neg else "") + (digits[:dp] + "0" * max(dp - len(digits), 0) if dp > 0 else "0")
    if prec > 0:
        out += "." + "".join(digits[j] if 0 <= j < len(digits) else "0" for j in range(dp, dp + prec))
    return out


def format_float(v: float, fmt: str, prec: int, bits: int = 64) -> str:
    """strconv.FormatFloat(v, fmt, prec, bits) for fmt 'e', 'E', 'f', 'g', 'G' (prec -1: shortest digits)."""
    if bits == 32:
        v = _f32(v)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "+Inf" if v > 0 else "-Inf"
    neg = math.copysign(1.0, v) < 0
    shortest = prec < 0
    if v == 0:
        digits, dp = "0", 1
    elif shortest:
        digits, dp = _shortest_digits(v, bits)
    if fmt in "eE":
        if shortest:
            return _fmt_e(neg, digits, dp, len(digits) - 1, fmt)
        if v != 0:
            digits, dp = _round_digits(v, prec + 1)
        return _fmt_e(neg, digits, dp, prec, fmt)
    if fmt == "f":
        if shortest:
            return _fmt_f(neg, digits, dp, max(len(digits) - dp, 0))
        return ("-" if neg else "") + f"{abs(v):.{prec}f}"
    if fmt in "gG":
        eprec = 6 if shortest else (prec or 1)
        if not shortest and v != 0:
            digits, dp = _round_digits(v, eprec)
            digits = digits.rstrip("0") or "0"
        if not shortest and eprec > len(digits) and len(digits) >= dp:
            eprec = len(digits)
        if shortest:
            eprec = 6
        exp = dp - 1
        if exp < -4 or exp >= eprec:
            return _fmt_e(neg, digits, dp, len(digits) - 1, "e" if fmt == "g" else "E")
        return _fmt_f(neg, digits, dp, max(len(digits) - dp, 0))
    raise ValueError(f"FormatFloat format {fmt!r} is not modelled")
