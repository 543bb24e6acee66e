"""GitOps entry points never read outside the allowed folders (issue 16, security).

Every repro runs `python -m llmc` in a subprocess under a 2 GB address-space
limit; a "secret" file outside the application folder carries a marker that
must never appear on stdout or stderr, whatever path the hostile input names.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

ROOT = Path(__file__).resolve().parent.parent
SERVICE = (ROOT / "docs" / "kustomize" / "generator" / "llama.yaml").read_text()
MARKER = "DB_PASSWORD=hunter2-outside"
SECRET_YAML = f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: leak\ndata:\n  x: {MARKER}\n"


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2_000_000_000, 2_000_000_000))


def run(args: list[str], cwd: Path, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("ARGOCD_ENV_", "LLMC_ALLOWED"))}
    full.update(env)
    return subprocess.run([sys.executable, "-m", "llmc", *args], cwd=cwd, input=stdin, env=full, capture_output=True,
                          text=True, timeout=120, preexec_fn=_limits)


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Path]:
    """app/ (the allowed folder, with a service) beside outside/ (a secret that must stay unread)."""
    app, outside = tmp_path / "app", tmp_path / "outside"
    app.mkdir()
    outside.mkdir()
    (app / "llama.yaml").write_text(SERVICE)
    (outside / "secret.yaml").write_text(SECRET_YAML)
    (outside / "secret.env").write_text(MARKER + "\n")
    return {"app": app, "outside": outside}


def assert_refused(done: subprocess.CompletedProcess[str], stdout_allowed: bool = False) -> None:
    assert done.returncode in (1, 2), done.stderr
    assert "Traceback" not in done.stderr
    assert MARKER not in done.stdout and MARKER not in done.stderr
    if not stdout_allowed:
        assert done.stdout == ""


def krm_input(config: dict) -> str:
    fn = {"apiVersion": "llmc.dev/v1alpha1", "kind": "LLMRender", "metadata": {"name": "r"}, **config}
    return json.dumps({"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": [], "functionConfig": fn})


def plugin_config(folder: Path, config: dict) -> str:
    path = folder / "llmrender.yaml"
    fn = {"apiVersion": "llmc.dev/v1alpha1", "kind": "LLMRender", "metadata": {"name": "r"}, **config}
    path.write_text(json.dumps(fn))
    return str(path)


# every GitOps entry point, given one hostile option: (config key, value) -> completed run
def argocd(world, key: str, value):
    env_name = {"presetSet": "PRESET_SET", "presets": "PRESETS", "files": "FILES", "kserveConfig": "KSERVE_CONFIG"}[key]
    text = value if isinstance(value, str) else ",".join(value)
    return run(["argocd-generate"], world["app"], **{f"ARGOCD_ENV_LLMC_{env_name}": text})


def krm_fn(world, key: str, value):
    return run(["krm"], world["app"], stdin=krm_input({key: value}))


def kustomize_plugin(world, key: str, value):
    return run(["kustomize-plugin", plugin_config(world["app"], {key: value})], world["app"])


ENTRY_POINTS = [argocd, krm_fn, kustomize_plugin]


def hostile_values(outside: Path) -> list[tuple[str, object]]:
    rel = os.path.relpath(outside, outside.parent / "app")
    return [
        ("presetSet", str(outside)), ("presetSet", "../../.."), ("presetSet", "/"), ("presetSet", "runtimes"),
        ("presets", [str(outside)]), ("presets", [rel]), ("files", [str(outside / "secret.yaml")]),
        ("files", [f"{rel}/secret.yaml"]), ("kserveConfig", str(outside / "secret.env")),
        ("kserveConfig", f"{rel}/secret.yaml"),
    ]


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.__name__)
def test_hostile_paths_are_refused_and_never_echoed(world, entry) -> None:
    for key, value in hostile_values(world["outside"]):
        done = entry(world, key, value)
        assert_refused(done, stdout_allowed=entry is krm_fn)  # krm answers with a ResourceList of results
        if entry is krm_fn:
            assert "severity: error" in done.stdout


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.__name__)
def test_a_symlink_out_of_a_presets_folder_is_refused(world, entry) -> None:
    presets = world["app"] / "presets"
    presets.mkdir()
    (presets / "leak.yaml").symlink_to(world["outside"] / "secret.yaml")
    done = entry(world, "presets", ["presets"])
    assert_refused(done, stdout_allowed=entry is krm_fn)
    assert "outside the allowed folders" in done.stderr


def test_the_cli_preset_set_is_a_name_not_a_path(world) -> None:
    for name in (str(world["outside"]), "../../..", "/", "runtimes", "kserve-master/../../.."):
        done = run(["render", "-f", "llama.yaml", "--preset-set", name], world["app"])
        assert done.returncode == 2 and done.stdout == "" and "unknown preset set" in done.stderr
        assert MARKER not in done.stderr


def test_allowed_roots_admit_a_shared_presets_folder(world, tmp_path: Path) -> None:
    """A multi-source application: presets checked out beside the app, named in LLMC_ALLOWED_ROOTS."""
    shared = tmp_path / "shared-presets"
    shared.mkdir()
    builtin = ROOT / "llmc" / "data" / "presets" / "kserve-master"
    for f in sorted(builtin.glob("*.yaml")):
        (shared / f.name).write_text(f.read_text())
    refused = run(["argocd-generate"], world["app"], ARGOCD_ENV_LLMC_PRESETS=str(shared))
    assert refused.returncode == 2 and "outside the allowed folders" in refused.stderr
    allowed = run(["argocd-generate"], world["app"], ARGOCD_ENV_LLMC_PRESETS=str(shared), LLMC_ALLOWED_ROOTS=str(shared))
    assert allowed.returncode == 0, allowed.stderr
    assert "kind: Deployment" in allowed.stdout
    krm_done = run(["krm"], world["app"], stdin=krm_input({"files": ["llama.yaml"], "presets": [str(shared)]}),
                   LLMC_ALLOWED_ROOTS=str(shared))
    assert krm_done.returncode == 0, krm_done.stderr


PATH_PARTS = st.sampled_from(["..", ".", "outside", "secret.yaml", "secret.env", "app", "", "/", "//", "\\", "%2e%2e"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(PATH_PARTS, min_size=1, max_size=6), absolute=st.booleans(),
       key=st.sampled_from(["presetSet", "presets", "files", "kserveConfig"]),
       entry=st.sampled_from(ENTRY_POINTS))
def test_no_hostile_path_leaks_a_byte_of_an_outside_file(world, parts, absolute, key, entry) -> None:
    path = "/".join(parts)
    if absolute:
        path = str(world["outside"].parent) + "/" + path
    value = path if key in ("presetSet", "kserveConfig") else [path]
    done = entry(world, key, value)
    assert "Traceback" not in done.stderr
    assert MARKER not in done.stdout and MARKER not in done.stderr
