"""`llmc diff` itself: read or render the two sides, compare them, write the report.

The sides are two manifest sets (files, folders, `-`), a set and `--render` of
services, or, for an upgrade preview, the same services rendered twice: once with
the base options (`--preset-set`, `--presets`, `--kserve-version`) and once with the
`--against-*` ones.
"""

from __future__ import annotations

import json
import sys

from llmc.cli.common import build_request, reported, stderr_console
from llmc.core.record import record


@record(frozen=True)
class Side:
    """How one rendered side is rendered: a preset folder list or a built-in set, and the controller version."""

    presets: list[str] | None = None
    preset_set: str | None = None
    kserve_version: str | None = None

    def label(self, files: list[str]) -> str:
        from llmc.resolve.presets import DEFAULT_SET

        words = ["llmc render", *files]
        if self.presets:
            words += [f"--presets {p}" for p in self.presets]
        else:
            words.append(f"--preset-set {self.preset_set or DEFAULT_SET}")
        if self.kserve_version:
            words.append(f"--kserve-version {self.kserve_version}")
        return " ".join(words)


def _render(files: list[str], side: Side, kserve_config, namespace: str, sources: dict[str, str]) -> list[dict]:
    from llmc.gitops.krm import RenderConfig
    from llmc.pipeline import run as render

    config = RenderConfig(files=tuple(files), presets=tuple(side.presets or ()), preset_set=side.preset_set,
                          kserve_config=kserve_config, namespace=namespace, dra_api="resource.k8s.io/v1",
                          kserve_version=side.kserve_version)
    request = build_request(config, sources)
    return [*request.passthrough_objects(), *render(request).objects()]  # what `llmc render` writes


def run(paths: list[str], render_input: list[str], ignore: tuple[str, ...], output: str, namespace: str,
        kserve_config: str | None, base: Side, against: Side | None) -> int:
    """The exit code: 0 equal, 1 different; bad input ends the command with 2."""
    from llmc.gitops.diff import diff_sets
    from llmc.gitops.diff_text import format_report
    from llmc.core.errors import LlmcError
    from llmc.read.inputs import read_documents

    sources: dict[str, str] = {}
    sides: list[tuple[str, list[dict]]] = []
    with reported(sources, exit_code=2):
        if against is not None and (paths or not render_input):
            raise LlmcError("--against-* options compare two renders of the same services",
                            hint="llmc diff --render SVC.yaml --preset-set A --against-preset-set B (no manifest paths)",
                            exit_code=2)
        for path in paths:
            sides.append(("stdin" if path == "-" else path, [d.obj for d in read_documents([path], sources)]))
        for side in [base, against] if render_input else []:
            if side is not None:
                sides.append((side.label(render_input), _render(render_input, side, kserve_config, namespace, sources)))
        if len(sides) != 2:
            raise LlmcError(f"diff needs two sides, got {len(sides)}", exit_code=2,
                            hint="llmc diff A B, llmc diff A --render SVC.yaml, or llmc diff --render SVC.yaml --against-preset-set SET")
        if against is not None and sides[0][0] == sides[1][0]:
            raise LlmcError(f"both sides are {sides[0][0]}", hint="the --against-* options must change something",
                            exit_code=2)
    (left_label, left), (right_label, right) = sides
    report = diff_sets(left, right, ignore, namespace, labels=(left_label, right_label))
    for rule in report.unused_ignores:
        stderr_console().print(f"llmc diff: --ignore {rule} matched no field", markup=False, soft_wrap=True)
    if output == "json":
        sys.stdout.write(json.dumps(report.as_dict(), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(format_report(report))
    return 0 if report.same else 1
