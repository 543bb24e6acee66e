"""`llmc krm`: the KRM function ResourceList contract (stdin/stdout, items, functionConfig, results, exit code)."""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from llmc.cli.app import app
from llmc.gitops.diff import diff_sets

ROOT = Path(__file__).resolve().parent.parent
KRM_EXAMPLE = ROOT / "docs" / "kustomize" / "krm"
LAUNCHER = Path(__file__).resolve().parent / "data" / "gitops" / "bin"

SERVICE = yaml.safe_load((KRM_EXAMPLE / "llama.yaml").read_text())
SECRET = {
    "apiVersion": "v1",
    "kind": "Secret",
    "metadata": {
        "name": "hf-token",
        "namespace": "team-a",
        "annotations": {"internal.config.kubernetes.io/path": "hf-token.yaml", "internal.config.kubernetes.io/index": "0"},
    },
    "stringData": {"token": "x"},
}
CONFIGMAP = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "epp-config", "namespace": "team-a"}, "data": {"a": "b"}}
LLMRENDER = {"apiVersion": "llmc.dev/v1alpha1", "kind": "LLMRender", "metadata": {"name": "llmc"}, "presetSet": "kserve-master"}


def with_source(obj: dict, path: str, index: int = 0) -> dict:
    obj = copy.deepcopy(obj)
    annotations = obj["metadata"].setdefault("annotations", {})
    annotations["internal.config.kubernetes.io/path"] = path
    annotations["internal.config.kubernetes.io/index"] = str(index)
    return obj


def resource_list(items: list[dict], function_config: dict | None = LLMRENDER) -> str:
    doc: dict = {"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": items}
    if function_config is not None:
        doc["functionConfig"] = function_config
    return yaml.safe_dump(doc, sort_keys=False)


def krm(text: str):
    result = CliRunner().invoke(app, ["krm"], input=text, catch_exceptions=False)
    out = list(yaml.safe_load_all(result.stdout)) if result.stdout else []
    assert len(out) <= 1, "stdout must hold one ResourceList"
    return result, (out[0] if out else None)


def render(path: Path) -> list[dict]:
    result = CliRunner().invoke(app, ["render", "-f", str(path), "--preset-set", "kserve-master"], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return [d for d in yaml.safe_load_all(result.stdout) if d]


def test_services_are_replaced_by_their_objects_and_the_rest_passes_through() -> None:
    result, out = krm(resource_list([SECRET, CONFIGMAP, with_source(SERVICE, "llama.yaml")]))
    assert result.exit_code == 0, result.stderr
    assert out["apiVersion"] == "config.kubernetes.io/v1" and out["kind"] == "ResourceList"
    items = out["items"]
    assert items[0] == SECRET, "pass-through items (and their internal annotations) stay as they are"
    assert items[1] == CONFIGMAP, "ConfigMaps are read and kept"
    assert not any(i["kind"] == "LLMInferenceService" for i in items)
    assert diff_sets(render(KRM_EXAMPLE / "llama.yaml"), items[2:]).same


def test_findings_become_results_pointing_at_the_service() -> None:
    _, out = krm(resource_list([with_source(SERVICE, "svc/llama.yaml", 2)]))
    (note,) = [r for r in out["results"] if r["tags"]["code"] == "LLMC302"]
    assert note["severity"] == "info"
    assert note["resourceRef"] == {
        "apiVersion": "serving.kserve.io/v1alpha2", "kind": "LLMInferenceService", "name": "llama-8b", "namespace": "team-a",
    }
    assert note["file"] == {"path": "svc/llama.yaml", "index": 2}
    assert note["field"]["path"].startswith("Secret/")


def test_errors_become_results_and_exit_1_with_the_items_unchanged() -> None:
    bad = with_source(SERVICE, "llama.yaml")
    bad["spec"]["replica"] = 2
    result, out = krm(resource_list([SECRET, bad]))
    assert result.exit_code == 1
    assert out["items"] == [SECRET, bad]
    (err,) = out["results"]
    assert err["severity"] == "error"
    assert err["message"] == 'unknown field "spec.replica" (hint: did you mean \'replicas\'?)'
    assert err["field"] == {"path": "spec.replica"}
    assert err["file"] == {"path": "llama.yaml", "index": 0}
    assert err["resourceRef"]["name"] == "llama-8b"
    assert 'unknown field "spec.replica"' in result.stderr


def test_configmap_function_config() -> None:
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "fn"}, "data": {"presetSet": "kserve-v0.20"}}
    service = copy.deepcopy(SERVICE)
    del service["metadata"]["namespace"]
    config["data"]["namespace"] = "team-z"
    result, out = krm(resource_list([service], config))
    assert result.exit_code == 0, result.stderr
    assert {i["metadata"].get("namespace") for i in out["items"] if i["kind"] != "ClusterRoleBinding"} == {"team-z"}


def test_without_function_config_the_defaults_apply() -> None:
    result, out = krm(resource_list([SERVICE], None))
    assert result.exit_code == 0, result.stderr
    assert any(i["kind"] == "Deployment" for i in out["items"])


@pytest.mark.parametrize(
    ("config", "message"),
    [({"presetset": "x"}, "unknown llmc option 'presetset'"), ({"kserveVersion": "v9"}, "unknown kserveVersion 'v9'")],
)
def test_bad_function_config_is_an_error_result(config: dict, message: str) -> None:
    result, out = krm(resource_list([SERVICE], {**LLMRENDER, **config}))
    assert result.exit_code == 1
    assert message in out["results"][0]["message"]


def test_strict_fails_on_warnings_only() -> None:
    strict = {**LLMRENDER, "strict": True}
    result, _ = krm(resource_list([SERVICE], strict))
    assert result.exit_code == 0, "notes (LLMC3xx) never fail --strict"
    pipelined = copy.deepcopy(SERVICE)
    pipelined["spec"]["parallelism"] = {"pipeline": 2}
    result, out = krm(resource_list([pipelined], strict))
    assert result.exit_code == 1
    assert any(r["severity"] == "warning" for r in out["results"])
    assert out["items"] == [pipelined]


def test_files_of_the_function_config_are_read_from_the_working_directory(monkeypatch) -> None:
    monkeypatch.chdir(KRM_EXAMPLE)
    result, out = krm(resource_list([SECRET], {**LLMRENDER, "files": ["llama.yaml"]}))
    assert result.exit_code == 0, result.stderr
    assert diff_sets(render(KRM_EXAMPLE / "llama.yaml") + [SECRET], out["items"]).same


def test_json_input_and_v1beta1_are_accepted() -> None:
    text = json.dumps({"apiVersion": "config.kubernetes.io/v1beta1", "kind": "ResourceList", "items": [SERVICE]})
    result, out = krm(text)
    assert result.exit_code == 0, result.stderr
    assert out["apiVersion"] == "config.kubernetes.io/v1beta1"


@pytest.mark.parametrize(
    "text",
    ["", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n", "a: [\n",
     resource_list([SECRET]) + "---\n" + resource_list([SECRET])],
)
def test_anything_but_a_resource_list_is_an_error(text: str) -> None:
    result, out = krm(text)
    assert result.exit_code == 1
    assert out["kind"] == "ResourceList" and out["items"] == []
    assert out["results"][0]["severity"] == "error"


def test_stdout_is_only_the_resource_list_in_a_real_process() -> None:
    env = {**os.environ, "PATH": f"{LAUNCHER}{os.pathsep}{os.environ['PATH']}", "LLMC_PYTHON": sys.executable}
    done = subprocess.run(["llmc", "krm"], input=resource_list([SECRET, SERVICE]), env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    (doc,) = list(yaml.safe_load_all(done.stdout))
    assert doc["kind"] == "ResourceList"
    assert done.stderr == ""  # findings travel as results


@pytest.mark.skipif(shutil.which("kustomize") is None, reason="standalone kustomize is not installed "
                    "(kubectl kustomize has no --enable-exec and skips exec functions)")
def test_standalone_kustomize_runs_the_documented_function() -> None:
    env = {**os.environ, "PATH": f"{LAUNCHER}{os.pathsep}{os.environ['PATH']}", "LLMC_PYTHON": sys.executable}
    done = subprocess.run(["kustomize", "build", "--enable-alpha-plugins", "--enable-exec", str(KRM_EXAMPLE)],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    built = [d for d in yaml.safe_load_all(done.stdout) if d]
    secret = yaml.safe_load((KRM_EXAMPLE / "hf-token.yaml").read_text())
    assert diff_sets(render(KRM_EXAMPLE / "llama.yaml") + [secret], built).same


# --------------------------------------------------------------------------- the same item rule for files:
# `llmc check` and the pre-commit hook (.pre-commit-hooks.yaml)

HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())


def run_hook(files: list[Path], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the hook as pre-commit does: entry, then args, then the changed files."""
    import re
    import shlex

    (hook,) = HOOKS
    picked = [str(f.relative_to(cwd)) for f in files if re.search(hook["files"], f.name)]
    env = {**os.environ, "PATH": f"{LAUNCHER}{os.pathsep}{os.environ['PATH']}", "LLMC_PYTHON": sys.executable}
    return subprocess.run([*shlex.split(hook["entry"]), *args, *picked], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def test_hook_manifest() -> None:
    (hook,) = HOOKS
    assert hook["id"] == "llmc-check" and hook["language"] == "python" and hook["pass_filenames"] is True
    assert hook["entry"].split()[:2] == ["llmc", "check"]


def test_hook_passes_good_services_and_skips_other_files(tmp_path: Path) -> None:
    (tmp_path / "svc.yaml").write_text((KRM_EXAMPLE / "llama.yaml").read_text())
    (tmp_path / "values.yaml").write_text("image: {{ .Values.image }}\n")  # not YAML llmc could read: skipped
    (tmp_path / "secret.yaml").write_text(yaml.safe_dump(SECRET))
    (tmp_path / "README.md").write_text("kind: LLMInferenceService\n")  # not matched by `files`
    done = run_hook(sorted(tmp_path.iterdir()), tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "", "the rendered objects are discarded"


def hook_in_process(files: list[Path], *args: str):
    """The hook's command line run in this process (faster); the real process is tested above."""
    import shlex

    (hook,) = HOOKS
    return CliRunner().invoke(app, [*shlex.split(hook["entry"])[1:], *args, *map(str, files)])


def test_hook_fails_on_invalid_services(tmp_path: Path) -> None:
    svc = tmp_path / "svc.yaml"
    svc.write_text((KRM_EXAMPLE / "llama.yaml").read_text().replace("  replicas: 2", "  replica: 2"))
    done = hook_in_process([svc])
    assert done.exit_code == 1
    assert f'{svc}:11:3: spec.replica: unknown field "spec.replica"' in done.stderr


def test_hook_strictness_comes_from_args_and_args_reach_llmc(tmp_path: Path) -> None:
    svc = tmp_path / "svc.yaml"
    svc.write_text((KRM_EXAMPLE / "llama.yaml").read_text().replace("  replicas: 2\n", "  replicas: 2\n  parallelism:\n    pipeline: 2\n"))
    (hook,) = HOOKS
    assert "--strict" not in hook["entry"].split(), "a fixed --strict could not be configured away"
    assert hook_in_process([svc]).exit_code == 0, "LLMC101 is a warning"
    assert hook_in_process([svc], "--strict").exit_code == 1
    allowed = hook_in_process([svc], "--strict", "--allow", "LLMC101")
    assert allowed.exit_code == 0 and "LLMC101" not in allowed.stderr, allowed.stderr
    assert hook_in_process([svc], "--deny", "LLMC101").exit_code == 1
    bad_set = hook_in_process([svc], "--preset-set", "no-such-set")
    assert "unknown preset set 'no-such-set'" in bad_set.stderr


def test_check_reads_configs_given_with_f(tmp_path: Path) -> None:
    """A service whose baseRef lives in another, unchanged file: pre-commit passes only the service."""
    golden = ROOT / "golden" / "baseref-user-config" / "input.yaml"
    docs = list(yaml.safe_load_all(golden.read_text()))
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "config.yaml").write_text(yaml.safe_dump_all([d for d in docs if d["kind"] != "LLMInferenceService"]))
    (tmp_path / "svc.yaml").write_text(yaml.safe_dump_all([d for d in docs if d["kind"] == "LLMInferenceService"]))
    alone = CliRunner().invoke(app, ["check", str(tmp_path / "svc.yaml")])
    assert alone.exit_code == 1
    together = CliRunner().invoke(app, ["check", "-f", str(tmp_path / "configs"), str(tmp_path / "svc.yaml")])
    assert together.exit_code == 0, together.stderr


def test_check_reads_stdin_once(tmp_path: Path) -> None:
    """`llmc check -`: the service on stdin is checked (it was read once for the marker, then found empty)."""
    bad = (ROOT / "docs" / "examples" / "mistral-dra.yaml").read_text().replace("spec:\n", "spec:\n  replica: 2\n", 1)
    piped = CliRunner().invoke(app, ["check", "-"], input=bad)
    assert piped.exit_code == 1 and 'unknown field "spec.replica"' in piped.stderr
    (tmp_path / "svc.yaml").write_text(bad)
    assert CliRunner().invoke(app, ["check", str(tmp_path / "svc.yaml")]).exit_code == 1
    good = CliRunner().invoke(app, ["check", "-"], input=(ROOT / "docs" / "examples" / "mistral-dra.yaml").read_text())
    assert good.exit_code == 0, good.stderr


def test_a_misspelt_option_names_where_it_is_and_the_right_key() -> None:
    config = dict(LLMRENDER, presetsett="kserve-master")
    del config["presetSet"]
    result, out = krm(resource_list([], config))
    assert result.exit_code == 1
    assert "error: <stdin> functionConfig: presetsett: unknown llmc option 'presetsett'" in result.stderr
    assert "did you mean presetSet?" in result.stderr
    assert out["results"][0]["severity"] == "error"
