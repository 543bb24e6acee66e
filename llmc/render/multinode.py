"""Multi-node workloads: the main and prefill LeaderWorkerSets, their ServiceAccounts, and
the Role/RoleBinding the routing sidecar needs (llmisvc/workload_multi_node.go).

Objects come in the controller's order (`reconcileMultiNodeWorkload`, after the managed-DRA template):
main SA, main Role, main RoleBinding, prefill SA, main LWS, prefill LWS.
"""

from __future__ import annotations


from llmc.kserve.spec import KSERVE_COMPONENT, NAME, PART_OF, PART_OF_KEY, Slot
from llmc.render import meta
from llmc.render.context import RenderContext
from llmc.render.parallelism import is_data_parallel, lws_size
from llmc.render.workload import add_inference_pool_env, has_routing_sidecar, sidecar_role

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any, Callable
    from llmc.render.workload import PreparePod

API_VERSION = "leaderworkerset.x-k8s.io/v1"


def main_name(ctx: RenderContext) -> str:
    return ctx.child("-kserve-mn")


def prefill_name(ctx: RenderContext) -> str:
    return ctx.child("-kserve-mn-prefill")


def _service_account(managed: str, workload: dict[str, Any] | None) -> tuple[str, bool]:
    """(name, managed?): the template's SA wins over the worker's; a name other than the managed one is the user's."""
    workload = workload or {}
    user = ((workload.get("template") or {}).get("serviceAccountName") or "") or (
        (workload.get("worker") or {}).get("serviceAccountName") or ""
    )
    if user and user != managed:
        return user, False
    return managed, True


def _sa_labels(ctx: RenderContext) -> dict[str, str]:
    """Multi-node SA/Role/RoleBinding carry name and part-of only (no component)."""
    return {NAME: ctx.name, PART_OF_KEY: PART_OF}


def _sa_object(ctx: RenderContext, name: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": ctx.metadata(name, _sa_labels(ctx))}


def rbac(ctx: RenderContext) -> list[dict[str, Any]]:
    """Main SA (+ Role, RoleBinding) and prefill SA, in reconcile order.

    `reconcileMultiNodeMainServiceAccount`: without spec.worker, a managed SA is deleted and
    the function returns before the Role and RoleBinding, so a single-node service gets none.
    With the user's own SA it goes on: the Role/RoleBinding follow the routing sidecar in the
    main LWS's leader (spec.template) or worker pod, and bind the user's SA, whether or not
    spec.worker exists (the oracle agrees on both).
    """
    spec = ctx.spec
    out: list[dict[str, Any]] = []
    sa, managed = _service_account(main_name(ctx), spec)
    if managed and spec.get("worker") is not None:
        out.append(_sa_object(ctx, sa))
    if (not managed or spec.get("worker") is not None) and (
            has_routing_sidecar(spec.get("template")) or has_routing_sidecar(spec.get("worker"))):
        out += sidecar_role(ctx, ctx.child("-kserve-mn-role"), ctx.child("-kserve-mn-rb"), _sa_labels(ctx), sa)
    prefill = spec.get("prefill")
    prefill_sa, prefill_managed = _service_account(prefill_name(ctx), prefill)
    if prefill_managed and prefill is not None and prefill.get("worker") is not None:
        out.append(_sa_object(ctx, prefill_sa))
    return out


def _force_sa(name: str) -> Callable[[RenderContext, dict[str, Any]], None]:
    def step(_ctx: RenderContext, pod: dict[str, Any]) -> None:
        pod["serviceAccountName"] = name

    return step


def _template(labels: dict[str, str], annotations: dict[str, str], pod: dict[str, Any]) -> dict[str, Any]:
    """A pod template with its own copies of the maps (no shared objects in the output)."""
    metadata: dict[str, Any] = {"labels": dict(labels)}
    if annotations:
        metadata["annotations"] = dict(annotations)
    return {"metadata": metadata, "spec": pod}


def _rollout(workload: dict[str, Any]) -> dict[str, Any]:
    """Always RollingUpdate; the configuration only when a field is set (unset ones: maxUnavailable 1, maxSurge 0)."""
    strategy: dict[str, Any] = {"type": "RollingUpdate"}
    rollout = workload.get("rolloutStrategy") or {}
    if rollout.get("maxUnavailable") is not None or rollout.get("maxSurge") is not None:
        strategy["rollingUpdateConfiguration"] = {
            "maxUnavailable": rollout["maxUnavailable"] if rollout.get("maxUnavailable") is not None else 1,
            "maxSurge": rollout["maxSurge"] if rollout.get("maxSurge") is not None else 0,
        }
    return strategy


def _lws(
    ctx: RenderContext,
    name: str,
    workload: dict[str, Any],
    labels: tuple[dict[str, str], dict[str, str]],
    pods: tuple[dict[str, Any] | None, dict[str, Any]],
    sub_group: bool,
) -> dict[str, Any]:
    """One LeaderWorkerSet. Labels are (leader, worker); the LWS's own labels are the worker's
    (one shared map in the controller, so spec.labels land on the LWS too)."""
    leader_labels, worker_labels = labels
    leader_pod, worker_pod = pods
    top_annotations = meta.with_prefixes(ctx.annotations, meta.LWS_ANNOTATION_PREFIXES)
    top_labels = meta.with_prefixes(ctx.labels, meta.LABEL_PREFIXES)
    own_labels = workload.get("labels") or {}
    own_annotations = meta.without_model_routing(workload.get("annotations"))

    worker_labels = {**worker_labels, **top_labels, **own_labels}
    pod_annotations = {**top_annotations, **own_annotations}
    template: dict[str, Any] = {}
    if leader_pod is not None:
        leader_labels = {**leader_labels, **top_labels, **own_labels}
        template["leaderTemplate"] = _template(leader_labels, pod_annotations, leader_pod)
    template["workerTemplate"] = _template(worker_labels, pod_annotations, worker_pod)
    size = lws_size(workload.get("parallelism"))
    if size is not None:
        template["size"] = size
    template["restartPolicy"] = "RecreateGroupOnPodRestart"
    if sub_group and size is not None:
        template["subGroupPolicy"] = {"subGroupSize": size}

    spec: dict[str, Any] = {}
    if workload.get("replicas") is not None:
        spec["replicas"] = workload["replicas"]
    spec["leaderWorkerTemplate"] = template
    spec["rolloutStrategy"] = _rollout(workload)
    spec["startupPolicy"] = "LeaderCreated"
    return {
        "apiVersion": API_VERSION,
        "kind": "LeaderWorkerSet",
        "metadata": ctx.metadata(name, worker_labels, top_annotations),
        "spec": spec,
    }


def _prepare(ctx: RenderContext, prepare_pod: PreparePod, slot: Slot, sa: str, pool_env: bool) -> dict[str, Any]:
    """SA forced first; INFERENCE_POOL_NAME after model artifacts and KV cache (main LWS only)."""
    pod = prepare_pod(ctx, slot, before=_force_sa(sa))
    if pool_env and has_routing_sidecar(pod):
        add_inference_pool_env(ctx, pod)
    return pod


def main_lws(ctx: RenderContext, prepare_pod: PreparePod) -> dict[str, Any]:
    """LeaderWorkerSet `<name>-kserve-mn` for spec.template (leader) and spec.worker."""
    spec = ctx.spec
    leader_role = "decode" if spec.get("prefill") is not None else "both"
    return _workload_lws(ctx, prepare_pod, main_name(ctx), "", spec, (meta.WORKLOAD_LEADER, leader_role),
                         (meta.WORKLOAD_WORKER, "decode"), sub_group=False)


def prefill_lws(ctx: RenderContext, prepare_pod: PreparePod) -> dict[str, Any]:
    """LeaderWorkerSet `<name>-kserve-mn-prefill`; only this one gets a subGroupPolicy (data parallel)."""
    prefill = ctx.spec["prefill"]
    return _workload_lws(ctx, prepare_pod, prefill_name(ctx), "prefill.", prefill,
                         (meta.WORKLOAD_LEADER_PREFILL, "prefill"), (meta.WORKLOAD_WORKER_PREFILL, "prefill"),
                         sub_group=is_data_parallel(prefill.get("parallelism")))


def _workload_lws(ctx: RenderContext, prepare_pod: PreparePod, name: str, prefix: str, workload: dict[str, Any],
                  leader_role: tuple[str, str], worker_role: tuple[str, str], *, sub_group: bool) -> dict[str, Any]:
    """One LeaderWorkerSet; `*_role` are (component, llm-d role). Workers without a leader are the workload."""
    worker_labels = meta.base_labels(ctx, worker_role[0])
    if workload.get("template") is None:
        worker_labels[KSERVE_COMPONENT] = "workload"
        worker_labels[meta.ROLE] = worker_role[1]
    leader_labels = meta.base_labels(ctx, leader_role[0])
    leader_labels[KSERVE_COMPONENT] = "workload"
    leader_labels[meta.ROLE] = leader_role[1]
    sa, _ = _service_account(name, workload)
    pool_env = not prefix  # only the decode pods get INFERENCE_POOL_NAME
    leader = None
    if workload.get("template") is not None:
        leader = _prepare(ctx, prepare_pod, Slot(f"{prefix}template", workload), sa, pool_env=pool_env)
    worker = _prepare(ctx, prepare_pod, Slot(f"{prefix}worker", workload), sa, pool_env=pool_env)
    return _lws(ctx, name, workload, (leader_labels, worker_labels), (leader, worker), sub_group)


def objects(ctx: RenderContext, prepare_pod: PreparePod) -> list[dict[str, Any]]:
    """SA/RBAC then the LeaderWorkerSets; LLMC203 when the cluster has no LeaderWorkerSet API."""
    out = rbac(ctx)
    spec = ctx.spec
    prefill = spec.get("prefill")
    wanted: list[tuple[str, Callable[[RenderContext, PreparePod], dict[str, Any]]]] = []
    if spec.get("worker") is not None:
        wanted.append(("spec.worker", main_lws))
    if prefill is not None and prefill.get("worker") is not None:
        wanted.append(("spec.prefill.worker", prefill_lws))
    for path, build in wanted:
        if not ctx.options.capabilities.has(API_VERSION, "LeaderWorkerSet"):
            ctx.findings.add(
                "LLMC203",
                path,
                f"{API_VERSION} LeaderWorkerSet is not among the cluster's APIs: the controller's reconcile "
                "fails creating it (rendered anyway)",
            )
        out.append(build(ctx, prepare_pod))
    return out
