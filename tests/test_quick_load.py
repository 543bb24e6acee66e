"""The position-free reader (`load_text(..., keep_positions=False)`) gives what the full builder gives.

It reads ordinary YAML itself and hands everything else to the full builder, so the two
must agree on every text: the same documents, or the same error at the same place.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmc.core.errors import LlmcError
from llmc.load import documents
from llmc.load.documents import load_text

ROOT = Path(__file__).resolve().parent.parent


def outcome(text: str, keep_positions: bool):
    """(file, index, item, obj) of each document, or the error's message, location and hint."""
    try:
        return [(d.file, d.index, d.item, d.obj) for d in load_text(text, "t.yaml", keep_positions=keep_positions)]
    except LlmcError as err:
        return ("error", err.message, err.location, err.hint)


def corpus(upstream: Path | None) -> list[Path]:
    files = {*ROOT.glob("golden/*/*.yaml"), *ROOT.glob("presets/**/*.yaml"), *ROOT.glob("docs/examples/*.yaml"),
             *ROOT.glob("tests/data/**/*.yaml")}
    if upstream is not None:
        files |= set(upstream.glob("**/*.yaml"))
    return sorted(files)


def test_the_quick_reader_reads_the_shipped_and_upstream_files_itself(upstream):
    """Same documents as the full builder, and it is not silently falling back for ordinary files."""
    quick = 0
    files = corpus(upstream)
    for path in files:
        text = path.read_text(encoding="utf-8").removeprefix("\ufeff")
        docs = None if text.lstrip()[:1] in ("{", "[") else documents._quick_yaml(text, str(path))
        if docs is not None:
            quick += 1
            full = documents._load_text(text, str(path))
            assert [(d.index, d.item, d.obj) for d in docs] == [(d.index, d.item, d.obj) for d in full], path
    assert quick >= 0.9 * len(files)


@pytest.mark.parametrize("path", sorted((ROOT / "tests/data/bad").iterdir()), ids=lambda p: p.name)
def test_refusals_are_the_full_builders(path: Path):
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    assert outcome(text, keep_positions=False) == outcome(text, keep_positions=True)


# Pieces of YAML where the quick reader must either agree or step aside: odd keys and scalars,
# tags, anchors, aliases, flow and block collections, duplicate keys, Lists.
# Ordinary pieces are weighted up, so that most streams are the quick reader's own and some are not.
ORDINARY_KEYS = ["a", "name", "nope", "tags", "off_", "'on'", '"x"', "-a", "y_", "b", "ns", "spec"]
ODD_KEYS = ["n", "no", "on", "y", "true", "1", "0x1F", "1.5", "~", "null", "''", "<<", "'<<'", ".5", "kind", "items"]
KEYS = st.sampled_from(ORDINARY_KEYS * 8 + ODD_KEYS)
ORDINARY_SCALARS = ["x", "yes", "No", "0x1F", "017", "08", "1_000", "1e3", "1.0", "~", "", "null", "'yes'", '"1"',
                    "|\n  block\n", ">-\n  folded\n", "-1", "+2", "9223372036854775808", "[1, two]", "{a: 1}",
                    "[]", "{}", "v1", "List", "ConfigMap", "on", "True", "0o17", "0b101", "1.5e400", "-0"]
ODD_SCALARS = [".inf", "-.INF", ".nan", "!!str 5", "!!int 5", "!!int x", "!!bool yes", "!!float 1", "!custom x",
               "&a x", "*a", "{a: 1, a: 2}", "[*a]", "\"\\ud800\"", "'a\tb'"]
SCALARS = st.sampled_from(ORDINARY_SCALARS * 3 + ODD_SCALARS)


@st.composite
def mappings(draw, depth: int = 0) -> str:
    lines = []
    indent = "  " * depth
    for key in draw(st.lists(KEYS, min_size=1, max_size=4, unique=draw(st.integers(0, 9)) > 0)):
        if depth < 3 and draw(st.booleans()):
            if draw(st.booleans()):
                lines.append(f"{indent}{key}:\n{draw(mappings(depth + 1))}")
            else:
                items = [draw(SCALARS).replace("\n", "\n  " + indent) for _ in range(draw(st.integers(0, 3)))]
                lines.append(f"{indent}{key}:" + "".join(f"\n{indent}- {i}" for i in items) + ("" if items else " []"))
        else:
            value = draw(SCALARS).replace("\n", "\n" + indent)
            lines.append(f"{indent}{key}: {value}")
    return "\n".join(lines) + "\n"


@st.composite
def streams(draw) -> str:
    docs = []
    for _ in range(draw(st.integers(1, 3))):
        head = draw(st.sampled_from(["apiVersion: v1\nkind: ConfigMap\n"] * 6 + [
            "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n", "", "kind: X\n"]))
        docs.append(head + draw(mappings()) if draw(st.integers(0, 9)) else draw(st.sampled_from(["", "- a\n", "x\n"])))
    return "---\n".join(docs)


@settings(max_examples=400, deadline=None)
@given(streams())
def test_the_quick_reader_agrees_with_the_full_builder(text: str):
    assert outcome(text, keep_positions=False) == outcome(text, keep_positions=True)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab:-[]{}&*!#'\"\n \t,|>?%@`~01.yn\ufeff", max_size=60))
def test_the_quick_reader_agrees_on_any_text(text: str):
    assert outcome(text, keep_positions=False) == outcome(text, keep_positions=True)


def test_the_quick_reader_leaves_no_cycle():
    """A batch runs with the cyclic collector mostly off: a cycle would keep each file's parser and text."""
    import gc

    text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: b\n"
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        docs = documents._quick_yaml(text, "t.yaml")
        gc.collect()
        garbage = list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert docs is not None and garbage == []
