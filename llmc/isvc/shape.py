"""Structural checks for the InferenceService-path objects: the types of the fields llmc reads.

llmc bundles no CRD schema for InferenceService, ServingRuntime or ClusterStorageContainer,
so the API server's type checks are done here for every field the renderer reads, with
its message form (`spec.predictor.minReplicas in body must be of type integer: "string"`).
Fields llmc does not read are passed through untouched.
"""

from __future__ import annotations

from typing import Any

from llmc.core.errors import LlmcError, Location
from llmc.load.documents import format_path
from llmc.k8s.quantity import parse_quantity

Shape = Any  # a type, a dict of field shapes, a one-element list (array of), or one of the markers below
STRINGS = "map of strings"
QUANTITIES = "map of quantities"
QUANTITY = "quantity"
_NAMES = {str: "string", int: "integer", bool: "boolean", dict: "object", list: "array"}

ENV = {"name": str, "value": str, "valueFrom": dict}
CONTAINER: dict[str, Shape] = {
    "name": str, "image": str, "command": [str], "args": [str], "env": [ENV], "envFrom": [dict],
    "ports": [{"name": str, "containerPort": int, "protocol": str}],
    "resources": {"limits": QUANTITIES, "requests": QUANTITIES},
    "volumeMounts": [{"name": str, "mountPath": str, "subPath": str, "readOnly": bool}],
    "readinessProbe": dict, "livenessProbe": dict, "startupProbe": dict, "securityContext": dict,
}
POD: dict[str, Shape] = {
    "containers": [CONTAINER], "initContainers": [CONTAINER], "volumes": [{"name": str}],
    "nodeSelector": STRINGS, "tolerations": [dict], "imagePullSecrets": [{"name": str}], "affinity": dict,
    "serviceAccountName": str, "schedulerName": str, "resourceClaims": [{"name": str}],
    "automountServiceAccountToken": bool,
}
MODEL: dict[str, Shape] = {
    **CONTAINER, "modelFormat": {"name": str, "version": str}, "runtime": str, "storageUri": str,
    "runtimeVersion": str, "protocolVersion": str,
}
INFERENCE_SERVICE: dict[str, Shape] = {
    "metadata": {"name": str, "namespace": str, "uid": str, "labels": STRINGS, "annotations": STRINGS},
    "spec": {"predictor": {
        **POD, "model": MODEL, "huggingface": MODEL, "minReplicas": int, "maxReplicas": int, "scaleTarget": int,
        "scaleMetric": str, "storageContainerName": str, "labels": STRINGS, "annotations": STRINGS,
        "deploymentStrategy": {"type": str, "rollingUpdate": dict},
        "autoScaling": {"metrics": [{"type": str, "resource": {"name": str, "target": {
            "type": str, "averageUtilization": int, "averageValue": QUANTITY}}}]},
        **{framework: MODEL for framework in (
            "sklearn", "xgboost", "tensorflow", "pytorch", "triton", "onnx", "pmml", "lightgbm", "paddle")},
    }},
}
RUNTIME: dict[str, Shape] = {
    "metadata": {"name": str, "namespace": str, "annotations": STRINGS, "creationTimestamp": str},
    "spec": {**POD, "supportedModelFormats": [{"name": str, "version": str, "autoSelect": bool, "priority": int}],
             "protocolVersions": [str], "labels": STRINGS, "annotations": STRINGS, "disabled": bool,
             "multiModel": bool, "workerSpec": dict},
}
STORAGE_CONTAINER: dict[str, Shape] = {
    "metadata": {"name": str},
    "spec": {"container": CONTAINER, "supportedUriFormats": [{"prefix": str, "regex": str}], "workloadType": str},
    "disabled": bool,
}


def check(obj: Any, shape: Shape, path: tuple[str | int, ...] = ()) -> None:
    """Raise a located-by-path LlmcError for the first field of `obj` that does not have its shape."""
    if isinstance(shape, dict):
        _type(obj, dict, path)
        for key, sub in shape.items():
            if obj.get(key) is not None:
                check(obj[key], sub, path + (key,))
    elif isinstance(shape, list):
        _type(obj, list, path)
        for i, item in enumerate(obj):
            check(item, shape[0], path + (i,))
    elif shape == QUANTITY:
        _quantity(obj, path)
    elif shape in (STRINGS, QUANTITIES):
        _type(obj, dict, path)
        for key, value in obj.items():
            if shape == STRINGS:
                _type(value, str, path + (key,))
            else:
                _quantity(value, path + (key,))
    else:
        _type(obj, shape, path)


def _type(value: Any, want: type, path: tuple[str | int, ...]) -> None:
    if type(value) is want:
        return
    actual = "null" if value is None else _NAMES.get(type(value), "number")
    name = format_path(path)
    raise LlmcError(f'{name} in body must be of type {_NAMES[want]}: "{actual}"', Location(path=name),
                    hint="quote the value to write a string" if want is str and actual in ("boolean", "integer", "number") else None)


def _quantity(value: Any, path: tuple[str | int, ...]) -> None:
    name = format_path(path)
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise LlmcError(f"{name}: quantities must be strings or numbers", Location(path=name))
    try:
        parse_quantity(str(value))
    except ValueError as exc:
        raise LlmcError(f'{name}: Invalid value: "{value}": {exc}', Location(path=name)) from None
