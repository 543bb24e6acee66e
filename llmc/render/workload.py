"""Single-node workloads: the main and prefill Deployments, the workload Service,
and the ServiceAccount/Role/RoleBinding the routing sidecar needs (llmisvc/workload_single_node.go)."""

from __future__ import annotations


from llmc.kserve import scheduler_spec
from llmc.kserve.spec import KSERVE_COMPONENT, Slot, workload_selector
from llmc.render import meta
from llmc.render.context import RenderContext

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any, Protocol

ROUTING_SIDECAR = "llm-d-routing-sidecar"


if TYPE_CHECKING:
    class PreparePod(Protocol):
        """The shared pod pipeline (llmc.render.service.prepare_pod): a finished pod spec for one slot."""

        def __call__(self, ctx: RenderContext, slot: Slot, before: Any = None) -> dict[str, Any]: ...


def has_routing_sidecar(pod: dict[str, Any] | None) -> bool:
    """The controller looks only at init containers for the routing sidecar."""
    return any(c.get("name") == ROUTING_SIDECAR for c in (pod or {}).get("initContainers") or [])


def sidecar_role(ctx: RenderContext, role: str, binding: str, labels: dict[str, str], sa: str) -> list[dict[str, Any]]:
    """Role `role` with the two rules the routing sidecar's SSRF protection needs (pods and InferencePools,
    read-only), and RoleBinding `binding` granting it to service account `sa`."""
    rules = [
        {"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list", "watch"]},
        {
            "apiGroups": ["inference.networking.x-k8s.io", "inference.networking.k8s.io"],
            "resources": ["inferencepools"],
            "verbs": ["get", "list", "watch"],
        },
    ]
    return [
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": ctx.metadata(role, labels),
         "rules": rules},
        {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "RoleBinding",
            "metadata": ctx.metadata(binding, labels),
            "subjects": [{"kind": "ServiceAccount", "name": sa, "namespace": ctx.namespace}],
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": role},
        },
    ]


def add_inference_pool_env(ctx: RenderContext, pod: dict[str, Any]) -> None:
    """Append INFERENCE_POOL_NAME to the routing sidecar (no de-duplication, as the controller)."""
    if ctx.spec.get("router") is None:
        return
    pool = scheduler_spec.inference_pool_name(ctx.spec, ctx.child)
    for container in pod.get("initContainers") or []:
        if container.get("name") == ROUTING_SIDECAR:
            container.setdefault("env", []).append({"name": "INFERENCE_POOL_NAME", "value": pool})


def rollout_strategy(workload: dict[str, Any]) -> dict[str, Any] | None:
    rollout = workload.get("rolloutStrategy") or {}
    update = {k: rollout[k] for k in ("maxUnavailable", "maxSurge") if rollout.get(k) is not None}
    if not update:
        return None
    return {"type": "RollingUpdate", "rollingUpdate": update}


def _deployment(
    ctx: RenderContext,
    name: str,
    labels: dict[str, str],
    pod_annotations: dict[str, str],
    workload: dict[str, Any],
    pod: dict[str, Any] | None,
) -> dict[str, Any]:
    annotations = meta.with_prefixes(ctx.annotations, meta.DEPLOYMENT_ANNOTATION_PREFIXES)
    spec: dict[str, Any] = {}
    if workload.get("replicas") is not None:
        spec["replicas"] = workload["replicas"]
    spec["selector"] = {"matchLabels": dict(labels)}
    strategy = rollout_strategy(workload)
    if strategy is not None:
        spec["strategy"] = strategy
    template: dict[str, Any] = {"metadata": {"labels": dict(labels)}}
    if pod_annotations:
        template["metadata"]["annotations"] = pod_annotations
    if pod is not None:
        template["spec"] = pod
    spec["template"] = template
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": ctx.metadata(name, labels, annotations),
        "spec": spec,
    }


def _labels(ctx: RenderContext, component: str, role: str, workload: dict[str, Any]) -> dict[str, str]:
    """The controller shares one map between labels, selector and pod labels, so spec.labels land in all three."""
    labels = meta.base_labels(ctx, component)
    labels[KSERVE_COMPONENT] = "workload"
    labels[meta.ROLE] = role
    labels.update(meta.with_prefixes(ctx.labels, meta.LABEL_PREFIXES))
    labels.update(workload.get("labels") or {})
    return labels


def main_deployment(ctx: RenderContext, prepare_pod: PreparePod) -> dict[str, Any]:
    """Deployment `<name>-kserve` for spec.template (no worker)."""
    spec = ctx.spec
    role = "decode" if spec.get("prefill") is not None else "both"
    labels = _labels(ctx, meta.WORKLOAD, role, spec)
    pod_annotations = {k: ctx.annotations[k] for k in meta.PROMETHEUS_KEYS if k in ctx.annotations}
    pod_annotations.update(meta.with_prefixes(ctx.annotations, meta.DEPLOYMENT_ANNOTATION_PREFIXES))
    pod_annotations.update(meta.without_model_routing(spec.get("annotations")))
    pod = None
    if spec.get("template") is not None:
        pod = prepare_pod(ctx, Slot("template", spec), before=_main_sidecar_step)
    return _deployment(ctx, ctx.child("-kserve"), labels, pod_annotations, spec, pod)


def _main_sidecar_step(ctx: RenderContext, pod: dict[str, Any]) -> None:
    """Main Deployment only: with a routing sidecar, the pod runs as the managed (or the user's) SA."""
    if has_routing_sidecar(pod):
        if not pod.get("serviceAccountName"):
            pod["serviceAccountName"] = ctx.child("-kserve")
        add_inference_pool_env(ctx, pod)


def prefill_deployment(ctx: RenderContext, prepare_pod: PreparePod) -> dict[str, Any]:
    """Deployment `<name>-kserve-prefill` for spec.prefill.template (no prefill worker)."""
    prefill = ctx.spec["prefill"]
    labels = _labels(ctx, meta.WORKLOAD_PREFILL, "prefill", prefill)
    pod_annotations = meta.with_prefixes(ctx.annotations, meta.DEPLOYMENT_ANNOTATION_PREFIXES)
    pod_annotations.update(meta.without_model_routing(prefill.get("annotations")))
    pod = None
    if prefill.get("template") is not None:
        pod = prepare_pod(ctx, Slot("prefill.template", prefill))
    return _deployment(ctx, ctx.child("-kserve-prefill"), labels, pod_annotations, prefill, pod)


def sidecar_rbac(ctx: RenderContext) -> list[dict[str, Any]]:
    """SA `<name>-kserve`, Role `-kserve-role`, RoleBinding `-kserve-rb` when spec.template has the routing sidecar.

    A user-chosen serviceAccountName other than `<name>-kserve` is used instead of a managed SA;
    the Role/RoleBinding still bind that SA (llmisvc/workload_single_node.go).
    """
    template = ctx.spec.get("template")
    if not has_routing_sidecar(template):
        return []
    managed = ctx.child("-kserve")
    user_sa = (template or {}).get("serviceAccountName") or ""
    labels = meta.base_labels(ctx, meta.WORKLOAD)
    out: list[dict[str, Any]] = []
    if user_sa in ("", managed):
        out.append({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": ctx.metadata(managed, labels)})
    out += sidecar_role(ctx, ctx.child("-kserve-role"), ctx.child("-kserve-rb"), labels, user_sa or managed)
    return out


def workload_service(ctx: RenderContext) -> dict[str, Any]:
    """Service `<name>-kserve-workload-svc`: fixed port 8000, named https when TLS is on."""
    labels = meta.base_labels(ctx, meta.WORKLOAD)
    labels.update(ctx.spec.get("labels") or {})
    annotations = meta.without_model_routing(ctx.spec.get("annotations"))
    scheme = "https" if ctx.settings.enable_tls else "http"
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": ctx.metadata(ctx.child("-kserve-workload-svc"), labels, annotations),
        "spec": {
            "ports": [
                {"name": scheme, "protocol": "TCP", "appProtocol": scheme, "port": 8000, "targetPort": 8000}
            ],
            "selector": workload_selector(ctx.name),
            "type": "ClusterIP",
        },
    }


def objects(ctx: RenderContext, prepare_pod: PreparePod) -> list[dict[str, Any]]:
    """Single-node objects in the controller's order: SA/RBAC, main Deployment, prefill Deployment."""
    out = sidecar_rbac(ctx)
    spec = ctx.spec
    if spec.get("worker") is None:
        out.append(main_deployment(ctx, prepare_pod))
    prefill = spec.get("prefill")
    if prefill is not None and prefill.get("worker") is None:
        out.append(prefill_deployment(ctx, prepare_pod))
    return out
