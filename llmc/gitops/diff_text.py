"""`llmc diff -o text`: the report for people.

A header names the sides (`--- LEFT` / `+++ RIGHT`, as a unified diff), one block per
object (`-` only left, `+` only right, `~` changed, with one line per field), and a
summary line. Multi-line strings (the vLLM start script, the endpoint picker's
config) are shown as a unified line diff, not as one escaped line several KB long.
"""

from __future__ import annotations

import difflib
import json
from typing import Any

from llmc.gitops.diff import Change, Report

_FIELD = " " * 4
_BODY = " " * 8


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _multiline(value: Any) -> bool:
    return isinstance(value, str) and "\n" in value


def _change_lines(change: Change) -> list[str]:
    if change.added or change.removed:
        sign, value = ("+", change.new) if change.added else ("-", change.old)
        if _multiline(value):
            return [f"{_FIELD}{sign} {change.path}:"] + [f"{_BODY}{sign}{line}" for line in value.splitlines()]
        return [f"{_FIELD}{sign} {change.path}: {_show(value)}"]
    old, new = change.old, change.new
    if isinstance(old, str) and isinstance(new, str) and (_multiline(old) or _multiline(new)):
        hunks = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=2)
        body = [line for line in hunks if not line.startswith(("---", "+++"))]
        return [f"{_FIELD}~ {change.path}:"] + [f"{_BODY}{line}" for line in body]
    return [f"{_FIELD}~ {change.path}: {_show(old)} -> {_show(new)}"]


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def summary(report: Report) -> str:
    if report.same:
        return f"no differences ({_count(report.compared, 'object')} on both sides)"
    return (
        f"{_count(len(report.removed), 'object')} only left, {len(report.added)} only right, "
        f"{len(report.changed)} changed ({_count(report.fields_changed, 'field')})"
    )


def format_report(report: Report) -> str:
    lines = [f"--- {report.left}", f"+++ {report.right}"]
    lines += [f"- {key} (only left)" for key in report.removed]
    lines += [f"+ {key} (only right)" for key in report.added]
    for key, changes in report.changed.items():
        lines.append(f"~ {key}")
        for change in changes:
            lines += _change_lines(change)
    lines.append(summary(report))
    return "\n".join(lines) + "\n"
