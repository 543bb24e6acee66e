"""llmc explain: provenance rules on hand-made layers, and the command on the shipped examples."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from llmc.cli.app import app
from llmc.gitops.explain import format_segments, leaves, object_reason, provenance

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
GATEWAY = Path(__file__).resolve().parent / "data" / "gitops" / "gateway.yaml"


def test_last_layer_that_sets_a_leaf_wins() -> None:
    layers = [
        ("Preset:kserve/base", {"replicas": 1, "template": {"containers": [{"name": "main", "image": "a", "args": ["x"]}]}}),
        ("UserRef:team/ref", {"template": {"containers": [{"name": "main", "image": "b"}]}}),
        ("Service", {"replicas": 3}),
    ]
    merged = {"replicas": 3, "template": {"containers": [{"name": "main", "image": "b", "args": ["x"]}]}, "labels": {}}
    assert provenance(merged, layers) == [
        ("spec.replicas", "Service"),
        ("spec.template.containers[name=main].image", "UserRef:team/ref"),
        ("spec.template.containers[name=main].args", "Preset:kserve/base"),
        ("spec.labels", None),
    ]


def test_keyed_lists_are_addressed_by_name_and_other_lists_are_leaves() -> None:
    spec = {
        "template": {
            "containers": [{"name": "main", "env": [{"name": "A", "value": "1"}]}, {"name": "sidecar"}],
            "tolerations": [{"key": "gpu", "operator": "Exists"}],
        }
    }
    assert [format_segments(("spec", *p)) for p in leaves(spec)] == [
        "spec.template.containers[name=main].env[name=A].value",
        "spec.template.containers[name=sidecar]",
        "spec.template.tolerations",
    ]


def test_an_item_named_by_a_template_in_the_preset_matches_its_rendered_name() -> None:
    preset = {"refs": [{"name": "{{ ChildName .ObjectMeta.Name `-pool` }}", "port": 8000}]}
    assert provenance({"refs": [{"name": "svc-pool", "port": 8000}]}, [("Preset:kserve/p", preset)]) == [
        ("spec.refs[name=svc-pool].port", "Preset:kserve/p")
    ]


def test_odd_keys_are_bracketed() -> None:
    assert format_segments(("spec", "annotations", "serving.kserve.io/x")) == 'spec.annotations["serving.kserve.io/x"]'


def test_own_reasons_cover_long_names() -> None:
    long = "a" * 60
    from llmc.k8s.names import child_name

    assert "prefill" in object_reason("Deployment", child_name(long, "-kserve-prefill"), {"name": long, "namespace": "ns"})
    assert object_reason("ConfigMap", "x", {"name": "svc", "namespace": "ns"}) == "ConfigMap created by the controller for svc"


def run(*args: str):
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_explain_json_for_the_managed_dra_example() -> None:
    result = run("explain", "-f", str(EXAMPLES / "mistral-dra.yaml"), "-o", "json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["apiVersion"] == "llmc.dev/v1alpha1" and doc["kind"] == "Explanation"
    (svc,) = doc["services"]
    assert list(svc) == ["name", "namespace", "kind", "appliedConfigs", "objects", "provenance", "findings", "prerequisites", "url"]
    assert (svc["namespace"], svc["name"]) == ("inference", "mistral-dra")
    assert [c["name"] for c in svc["appliedConfigs"]][-1] == "kserve-config-llm-template"
    assert all(c["source"] == "Preset" and c["namespace"] == "kserve" for c in svc["appliedConfigs"])

    rendered = run("render", "-f", str(EXAMPLES / "mistral-dra.yaml"))
    kinds = {(line.split(": ")[1]) for line in rendered.stdout.splitlines() if line.startswith("kind: ")}
    assert {o["kind"] for o in svc["objects"]} == kinds
    assert all(o["reason"] and "created by the controller" not in o["reason"] for o in svc["objects"])
    claim = next(o for o in svc["objects"] if o["kind"] == "ResourceClaimTemplate")
    assert claim["name"] == "mistral-dra-managed-dra" and "DRA" in claim["reason"]

    layers = {p["path"]: p["layer"] for p in svc["provenance"]}
    assert layers["spec.model.uri"] == "Service"
    assert layers["spec.template.containers[name=main].resources.limits.memory"] == "Service"
    assert layers["spec.template.containers[name=main].image"] == "Preset:kserve/kserve-config-llm-template"
    # the managed-DRA claim is injected after the merge: no layer wrote it
    assert layers["spec.template.resourceClaims[name=managed-device].resourceClaimTemplateName"] is None
    assert [f["code"] for f in svc["findings"]] == ["LLMC302"]
    assert svc["url"] is None  # no Gateway given


def test_explain_predicts_the_url_from_the_gateway() -> None:
    result = run("explain", "-f", str(EXAMPLES / "llama-single-gpu.yaml"), "--cluster", str(GATEWAY), "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["services"][0]["url"] == "http://203.0.113.10/team-a/llama-8b"


def test_explain_text_groups_fields_by_layer() -> None:
    result = run("explain", "-f", str(EXAMPLES / "llama-single-gpu.yaml"), "--cluster", str(GATEWAY))
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith("team-a/llama-8b\n")
    assert "    1. Preset  kserve/kserve-config-llm-scheduler\n" in out
    assert "    Service:\n      spec.model.uri\n" in out
    assert out.index("    Service:") < out.index("    Preset:kserve/kserve-config-llm-template:")
    assert "  url: http://203.0.113.10/team-a/llama-8b\n" in out


def test_explain_reports_input_errors_like_render() -> None:
    result = run("explain", "-f", str(ROOT / "golden" / "error-unknown-field" / "input.yaml"))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert 'unknown field "spec.replica"' in result.stderr


def test_shell_completion_knows_the_gitops_commands_and_choices() -> None:
    """typer's completion (`llmc --install-completion`), as the installed bash script calls it."""

    launcher = Path(__file__).resolve().parent / "data" / "gitops" / "bin"
    env = {**os.environ, "PATH": f"{launcher}{os.pathsep}{os.environ['PATH']}", "LLMC_PYTHON": sys.executable,
           "_LLMC_COMPLETE": "complete_bash"}

    def complete(words: str, cword: int) -> list[str]:
        done = subprocess.run(["llmc"], env={**env, "COMP_WORDS": words, "COMP_CWORD": str(cword)},
                              capture_output=True, text=True, timeout=60)
        return done.stdout.split()

    assert complete("llmc ex", 1) == ["explain"]
    assert complete("llmc explain -o ", 3) == ["text", "json"]


def test_every_object_of_the_examples_has_a_specific_reason() -> None:
    examples = sorted(EXAMPLES.glob("*.yaml"))
    assert len(examples) >= 4
    for example in examples:
        result = run("explain", "-f", str(example), "-o", "json")
        if result.exit_code != 0:
            pytest.fail(f"{example.name}: {result.stderr}")
        for svc in json.loads(result.stdout)["services"]:
            generic = [o for o in svc["objects"] if "created by the controller" in o["reason"]]
            assert not generic, f"{example.name}: {generic}"
