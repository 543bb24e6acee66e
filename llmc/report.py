"""How errors and findings look on stderr: location, the offending line with a caret, the field path, a hint."""

from __future__ import annotations

from .errors import LlmcError
from .findings import Finding


def format_error(err: LlmcError, sources: dict[str, str]) -> str:
    """Plain-text rendering of one error; `sources` maps file labels to their text for the excerpt."""
    loc = err.location
    lines = [f"error: {err}"]
    if loc is not None and loc.line is not None:
        text = sources.get(loc.file)
        if text is not None:
            source_lines = text.splitlines()
            if 1 <= loc.line <= len(source_lines):
                gutter = f"{loc.line:>5} | "
                lines.append(gutter + source_lines[loc.line - 1])
                if loc.col is not None:
                    lines.append(" " * (len(gutter) + loc.col - 1) + "^")
    if err.hint:
        lines.append(f"hint: {err.hint}")
    return "\n".join(lines)


def format_finding(finding: Finding) -> str:
    return str(finding)


def emit_errors(errors: list[LlmcError], sources: dict[str, str], console) -> None:
    """Print errors through a rich Console (styles only on a terminal)."""
    for err in errors:
        text = format_error(err, sources)
        if console.is_terminal:
            head, _, rest = text.partition("\n")
            console.print(head, style="bold red", markup=False, highlight=False)
            if rest:
                console.print(rest, markup=False, highlight=False)
        else:
            console.print(text, markup=False, highlight=False, soft_wrap=True)
