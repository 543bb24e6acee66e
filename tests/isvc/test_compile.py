"""End to end: InferenceService YAML to the Standard-mode objects.

Expected values are KServe facts: rawkube_controller_test.go ("Should have ingress/service/deployment/hpa
created": names, selectors, ingress hosts), tests_common.go (getDeploymentWithKServiceLabel: pod labels and
annotations, INFERENCE_SERVICE_NAME), components/predictor.go (buildObjectMeta), inference_service_defaults.go
(deployment mode and modelFormat annotation), config/runtimes/kserve-huggingfaceserver.yaml and its kustomization.
"""

from __future__ import annotations

import pytest

from llmc.core.errors import ErrorList, LlmcError
from llmc.isvc.compile import compile
from llmc.isvc.config import IsvcConfig
from llmc.render.context import RenderOptions

from .helpers import STANDARD, builtin_runtimes, docs, render

PREDICTOR_LABELS = {"app": "isvc.llama-predictor", "component": "predictor", "serving.kserve.io/inferenceservice": "llama"}


def test_objects_and_names(hf_isvc: str) -> None:
    objects, _ = render(hf_isvc)
    assert sorted(objects) == ["Deployment", "HorizontalPodAutoscaler", "Ingress", "Service"]
    for kind in ("Deployment", "Service", "HorizontalPodAutoscaler"):
        assert objects[kind]["metadata"]["name"] == "llama-predictor"
        assert objects[kind]["metadata"]["namespace"] == "team-a"
        assert objects[kind]["metadata"]["labels"] == PREDICTOR_LABELS
    assert objects["Ingress"]["metadata"]["name"] == "llama"


def test_annotations_are_filtered_and_normalised(hf_isvc: str) -> None:
    objects, _ = render(hf_isvc)
    # RawDeployment becomes Standard; modelFormat (added by the defaulter) is disallowed on children;
    # the source URI annotation is what the pod webhook reads; the runtime's pod annotations come along.
    expected = {"serving.kserve.io/deploymentMode": "Standard",
                "internal.serving.kserve.io/storage-initializer-sourceuri": "hf://meta-llama/Llama-3.1-8B-Instruct",
                "prometheus.kserve.io/port": "8080", "prometheus.kserve.io/path": "/metrics"}
    assert objects["Deployment"]["metadata"]["annotations"] == expected
    assert objects["Deployment"]["spec"]["template"]["metadata"]["annotations"] == expected
    # The Ingress carries the InferenceService's own annotations, unfiltered.
    assert objects["Ingress"]["metadata"]["annotations"] == {"serving.kserve.io/deploymentMode": "Standard",
                                                             "modelFormat": "huggingface"}


def test_selectors_match_the_pod_labels(hf_isvc: str) -> None:
    objects, _ = render(hf_isvc)
    template = objects["Deployment"]["spec"]["template"]
    assert objects["Deployment"]["spec"]["selector"] == {"matchLabels": {"app": "isvc.llama-predictor"}}
    assert objects["Service"]["spec"]["selector"] == {"app": "isvc.llama-predictor"}
    assert template["metadata"]["labels"] == PREDICTOR_LABELS
    assert template["metadata"]["name"] == "llama-predictor"


def test_hugging_face_container(hf_isvc: str) -> None:
    objects, _ = render(hf_isvc)
    pod = objects["Deployment"]["spec"]["template"]["spec"]
    [container] = pod["containers"]
    assert container["name"] == "kserve-container"
    assert container["image"] == "kserve/huggingfaceserver:latest"  # no GPU limit: no -gpu tag
    assert container["args"] == ["--model_name=llama", "--backend=vllm"]
    assert container["env"] == [{"name": "LMCACHE_USE_EXPERIMENTAL", "value": "True"},
                                {"name": "INFERENCE_SERVICE_NAME", "value": "llama"}]
    assert container["resources"] == {"requests": {"cpu": "1", "memory": "2Gi"}, "limits": {"cpu": "1", "memory": "2Gi"}}
    assert container["volumeMounts"] == [{"name": "devshm", "mountPath": "/dev/shm"},
                                         {"name": "kserve-provision-location", "readOnly": True, "mountPath": "/mnt/models"}]
    assert [v["name"] for v in pod["volumes"]] == ["devshm", "kserve-provision-location"]
    [init] = pod["initContainers"]
    assert init["args"] == ["hf://meta-llama/Llama-3.1-8B-Instruct", "/mnt/models"]
    assert "hostIPC" not in pod  # MergePodSpec does not copy the runtime's hostIPC


def test_gpu_limit_selects_the_gpu_image(hf_isvc: str) -> None:
    text = hf_isvc.replace("args: [--backend=vllm]", "resources: {limits: {nvidia.com/gpu: 1}}")
    objects, _ = render(text)
    container = objects["Deployment"]["spec"]["template"]["spec"]["containers"][0]
    assert container["image"] == "kserve/huggingfaceserver:latest-gpu"
    assert container["resources"]["limits"] == {"cpu": "1", "memory": "2Gi", "nvidia.com/gpu": "1"}


def test_ingress_hosts(hf_isvc: str) -> None:
    objects, _ = render(hf_isvc)
    rules = objects["Ingress"]["spec"]["rules"]
    assert objects["Ingress"]["spec"]["ingressClassName"] == "istio"
    assert [r["host"] for r in rules] == ["llama-team-a.example.com", "llama-predictor-team-a.example.com"]
    for rule in rules:
        assert rule["http"]["paths"] == [{"path": "/", "pathType": "Prefix", "backend": {
            "service": {"name": "llama-predictor", "port": {"number": 80}}}}]


def test_cluster_local_has_no_ingress(hf_isvc: str) -> None:
    text = hf_isvc.replace("  annotations:", "  labels: {networking.kserve.io/visibility: cluster-local}\n          annotations:")
    objects, _ = render(text)
    assert "Ingress" not in objects


def test_gateway_api_is_a_finding(hf_isvc: str) -> None:
    config = IsvcConfig(ingress=IsvcConfig().ingress.__class__(enable_gateway_api=True))
    objects, notes = render(hf_isvc, config)
    assert "Ingress" not in objects
    assert [n.code for n in notes if n.code == "LLMC403"] == ["LLMC403"]


@pytest.mark.parametrize(("autoscaler", "kinds", "replicas"), [
    ("none", ["Deployment", "Ingress", "Service"], 2),
    ("external", ["Deployment", "Ingress", "Service"], None),
    ("hpa", ["Deployment", "HorizontalPodAutoscaler", "Ingress", "Service"], None),
])
def test_autoscaler_class(hf_isvc: str, autoscaler: str, kinds: list[str], replicas: int | None) -> None:
    text = hf_isvc.replace("RawDeployment", f"RawDeployment\n            serving.kserve.io/autoscalerClass: {autoscaler}")
    text = text.replace("    model:", "    minReplicas: 2\n            maxReplicas: 4\n            model:")
    objects, _ = render(text)
    assert sorted(objects) == kinds
    assert objects["Deployment"]["spec"].get("replicas") == replicas


def test_knative_mode_is_refused(hf_isvc: str) -> None:
    text = hf_isvc.replace("RawDeployment", "Serverless")
    with pytest.raises(ErrorList) as info:
        render(text)
    [err] = info.value.errors
    assert "Standard (RawDeployment) mode only" in err.message and "Knative" in err.message
    assert err.location.line == 8  # the annotation (the text starts with an empty line)


def test_default_mode_comes_from_the_configmap(hf_isvc: str) -> None:
    text = hf_isvc.replace("annotations:\n            serving.kserve.io/deploymentMode: RawDeployment", "labels: {}")
    with pytest.raises(ErrorList, match="Knative"):
        render(text)  # KServe ships defaultDeploymentMode Serverless
    objects, _ = render(text, STANDARD)
    # DefaultInferenceService writes the Standard default into the annotations.
    assert objects["Deployment"]["metadata"]["annotations"]["serving.kserve.io/deploymentMode"] == "Standard"


def test_stopped_service_has_no_objects(hf_isvc: str) -> None:
    text = hf_isvc.replace("RawDeployment", 'RawDeployment\n            serving.kserve.io/stop: "True"')
    objects, notes = render(text)
    assert objects == {} and [n.code for n in notes] == ["LLMC405"]


def test_explicit_runtime_from_the_input(hf_isvc: str) -> None:
    text = hf_isvc.replace("name: huggingface", "name: huggingface\n              runtime: my-hf") + """
        ---
        apiVersion: serving.kserve.io/v1alpha1
        kind: ServingRuntime
        metadata: {name: my-hf, namespace: team-a, annotations: {serving.kserve.io/server-type: huggingfaceserver}}
        spec:
          supportedModelFormats: [{name: huggingface, version: "1"}]
          labels: {team: a}
          containers:
            - name: kserve-container
              image: registry.local/hf:2.0
              args: ["--model_name={{.Name}}-x"]
              ports: [{containerPort: 9000, name: http1}]
    """
    objects, _ = render(text)
    container = objects["Deployment"]["spec"]["template"]["spec"]["containers"][0]
    assert (container["image"], container["args"][0]) == ("registry.local/hf:2.0", "--model_name=llama-x")
    assert objects["Deployment"]["metadata"]["labels"]["team"] == "a"  # ServingRuntimePodSpec.Labels
    assert objects["Service"]["spec"]["ports"] == [{"name": "http1", "protocol": "TCP", "port": 80, "targetPort": 9000}]
    assert container["readinessProbe"]["tcpSocket"] == {"port": 9000}


def test_input_runtime_replaces_the_builtin_of_the_same_name(hf_isvc: str) -> None:
    text = hf_isvc + """
        ---
        apiVersion: serving.kserve.io/v1alpha1
        kind: ClusterServingRuntime
        metadata: {name: kserve-huggingfaceserver}
        spec:
          supportedModelFormats: [{name: huggingface, version: "1", autoSelect: true}]
          containers: [{name: kserve-container, image: mirror.local/hf:1.0}]
    """
    objects, _ = render(text)
    assert objects["Deployment"]["spec"]["template"]["spec"]["containers"][0]["image"] == "mirror.local/hf:1.0"


def test_format_without_runtime_is_the_controllers_error(hf_isvc: str) -> None:
    with pytest.raises(ErrorList) as info:
        render(hf_isvc.replace("name: huggingface", "name: onnx"))
    assert info.value.errors[0].message == "no runtime found to support predictor with model type: {onnx <nil>}"
    assert info.value.errors[0].location.file == "input.yaml"


@pytest.mark.parametrize(("change", "message"), [
    (("name: llama", "name: Llama"), "a InferenceService name must consist of lower case alphanumeric characters"),
    (("RawDeployment", "RawDeployment\n            serving.kserve.io/autoscalerClass: kpa"),
     "[kpa] is not a supported autoscaler class type"),
    (("args: [--backend=vllm]", "env: [{name: PYTHONPATH, value: /x}]"),
     'setting PYTHONPATH in container "" is not allowed for security reasons'),
    (("    model:", "    minReplicas: 3\n            maxReplicas: 2\n            model:"),
     "'MinReplicas' cannot be greater than MaxReplicas"),
    (("storageUri: hf://", "storageUri: ftp://"), "StorageURI not supported: storageUri, must be one of:"),
    (("  predictor:", "  transformer: {containers: [{name: t, image: t}]}\n          predictor:"),
     "llmc does not render a transformer"),
    (("storageUri: hf://meta-llama/Llama-3.1-8B-Instruct", "storageUri: oci://registry/model:1"),
     "llmc does not render OCI model images"),
])
def test_refused_inputs(hf_isvc: str, change: tuple[str, str], message: str) -> None:
    with pytest.raises(ErrorList) as info:
        render(hf_isvc.replace(*change))
    assert message in info.value.errors[0].message


def test_names_over_63_characters_are_refused(hf_isvc: str) -> None:
    long = "a" * 54
    with pytest.raises(ErrorList, match="must be no more than 63 characters"):
        render(hf_isvc.replace("name: llama", f"name: {long}"))


def test_owner_references(hf_isvc: str) -> None:
    text = hf_isvc.replace("namespace: team-a", "namespace: team-a\n          uid: \"1234\"")
    objects, _ = render(text, options=RenderOptions(owner_references=True))
    ref = {"apiVersion": "serving.kserve.io/v1beta1", "kind": "InferenceService", "name": "llama", "uid": "1234",
           "controller": True, "blockOwnerDeletion": True}
    for obj in objects.values():
        assert obj["metadata"]["ownerReferences"] == [ref]
    assert "ownerReferences" not in objects["Deployment"]["spec"]["template"]["metadata"]
    with pytest.raises(ErrorList) as info:
        render(hf_isvc, options=RenderOptions(owner_references=True))
    assert "--owner-references needs metadata.uid" in info.value.errors[0].message
    assert info.value.errors[0].exit_code == 2


def test_notes_for_the_webhooks_work(hf_isvc: str) -> None:
    text = hf_isvc.replace("    model:", "    serviceAccountName: models-sa\n            model:")
    _, notes = render(text)
    assert [n.code for n in notes] == ["LLMC401", "LLMC402"]
    assert notes[0].service == "team-a/llama"


def test_every_error_of_every_document_is_reported(hf_isvc: str) -> None:
    bad = hf_isvc.replace("name: llama", "name: Bad_Name")
    with pytest.raises(ErrorList) as info:
        compile(docs(bad + "---" + hf_isvc.replace("name: huggingface", "name: nothing")), builtin_runtimes())
    assert len(info.value.errors) == 2


def test_duplicate_services_are_refused(hf_isvc: str) -> None:
    with pytest.raises(ErrorList, match="defined twice"):
        compile(docs(hf_isvc + "---" + hf_isvc), builtin_runtimes())


def test_output_is_valid_kubernetes(hf_isvc: str) -> None:
    from llmc.check.api_rules import validate_objects

    objects, _ = compile(docs(hf_isvc), builtin_runtimes())
    assert validate_objects(objects, "1.34") == []


def test_unknown_kinds_are_refused() -> None:
    with pytest.raises(ErrorList, match="does not read Pod objects"):
        compile(docs("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"), [])


def test_builtin_hugging_face_runtime_facts() -> None:
    # config/runtimes/kserve-huggingfaceserver.yaml, image from config/runtimes/kustomization.yaml
    # (huggingfaceserver -> kserve/huggingfaceserver:latest).
    [rt] = [d.obj for d in builtin_runtimes() if d.kind == "ClusterServingRuntime"]
    assert rt["metadata"] == {"name": "kserve-huggingfaceserver",
                              "annotations": {"serving.kserve.io/server-type": "huggingfaceserver"}}
    spec = rt["spec"]
    assert spec["supportedModelFormats"] == [{"name": "huggingface", "version": "1", "autoSelect": True, "priority": 1}]
    assert spec["protocolVersions"] == ["v2", "v1"]
    assert spec["annotations"] == {"prometheus.kserve.io/port": "8080", "prometheus.kserve.io/path": "/metrics"}
    assert spec["volumes"] == [{"name": "devshm", "emptyDir": {"medium": "Memory"}}]
    assert spec["hostIPC"] is False
    [c] = spec["containers"]
    assert (c["name"], c["image"], c["args"]) == ("kserve-container", "kserve/huggingfaceserver:latest",
                                                  ["--model_name={{.Name}}"])
    assert c["env"] == [{"name": "LMCACHE_USE_EXPERIMENTAL", "value": "True"}]
    assert c["resources"] == {"requests": {"cpu": "1", "memory": "2Gi"}, "limits": {"cpu": "1", "memory": "2Gi"}}
    assert c["volumeMounts"] == [{"name": "devshm", "mountPath": "/dev/shm"}]
    assert c["securityContext"] == {"allowPrivilegeEscalation": False, "privileged": False, "runAsNonRoot": True,
                                    "capabilities": {"drop": ["ALL"]}}


def test_legacy_huggingface_predictor(hf_isvc: str) -> None:
    # assignHuggingFaceRuntime: spec.predictor.huggingface becomes model {modelFormat: huggingface}, protocol v2.
    text = hf_isvc.replace("model:\n              modelFormat:\n                name: huggingface\n", "huggingface:\n")
    objects, _ = render(text)
    assert objects["Deployment"]["spec"]["template"]["spec"]["containers"][0]["args"] == [
        "--model_name=llama", "--backend=vllm"]


def test_model_name_field_is_refused(hf_isvc: str) -> None:
    with pytest.raises(ErrorList, match="the 'name' field is not allowed in standard predictor"):
        render(hf_isvc.replace("storageUri:", "name: x\n              storageUri:"))


def test_error_is_located(hf_isvc: str) -> None:
    with pytest.raises(ErrorList) as info:
        render(hf_isvc.replace("storageUri: hf://", "storageUri: ftp://"))
    err: LlmcError = info.value.errors[0]
    assert (err.location.file, err.location.line, err.location.path) == ("input.yaml", 14, "spec.predictor.model.storageUri")


def test_security_config_disables_token_automount(hf_isvc: str) -> None:
    # DefaultInferenceService: autoMountServiceAccountToken false sets the predictor's field to false (a *bool).
    objects, _ = render(hf_isvc, IsvcConfig(automount_service_account_token=False))
    assert objects["Deployment"]["spec"]["template"]["spec"]["automountServiceAccountToken"] is False
    objects, _ = render(hf_isvc)
    assert "automountServiceAccountToken" not in objects["Deployment"]["spec"]["template"]["spec"]


def test_domain_template_and_ingress_class_from_the_configmap(hf_isvc: str) -> None:
    # GenerateDomainName executes the ConfigMap's domainTemplate; TestGenerateDomainName-style values.
    ingress = IsvcConfig().ingress.__class__(ingress_class_name="nginx", ingress_domain="models.example.com",
                                             domain_template="{{ .Name }}.{{ .Namespace }}.{{ .IngressDomain }}")
    objects, _ = render(hf_isvc, IsvcConfig(ingress=ingress))
    spec = objects["Ingress"]["spec"]
    assert spec["ingressClassName"] == "nginx"
    assert [r["host"] for r in spec["rules"]] == ["llama.team-a.models.example.com", "llama-predictor.team-a.models.example.com"]


def test_invalid_domain_is_an_error(hf_isvc: str) -> None:
    ingress = IsvcConfig().ingress.__class__(domain_template="{{ .Name }}_{{ .Namespace }}")
    with pytest.raises(ErrorList, match='failed creating host name: invalid domain name "llama_team-a"'):
        render(hf_isvc, IsvcConfig(ingress=ingress))


def test_cluster_storage_container_image_wins_over_the_configmap(hf_isvc: str) -> None:
    # CommonStorageInitialization merges the matching ClusterStorageContainer's container over the init
    # container built from the ConfigMap, so the built-in `default` container's image and resources win.
    from llmc.isvc.config import StorageInitializerConfig

    config = IsvcConfig(storage_initializer=StorageInitializerConfig(image="mirror/storage-initializer:v1"))
    objects, _ = render(hf_isvc, config)
    assert objects["Deployment"]["spec"]["template"]["spec"]["initContainers"][0]["image"] == \
        "kserve/storage-initializer:latest"
    without_csc = [d for d in builtin_runtimes() if d.kind != "ClusterStorageContainer"]
    objects, _ = render(hf_isvc, config, runtimes=without_csc)
    assert objects["Deployment"]["spec"]["template"]["spec"]["initContainers"][0]["image"] == \
        "mirror/storage-initializer:v1"


def test_output_order_is_independent_of_input_order(hf_isvc: str) -> None:
    other = hf_isvc.replace("name: llama", "name: alpha")
    first, _ = compile(docs(hf_isvc + "---" + other), builtin_runtimes())
    second, _ = compile(docs(other + "---" + hf_isvc), builtin_runtimes())
    assert first == second
    assert [(o["kind"], o["metadata"]["name"]) for o in first][:2] == [("Service", "alpha-predictor"),
                                                                      ("Deployment", "alpha-predictor")]
