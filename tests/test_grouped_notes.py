"""Repeated notes are printed once with the count and the services (llmc.cli.report.format_findings); warnings are not."""

from __future__ import annotations

from pathlib import Path

import yaml
from typer.testing import CliRunner

from llmc.cli.app import app
from llmc.core.findings import Finding
from llmc.cli.report import format_findings

ROOT = Path(__file__).resolve().parent.parent
PIPELINED = ROOT / "golden" / "pipeline-parallel-single-node" / "input.yaml"  # warning LLMC101, note LLMC302


def tls_note(service: str) -> Finding:
    name = service.split("/")[1]
    return Finding(service, "LLMC302", f"Secret/{name}-kserve-self-signed-certs", "llmc renders a Certificate")


def test_a_note_of_many_services_is_one_line_naming_three() -> None:
    findings = sorted(tls_note(f"ns/s{i:03}") for i in range(200))
    assert format_findings(findings) == [(
        "note", "note: LLMC302 (200 services: ns/s000, ns/s001, ns/s002 and 197 more): "
        "Secret/<name>-kserve-self-signed-certs: llmc renders a Certificate")]


def test_the_name_is_replaced_only_where_it_starts_an_object_name() -> None:
    """`s` is the name in `Secret/s-kserve-...` but not inside `self-signed`; `kserve` only once in
    `Secret/kserve-kserve-...`; the word `a` of the message stays for the service named `a`."""
    services = ("x/s", "x/kserve", "x/a")
    lines = [line for _, line in format_findings([tls_note(s) for s in services])]
    assert lines == ["note: LLMC302 (3 services: x/s, x/kserve, x/a): Secret/<name>-kserve-self-signed-certs: "
                     "llmc renders a Certificate"]
    other = Finding("x/b", "LLMC302", "Secret/b-kserve-self-signed-certs", "another text")
    assert len(format_findings([tls_note("x/s"), other])) == 2, "a different message is not the same note"


def test_warnings_and_differing_notes_stay_one_per_service_in_order() -> None:
    warnings = [Finding(s, "LLMC101", "spec.parallelism.pipeline", "reaches no container") for s in ("a/x", "a/y")]
    other = Finding("a/y", "LLMC303", "metadata.annotations", "rendered as v1beta1")
    findings = sorted([*warnings, tls_note("a/x"), tls_note("a/y"), other])
    assert [line for _, line in format_findings(findings)] == [
        "warning: LLMC101 a/x: spec.parallelism.pipeline: reaches no container",
        "note: LLMC302 (2 services: a/x, a/y): Secret/<name>-kserve-self-signed-certs: llmc renders a Certificate",
        "warning: LLMC101 a/y: spec.parallelism.pipeline: reaches no container",
        "note: LLMC303 a/y: metadata.annotations: rendered as v1beta1",
    ]


def test_render_groups_the_tls_note_of_every_service(tmp_path: Path) -> None:
    service = yaml.safe_load(PIPELINED.read_text())
    docs = []
    for name in ("c", "a", "b", "d"):
        docs.append({**service, "metadata": {**service["metadata"], "name": name}})
    (tmp_path / "svcs.yaml").write_text(yaml.safe_dump_all(docs))
    done = CliRunner().invoke(app, ["render", "-f", str(tmp_path / "svcs.yaml"), "-n", "ns"])
    assert done.exit_code == 0, done.stderr
    lines = done.stderr.splitlines()
    assert sum("LLMC101" in line for line in lines) == 4, "a warning per service"
    (note,) = [line for line in lines if "LLMC302" in line]
    namespace = service["metadata"].get("namespace", "ns")
    assert note.startswith(f"note: LLMC302 (4 services: {namespace}/a, {namespace}/b, {namespace}/c and 1 more): "
                           "Secret/<name>-kserve-self-signed-certs: "), note
