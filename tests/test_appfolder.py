"""Folders as GitOps repositories hold them: kustomize/helm files and dot-files are skipped; all files' errors are printed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from llmc.appfolder import skip_reason, walk
from llmc.errors import ErrorList
from llmc.inputs import read_documents

SERVICE = """apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceService
metadata: {name: s1, namespace: ns}
spec: {model: {uri: "hf://org/model", name: org/model}}
"""
NOISE = {
    "kustomization.yaml": "resources: [svc.yaml]\n",
    "overlay/kustomization.yml": "resources: [../svc.yaml]\n",
    "chart/Chart.yaml": "name: c\nversion: 1.0.0\n",
    "chart/values.yaml": "replicas: 1\n",
    "chart/values-prod.yaml": "replicas: 2\n",
    ".git/config.yaml": "x: 1\n",
    ".pre-commit-config.yaml": "repos: []\n",
    "sub/.hidden/thing.json": "{\"a\": 1}\n",
}


@pytest.fixture
def app(tmp_path: Path) -> Path:
    (tmp_path / "svc.yaml").write_text(SERVICE)
    for name, text in NOISE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def test_walk_keeps_only_manifests_and_says_why_it_skipped_the_rest(app):
    skipped: list[tuple[str, str]] = []
    assert walk(app, skipped) == [app / "svc.yaml"]
    # a hidden folder is reported once and not walked (a .git/ can hold thousands of files)
    hidden_folder = lambda n: next((f"{'/'.join(n.split('/')[:i])}" for i, part in enumerate(n.split("/"), 1)  # noqa: E731
                                    if part.startswith(".") and i < len(n.split("/"))), n)
    assert {Path(p).relative_to(app).as_posix() for p, _ in skipped} == {hidden_folder(n) for n in NOISE}


@pytest.mark.parametrize("name", ["values.yaml", "values-x.yml", "kustomization.yaml", "Chart.yaml", ".x.yaml", "a/.b/c.yaml"])
def test_skip_reason_names_the_rule(name):
    assert skip_reason(Path(name))


@pytest.mark.parametrize("name", ["svc.yaml", "values/svc.yaml", "my-values.yaml", "chart.yaml.json"])
def test_ordinary_manifests_are_read(name):
    assert skip_reason(Path(name)) is None


def test_a_file_named_explicitly_is_read_whatever_its_name(app):
    with pytest.raises(ErrorList) as info:
        read_documents([str(app / "kustomization.yaml")], {})
    assert "apiVersion not set" in str(info.value)


def _llmc(*args, cwd):
    return subprocess.run([sys.executable, "-m", "llmc", *args], capture_output=True, text=True, cwd=cwd, env=dict(os.environ))


def test_render_and_check_of_an_app_folder_skip_the_noise(app):
    render = _llmc("render", "-f", ".", "-q", cwd=app)
    assert render.returncode == 0, render.stderr
    assert "name: s1" in render.stdout
    check = _llmc("check", ".", cwd=app)
    assert check.returncode == 0, check.stderr


def test_argocd_generate_skips_the_noise(app):
    result = _llmc("argocd-generate", cwd=app)
    assert result.returncode == 0, result.stderr
    assert "from 1 file(s)" in result.stderr and "0 other object(s) passed through" in result.stderr, result.stderr


def test_every_bad_file_of_a_batch_is_reported(tmp_path):
    (tmp_path / "a.yaml").write_text("x: 1\n")
    (tmp_path / "b.json").write_text('{"a": 1}\n')
    result = _llmc("render", "-f", ".", cwd=tmp_path)
    assert result.returncode != 0 and result.stdout == ""
    assert "a.yaml:1:1" in result.stderr and "b.json:1:1" in result.stderr
