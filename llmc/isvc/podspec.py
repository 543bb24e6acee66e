"""The predictor's pod spec: runtime and InferenceService merged as `buildPodSpec` does it.

Facts from components/predictor.go `buildPodSpec` and utils.go
`MergeServingRuntimeAndInferenceServiceSpecs`, `MergeRuntimeContainers`, `MergePodSpec`,
`ReplacePlaceholders`, `UpdateImageTag`, `AddEnvVarToPodSpec`:

1. the runtime's `kserve-container` is strategic-merged with the predictor's model
   container (the model's container fields); args are concatenated, runtime first;
2. the runtime's pod fields that MergePodSpec copies (nodeSelector, affinity,
   tolerations, volumes, imagePullSecrets, schedulerName, resourceClaims) are
   strategic-merged with the predictor's pod spec;
3. `{{...}}` placeholders are executed on the InferenceService's metadata;
4. the image tag follows `runtimeVersion`, else gets `-gpu` for GPU containers of
   TF Serving / TorchServe / Hugging Face runtimes (vLLM runtimes get a `-cpu` image);
5. containers: the merged one, a `transformer-container` (runtime and predictor
   merged), the runtime's other containers, then the predictor's other containers;
6. every container gets `INFERENCE_SERVICE_NAME`.
"""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, Any

from llmc.core.errors import LlmcError
from llmc.isvc.placeholders import replace_placeholders
from llmc.isvc.smp import merge_pod_spec, omit_empty
from llmc.kserve.spec import find_container
from llmc.render.storage import merge_container

if TYPE_CHECKING:
    from llmc.isvc.runtimes import Runtime

KSERVE_CONTAINER = "kserve-container"
TRANSFORMER_CONTAINER = "transformer-container"
WORKER_CONTAINER = "worker-container"
ISVC_NAME_ENV = "INFERENCE_SERVICE_NAME"

# corev1.Container's JSON fields in Go's order: the part of `spec.predictor.model` that is a container.
CONTAINER_FIELDS = (
    "name", "image", "command", "args", "workingDir", "ports", "envFrom", "env", "resources",
    "resizePolicy", "restartPolicy", "restartPolicyRules", "volumeMounts", "volumeDevices",
    "livenessProbe", "readinessProbe", "startupProbe", "lifecycle", "terminationMessagePath",
    "terminationMessagePolicy", "imagePullPolicy", "securityContext", "stdin", "stdinOnce", "tty",
)
# corev1.PodSpec's JSON fields in Go's order (v1beta1.PodSpec has the same): the part of
# `spec.predictor` that is a pod spec.
POD_SPEC_FIELDS = (
    "volumes", "initContainers", "containers", "ephemeralContainers", "restartPolicy",
    "terminationGracePeriodSeconds", "activeDeadlineSeconds", "dnsPolicy", "nodeSelector",
    "serviceAccountName", "serviceAccount", "automountServiceAccountToken", "nodeName", "hostNetwork",
    "hostPID", "hostIPC", "shareProcessNamespace", "securityContext", "imagePullSecrets", "hostname",
    "subdomain", "affinity", "schedulerName", "tolerations", "hostAliases", "priorityClassName",
    "priority", "dnsConfig", "readinessGates", "runtimeClassName", "enableServiceLinks",
    "preemptionPolicy", "overhead", "topologySpreadConstraints", "setHostnameAsFQDN", "os",
    "hostUsers", "schedulingGates", "resourceClaims", "resources", "hostnameOverride",
)
# The runtime pod fields MergePodSpec starts from.
_RUNTIME_POD_FIELDS = ("nodeSelector", "affinity", "tolerations", "volumes", "imagePullSecrets",
                       "schedulerName", "resourceClaims")

_TAG = re.compile(r"(:([\w.\-_]*))\Z", re.ASCII)  # Go RE2: ASCII \w, $ only at the very end
_GPU_SUFFIX_TYPES = ("tensorflow-serving", "torchserve", "huggingfaceserver")


def default_port_protocols(containers: list[Any]) -> None:
    """The CRD default KServe's CRDs carry for container ports: `protocol: TCP` (in place)."""
    for container in containers:
        if isinstance(container, dict):
            for port in container.get("ports") or []:
                if isinstance(port, dict) and "protocol" not in port:
                    port["protocol"] = "TCP"


def model_container(model: dict[str, Any]) -> dict[str, Any]:
    """The container fields of `spec.predictor.model` (PredictorExtensionSpec's inline corev1.Container)."""
    return {k: v for k, v in model.items() if k in CONTAINER_FIELDS}


def predictor_pod_spec(predictor: dict[str, Any]) -> dict[str, Any]:
    """The pod spec fields of `spec.predictor` (PredictorSpec's inline v1beta1.PodSpec)."""
    return {k: v for k, v in predictor.items() if k in POD_SPEC_FIELDS}


def merge_runtime_container(runtime: dict[str, Any], isvc: dict[str, Any]) -> dict[str, Any]:
    """MergeRuntimeContainers: MergeContainerWithPatch, then args concatenated (runtime + isvc)."""
    merged = merge_container(runtime, omit_empty(isvc))
    args = list(runtime.get("args") or []) + list(isvc.get("args") or [])
    merged.pop("args", None)
    if args:
        merged["args"] = args
    return merged


def build_pod_spec(isvc: dict[str, Any], runtime: Runtime) -> dict[str, Any]:
    """The pod spec the predictor reconciler hands to the raw reconcilers (before their defaults)."""
    predictor = isvc["spec"]["predictor"]
    model = predictor["model"]
    sr_containers = runtime.spec.get("containers") or []
    base = find_container(sr_containers, KSERVE_CONTAINER)
    if base is None:
        raise LlmcError(f"failed to find {KSERVE_CONTAINER} in ServingRuntime containers")
    merged = merge_runtime_container(base, model_container(model))
    pod = merge_pod_spec({k: runtime.spec[k] for k in _RUNTIME_POD_FIELDS if runtime.spec.get(k)},
                         predictor_pod_spec(predictor))

    merged = _placeholders(merged, isvc, runtime)
    update_image_tag(merged, model.get("runtimeVersion"), runtime)
    containers = [merged]

    own = predictor.get("containers") or []
    sr_transformer, isvc_transformer = find_container(sr_containers, TRANSFORMER_CONTAINER), find_container(own, TRANSFORMER_CONTAINER)
    if sr_transformer is not None and isvc_transformer is not None:
        transformer = merge_runtime_container(sr_transformer, isvc_transformer)
    else:
        transformer = copy.deepcopy(sr_transformer or isvc_transformer)
    if transformer is not None:
        containers.append(_placeholders(transformer, isvc, runtime))
    containers += [copy.deepcopy(c) for c in sr_containers if c.get("name") not in (KSERVE_CONTAINER, TRANSFORMER_CONTAINER)]
    containers += [copy.deepcopy(c) for c in own if c.get("name") != TRANSFORMER_CONTAINER]
    pod["containers"] = containers
    for container in containers:
        add_env(container, ISVC_NAME_ENV, isvc["metadata"]["name"])
    return pod


def _placeholders(container: dict[str, Any], isvc: dict[str, Any], runtime: Runtime) -> dict[str, Any]:
    try:
        return replace_placeholders(container, isvc["metadata"])
    except LlmcError as err:
        raise LlmcError(
            f"failed to replace placeholders in serving runtime {runtime.name} Container {container.get('name', '')}: {err.message}",
            hint="runtime placeholders are Go html/template actions on the InferenceService's metadata, e.g. {{.Name}}",
        ) from None


def add_env(container: dict[str, Any], name: str, value: str) -> None:
    """AddEnvVarToPodSpec for one container: overwrite the value of an existing entry, else append."""
    env = container.setdefault("env", [])
    for entry in env:
        if entry.get("name") == name:
            entry["value"] = value
            return
    env.append({"name": name, "value": value})


def gpu_enabled(container: dict[str, Any]) -> bool:
    """utils.IsGPUEnabled: an `nvidia.com/gpu` limit or any `nvidia.com/mig*` limit."""
    limits = (container.get("resources") or {}).get("limits") or {}
    return any(k == "nvidia.com/gpu" or k.startswith("nvidia.com/mig") for k in limits)


def update_image_tag(container: dict[str, Any], runtime_version: str | None, runtime: Runtime) -> None:
    """UpdateImageTag: `runtimeVersion` replaces or adds the tag; else GPU/CPU image variants by server type."""
    image = str(container.get("image", ""))
    if "@sha256:" in image:
        return
    if runtime_version is not None:
        match = _TAG.search(image)
        container["image"] = image[: match.start()] + ":" + runtime_version if match else image + ":" + runtime_version
        return
    server_type = runtime.server_type()
    match = _TAG.search(image)
    if not server_type or match is None:
        return
    without_tag, tag = image[: match.start()], match.group(0)
    if gpu_enabled(container):
        if server_type in _GPU_SUFFIX_TYPES and not image.endswith("-gpu"):
            container["image"] = image + "-gpu"
    elif server_type == "vllmserver" and not without_tag.endswith("-cpu"):
        container["image"] = without_tag + "-cpu" + tag
