"""ServingRuntimes and ClusterServingRuntimes, and the controller's choice among them.

`select_runtime` is the predictor's `reconcileModel` (components/predictor.go): an
explicit `spec.predictor.model.runtime` is looked up with `GetServingRuntime` (the
namespace's ServingRuntime first, then the ClusterServingRuntime of that name) and
checked; otherwise `ModelSpec.GetSupportingRuntimes` lists the runtimes that
auto-select the model format, namespaced ones first, each group ordered by protocol
version, newest creation, name and then (stably) by the format's priority, and the
first wins. Error messages are the controller's.
"""

from __future__ import annotations

import copy
import json
from datetime import datetime
from typing import Any

from llmc.core.errors import LlmcError, Location
from llmc.load.documents import Document
from llmc.core.record import field, record
from llmc.isvc import shape
from llmc.kserve.isvc_kinds import CLUSTER_SERVING_RUNTIME, SERVING_RUNTIME
from llmc.isvc.podspec import default_port_protocols

SERVER_TYPE_ANNOTATION = "serving.kserve.io/server-type"

# constants.ProtocolVersion order (GetProtocolVersionInt); anything else is Unknown.
_PROTOCOL_RANK = {"v1": 1, "v2": 2, "grpc-v1": 3, "grpc-v2": 4}
_UNKNOWN_PROTOCOL = 5

# constants.GetServerTypeFromRuntimeName: the fallback when a runtime has no server-type annotation.
_SERVER_TYPE_BY_NAME = {
    "kserve-mlserver": "mlserver",
    "kserve-torchserve": "torchserve",
    "kserve-tritonserver": "tritonserver",
    "kserve-tensorflow-serving": "tensorflow-serving",
    "kserve-huggingfaceserver": "huggingfaceserver",
    "kserve-vllmserver": "vllmserver",
}


@record(frozen=True)
class Runtime:
    """One ServingRuntime (namespaced) or ClusterServingRuntime, as the controller reads it."""

    name: str
    namespace: str | None  # None for a ClusterServingRuntime
    spec: dict[str, Any]
    annotations: dict[str, str] = field(default_factory=dict)
    created: float = float("-inf")  # creationTimestamp as a POSIX time; absent is Go's zero time
    doc: Document | None = field(default=None, compare=False)

    @property
    def cluster(self) -> bool:
        return self.namespace is None

    @property
    def kind(self) -> str:
        return CLUSTER_SERVING_RUNTIME if self.cluster else SERVING_RUNTIME

    @property
    def disabled(self) -> bool:
        return self.spec.get("disabled") is True

    def server_type(self) -> str:
        """SetRuntimeDefaults/UpdateImageTag: the server-type annotation, else the type of a built-in name."""
        if SERVER_TYPE_ANNOTATION in self.annotations:
            return self.annotations[SERVER_TYPE_ANNOTATION]
        return _SERVER_TYPE_BY_NAME.get(self.name, "")

    def supports_protocol(self, protocol: str) -> bool:
        """IsProtocolVersionSupported: any protocol when the runtime lists none."""
        versions = self.spec.get("protocolVersions") or []
        return not protocol or not versions or protocol in versions

    def supports_model(self, model_format: dict[str, Any], explicit: bool) -> bool:
        """RuntimeSupportsModel: formats count when the runtime was named, or when they auto-select."""
        labels: set[str] = set()
        for fmt in self.spec.get("supportedModelFormats") or []:
            if explicit or fmt.get("autoSelect") is True:
                labels.add("mt:" + str(fmt.get("name", "")))
                if fmt.get("version") is not None:
                    labels.add(f"mt:{fmt.get('name', '')}:{fmt['version']}")
        wanted = "mt:" + str(model_format.get("name", ""))
        if model_format.get("version") is not None:
            wanted += f":{model_format['version']}"
        return wanted in labels

    def priority(self, format_name: str) -> int | None:
        """GetPriority: the priority of the first supported format with that name."""
        for fmt in self.spec.get("supportedModelFormats") or []:
            if fmt.get("name") == format_name:
                return fmt.get("priority")
        return None

    def protocol_rank(self) -> int:
        """GetProtocolVersionPriority: the best (lowest) protocol the runtime lists."""
        versions = self.spec.get("protocolVersions") or []
        if not versions:
            return _UNKNOWN_PROTOCOL
        return min(_PROTOCOL_RANK.get(v, _UNKNOWN_PROTOCOL) for v in versions)


def runtime_from(doc: Document, default_namespace: str) -> Runtime:
    """A Runtime from a loaded ServingRuntime/ClusterServingRuntime; structural errors carry their field path."""
    obj = doc.obj
    shape.check(obj, shape.RUNTIME)
    meta = obj.get("metadata")
    if not isinstance(meta, dict) or not isinstance(meta.get("name"), str) or not meta["name"]:
        raise LlmcError("metadata.name: Required value", doc.locate(("metadata",)))
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        raise LlmcError("spec: Required value", doc.locate(("spec",)))
    containers = spec.get("containers")
    if not isinstance(containers, list) or not containers:
        # validatePodSpecAndWorkerSpec: ServingRuntimePodSpec.Containers is `validate:"required"`.
        raise LlmcError(
            "Key: 'ServingRuntimePodSpec.Containers' Error:Field validation for 'Containers' failed on the 'required' tag",
            doc.locate(("spec", "containers")),
        )
    spec = copy.deepcopy(spec)
    default_port_protocols(spec["containers"])
    annotations = meta.get("annotations") or {}
    namespace = None if obj.get("kind") == CLUSTER_SERVING_RUNTIME else (meta.get("namespace") or default_namespace)
    return Runtime(meta["name"], namespace, spec, dict(annotations), _timestamp(doc), doc)


def _timestamp(doc: Document) -> float:
    value = (doc.obj.get("metadata") or {}).get("creationTimestamp")
    if value in (None, ""):
        return float("-inf")
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00")).timestamp()
    except ValueError:
        raise LlmcError(f"creationTimestamp {value!r} is not an RFC 3339 time",
                        doc.locate(("metadata", "creationTimestamp"))) from None


@record(frozen=True)
class Selection:
    """The chosen runtime and how: `explicit` when the InferenceService named it."""

    runtime: Runtime
    explicit: bool


def get_serving_runtime(runtimes: list[Runtime], name: str, namespace: str) -> Runtime:
    """GetServingRuntime: the namespace's ServingRuntime, else the ClusterServingRuntime of that name."""
    for cluster in (False, True):
        for rt in runtimes:
            if rt.name == name and rt.cluster == cluster and (cluster or rt.namespace == namespace):
                return rt
    raise LlmcError("No ServingRuntimes or ClusterServingRuntimes with the name: " + name)


def select_runtime(model: dict[str, Any], runtimes: list[Runtime], namespace: str, where: Location) -> Selection:
    """reconcileModel's runtime choice for `spec.predictor.model`; errors carry `where`."""
    name = model.get("runtime")
    protocol = model.get("protocolVersion")
    if name:
        try:
            rt = get_serving_runtime(runtimes, name, namespace)
        except LlmcError as err:
            raise LlmcError(err.message, where, hint="add the runtime's YAML with -f or --runtimes") from None
        if rt.disabled:
            raise LlmcError(f"specified runtime {name} is disabled", where)
        if protocol and not rt.supports_protocol(protocol):
            raise LlmcError(f"specified runtime {name} does not support specified protocol version", where)
        if not rt.supports_model(model.get("modelFormat") or {}, explicit=True):
            raise LlmcError(f"specified runtime {name} does not support specified framework/version", where)
        return Selection(rt, explicit=True)
    candidates = supporting_runtimes(model, runtimes, namespace)
    if not candidates:
        raise LlmcError(
            f"no runtime found to support predictor with model type: {_go_model_format(model.get('modelFormat') or {})}",
            where,
            hint="add a ServingRuntime or ClusterServingRuntime whose supportedModelFormats auto-select this format",
        )
    # The controller records the winner's name and re-reads it by name for its annotations.
    return Selection(get_serving_runtime(runtimes, candidates[0].name, namespace), explicit=False)


def supporting_runtimes(model: dict[str, Any], runtimes: list[Runtime], namespace: str) -> list[Runtime]:
    """GetSupportingRuntimes(isMMS=false, isMultinode=false) in the controller's order."""
    protocol = model.get("protocolVersion") or "v1"  # ModelSpec.GetProtocol
    fmt = model.get("modelFormat") or {}

    def eligible(rt: Runtime) -> bool:
        return (not rt.disabled and rt.spec.get("multiModel") is not True
                and rt.supports_model(fmt, explicit=False) and rt.supports_protocol(protocol)
                and rt.spec.get("workerSpec") is None)

    def listed(rt: Runtime) -> tuple[int, float, str]:
        return (rt.protocol_rank(), -rt.created, rt.name)

    def by_priority(rt: Runtime) -> tuple[int, int]:
        p = rt.priority(str(fmt.get("name", "")))
        return (0, -p) if p is not None else (1, 0)

    out: list[Runtime] = []
    for group in ([rt for rt in runtimes if rt.namespace == namespace], [rt for rt in runtimes if rt.cluster]):
        ordered = sorted(group, key=listed)
        out += sorted((rt for rt in ordered if eligible(rt)), key=by_priority)
    return out


def _go_model_format(fmt: dict[str, Any]) -> str:
    """`%v` of v1beta1.ModelFormat; Go prints a set version as a pointer address, llmc as its value."""
    version = fmt.get("version")
    return f"{{{fmt.get('name', '')} {'<nil>' if version is None else json.dumps(version)}}}"
