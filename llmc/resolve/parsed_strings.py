"""The templated strings of the presets, parsed ahead of time, as a `.pyc` is for a module.

`render_config` parses every JSON string literal of a config that holds `{{` on its
own (`templatedata._string_nodes`). The presets' strings are the same on every run and
in every preset folder that follows KServe's (theirs hold the same templates), and
parsing them costs about 3 ms of a cold render. `llmc/snapshots/templates.marshal`
maps each literal that renders of the shipped examples parse to its packed nodes
(`llmc.go.template.packed`); a literal it lacks is parsed as before.

The entries depend on the node classes and on the function names the parser
accepts, so the table records both and is not used when either differs. It is
written by `python -m llmc.read.snapshot`; tests/test_parsed_strings.py parses every
entry afresh and compares.
"""

from __future__ import annotations

import marshal
import os

from llmc.core.resources import SNAPSHOTS
from llmc.go.template import packed

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

FORMAT = 1
TABLE = os.path.join(SNAPSHOTS, "templates.marshal")


def header(funcs: tuple[str, ...]) -> tuple:
    """What the entries depend on: the format, the node classes and the parser's function names."""
    return FORMAT, packed.shape(), funcs


def read_table(funcs: tuple[str, ...]) -> dict[str, Any]:
    """Packed nodes by literal; empty when the table is missing, unreadable, or made for other classes or functions."""
    try:
        with open(TABLE, "rb") as f:
            made_for, entries = marshal.loads(f.read())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return entries if made_for == header(funcs) else {}
