"""llmc.resolve.parsed_strings and llmc.go.template.packed: the parsed strings kept ahead of time are the
parser's trees, cover a render, are current, and are not used when the node classes or functions differ."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from llmc.go.template import packed
from llmc.go.template.nodes import Node
from llmc.read.snapshot import template_table
from llmc.resolve import parsed_strings, templatedata

ROOT = Path(__file__).resolve().parent.parent
FUNCS = templatedata.function_names()
TABLE = parsed_strings.read_table(FUNCS)


def _tree(value):
    """A node tree as (class name, field values) tuples: what two parses must agree on, field for field."""
    if isinstance(value, Node):
        return type(value).__name__, tuple((name, _tree(getattr(value, name))) for name in type(value).__record_fields__)
    if isinstance(value, (list, tuple)):
        return [_tree(v) for v in value]
    return type(value).__name__, value


def test_the_table_is_in_use_and_not_empty() -> None:
    assert len(TABLE) >= 20


def test_every_entry_is_what_the_parser_makes() -> None:
    for literal, entry in TABLE.items():
        fresh = templatedata.parse_string(literal)
        assert fresh is not None, literal
        assert _tree([packed.unpack(e) for e in entry]) == _tree(list(fresh)), literal
        assert "".join(str(packed.unpack(e)) for e in entry) == "".join(str(n) for n in fresh)


def test_table_is_current(recorded_renders) -> None:
    """It holds exactly the literals renders of the examples parse now (`python -m llmc.read.snapshot` writes it)."""
    header, entries = template_table(recorded_renders[1])
    assert header == parsed_strings.header(FUNCS)
    assert entries == TABLE, "run `python -m llmc.read.snapshot` to write llmc/snapshots/templates.marshal again"


def test_a_table_for_other_node_classes_or_functions_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    assert parsed_strings.read_table(FUNCS[1:]) == {}
    monkeypatch.setattr(packed, "shape", lambda: (("ListNode", ("pos",)),))
    assert parsed_strings.read_table(FUNCS) == {}


def test_a_missing_or_broken_table_is_not_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(parsed_strings, "TABLE", tmp_path / "absent.marshal")
    assert parsed_strings.read_table(FUNCS) == {}
    (tmp_path / "broken.marshal").write_bytes(b"\x00not marshal")
    monkeypatch.setattr(parsed_strings, "TABLE", tmp_path / "broken.marshal")
    assert parsed_strings.read_table(FUNCS) == {}


_COUNT_PARSES = """
import sys
from llmc.resolve import templatedata
parsed, parse = [], templatedata.parse_string
def counted(literal):
    parsed.append(literal)
    return parse(literal)
templatedata.parse_string = counted
sys.argv = ["llmc", *sys.argv[1:]]
from llmc.cli.main import main
try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
sys.__stderr__.write(repr(parsed))
"""


@pytest.mark.parametrize("example", ["mistral-dra.yaml", "qwen-prefill-decode.yaml"])
def test_a_render_of_an_example_parses_no_string(example: str) -> None:
    proc = subprocess.run([sys.executable, "-c", _COUNT_PARSES, "render", "-q", "-f", str(ROOT / "docs/examples" / example)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0 and proc.stdout.startswith("---\napiVersion")
    assert proc.stderr == "[]", f"strings parsed outside the table: {proc.stderr}"


_PIECES = st.sampled_from([
    "{{", "}}", " ", ".Name", ".Spec.Model.Name", "$x", ":=", "|", "printf", '"%s"', "index", "1", "-1.5e3", "0x1F",
    "if", "else", "end", "range", "with", "(", ")", "nil", "true", "/*c*/", "-", "'a'", "2i", "x", "\\n", "toJson",
    "break", "continue", "define", "template", "block", "and", "or", "not", "eq", ",", "=", ".",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=25).map("".join))
def test_pack_then_unpack_gives_the_parse_back(body: str) -> None:
    """On random (mostly broken) templates: whatever parses comes back from its packed form field for field."""
    nodes = templatedata.parse_string('"' + body + '"')
    if nodes is None:
        return
    again = [packed.unpack(p) for p in [packed.pack(n) for n in nodes]]
    assert _tree(again) == _tree(list(nodes))
