"""Render one resolved service: every object the controller would create, in its reconcile order."""

from __future__ import annotations

import copy
from typing import Any, Callable

from . import workload
from .context import RenderContext, Slot

PodStep = Callable[[RenderContext, dict[str, Any]], None]


def prepare_pod(ctx: RenderContext, slot: Slot, before: PodStep | None = None) -> dict[str, Any]:
    """A deep copy of the slot's merged pod spec, through the controller's pod steps (reference 02 §3.0):
    `before` (service account, routing-sidecar env), model artifacts with LoRA, KV-cache tiers, tracing."""
    from . import kvcache, storage, tracing

    pod = copy.deepcopy(_slot_pod(ctx.spec, slot.key))
    if before is not None:
        before(ctx, pod)
    storage.apply(ctx, pod, slot)
    if slot.workload.get("kvCacheOffloading") is not None:
        kvcache.apply(ctx, pod, slot)
    if ctx.spec.get("tracing") is not None:
        tracing.apply(ctx, pod, slot)
    return pod


def _slot_pod(spec: dict[str, Any], key: str) -> dict[str, Any]:
    node: Any = spec
    for part in key.split("."):
        node = node[part]
    return node


def render_service(ctx: RenderContext) -> list[dict[str, Any]]:
    """All objects for one service; an empty list for a stopped service (the controller deletes them)."""
    from . import dra, multinode, router, scaling

    if is_stopped(ctx.service):
        return []
    out: list[dict[str, Any]] = []
    out += dra.objects(ctx)
    out += multinode.objects(ctx, prepare_pod)
    out += workload.objects(ctx, prepare_pod)
    out.append(workload.workload_service(ctx))
    out += scaling.objects(ctx)
    out += router.objects(ctx)
    return out


def is_stopped(service: dict[str, Any]) -> bool:
    annotations = service.get("metadata", {}).get("annotations") or {}
    return str(annotations.get("serving.kserve.io/stop", "")).lower() == "true"
