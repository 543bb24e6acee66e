"""Managed DRA (llmisvc/managed_dra.go): the `serving.kserve.io/exp-dra-*`
annotations, the claims injected into the merged spec's pod templates, and the
ResourceClaimTemplate `<name>-managed-dra`.

Only the service's own metadata annotations count; the presence of the device-class
key switches the feature on. One request (`device`) serves every pod of the service.
"""

from __future__ import annotations


from llmc.core.errors import LlmcError, Location
from llmc.kserve.annotations import DRA_DEVICE_CLASS as DEVICE_CLASS
from llmc.render.context import RenderContext
from llmc.resolve.dra_claims import (
    CLAIM, DRAConfig, REQUEST, claim_pods, claim_target, parse_annotations, template_name,
)

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any


def device_request(config: DRAConfig, api_version: str) -> dict[str, Any]:
    """The one request `device`: `count` only above 1, one CEL selector per line.

    resource.k8s.io/v1 and v1beta2 nest the fields under `exactly`; v1beta1 has them on the request.
    """
    fields: dict[str, Any] = {"deviceClassName": config.device_class}
    if config.count > 1:
        fields["count"] = config.count
    if config.selectors:
        fields["selectors"] = [{"cel": {"expression": expr}} for expr in config.selectors]
    if api_version == "resource.k8s.io/v1beta1":
        return {"name": REQUEST, **fields}
    return {"name": REQUEST, "exactly": fields}


def objects(ctx: RenderContext) -> list[dict[str, Any]]:
    """ResourceClaimTemplate `<name>-managed-dra` (no labels, no annotations) and the DRA findings."""
    config = parse_annotations(ctx.annotations)
    if config is None:
        return []
    _findings(ctx, config)
    api = ctx.options.dra_api
    if api is None:
        raise LlmcError(
            f"managed DRA needs a resource.k8s.io API, and the cluster described by --api-versions and "
            f"--kube-version {ctx.options.capabilities.kube_version} serves none",
            Location(path=f"metadata.annotations.{DEVICE_CLASS}"),
            hint="DRA is served from Kubernetes 1.32 (v1beta1), 1.33 (v1beta2) and 1.34 (v1); "
            "add the cluster's with --api-versions or --dra-api",
        )
    return [
        {
            "apiVersion": api,
            "kind": "ResourceClaimTemplate",
            "metadata": ctx.metadata(template_name(ctx.name)),
            "spec": {"spec": {"devices": {"requests": [device_request(config, api)]}}},
        }
    ]


def _findings(ctx: RenderContext, config: DRAConfig) -> None:
    pods = claim_pods(ctx.spec)
    if config.container is not None:
        for path, pod in pods:
            if claim_target(pod, config) is None:
                ctx.findings.add(
                    "LLMC106",
                    f"{path}.containers",
                    f"no container is named {config.container!r}: the pod gets the {CLAIM} claim "
                    "but no container uses the devices",
                )
    decode = [p for p, _ in pods if not p.startswith("spec.prefill.")]
    prefill = [p for p, _ in pods if p.startswith("spec.prefill.")]
    if decode and prefill:
        ctx.findings.add(
            "LLMC104",
            f"metadata.annotations.{DEVICE_CLASS}",
            f"prefill and decode pods share the one managed request ({config.device_class} x{config.count}); "
            "pools that need different devices need their own ResourceClaimTemplates in the pod specs",
        )
