"""KServe's admission webhooks for LLMInferenceService and LLMInferenceServiceConfig.

`default_service` is the mutating webhook (`SetDefaults`); `validate_service` and
`validate_config` are the validating webhooks, with the controller's messages in
the API server's format:

    LLMInferenceService.serving.kserve.io "<name>" is invalid: <field>: <type>: <value>: <detail>

Call them the way the API server does: on an object that already has its CRD
defaults (`schema.apply_defaults`), mutating before validating.

Differences from the controller, all in what a message shows, never in what is
accepted: a bad value that is a Go struct is printed as JSON through Go's field
order where llmc knows it (`_STRUCTS`), otherwise in the input's key order; Go
would also print zero-valued fields that are not `omitempty` inside nested structs.
The update-only rule (total parallelism size is immutable) needs the previous
object and is not checked: llmc checks creation.
"""

from __future__ import annotations

import math
import re

from llmc.core.errors import ErrorList, LlmcError, Location
from llmc.load.documents import Document, Path, format_path
from llmc.kserve.annotations import DRA_CEL_SELECTOR, DRA_CONTAINER_NAME, DRA_DEVICE_CLASS, DRA_DEVICE_COUNT
from llmc.go.json import marshal as go_json
from llmc.go.strconv import quote as go_quote
from llmc.admit.schema import (
    FieldError, GoJSON, dns1123_label_errors, dns1123_subdomain_errors, forbidden, invalid, regex_error, required,
)

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any, Callable

GROUP = "serving.kserve.io"
ROUTING_GROUP_LABEL = "serving.kserve.io/routing-group"

_VARIANT_COST = re.compile(r"\d+(\.\d+)?", re.ASCII)
_KBS_RESOURCE_ID = re.compile(r"kbs:///[a-zA-Z0-9_.-]+/[a-zA-Z0-9_.-]+/[a-zA-Z0-9_.-]+")
_PERCENT = re.compile(r"[0-9]+%")
_ATOI = re.compile(r"[+-]?[0-9]+")

# Go field order of the structs the webhook prints as bad values: (JSON name, when
# Go leaves it out, how to write it). "nil": a pointer or slice, left out when
# unset; "empty": omitempty on a plain value, left out when zero; "never": always
# written (Go's zero value when unset). A field written "raw" is a map or a
# RawExtension (sorted keys); "quantity" a resource.Quantity; other names are
# structs of this table; None means a type llmc has no field order for (the
# input's key order is kept).
_NIL, _EMPTY, _NEVER = "nil", "empty", "never"
_KEDA_FIELDS = (("pollingInterval", _NIL, None), ("cooldownPeriod", _NIL, None), ("initialCooldownPeriod", _NIL, None),
                ("idleReplicaCount", _NIL, None), ("fallback", _NIL, None), ("advanced", _NIL, None))
_STRUCTS: dict[str, tuple[tuple[str, str, str | None], ...]] = {
    "HTTPRouteSpec": (("refs", _NIL, None), ("spec", _NIL, None)),
    "ParallelismSpec": (("tensor", _NIL, None), ("pipeline", _NIL, None), ("data", _NIL, None),
                        ("dataLocal", _NIL, None), ("dataRPCPort", _NIL, None), ("expert", _EMPTY, None)),
    "SchedulerConfigSpec": (("inline", _NIL, "raw"), ("ref", _NIL, "ConfigMapKeySelector")),
    "ConfigMapKeySelector": (("name", _EMPTY, None), ("key", _NEVER, None), ("optional", _NIL, None)),
    "ScalingSpec": (("minReplicas", _NIL, None), ("maxReplicas", _NEVER, None), ("wva", _NIL, "WVASpec"),
                    ("keda", _NIL, "DirectKEDAScalingSpec")),
    "WVASpec": (("variantCost", _EMPTY, None), ("hpa", _NIL, None), ("keda", _NIL, "KEDAScalingSpec")),
    "KEDAScalingSpec": _KEDA_FIELDS,
    "DirectKEDAScalingSpec": _KEDA_FIELDS + (("triggers", _NEVER, None),),
    "FileSystemTierSpec": (("emptyDir", _NIL, "EmptyDirTierSpec"), ("pvc", _NIL, "PVCTierSpec")),
    "EmptyDirTierSpec": (("size", _NEVER, "quantity"),),
    "PVCTierSpec": (("spec", _NIL, None), ("ref", _NIL, "PVCRefTierSpec")),
    "PVCRefTierSpec": (("name", _NEVER, None), ("path", _EMPTY, None)),
    "RolloutStrategy": (("maxUnavailable", _NIL, None), ("maxSurge", _NIL, None)),
}
_ZERO = {"maxReplicas": 0, "key": "", "name": "", "size": "0", "triggers": None}


def _go_struct(value: Any, name: str) -> str:
    """`value` as Go's json.Marshal writes struct `name`."""
    source = value if isinstance(value, dict) else {}
    parts = []
    for key, omit, kind in _STRUCTS[name]:
        item = source.get(key, _ZERO.get(key)) if omit == _NEVER else source.get(key)
        if omit != _NEVER and (item is None or item == []):  # nil pointer, or empty slice with omitempty
            continue
        if omit == _EMPTY and item in ("", 0, False, [], {}):
            continue
        if kind == "raw":
            text = go_json(item)
        elif kind == "quantity":
            text = go_json(str(item) if isinstance(item, (int, float)) else item)
        elif kind is not None and item is not None:
            text = _go_struct(item, kind)
        else:
            text = go_json(item, sort_keys=False)
        parts.append(f"{go_json(key)}:{text}")
    return "{" + ",".join(parts) + "}"


class _Path:
    """A field path written as apimachinery's `field.Path` writes it, plus its tuple form."""

    def __init__(self, parts: Path = (), text: str = "") -> None:
        self.parts = parts
        self.text = text

    def child(self, *names: str) -> _Path:
        path = self
        for name in names:
            path = _Path(path.parts + (name,), f"{path.text}.{name}" if path.text else name)
        return path

    def index(self, i: int) -> _Path:
        return _Path(self.parts + (i,), f"{self.text}[{i}]")

    def key(self, key: str) -> _Path:
        return _Path(self.parts + (key,), f"{self.text}[{key}]")


_SPEC = _Path().child("spec")


def _invalid(path: _Path, value: Any, detail: str, struct: str | None = None) -> FieldError:
    """field.Invalid; `struct` names the Go struct the bad value is (see `_STRUCTS`)."""
    if struct is not None:
        value = GoJSON(_go_struct(value, struct))
    elif isinstance(value, (dict, list)):
        value = GoJSON(go_json(value, sort_keys=False))
    return invalid(path.text, path.parts, value, detail)


def _required(path: _Path, detail: str) -> FieldError:
    return required(path.text, path.parts, detail)


def _forbidden(path: _Path, detail: str) -> FieldError:
    return forbidden(path.text, path.parts, detail)


def _obj(value: Any, key: str) -> dict[str, Any] | None:
    """`value.key` when it is set (a Go pointer that is not nil)."""
    if not isinstance(value, dict):
        return None
    item = value.get(key)
    return item if isinstance(item, dict) else None


def _int(value: Any, key: str) -> int | None:
    item = value.get(key) if isinstance(value, dict) else None
    return item if isinstance(item, int) and not isinstance(item, bool) else None


def _list(value: Any, key: str) -> list[Any]:
    item = value.get(key) if isinstance(value, dict) else None
    return item if isinstance(item, list) else []


def _str(value: Any, key: str) -> str:
    item = value.get(key) if isinstance(value, dict) else None
    return item if isinstance(item, str) else ""


def _name(obj: dict[str, Any]) -> str:
    return _str(_obj(obj, "metadata"), "name")


# --------------------------------------------------------------------------- mutating webhook

_POD_SLOTS = (("template",), ("worker",), ("prefill", "template"), ("prefill", "worker"), ("router", "scheduler", "template"))


def default_service(obj: dict[str, Any]) -> dict[str, Any]:
    """A copy of the service with KServe's mutating-webhook defaults (`SetDefaults`).

    `spec.model.name` becomes `metadata.name` when unset or empty; the label
    `serving.kserve.io/routing-group` mirrors `spec.router.route.group` (removed
    when there is no group); pod specs without `containers` get `containers: []`.
    Only the mappings it changes are copied: the rest is shared with `obj` (both
    callers validate or marshal the result, and `obj` is theirs).
    """
    out = dict(obj)
    metadata = out["metadata"] = dict(out.get("metadata", {}))
    spec = out["spec"] = dict(out.get("spec", {}))
    model = spec.get("model")
    model = spec["model"] = dict(model) if isinstance(model, dict) else {}
    if not model.get("name"):
        model["name"] = _name(out)
    # the webhook's patch is the whole Go object: `uri` (apis.URL, no omitempty) marshals as ""
    # when unset, so a model taken from baseRefs passes the CRD's `required: [uri]`
    model.setdefault("uri", "")
    labels = dict(metadata["labels"]) if isinstance(metadata.get("labels"), dict) else {}
    route = _obj(_obj(spec, "router"), "route")
    if route is not None and route.get("group") is not None:
        labels[ROUTING_GROUP_LABEL] = route["group"]
    else:
        labels.pop(ROUTING_GROUP_LABEL, None)
    if labels:
        metadata["labels"] = labels
    else:
        metadata.pop("labels", None)  # Go drops an empty map (omitempty)
    for slot in _POD_SLOTS:
        pod: Any = spec
        for key in slot:
            pod = _obj(pod, key)
        if pod is not None and pod.get("containers") is None:
            parent = spec
            for key in slot:
                parent[key] = dict(parent[key])
                parent = parent[key]
            parent["containers"] = []
    return out


# --------------------------------------------------------------------------- validating webhook


def validate_service(obj: dict[str, Any], doc: Document | None = None) -> list[str]:
    """The validating webhook on create: returns its warnings, raises `ErrorList` with every violation.

    Rules run in the controller's order: router, traffic splitting, parallelism,
    scheduler, scaling, LoRA adapters, KV cache, rollout strategy, managed-DRA
    annotations, confidential.
    """
    spec = _obj(obj, "spec") or {}
    warnings, errors = _router(spec)
    errors += _traffic(spec)
    errors += _parallelism(_SPEC, spec)
    prefill = _obj(spec, "prefill")
    if prefill is not None:
        errors += _parallelism(_SPEC.child("prefill"), prefill)
    errors += _scheduler(spec)
    errors += _workload_scaling(_SPEC, spec)
    if prefill is not None:
        errors += _workload_scaling(_SPEC.child("prefill"), prefill)
    errors += _actuator_consistency(spec, prefill)
    model = _obj(spec, "model") or {}
    base_name = model.get("name") if model.get("name") is not None else _name(obj)
    errors += _lora(_obj(model, "lora"), base_name)
    errors += _kv_cache(_SPEC.child("kvCacheOffloading"), _obj(spec, "kvCacheOffloading"))
    if prefill is not None:
        errors += _kv_cache(_SPEC.child("prefill", "kvCacheOffloading"), _obj(prefill, "kvCacheOffloading"))
    errors += _rollout(_SPEC, _obj(spec, "rolloutStrategy"), _obj(spec, "worker") is not None)
    if prefill is not None:
        errors += _rollout(_SPEC.child("prefill"), _obj(prefill, "rolloutStrategy"), _obj(prefill, "worker") is not None)
    errors += managed_dra_errors(_obj(_obj(obj, "metadata"), "annotations") or {})
    confidential_warnings, confidential_errors = _confidential(model)
    warnings += confidential_warnings
    errors += confidential_errors
    if errors:
        raise _error_list("LLMInferenceService", _name(obj), errors, doc)
    return warnings


def validate_config(obj: dict[str, Any], doc: Document | None = None) -> None:
    """The LLMInferenceServiceConfig webhook's own rules: no baseRefs, scheduler replicas above zero."""
    spec = _obj(obj, "spec") or {}
    errors: list[FieldError] = []
    if _list(spec, "baseRefs"):
        errors.append(_forbidden(
            _SPEC.child("baseRefs"),
            "baseRefs is not a permitted field in LLMInferenceServiceConfig, support for recursive refs has been disabled",
        ))
    errors += _scheduler_replicas(_obj(_obj(spec, "router"), "scheduler"))
    if errors:
        raise _error_list("LLMInferenceServiceConfig", _name(obj), errors, doc)


def invalid_message(kind: str, name: str, errors: list[FieldError]) -> str:
    """apimachinery `NewInvalid(...).Error()`: all errors in one message, duplicates dropped."""
    texts = list(dict.fromkeys(str(e) for e in errors))
    head = f"{kind}.{GROUP} {go_quote(name)} is invalid"
    if not texts:
        return head
    return f"{head}: {texts[0]}" if len(texts) == 1 else f"{head}: [{', '.join(texts)}]"


def _error_list(kind: str, name: str, errors: list[FieldError], doc: Document | None) -> ErrorList:
    found = []
    for err in errors:
        location = doc.locate(err.path) if doc is not None else Location(path=format_path(err.path))
        found.append(LlmcError(invalid_message(kind, name, [err]), location))
    return ErrorList(found)


# --- router


def _router(spec: dict[str, Any]) -> tuple[list[str], list[FieldError]]:
    router = _obj(spec, "router")
    http = _obj(_obj(router, "route"), "http")
    if http is None:
        return [], []
    router_path = _SPEC.child("router")
    gateway_path = router_path.child("gateway")
    gw_refs_path = gateway_path.child("refs")
    http_path = router_path.child("route", "http")
    refs_path = http_path.child("refs")
    spec_path = http_path.child("spec")
    gateway = _obj(router, "gateway")
    refs = _list(http, "refs")
    route_spec = _obj(http, "spec")
    warnings: list[str] = []
    errors: list[FieldError] = []
    if refs and route_spec is not None:
        errors.append(_invalid(
            http_path, http,
            f"unsupported configuration: cannot use both custom HTTPRoute refs ('{refs_path.text}') and an inline "
            f"route spec ('{spec_path.text}'); choose one",
            struct="HTTPRouteSpec"))
    if refs and gateway is not None and not _list(gateway, "refs"):
        errors.append(_invalid(
            refs_path, refs,
            f"unsupported configuration: custom HTTP routes ('{refs_path.text}') cannot be used with a managed "
            f"gateway ('{gateway_path.text}'); either remove '{refs_path.text}' or set '{gw_refs_path.text}'"))
    parent_refs = _list(route_spec, "parentRefs")
    gateway_refs = _list(gateway, "refs")
    if route_spec is not None and parent_refs and gateway_refs:
        if _refs_match(parent_refs, gateway_refs):
            warnings.append(
                f"{spec_path.text}.parentRefs can be omitted when {gw_refs_path.text} is set; "
                "parentRefs will be derived automatically from gateway refs")
        else:
            errors.append(_invalid(
                spec_path, route_spec,
                f"unsupported configuration: managed HTTP route spec ('{spec_path.text}') has parentRefs that "
                f"conflict with custom gateway refs ('{gw_refs_path.text}'); either remove '{gw_refs_path.text}' "
                f"or '{spec_path.text}.parentRefs'"))
    return warnings, errors


def _refs_match(parent_refs: list[Any], gateway_refs: list[Any]) -> bool:
    """parentRefs and gateway refs name the same (namespace, name, sectionName) multiset."""

    def key(ref: Any) -> tuple[str, str, str]:
        return _str(ref, "namespace"), _str(ref, "name"), _str(ref, "sectionName")

    return len(parent_refs) == len(gateway_refs) and sorted(map(key, parent_refs)) == sorted(map(key, gateway_refs))


def _traffic(spec: dict[str, Any]) -> list[FieldError]:
    router = _obj(spec, "router")
    route = _obj(router, "route")
    if route is None:
        return []
    route_path = _SPEC.child("router", "route")
    has_group = route.get("group") is not None
    has_weight = route.get("weight") is not None
    if not has_group and not has_weight:
        return []
    if _obj(router, "ingress") is not None:
        return [_invalid(route_path.child("group"), route.get("group") or "",
                         "traffic splitting requires Gateway API routing; the controller manages HTTPRoutes, "
                         "not Ingress resources")]
    errors = []
    if has_weight and not has_group:
        errors.append(_required(route_path.child("group"), "weight requires group"))
    if has_group and not has_weight:
        errors.append(_required(route_path.child("weight"), "group requires weight"))
    if errors:
        return errors
    if _list(_obj(route, "http"), "refs"):
        errors.append(_invalid(route_path.child("group"), route["group"],
                               "traffic splitting cannot be used with custom HTTPRoute refs; controller-managed "
                               "routes (route.http.spec or route.http: {}) are required"))
    return errors


# --- parallelism and scheduler

_WORKER_NEEDS_PARALLELISM = (
    "when worker is specified, parallelism must be configured for either data parallelism or pipeline parallelism"
)


def _parallelism(base: _Path, workload: dict[str, Any]) -> list[FieldError]:
    worker = _obj(workload, "worker")
    parallelism = _obj(workload, "parallelism")
    if worker is not None and parallelism is None:
        return [_invalid(base.child("worker"), worker, _WORKER_NEEDS_PARALLELISM)]
    if parallelism is None:
        return []
    path = base.child("parallelism")
    pipeline, data, data_local = (_int(parallelism, k) for k in ("pipeline", "data", "dataLocal"))
    is_dp = (data or 0) > 0 or (data_local or 0) > 0
    is_pp = (pipeline or 0) > 0
    errors = []
    if worker is not None and not is_dp and not is_pp:
        errors.append(_invalid(base.child("worker"), worker, _WORKER_NEEDS_PARALLELISM))
    if is_pp and is_dp:
        errors.append(_invalid(path, parallelism,
                               "cannot set both pipeline parallelism and data parallelism (data or dataLocal) "
                               "simultaneously", struct="ParallelismSpec"))
    if data is not None and data_local is None:
        errors.append(_invalid(path.child("dataLocal"), None, "dataLocal must be set when data is set"))
    if data_local is not None and data is None:
        errors.append(_invalid(path.child("data"), None, "data must be set when dataLocal is set"))
    for key, value, label in (("pipeline", pipeline, "pipeline"), ("data", data, "data"), ("dataLocal", data_local, "dataLocal")):
        if value is not None and value <= 0:
            errors.append(_invalid(path.child(key), value, f"{label} parallelism must be greater than 0"))
    return errors


def _scheduler_replicas(scheduler: dict[str, Any] | None) -> list[FieldError]:
    """The services' and the configs' check of `router.scheduler.replicas`."""
    replicas = _int(scheduler, "replicas")
    if replicas is not None and replicas <= 0:
        path = _SPEC.child("router", "scheduler", "replicas")
        return [_invalid(path, replicas, "scheduler replicas must be greater than zero")]
    return []


def _scheduler(spec: dict[str, Any]) -> list[FieldError]:
    scheduler = _obj(_obj(spec, "router"), "scheduler")
    if scheduler is None:
        return []
    path = _SPEC.child("router", "scheduler")
    errors = _scheduler_replicas(scheduler)
    config = _obj(scheduler, "config")
    if config is None:
        return errors
    config_path = path.child("config")
    inline, ref = config.get("inline"), _obj(config, "ref")
    if ref is None and inline is None:
        errors.append(_invalid(config_path, config, "either inline or ref is required", struct="SchedulerConfigSpec"))
    if inline is not None and ref is not None:
        errors.append(_invalid(config_path, config, "both inline and ref are set, either specify inline or ref",
                               struct="SchedulerConfigSpec"))
    if inline is not None and len(_raw_json(inline)) < 3:
        errors.append(_invalid(config_path.child("inline"), GoJSON(go_json(inline)), "inline configuration is invalid"))
    if ref is not None and not ref.get("name"):
        errors.append(_invalid(config_path.child("ref", "name"), ref, "name is empty", struct="ConfigMapKeySelector"))
    return errors


def _raw_json(value: Any) -> bytes:
    """The bytes a `runtime.RawExtension` holds: the API server's compact JSON of the value."""
    return go_json(value).encode()


# --- scaling


def _workload_scaling(base: _Path, workload: dict[str, Any]) -> list[FieldError]:
    scaling = _obj(workload, "scaling")
    if scaling is None:
        return []
    path = base.child("scaling")
    errors = []
    if workload.get("replicas") is not None:
        errors.append(_invalid(path, scaling, "scaling and replicas are mutually exclusive; use scaling for "
                               "autoscaled deployments or replicas for static deployments", struct="ScalingSpec"))
    low, high = _int(scaling, "minReplicas"), _int(scaling, "maxReplicas") or 0
    if low is not None and low > high:
        errors.append(_invalid(path.child("minReplicas"), low, f"minReplicas ({low}) cannot exceed maxReplicas ({high})"))
    wva, keda = _obj(scaling, "wva"), _obj(scaling, "keda")
    if wva is not None and keda is not None:
        errors.append(_invalid(path, scaling, "wva and keda are mutually exclusive; choose one scaling mechanism",
                               struct="ScalingSpec"))
        return errors
    if wva is None and keda is None:
        errors.append(_required(path, "either wva or keda must be specified when scaling is configured"))
        return errors
    if keda is not None:
        keda_path = path.child("keda")
        if not _list(keda, "triggers"):
            errors.append(_required(keda_path.child("triggers"),
                                    "at least one trigger is required when using direct KEDA scaling"))
        errors += _keda_advanced(keda_path, keda, forbid_modifiers=False)
        return errors + _idle_replicas(path, keda_path, scaling, keda)
    return errors + _wva(path, scaling, wva)


def _wva(path: _Path, scaling: dict[str, Any], wva: dict[str, Any]) -> list[FieldError]:
    errors = []
    wva_path = path.child("wva")
    hpa, wva_keda = _obj(wva, "hpa"), _obj(wva, "keda")
    if hpa is not None and wva_keda is not None:
        errors.append(_invalid(wva_path, wva, "hpa and keda are mutually exclusive; choose one actuator backend",
                               struct="WVASpec"))
    if hpa is None and wva_keda is None:
        errors.append(_required(wva_path, "either hpa or keda must be specified as the actuator backend"))
    cost = _str(wva, "variantCost")
    if cost and not _VARIANT_COST.fullmatch(cost):
        errors.append(_invalid(wva_path.child("variantCost"), cost,
                               'variantCost must be a non-negative numeric string (e.g., "10", "10.0", "0.5")'))
    if wva_keda is not None:
        errors += _keda_advanced(wva_path.child("keda"), wva_keda, forbid_modifiers=True)
        errors += _idle_replicas(path, wva_path.child("keda"), scaling, wva_keda)
    return errors


def _keda_advanced(path: _Path, keda: dict[str, Any], forbid_modifiers: bool) -> list[FieldError]:
    advanced = _obj(keda, "advanced")
    if advanced is None:
        return []
    errors = []
    modifiers = _obj(advanced, "scalingModifiers") or {}
    if forbid_modifiers and any(_str(modifiers, k) for k in ("formula", "target", "activationTarget", "metricType")):
        errors.append(_forbidden(path.child("advanced", "scalingModifiers"),
                                 "scalingModifiers must not be set; WVA controls the scaling metric formula and logic"))
    if _str(_obj(advanced, "horizontalPodAutoscalerConfig"), "name"):
        errors.append(_forbidden(path.child("advanced", "horizontalPodAutoscalerConfig", "name"),
                                 "horizontalPodAutoscalerConfig.name must not be set; the controller manages the HPA name"))
    return errors


def _idle_replicas(scaling_path: _Path, keda_path: _Path, scaling: dict[str, Any], keda: dict[str, Any]) -> list[FieldError]:
    idle = _int(keda, "idleReplicaCount")
    if idle is None:
        return []
    low = _int(scaling, "minReplicas")
    if low is None:
        return [_required(scaling_path.child("minReplicas"),
                          f"minReplicas is required when idleReplicaCount is set; idleReplicaCount ({idle}) must be "
                          "less than minReplicas")]
    if idle >= low:
        return [_invalid(keda_path.child("idleReplicaCount"), idle,
                         f"idleReplicaCount ({idle}) must be less than minReplicas ({low}); idleReplicaCount defines "
                         "the replica floor when no triggers are active")]
    return []


def _actuator_consistency(spec: dict[str, Any], prefill: dict[str, Any] | None) -> list[FieldError]:
    if prefill is None:
        return []
    decode, other = _obj(spec, "scaling"), _obj(prefill, "scaling")
    if decode is None or other is None:
        return []
    decode_keda, prefill_keda = _obj(decode, "keda") is not None, _obj(other, "keda") is not None
    if decode_keda != prefill_keda:
        modes = ("direct keda", "wva") if decode_keda else ("wva", "direct keda")
        return [_invalid(_SPEC.child("prefill", "scaling"), other,
                         f"decode and prefill must use the same scaling mode; decode uses {modes[0]} but prefill "
                         f"uses {modes[1]}", struct="ScalingSpec")]
    decode_wva, prefill_wva = _obj(decode, "wva"), _obj(other, "wva")
    if decode_wva is None or prefill_wva is None:
        return []
    decode_hpa, prefill_hpa = _obj(decode_wva, "hpa") is not None, _obj(prefill_wva, "hpa") is not None
    if decode_hpa == prefill_hpa:
        return []
    backends = ("hpa", "keda") if decode_hpa else ("keda", "hpa")
    return [_invalid(_SPEC.child("prefill", "scaling", "wva"), prefill_wva,
                     f"decode and prefill must use the same actuator backend; decode uses {backends[0]} but prefill "
                     f"uses {backends[1]} — mixing backends requires two separate metric pipelines and leads to "
                     "independent, unsynchronised scaling decisions", struct="WVASpec")]


# --- LoRA, KV cache, rollout


def _lora(lora: dict[str, Any] | None, base_name: Any) -> list[FieldError]:
    if lora is None:
        return []
    path = _SPEC.child("model", "lora")
    errors = []
    for key in ("maxRank", "maxAdapters", "maxCpuAdapters"):
        value = _int(lora, key)
        if value is not None and value < 1:
            errors.append(_invalid(path.child(key), value, f"{key} must be at least 1"))
    seen: dict[str, int] = {}
    for i, adapter in enumerate(_list(lora, "adapters")):
        name_path = path.child("adapters").index(i).child("name")
        name = adapter.get("name") if isinstance(adapter, dict) else None
        if not name:
            errors.append(_required(name_path, "adapter name is required"))
            continue
        if not isinstance(name, str):  # Go could not decode it; llmc's own wording
            errors.append(_invalid(name_path, name, "adapter name must be a string"))
            continue
        if name in (".", ".."):
            errors.append(_invalid(name_path, name, 'adapter name must not include "." or ".." (path traversal risk)'))
            continue
        if name in seen:
            errors.append(_invalid(name_path, name, f"duplicate name (same as adapters[{seen[name]}])"))
        else:
            seen[name] = i
        if name == base_name:
            errors.append(_invalid(name_path, name, f"adapter name must differ from base model name {go_quote(name)}"))
    return errors


def _quantity_is_zero(value: Any) -> bool:
    """`resource.Quantity.IsZero` for the int-or-string forms the CRD accepts."""
    if value is None:
        return True
    if isinstance(value, (int, float)):
        return value == 0
    match = re.match(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)", str(value))
    return match is not None and float(match.group()) == 0


def _kv_cache(path: _Path, kv: dict[str, Any] | None) -> list[FieldError]:
    tiers = _list(kv, "secondary")
    if not tiers:
        return []
    errors = []
    if _quantity_is_zero(kv.get("cpu")):  # type: ignore[union-attr]
        errors.append(_required(path.child("cpu"), "cpu must be set when secondary tiers are configured"))
    for i, tier in enumerate(tiers):
        tier_path = path.child("secondary").index(i)
        fs = _obj(tier, "fileSystem")
        fs_path = tier_path.child("fileSystem")
        if fs is None:
            errors.append(_required(fs_path, "only fileSystem tiers are supported; fileSystem must be set"))
            continue
        if _exactly_one(fs, ("emptyDir", "pvc"), fs_path, "FileSystemTierSpec", errors) == "pvc":
            pvc = fs["pvc"]
            pvc_path = fs_path.child("pvc")
            if _exactly_one(pvc, ("spec", "ref"), pvc_path, "PVCTierSpec", errors) == "ref" \
                    and not _str(pvc["ref"], "name"):
                errors.append(_required(pvc_path.child("ref", "name"), "name is required"))
    return errors


def _exactly_one(obj: Any, keys: tuple[str, str], path: _Path, struct: str, errors: list[FieldError]) -> str | None:
    """The one of `keys` set in `obj`; else None, with the webhook's error for none or several of them."""
    present = [k for k in keys if _obj(obj, k) is not None]
    if len(present) == 1:
        return present[0]
    rule = f"exactly one of {keys[0]} or {keys[1]} must be set"
    errors.append(_required(path, rule) if not present else
                  _invalid(path, obj, rule + "; multiple are set", struct=struct))
    return None


_PERCENT_MESSAGE = regex_error("a valid percent string must be a numeric string followed by an ending '%'",
                               _PERCENT.pattern, "1%", "93%")


def _int_or_percent(path: _Path, value: Any) -> list[FieldError]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [_invalid(path, value, "must be greater than or equal to 0")] if value < 0 else []
    if isinstance(value, str):
        if not _PERCENT.fullmatch(value):
            return [_invalid(path, value, _PERCENT_MESSAGE)]
        if int(value[:-1]) > 100:
            return [_invalid(path, value, "must not be greater than 100%")]
    return []


def _scaled(value: Any, round_up: bool) -> int:
    """`intstr.GetScaledValueFromIntOrPercent(value, 1, round_up)`; 0 where Go returns an error."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _PERCENT.fullmatch(value):
        share = int(value[:-1]) / 100
        return math.ceil(share) if round_up else math.floor(share)
    return 0


def _rollout(base: _Path, strategy: dict[str, Any] | None, multi_node: bool) -> list[FieldError]:
    if strategy is None:
        return []
    path = base.child("rolloutStrategy")
    unavailable, surge = strategy.get("maxUnavailable"), strategy.get("maxSurge")
    errors = []
    if unavailable is not None:
        errors += _int_or_percent(path.child("maxUnavailable"), unavailable)
    if surge is not None:
        errors += _int_or_percent(path.child("maxSurge"), surge)
    if errors:
        return errors
    if unavailable is not None and surge is not None and _scaled(unavailable, False) == 0 and _scaled(surge, True) == 0:
        errors.append(_invalid(path, strategy, "maxUnavailable and maxSurge cannot both be zero; this would prevent "
                               "any rolling update progress", struct="RolloutStrategy"))
    if multi_node and unavailable is not None and surge is None and _scaled(unavailable, False) == 0:
        errors.append(_required(path.child("maxSurge"), "maxSurge is required for multi-node workloads when "
                                "maxUnavailable is 0, otherwise no rolling update progress is possible"))
    return errors


# --- managed DRA and confidential


def _atoi_error(text: str) -> str | None:
    """The error of Go's `strconv.Atoi(text)`, or None when it parses."""
    if not _ATOI.fullmatch(text):
        return f"strconv.Atoi: parsing {go_quote(text)}: invalid syntax"
    if not -(1 << 63) <= int(text) < (1 << 63):
        return f"strconv.Atoi: parsing {go_quote(text)}: value out of range"
    return None


def managed_dra_errors(annotations: dict[str, Any]) -> list[FieldError]:
    """pkg/validation `ValidateManagedDRAAnnotations` on the service's metadata annotations."""
    if not annotations:
        return []
    path = _Path().child("metadata", "annotations")
    errors = []
    has_class = DRA_DEVICE_CLASS in annotations
    if not has_class and any(k in annotations for k in (DRA_DEVICE_COUNT, DRA_CEL_SELECTOR, DRA_CONTAINER_NAME)):
        errors.append(_required(path.key(DRA_DEVICE_CLASS),
                                f"{DRA_DEVICE_CLASS} is required to enable managed DRA when {DRA_DEVICE_COUNT}, "
                                f"{DRA_CEL_SELECTOR}, or {DRA_CONTAINER_NAME} is set"))
    if has_class:
        errors += _dra_name_errors(annotations, path, DRA_DEVICE_CLASS, "device class", "a DNS subdomain",
                                   dns1123_subdomain_errors)
    if DRA_DEVICE_COUNT in annotations:
        raw = str(annotations[DRA_DEVICE_COUNT])
        trimmed = raw.strip()
        if trimmed:
            problem = _atoi_error(trimmed)
            if problem is None and int(trimmed) < 1:
                problem = "must be >= 1"
            if problem is not None:
                errors.append(_invalid(path.key(DRA_DEVICE_COUNT), raw,
                                       f"invalid {DRA_DEVICE_COUNT} value {go_quote(raw)}: {problem}"))
    if DRA_CEL_SELECTOR in annotations:
        raw = str(annotations[DRA_CEL_SELECTOR])
        if not any(line.strip() for line in raw.split("\n")):
            errors.append(_invalid(path.key(DRA_CEL_SELECTOR), raw,
                                   "cel selector must contain at least one non-empty CEL expression"))
    if DRA_CONTAINER_NAME in annotations:
        errors += _dra_name_errors(annotations, path, DRA_CONTAINER_NAME, "container name", "a DNS label",
                                   dns1123_label_errors)
    return errors


def _dra_name_errors(annotations: dict[str, Any], path: _Path, key: str, what: str, kind: str,
                     validate: Callable[[str], list[str]]) -> list[FieldError]:
    """A name annotation: trimmed, it must be non-empty and pass `validate`."""
    raw = str(annotations[key])
    trimmed = raw.strip()
    if not trimmed:
        return [_invalid(path.key(key), raw, f"{what} must not be empty")]
    if msgs := validate(trimmed):
        return [_invalid(path.key(key), raw, f"{what} must be {kind}: " + "; ".join(msgs))]
    return []


def _confidential(model: dict[str, Any]) -> tuple[list[str], list[FieldError]]:
    confidential = _obj(model, "confidential")
    if confidential is None or confidential.get("enabled") is not True:
        return [], []
    uri = _str(model, "uri")
    scheme, sep, rest = uri.partition("://")
    uri = f"{scheme.lower()}{sep}{rest}" if sep else uri  # Go's url.Parse lowercases the scheme
    warnings = []
    if uri.startswith("oci://"):
        warnings.append("confidential has no effect with OCI URIs; OCI image decryption is handled by the container "
                        "runtime via runtimeClassName")
    if uri.startswith("pvc://"):
        warnings.append("confidential has no effect with PVC URIs; the storage-initializer is not injected for PVC volumes")
    resource_id = _str(confidential, "resourceId")
    if resource_id and not _KBS_RESOURCE_ID.fullmatch(resource_id):
        path = _SPEC.child("model", "confidential", "resourceId")
        return warnings, [_invalid(path, resource_id, "must be in the format kbs:///<repo>/<type>/<tag>")]
    return warnings, []
