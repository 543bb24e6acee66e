"""Autoscaling actuators (llmisvc/scaling.go): KEDA ScaledObject then HPA, for the main
workload and then the prefill workload.

`scaling.keda` is a direct ScaledObject with the user's triggers. `scaling.wva.keda` and
`scaling.wva.hpa` are WVA actuators: they carry the discovery annotations WVA looks for
and scale on `wva_desired_replicas`. No VariantAutoscaling object is created.
"""

from __future__ import annotations


from llmc.core.errors import LlmcError, Location
from llmc.core.jsoncopy import copy_json
from llmc.core.record import record
from llmc.render import meta
from llmc.render.context import RenderContext

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

KEDA_API = "keda.sh/v1alpha1"
# Finding code for "KEDA API is absent".
KEDA_ABSENT = "LLMC205"
WVA_CONFIG = "autoscaling-wva-controller-config"
ACCELERATOR = "inference.optimization/acceleratorName"
METRIC = "wva_desired_replicas"
# The KEDA ScaledObject fields copied verbatim from the spec, in the ScaledObjectSpec's order.
# PrometheusConfig's JSON fields: Go fails to load the ConfigMap for any other type (null is allowed).
_PROMETHEUS_TYPES: dict[str, type] = {
    "url": str,
    "tlsInsecureSkipVerify": bool,
    "authModes": str,
    "triggerAuthName": str,
    "triggerAuthKind": str,
}
_KEDA_FIELDS = ("pollingInterval", "initialCooldownPeriod", "cooldownPeriod", "idleReplicaCount")


@record(frozen=True)
class _Workload:
    """What differs between the main and the prefill actuators."""

    path: str  # "spec" or "spec.prefill"
    scaling: dict[str, Any] | None
    labels: dict[str, str]
    target: dict[str, str]
    hpa: str
    scaled_object: str


def _target(ctx: RenderContext, workload: dict[str, Any] | None, lws: str, deployment: str) -> dict[str, str]:
    """The LeaderWorkerSet when the workload has a worker, else the Deployment."""
    if workload is not None and workload.get("worker") is not None:
        return {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet", "name": ctx.child(lws)}
    return {"apiVersion": "apps/v1", "kind": "Deployment", "name": ctx.child(deployment)}


def _workloads(ctx: RenderContext) -> list[_Workload]:
    spec = ctx.spec
    prefill = spec.get("prefill") or {}
    return [
        _Workload(
            "spec",
            spec.get("scaling"),
            spec.get("labels") or {},
            _target(ctx, spec, "-kserve-mn", "-kserve"),
            ctx.child("-kserve-hpa"),
            ctx.child("-kserve-keda"),
        ),
        _Workload(
            "spec.prefill",
            prefill.get("scaling"),
            prefill.get("labels") or {},
            _target(ctx, spec.get("prefill"), "-kserve-mn-prefill", "-kserve-prefill"),
            ctx.child("-kserve-prefill-hpa"),
            ctx.child("-kserve-prefill-keda"),
        ),
    ]


def _labels(ctx: RenderContext) -> dict[str, str]:
    """Prefill actuators too carry component `llminferenceservice-workload`."""
    return meta.base_labels(ctx, meta.WORKLOAD)


def _wva_labels(ctx: RenderContext, workload_labels: dict[str, str]) -> dict[str, str]:
    labels = _labels(ctx)
    labels[ACCELERATOR] = workload_labels.get(ACCELERATOR) or "unknown"
    return labels


def _wva_annotations(ctx: RenderContext, scaling: dict[str, Any]) -> dict[str, str]:
    """llm-d.ai/model-id is the model name (set by the webhook), else the model URI."""
    model = ctx.spec.get("model") or {}
    model_id = model["name"] if model.get("name") is not None else str(model.get("uri") or "")
    annotations = {"llm-d.ai/managed": "true", "llm-d.ai/model-id": model_id}
    cost = (scaling.get("wva") or {}).get("variantCost")
    if cost:
        annotations["llm-d.ai/variant-cost"] = cost
    return annotations


def _scaled_object_spec(w: _Workload, keda: dict[str, Any], triggers: list[dict[str, Any]]) -> dict[str, Any]:
    scaling = w.scaling or {}
    spec: dict[str, Any] = {"scaleTargetRef": dict(w.target)}
    for key in _KEDA_FIELDS:
        if keda.get(key) is not None:
            spec[key] = keda[key]
    min_replicas = scaling.get("minReplicas")
    spec["minReplicaCount"] = min_replicas if min_replicas is not None else 1
    spec["maxReplicaCount"] = scaling.get("maxReplicas", 0)
    if keda.get("advanced") is not None:
        spec["advanced"] = copy_json(keda["advanced"])
    spec["triggers"] = triggers
    if keda.get("fallback") is not None:
        spec["fallback"] = copy_json(keda["fallback"])
    return spec


def _direct_scaled_object(ctx: RenderContext, w: _Workload) -> dict[str, Any]:
    """scaling.keda: the user's triggers, no WVA labels or annotations."""
    keda = (w.scaling or {})["keda"]
    return {
        "apiVersion": KEDA_API,
        "kind": "ScaledObject",
        "metadata": ctx.metadata(w.scaled_object, _labels(ctx)),
        "spec": _scaled_object_spec(w, keda, copy_json(keda.get("triggers") or [])),
    }


def _prometheus(ctx: RenderContext, w: _Workload) -> dict[str, Any]:
    """The `prometheus` settings, checked as validateAutoscalingConfig does (same messages)."""
    where = Location(path=f"{w.path}.scaling.wva.keda")
    hint = f"set {WVA_CONFIG} in the inferenceservice-config given with --kserve-config"
    prom = ctx.settings.wva.get("prometheus") or {}
    if not isinstance(prom, dict):
        raise LlmcError(f"{WVA_CONFIG}.prometheus must be a JSON object", where, hint=hint)
    for key, kind in _PROMETHEUS_TYPES.items():
        if prom.get(key) is not None and not isinstance(prom[key], kind):
            raise LlmcError(f"{WVA_CONFIG}.prometheus.{key} must be a {kind.__name__}", where, hint=hint)
    if not prom.get("url"):
        raise LlmcError(
            f"{WVA_CONFIG}.prometheus.url is required in inferenceservice-config when using KEDA", where, hint=hint
        )
    if bool(prom.get("triggerAuthName")) != bool(prom.get("authModes")):
        raise LlmcError(
            f"{WVA_CONFIG}.prometheus.authModes and {WVA_CONFIG}.prometheus.triggerAuthName "
            "must both be set or both be empty",
            where,
            hint=hint,
        )
    return prom


def _wva_trigger(ctx: RenderContext, w: _Workload, prom: dict[str, Any]) -> dict[str, Any]:
    """One Prometheus trigger on the variant's desired replicas (exported_namespace: Prometheus renames WVA's label)."""
    query = f'{METRIC}{{variant_name="{w.scaled_object}",exported_namespace="{ctx.namespace}"}}'
    metadata = {
        "serverAddress": prom["url"],
        "query": query,
        "threshold": "1",
        "unsafeSsl": "true" if prom.get("tlsInsecureSkipVerify") else "false",
    }
    if prom.get("authModes"):
        metadata["authModes"] = prom["authModes"]
    trigger: dict[str, Any] = {"type": "prometheus", "name": "wva-desired-replicas", "metadata": metadata}
    if prom.get("triggerAuthName"):
        ref = {"name": prom["triggerAuthName"]}
        if prom.get("triggerAuthKind"):
            ref["kind"] = prom["triggerAuthKind"]
        trigger["authenticationRef"] = ref
    return trigger


def _wva_scaled_object(ctx: RenderContext, w: _Workload) -> dict[str, Any]:
    scaling = w.scaling or {}
    prom = _prometheus(ctx, w)
    return {
        "apiVersion": KEDA_API,
        "kind": "ScaledObject",
        "metadata": ctx.metadata(w.scaled_object, _wva_labels(ctx, w.labels), _wva_annotations(ctx, scaling)),
        "spec": _scaled_object_spec(w, scaling["wva"]["keda"], [_wva_trigger(ctx, w, prom)]),
    }


def _hpa(ctx: RenderContext, w: _Workload) -> dict[str, Any]:
    """External metric wva_desired_replicas for this HPA's own name, target value 1."""
    scaling = w.scaling or {}
    min_replicas = scaling.get("minReplicas")
    spec: dict[str, Any] = {
        "scaleTargetRef": dict(w.target),
        "minReplicas": min_replicas if min_replicas is not None else 1,
        "maxReplicas": scaling.get("maxReplicas", 0),
        "metrics": [
            {
                "type": "External",
                "external": {
                    "metric": {"name": METRIC, "selector": {"matchLabels": {"variant_name": w.hpa}}},
                    "target": {"type": "Value", "value": "1"},
                },
            }
        ],
    }
    behavior = ((scaling.get("wva") or {}).get("hpa") or {}).get("behavior")
    if behavior is not None:
        spec["behavior"] = copy_json(behavior)
    return {
        "apiVersion": "autoscaling/v2",
        "kind": "HorizontalPodAutoscaler",
        "metadata": ctx.metadata(w.hpa, _wva_labels(ctx, w.labels), _wva_annotations(ctx, scaling)),
        "spec": spec,
    }


def objects(ctx: RenderContext) -> list[dict[str, Any]]:
    """Main ScaledObject, main HPA, prefill ScaledObject, prefill HPA, each only when configured."""
    out: list[dict[str, Any]] = []
    for w in _workloads(ctx):
        scaling = w.scaling
        if scaling is None:
            continue
        wva = scaling.get("wva") or {}
        scaled_object = None
        if scaling.get("keda") is not None:
            scaled_object = _direct_scaled_object(ctx, w)
        elif wva.get("keda") is not None:
            scaled_object = _wva_scaled_object(ctx, w)
        if scaled_object is not None:
            _keda_capability(ctx, w)
            out.append(scaled_object)
        if wva.get("hpa") is not None:
            out.append(_hpa(ctx, w))
    return out


def _keda_capability(ctx: RenderContext, w: _Workload) -> None:
    if ctx.options.capabilities.has(KEDA_API, "ScaledObject"):
        return
    ctx.findings.add(
        KEDA_ABSENT,
        f"{w.path}.scaling",
        f"{KEDA_API} ScaledObject is not among the cluster's APIs: the controller's reconcile fails "
        "creating it (rendered anyway)",
    )
