"""llmc.output.block_text writes the bytes libyaml writes, for every document it does not hand back.

The judge is libyaml itself (emit._libyaml, the path every other document takes): for random
documents, hostile strings included, the writer either raises Hard or gives libyaml's text.
The golden outputs show that ordinary rendered objects take the fast path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from llmc.output import emit
from llmc.output.block_text import Hard, scalar
from tests.test_emit import BOUNDED, FRAGMENTS, RESERVED, objects, trees, tricky

ROOT = Path(__file__).resolve().parent.parent


def fast(obj: dict[str, Any]) -> str | None:
    """The writer's text for `obj`, or None when it hands the document to libyaml."""
    try:
        return "---\n" + emit._WRITER.document(emit._root(obj))
    except (Hard, TypeError):
        return None


def libyaml(obj: dict[str, Any]) -> str:
    return emit._libyaml(emit.order_keys(obj))


# strings near the lines libyaml draws: indicators at either end, ": " and " #" inside, blocks
# with leading blanks, clipped, stripped and kept endings, characters outside the printable set
LINES = st.lists(st.sampled_from(RESERVED + FRAGMENTS + ["a", "b c", " ", "\n", "x\n", "  y", ":", "#"]),
                 min_size=1, max_size=5).map("".join)
values = st.recursive(
    st.one_of(tricky, LINES, st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False, allow_infinity=False)),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.one_of(tricky, LINES), inner, max_size=4),
    max_leaves=25,
)


@BOUNDED
@given(st.dictionaries(st.one_of(tricky, LINES), values, min_size=1, max_size=5))
def test_random_documents_are_libyamls_bytes(doc: dict[str, Any]) -> None:
    text = fast(doc)
    if text is not None:
        assert text == libyaml(doc)


@BOUNDED
@given(objects)
def test_random_objects_are_libyamls_bytes(obj: dict[str, Any]) -> None:
    text = fast(obj)
    if text is not None:
        assert text == libyaml(obj)


@BOUNDED
@given(st.lists(st.one_of(objects, st.builds(lambda t: {"kind": "Widget", "spec": t}, trees)), min_size=1, max_size=4))
def test_a_stream_mixing_both_paths_is_libyamls_stream(objs: list[dict[str, Any]]) -> None:
    stream = emit.to_yaml(objs)
    dumper_text = "".join(libyaml(o) for o in objs)
    assert stream == dumper_text
    assert yaml.safe_load_all(stream) is not None


@pytest.mark.parametrize(
    "value",
    ["plain", "a: b", "a:", "a:b", "a #b", "a#b", "- x", "-x", "? x", "?x", ":x", "---x", "...x", "x---",
     "'quoted'", "it's", "", " lead", "trail ", "é", "漢字", "a\u00a0", "line\n", "two\nlines", " lead\nx",
     "\nlead break", "a\n\nb\n", "x" * 300, "long " * 100],
)
@pytest.mark.parametrize("where", ["value", "key", "item", "nested item"])
def test_scalars_written_by_the_writer_match_libyaml(value: str, where: str) -> None:
    if where == "key" and ("\n" in value or not value or len(value) > 128):
        assert fast({value: 1}) is None  # multi-line, empty and long keys are libyaml's
        return
    doc = {
        "value": {"k": value},
        "key": {value: 1},
        "item": {"k": [value, {"m": value}]},
        "nested item": {"k": [[value, [value]], {"m": {"n": [value]}}]},
    }[where]
    text = fast(doc)
    assert text is not None, "the writer should take these strings"
    assert text == libyaml(doc)


@pytest.mark.parametrize(
    "value",
    ["tab\t", "cr\r", "kept\n\n", "\n", "space before break \nx", "trailing space\nx ", "\U0001F600", "\x85", "\ufeff",
     "nul\x00"],
)
def test_strings_the_writer_leaves_to_libyaml(value: str) -> None:
    assert scalar(value, emit._style(value)) is None
    assert fast({"k": value}) is None
    assert emit.to_yaml([{"k": value}]) == libyaml({"k": value})


@pytest.mark.parametrize("key", ["", "k" * 129, "é" * 65, 1, None])
def test_keys_the_writer_leaves_to_libyaml(key: Any) -> None:
    assert fast({"a": {key: "v"}}) is None


def golden_objects() -> list[dict[str, Any]]:
    out = []
    for path in sorted((ROOT / "golden").glob("*/expected.yaml")):
        out += [d for d in yaml.safe_load_all(path.read_text()) if isinstance(d, dict)]
    return out


def test_golden_objects_take_the_writer_and_give_their_golden_bytes() -> None:
    objs = golden_objects()
    assert len(objs) > 300
    handed_back = [o for o in objs if fast(o) is None]
    # a handful hold strings libyaml double-quotes (tabs, kept blocks); the rest is the fast path
    assert len(handed_back) <= len(objs) // 50, [(o.get("kind"), o["metadata"].get("name")) for o in handed_back]
    for o in objs:
        text = fast(o)
        if text is not None:
            assert text == libyaml(o)


def test_remembered_strings_stay_bounded() -> None:
    writer = emit.Writer(emit._style, emit._nested_order)
    for i in range(3):
        writer.document({"k": "x" * 1000 + str(i), "j": str(i)})
    assert all(len(v) <= 300 for v in writer.values)
    for i in range((1 << 14) + 10):
        writer.document({"k": f"v{i}"})
    assert len(writer.values) + len(writer.keys) <= (1 << 14) + 2
