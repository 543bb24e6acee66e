"""Error messages that used to mislead (issue 17): each names the problem once, in the right place."""

from __future__ import annotations

import subprocess
import sys


def test_a_missing_file_is_named_once_with_the_usage_exit_code(tmp_path):
    result = subprocess.run([sys.executable, "-m", "llmc", "render", "-f", "nope.yaml"], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("nope.yaml") == 1, result.stderr
    assert "no such file or directory" in result.stderr


def test_ci_refuses_to_run_without_shared(tmp_path):
    """.ci/run's guard: a copy of the script in a folder with no ../shared stops before installing anything."""
    from pathlib import Path

    ci = tmp_path / "clone" / ".ci"
    ci.mkdir(parents=True)
    (ci / "run").write_text((Path(__file__).resolve().parent.parent / ".ci" / "run").read_text())
    result = subprocess.run(["bash", str(ci / "run")], capture_output=True, text=True)
    assert result.returncode == 1 and "../shared/upstream is missing" in result.stderr
    assert not (tmp_path / "clone" / ".venv").exists()


import pytest  # noqa: E402

from tests.test_output_valid import invoke  # noqa: E402

SERVICE = "apiVersion: {api}\nkind: {kind}\nmetadata: {{name: a}}\nspec: {{model: {{uri: hf://a/b}}}}\n"


@pytest.mark.parametrize("api,kind,where,hint", [
    ("serving.kserve.io/v1alpha2", "LLMInferenceServices", "svc.yaml:2:7: kind:", "did you mean kind: LLMInferenceService?"),
    ("serving.kserve.io/v1beta1", "LLMInferenceService", "svc.yaml:1:13: apiVersion:",
     "LLMInferenceService is read as apiVersion serving.kserve.io/v1alpha1 or serving.kserve.io/v1alpha2"),
])
def test_a_near_miss_kind_gets_one_error_with_its_fix(tmp_path, api, kind, where, hint):
    (tmp_path / "svc.yaml").write_text(SERVICE.format(api=api, kind=kind))
    run = invoke(["render", "-f", "svc.yaml"], cwd=tmp_path)
    assert run.code == 1 and run.stdout == ""
    assert run.stderr.startswith(f"error: {where}") and hint in run.stderr, run.stderr
    assert run.stderr.count("error:") == 1  # no "the input holds no LLMInferenceService" on top


def test_a_kube_version_without_schemas_is_a_usage_error_of_the_flag(tmp_path):
    pytest.importorskip("kubernetes_validate")
    (tmp_path / "svc.yaml").write_text(SERVICE.format(api="serving.kserve.io/v1alpha2", kind="LLMInferenceService"))
    run = invoke(["render", "-f", "svc.yaml", "--validate", "--kube-version", "1.40"], cwd=tmp_path)
    assert run.code == 2 and run.stdout == ""
    assert run.stderr.startswith("error: --validate --kube-version 1.40: no Kubernetes 1.40 schemas"), run.stderr
    assert "svc.yaml" not in run.stderr
