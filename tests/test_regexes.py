"""llmc.core.regexes: the table of precompiled patterns gives what Python compiles, covers a render, and is current."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from re import _compiler

from llmc.core import regexes
from llmc.read.snapshot import regex_table

ROOT = Path(__file__).resolve().parent.parent
TABLE = regexes.read_table()
needs_table = pytest.mark.skipif(TABLE is None, reason="the regex table was made under another interpreter: unused here")


@needs_table
def test_every_entry_is_the_pattern_python_compiles() -> None:
    """Each entry equals re._parser + re._compiler's result now, and the pattern made from it equals re's."""
    for (pattern, flags), entry in TABLE.items():
        assert entry == regexes.compiled_arguments(pattern, flags), pattern
        ours = regexes._sre.compile(pattern, *entry)
        assert ours == getattr(_compiler.compile, "source", _compiler.compile)(pattern, flags)  # Pattern == compares flags and code


def test_a_table_for_another_interpreter_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(regexes, "interpreter", lambda: ("cpython-0", 0, 0, 0, 0))
    assert regexes.read_table() is None


_COUNT_PARSES = """
import os, sys
from re import _parser
parsed, parse, exit_now = [], _parser.parse, os._exit
def counted(*args, **kwargs):
    parsed.append(args[0])
    return parse(*args, **kwargs)
_parser.parse = counted
def exit(code):
    sys.stdout.flush()
    sys.__stderr__.write(repr(parsed))
    exit_now(code)
os._exit = exit
sys.argv = ["llmc", *sys.argv[1:]]
from llmc.cli.main import console
console()
"""


@needs_table
@pytest.mark.parametrize("example", ["mistral-dra.yaml", "qwen-prefill-decode.yaml"])
def test_a_render_parses_no_pattern(example: str) -> None:
    """Every pattern a render of a shipped example compiles comes from the table (none through re._parser)."""
    proc = subprocess.run([sys.executable, "-c", _COUNT_PARSES, "render", "-q", "-f", str(ROOT / "docs/examples" / example)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0 and proc.stdout.startswith("---\napiVersion")
    assert proc.stderr == "[]", f"patterns compiled outside the table: {proc.stderr}"


@needs_table
def test_table_is_current(recorded_renders) -> None:
    """The table holds exactly what renders of the examples compile now (`python -m llmc.read.snapshot` writes it)."""
    header, entries = regex_table(recorded_renders[0])
    assert header == regexes.interpreter()
    assert set(entries) == set(TABLE), "run `python -m llmc.read.snapshot` to write llmc/snapshots/regexes.marshal again"


def test_with_the_table_pyyaml_still_refuses_control_characters() -> None:
    """PyYAML's reader pattern (a large Unicode class compiled at import) comes from the table and still works."""
    code = ("from llmc.core.regexes import install\ninstall()\nimport yaml\n"
            "try:\n    yaml.load('a: \\x01', Loader=yaml.SafeLoader)\nexcept yaml.YAMLError as e:\n    print(e)\n")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "special characters are not allowed" in shown
