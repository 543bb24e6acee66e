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
