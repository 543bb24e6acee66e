"""Duplicates and empty runs: inputs defined twice, objects rendered twice, --output-dir names, no service at all."""

from __future__ import annotations

import json

from hypothesis import given, strategies as st
from typer.testing import CliRunner

from llmc.cli.app import app
from llmc.cli.outdir import file_names

SERVICE = """apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceService
metadata:
  name: {name}
  namespace: {namespace}
spec:
  model:
    uri: hf://facebook/opt-125m
  router:
    route: {{}}
    gateway: {{}}
    scheduler: {{}}
"""


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


def test_the_same_service_in_two_files_names_both_locations(tmp_path) -> None:
    (tmp_path / "a.yaml").write_text(SERVICE.format(name="s", namespace="ns"))
    (tmp_path / "b.yaml").write_text("# again\n" + SERVICE.format(name="s", namespace="ns"))
    result = run("render", "-f", str(tmp_path))
    assert result.exit_code == 1 and result.stdout == ""
    assert f"{tmp_path}/b.yaml:5:9" in result.stderr and f"at {tmp_path}/a.yaml:4:9" in result.stderr


def test_a_folder_and_a_file_inside_it_read_the_file_twice(tmp_path) -> None:
    (tmp_path / "a.yaml").write_text(SERVICE.format(name="s", namespace="ns"))
    result = run("render", "-f", str(tmp_path), "-f", str(tmp_path / "a.yaml"))
    assert result.exit_code == 1 and result.stdout == "" and "the same file is read twice" in result.stderr


def test_the_same_config_and_the_same_inferenceservice_twice_are_errors(tmp_path) -> None:
    config = "apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceServiceConfig\nmetadata:\n  name: c\nspec: {}\n"
    isvc = ("apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: i\nspec:\n"
            "  predictor:\n    model:\n      modelFormat:\n        name: sklearn\n      storageUri: gs://b/m\n")
    (tmp_path / "in.yaml").write_text(SERVICE.format(name="s", namespace="default") + "---\n" + config + "---\n" + config
                                      + "---\n" + isvc + "---\n" + isvc)
    result = run("render", "-f", str(tmp_path / "in.yaml"))
    assert result.exit_code == 1 and result.stdout == ""
    assert "LLMInferenceServiceConfig default/c is defined twice" in result.stderr
    assert "InferenceService default/i is defined twice" in result.stderr


def test_one_service_in_two_namespaces_is_no_duplicate(tmp_path) -> None:
    (tmp_path / "a.yaml").write_text(SERVICE.format(name="s", namespace="one") + "---\n" + SERVICE.format(name="s", namespace="two"))
    result = run("render", "-q", "-f", str(tmp_path / "a.yaml"))
    assert result.exit_code == 0, result.stderr


def test_colliding_child_names_fail_every_command(tmp_path) -> None:
    (tmp_path / "a.yaml").write_text(SERVICE.format(name="b-c", namespace="a") + "---\n" + SERVICE.format(name="c", namespace="a-b"))
    for args in (["render", "-f"], ["render", "-j", "2", "-f"], ["explain", "-f"], ["check"]):
        result = run(*args, str(tmp_path / "a.yaml"))
        assert result.exit_code == 1 and result.stdout == "", args
        assert "ClusterRoleBinding.rbac.authorization.k8s.io a-b-c-epp-auth-rb is rendered by both a-b/c" in result.stderr


def test_empty_input_is_an_error_unless_allowed(tmp_path) -> None:
    (tmp_path / "empty.yaml").write_text("")
    for args in (["render", "-f", str(tmp_path / "empty.yaml")], ["render", "-f", "-"], ["explain", "-f", str(tmp_path)],
                 ["check", str(tmp_path / "empty.yaml")]):
        result = run(*args, input="")
        assert result.exit_code == 1 and result.stdout == "", args
        assert "holds no LLMInferenceService or InferenceService" in result.stderr
        allowed = run(*args[:1], "--allow-empty", *args[1:], input="")
        assert allowed.exit_code == 0, (args, allowed.stderr)


def test_empty_input_through_the_gitops_entries(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
    assert run("argocd-generate").exit_code == 1
    monkeypatch.setenv("ARGOCD_ENV_LLMC_ALLOW_EMPTY", "true")
    assert run("argocd-generate").exit_code == 0
    rl = {"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": []}
    result = run("krm", input=json.dumps(rl))
    assert result.exit_code == 1 and "holds no LLMInferenceService" in result.stdout
    rl["functionConfig"] = {"apiVersion": "llmc.dev/v1alpha1", "kind": "LLMRender", "allowEmpty": True}
    assert run("krm", input=json.dumps(rl)).exit_code == 0


def test_stopped_services_render_nothing_and_succeed(tmp_path) -> None:
    text = SERVICE.format(name="s", namespace="ns").replace("  namespace: ns\n", "  namespace: ns\n  annotations:\n    serving.kserve.io/stop: \"true\"\n")
    (tmp_path / "a.yaml").write_text(text)
    result = run("render", "-q", "-f", str(tmp_path / "a.yaml"))
    assert result.exit_code == 0 and result.stdout == "", result.stderr


NAMES = st.text(alphabet="ab-", min_size=1, max_size=5).filter(lambda s: s[0] != "-" and s[-1] != "-")


@given(st.lists(st.tuples(st.sampled_from(["v1", "apps/v1"]), st.sampled_from(["Service", "Deployment"]), NAMES, NAMES),
                unique=True, max_size=8))
def test_output_dir_names_never_collide_for_distinct_objects(keys) -> None:
    objs = [{"apiVersion": api, "kind": kind, "metadata": {"namespace": ns, "name": name}} for api, kind, ns, name in keys]
    names = file_names(objs)
    assert len(set(names)) == len(names)
