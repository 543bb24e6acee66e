"""A real kube-apiserver v1.34.9 accepts everything llmc prints (issue 14, "never print what the API server refuses").

Server-side dry-run, with strict field validation, of the output of every golden case that
succeeds, every docs/examples file, and every KServe sample llmc renders under the built-in
presets and under KServe's own (`../shared/upstream/kserve/presets/master`). LeaderWorkerSet pod
templates are also sent as Deployments, since the LWS CRD checks them only against its schema.
The inputs llmc accepts are dry-run too: the API server admits the services llmc renders.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from llmc.cli.app import app
from tests.conftest import ROOT, UPSTREAM
from tests.kube.apiserver import ApiServer, checked_objects
from tests.test_golden import GOLDEN, run_case

KSERVE = UPSTREAM / "kserve"
PRESETS = {"built-in presets": [], "kserve presets/master": ["--presets", str(KSERVE / "presets" / "master")]}
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yaml"))
# the input kinds whose schema the server has (no InferenceService CRD is pinned in ../shared/upstream)
INPUT_KINDS = {"LLMInferenceService", "LLMInferenceServiceConfig", "ConfigMap"}


def _objects(stream: str) -> list[dict]:
    return [o for o in yaml.safe_load_all(stream) if o]


def _golden_args(case: Path) -> list[str]:
    return [line.strip() for line in (case / "args").read_text().splitlines() if line.strip() and not line.startswith("#")]


def _inputs(base: Path, args: list[str]) -> list[Path]:
    """The input files of an llmc command line (`-f` values, folders walked), relative to `base`."""
    out = []
    for flag, value in zip(args, args[1:]):
        if flag in ("-f", "--filename") and value != "-":
            path = base / value
            out += sorted(path.rglob("*.y*ml")) if path.is_dir() else [path]
    return out


@pytest.fixture(scope="module")
def renders() -> list[tuple[str, list[dict], list[Path]]]:
    """(label, rendered objects, input files) of every output the sweep checks."""
    out = []
    for case in sorted(p for p in GOLDEN.iterdir() if (p / "args").is_file() and not (p / "exit_code").exists()):
        result = run_case(case)
        assert result.exit_code == 0, (case.name, result.stderr)
        out.append((f"golden/{case.name}", _objects(result.stdout), _inputs(case, _golden_args(case))))
    for example in EXAMPLES:
        result = CliRunner().invoke(app, ["render", "-f", str(example)])
        assert result.exit_code == 0, (example.name, result.stderr)
        out.append((f"docs/examples/{example.name}", _objects(result.stdout), [example]))
    for sample in sorted(KSERVE.glob("samples/**/*.yaml")):
        for label, args in PRESETS.items():
            result = CliRunner().invoke(app, ["render", *args, "-f", str(sample)])
            if result.exit_code == 0 and result.stdout:
                out.append((f"{sample.relative_to(KSERVE)} ({label})", _objects(result.stdout), [sample]))
    return out


def _rejections(server: ApiServer, labelled: list[tuple[str, list[dict]]]) -> tuple[list[str], int]:
    """('label: Kind ns/name: message' for every rejected object and every warning, number of objects sent).

    A warning (a duplicate port, a deprecated API) is no rejection, but is counted with them:
    none occurs today, and output that draws one is worth a look.
    """
    rejected, sent = [], 0
    for label, objects in labelled:
        for obj in objects:
            verdict = server.dry_run(obj)
            sent += 1
            if verdict.error is not None:
                rejected.append(f"{label}: {verdict.what}: {verdict.error}")
            rejected += [f"{label}: {verdict.what}: warning: {w}" for w in verdict.warnings]
    return rejected, sent


def test_the_api_server_accepts_every_rendered_object(apiserver: ApiServer, renders) -> None:
    assert sum(label.startswith("samples/") for label, _, _ in renders) >= 40  # 21 samples under each preset set
    labelled = [(label, checked_objects(objects)) for label, objects, _ in renders]
    rejected, sent = _rejections(apiserver, labelled)
    assert rejected == [], f"{len(rejected)} of {sent} objects rejected:\n" + "\n".join(rejected)
    assert sent >= 1000
    kinds = {o["kind"] for _, objects in labelled for o in objects}
    assert {"LeaderWorkerSet", "Certificate", "Issuer", "ScaledObject", "ResourceClaimTemplate"} <= kinds


def test_leaderworkerset_pod_templates_are_also_checked_as_deployments(renders) -> None:
    lws = [o for _, objects, _ in renders for o in objects if o["kind"] == "LeaderWorkerSet"]
    assert lws
    for obj in lws:
        pods = [d for d in checked_objects([obj]) if d["kind"] == "Deployment"]
        want = [obj["spec"]["leaderWorkerTemplate"][p]["spec"] for p in ("leaderTemplate", "workerTemplate")
                if p in obj["spec"]["leaderWorkerTemplate"]]
        assert [d["spec"]["template"]["spec"] for d in pods] == want


def test_the_api_server_admits_every_input_llmc_renders(apiserver: ApiServer, renders) -> None:
    labelled = []
    for label, _, inputs in renders:
        docs = [d for path in inputs for d in _objects(path.read_text())]
        docs = [item for d in docs for item in (d.get("items") or [] if d.get("kind") == "List" else [d])]
        labelled.append((label, [d for d in docs if d.get("kind") in INPUT_KINDS]))
    rejected, sent = _rejections(apiserver, labelled)
    assert rejected == [], f"{len(rejected)} of {sent} inputs rejected:\n" + "\n".join(rejected)
    assert sent >= 100
