"""The standalone tokenizer: Deployment and Service `<name>-tokenizer` serving vLLM's render endpoint.

KServe `tokenizer.go`. Enabled by `scheduler.tokenizer`, or by a
`token-producer` / `precise-prefix-cache-scorer` plugin in the scheduler's inline config text;
never with an external pool (`scheduler.pool.ref`). The EPP reaches it at `tokenizer_url`.
"""

from __future__ import annotations


from llmc.core.jsoncopy import copy_json
from llmc.kserve.scheduler_spec import has_pool_ref, scheduler, tokenizer_enabled
from llmc.render import meta
from llmc.render.context import RenderContext
from llmc.render.scheduler import TOKENIZER_MODEL_PATH

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any
    from llmc.render.scheduler import AttachModel

COMPONENT = "tokenizer"
PORT = 8000
PORT_NAME = "render-http"
CONTAINER = "main"
CLUSTER_DOMAIN = "cluster.local"  # knative network.GetClusterDomainName() without CLUSTER_DOMAIN or resolv.conf


def rendered(spec: dict[str, Any]) -> bool:
    """The controller keeps the tokenizer objects (not shouldDeleteTokenizer)."""
    return scheduler(spec) is not None and not has_pool_ref(spec) and tokenizer_enabled(spec)


def has_template(spec: dict[str, Any]) -> bool:
    """The tokenizer preset (or the user) gave a pod template; without one the controller builds an
    empty pod the API server rejects (a token-producer that came from a config.ref ConfigMap)."""
    return ((scheduler(spec) or {}).get("tokenizer") or {}).get("template") is not None


def tokenizer_url(ctx: RenderContext) -> str:
    """tokenizerServiceURL: https when the workload TLS setting is on."""
    scheme = "https" if ctx.settings.enable_tls else "http"
    return f"{scheme}://{ctx.child('-tokenizer')}.{ctx.namespace}.svc.{CLUSTER_DOMAIN}:{PORT}"


def labels(ctx: RenderContext) -> dict[str, str]:
    """TokenizerLabels."""
    return meta.base_labels(ctx, COMPONENT)


def deployment(ctx: RenderContext, attach_model: AttachModel) -> dict[str, Any]:
    """One replica of the merged `scheduler.tokenizer.template`, with the model's tokenizer files
    attached to container `main` at /mnt/models/base (no LoRA)."""
    pod = copy_json(((scheduler(ctx.spec) or {}).get("tokenizer") or {}).get("template") or {})
    attach_model(ctx, pod, CONTAINER, TOKENIZER_MODEL_PATH, "spec.router.scheduler.tokenizer.template")
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": ctx.metadata(ctx.child("-tokenizer"), labels(ctx)),
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": labels(ctx)},
            "template": {"metadata": {"labels": labels(ctx)}, "spec": pod},
        },
    }


def service(ctx: RenderContext) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": ctx.metadata(ctx.child("-tokenizer"), labels(ctx)),
        "spec": {
            "selector": labels(ctx),
            "ports": [{"name": PORT_NAME, "port": PORT, "targetPort": PORT_NAME, "protocol": "TCP"}],
        },
    }
