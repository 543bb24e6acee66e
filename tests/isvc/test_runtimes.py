"""Runtime selection: KServe's TestGetSupportingRuntimes (pkg/apis/serving/v1beta1/predictor_model_test.go),
TestGetServingRuntime (inferenceservice/utils/utils_test.go) and reconcileModel's errors (components/predictor.go)."""

from __future__ import annotations

import pytest

from llmc.core.errors import LlmcError, Location
from llmc.isvc.runtimes import Runtime, runtime_from, select_runtime, supporting_runtimes

from .helpers import docs

NS = "default"


def fmt(name: str, version: str, auto: bool | None = None, priority: int | None = None) -> dict:
    out: dict = {"name": name, "version": version}
    if auto is not None:
        out["autoSelect"] = auto
    if priority is not None:
        out["priority"] = priority
    return out


CONTAINERS = [{"name": "kserve-container", "image": "x:latest"}]
# The runtimes of TestGetSupportingRuntimes, with their specs.
SPECS = {
    "tf-runtime": {"supportedModelFormats": [fmt("tensorflow", "1", True, 1)], "protocolVersions": ["v1", "v2"],
                   "disabled": False},
    "sklearn-runtime": {"supportedModelFormats": [fmt("sklearn", "0", True, 1)], "protocolVersions": ["v1", "v2"],
                        "disabled": False},
    "pmml-runtime": {"supportedModelFormats": [fmt("pmml", "4", priority=1)], "protocolVersions": ["v1", "v2"],
                     "disabled": True},
    "mlserver-runtime-mms": {"supportedModelFormats": [fmt("sklearn", "0", True, 2), fmt("xgboost", "1", True, 2),
                                                       fmt("lightgbm", "3", True, 2)],
                             "protocolVersions": ["v2"], "disabled": False, "multiModel": True},
    "mlserver-runtime": {"supportedModelFormats": [fmt("sklearn", "0", True, 2), fmt("lightgbm", "3", True, 2)],
                         "protocolVersions": ["v2"], "disabled": False, "multiModel": False},
    "xgboost-runtime": {"supportedModelFormats": [fmt("xgboost", "0", True, 1)], "protocolVersions": ["v2"],
                        "disabled": False},
    "triton-runtime": {"supportedModelFormats": [fmt("sklearn", "0", True), fmt("triton", "1", True, 1),
                                                 fmt("lightgbm", "3", True)],
                       "protocolVersions": ["v2"], "disabled": False, "multiModel": False},
    "test-runtime": {"supportedModelFormats": [fmt("sklearn", "0", True)], "protocolVersions": ["v2"],
                     "disabled": False, "multiModel": False},
    "huggingface-multinode-runtime": {"supportedModelFormats": [fmt("huggingface", "1", True, 2)],
                                      "protocolVersions": ["v1", "v2"], "workerSpec": {}, "multiModel": False,
                                      "disabled": False},
}
NAMESPACED = ["tf-runtime", "sklearn-runtime", "pmml-runtime", "mlserver-runtime", "triton-runtime", "test-runtime",
              "huggingface-multinode-runtime"]
CLUSTER = {"cluster-mlserver-runtime-mms": "mlserver-runtime-mms", "cluster-tf-runtime": "tf-runtime",
           "cluster-xgboost-runtime": "xgboost-runtime"}


def runtimes() -> list[Runtime]:
    out = [Runtime(n, NS, {**SPECS[n], "containers": CONTAINERS}) for n in NAMESPACED]
    out += [Runtime(n, None, {**SPECS[s], "containers": CONTAINERS}) for n, s in CLUSTER.items()]
    return out


@pytest.mark.parametrize(("model", "expected"), [
    ({"modelFormat": {"name": "tensorflow"}}, ["tf-runtime", "cluster-tf-runtime"]),  # BothClusterAndNamespaceRuntimesSupportModel
    ({"modelFormat": {"name": "nonexistent-modelformat"}}, []),  # RuntimeNotFound
    ({"modelFormat": {"name": "pmml"}}, []),  # ModelFormatWithDisabledRuntimeSpecified
    ({"modelFormat": {"name": "sklearn"}}, ["sklearn-runtime"]),  # SMSRuntimeModelFormatSpecified
    ({"modelFormat": {"name": "xgboost"}, "protocolVersion": "v2"}, ["cluster-xgboost-runtime"]),  # RuntimeV2ProtocolSpecified
    ({"modelFormat": {"name": "xgboost"}, "protocolVersion": "v1"}, []),  # RuntimeV1ProtocolNotFound
    # MultipleRuntimeSupportsModelFormatSpecified: priority 2, priority 1, then the rest in list order
    ({"modelFormat": {"name": "sklearn"}, "protocolVersion": "v2"},
     ["mlserver-runtime", "sklearn-runtime", "test-runtime", "triton-runtime"]),
])
def test_get_supporting_runtimes(model: dict, expected: list[str]) -> None:
    assert [rt.name for rt in supporting_runtimes(model, runtimes(), NS)] == expected


def test_multinode_runtimes_are_never_auto_selected_for_single_node_predictors() -> None:
    model = {"modelFormat": {"name": "huggingface"}, "protocolVersion": "v2"}
    assert supporting_runtimes(model, runtimes(), NS) == []


def test_newer_runtimes_come_first_among_equal_protocols() -> None:
    # sortServingRuntimeList: protocol priority, then newer creationTimestamp first, then name.
    spec = {"supportedModelFormats": [fmt("sklearn", "0", True)], "containers": CONTAINERS}
    old = Runtime("a-old", NS, spec, created=1_000.0)
    new = Runtime("b-new", NS, spec, created=2_000.0)
    unset = Runtime("c-unset", NS, spec)
    assert [rt.name for rt in supporting_runtimes({"modelFormat": {"name": "sklearn"}}, [old, unset, new], NS)] == [
        "b-new", "a-old", "c-unset"]


def test_explicit_runtime_prefers_the_namespace_over_the_cluster() -> None:
    # TestGetServingRuntime: a ServingRuntime of the name wins over a ClusterServingRuntime of the same name.
    spec = {"supportedModelFormats": [fmt("tensorflow", "1")], "containers": CONTAINERS}
    rts = [Runtime("same", None, spec), Runtime("same", NS, spec)]
    chosen = select_runtime({"modelFormat": {"name": "tensorflow"}, "runtime": "same"}, rts, NS, Location())
    assert chosen.explicit and not chosen.runtime.cluster
    other_ns = select_runtime({"modelFormat": {"name": "tensorflow"}, "runtime": "same"}, rts, "elsewhere", Location())
    assert other_ns.runtime.cluster


def test_explicit_runtime_ignores_auto_select() -> None:
    # RuntimeSupportsModel: with model.runtime set, every supported format counts (pmml has no autoSelect).
    rt = Runtime("pmml", NS, {"supportedModelFormats": [fmt("pmml", "4")], "containers": CONTAINERS})
    assert select_runtime({"modelFormat": {"name": "pmml"}, "runtime": "pmml"}, [rt], NS, Location()).runtime is rt
    assert supporting_runtimes({"modelFormat": {"name": "pmml"}}, [rt], NS) == []


@pytest.mark.parametrize(("model", "message"), [
    ({"modelFormat": {"name": "sklearn"}, "runtime": "nope"},
     "No ServingRuntimes or ClusterServingRuntimes with the name: nope"),
    ({"modelFormat": {"name": "pmml"}, "runtime": "pmml-runtime"}, "specified runtime pmml-runtime is disabled"),
    ({"modelFormat": {"name": "xgboost"}, "runtime": "cluster-xgboost-runtime", "protocolVersion": "v1"},
     "specified runtime cluster-xgboost-runtime does not support specified protocol version"),
    ({"modelFormat": {"name": "sklearn"}, "runtime": "tf-runtime"},
     "specified runtime tf-runtime does not support specified framework/version"),
    ({"modelFormat": {"name": "onnx"}}, "no runtime found to support predictor with model type: {onnx <nil>}"),
])
def test_controller_errors(model: dict, message: str) -> None:
    with pytest.raises(LlmcError) as info:
        select_runtime(model, runtimes(), NS, Location(path="spec.predictor.model"))
    assert info.value.message == message
    assert info.value.location.path == "spec.predictor.model"


def test_version_must_match_when_the_model_names_one() -> None:
    rt = Runtime("hf", None, {"supportedModelFormats": [fmt("huggingface", "1", True)], "containers": CONTAINERS})
    assert supporting_runtimes({"modelFormat": {"name": "huggingface", "version": "1"}}, [rt], NS) == [rt]
    assert supporting_runtimes({"modelFormat": {"name": "huggingface", "version": "2"}}, [rt], NS) == []


def test_runtime_documents() -> None:
    [sr, csr] = docs("""
        apiVersion: serving.kserve.io/v1alpha1
        kind: ServingRuntime
        metadata: {name: mine, creationTimestamp: "2024-01-02T03:04:05Z"}
        spec:
          containers: [{name: kserve-container, image: x, ports: [{containerPort: 8080}]}]
        ---
        apiVersion: serving.kserve.io/v1alpha1
        kind: ClusterServingRuntime
        metadata: {name: theirs, namespace: ignored}
        spec:
          containers: [{name: kserve-container, image: img-b}]
    """)
    mine, theirs = runtime_from(sr, "team"), runtime_from(csr, "team")
    assert (mine.namespace, mine.created) == ("team", 1704164645.0)
    assert mine.spec["containers"][0]["ports"] == [{"containerPort": 8080, "protocol": "TCP"}]  # the CRD default
    assert theirs.cluster and theirs.kind == "ClusterServingRuntime"


def test_a_runtime_needs_containers() -> None:
    [doc] = docs("""
        apiVersion: serving.kserve.io/v1alpha1
        kind: ServingRuntime
        metadata: {name: empty}
        spec: {supportedModelFormats: [{name: sklearn}]}
    """)
    with pytest.raises(LlmcError, match="'Containers' failed on the 'required' tag") as info:
        runtime_from(doc, NS)
    assert info.value.location.line == 5
