"""Folders as GitOps repositories hold them: kustomize/helm files and dot-files are skipped (and listed with -v);
other Kubernetes objects pass through alike in render, argocd-generate, krm and the kustomize plugin; files that
are no Kubernetes objects fail at their file and line; all files' errors are printed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from llmc.read.appfolder import skip_reason, walk
from llmc.core.errors import ErrorList
from llmc.cli.app import app as llmc_app
from llmc.read.inputs import read_documents
from llmc.k8s.install_order import sort_objects

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
    assert walk(str(app), skipped) == [str(app / "svc.yaml")]
    # a hidden folder is reported once and not walked (a .git/ can hold thousands of files)
    hidden_folder = lambda n: next((f"{'/'.join(n.split('/')[:i])}" for i, part in enumerate(n.split("/"), 1)  # noqa: E731
                                    if part.startswith(".") and i < len(n.split("/"))), n)
    assert {Path(p).relative_to(app).as_posix() for p, _ in skipped} == {hidden_folder(n) for n in NOISE}


@pytest.mark.parametrize("name", ["values.yaml", "values-x.yml", "kustomization.yaml", "Chart.yaml", ".x.yaml", "a/.b/c.yaml"])
def test_skip_reason_names_the_rule(name):
    assert skip_reason(name)


@pytest.mark.parametrize("name", ["svc.yaml", "values/svc.yaml", "my-values.yaml", "chart.yaml.json"])
def test_ordinary_manifests_are_read(name):
    assert skip_reason(name) is None


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


# An app repository as platform teams keep them (KServe's samples/e2e-gpt-oss is one): the service with
# what it needs and what goes with it, an unrelated Gateway (the service routes through KServe's default
# one), a CRD object llmc knows nothing of, a KServe kind llmc does not read.
ROUTED = """apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceService
metadata: {name: gpt, namespace: ns}
spec:
  model: {uri: "hf://org/model", name: org/model}
  router: {gateway: {}, route: {}, scheduler: {}}
"""
OTHERS = [
    {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "download", "namespace": "ns"},
     "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}}}},
    {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "hf-token", "namespace": "ns"}, "stringData": {"t": "x"}},
    {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "models", "namespace": "ns"},
     "spec": {"accessModes": ["ReadWriteMany"], "resources": {"requests": {"storage": "10Gi"}}}},
    {"apiVersion": "sriovnetwork.openshift.io/v1", "kind": "SriovNetwork", "metadata": {"name": "rdma", "namespace": "sriov"},
     "spec": {"resourceName": "mlnx", "networkNamespace": "ns"}},
    {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "ai-gateway", "namespace": "ns"},
     "spec": {"gatewayClassName": "envoy", "listeners": [{"name": "http", "port": 80, "protocol": "HTTP"}]}},
    {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "extra", "namespace": "ns"}, "data": {"a": "b"}},
    {"apiVersion": "serving.kserve.io/v1alpha1", "kind": "InferenceGraph", "metadata": {"name": "g", "namespace": "ns"},
     "spec": {"nodes": {}}},
]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "inference.yaml").write_text(ROUTED)
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "download.yaml").write_text(yaml.safe_dump(OTHERS[0]))
    (tmp_path / "storage.yaml").write_text(yaml.safe_dump_all(OTHERS[1:3]))
    (tmp_path / "network.json").write_text(__import__("json").dumps(OTHERS[3]))
    (tmp_path / "gateway.yaml").write_text(yaml.safe_dump_all(OTHERS[3 + 1:]))
    for name, text in NOISE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def _objects(text: str) -> list[dict]:
    return [o for o in yaml.safe_load_all(text) if o]


def test_render_passes_other_objects_through_first_in_kind_order(repo):
    done = _llmc("render", "-f", ".", cwd=repo)
    assert done.returncode == 0, done.stderr
    objects = _objects(done.stdout)
    assert objects[:len(OTHERS)] == sort_objects(OTHERS), "unchanged, in kind order, before the rendered objects"
    rendered = objects[len(OTHERS):]
    assert {"Deployment", "HTTPRoute", "InferencePool"} <= {o["kind"] for o in rendered}
    assert not any(o["kind"] in ("LLMInferenceService", "Kustomization") for o in objects)


def test_argocd_krm_and_the_kustomize_plugin_write_what_render_writes(repo, monkeypatch):
    rendered = _llmc("render", "-f", ".", "-q", cwd=repo)
    argocd = _llmc("argocd-generate", cwd=repo)
    assert argocd.returncode == 0, argocd.stderr
    assert argocd.stdout == rendered.stdout
    assert f"{len(OTHERS)} other object(s) passed through" in argocd.stderr
    items = [yaml.safe_load(ROUTED), *OTHERS]
    resource_list = {"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": items}
    krm = CliRunner().invoke(llmc_app, ["krm"], input=yaml.safe_dump(resource_list))
    assert krm.exit_code == 0, krm.stderr
    assert yaml.safe_load(krm.stdout)["items"] == _objects(rendered.stdout)
    monkeypatch.chdir(repo)
    (repo / "llmrender.yaml").write_text(yaml.safe_dump({"apiVersion": "llmc.dev/v1alpha1", "kind": "LLMRender",
                                                         "files": ["."]}))
    plugin = CliRunner().invoke(llmc_app, ["kustomize-plugin", "llmrender.yaml"])
    assert plugin.exit_code == 0, plugin.stderr
    assert plugin.stdout == rendered.stdout, "the plugin's own LLMRender (read with files: [.]) is dropped"


def test_verbose_says_what_was_skipped_and_why(repo):
    quiet = _llmc("render", "-f", ".", "-q", cwd=repo)
    assert quiet.returncode == 0 and "skipped" not in quiet.stderr
    verbose = _llmc("render", "-f", ".", "-q", "-v", cwd=repo)
    assert verbose.stdout == quiet.stdout
    lines = [line for line in verbose.stderr.splitlines() if line.startswith("llmc: skipped ")]
    assert "llmc: skipped kustomization.yaml: kustomize or helm file" in lines
    assert "llmc: skipped chart/values-prod.yaml: kustomize or helm file" in lines
    assert "llmc: skipped .git: hidden file or folder" in lines
    assert len(lines) == len(NOISE), lines  # a hidden folder once (.git, not .git/config.yaml)


def test_a_json_file_that_is_no_kubernetes_object_fails_at_its_line_with_the_others(repo):
    (repo / "package.json").write_text('{\n  "name": "my-app"\n}\n')
    (repo / "notes.yaml").write_text("- a list\n")
    for args in (("render", "-f", "."), ("argocd-generate",)):
        done = _llmc(*args, cwd=repo)
        assert done.returncode == 1 and done.stdout == "", args
        assert "error: package.json:1:1: apiVersion not set" in done.stderr, done.stderr
        assert "error: notes.yaml:1:1:" in done.stderr, "every bad file of the batch"


def test_a_misspelt_or_misversioned_service_is_refused_not_passed_through(repo):
    (repo / "typo.yaml").write_text(ROUTED.replace("kind: LLMInferenceService", "kind: LLMInferenceServices")
                                    .replace("name: gpt", "name: typo"))
    (repo / "version.yaml").write_text(ROUTED.replace("v1alpha2", "v1beta1").replace("name: gpt", "name: old"))
    done = _llmc("render", "-f", ".", cwd=repo)
    assert done.returncode == 1 and done.stdout == ""
    assert "typo.yaml:2:7: kind: llmc does not read LLMInferenceServices" in done.stderr, done.stderr
    assert "version.yaml:1:13: apiVersion: llmc does not read LLMInferenceService objects of apiVersion " \
           "serving.kserve.io/v1beta1" in done.stderr


def test_an_object_given_twice_or_also_rendered_is_refused(repo):
    """A kept llmc output next to the services would apply every object twice (Argo CD refuses that)."""
    rendered = _llmc("render", "-f", ".", "-q", cwd=repo)
    (repo / "rendered.yaml").write_text(rendered.stdout)
    done = _llmc("render", "-f", ".", cwd=repo)
    assert done.returncode == 1 and done.stdout == ""
    assert "error: storage.yaml:" in done.stderr and "Secret ns/hf-token is defined twice: at rendered.yaml:" in done.stderr
    assert "Deployment.apps ns/gpt-kserve is rendered by ns/gpt and also given at rendered.yaml:" in done.stderr
    (repo / "rendered.yaml").unlink()
    twice = _llmc("render", "-f", ".", "-f", "storage.yaml", cwd=repo)
    assert twice.returncode == 1 and "(the same file is read twice)" in twice.stderr, twice.stderr


# --------------------------------------------------------------------------- the same paths as pathlib wrote them
#
# llmc.read.appfolder and llmc.read.inputs use os.path (pathlib's import is about 4 ms of a cold render). Names
# and order reach error messages, `-v`'s skipped list and the order documents are read in, so they must stay
# what the pathlib code gave. `_pathlib_walk` is that code, kept here as the reference.

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from llmc.read.appfolder import NOT_MANIFESTS, SUFFIXES, normal, sort_key, suffix  # noqa: E402
from llmc.read.inputs import expand  # noqa: E402


def _pathlib_skip_reason(relative: Path) -> str | None:
    import fnmatch

    if any(part.startswith(".") for part in relative.parts):
        return "hidden file or folder"
    if any(fnmatch.fnmatchcase(relative.name, pattern) for pattern in NOT_MANIFESTS):
        return "kustomize or helm file"
    if relative.suffix not in SUFFIXES:
        return "not .yaml, .yml or .json"
    return None


def _pathlib_walk(folder: Path, skipped: list[tuple[str, str]]) -> list[str]:
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        here = Path(dirpath)
        for name in [d for d in dirnames if d.startswith(".")]:
            dirnames.remove(name)
            skipped.append((str(here / name), "hidden file or folder"))
        for name in filenames:
            path = here / name
            if not path.is_file():
                continue
            reason = _pathlib_skip_reason(path.relative_to(folder))
            if reason is None:
                found.append(path)
            elif path.suffix in SUFFIXES or path.name == "Kustomization":
                skipped.append((str(path), reason))
    skipped.sort()
    return [str(p) for p in sorted(found)]


PART = st.text(alphabet="ab-._ Z", min_size=1, max_size=6).filter(lambda p: p not in (".", ".."))
NAME = st.sampled_from(["a.yaml", "a-b.yaml", "a", "b.yml", "x.json", ".h.yaml", "values-1.yaml", "Kustomization",
                        "k.yaml.", "a..yaml", "kustomization.yml", "Chart.yaml", "z.txt", "A.yaml", "a.b.json"])
TREE = st.lists(st.tuples(st.lists(st.sampled_from(["a", "a-b", "a.b", ".git", "b", "A", "a b"]), max_size=3), NAME),
                max_size=12)


@given(st.text(alphabet="/.ab", max_size=10), st.text(alphabet=".ab", max_size=6))
def test_normal_and_suffix_are_pathlibs(raw, name):
    assert normal(raw) == str(Path(raw))
    assert suffix(name) == Path(name).suffix


@given(st.lists(st.lists(PART, min_size=1, max_size=4), min_size=2, max_size=8))
def test_sort_key_orders_as_pathlib(paths):
    names = ["/".join(parts) for parts in paths]
    assert sorted(names, key=sort_key) == [str(p) for p in sorted(map(Path, names))]


@settings(max_examples=60, deadline=None)
@given(TREE, st.sampled_from(["{}", "{}/", "{}//", "{}/.", "./{}", "{}/./", ".", "./"]))
def test_walk_and_expand_give_pathlibs_names_and_order(tmp_path_factory, tree, spelling):
    root = tmp_path_factory.mktemp("tree")
    for folders, name in tree:
        target = root.joinpath(*folders, name)
        if target.exists() or any(p.is_file() for p in target.parents if p != root):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("x: 1\n")
    folder = spelling.format(root.name)
    ours, theirs = [], []
    cwd = os.getcwd()
    os.chdir(root if folder in (".", "./") else root.parent)
    try:
        assert walk(folder, ours) == _pathlib_walk(Path(folder), theirs)
        assert ours == theirs
        assert expand([folder]) == _pathlib_walk(Path(folder), [])
    finally:
        os.chdir(cwd)
