"""The llm-d-style overlay proof: a hand-written kustomize DRA overlay against llmc's managed DRA.

tests/data/gitops/overlay/ holds the overlay. Its base is llmc's render of
plain-service.yaml, written here; kustomize adds a ResourceClaimTemplate whose
single request is named `nvidia` and a patch claiming it. `llmc diff` of that
build against `llmc render` of managed-dra-service.yaml (the same service with
the serving.kserve.io/exp-dra-* annotations) must report the request name,
`nvidia` against KServe's `device`, and nothing else.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from llmc.cli.app import app
from llmc.cli.outdir import write_output_dir

OVERLAY = Path(__file__).resolve().parent / "data" / "gitops" / "overlay"
REQUEST = "spec.spec.devices.requests"

# Differences that are explained, passed to `llmc diff --ignore`. None so far: kustomize
# and llmc agree on everything but the request name. Add a path here only with a comment
# saying why the difference does not matter.
IGNORE: list[str] = []

pytestmark = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")


def llmc(*args: str):
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """The overlay with its base rendered by llmc, built by the real kubectl kustomize."""
    overlay = tmp_path / "overlay"
    shutil.copytree(OVERLAY, overlay)
    rendered = llmc("render", "-f", str(overlay / "plain-service.yaml"))
    assert rendered.exit_code == 0, rendered.stderr
    base_objects = [d for d in yaml.safe_load_all(rendered.stdout) if d]
    assert sorted(o["kind"] for o in base_objects) == ["Certificate", "Deployment", "Issuer", "Service"]
    files = write_output_dir(base_objects, overlay / "base")
    (overlay / "base" / "kustomization.yaml").write_text(
        yaml.safe_dump({"resources": [f.name for f in files]}, sort_keys=False)
    )
    build = subprocess.run(["kubectl", "kustomize", str(overlay)], capture_output=True, text=True, timeout=60)
    assert build.returncode == 0, build.stderr
    out = tmp_path / "overlay-build.yaml"
    out.write_text(build.stdout)
    return out


def diff(built: Path, output: str):
    ignores = [arg for path in IGNORE for arg in ("--ignore", path)]
    return llmc("diff", str(built), "--render", str(OVERLAY / "managed-dra-service.yaml"), *ignores, "-o", output)


def test_the_overlay_differs_from_managed_dra_only_in_the_request_name(built: Path) -> None:
    result = diff(built, "json")
    assert result.exit_code == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["added"] == [] and report["removed"] == [], "the same objects on both sides"
    (changed,) = report["changed"]
    assert changed["object"] == "ResourceClaimTemplate.resource.k8s.io inference/qwen-managed-dra"
    # apart from its name the request is the same (one device of the same DeviceClass): one renamed field
    assert changed["changes"] == [{"path": f"{REQUEST}[name=nvidia].name", "old": "nvidia", "new": "device"}]
    assert report["summary"] == {"onlyLeft": 0, "onlyRight": 0, "changed": 1, "fieldsChanged": 1}


def test_the_text_report_names_the_sides_and_the_rename(built: Path) -> None:
    result = diff(built, "text")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"--- {built}",
        f"+++ llmc render {OVERLAY / 'managed-dra-service.yaml'} --preset-set kserve-master",
        "~ ResourceClaimTemplate.resource.k8s.io inference/qwen-managed-dra",
        f'    ~ {REQUEST}[name=nvidia].name: "nvidia" -> "device"',
        "0 objects only left, 0 only right, 1 changed (1 field)",
    ]


def test_the_build_can_come_on_stdin(built: Path) -> None:
    """`kubectl kustomize overlay | llmc diff - --render svc.yaml`, as docs/gitops.md shows."""
    result = CliRunner().invoke(
        app, ["diff", "-", "--render", str(OVERLAY / "managed-dra-service.yaml"), "-o", "json"],
        input=built.read_text(), catch_exceptions=False,
    )
    assert result.exit_code == 1, result.stderr
    assert [c["object"] for c in json.loads(result.stdout)["changed"]] == [
        "ResourceClaimTemplate.resource.k8s.io inference/qwen-managed-dra"
    ]


def test_renaming_the_request_makes_them_equal(built: Path) -> None:
    """The counter-check: with KServe's request name the overlay is exactly llmc's managed DRA."""
    built.write_text(built.read_text().replace("name: nvidia", "name: device"))
    result = diff(built, "text")
    assert result.exit_code == 0, result.stdout
    objects = [d for d in yaml.safe_load_all(built.read_text()) if d]
    assert result.stdout.splitlines()[-1] == f"no differences ({len(objects)} objects on both sides)"
