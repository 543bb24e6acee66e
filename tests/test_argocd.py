"""The Argo CD Config Management Plugin (docs/argocd/): discover and generate run as Argo CD runs them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from llmc.gitops.diff import diff_sets
from llmc.cli.gitops import argocd_config
from llmc.gitops.krm import RenderConfig

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "argocd"
LAUNCHER = Path(__file__).resolve().parent / "data" / "gitops" / "bin"
PLUGIN = yaml.safe_load((DOCS / "plugin.yaml").read_text())
APPLICATION = yaml.safe_load((DOCS / "application.yaml").read_text())
SERVICE = (ROOT / "docs" / "kustomize" / "generator" / "llama.yaml").read_text()  # no namespace of its own
KSERVE_CONFIG = (ROOT / "golden" / "tls-on" / "kserve-config.yaml").read_text()
SECRET = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: hf-token\nstringData:\n  token: x\n"
ALL_APIS = (
    "v1,apps/v1,rbac.authorization.k8s.io/v1,apps/v1/Deployment,gateway.networking.k8s.io/v1,"
    "inference.networking.k8s.io/v1,leaderworkerset.x-k8s.io/v1,resource.k8s.io/v1,cert-manager.io/v1"
)  # a cluster KServe is installed on: it has cert-manager


@pytest.fixture
def app_dir(tmp_path: Path) -> Path:
    return make_app_dir(tmp_path)


def make_app_dir(tmp_path: Path) -> Path:
    """An application folder as the repo server checks it out: a service, a Secret, the cluster's KServe config."""
    folder = tmp_path / "repo" / "llama"
    (folder / "cluster").mkdir(parents=True)
    (folder / "llama.yaml").write_text(SERVICE)
    (folder / "secret.yaml").write_text(SECRET)
    (folder / "cluster" / "inferenceservice-config.yaml").write_text(KSERVE_CONFIG)
    (folder / ".github").mkdir()
    (folder / ".github" / "ci.yaml").write_text("on: push\njobs: {}\n")  # no manifest: must be skipped
    return folder


def argo_env(**extra: str) -> dict[str, str]:
    """The environment of a plugin command: Argo CD's build variables plus the Application's plugin.env."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARGOCD_", "KUBE_"))}
    env["PATH"] = f"{LAUNCHER}{os.pathsep}{env.get('PATH', '')}"
    env["LLMC_PYTHON"] = sys.executable
    env.update(
        ARGOCD_APP_NAME="llama",
        ARGOCD_APP_NAMESPACE=APPLICATION["spec"]["destination"]["namespace"],
        ARGOCD_APP_SOURCE_PATH="llama",
        KUBE_VERSION="1.33.2",
        KUBE_API_VERSIONS=ALL_APIS,
    )
    for entry in APPLICATION["spec"]["source"]["plugin"]["env"]:
        env[f"ARGOCD_ENV_{entry['name']}"] = entry["value"]
    env.update(extra)
    return env


def run(command: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def generate(cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return run(PLUGIN["spec"]["generate"]["command"], cwd, argo_env(**env))


def manifests(text: str) -> list[dict]:
    docs = list(yaml.safe_load_all(text))
    assert docs and all(isinstance(d, dict) for d in docs), "stdout must be only Kubernetes objects"
    for doc in docs:
        assert doc["apiVersion"] and doc["kind"] and doc["metadata"]["name"]
    return docs


def test_plugin_file_shape() -> None:
    assert PLUGIN["apiVersion"] == "argoproj.io/v1alpha1" and PLUGIN["kind"] == "ConfigManagementPlugin"
    assert APPLICATION["spec"]["source"]["plugin"]["name"] == PLUGIN["metadata"]["name"]
    assert "init" not in PLUGIN["spec"], "nothing to prepare: llmc needs no network and no init step"


def test_discover_finds_services_and_nothing_else(app_dir: Path, tmp_path: Path) -> None:
    command = PLUGIN["spec"]["discover"]["find"]["command"]
    found = run(command, app_dir, argo_env())
    assert found.returncode == 0 and found.stdout.strip() == "./llama.yaml"
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "secret.yaml").write_text(SECRET)
    (plain / "notes.yaml").write_text("text: kind: LLMInferenceService is mentioned here\n")
    assert run(command, plain, argo_env()).stdout == ""
    (plain / "svc.json").write_text('{"apiVersion": "serving.kserve.io/v1alpha2", "kind": "LLMInferenceService"}')
    assert run(command, plain, argo_env()).stdout.strip() == "./svc.json"


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """One generate run of the unchanged application, shared by the tests that only read it."""
    folder = make_app_dir(tmp_path_factory.mktemp("shared"))
    return folder, generate(folder)


def test_generate_writes_manifests_on_stdout_and_logs_on_stderr(generated) -> None:
    _, done = generated
    assert done.returncode == 0, done.stderr
    objects = manifests(done.stdout)
    secret = next(o for o in objects if o["kind"] == "Secret")
    assert secret["metadata"] == {"name": "hf-token"}, "other objects pass through untouched"
    assert not any(o["kind"] in ("LLMInferenceService", "ConfigMap") for o in objects), (
        "the service is rendered away; the KServe config file is read, not deployed"
    )
    namespaces = {o["metadata"].get("namespace") for o in objects if o["kind"] not in ("Secret", "ClusterRoleBinding")}
    assert namespaces == {"team-a"}, "ARGOCD_APP_NAMESPACE is the default namespace"
    assert "llmc: rendered 1 service(s) from 2 file(s)" in done.stderr
    assert "LLMC302" in done.stderr, "the Certificate that stands in for the controller's TLS Secret"
    assert {"Certificate", "Issuer"} <= {o["kind"] for o in objects}


def test_generate_equals_llmc_render_with_the_same_options(generated) -> None:
    app_dir, done = generated
    rendered = run(
        ["llmc", "render", "-f", "llama.yaml", "-n", "team-a", "--preset-set", "kserve-v0.20",
         "--kserve-config", "cluster/inferenceservice-config.yaml", "--kube-version", "1.33.2",
         *[arg for api in ALL_APIS.split(",") for arg in ("--api-versions", api)]],
        app_dir, argo_env(),
    )
    assert rendered.returncode == 0, rendered.stderr
    secret = yaml.safe_load(SECRET)
    report = diff_sets(manifests(rendered.stdout) + [secret], manifests(done.stdout), default_namespace="team-a")
    assert report.same, report.as_dict()
    # TLS from the KServe config reached the render
    assert "https" in done.stdout


def test_kube_api_versions_become_the_capabilities(app_dir: Path) -> None:
    done = generate(app_dir, KUBE_API_VERSIONS="v1,apps/v1,rbac.authorization.k8s.io/v1")
    assert done.returncode == 1, "LLMC201 is a warning and the Application asks for strict"
    assert done.stdout == ""
    assert "LLMC201" in done.stderr
    relaxed = generate(app_dir, KUBE_API_VERSIONS="v1,apps/v1,rbac.authorization.k8s.io/v1", ARGOCD_ENV_LLMC_STRICT="false")
    assert relaxed.returncode == 0, relaxed.stderr
    assert not any(o["kind"] in ("HTTPRoute", "InferencePool") for o in manifests(relaxed.stdout))


def test_paths_outside_the_application_are_refused(app_dir: Path) -> None:
    done = generate(app_dir, ARGOCD_ENV_LLMC_KSERVE_CONFIG="../../../etc/passwd")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "outside the allowed folders" in done.stderr


def test_symlinks_out_of_the_application_are_refused(app_dir: Path, tmp_path: Path) -> None:
    secret = tmp_path / "sidecar-secret.yaml"
    secret.write_text(SECRET)
    (app_dir / "linked.yaml").symlink_to(secret)
    done = generate(app_dir)
    assert done.returncode == 2 and done.stdout == ""
    assert "linked.yaml is outside the application folder" in done.stderr


def test_input_errors_fail_the_sync_with_nothing_on_stdout(app_dir: Path) -> None:
    svc = app_dir / "llama.yaml"
    svc.write_text(svc.read_text().replace("  replicas: 2", "  replicas: two"))
    done = generate(app_dir)
    assert done.returncode == 1
    assert done.stdout == ""
    assert "llama.yaml:" in done.stderr and "spec.replicas" in done.stderr


def test_environment_mapping() -> None:
    env = {
        "ARGOCD_APP_NAMESPACE": "dest",
        "KUBE_VERSION": "1.31.0",
        "KUBE_API_VERSIONS": "v1, apps/v1",
        "ARGOCD_ENV_LLMC_FILES": "svc/,more.yaml",
        "ARGOCD_ENV_LLMC_DRA_API": "resource.k8s.io/v1beta1",
        "ARGOCD_ENV_LLMC_OWNER_REFERENCES": "true",
    }
    assert argocd_config(env) == RenderConfig(
        files=("svc/", "more.yaml"), namespace="dest", kube_version="1.31.0", api_versions=("v1", "apps/v1"),
        dra_api="resource.k8s.io/v1beta1", owner_references=True, complete_api_versions=True,
    )
    chosen = argocd_config({**env, "ARGOCD_ENV_LLMC_API_VERSIONS": "monitoring.coreos.com/v1"})
    assert not chosen.complete_api_versions, "the user's own list adds to the defaults, as on the command line"
    overridden = argocd_config({**env, "ARGOCD_ENV_LLMC_NAMESPACE": "mine", "ARGOCD_ENV_LLMC_KUBE_VERSION": "1.35.0"})
    assert (overridden.namespace, overridden.kube_version) == ("mine", "1.35.0")
    assert argocd_config({}) == RenderConfig()


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
def test_sidecar_install_builds(tmp_path: Path) -> None:
    """docs/argocd/kustomization.yaml with a stand-in for Argo CD's install.yaml (no network in tests)."""
    folder = tmp_path / "argocd"
    shutil.copytree(DOCS, folder)
    (folder / "install.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: argocd-repo-server\nspec:\n  template:\n"
        "    spec:\n      containers:\n        - name: argocd-repo-server\n          image: argocd\n"
        "      volumes:\n        - name: var-files\n          emptyDir: {}\n        - name: plugins\n          emptyDir: {}\n"
    )
    kustomization = folder / "kustomization.yaml"
    text = kustomization.read_text()
    remote = next(line for line in text.splitlines() if "://" in line)
    kustomization.write_text(text.replace(remote, "  - install.yaml"))
    built = subprocess.run(["kubectl", "kustomize", str(folder)], capture_output=True, text=True, timeout=60)
    assert built.returncode == 0, built.stderr
    objects = {(o["kind"], o["metadata"]["name"]): o for o in yaml.safe_load_all(built.stdout)}
    config = objects[("ConfigMap", "llmc-cmp-plugin")]
    assert yaml.safe_load(config["data"]["plugin.yaml"]) == PLUGIN
    pod = objects[("Deployment", "argocd-repo-server")]["spec"]["template"]["spec"]
    sidecar = next(c for c in pod["containers"] if c["name"] == "llmc")
    mounts = {m["mountPath"]: m for m in sidecar["volumeMounts"]}
    assert mounts["/home/argocd/cmp-server/config/plugin.yaml"]["subPath"] == "plugin.yaml"
    assert {"/var/run/argocd", "/home/argocd/cmp-server/plugins", "/tmp"} <= set(mounts)
    assert sidecar["securityContext"]["runAsUser"] == 999
    assert {v["name"] for v in pod["volumes"]} >= {"var-files", "plugins", "llmc-cmp-plugin", "llmc-tmp"}


@pytest.mark.parametrize("line", ["kind: 'LLMInferenceService'", 'kind: "LLMInferenceService"', "kind: LLMInferenceService # the service",
                                  "- kind: LLMInferenceService"])
def test_discover_reads_quoted_and_commented_kinds(tmp_path: Path, line: str) -> None:
    (tmp_path / "svc.yaml").write_text(f"apiVersion: serving.kserve.io/v1alpha2\n{line}\n")
    assert run(PLUGIN["spec"]["discover"]["find"]["command"], tmp_path, argo_env()).stdout.strip() == "./svc.yaml"


@pytest.mark.parametrize("marker", ["kustomization.yaml", "kustomization.yml", "Kustomization", "Chart.yaml", "templates/svc.yaml"])
def test_discover_leaves_kustomize_apps_and_helm_charts_alone(tmp_path: Path, marker: str) -> None:
    (tmp_path / "svc.yaml").write_text("apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceService\n")
    (tmp_path / marker).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / marker).write_text("kind: LLMInferenceService\n")
    assert run(PLUGIN["spec"]["discover"]["find"]["command"], tmp_path, argo_env()).stdout == ""


def test_a_misspelt_plugin_env_key_is_an_error_with_a_did_you_mean(app_dir: Path) -> None:
    from llmc.core.errors import ErrorList

    with pytest.raises(ErrorList) as info:
        argocd_config({"ARGOCD_ENV_LLMC_PRESETSET": "kserve-master", "ARGOCD_ENV_LLMC_NAMESPACE": "x"})
    (err,) = info.value.errors
    assert "ARGOCD_ENV_LLMC_PRESETSET" in err.message and err.hint == "did you mean LLMC_PRESET_SET?"
    result = generate(app_dir, ARGOCD_ENV_LLMC_KUBE_VERSON="1.33.0")
    assert result.returncode == 2 and result.stdout == "" and "LLMC_KUBE_VERSION?" in result.stderr


def test_the_docs_name_the_appproject_whitelist_for_every_cluster_scoped_kind_generate_writes(generated) -> None:
    """Every cluster-scoped object of the generated stream is allowed by the AppProject snippet of docs/gitops.md."""
    import re

    _, done = generated
    text = (Path(__file__).parent.parent / "docs" / "gitops.md").read_text()
    allowed = set(re.findall(r"- \{group: ([\w.]+), kind: (\w+)\}", text))
    cluster_scoped = {(d["apiVersion"].rpartition("/")[0], d["kind"]) for d in manifests(done.stdout) if d["kind"].startswith("Cluster")}
    assert cluster_scoped and cluster_scoped <= allowed


# --------------------------------------------------------------------------- the Parameters tab


def test_the_plugin_announces_every_option_as_a_parameter() -> None:
    from llmc.cli.gitops import argocd_parameters
    from llmc.options import BY_KEY

    assert PLUGIN["spec"]["parameters"]["static"] == argocd_parameters()
    assert [p["name"] for p in argocd_parameters()] == list(BY_KEY)


def test_app_parameters_set_options_and_plugin_env_wins() -> None:
    import json

    params = json.dumps([{"name": "presetSet", "string": "kserve-v0.20"}, {"name": "apiVersions", "array": ["keda.sh/v1alpha1"]},
                         {"name": "namespace", "string": "from-ui"}])
    config = argocd_config({"ARGOCD_APP_PARAMETERS": params, "ARGOCD_ENV_LLMC_NAMESPACE": "from-env"})
    assert (config.preset_set, config.api_versions, config.namespace) == ("kserve-v0.20", ("keda.sh/v1alpha1",), "from-env")


@pytest.mark.parametrize("text,message", [
    ('[{"name": "presetset", "string": "x"}]', "did you mean presetSet?"),
    ("{not json", "ARGOCD_APP_PARAMETERS is not JSON"),
    ('{"name": "strict"}', "must be a JSON list"),
])
def test_bad_app_parameters_are_usage_errors(text: str, message: str) -> None:
    from llmc.core.errors import LlmcError

    with pytest.raises(LlmcError) as raised:
        argocd_config({"ARGOCD_APP_PARAMETERS": text})
    assert raised.value.exit_code == 2 and message in str(raised.value) + (raised.value.hint or "")
