"""Labels, annotations and their propagation from the service to its children."""

from __future__ import annotations


from llmc.kserve.spec import NAME, PART_OF, PART_OF_KEY
from llmc.render.context import RenderContext

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

COMPONENT = "app.kubernetes.io/component"
ROLE = "llm-d.ai/role"
MODEL_ROUTING = "serving.kserve.io/model-based-routing-enabled"

WORKLOAD = "llminferenceservice-workload"
WORKLOAD_PREFILL = "llminferenceservice-workload-prefill"
WORKLOAD_LEADER = "llminferenceservice-workload-leader"
WORKLOAD_WORKER = "llminferenceservice-workload-worker"
WORKLOAD_LEADER_PREFILL = "llminferenceservice-workload-leader-prefill"
WORKLOAD_WORKER_PREFILL = "llminferenceservice-workload-worker-prefill"

# Prefixes of the service's own metadata that the controller copies to children.
DEPLOYMENT_ANNOTATION_PREFIXES = ("k8s.v1.cni.cncf.io", "kueue.x-k8s.io", "prometheus.io", "internal.serving.kserve.io/localmodel")
LWS_ANNOTATION_PREFIXES = ("leaderworkerset.sigs.k8s.io",) + DEPLOYMENT_ANNOTATION_PREFIXES
LABEL_PREFIXES = ("kueue.x-k8s.io", "internal.serving.kserve.io/localmodel")
PROMETHEUS_KEYS = ("prometheus.io/scrape", "prometheus.io/port", "prometheus.io/path", "prometheus.io/scheme")


def base_labels(ctx: RenderContext, component: str) -> dict[str, str]:
    """component, name and part-of: the labels every workload child starts with."""
    return {COMPONENT: component, NAME: ctx.name, PART_OF_KEY: PART_OF}


def is_stopped(ctx: RenderContext) -> bool:
    """The `serving.kserve.io/stop: "true"` annotation: the controller deletes what it created."""
    from llmc.resolve.stopped import is_stopped as stopped

    return stopped(ctx.annotations)


def with_prefixes(values: dict[str, str], prefixes: tuple[str, ...]) -> dict[str, str]:
    return {k: v for k, v in values.items() if k.startswith(prefixes)}


def without_model_routing(values: dict[str, Any] | None) -> dict[str, str]:
    return {k: v for k, v in (values or {}).items() if k != MODEL_ROUTING}
