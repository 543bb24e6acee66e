"""`llmc explain`: why each object exists and where each field of the merged spec came from.

For every service: the configs applied in `status.appliedConfigs` order, each
rendered object with a one-line reason, field provenance, the findings and the
predicted URL. `explain` builds plain data (the `-o json` document, keys
documented in docs/gitops.md); `format_text` writes it for people.

Provenance follows the merge: `Resolved.layers` lists (label, spec) lowest
precedence first, so the last layer that sets a leaf of the merged spec is the
one that wins. Leaves are scalars, empty maps and lists that are not keyed;
lists whose items all carry a distinct `name` (containers, env, volumes) are
merged by that name and addressed `containers[name=main]`, as `llmc diff`
does. A leaf no layer sets was written while resolving (CRD and webhook
defaults, managed-DRA injection, route and scheduler rewrites): its layer is
`null`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from llmc.gitops.diff import keyed
from llmc.core.findings import Findings
from llmc.k8s.names import child_name
from llmc.pipeline import Compiled, Request, ServiceOutput
from llmc.render.context import RenderContext

if TYPE_CHECKING:
    from llmc.render.router import Cluster

API_VERSION = "llmc.dev/v1alpha1"
KIND = "Explanation"
DERIVED = "derived while resolving (CRD/webhook defaults, managed DRA, route and scheduler rewrites)"

Segment = str | tuple[str, str]  # a map key, or ("name", value) for an item of a keyed list

# (kind, child-name suffix, reason) for the workload layer's objects; the router
# module explains its own (HTTPRoute, InferencePool, endpoint picker, tokenizer).
_REASONS: tuple[tuple[str, str, str], ...] = (
    ("Deployment", "-kserve", "model server pods from spec.template (single node; the decode side when spec.prefill is set)"),
    ("Deployment", "-kserve-prefill", "prefill model server pods from spec.prefill.template (disaggregated prefill/decode)"),
    ("LeaderWorkerSet", "-kserve-mn", "multi-node model server groups: spec.worker is set (leader spec.template, workers spec.worker)"),
    ("LeaderWorkerSet", "-kserve-mn-prefill", "multi-node prefill groups: spec.prefill.worker is set"),
    ("Service", "-kserve-workload-svc", "stable in-cluster address (port 8000) of the model server pods"),
    ("ServiceAccount", "-kserve", "identity of the model server pods, needed by the routing sidecar's RBAC"),
    ("Role", "-kserve-role", "lets the routing sidecar read what it needs to forward prefill requests"),
    ("RoleBinding", "-kserve-rb", "binds the routing sidecar's Role to the model server pods' ServiceAccount"),
    ("ServiceAccount", "-kserve-mn", "identity of the multi-node model server pods"),
    ("ServiceAccount", "-kserve-mn-prefill", "identity of the multi-node prefill pods"),
    ("Role", "-kserve-mn-role", "lets the routing sidecar of the multi-node pods read what it needs"),
    ("RoleBinding", "-kserve-mn-rb", "binds the multi-node routing sidecar's Role to the pods' ServiceAccount"),
    ("ResourceClaimTemplate", "-managed-dra", "managed DRA: the serving.kserve.io/exp-dra-* annotations request devices per pod"),
    ("HorizontalPodAutoscaler", "-kserve-hpa", "spec.scaling: scales the main workload"),
    ("HorizontalPodAutoscaler", "-kserve-prefill-hpa", "spec.prefill.scaling: scales the prefill workload"),
    ("ScaledObject", "-kserve-keda", "spec.scaling with KEDA: scales the main workload"),
    ("ScaledObject", "-kserve-prefill-keda", "spec.prefill.scaling with KEDA: scales the prefill workload"),
    ("Certificate", "-kserve-self-signed-certs",
     "rendered by llmc, not the controller: cert-manager creates the TLS Secret the pods mount, which the controller generates at run time"),
    ("Issuer", "-kserve-self-signed-issuer", "rendered by llmc: the self-signed cert-manager issuer of that Certificate"),
)


def explain(compiled: Compiled, request: Request, cluster: Cluster | None = None) -> dict[str, Any]:
    """The explanation document for every service of a compiled request: LLMInferenceServices,
    then InferenceServices.

    `cluster` holds the Gateways (and their Services, extra HTTPRoutes) the URL depends on.
    """
    services = [explain_service(o, request, cluster) for o in compiled.outputs]
    services += explain_inference_services(compiled.isvc.objects, compiled.isvc.findings, request)
    return {"apiVersion": API_VERSION, "kind": KIND, "services": services}


ISVC_LABEL = "serving.kserve.io/inferenceservice"


def explain_inference_services(objects: list[dict[str, Any]], findings, request: Request) -> list[dict[str, Any]]:
    """One entry per InferenceService: the objects it renders (by its label, or named after it), its
    findings and prerequisites. Presets and provenance do not apply (no LLMInferenceServiceConfig)."""
    names = sorted({(o["metadata"].get("namespace", ""), (o["metadata"].get("labels") or {})[ISVC_LABEL])
                    for o in objects if ISVC_LABEL in (o["metadata"].get("labels") or {})})
    owned: dict[tuple[str, str], list[dict[str, Any]]] = {key: [] for key in names}
    for obj in objects:
        meta = obj["metadata"]
        label = (meta.get("labels") or {}).get(ISVC_LABEL)
        ns = meta.get("namespace", "")
        key = (ns, label) if label else max(((n, i) for n, i in names if n == ns and
                                              (meta["name"] == i or meta["name"].startswith(i + "-"))),
                                             key=lambda k: len(k[1]), default=None)
        if key is not None:
            owned[key].append(obj)
    out = []
    for (ns, name), objs in owned.items():
        mine = sorted(f for f in findings if f.service == f"{ns}/{name}")
        out.append({
            "name": name, "namespace": ns, "kind": "InferenceService", "appliedConfigs": [],
            "objects": [{"apiVersion": o["apiVersion"], "kind": o["kind"], "namespace": ns, "name": o["metadata"]["name"],
                         "reason": f"{o['kind']} created by the InferenceService controller for {name}"} for o in objs],
            "provenance": [], "findings": [_finding_entry(f) for f in mine],
            "prerequisites": prerequisite_entries(objs, name), "url": None,
        })
    return out


def explain_service(out: ServiceOutput, request: Request, cluster: Cluster | None = None) -> dict[str, Any]:
    resolved = out.resolved
    meta = resolved.service["metadata"]
    ctx = RenderContext(
        service=resolved.service,
        spec=resolved.spec,
        settings=request.settings,
        options=request.options,
        # a copy: explaining must not add findings to the service's own list
        findings=Findings(resolved.findings.service, list(resolved.findings.items)),
        lora_adapters=resolved.lora_adapters,
    )
    router_reasons, url = _router_facts(ctx, cluster)
    return {
        "name": meta["name"],
        "namespace": meta["namespace"],
        "kind": "LLMInferenceService",
        "appliedConfigs": [dict(c) for c in resolved.applied_configs],
        "objects": [_object_entry(obj, meta, router_reasons) for obj in out.objects],
        "provenance": [{"path": path, "layer": layer} for path, layer in provenance(resolved.spec, resolved.layers)],
        "findings": [_finding_entry(f) for f in sorted(resolved.findings.items)],
        "prerequisites": prerequisite_entries(out.objects, meta["name"]),
        "url": url,
    }


def prerequisite_entries(objects: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """The objects the output refers to that the service does not create (llmc.check.references), one entry
    per object with every field that names it: they must exist before the output works."""
    from llmc.check.references import prerequisites

    by_target: dict = {}
    for ref in prerequisites(objects, name):
        by_target.setdefault(ref.target, []).append(ref.where)
    return [
        {"group": t.group, "kind": t.kind, "namespace": t.namespace, "name": t.name, "referencedBy": sorted(set(fields))}
        for t, fields in sorted(by_target.items())
    ]


def _router_facts(ctx: RenderContext, cluster: Cluster | None) -> tuple[dict[tuple[str, str], str], str | None]:
    """The router module's reasons for its objects, keyed by (kind, name), and the URL it predicts
    (which needs the Gateways the route attaches to: none without `cluster`)."""
    from llmc.render import router

    reasons = {(kind, name): why for kind, name, why in router.explain_objects(ctx, cluster)}
    return reasons, router.predicted_url(ctx, cluster)


def cluster_from(objects: list[dict[str, Any]], default_namespace: str) -> Cluster:
    """The cluster state URL discovery reads: Gateways, HTTPRoutes and Services, keyed by (namespace, name)."""
    from llmc.render.router import Cluster

    found: dict[str, dict[tuple[str, str], dict[str, Any]]] = {"Gateway": {}, "HTTPRoute": {}, "Service": {}}
    for obj in objects:
        table = found.get(str(obj.get("kind")))
        if table is None:
            continue
        meta = obj.get("metadata") or {}
        namespace = meta.get("namespace") or default_namespace
        table[(namespace, str(meta.get("name", "")))] = {**obj, "metadata": {**meta, "namespace": namespace}}
    return Cluster(gateways=found["Gateway"], httproutes=found["HTTPRoute"], services=found["Service"])


def _object_entry(obj: dict[str, Any], service_meta: dict[str, Any], router_reasons: dict[tuple[str, str], str]) -> dict[str, Any]:
    meta = obj.get("metadata") or {}
    kind, name = obj.get("kind", ""), meta.get("name", "")
    entry: dict[str, Any] = {"apiVersion": obj.get("apiVersion", ""), "kind": kind}
    if meta.get("namespace"):
        entry["namespace"] = meta["namespace"]
    entry["name"] = name
    entry["reason"] = router_reasons.get((kind, name)) or object_reason(kind, name, service_meta)
    return entry


def object_reason(kind: str, name: str, service_meta: dict[str, Any]) -> str:
    """A short reason for a workload-layer object the controller creates for the service `service_meta` names."""
    service = service_meta["name"]
    for reason_kind, suffix, reason in _REASONS:
        if kind == reason_kind and name == child_name(service, suffix):
            return reason
    return f"{kind} created by the controller for {service}"


def _finding_entry(finding) -> dict[str, str]:
    data = finding.as_dict()
    del data["service"]
    return data


# --------------------------------------------------------------------------- provenance


def provenance(spec: dict[str, Any], layers: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, str | None]]:
    """(path, winning layer label or None) for every leaf of the merged spec, in the spec's order."""
    out: list[tuple[str, str | None]] = []
    for segments in leaves(spec):
        winner = None
        for label, layer in layers:
            if _present(layer, segments):
                winner = label
        out.append((format_segments(("spec", *segments)), winner))
    return out


def leaves(value: Any, prefix: tuple[Segment, ...] = ()) -> Iterator[tuple[Segment, ...]]:
    """Paths of the leaves under `value`: descends maps and keyed lists, stops at anything else.

    An item of a keyed list is addressed by its name, so its `name` field is no
    leaf of its own; an item with nothing but a name is a leaf itself.
    """
    if isinstance(value, dict) and value:
        for key, child in value.items():
            yield from leaves(child, (*prefix, key))
    elif isinstance(value, list) and keyed(value):
        for item in value:
            path = (*prefix, ("name", item["name"]))
            rest = {k: v for k, v in item.items() if k != "name"}
            if rest:
                yield from leaves(rest, path)
            else:
                yield path
    elif prefix:
        yield prefix


def _present(node: Any, segments: tuple[Segment, ...]) -> bool:
    for seg in segments:
        if isinstance(seg, tuple):
            node = _item(node, seg[1])
        elif isinstance(node, dict):
            node = node.get(seg)
        else:
            return False
        if node is None:
            return False
    return True


def _item(items: Any, name: str) -> dict[str, Any] | None:
    """The item called `name` in a layer's list; failing that, its only item whose name is a Go
    template (`{{ ChildName .ObjectMeta.Name "-inference-pool" }}`): layers hold the presets
    before their templates run, the merged spec after."""
    if not isinstance(items, list):
        return None
    maps = [i for i in items if isinstance(i, dict)]
    exact = next((i for i in maps if i.get("name") == name), None)
    if exact is not None:
        return exact
    templated = [i for i in maps if "{{" in str(i.get("name", ""))]
    return templated[0] if len(templated) == 1 else None


def format_segments(segments: tuple[Segment, ...]) -> str:
    """`spec.template.containers[name=main].env[name=HF_HOME].value`; odd keys as `["a.b/c"]`."""
    from llmc.load.documents import format_path

    text = ""
    for seg in segments:
        if isinstance(seg, tuple):
            text += f"[name={seg[1]}]"
        else:  # format_path writes `.key` or `["odd/key"]` after a first part
            text += format_path((seg,)) if not text else format_path(("_", seg))[1:]
    return text


# --------------------------------------------------------------------------- text


def format_text(doc: dict[str, Any]) -> str:
    """The explanation for people: one block per service."""
    blocks = [_service_text(s) for s in doc["services"]]
    return "\n".join(blocks) if blocks else "no services\n"


def _service_text(svc: dict[str, Any]) -> str:
    lines = [f"{svc['namespace']}/{svc['name']}" + (f" ({svc['kind']})" if svc["kind"] != "LLMInferenceService" else "")]
    lines.append("  configs applied (status.appliedConfigs order, later wins):")
    if not svc["appliedConfigs"]:
        lines.append("    none")
    for i, c in enumerate(svc["appliedConfigs"], 1):
        lines.append(f"    {i}. {c['source']:<7} {c['namespace']}/{c['name']}")
    lines.append(f"  objects ({len(svc['objects'])}):")
    for o in svc["objects"]:
        lines.append(f"    {o['kind']} {o['name']}: {o['reason']}")
    lines.append("  fields of the merged spec, by the layer that set them:")
    for layer in _layer_order(svc):
        paths = [p["path"] for p in svc["provenance"] if p["layer"] == layer]
        lines.append(f"    {layer if layer is not None else DERIVED}:")
        lines += [f"      {p}" for p in paths]
    lines.append("  findings:" if svc["findings"] else "  findings: none")
    for f in svc["findings"]:
        lines.append(f"    {f['severity']}: {f['code']} {f['path']}: {f['message']}")
    lines.append("  prerequisites (objects the cluster must already hold):" if svc["prerequisites"] else "  prerequisites: none")
    for p in svc["prerequisites"]:
        where = f"{p['namespace']}/{p['name']}" if p["namespace"] else p["name"]
        group = f" ({p['group']})" if p["group"] else ""
        lines.append(f"    {p['kind']}{group} {where}: {', '.join(p['referencedBy'])}")
    lines.append(f"  url: {svc['url'] or 'none predicted'}")
    return "\n".join(lines) + "\n"


def _layer_order(svc: dict[str, Any]) -> list[str | None]:
    """Layers that won at least one leaf: the service first, then configs from the highest precedence down, derived last."""
    won = {p["layer"] for p in svc["provenance"]}
    labels = [f"{c['source']}:{c['namespace']}/{c['name']}" for c in svc["appliedConfigs"]]
    ordered: list[str | None] = ["Service", *reversed(labels), None]
    return [layer for layer in ordered if layer in won]
