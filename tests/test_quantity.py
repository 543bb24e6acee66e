"""resource.Quantity against the tables of k8s.io/apimachinery v0.34.5 pkg/api/resource/quantity_test.go."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from llmc.k8s.quantity import (
    ERR_FORMAT, ERR_SUFFIX, _canonical, _parse_exact, _whole, add_quantities, canonical_quantity, nano_quantity,
    parse_quantity, quantity_value,
)

# TestQuantityParse: input -> decQuantity(mantissa, scale): value = mantissa * 10^scale
PARSE = [
    ("0", 0, 0), ("0n", 0, 0), ("0Ki", 0, 0), ("0T", 0, 0),
    ("1", 1, 0), ("1Ki", 1024, 0), ("7Mi", 7 * 1024**2, 0), ("5Ti", 5 * 1024**4, 0),
    ("3Ei", 3 * 1024**6, 0), ("100Ti", 100 * 1024**4, 0),
    ("5n", 5, -9), ("4u", 4, -6), ("3m", 3, -3), ("8k", 8, 3), ("50k", 5, 4), ("6G", 6, 9),
    ("40T", 4, 13), ("2P", 2, 15), ("1E", 1, 18),
    ("1E-3", 1, -3), ("1e3", 1, 3), ("1E18", 1, 18), ("1e14", 1, 14), ("100.035k", 100035, 0),
    ("0.001", 1, -3), ("0.0005k", 5, -1), ("0.00500", 5, -3), ("0.5e-1", 5, -2), ("10.035M", 10035, 3),
    ("1.2e3", 12, 2), ("1.3E+6", 13, 5), ("1.53E12", 153, 10), ("1.7E18", 17, 17),
    ("9.01", 901, -2), ("7.123456M", 7123456, 0), ("6.987654321G", 6987654321, 0), ("1.01E", 101, 16),
    # things that saturate/round
    ("3.001n", 4, -9), ("1.1E-9", 2, -9), ("0.0000000001", 1, -9), ("0.00000000050", 1, -9),
    ("0.9n", 1, -9), ("0.00000012345", 124, -9), ("12E", 12, 18),
    # fractional binary
    ("100.035Ki", 10243584, -2), ("0.5Mi", 524288, 0), ("0.05Gi", 536870912, -1),
    # "things written by trolls"
    ("0.000000000001Ki", 2, -9), (".001", 1, -3), (".0001k", 100, -3), ("1.", 1, 0), ("1.G", 1, 9),
]


@pytest.mark.parametrize(("text", "mantissa", "scale"), PARSE)
def test_parse_matches_kubernetes_table(text: str, mantissa: int, scale: int) -> None:
    expected = Fraction(mantissa) * Fraction(10) ** scale
    assert parse_quantity(text) == expected
    assert parse_quantity("-" + text) == -expected
    assert parse_quantity("+" + text) == expected


def test_binary_values_are_capped_at_int64_max() -> None:
    # TestQuantityParse: "9Ei" and "9223372036854775807Ki" give maxAllowed (2^63-1)
    assert parse_quantity("9Ei") == 2**63 - 1
    assert parse_quantity("9223372036854775807Ki") == 2**63 - 1


@pytest.mark.parametrize("text", ["1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-", " 1", "1 ", ""])
def test_invalid_quantities_are_rejected(text: str) -> None:
    # TestQuantityParse "invalid" list
    with pytest.raises(ValueError):
        parse_quantity(text)


def test_error_messages_are_kubernetes_own() -> None:
    with pytest.raises(ValueError) as fmt:
        parse_quantity(" 1")
    assert str(fmt.value) == ERR_FORMAT
    assert str(fmt.value).startswith("quantities must match the regular expression '^([+-]?[0-9.]+)")
    with pytest.raises(ValueError) as suffix:
        parse_quantity("0.1mi")
    assert str(suffix.value) == ERR_SUFFIX == "unable to parse quantity's suffix"


# TestQuantityString: (mantissa, scale, format) -> canonical text, and an alternate spelling
STRING = [
    (1024**3, 0, "BinarySI", "1Gi", "1024Mi"),
    (300 * 1024**2, 0, "BinarySI", "300Mi", "307200Ki"),
    (6 * 1024, 0, "BinarySI", "6Ki", ""),
    (1001 * 1024**3, 0, "BinarySI", "1001Gi", "1025024Mi"),
    (1024**4, 0, "BinarySI", "1Ti", "1024Gi"),
    (5, 0, "BinarySI", "5", "5000m"),
    (500, -3, "BinarySI", "500m", "0.5"),
    (1, 9, "DecimalSI", "1G", "1000M"),
    (1000, 6, "DecimalSI", "1G", "0.001T"),
    (1, -3, "DecimalSI", "1m", "1000u"),
    (1080, -3, "DecimalSI", "1080m", "1.08"),
    (108, -2, "DecimalSI", "1080m", "1080000000n"),
    (10800, -4, "DecimalSI", "1080m", ""),
    (1234567, 6, "DecimalSI", "1234567M", ""),
    (1234567, -3, "BinarySI", "1234567m", ""),
    (1025, 0, "BinarySI", "1025", ""),
    (0, 0, "DecimalSI", "0", ""),
    (0, 0, "BinarySI", "0", ""),
    (1, 9, "DecimalExponent", "1e9", ".001e12"),
    (1, -3, "DecimalExponent", "1e-3", "0.001e0"),
    (1, -9, "DecimalExponent", "1e-9", "1000e-12"),
    (80, -3, "DecimalExponent", "80e-3", ""),
    (0, 0, "DecimalExponent", "0", "00"),
    (108, -8, "DecimalSI", "1080n", ""),
    (1080, -6, "DecimalSI", "1080u", ""),
]


@pytest.mark.parametrize(("mantissa", "scale", "fmt", "expect", "alternate"), STRING)
def test_canonical_string_matches_kubernetes_table(mantissa: int, scale: int, fmt: str, expect: str, alternate: str) -> None:
    value = Fraction(mantissa) * Fraction(10) ** scale
    assert _canonical(value, fmt) == expect
    if value:
        assert _canonical(-value, fmt) == "-" + expect
    assert canonical_quantity(expect) == expect  # canonical strings are fixed points
    if alternate:
        assert canonical_quantity(alternate) == expect


@pytest.mark.parametrize(
    ("text", "expect"),
    # TestQuantityParseEmit
    [("1Ki", "1Ki"), ("1Mi", "1Mi"), ("1Gi", "1Gi"), ("1024Mi", "1Gi"), ("1000M", "1G"),
     (".001Ki", "1024m"), (".000001Ki", "1024u"), (".000000001Ki", "1024n"), (".000000000001Ki", "2n")],
)
def test_parse_emit(text: str, expect: str) -> None:
    assert canonical_quantity(text) == expect
    assert canonical_quantity("-" + text) == "-" + expect


@pytest.mark.parametrize(
    ("value", "expect"),
    # reference 01 §3.2 ("2000m"->"2", "8000m"->"8", integer 6 -> "6") and the task's examples
    [("2000m", "2"), ("8000m", "8"), (6, "6"), ("1024Mi", "1Gi"), ("0.5", "500m"), (0.5, "500m"), ("4Gi", "4Gi")],
)
def test_go_round_trip(value: str | int | float, expect: str) -> None:
    assert canonical_quantity(value) == expect


@pytest.mark.parametrize(("text", "expect"), [(" 1", "1"), ("1 ", "1"), (1, "1"), (10, "10"), (-1, "-1")])
def test_json_whitespace_is_trimmed(text: str | int, expect: str) -> None:
    # TestJSONWhitespace: Quantity.UnmarshalJSON trims the text before parsing
    assert canonical_quantity(text) == expect


def test_floats_are_read_as_go_json_writes_them() -> None:
    # encoding/json writes 1e20 as 100000000000000000000 (decimal SI: 100E) but 1e21 as 1e+21 (exponent form)
    assert canonical_quantity(1e20) == "100E"
    assert canonical_quantity(1e21) == "1e21"
    assert canonical_quantity(1.5) == "1500m"


@pytest.mark.parametrize(
    ("text", "value"),
    # reference 01 §4.2 example: 10Gi -> cpu_bytes_to_use 10737418240; TestScaledValue: 1n/1u/1m round up to 1
    [("10Gi", 10737418240), ("1n", 1), ("1u", 1), ("1m", 1), ("1", 1), ("100m", 1), ("-100m", -1), ("1.5", 2)],
)
def test_value_rounds_up_away_from_zero(text: str, value: int) -> None:
    assert quantity_value(text) == value


@pytest.mark.parametrize(("a", "b", "expect"), [("100m", "0", "100m"), ("0", "100m", "100m"), ("1Gi", "0", "1Gi"), ("0", "1Gi", "1Gi")])
def test_add_zero_preserves_suffix(a: str, b: str, expect: str) -> None:
    # TestQuantityAddZeroPreservesSuffix
    assert add_quantities(a, b) == expect


def test_add_keeps_the_format_of_the_first_operand() -> None:
    # TestAdd: DecimalSI 10 + 1*10^1 = 20; BinarySI keeps binary; independent arithmetic for the rest
    assert add_quantities("10", "1e1") == "20"
    assert add_quantities("10Gi", "5Gi") == "15Gi"
    assert add_quantities("1Gi", "1G") == str(2**30 + 10**9)  # binary, not a multiple of 1024
    assert add_quantities("500M", "1Gi") == "1573741824"  # decimal SI: 1573741824 has no factor 1000


def test_exponent_is_truncated_to_int32_like_go() -> None:
    # quantitySuffixer.interpret returns int32(parsed): 2^32 + 3 wraps to 3, 2^32 to 0
    assert canonical_quantity("1e4294967299") == "1e3"
    assert canonical_quantity("1e4294967296") == "1"
    with pytest.raises(ValueError) as err:
        parse_quantity("1e" + "9" * 30)  # beyond int64: strconv.ParseInt fails
    assert str(err.value) == ERR_SUFFIX


def test_tiny_values_round_up_without_huge_powers() -> None:
    assert parse_quantity("1e-99999") == Fraction(1, 10**9)
    with pytest.raises(ValueError):
        parse_quantity("1e99999")  # llmc's documented limit (Go would keep it symbolically)


_QUANTITY_TEXT = st.builds(
    lambda sign, digits, point, suffix: sign + digits + point + suffix,
    st.sampled_from(["", "", "", "+", "-"]),
    st.text("0123456789", max_size=22) | st.integers(0, 2**70).map(str),
    st.sampled_from(["", "", "", ".", ".5", ".000"]),
    st.sampled_from(["", "i", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "n", "u", "m", "k", "K", "M", "G", "T", "P",
                     "E", "e3", "E-2", "e", "x"]),
).filter(bool)


@given(_QUANTITY_TEXT)
def test_whole_numbers_read_in_ints_as_with_fractions(text: str) -> None:
    """`_whole`, the int-only path, gives `_parse_exact`'s value and format wherever it answers."""
    whole = _whole(text)
    try:
        exact = _parse_exact(text)
    except ValueError:
        assert whole is None, text
        return
    if whole is not None:
        assert whole == exact and type(whole[0]) is int, text
        assert _canonical(*whole) == _canonical(*exact)


def test_whole_numbers_take_the_int_path() -> None:
    assert [_whole(t) for t in ("8", "16Gi", "2k", "0")] == [(8, "DecimalSI"), (16 << 30, "BinarySI"), (2000, "DecimalSI"), (0, "DecimalSI")]
    assert [_whole(t) for t in ("500m", "1.5", "-1", "1e3", "Ki", "1Zi")] == [None] * 6


@given(_QUANTITY_TEXT | st.builds(str.__add__, st.text("0123456789", max_size=20), st.sampled_from(["m", "u", "n"])))
def test_canonical_text_of_whole_subunits_as_with_fractions(text: str) -> None:
    """canonical_quantity's int path for "<digits>m|u|n" gives the exact path's text (and errors alike)."""
    try:
        exact = _canonical(*_parse_exact(text))
    except ValueError:
        with pytest.raises(ValueError):
            canonical_quantity(text)
        return
    assert canonical_quantity(text) == exact, text


@given(_QUANTITY_TEXT | st.builds(str.__add__, st.text("0123456789", max_size=20), st.sampled_from(["m", "u", "n"])))
def test_nano_quantity_is_the_exact_value_in_nano_units(text: str) -> None:
    try:
        exact = _parse_exact(text)[0]
    except ValueError:
        with pytest.raises(ValueError):
            nano_quantity(text)
        return
    nano = nano_quantity(text)
    assert type(nano) is int and nano == exact * 10**9, text
