"""Kubernetes `resource.Quantity`: parsing, canonical form, integer value, addition.

Follows k8s.io/apimachinery v0.34.5 `pkg/api/resource` (quantity.go, suffix.go,
amount.go) as a function of exact rational arithmetic:

- a quantity is `sign * number * base^exponent` with a suffix family: binary
  (Ki..Ei), decimal SI (n u m "" k M G T P E) or decimal exponent (`e3`, `E-6`);
- parsing rounds away from zero to a multiple of 10^-9 (`3.001n` -> `4n`), caps binary
  quantities at 2^63-1 and turns binary values strictly between -1 and 1 into
  decimal SI;
- the canonical text keeps the family when it can: binary as `<int><Ki..Ei>` when the
  value is an integer of magnitude >= 1024, otherwise decimal SI; decimal values are
  `<int><suffix>` with the exponent lowered to a multiple of 3 (`0.5` -> `500m`,
  `1.5k` -> `1500`, `2000m` -> `2`).

Errors are ValueError with Kubernetes' own messages, so callers can wrap them in an
LlmcError with a location.

Most quantities in a render are whole numbers ("8", "16Gi", "2k") or whole milli-units
("100m"): `_whole` and `canonical_quantity` read those with int arithmetic, and `fractions`
(with `decimal`, about 3 ms to import) is loaded only for the others. tests/test_quantity.py
compares both paths.
"""

from __future__ import annotations

import math
from math import ceil

from llmc.go.json import format_float64

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from fractions import Fraction

FORMAT_PATTERN = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"
ERR_FORMAT = f"quantities must match the regular expression '{FORMAT_PATTERN}'"
ERR_NUMERIC = "unable to parse numeric part of quantity"
ERR_SUFFIX = "unable to parse quantity's suffix"
# llmc's own limit: Go keeps any int32 exponent symbolically, exact rationals here cannot.
_MAX_DIGITS = 400
ERR_RANGE = f"quantity out of the range llmc supports (more than {_MAX_DIGITS} decimal digits)"

BINARY, DECIMAL_SI, DECIMAL_EXPONENT = "BinarySI", "DecimalSI", "DecimalExponent"

_SUFFIX_CHARS = frozenset("eEinumkKMGTP")
_BINARY = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_DECIMAL_BY_EXP = {e: s for s, e in _DECIMAL.items()}
_BINARY_BY_EXP = {e // 10: s for s, e in _BINARY.items()}
_MAX = (1 << 63) - 1
_SUBUNIT = ("m", "u", "n")  # whole numbers of these are exact (no rounding): canonical_quantity reads them in ints


def _split(text: str) -> tuple[bool, str, str, str]:
    """parseQuantityString: (positive, integer digits, fraction digits, suffix)."""
    pos, end = 0, len(text)
    positive = True
    if text[:1] in ("-", "+"):
        positive = text[0] == "+"
        pos = 1
    while pos < end and text[pos] == "0":
        pos += 1
    if pos >= end:
        return positive, "0", "", ""
    start = pos
    while pos < end and text[pos].isdigit() and text[pos].isascii():
        pos += 1
    num = text[start:pos] or "0"
    denom = ""
    if pos < end and text[pos] == ".":
        pos += 1
        start = pos
        while pos < end and text[pos].isdigit() and text[pos].isascii():
            pos += 1
        denom = text[start:pos]
    suffix_start = pos
    while pos < end and text[pos] in _SUFFIX_CHARS:
        pos += 1
    if pos < end and text[pos] in "+-":
        pos += 1
    while pos < end and text[pos].isdigit() and text[pos].isascii():
        pos += 1
    if pos < end:
        raise ValueError(ERR_FORMAT)
    return positive, num, denom, text[suffix_start:]


def _suffix(suffix: str) -> tuple[int, int, str]:
    """(base, exponent, format) of a suffix, like quantitySuffixer.interpret."""
    if suffix in _DECIMAL:
        return 10, _DECIMAL[suffix], DECIMAL_SI
    if suffix in _BINARY:
        return 2, _BINARY[suffix], BINARY
    if len(suffix) > 1 and suffix[0] in "eE":
        digits = suffix[1:]
        body = digits[1:] if digits[0] in "+-" else digits
        if body.isdigit() and body.isascii() and len(body) < 25 and -(2**63) <= int(digits) < 2**63:
            exponent = (int(digits) + 2**31) % 2**32 - 2**31  # Go converts the parsed int64 with int32()
            return 10, exponent, DECIMAL_EXPONENT
    raise ValueError(ERR_SUFFIX)


def _parse(text: str) -> tuple[Fraction | int, str]:
    """ParseQuantity: the exact value after Kubernetes' rounding, and the format."""
    if not text:
        raise ValueError(ERR_FORMAT)
    return _whole(text) or _parse_exact(text)


def _whole(text: str) -> tuple[int, str] | None:
    """`_parse_exact` of a non-empty quantity without sign, point or fractional suffix (n, u, m, e-),
    in ints; None for any other text."""
    if text[-1] == "i":
        digits, suffix = text[:-2], text[-2:]
    elif text[-1] in "kMGTPE":
        digits, suffix = text[:-1], text[-1]
    else:
        digits, suffix = text, ""
    if not (digits.isdigit() and digits.isascii()) or len(digits) > 18:
        return None
    if suffix in _BINARY:
        return min(int(digits) << _BINARY[suffix], _MAX), BINARY
    if suffix in _DECIMAL:
        return int(digits) * 10 ** _DECIMAL[suffix], DECIMAL_SI
    return None


def _subunit(text: str) -> tuple[int, int] | None:
    """(amount, exponent) of a whole number of m, u or n ("100m": (100, -3)), which is exact: no
    rounding, no binary cap; None for any other text."""
    if text[-1:] in _SUBUNIT and text[:-1].isdigit() and text[:-1].isascii() and len(text) <= 19:
        return int(text[:-1]), _DECIMAL[text[-1]]
    return None


def _parse_exact(text: str) -> tuple[Fraction, str]:
    """`_parse` with exact rationals, for any text."""
    from fractions import Fraction

    if text == "0":
        return Fraction(0), DECIMAL_SI
    positive, num, denom, suffix = _split(text)
    base, exponent, fmt = _suffix(suffix)
    digits = (num + denom).lstrip("0")
    if len(digits) > _MAX_DIGITS or (base == 10 and len(digits) + exponent - len(denom) > _MAX_DIGITS):
        raise ValueError(ERR_RANGE)
    if base == 10 and digits and len(digits) + exponent - len(denom) <= -9:
        exponent = -9 - 1 - len(digits) + len(denom)  # below 10^-9 anyway: avoid a huge power of ten
    magnitude = Fraction(int(digits or "0"), 10 ** len(denom)) * Fraction(base) ** exponent
    # rounded up (away from zero) to nano precision
    nano = Fraction(1, 10**9)
    magnitude = Fraction(ceil(magnitude / nano)) * nano
    if fmt == BINARY:
        magnitude = min(magnitude, Fraction(_MAX))
        if 0 < magnitude < 1:
            fmt = DECIMAL_SI
    return (magnitude if positive else -magnitude), fmt


def parse_quantity(text: str) -> Fraction | int:
    """The exact value of a quantity string (after Kubernetes' rounding to 10^-9)."""
    return _parse(text)[0]


def nano_quantity(text: str) -> int:
    """`parse_quantity` in units of 10^-9 (every parsed quantity is a whole number of them): exact
    comparisons, with ints alone for whole numbers and whole "m", "u" and "n" amounts."""
    subunit = _subunit(text)
    if subunit is not None:
        return subunit[0] * 10 ** (9 + subunit[1])
    value = parse_quantity(text) * 10**9
    return value if type(value) is int else int(value)


def _canonical(value: Fraction | int, fmt: str) -> str:
    """Quantity.String(): CanonicalizeBytes for a value and its format."""
    if value == 0:
        return "0"
    if fmt == BINARY and (abs(value) < 1024 or value.denominator != 1):
        fmt = DECIMAL_SI
    if fmt == BINARY:
        amount, power = int(value), 0
        while abs(amount) >= 1024 and amount % 1024 == 0:
            amount //= 1024
            power += 1
        return f"{amount}{_BINARY_BY_EXP.get(power, '')}"
    # value = amount * 10^exponent with no factor 10 left in amount
    exponent = 0
    while value.denominator != 1:
        value *= 10
        exponent -= 1
    return _decimal_text(int(value), exponent, fmt)


def _decimal_text(amount: int, exponent: int, fmt: str) -> str:
    """CanonicalizeBytes of a non-zero decimal quantity `amount * 10^exponent`."""
    while amount % 10 == 0:
        amount //= 10
        exponent += 1
    shift = exponent % 3  # lower the exponent to a multiple of 3
    amount *= 10**shift
    exponent -= shift
    if fmt == DECIMAL_EXPONENT:
        return f"{amount}e{exponent}" if exponent else str(amount)
    return f"{amount}{_DECIMAL_BY_EXP.get(exponent, '')}"


def _text(value: str | int | float) -> str:
    """The JSON text Go's Quantity.UnmarshalJSON receives for a decoded YAML/JSON value."""
    if isinstance(value, bool):
        raise ValueError(ERR_FORMAT)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(ERR_NUMERIC)
        return "0" if value == 0 else format_float64(value)  # encoding/json's float64 text (-0 as 0)
    return value.strip()


def canonical_quantity(value: str | int | float) -> str:
    """What Go writes after decoding `value` into a Quantity and encoding it again.

    Strings are trimmed (Quantity.UnmarshalJSON does), numbers are read as the JSON
    text Go would produce for them: `"2000m"` -> `"2"`, `6` -> `"6"`, `0.5` -> `"500m"`,
    `"1024Mi"` -> `"1Gi"`.
    """
    text = _text(value)
    subunit = _subunit(text)
    if subunit is not None:
        return _decimal_text(*subunit, DECIMAL_SI) if subunit[0] else "0"
    return _canonical(*_parse(text))


def quantity_value(text: str | int | float) -> int:
    """Quantity.Value(): the value rounded up (away from zero) to an integer."""
    value, _ = _parse(_text(text))
    magnitude = ceil(abs(value))
    return magnitude if value >= 0 else -magnitude


def add_quantities(a: str | int | float, b: str | int | float) -> str:
    """Quantity.Add then String(): the sum keeps `a`'s format unless `a` is zero."""
    va, fa = _parse(_text(a))
    vb, fb = _parse(_text(b))
    return _canonical(va + vb, fa if va != 0 else fb)
