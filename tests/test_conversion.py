"""v1alpha1 inputs are converted to v1alpha2 as KServe's conversion webhook does."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from llmc.cli.app import app
from llmc.admit.conversion import LORA_CRITICALITIES, MODEL_CRITICALITY, to_v1alpha2

OLD = {
    "apiVersion": "serving.kserve.io/v1alpha1",
    "kind": "LLMInferenceService",
    "metadata": {"name": "old", "annotations": {"team": "a"}},
    "spec": {
        "model": {
            "uri": "hf://facebook/opt-125m",
            "criticality": "Critical",
            "lora": {"adapters": [{"name": "a", "uri": "hf://x/a"}, {"name": "b", "uri": "hf://x/b", "criticality": "Sheddable"}]},
        },
        "router": {
            "scheduler": {
                "pool": {
                    "spec": {
                        "selector": {"app": "old"},
                        "targetPortNumber": 8000,
                        "extensionRef": {"name": "old-epp"},
                    }
                }
            }
        },
    },
}


def test_criticality_moves_to_annotations():
    new = to_v1alpha2(OLD)
    assert new["apiVersion"] == "serving.kserve.io/v1alpha2"
    assert "criticality" not in new["spec"]["model"]
    assert all("criticality" not in a for a in new["spec"]["model"]["lora"]["adapters"])
    annotations = new["metadata"]["annotations"]
    assert annotations["team"] == "a"
    assert annotations[MODEL_CRITICALITY] == "Critical"
    # adapter index 1 carries the value, keyed by its position (Go map[int]string as JSON)
    assert json.loads(annotations[LORA_CRITICALITIES]) == {"1": "Sheddable"}
    assert OLD["spec"]["model"]["criticality"] == "Critical"  # input untouched


def test_pool_spec_takes_the_v1_shape():
    pool = to_v1alpha2(OLD)["spec"]["router"]["scheduler"]["pool"]["spec"]
    # GIE v1alpha2 → v1: kind defaults to Service, failureMode to FailClose, a Service ref without a port gets 9002
    assert pool == {
        "selector": {"matchLabels": {"app": "old"}},
        "targetPorts": [{"number": 8000}],
        "endpointPickerRef": {"kind": "Service", "name": "old-epp", "port": {"number": 9002}, "failureMode": "FailClose"},
    }


def test_v1alpha1_service_renders_like_its_v1alpha2_twin(tmp_path):
    import yaml

    old = {"apiVersion": "serving.kserve.io/v1alpha1", "kind": "LLMInferenceService",
           "metadata": {"name": "twin"}, "spec": {"model": {"uri": "hf://facebook/opt-125m"}}}
    new = dict(old, apiVersion="serving.kserve.io/v1alpha2")
    (tmp_path / "old.yaml").write_text(yaml.safe_dump(old))
    (tmp_path / "new.yaml").write_text(yaml.safe_dump(new))
    runner = CliRunner()
    a = runner.invoke(app, ["render", "-q", "-f", str(tmp_path / "old.yaml")])
    b = runner.invoke(app, ["render", "-q", "-f", str(tmp_path / "new.yaml")])
    assert a.exit_code == 0 and b.exit_code == 0, a.stderr + b.stderr
    assert a.stdout == b.stdout and "kind: Deployment" in a.stdout
