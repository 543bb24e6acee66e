"""An InferenceService as the API server stores it: KServe's defaulting and validating webhooks.

Facts from pkg/apis/serving/v1beta1 `DefaultInferenceService` (inference_service_defaults.go)
and `validateInferenceService` (inference_service_validation.go), limited to what a
single-predictor InferenceService in Standard mode uses. Errors are the webhooks'
messages; what llmc does not render is refused here with a clear message.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from llmc.core.errors import LlmcError, Location
from llmc.load.documents import format_path
from llmc.isvc.config import LEGACY_MODES, MODELMESH, STANDARD, IsvcConfig
from llmc.isvc.podspec import KSERVE_CONTAINER, default_port_protocols
from llmc.isvc.storage import is_oci

DEPLOYMENT_MODE = "serving.kserve.io/deploymentMode"
AUTOSCALER_CLASS = "serving.kserve.io/autoscalerClass"
STOP_ANNOTATION = "serving.kserve.io/stop"
MODEL_FORMAT_ANNOTATION = "modelFormat"
AUTOSCALER_CLASSES = ("hpa", "external", "keda", "none")  # constants.AutoscalerAllowedClassList
BLOCKED_ENV = ("PYTHONPATH",)  # validation.DefaultBlockedEnvVars
NAME_FORMAT = "[a-z]([-a-z0-9]*[a-z0-9])?"  # v1beta1.IsvcNameFmt
_NAME = re.compile(NAME_FORMAT)

# PredictorSpec's framework fields, their model format, and whether they default to protocol v2.
FRAMEWORKS = {
    "sklearn": ("sklearn", False), "tensorflow": ("tensorflow", False), "xgboost": ("xgboost", False),
    "pytorch": ("pytorch", False), "triton": ("triton", True), "onnx": ("onnx", True),
    "huggingface": ("huggingface", True), "pmml": ("pmml", False), "lightgbm": ("lightgbm", False),
    "paddle": ("paddle", False),
}
# ExactlyOneErrorFor(&PredictorSpec): every field name of PredictorSpec but the last.
_EXACTLY_ONE = ("exactly one of [Name, SKLearn, XGBoost, Tensorflow, PyTorch, Triton, ONNX, HuggingFace, PMML, "
                "LightGBM, Paddle, Model, StorageUris, StorageContainerName, WorkerSpec, PodSpec] must be specified "
                "in PredictorSpec")
_LOCAL_MODEL_LABELS = ("internal.serving.kserve.io/localmodel", "internal.serving.kserve.io/localmodel-namespace")
_LOCAL_MODEL_ANNOTATIONS = ("internal.serving.kserve.io/localmodel-sourceuri",
                            "internal.serving.kserve.io/localmodel-pvc-name")
# Features whose objects or pod changes llmc does not render: field path -> what it is.
_UNSUPPORTED = {
    ("spec", "transformer"): "a transformer",
    ("spec", "explainer"): "an explainer",
    ("spec", "canary"): "canary predictors",
    ("spec", "predictor", "workerSpec"): "multi-node predictors (workerSpec)",
    ("spec", "predictor", "storageUris"): "several storage URIs (storageUris)",
    ("spec", "predictor", "logger"): "the request logger (agent sidecar)",
    ("spec", "predictor", "batcher"): "the batcher (agent sidecar)",
    ("spec", "predictor", "model", "storage"): "storage specs (spec.predictor.model.storage)",
    ("spec", "predictor", "model", "confidential"): "confidential model serving",
}


def fail(message: str, *path: str | int, hint: str | None = None) -> LlmcError:
    """An error at a field path of the InferenceService (the caller's document locates it)."""
    return LlmcError(message, Location(path=format_path(path)), hint=hint)


def default_isvc(obj: dict[str, Any], namespace: str, config: IsvcConfig) -> dict[str, Any]:
    """DefaultInferenceService for the predictor: deployment mode, model spec, modelFormat annotation,
    local model labels, automountServiceAccountToken. Returns a new object."""
    isvc = copy.deepcopy(obj)
    meta = isvc["metadata"] = isvc.get("metadata") or {}
    if not isinstance(meta.get("name"), str) or not meta["name"]:
        raise fail("metadata.name: Required value", "metadata")
    meta["namespace"] = meta.get("namespace") or namespace
    spec = isvc.get("spec")
    if not isinstance(spec, dict) or not isinstance(spec.get("predictor"), dict):
        raise fail("spec.predictor: Required value", "spec")
    annotations = meta.get("annotations")
    if annotations is not None and not isinstance(annotations, dict):
        raise fail("metadata.annotations must be a map of strings", "metadata", "annotations")
    annotations = meta["annotations"] = annotations or {}
    mode = annotations.get(DEPLOYMENT_MODE)
    if mode is not None:
        annotations[DEPLOYMENT_MODE] = mode = LEGACY_MODES.get(mode, mode)
    elif config.default_deployment_mode in (MODELMESH, STANDARD):
        annotations[DEPLOYMENT_MODE] = mode = config.default_deployment_mode
    predictor = spec["predictor"]
    if mode != MODELMESH:
        _model_defaults(predictor, annotations)
    default_port_protocols([predictor.get("model"), *(predictor.get("containers") or []),
                            *(predictor.get("initContainers") or [])])
    _drop_local_model(meta, predictor)
    if not config.automount_service_account_token:
        predictor.setdefault("automountServiceAccountToken", False)
    if not annotations:
        del meta["annotations"]
    return isvc


def _model_defaults(predictor: dict[str, Any], annotations: dict[str, str]) -> None:
    """setPredictorModelDefaults: a framework spec becomes `model`; protocol v2 for triton/vLLM; modelFormat annotation."""
    for key, (fmt, v2) in FRAMEWORKS.items():
        if predictor.get(key) is not None:
            framework = dict(predictor.pop(key))
            if v2 and framework.get("protocolVersion") is None:
                framework["protocolVersion"] = "v2"
            predictor["model"] = {"modelFormat": {"name": fmt}, **framework}
            break
    model = predictor.get("model")
    if not isinstance(model, dict):
        return
    fmt = (model.get("modelFormat") or {}).get("name", "")
    if model.get("protocolVersion") is None and fmt in ("triton", "vLLM"):
        model["protocolVersion"] = "v2"
    if fmt:
        annotations.setdefault(MODEL_FORMAT_ANNOTATION, fmt)


def _drop_local_model(meta: dict[str, Any], predictor: dict[str, Any]) -> None:
    """setLocalModelLabel with no local model caches (llmc knows none): the cache labels are removed."""
    model = predictor.get("model")
    if not isinstance(model, dict) or model.get("storageUri") is None:
        return
    for key in _LOCAL_MODEL_LABELS:
        (meta.get("labels") or {}).pop(key, None)
    for key in _LOCAL_MODEL_ANNOTATIONS:
        (meta.get("annotations") or {}).pop(key, None)


def deployment_mode(isvc: dict[str, Any], config: IsvcConfig) -> str:
    """isvcutils.GetDeploymentMode for a new object: a known annotation value, else the ConfigMap's default."""
    mode = (isvc["metadata"].get("annotations") or {}).get(DEPLOYMENT_MODE)
    mode = LEGACY_MODES.get(mode, mode) if mode is not None else None
    return mode if mode in ("Standard", "Knative", MODELMESH) else config.default_deployment_mode


def require_standard(isvc: dict[str, Any], config: IsvcConfig) -> None:
    """llmc renders Standard (RawDeployment) mode only: Knative services and ModelMesh are refused."""
    mode = deployment_mode(isvc, config)
    if mode == STANDARD:
        return
    annotated = DEPLOYMENT_MODE in (isvc["metadata"].get("annotations") or {})
    source = "its annotation" if annotated else "the default deployment mode of the inferenceservice-config"
    path = ("metadata", "annotations", DEPLOYMENT_MODE) if annotated else ("metadata",)
    raise fail(
        f"llmc renders InferenceServices in Standard (RawDeployment) mode only; this one is in {mode or 'Knative'} mode "
        f"({source})",
        *path,
        hint=f"set the annotation {DEPLOYMENT_MODE}: Standard (or RawDeployment), or pass --kserve-config with "
             'deploy {"defaultDeploymentMode": "Standard"}',
    )


def validate_isvc(isvc: dict[str, Any]) -> None:
    """validateInferenceService for the predictor, then the features llmc does not render."""
    meta = isvc["metadata"]
    name = meta["name"]
    if not _NAME.fullmatch(name):
        raise fail(
            f'the InferenceService "{name}" is invalid: a InferenceService name must consist of lower case alphanumeric '
            "characters or '-', and must start with alphabetical character. (e.g. \"my-name\" or \"abc-123\", "
            f"regex used for validation is '{NAME_FORMAT}')", "metadata", "name")
    annotations = meta.get("annotations") or {}
    if AUTOSCALER_CLASS in annotations and annotations[AUTOSCALER_CLASS] not in AUTOSCALER_CLASSES:
        raise fail(f"[{annotations[AUTOSCALER_CLASS]}] is not a supported autoscaler class type",
                   "metadata", "annotations", AUTOSCALER_CLASS)
    predictor = isvc["spec"]["predictor"]
    _blocked_env(name, predictor)
    model = predictor.get("model")
    if isinstance(model, dict) and model.get("name"):
        raise fail("the 'name' field is not allowed in standard predictor", "spec", "predictor", "model", "name")
    implementations = int(isinstance(model, dict)) + sum(
        1 for c in predictor.get("containers") or [] if isinstance(c, dict) and c.get("name") == KSERVE_CONTAINER)
    if implementations == 0 and predictor.get("containers"):
        implementations = 1
    if implementations != 1:
        raise fail(_EXACTLY_ONE, "spec", "predictor")
    _replicas(predictor)
    if annotations.get(DEPLOYMENT_MODE) == STANDARD and annotations.get(AUTOSCALER_CLASS) == "hpa":
        _hpa_settings(predictor)
    _unsupported(isvc, annotations)


def _blocked_env(name: str, predictor: dict[str, Any]) -> None:
    lists = [("containers",), ("initContainers",)]
    for path in lists:
        for i, container in enumerate(predictor.get(path[0]) or []):
            _check_env(name, container, ("spec", "predictor", path[0], i))
    if isinstance(predictor.get("model"), dict):
        _check_env(name, predictor["model"], ("spec", "predictor", "model"))


def _check_env(name: str, container: dict[str, Any], path: tuple[str | int, ...]) -> None:
    for j, env in enumerate(container.get("env") or []):
        if isinstance(env, dict) and env.get("name") in BLOCKED_ENV:
            raise fail(f'the InferenceService "{name}" is invalid: setting {env["name"]} in container '
                       f'"{container.get("name", "")}" is not allowed for security reasons', *path, "env", j)


def _replicas(predictor: dict[str, Any]) -> None:
    """ComponentExtensionSpec.Validate: replica bounds."""
    min_replicas = predictor.get("minReplicas", 1)
    max_replicas = predictor.get("maxReplicas", 0)
    for key, value in (("minReplicas", min_replicas), ("maxReplicas", max_replicas)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise fail(f"{key} must be an integer", "spec", "predictor", key)
    if min_replicas < 0:
        raise fail("'MinReplicas' cannot be less than 0", "spec", "predictor", "minReplicas")
    if max_replicas < 0:
        raise fail("'MaxReplicas' cannot be less than 0", "spec", "predictor", "maxReplicas")
    if min_replicas > max_replicas and max_replicas != 0:
        raise fail("'MinReplicas' cannot be greater than MaxReplicas", "spec", "predictor", "minReplicas")


def _hpa_settings(predictor: dict[str, Any]) -> None:
    """validateScalingHPACompExtension."""
    metric = predictor.get("scaleMetric") or "cpu"
    if metric not in ("cpu", "memory"):
        raise fail(f"[{metric}] is not a supported metric", "spec", "predictor", "scaleMetric")
    target = predictor.get("scaleTarget")
    if target is not None:
        if (metric == "cpu" and target < 1) or target > 100:
            raise fail("the target utilization percentage should be a [1-100] integer", "spec", "predictor", "scaleTarget")
        if metric == "memory" and target < 1:
            raise fail("the target memory should be greater than 1 MiB", "spec", "predictor", "scaleTarget")
    for i, metric_spec in enumerate((predictor.get("autoScaling") or {}).get("metrics") or []):
        path = ("spec", "predictor", "autoScaling", "metrics", i)
        if metric_spec.get("type") != "Resource":
            raise fail(f"invalid HPA metric source type with value [{metric_spec.get('type', '')}],"
                       "valid metric source types are Resource", *path, "type")
        if metric_spec.get("resource") is None:
            raise fail("metricSpec.Resource is not set for resource metric source type", *path)


def _unsupported(isvc: dict[str, Any], annotations: dict[str, str]) -> None:
    for path, what in _UNSUPPORTED.items():
        node: Any = isvc
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if node not in (None, [], {}):
            raise fail(f"llmc does not render {what}", *path,
                       hint="llmc renders the predictor of a single-node InferenceService; see docs/inferenceservice.md")
    predictor = isvc["spec"]["predictor"]
    model = predictor.get("model")
    if not isinstance(model, dict):
        raise fail("llmc renders predictors with spec.predictor.model (a runtime), not custom containers",
                   "spec", "predictor", hint="describe the model with spec.predictor.model and a ServingRuntime")
    if annotations.get(AUTOSCALER_CLASS) == "keda":
        raise fail("llmc does not render the KEDA autoscaler of InferenceServices", "metadata", "annotations",
                   AUTOSCALER_CLASS, hint="use the hpa, external or none autoscaler class")
    uri = model.get("storageUri")
    fmt = (model.get("modelFormat") or {}).get("name")
    if uri is None and fmt != "huggingface":
        raise fail("llmc does not render multi-model serving (a predictor without storageUri)",
                   "spec", "predictor", "model", hint="set spec.predictor.model.storageUri")
    if isinstance(uri, str) and is_oci(uri):
        raise fail("llmc does not render OCI model images (modelcars) for InferenceServices",
                   "spec", "predictor", "model", "storageUri", hint="use hf://, s3://, pvc:// or another downloadable URI")


def stopped(isvc: dict[str, Any]) -> bool:
    """GetForceStopRuntime: the stop annotation is "true", in any case."""
    return str((isvc["metadata"].get("annotations") or {}).get(STOP_ANNOTATION, "")).lower() == "true"
