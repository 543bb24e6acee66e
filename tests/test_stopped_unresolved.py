"""A stopped service whose configs do not combine renders nothing, with the warning LLMC004
(config_merge.go reconcileBaseRefs); the same service not stopped is an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_output_valid import assert_rejected, invoke

SERVICE = """\
apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceService
metadata:
  name: paused
  namespace: demo
  annotations: {{serving.kserve.io/stop: "{stop}"}}
spec:
  model: {{uri: hf://facebook/opt-125m}}
  replicas: 2
  baseRefs: [{{name: {ref}}}]
"""
# a config that exists but whose combined spec fails the dry-run validation: its scaling and the
# service's replicas are each valid, together they break the CRD's rule
CONFIG = """\
---
apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceServiceConfig
metadata: {name: conflicting, namespace: demo}
spec:
  scaling: {minReplicas: 1, maxReplicas: 3, keda: {triggers: [{type: cpu, metadata: {value: "50"}}]}}
"""


@pytest.mark.parametrize("ref,extra,message", [
    ("missing", "", 'LLMInferenceServiceConfig "missing" not found in namespaces [demo kserve]'),
    ("conflicting", CONFIG, "replicas and scaling are mutually exclusive"),
])
@pytest.mark.parametrize("stop", ["true", "TRUE"])
def test_stopped_renders_nothing_with_the_controllers_warning(tmp_path: Path, ref: str, extra: str,
                                                              message: str, stop: str) -> None:
    (tmp_path / "svc.yaml").write_text(SERVICE.format(stop=stop, ref=ref) + extra)
    run = invoke(["render", "-f", "svc.yaml"], cwd=tmp_path)
    assert run.code == 0, run.stderr
    assert run.stdout == ""
    assert "warning: LLMC004 demo/paused:" in run.stderr and message in run.stderr, run.stderr
    strict = invoke(["render", "--strict", "-f", "svc.yaml"], cwd=tmp_path)
    assert strict.code == 1 and strict.stdout == ""


@pytest.mark.parametrize("ref,extra", [("missing", ""), ("conflicting", CONFIG)])
def test_not_stopped_is_an_error(tmp_path: Path, ref: str, extra: str) -> None:
    (tmp_path / "svc.yaml").write_text(SERVICE.format(stop="false", ref=ref) + extra)
    assert_rejected(invoke(["render", "-f", "svc.yaml"], cwd=tmp_path))
