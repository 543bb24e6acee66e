"""The predictor pod spec: KServe's utils_test.go (TestMergeRuntimeContainers, TestMergePodSpec,
TestReplacePlaceholders, TestUpdateImageTag, TestAddEnvVarToPodSpec) and components/predictor.go buildPodSpec."""

from __future__ import annotations

import pytest

from llmc.core.errors import LlmcError
from llmc.isvc.placeholders import replace_placeholders
from llmc.isvc.podspec import add_env, build_pod_spec, merge_runtime_container, update_image_tag
from llmc.isvc.runtimes import Runtime
from llmc.isvc.smp import merge_pod_spec


def test_merge_runtime_containers_basic_merge() -> None:
    # TestMergeRuntimeContainers/BasicMerge: args concatenated, env merged by name, resources merged.
    base = {"name": "kserve-container", "image": "default-image", "args": ["--foo=bar", "--test=dummy"],
            "env": [{"name": "PORT", "value": "8080"}, {"name": "PORT2", "value": "8081"}],
            "resources": {"limits": {"cpu": "1", "memory": "2Gi"}, "requests": {"cpu": "1", "memory": "2Gi"}}}
    override = {"args": ["--new-arg=baz"], "env": [{"name": "PORT2", "value": "8082"}, {"name": "Some", "value": "Var"}],
                "resources": {"limits": {"cpu": "2", "memory": "4Gi"}}}
    assert merge_runtime_container(base, override) == {
        "name": "kserve-container", "image": "default-image",
        "args": ["--foo=bar", "--test=dummy", "--new-arg=baz"],
        "env": [{"name": "PORT", "value": "8080"}, {"name": "PORT2", "value": "8082"}, {"name": "Some", "value": "Var"}],
        "resources": {"limits": {"cpu": "2", "memory": "4Gi"}, "requests": {"cpu": "1", "memory": "2Gi"}},
    }


def _pvc(name: str, claim: str) -> dict:
    return {"name": name, "persistentVolumeClaim": {"claimName": claim}}


def test_merge_pod_spec_basic_merge() -> None:
    # TestMergePodSpec/BasicMerge
    base = {"nodeSelector": {"foo": "bar", "aaa": "bbb"},
            "tolerations": [{"key": "key1", "operator": "Exists", "effect": "NoSchedule"}],
            "volumes": [_pvc("foo", "bar"), _pvc("aaa", "bbb")], "imagePullSecrets": [{"name": "foo"}]}
    override = {"nodeSelector": {"foo": "baz", "xxx": "yyy"}, "serviceAccountName": "testAccount",
                "volumes": [_pvc("foo", "baz"), _pvc("xxx", "yyy")], "imagePullSecrets": [{"name": "foo"}, {"name": "bar"}]}
    merged = merge_pod_spec(base, override)
    assert merged["nodeSelector"] == {"foo": "baz", "xxx": "yyy", "aaa": "bbb"}
    assert merged["tolerations"] == base["tolerations"]
    assert merged["serviceAccountName"] == "testAccount"
    assert merged["volumes"] == [_pvc("foo", "baz"), _pvc("xxx", "yyy"), _pvc("aaa", "bbb")]
    assert merged["imagePullSecrets"] == [{"name": "foo"}, {"name": "bar"}]


def test_merge_pod_spec_resource_claims() -> None:
    # TestMergePodSpec/BothDistinctResourceClaims and OverrideSameNameResourceClaims
    a, b = {"name": "gpu-a", "resourceClaimName": "claim-a"}, {"name": "gpu-b", "resourceClaimName": "claim-b"}
    assert merge_pod_spec({"resourceClaims": [a]}, {"resourceClaims": [b]})["resourceClaims"] == [b, a]
    same = merge_pod_spec({"resourceClaims": [{"name": "gpu", "resourceClaimName": "runtime-claim"}]},
                          {"resourceClaims": [{"name": "gpu", "resourceClaimName": "isvc-claim"}]})
    assert same["resourceClaims"] == [{"name": "gpu", "resourceClaimName": "isvc-claim"}]


@pytest.mark.parametrize(("base", "override", "expected"), [
    ({"nodeSelector": {"foo": "bar"}, "schedulerName": "custom-scheduler"}, {"serviceAccountName": "testAccount"},
     {"nodeSelector": {"foo": "bar"}, "schedulerName": "custom-scheduler", "serviceAccountName": "testAccount"}),
    ({"schedulerName": "runtime-scheduler"}, {"schedulerName": "isvc-scheduler"}, {"schedulerName": "isvc-scheduler"}),
])
def test_merge_pod_spec_scheduler_name(base: dict, override: dict, expected: dict) -> None:
    # TestMergePodSpec/MergeWithSchedulerName and OverrideSchedulerName
    assert merge_pod_spec(base, override) == expected


def test_replace_args_and_env_placeholders() -> None:
    # TestReplacePlaceholders/ReplaceArgsAndEnvPlaceholders
    container = {"name": "kserve-container", "image": "default-image", "args": ["--foo={{.Name}}", "--test=dummy"],
                 "env": [{"name": "PORT", "value": "8080"}, {"name": "MODELS_DIR", "value": "{{.Labels.modelDir}}"}]}
    out = replace_placeholders(container, {"name": "bar", "labels": {"modelDir": "/mnt/models"}})
    assert out["args"] == ["--foo=bar", "--test=dummy"]
    assert out["env"][1] == {"name": "MODELS_DIR", "value": "/mnt/models"}


def test_placeholders_are_html_escaped_and_missing_keys_are_empty() -> None:
    # Go html/template (the controller parses the container JSON with it), checked with go1.19:
    # {{.Name}} of `my<&"isvc` prints `my&lt;&amp;&#34;isvc`, `x'y+z` prints `x&#39;y&#43;z`, absent keys print "".
    container = {"args": ["--model_name={{.Name}}", "--x={{.Labels.missing}}", "--y={{index .Annotations `a`}}",
                          "--nil={{.Annotations.b}}"]}
    out = replace_placeholders(container, {"name": 'my<&"isvc', "annotations": {"a": "x'y+z"}})
    assert out["args"] == ["--model_name=my&lt;&amp;&#34;isvc", "--x=", "--y=x&#39;y&#43;z", "--nil="]


def test_placeholder_errors_are_go_template_errors() -> None:
    # A double-quoted string inside JSON is `\"a\"`: go1.19 html/template reports `unexpected "\\" in operand`.
    with pytest.raises(LlmcError, match=r'template: container-tmpl:1: unexpected "\\\\" in operand'):
        replace_placeholders({"args": ['{{index .Annotations "a"}}']}, {"name": "n"})
    with pytest.raises(LlmcError, match="can't evaluate field Nope in type v1.ObjectMeta"):
        replace_placeholders({"args": ["{{.Nope}}"]}, {"name": "n"})


GPU = {"limits": {"nvidia.com/gpu": "1"}}


@pytest.mark.parametrize(("image", "version", "resources", "runtime", "annotations", "expected"), [
    ("tfserving", "2.6.2", {}, "kserve-tensorflow-serving", {}, "tfserving:2.6.2"),  # UpdateRuntimeVersion
    ("tfserving:1.14.0", None, GPU, "kserve-tensorflow-serving", {}, "tfserving:1.14.0-gpu"),  # UpdateTFServingGPUImageTag
    ("huggingfaceserver:1.14.0", None, GPU, "kserve-huggingfaceserver", {}, "huggingfaceserver:1.14.0-gpu"),
    ("localhost:8888/tfserving:1.14.0", None, GPU, "kserve-tensorflow-serving", {}, "localhost:8888/tfserving:1.14.0-gpu"),
    ("localhost:8888/tfserving", "2.6.2", {}, "kserve-tensorflow-serving", {}, "localhost:8888/tfserving:2.6.2"),
    ("localhost:8888/tfserving:1.2.3", "2.6.2", {}, "kserve-tensorflow-serving", {}, "localhost:8888/tfserving:2.6.2"),
    ("huggingfaceserver@sha256:abcdef1234567890", None, GPU, "kserve-tensorflow-serving", {},
     "huggingfaceserver@sha256:abcdef1234567890"),  # DoNotUpdateWhenDigestSpecified
    ("vllm/vllm-openai:latest", None, GPU, "kserve-vllmserver", {}, "vllm/vllm-openai:latest"),
    ("vllm/vllm-openai:latest", None, {}, "kserve-vllmserver", {}, "vllm/vllm-openai-cpu:latest"),
    ("localhost:8888/vllm/vllm-openai:v0.5.0", None, {}, "kserve-vllmserver", {}, "localhost:8888/vllm/vllm-openai-cpu:v0.5.0"),
    ("vllm/vllm-openai-cpu:v0.5.0", None, {}, "kserve-vllmserver", {}, "vllm/vllm-openai-cpu:v0.5.0"),
    ("vllm/vllm-openai", None, {}, "kserve-vllmserver", {}, "vllm/vllm-openai"),  # VLLMServerCPUSkipsWhenImageHasNoTag
    ("vllm/vllm-openai:latest", "v0.5.0", {}, "kserve-vllmserver", {}, "vllm/vllm-openai:v0.5.0"),
    ("vllm/vllm-openai:latest", None, {}, "my-custom-vllm", {"serving.kserve.io/server-type": "vllmserver"},
     "vllm/vllm-openai-cpu:latest"),  # VLLMServerCPURewriteViaAnnotationForCustomRuntime
    ("vllm/vllm-openai:latest", None, {}, "kserve-mlserver", {"serving.kserve.io/server-type": "vllmserver"},
     "vllm/vllm-openai-cpu:latest"),  # VLLMServerAnnotationTakesPrecedenceOverRuntimeName
    ("huggingfaceserver:1.14.0", None, GPU, "my-custom-hf", {"serving.kserve.io/server-type": "huggingfaceserver"},
     "huggingfaceserver:1.14.0-gpu"),
    ("vllm/vllm-openai:latest", None, {}, "my-custom-vllm", {}, "vllm/vllm-openai:latest"),  # UnknownRuntimeWithoutAnnotationIsLeftAlone
])
def test_update_image_tag(image: str, version: str | None, resources: dict, runtime: str, annotations: dict,
                          expected: str) -> None:
    container = {"name": "kserve-container", "image": image, "resources": resources}
    update_image_tag(container, version, Runtime(runtime, None, {}, annotations))
    assert container["image"] == expected


def test_add_env_overwrites_or_appends() -> None:
    # TestAddEnvVarToPodSpec: an existing variable gets the new value, a new one is appended.
    container = {"name": "c", "env": [{"name": "A", "value": "1"}]}
    add_env(container, "A", "2")
    add_env(container, "B", "3")
    assert container["env"] == [{"name": "A", "value": "2"}, {"name": "B", "value": "3"}]


def test_build_pod_spec_container_order_and_name_env() -> None:
    # buildPodSpec: merged kserve-container, transformer-container, other runtime containers,
    # other predictor containers; every one gets INFERENCE_SERVICE_NAME.
    runtime = Runtime("rt", None, {
        "containers": [{"name": "sidecar-a", "image": "a"}, {"name": "kserve-container", "image": "srv:1",
                                                               "args": ["--model_name={{.Name}}"]}],
        "volumes": [{"name": "shm", "emptyDir": {"medium": "Memory"}}],
        "nodeSelector": {"pool": "gpu"},
    })
    isvc = {"metadata": {"name": "m", "namespace": "ns"}, "spec": {"predictor": {
        "model": {"modelFormat": {"name": "x"}, "args": ["--extra"], "storageUri": "s3://b/m"},
        "containers": [{"name": "transformer-container", "image": "t"}, {"name": "sidecar-b", "image": "b"}],
        "serviceAccountName": "sa",
    }}}
    pod = build_pod_spec(isvc, runtime)
    assert [c["name"] for c in pod["containers"]] == ["kserve-container", "transformer-container", "sidecar-a", "sidecar-b"]
    assert pod["containers"][0]["args"] == ["--model_name=m", "--extra"]
    assert all(c["env"][-1] == {"name": "INFERENCE_SERVICE_NAME", "value": "m"} for c in pod["containers"])
    assert pod["serviceAccountName"] == "sa" and pod["nodeSelector"] == {"pool": "gpu"}
    assert pod["volumes"] == [{"name": "shm", "emptyDir": {"medium": "Memory"}}]


def test_build_pod_spec_needs_the_kserve_container() -> None:
    runtime = Runtime("rt", None, {"containers": [{"name": "server", "image": "a"}]})
    isvc = {"metadata": {"name": "m"}, "spec": {"predictor": {"model": {"modelFormat": {"name": "x"}}}}}
    with pytest.raises(LlmcError, match="failed to find kserve-container in ServingRuntime containers"):
        build_pod_spec(isvc, runtime)


def test_build_pod_spec_placeholder_error_names_runtime_and_container() -> None:
    runtime = Runtime("rt", None, {"containers": [{"name": "kserve-container", "args": ["{{.Bad}}"]}]})
    isvc = {"metadata": {"name": "m"}, "spec": {"predictor": {"model": {"modelFormat": {"name": "x"}}}}}
    with pytest.raises(LlmcError, match="^failed to replace placeholders in serving runtime rt Container kserve-container: "):
        build_pod_spec(isvc, runtime)
