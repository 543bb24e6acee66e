"""How errors and findings look on stderr: location, the offending line with a caret, the field path, a hint.

Bad input can be large and hostile, so reporting is bounded too (docs/budgets.md): at most
`max_errors()` errors are shown (`LLMC_MAX_ERRORS`, default 20) with a count of the rest, an
excerpt is cut to `EXCERPT_WIDTH` characters around the column, and each source is split
into lines once, not once per error.
"""

from __future__ import annotations

import os

from llmc.core.errors import LlmcError
from llmc.core.findings import Finding

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


GROUP_SHOWN = 3  # services named in a grouped note; the rest are counted


def format_findings(findings: list[Finding]) -> list[tuple[str, str]]:
    """(severity, line) for each finding, in order; a note that several services have with the same text
    (their own name written `<name>`) is one line at its first place, with the count and the services.

    A note is the same for every service (LLMC302: 200 lines for 200 services); warnings stay one per
    service, each asks for its own fix."""
    groups: dict[tuple[str, str, str], list[Finding]] = {}
    for f in findings:
        if f.severity == "note":
            groups.setdefault((f.code, *_shape(f)), []).append(f)
    lines: list[tuple[str, str]] = []
    for f in findings:
        group = groups.get((f.code, *_shape(f))) if f.severity == "note" else None
        services = list(dict.fromkeys(g.service for g in group)) if group else []
        if len(services) < 2:
            lines.append((f.severity, format_finding(f)))
        elif group[0] is f:
            path, message = _shape(f)
            named = ", ".join(services[:GROUP_SHOWN])
            more = f" and {len(services) - GROUP_SHOWN} more" if len(services) > GROUP_SHOWN else ""
            lines.append((f.severity, f"{f.severity}: {f.code} ({len(services)} services: {named}{more}): {path}: {message}"))
    return lines


def _shape(finding: Finding) -> tuple[str, str]:
    """The path and message with the service's own name as `<name>` where it starts an object's name
    (`s` in `Secret/s-kserve-self-signed-certs`, not in `self-signed`, nor the word `a` of service `a`)."""
    import re

    name = finding.service.rpartition("/")[2]
    if not name:
        return finding.path, finding.message
    word = re.compile(rf"(?:^|(?<=/)){re.escape(name)}(?=[-/.']|$)")
    return word.sub("<name>", finding.path), word.sub("<name>", finding.message)


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
