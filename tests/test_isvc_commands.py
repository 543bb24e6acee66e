"""Every command goes through the one driver (`pipeline.run`), so InferenceServices work in all of them:
`explain`, `check`, `diff --render`, `krm`, the kustomize plugin and `argocd-generate` (golden/isvc-s3)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml
from typer.testing import CliRunner

from llmc.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "golden" / "isvc-s3"
INPUT = (CASE / "input.yaml").read_text()
EXPECTED = [d for d in yaml.safe_load_all((CASE / "expected.yaml").read_text()) if d]
BROKEN = INPUT.replace("minReplicas: 2", "minReplicas: -2")


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input, catch_exceptions=False)


def kinds(objects: list[dict]) -> list[tuple[str, str]]:
    return sorted((o["kind"], o["metadata"]["name"]) for o in objects)


def test_the_case_renders_objects() -> None:
    assert len(EXPECTED) >= 3 and {"Deployment", "Service"} <= {o["kind"] for o in EXPECTED}


def test_explain_lists_the_inference_service() -> None:
    result = invoke("explain", "-f", str(CASE / "input.yaml"), "-o", "json")
    assert result.exit_code == 0, result.stderr
    (svc,) = json.loads(result.stdout)["services"]
    assert (svc["kind"], svc["namespace"], svc["name"]) == ("InferenceService", "models", "granite")
    assert sorted((o["kind"], o["name"]) for o in svc["objects"]) == kinds(EXPECTED)
    text = invoke("explain", "-f", str(CASE / "input.yaml")).stdout
    assert text.startswith("models/granite (InferenceService)\n") and "no services" not in text


def test_check_fails_on_a_broken_inference_service(tmp_path: Path) -> None:
    (tmp_path / "ok.yaml").write_text(INPUT)
    (tmp_path / "bad.yaml").write_text(BROKEN)
    assert invoke("check", str(tmp_path / "ok.yaml")).exit_code == 0
    bad = invoke("check", str(tmp_path / "bad.yaml"))
    assert bad.exit_code == 1 and "bad.yaml:" in bad.stderr and "minReplicas" in bad.stderr


def test_diff_render_matches_the_golden_output() -> None:
    result = invoke("diff", str(CASE / "expected.yaml"), "--render", str(CASE / "input.yaml"))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "only in" not in result.stdout


def test_krm_renders_inference_services_away() -> None:
    items = [d for d in yaml.safe_load_all(INPUT) if d]
    text = yaml.safe_dump({"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": items})
    result = invoke("krm", input=text)
    assert result.exit_code == 0, result.stderr
    out = yaml.safe_load(result.stdout)
    assert kinds(out["items"]) == kinds(EXPECTED)


def _llmc(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "llmc", *args], cwd=cwd, env={**os.environ, **env},
                          capture_output=True, text=True, timeout=120)


def test_kustomize_plugin_renders_inference_services(tmp_path: Path) -> None:
    (tmp_path / "isvc.yaml").write_text(INPUT)
    (tmp_path / "config.yaml").write_text("apiVersion: llmc.dev/v1alpha1\nkind: LLMRender\nmetadata: {name: r}\n"
                                          "files: [isvc.yaml]\n")
    done = _llmc("kustomize-plugin", "config.yaml", cwd=tmp_path, env={})
    assert done.returncode == 0, done.stderr
    assert kinds([d for d in yaml.safe_load_all(done.stdout) if d]) == kinds(EXPECTED)


def test_argocd_generate_renders_inference_services(tmp_path: Path) -> None:
    (tmp_path / "isvc.yaml").write_text(INPUT)
    (tmp_path / "other.yaml").write_text("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: s3-reader}\n")
    done = _llmc("argocd-generate", cwd=tmp_path, env={"ARGOCD_APP_NAMESPACE": "models"})
    assert done.returncode == 0, done.stderr
    assert kinds([d for d in yaml.safe_load_all(done.stdout) if d]) == sorted(kinds(EXPECTED) + [("ServiceAccount", "s3-reader")])
    assert "rendered 1 service(s)" in done.stderr
