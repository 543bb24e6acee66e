"""An invalid value in a rendered pod is reported at the line of the service that wrote it (llmc.check.blame)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from llmc.check.blame import input_path
from tests.test_output_valid import assert_rejected, invoke

SERVICE = """\
apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceService
metadata:
  name: m
  namespace: demo
spec:
  model:
    uri: hf://facebook/opt-125m
{spec}"""

# (spec lines, the line:col and input path the error must name)
CASES = [
    ("""\
  template:
    containers:
    - name: main
      env:
      - name: FIRST
        value: "1"
      - name: "BAD=1"
        value: x
""", "15:15", "spec.template.containers[0].env[1].name"),
    ("""\
  template:
    containers:
    - name: main
      resources:
        requests: {memory: 2Gi}
        limits: {memory: 1Gi}
""", "13:28", "spec.template.containers[0].resources.requests.memory"),
    ("""\
  template:
    containers:
    - name: sidecar
      image: busybox
    - name: main
      resources:
        limits: {cpu: "-2"}
""", "15:23", "spec.template.containers[1].resources.limits.cpu"),
    ("""\
  prefill:
    template:
      containers:
      - name: main
        env:
        - {name: "", value: x}
""", "14:18", "spec.prefill.template.containers[0].env[0].name"),
]


@pytest.mark.parametrize("spec,where,path", CASES, ids=[c[2] for c in CASES])
def test_error_names_the_input_line(tmp_path: Path, spec: str, where: str, path: str) -> None:
    (tmp_path / "svc.yaml").write_text(SERVICE.format(spec=spec))
    run = invoke(["render", "-f", "svc.yaml"], cwd=tmp_path)
    assert_rejected(run)
    assert f"error: svc.yaml:{where}: {path}" in run.stderr, run.stderr
    assert "this field of the service writes the rejected value" in run.stderr


def test_a_preset_value_blames_the_service_name() -> None:
    service = {"spec": {"template": {"containers": [{"name": "main"}]}}}
    rendered = {"kind": "Deployment", "metadata": {"name": "m-kserve"},
                "spec": {"template": {"spec": {"containers": [{"name": "main", "env": [{"name": "X"}]}]}}}}
    assert input_path(service, rendered, ("spec", "template", "spec", "containers", 0, "env", 0, "name")) == \
        ("spec", "template", "containers", 0)
    assert input_path(service, rendered, ("spec", "template", "spec", "initContainers", 0)) == ("metadata", "name")
    assert input_path(service, {"kind": "Service"}, ("spec", "ports", 0)) == ("metadata", "name")


def test_worker_templates_follow_spec_worker() -> None:
    service = {"spec": {"worker": {"containers": [{"name": "main", "env": [{"name": "Y"}, {"name": "X"}]}]}}}
    rendered = {"kind": "LeaderWorkerSet", "metadata": {"name": "m-kserve-mn"},
                "spec": {"leaderWorkerTemplate": {"workerTemplate": {"spec": {"containers": [
                    {"name": "main", "env": [{"name": "X"}]}]}}}}}
    path = ("spec", "leaderWorkerTemplate", "workerTemplate", "spec", "containers", 0, "env", 0, "name")
    assert input_path(service, rendered, path) == ("spec", "worker", "containers", 0, "env", 1, "name")


@pytest.mark.parametrize("env", [{"name": "with space.and-dots", "value": "1"}, {"name": "X", "value": ""}])
def test_unusual_but_valid_values_render(tmp_path: Path, env: dict) -> None:
    spec = textwrap.dedent(f"""\
      template:
        containers:
        - name: main
          env:
          - {{name: "{env['name']}", value: "{env['value']}"}}
          resources:
            requests: {{cpu: "1", memory: 1Gi}}
            limits: {{cpu: "1", memory: 1Gi}}
    """)
    (tmp_path / "svc.yaml").write_text(SERVICE.format(spec=textwrap.indent(spec, "  ")))
    run = invoke(["render", "-f", "svc.yaml"], cwd=tmp_path)
    assert run.code == 0, run.stderr
    assert env["name"] in run.stdout
