"""How errors and findings look on stderr: location, the offending line with a caret, the field path, a hint.

Bad input can be large and hostile, so reporting is bounded too (docs/budgets.md): at most
`max_errors()` errors are shown (`LLMC_MAX_ERRORS`, default 20) with a count of the rest, an
excerpt is cut to `EXCERPT_WIDTH` characters around the column, and each source is split
into lines once, not once per error.
"""

from __future__ import annotations

import os

from .errors import LlmcError
from .findings import Finding

MAX_ERRORS = 20
EXCERPT_WIDTH = 160


def max_errors() -> int:
    """Errors shown per run: `LLMC_MAX_ERRORS` (a positive integer; 0 or a bad value means the default)."""
    try:
        value = int(os.environ.get("LLMC_MAX_ERRORS", ""))
    except ValueError:
        return MAX_ERRORS
    return value if value > 0 else MAX_ERRORS


class _Lines:
    """Line lookup over the sources, each split on first use."""

    def __init__(self, sources: dict[str, str]) -> None:
        self.sources, self.split = sources, {}

    def get(self, file: str, line: int) -> str | None:
        if file not in self.split:
            text = self.sources.get(file)
            self.split[file] = None if text is None else text.splitlines()
        lines = self.split[file]
        if lines is None or not 1 <= line <= len(lines):
            return None
        return lines[line - 1]


def excerpt(line: str, col: int | None) -> tuple[str, int | None]:
    """`line` cut to about EXCERPT_WIDTH characters around `col` (1-based), and the caret's column in the cut."""
    if len(line) <= EXCERPT_WIDTH:
        return line, col
    at = (col or 1) - 1
    start = max(0, min(at - EXCERPT_WIDTH // 2, len(line) - EXCERPT_WIDTH))
    end = start + EXCERPT_WIDTH
    cut = ("…" if start else "") + line[start:end] + ("…" if end < len(line) else "")
    return cut, None if col is None else at - start + 1 + (1 if start else 0)


def format_error(err: LlmcError, sources: dict[str, str] | _Lines) -> str:
    """Plain-text rendering of one error; `sources` maps file labels to their text for the excerpt."""
    lookup = sources if isinstance(sources, _Lines) else _Lines(sources)
    loc = err.location
    lines = [f"error: {err}"]
    if loc is not None and loc.line is not None:
        source_line = lookup.get(loc.file, loc.line)
        if source_line is not None:
            shown, col = excerpt(source_line, loc.col)
            gutter = f"{loc.line:>5} | "
            lines.append(gutter + shown)
            if col is not None:
                lines.append(" " * (len(gutter) + col - 1) + "^")
    if err.hint:
        lines.append(f"hint: {err.hint}")
    return "\n".join(lines)


def format_finding(finding: Finding) -> str:
    return str(finding)


def emit_errors(errors: list[LlmcError], sources: dict[str, str], console) -> None:
    """Print at most `max_errors()` errors through a rich Console (styles only on a terminal), then how many more."""
    lookup, limit = _Lines(sources), max_errors()
    texts = [format_error(err, lookup) for err in errors[:limit]]
    if len(errors) > limit:
        more = len(errors) - limit
        texts.append(f"error: {more} more error{'s' if more > 1 else ''} not shown (LLMC_MAX_ERRORS={limit})")
    for text in texts:
        if console.is_terminal:
            head, _, rest = text.partition("\n")
            console.print(head, style="bold red", markup=False, highlight=False)
            if rest:
                console.print(rest, markup=False, highlight=False)
        else:
            console.print(text, markup=False, highlight=False, soft_wrap=True)
