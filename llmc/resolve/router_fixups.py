"""The controller's fix-ups of a merged spec's router before and after templating.

KServe `config_merge.go` and `router.go`: an empty pool selector becomes the workload
selector and the scheduler pod gets its ServiceAccount before the templates run; afterwards
`gateway.refs` become the route's parentRefs, default backend refs follow the scheduler,
`scheduler_spec.config.ref` is replaced by the ConfigMap's text and the EPP port gets its default.
The render steps read the spec only after these have run.
"""

from __future__ import annotations


from llmc.core.errors import LlmcError
from llmc.core.findings import Findings
from llmc.go.yaml import parse_go_yaml
from llmc.k8s.names import child_name
from llmc.kserve import scheduler_spec
from llmc.kserve.scheduler_spec import RawConfig, has_plugin
from llmc.kserve.spec import workload_selector

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any, Mapping


GATEWAY_GROUP = "gateway.networking.k8s.io"
Key = tuple[str, str]


def router_spec(spec: dict[str, Any]) -> dict[str, Any]:
    return spec.get("router") or {}


def http_spec(spec: dict[str, Any]) -> dict[str, Any] | None:
    return ((router_spec(spec).get("route") or {}).get("http") or {}).get("spec")


def default_pool_selector(spec: dict[str, Any], name: str) -> None:
    """Before templating: an empty `pool.spec.selector.matchLabels` becomes the workload selector."""
    pool = scheduler_spec.pool_spec(spec)
    if pool is None:
        return
    if not (pool.get("selector") or {}).get("matchLabels"):
        pool = _writable(spec, "router", "scheduler", "pool", "spec")
        selector = pool.get("selector")
        selector = pool["selector"] = dict(selector) if isinstance(selector, dict) else {}
        selector["matchLabels"] = workload_selector(name)


def default_scheduler_service_account(spec: dict[str, Any], name: str) -> None:
    """Before templating: the scheduler pod runs as `<name>-epp-sa` unless it names an SA."""
    template = (scheduler_spec.scheduler(spec) or {}).get("template")
    if template is not None and not template.get("serviceAccountName"):
        _writable(spec, "router", "scheduler", "template")["serviceAccountName"] = child_name(name, "-epp-sa")


def _writable(spec: dict[str, Any], *keys: str) -> dict[str, Any]:
    """The object at `keys`, after copying each object on the way: a merged spec shares objects
    with its presets (llmc.resolve.merge), which other services merge again. Keys keep their places."""
    node = spec
    for key in keys:
        child = node[key] = dict(node[key])
        node = child
    return node


def apply_gateway_refs(spec: dict[str, Any]) -> None:
    """After templating: `gateway.refs` replace the route's parentRefs (ToParentRefs)."""
    http = http_spec(spec)
    refs = (router_spec(spec).get("gateway") or {}).get("refs") or []
    if http is None or not refs:
        return
    parents = []
    for ref in refs:
        parent: dict[str, Any] = {"group": GATEWAY_GROUP, "kind": "Gateway", "name": ref.get("name", "")}
        if ref.get("namespace"):
            parent["namespace"] = ref["namespace"]
        if ref.get("sectionName") is not None:
            parent["sectionName"] = ref["sectionName"]
        parents.append(parent)
    http["parentRefs"] = parents


def is_default_backend_ref(ref: dict[str, Any], name: str) -> bool:
    """isDefaultBackendRef: kind InferencePool and the default pool name, whatever the group."""
    return ref.get("kind") == "InferencePool" and ref.get("name") == child_name(name, "-inference-pool")


def backend_refs(http: dict[str, Any]) -> list[dict[str, Any]]:
    return [ref for rule in http.get("rules") or [] for ref in rule.get("backendRefs") or []]


def rewrite_default_backend_refs(spec: dict[str, Any], name: str) -> None:
    """After templating: without a scheduler the default pool backends become the workload Service;
    with `scheduler_spec.pool.ref` they are renamed to the referenced pool (group kept)."""
    http = http_spec(spec)
    sched = scheduler_spec.scheduler(spec)
    if http is None:
        return
    for ref in backend_refs(http):
        if not is_default_backend_ref(ref, name):
            continue
        if sched is None:
            ref.update({"group": "", "kind": "Service", "name": child_name(name, "-kserve-workload-svc")})
        elif scheduler_spec.has_pool_ref(spec):
            ref["name"] = scheduler_spec.pool_ref_name(spec)


def resolve_scheduler_config_ref(
    spec: dict[str, Any],
    namespace: str,
    system_namespace: str,
    configmaps: Mapping[Key, dict[str, Any]],
    findings: Findings | None = None,
) -> str | None:
    """After templating: `scheduler_spec.config.ref` → `config.inline` with the ConfigMap value, not templated.

    The ConfigMap is looked up in the service's namespace, then, for names starting with
    `config-scheduler-`, in the system namespace. Returns "<namespace>/<name>" of the ConfigMap
    used. With `findings`, plugins the controller cannot see there (they are detected before this
    step) are reported as LLMC204.
    """
    config = (scheduler_spec.scheduler(spec) or {}).get("config")
    ref = (config or {}).get("ref")
    if ref is None:
        return None
    name = ref.get("name") or ""
    cm = configmaps.get((namespace, name))
    if cm is None and name.startswith("config-scheduler-"):
        cm = configmaps.get((system_namespace, name))
        if cm is None:
            raise LlmcError(
                f'failed to get scheduler config "{name}" from namespaces ["{namespace}", "{system_namespace}"]: '
                f'failed to get v1.ConfigMap {system_namespace}/{name} from API Server: configmaps "{name}" not found',
                hint=_REF_HINT,
            )
    key = ref.get("key") or "epp"
    data = (cm or {}).get("data") or {}
    if key not in data:
        cm_meta = (cm or {}).get("metadata") or {}
        raise LlmcError(
            f'ConfigMap {cm_meta.get("namespace", "")}/{cm_meta.get("name", "")} doesn\'t have key "{key}" in data',
            hint=_REF_HINT,
        )
    text = str(data[key])
    parsed = parse_go_yaml(text)
    config["inline"] = RawConfig(parsed, text) if isinstance(parsed, dict) else text
    del config["ref"]
    cm_meta = cm["metadata"]  # type: ignore[index]
    if findings is not None:
        _report_hidden_plugins(findings, text, f"{cm_meta['namespace']}/{cm_meta['name']}")
    return f"{cm_meta['namespace']}/{cm_meta['name']}"


_REF_HINT = "the controller cannot combine the configs (PresetsCombined=False); supply the ConfigMap with -f"


def _report_hidden_plugins(findings: Findings, text: str, where: str) -> None:
    path = "spec.router.scheduler_spec.config.ref"
    if has_plugin(text, scheduler_spec.LATENCY_PRODUCER):
        findings.add(
            "LLMC204",
            path,
            f"ConfigMap {where} declares {scheduler_spec.LATENCY_PRODUCER}, but the latency-predictor preset is chosen "
            "before config.ref is read: the EPP pod gets no training/prediction sidecars "
            "(the controller only emits a LatencyPredictorConfigRef warning event); use config.inline",
        )
    for plugin in (scheduler_spec.TOKEN_PRODUCER, scheduler_spec.PRECISE_PREFIX_SCORER):
        if has_plugin(text, plugin):
            findings.add(
                "LLMC204",
                path,
                f"ConfigMap {where} declares {plugin}, but the tokenizer preset is chosen before config.ref is read: "
                "the controller then builds a tokenizer Deployment without a pod template, which the API server "
                "rejects, and the scheduler never comes up; use config.inline or set scheduler_spec.tokenizer",
            )


def default_epp_port(spec: dict[str, Any]) -> None:
    """After templating: `endpointPickerRef.port` defaults to 9002 for a Service (or kind-less) picker."""
    pool = scheduler_spec.pool_spec(spec)
    if pool is None:
        return
    ref = pool.get("endpointPickerRef")
    if not isinstance(ref, dict):
        ref = pool["endpointPickerRef"] = {}
    if (ref.get("port") or {}).get("number", 0) in (0, None) and ref.get("kind", "") in ("Service", ""):
        ref["port"] = {"number": scheduler_spec.EPP_PORT}
