"""The kustomize exec generator plugin (docs/kustomize/), run by the real `kubectl kustomize`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from llmc.gitops.diff import diff_sets
from llmc.gitops.krm import RenderConfig, parse_config
from llmc.core.errors import LlmcError
from llmc.load.documents import load_text

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "kustomize"
LAUNCHER = Path(__file__).resolve().parent / "data" / "gitops" / "bin"
SHIM = DOCS / "plugin" / "llmc.dev" / "v1alpha1" / "llmrender" / "LLMRender"

needs_kubectl = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")


def llmc_env(**extra: str) -> dict[str, str]:
    """PATH with the test launcher first, so the documented shims find this checkout's llmc."""
    env = dict(os.environ)
    env["PATH"] = f"{LAUNCHER}{os.pathsep}{env.get('PATH', '')}"
    env["LLMC_PYTHON"] = sys.executable
    env.update(extra)
    return env


@pytest.fixture
def xdg(tmp_path: Path) -> Path:
    """An XDG_CONFIG_HOME holding the documented shim where kustomize looks for the plugin."""
    home = tmp_path / "xdg"
    target = home / "kustomize" / "plugin" / "llmc.dev" / "v1alpha1" / "llmrender" / "LLMRender"
    target.parent.mkdir(parents=True)
    shutil.copy2(SHIM, target)
    return home


def kustomize(folder: Path, xdg: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["kubectl", "kustomize", "--enable-alpha-plugins", str(folder)],
        env=llmc_env(XDG_CONFIG_HOME=str(xdg)), capture_output=True, text=True, timeout=60,
    )


def llmc(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["llmc", *args], env=llmc_env(), capture_output=True, text=True, cwd=cwd, timeout=60)


def objects(text: str) -> list[dict]:
    return [d for d in yaml.safe_load_all(text) if d]


def test_the_shim_is_executable() -> None:
    assert os.access(SHIM, os.X_OK)
    assert os.access(DOCS / "krm" / "llmc-krm", os.X_OK)


@needs_kubectl
def test_generator_output_is_llmc_render_plus_the_other_resources(xdg: Path) -> None:
    built = kustomize(DOCS / "generator", xdg)
    assert built.returncode == 0, built.stderr
    got = objects(built.stdout)
    rendered = llmc("render", "-f", "llama.yaml", "-n", "team-a", "--preset-set", "kserve-master", cwd=DOCS / "generator")
    assert rendered.returncode == 0, rendered.stderr
    secret = yaml.safe_load((DOCS / "generator" / "hf-token.yaml").read_text())
    report = diff_sets(objects(rendered.stdout) + [secret], got)
    assert report.same, report.as_dict()
    assert {o["kind"] for o in got} >= {"Deployment", "Service", "HTTPRoute", "InferencePool", "Secret"}


@needs_kubectl
def test_a_broken_service_fails_the_build_with_llmcs_error(xdg: Path, tmp_path: Path) -> None:
    folder = tmp_path / "overlay"
    shutil.copytree(DOCS / "generator", folder)
    svc = folder / "llama.yaml"
    svc.write_text(svc.read_text().replace("  replicas: 2", "  replica: 2"))
    built = kustomize(folder, xdg)
    assert built.returncode != 0
    assert built.stdout == ""
    assert 'llama.yaml:10:3: spec.replica: unknown field "spec.replica"' in built.stderr


@needs_kubectl
def test_strict_fails_on_warnings(xdg: Path, tmp_path: Path) -> None:
    folder = tmp_path / "overlay"
    shutil.copytree(DOCS / "generator", folder)
    svc = folder / "llama.yaml"
    # pipeline parallelism reaches no container with the single-node presets: LLMC101
    svc.write_text(svc.read_text().replace("  replicas: 2\n", "  replicas: 2\n  parallelism:\n    pipeline: 2\n"))
    built = kustomize(folder, xdg)
    assert built.returncode != 0
    assert "LLMC10" in built.stderr


def test_plugin_command_directly(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text((DOCS / "generator" / "llmrender.yaml").read_text())
    result = llmc("kustomize-plugin", str(config), cwd=DOCS / "generator")
    assert result.returncode == 0, result.stderr
    assert {o["metadata"]["namespace"] for o in objects(result.stdout) if o["kind"] != "ClusterRoleBinding"} == {"team-a"}
    assert "LLMC302" in result.stderr  # findings go to stderr, never into the manifests


def test_plugin_rejects_unknown_options(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("apiVersion: llmc.dev/v1alpha1\nkind: LLMRender\nmetadata:\n  name: x\nfile: [a.yaml]\n")
    result = llmc("kustomize-plugin", str(config))
    assert result.returncode == 1 and result.stdout == ""
    assert "unknown llmc option 'file'" in result.stderr


# --------------------------------------------------------------------------- the config object


def test_llmrender_fields() -> None:
    (doc,) = load_text(
        "apiVersion: llmc.dev/v1alpha1\nkind: LLMRender\nmetadata: {name: r}\n"
        "files: [a.yaml, b/]\npresets: p/\npresetSet: kserve-v0.20\nkserveConfig: kc.yaml\nnamespace: ns\n"
        "systemNamespace: ks\nstrict: true\napiVersions: [apps/v1]\nkubeVersion: 1.33.0\n"
        "draApi: resource.k8s.io/v1beta2\nownerReferences: true\nkserveVersion: v0.20\n"
    )
    assert parse_config(doc.obj, doc) == RenderConfig(
        files=("a.yaml", "b/"), presets=("p/",), preset_set="kserve-v0.20", kserve_config="kc.yaml", namespace="ns",
        system_namespace="ks", strict=True, api_versions=("apps/v1",), kube_version="1.33.0",
        dra_api="resource.k8s.io/v1beta2", owner_references=True, kserve_version="v0.20",
    )


def test_configmap_form_uses_strings() -> None:
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
          "data": {"files": "a.yaml, b.yaml\nc.yaml", "strict": "True", "presetSet": "", "namespace": "ns"}}
    assert parse_config(cm) == RenderConfig(files=("a.yaml", "b.yaml", "c.yaml"), strict=True, namespace="ns")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("strict: yes-please", "strict must be a boolean"),
        ("files: {a: b}", "files must be a list of strings"),
        ("namespace: [a]", "namespace must be a string"),
    ],
)
def test_llmrender_type_errors_are_located(text: str, message: str) -> None:
    (doc,) = load_text(f"apiVersion: llmc.dev/v1alpha1\nkind: LLMRender\nmetadata: {{name: r}}\n{text}\n", "gen.yaml")
    with pytest.raises(LlmcError, match=message) as err:
        parse_config(doc.obj, doc)
    assert (err.value.location.file, err.value.location.line) == ("gen.yaml", 4)


def test_other_kinds_are_not_configs() -> None:
    with pytest.raises(LlmcError, match="LLMRender or a v1 ConfigMap"):
        parse_config({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}})
