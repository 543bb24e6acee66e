"""The router layer of one service: fix-ups of the merged spec, the HTTPRoute, the endpoint
picker stack (via `scheduler`), the standalone tokenizer (via `tokenizer`), the controller's
reference validation, and the URL the service would report.

KServe `router.go`, `router_discovery*.go`,
`router_group*.go`, `router_validation.go`, `config_merge.go`. Rendering follows the controller's
first reconcile of `reconcileRouter`: validation, then the scheduler (SA → ClusterRoleBinding →
Role → RoleBinding → tokenizer Deployment/Service → EPP Deployment/Service → InferencePool v1 →
InferencePool v1alpha2), then the HTTPRoute. Where the controller would stop with an error, the
objects it had already written are returned and a finding says what happens next.

Cluster knowledge (existing Gateways, HTTPRoutes, Services) is optional: `Cluster` holds what
the user supplied; without it llmc assumes the referenced objects exist.
"""

from __future__ import annotations

from llmc.core.errors import LlmcError
from llmc.core.jsoncopy import copy_json
from llmc.core.record import field, record
from llmc.kserve import scheduler_spec
from llmc.kserve.scheduler_spec import tokenizer_enabled
from llmc.render import meta, scheduler, tokenizer
from llmc.render.context import RenderContext
from llmc.render.tokenizer import CLUSTER_DOMAIN
from llmc.resolve.router_fixups import GATEWAY_GROUP, Key, backend_refs, http_spec, is_default_backend_ref, router_spec

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any, Mapping

    from llmc.render.scheduler import AttachModel

__all__ = [
    "Cluster",
    "explain_objects",
    "http_route",
    "objects",
    "predicted_url",
    "validate_references",
]

GATEWAY_API = "gateway.networking.k8s.io/v1"
POOL_V1_API = "inference.networking.k8s.io/v1"
POOL_V1ALPHA2_API = "inference.networking.x-k8s.io/v1alpha2"
POOL_MIGRATED_ANNOTATION = "serving.kserve.io/inference-pool-migrated"
ROUTER_COMPONENT = "llminferenceservice-router"
ROUTING_GROUP_LABEL = "serving.kserve.io/routing-group"
GATEWAY_NAME_LABEL = "gateway.networking.k8s.io/gateway-name"
WILDCARD_HOSTNAME = "inference"  # GATEWAY_API_WILDCARD_HOSTNAME default
BACKEND_PORT = 8000


@record(frozen=True)
class Cluster:
    """Objects known to exist in the cluster, keyed by (namespace, name): Gateways, HTTPRoutes,
    and the gateways' backing Services (for URL discovery).

    `complete`: nothing else exists, so a reference to anything else is the controller's RefsInvalid.
    Objects that come with the services (`llmc render -f`, KRM items, an application folder) are not
    complete: they are deployed next to what the cluster already holds (KServe's e2e-gpt-oss sample
    ships an AI gateway while its services use the default one)."""

    gateways: Mapping[Key, dict[str, Any]] = field(default_factory=dict)
    httproutes: Mapping[Key, dict[str, Any]] = field(default_factory=dict)
    services: Mapping[Key, dict[str, Any]] = field(default_factory=dict)
    complete: bool = True


# -- objects --------------------------------------------------------------------------------------


def objects(ctx: RenderContext, cluster: Cluster | None = None, attach_model: AttachModel | None = None) -> list[dict[str, Any]]:
    """Every router object the controller creates for this service, in its order.

    attach_model attaches the model's files to a container (the tokenizer's); by default
    `llmc.render.storage.attach`.
    """
    return [obj for obj, _ in _plan(ctx, cluster, attach_model or _storage_attach)]


def explain_objects(ctx: RenderContext, cluster: Cluster | None = None) -> list[tuple[str, str, str]]:
    """(kind, name, why the controller creates it) for each router object."""
    plan = _plan(ctx, cluster, lambda *_: None)
    return [(obj["kind"], obj["metadata"]["name"], why) for obj, why in plan]


def _storage_attach(ctx: RenderContext, pod: dict[str, Any], container: str, model_path: str, where: str) -> None:
    """attachModelArtifacts(container, modelPath, attachLoRA=false) of llmc.render.storage."""
    from llmc.render import storage

    storage.attach(ctx, pod, container=container, model_path=model_path, lora=False, where=where)


def _plan(ctx: RenderContext, cluster: Cluster | None, attach: AttachModel) -> list[tuple[dict[str, Any], str]]:
    spec = ctx.spec
    router = spec.get("router")
    if router is None or meta.is_stopped(ctx):
        return []
    caps = ctx.options.capabilities
    route = router.get("route")
    http = (route or {}).get("http") or {}
    managed_route = route is not None and http.get("spec") is not None
    if not caps.has(GATEWAY_API):
        reads = [
            what
            for what, present in (
                ("gateway.refs", (router.get("gateway") or {}).get("refs")),
                ("route.http.refs", http.get("refs")),
                ("the managed route's parentRefs", managed_route and http["spec"].get("parentRefs")),
            )
            if present
        ]
        if reads:
            ctx.findings.add(
                "LLMC201",
                "spec.router",
                f"the cluster has no {GATEWAY_API} API: the controller fails to read the Gateways of {reads[0]}, "
                "creates no HTTPRoute, InferencePool, endpoint picker or tokenizer and sets no URL, "
                "yet reports RouterReady=True (the failure shows only in events and logs)",
            )
            return []

    out: list[tuple[dict[str, Any], str]] = []
    sched = scheduler_spec.scheduler(spec)
    managed = scheduler_spec.is_managed(spec)
    if managed:
        sa, own_sa = scheduler.service_account_name(ctx)
        if own_sa:
            out.append((scheduler.service_account(ctx), "identity of the endpoint picker (EPP) pod"))
        out.append((scheduler.auth_delegator_binding(ctx, sa), "lets the EPP authenticate callers of /metrics"))
        out.append((scheduler.role(ctx), "EPP read access to pods, InferencePools and objectives; leases for leader election"))
        out.append((scheduler.role_binding(ctx, sa), "binds the EPP role to its ServiceAccount"))
    if tokenizer.rendered(spec):
        if not tokenizer.has_template(spec):
            ctx.findings.add(
                "LLMC204",
                "spec.router.scheduler",
                "a tokenizer plugin is configured but no tokenizer pod template was merged: the controller's "
                "tokenizer Deployment has no containers, the API server rejects it and the scheduler reconcile "
                "stops (SchedulerReconcileError); no EPP, InferencePool or HTTPRoute is created",
            )
            return out
        why = "serves tokenization to the EPP's token-producer plugin"
        out.append((tokenizer.deployment(ctx, attach), why))
        out.append((tokenizer.service(ctx), why))
    if managed:
        url = tokenizer.tokenizer_url(ctx) if tokenizer_enabled(spec) else None
        out.append((scheduler.deployment(ctx, url, attach), "the endpoint picker that schedules requests onto model pods"))
        out.append((scheduler.service(ctx), "gRPC ext-proc endpoint of the EPP, named by the InferencePool"))
        if not caps.has(POOL_V1_API):
            ctx.findings.add(
                "LLMC202",
                "spec.router.scheduler",
                f"the cluster has no {POOL_V1_API} API: writing the InferencePool fails, the scheduler reconcile "
                "stops (SchedulerReconcileError, RouterReady=False) and no HTTPRoute is created",
            )
            return out
        out.append((scheduler.inference_pool(ctx), "the model pods the gateway balances over, with the EPP as picker"))
        if caps.has(POOL_V1ALPHA2_API, "InferencePool"):
            out.append((scheduler.inference_pool_v1alpha2(ctx), "the same pool for gateways that only read the v1alpha2 API"))
    elif sched is not None and scheduler_spec.has_pool_ref(spec) and not caps.has(POOL_V1_API):
        ctx.findings.add(
            "LLMC202",
            "spec.router.scheduler.pool.ref",
            f"the cluster has no {POOL_V1_API} API: the referenced pool cannot be read "
            "(InferencePoolReady=False, InferencePoolFetchError)",
        )
    if managed_route:
        if not caps.has(GATEWAY_API):
            ctx.findings.add(
                "LLMC201",
                "spec.router.route",
                f"the cluster has no {GATEWAY_API} API: writing the HTTPRoute fails (HTTPRouteReconcileError, "
                "RouterReady=False)",
            )
        else:
            out.append((http_route(ctx, cluster), "routes the gateway's paths and model header to the pool and the workload"))
    return out


# -- HTTPRoute --------------------------------------------------------------------------------------


def router_labels(ctx: RenderContext) -> dict[str, str]:
    labels = meta.base_labels(ctx, ROUTER_COMPONENT)
    group = (router_spec(ctx.spec).get("route") or {}).get("group")
    if group is not None:
        labels[ROUTING_GROUP_LABEL] = group
    return labels


def http_route(ctx: RenderContext, cluster: Cluster | None = None) -> dict[str, Any] | None:
    """The managed HTTPRoute `<name>-kserve-route` (expectedHTTPRoute), or None when there is none.

    Steps: model-based routing (LoRA header matches added, or header matches stripped), the
    InferencePool group of the default pool backends, the traffic-splitting rewrite of a
    `route.group`, then API-server defaults (see `route_defaults`).

    The group is the converged one, not the first pass's: the controller starts on v1alpha2 and,
    once the Gateway accepts v1 (or rejects v1alpha2 with InvalidKind), moves the default backends
    to v1 and marks the route `inference-pool-migrated: "v1"` for good (expectedHTTPRoute's
    migration block). A Gateway that only speaks v1alpha2 (`--gateway-pool-api v1alpha2`) keeps it there.
    """
    http = http_spec(ctx.spec)
    if router_spec(ctx.spec).get("route") is None or http is None:
        return None
    spec = copy_json(http)
    header = ctx.settings.model_routing_header
    if _model_routing_enabled(ctx, cluster):
        lora = (ctx.spec.get("model") or {}).get("lora")
        if lora is not None:
            _expand_lora_matches(spec, ctx.namespace, lora.get("adapters") or [], header)
    else:
        _strip_model_routing(spec, header)
    annotations = None
    if scheduler_spec.scheduler(ctx.spec) is not None and not scheduler_spec.has_pool_ref(ctx.spec):
        migrated = ctx.options.gateway_pool_api == "v1"
        group = scheduler.INFERENCE_V1 if migrated else scheduler.INFERENCE_V1ALPHA2
        for ref in backend_refs(spec):
            if is_default_backend_ref(ref, ctx.name):
                ref["group"] = group
        if migrated:
            annotations = {POOL_MIGRATED_ANNOTATION: "v1"}
    if (router_spec(ctx.spec).get("route") or {}).get("group") is not None:
        _rewrite_for_group(ctx, spec)
    route_defaults(spec)
    return {
        "apiVersion": GATEWAY_API,
        "kind": "HTTPRoute",
        "metadata": ctx.metadata(ctx.child("-kserve-route"), router_labels(ctx), annotations),
        "spec": spec,
    }


def _model_routing_enabled(ctx: RenderContext, cluster: Cluster | None) -> bool:
    """isModelBasedRoutingEnabled: header configured, the workload preset's opt-in annotation,
    and the mode; in mode `enabled` a gateway of `gateway.refs` (or of a referenced route) can opt
    out. Unknown gateways count as not opting out, as lookup errors do for the controller."""
    header = ctx.settings.model_routing_header
    if not header or (ctx.spec.get("annotations") or {}).get(meta.MODEL_ROUTING) != "true":
        return False
    mode = str(ctx.settings.ingress.get("modelBasedRoutingMode") or "").lower()
    if mode in ("disabled", "forced"):
        return mode == "forced"
    router = router_spec(ctx.spec)
    refs = (router.get("gateway") or {}).get("refs") or []
    if not refs or cluster is None:
        return True
    keys = [(str(r.get("namespace") or ctx.namespace), str(r.get("name") or "")) for r in refs]
    for ref in ((router.get("route") or {}).get("http") or {}).get("refs") or []:
        route = cluster.httproutes.get((ctx.namespace, ref.get("name") or ""))
        if route is not None:
            keys += [_parent_key(p, ctx.namespace) for p in (route.get("spec") or {}).get("parentRefs") or []]
    for key in keys:
        gateway = cluster.gateways.get(key)
        if gateway is None:
            return True
        if ((gateway.get("metadata") or {}).get("annotations") or {}).get(meta.MODEL_ROUTING) == "false":
            return False
    return True


def _parent_key(parent: dict[str, Any], namespace: str) -> Key:
    return str(parent.get("namespace") or namespace), str(parent.get("name") or "")


def _is_model_routing_match(match: dict[str, Any], header: str) -> bool:
    return bool(header) and any(h.get("name") == header for h in match.get("headers") or [])


def _strip_model_routing(spec: dict[str, Any], header: str) -> None:
    """stripModelBasedRoutingRules: header matches go, and rules left without matches go too."""
    if not header:
        return
    kept_rules = []
    for rule in spec.get("rules") or []:
        kept = [m for m in rule.get("matches") or [] if not _is_model_routing_match(m, header)]
        if kept:
            rule["matches"] = kept
            kept_rules.append(rule)
    if kept_rules:
        spec["rules"] = kept_rules
    else:
        spec.pop("rules", None)


def _expand_lora_matches(spec: dict[str, Any], namespace: str, adapters: list[dict[str, Any]], header: str) -> None:
    """expandLoRAAdapterMatches: per header match, one copy per named adapter (sorted by name)."""
    if not header or not adapters:
        return
    names = [a["name"] for a in sorted(adapters, key=lambda a: a.get("name") or "") if a.get("name") is not None]
    for rule in spec.get("rules") or []:
        extra = []
        for match in rule.get("matches") or []:
            if not _is_model_routing_match(match, header):
                continue
            for name in names:
                copied = copy_json(match)
                for h in copied.get("headers") or []:
                    if h.get("name") == header:
                        h["value"] = f"publishers/{namespace}/models/{name}"
                extra.append(copied)
        if extra:
            rule["matches"] = (rule.get("matches") or []) + extra


def _rewrite_for_group(ctx: RenderContext, spec: dict[str, Any]) -> None:
    """rewriteRulesForGroup with the members llmc can see: this service alone, on its first
    reconcile (no status yet, so a managed pool is not yet its backend: the workload Service is).

    The member is the service as stored; it matches itself only if its own model names equal the
    merged ones (a baseRef adding a LoRA adapter makes it diverge, leaving the rules without backends).
    """
    route = router_spec(ctx.spec).get("route") or {}
    weight = route.get("weight") or 0
    if scheduler_spec.has_pool_ref(ctx.spec):
        backend: dict[str, Any] = {
            "group": scheduler.INFERENCE_V1ALPHA2,
            "kind": "InferencePool",
            "name": scheduler_spec.pool_ref_name(ctx.spec),
        }
    else:
        backend = {"kind": "Service", "name": ctx.child("-kserve-workload-svc")}
    backend.update({"port": BACKEND_PORT, "weight": weight})
    members = [backend] if _model_names(ctx.service.get("spec") or {}, ctx.name) == _model_names(ctx.spec, ctx.name) else []
    prefix = f"/{ctx.namespace}/{ctx.name}"
    for rule in spec.get("rules") or []:
        paths = [((m.get("path") or {}).get("value")) for m in rule.get("matches") or []]
        if any(p is not None and (p == prefix or p.startswith(prefix + "/")) for p in paths):
            continue
        if any(_is_own_backend(ctx, ref) for ref in rule.get("backendRefs") or []):
            if members:
                rule["backendRefs"] = copy_json(members)
            else:
                del rule["backendRefs"]  # an empty list is omitted from the Go object


def _model_names(spec: dict[str, Any], name: str) -> list[str]:
    model = spec.get("model") or {}
    names = {model.get("name") or name}
    names |= {a["name"] for a in (model.get("lora") or {}).get("adapters") or [] if a.get("name") is not None}
    return sorted(names)


def _is_own_backend(ctx: RenderContext, ref: dict[str, Any]) -> bool:
    """isExpectedBackendRef: the default pool, the workload Service, or the referenced pool."""
    if is_default_backend_ref(ref, ctx.name):
        return True
    if (ref.get("kind") or "Service") == "Service" and ref.get("name") == ctx.child("-kserve-workload-svc"):
        return True
    return scheduler_spec.has_pool_ref(ctx.spec) and ref.get("kind") == "InferencePool" \
        and ref.get("name") == scheduler_spec.pool_ref_name(ctx.spec)


_ROOT_PATH = {"type": "PathPrefix", "value": "/"}


def route_defaults(spec: dict[str, Any]) -> None:
    """The HTTPRoute CRD's defaults (gateway-api v1), written out as the API server would store them.

    Gateway API lists carry no merge keys, so a GitOps tool comparing the rendered route with the
    live one compares whole list items: a `backendRefs[]` entry without `group: ""` (kserve #5353),
    a match without its `path`, a header without `type` all show as drift. Emitted: parentRefs
    group/kind; a missing `rules` / `matches` / `path`; path type and value; header and query
    type; backendRefs group/kind/weight; in filters the requestMirror backendRef group/kind and
    fraction denominator, the requestRedirect status code and the CORS maxAge.
    """
    for parent in spec.get("parentRefs") or []:
        parent.setdefault("group", GATEWAY_GROUP)
        parent.setdefault("kind", "Gateway")
    if spec.get("rules") is None:
        spec["rules"] = [{"matches": [{"path": dict(_ROOT_PATH)}]}]
    for rule in spec["rules"]:
        if rule.get("matches") is None:
            rule["matches"] = [{"path": dict(_ROOT_PATH)}]
        for match in rule["matches"]:
            if match.get("path") is None:
                match["path"] = dict(_ROOT_PATH)
            match["path"].setdefault("type", "PathPrefix")
            match["path"].setdefault("value", "/")
            for item in (match.get("headers") or []) + (match.get("queryParams") or []):
                item.setdefault("type", "Exact")
        for ref in rule.get("backendRefs") or []:
            ref.setdefault("group", "")
            ref.setdefault("kind", "Service")
            ref.setdefault("weight", 1)
            _filter_defaults(ref.get("filters") or [])
        _filter_defaults(rule.get("filters") or [])


def _filter_defaults(filters: list[dict[str, Any]]) -> None:
    for item in filters:
        mirror = item.get("requestMirror")
        if isinstance(mirror, dict):
            if isinstance(mirror.get("backendRef"), dict):
                mirror["backendRef"].setdefault("group", "")
                mirror["backendRef"].setdefault("kind", "Service")
            if isinstance(mirror.get("fraction"), dict):
                mirror["fraction"].setdefault("denominator", 100)
        if isinstance(item.get("requestRedirect"), dict):
            item["requestRedirect"].setdefault("statusCode", 302)
        if isinstance(item.get("cors"), dict):
            item["cors"].setdefault("maxAge", 5)


# -- controller-side validation (llmisvc/router_validation.go) ----------------------------------------------------------


def validate_references(ctx: RenderContext, cluster: Cluster | None) -> None:
    """validateRouterReferences against the known cluster objects; raises with the controller's
    message (reason RefsInvalid). Without a cluster inventory nothing can be checked."""
    router = ctx.spec.get("router")
    if cluster is None or router is None or meta.is_stopped(ctx) or not ctx.options.capabilities.has(GATEWAY_API):
        return
    ns = ctx.namespace
    gateways, httproutes = cluster.gateways, cluster.httproutes

    def absent(table: Mapping[Key, Any], key: Key) -> bool:
        """Known not to exist: an incomplete inventory cannot tell."""
        return cluster.complete and key not in table

    refs = (router.get("gateway") or {}).get("refs") or []
    missing = [
        f"Gateway {key[0]}/{key[1]} does not exist"
        for key in ((str(r.get("namespace") or ns), str(r.get("name") or "")) for r in refs)
        if absent(gateways, key)
    ]
    _refs_invalid(missing, "GatewaysReady", "spec.router.gateway.refs")
    route = router.get("route")
    if route is None:
        return
    http = route.get("http") or {}
    route_refs = [str(r.get("name") or "") for r in http.get("refs") or []]
    missing = [f"HTTPRoute {ns}/{name} does not exist" for name in route_refs if absent(httproutes, (ns, name))]
    _refs_invalid(missing, "HTTPRoutesReady", "spec.router.route.http.refs")
    if http.get("spec") is not None:
        missing = [
            f"Managed HTTPRoute references non-existent Gateway {key[0]}/{key[1]}"
            for key in (_parent_key(p, ns) for p in http["spec"].get("parentRefs") or [])
            if absent(gateways, key)
        ]
        _refs_invalid(missing, "HTTPRoutesReady", "spec.router.route.http.spec.parentRefs")
    problems = []
    for name in route_refs:
        if (ns, name) not in httproutes:
            continue  # not known (an incomplete inventory): nothing to check
        target = httproutes[(ns, name)]
        parents = (target.get("spec") or {}).get("parentRefs") or []
        if not parents:
            problems.append(f"HTTPRoute {ns}/{name} has no parent gateway references")
        for key in (_parent_key(p, ns) for p in parents):
            if absent(gateways, key):
                problems.append(f"HTTPRoute {ns}/{name} references non-existent Gateway {key[0]}/{key[1]}")
    if problems:
        _refs_invalid(["HTTPRoute target validation failed: " + "; ".join(problems)], "HTTPRoutesReady", "spec.router.route.http.refs")


def _refs_invalid(messages: list[str], condition: str, path: str) -> None:
    if messages:
        raise LlmcError(
            "; ".join(messages),
            hint=f"the controller sets {condition}=False (RefsInvalid) at {path} and creates no router objects; "
            "create the object",
        )


# -- status.url (llmisvc/router.go) ---------------------------------------------------------------------------


def predicted_url(ctx: RenderContext, cluster: Cluster | None = None) -> str | None:
    """status.url after the first successful reconcile, from the Gateways (listeners,
    status.addresses) and their backing Services in `cluster`; None when it cannot be known
    offline or the controller leaves it unset (no route: it is not touched)."""
    router = ctx.spec.get("router")
    route = (router or {}).get("route")
    if route is None or cluster is None or meta.is_stopped(ctx) or not ctx.options.capabilities.has(GATEWAY_API):
        return None
    routes = [
        cluster.httproutes[(ctx.namespace, str(r.get("name") or ""))]
        for r in (route.get("http") or {}).get("refs") or []
        if (ctx.namespace, str(r.get("name") or "")) in cluster.httproutes
    ]
    managed = http_route(ctx, cluster)
    if managed is not None:
        routes.append(managed)
    scheme = str(ctx.settings.ingress.get("urlScheme") or "http")
    urls: list[str] = []
    for obj in routes:
        found = _route_urls(obj, ctx, cluster, scheme)
        if found is None:
            return None
        urls += found
    if not urls:
        return None
    urls.sort()
    external = [u for u in urls if not _internal(u)]
    prefix = f"/{ctx.namespace}/{ctx.name}"
    return _prefer_path(external, prefix, "") if external else _prefer_path(urls, prefix, scheme)


def _route_urls(route: dict[str, Any], ctx: RenderContext, cluster: Cluster, scheme: str) -> list[str] | None:
    """DiscoverURLs for one route; None where the controller's discovery fails."""
    namespace = (route.get("metadata") or {}).get("namespace") or ctx.namespace
    spec = route.get("spec") or {}
    out: list[str] = []
    for parent in spec.get("parentRefs") or []:
        gateway = cluster.gateways.get(_parent_key(parent, namespace))
        if gateway is None:
            return None
        listeners = _select_listeners(gateway, parent.get("sectionName"), scheme)
        if listeners is None:
            return None
        addresses = (gateway.get("status") or {}).get("addresses") or []
        service = _gateway_service(gateway, cluster)
        seen: set[str] = set()
        for path in _route_paths(spec, ctx.settings.model_routing_header):
            candidates: list[str] = []
            if addresses:
                for listener in listeners:
                    hosts = _hostnames(spec, listener, addresses)
                    candidates += [_url(_scheme(listener), h, listener.get("port"), path) for h in sorted(hosts)]
            if service is not None:
                svc_meta = service.get("metadata") or {}
                host = f"{svc_meta.get('name')}.{svc_meta.get('namespace')}.svc.{CLUSTER_DOMAIN}"
                ports = [p.get("port") for p in (service.get("spec") or {}).get("ports") or []]
                for listener in listeners:
                    if not ports or listener.get("port") in ports:
                        candidates.append(_url(_scheme(listener), host, listener.get("port"), path))
            for url in candidates:
                if url not in seen:
                    seen.add(url)
                    out.append(url)
    return out


def _scheme(listener: dict[str, Any]) -> str:
    return {"HTTP": "http", "HTTPS": "https", "TLS": "https"}.get(str(listener.get("protocol")), "")


def _select_listeners(gateway: dict[str, Any], section: str | None, preferred: str) -> list[dict[str, Any]] | None:
    listeners = (gateway.get("spec") or {}).get("listeners") or []
    if section is not None:
        chosen = [item for item in listeners if item.get("name") == section][:1]
        return chosen or None
    usable = [item for item in listeners if _scheme(item)]
    rank = lambda item: 0 if _scheme(item) == preferred else 1 if _scheme(item) == "https" else 2  # noqa: E731
    return sorted(usable, key=rank) or None


def _hostnames(spec: dict[str, Any], listener: dict[str, Any], addresses: list[dict[str, Any]]) -> list[str]:
    hosts = [h for h in spec.get("hostnames") or [] if h not in ("", "*")]
    if not hosts and listener.get("hostname"):
        name = str(listener["hostname"])
        hosts = [f"{WILDCARD_HOSTNAME}.{name[2:]}" if name.startswith("*.") else name]
    return hosts or [str(a["value"]) for a in addresses if a.get("value")]


def _url(scheme: str, host: str, port: Any, path: str) -> str:
    default = (scheme == "http" and port == 80) or (scheme == "https" and port == 443)
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}{'' if default or not port else f':{port}'}{path}"


def _route_paths(spec: dict[str, Any], header: str) -> list[str]:
    """extractRoutePaths: the shallowest path of each bucket (path, publisher, model routing),
    preferring rules with a Service backend."""
    buckets: dict[str, tuple[list[str], list[str]]] = {k: ([], []) for k in ("path", "publisher", "model")}
    for rule in spec.get("rules") or []:
        service = any((ref.get("kind") or "Service") == "Service" for ref in rule.get("backendRefs") or [])
        for match in rule.get("matches") or []:
            path = (match.get("path") or {}).get("value")
            path = "/" if path is None else str(path)
            if not match.get("headers"):
                bucket = "publisher" if path.startswith("/publishers/") else "path"
            elif _is_model_routing_match(match, header):
                bucket = "model"
            else:
                continue
            buckets[bucket][0 if service else 1].append(path)
    depth = lambda p: (p.count("/"), len(p))  # noqa: E731
    chosen = []
    for preferred, other in buckets.values():
        paths = preferred or other
        if paths:
            chosen.append(min(paths, key=depth))
    result: list[str] = []
    for path in sorted(chosen, key=depth):
        if not result or result[-1] != path:
            result.append(path)
    return result or ["/"]


def _gateway_service(gateway: dict[str, Any], cluster: Cluster) -> dict[str, Any] | None:
    """DiscoverGatewayService: the alphabetically first Service labelled with the gateway name, else
    the Service named like the gateway."""
    gw_meta = gateway.get("metadata") or {}
    ns, name = gw_meta.get("namespace"), gw_meta.get("name")
    labelled = sorted(
        (key[1], svc)
        for key, svc in cluster.services.items()
        if key[0] == ns and ((svc.get("metadata") or {}).get("labels") or {}).get(GATEWAY_NAME_LABEL) == name
    )
    if labelled:
        return labelled[0][1]
    return cluster.services.get((str(ns), str(name)))


def _internal(url: str) -> bool:
    """IsInternalURL: a private IP (Go's net.IP.IsPrivate) or a local host name."""
    import ipaddress  # imported where a URL is judged: only a service with a route and a gateway gets here
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").lower()
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host == "localhost" or host.endswith((CLUSTER_DOMAIN, ".local", ".localhost", ".internal"))
    private = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16") if ip.version == 4 else ("fc00::/7",)
    return any(ip in ipaddress.ip_network(net) for net in private)


def _prefer_path(urls: list[str], prefix: str, scheme: str) -> str:
    """preferPathBasedURL: the first URL under /<ns>/<name> (in the preferred scheme, if given)."""
    from urllib.parse import urlsplit

    first: str | None = None
    for url in urls:
        parts = urlsplit(url)
        if parts.path.startswith(prefix):
            if scheme and parts.scheme == scheme:
                return url
            first = first or url
    return first or urls[0]

