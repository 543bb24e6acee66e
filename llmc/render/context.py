"""The read-only inputs every render module gets for one service."""

from __future__ import annotations


from llmc.core.findings import Findings
from llmc.core.record import field, record
from llmc.k8s.capabilities import Capabilities
from llmc.k8s.names import child_name
from llmc.kserve.settings import Settings

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any


@record(frozen=True)
class RenderOptions:
    """User choices that change the output but not the controller's logic."""

    owner_references: bool = False
    # The ResourceClaimTemplate's API (llmc.k8s.capabilities.dra_api); None: the cluster serves no DRA API.
    dra_api: str | None = "resource.k8s.io/v1"
    # The InferencePool API the Gateway reads (--gateway-pool-api): the managed route converges to its group.
    gateway_pool_api: str = "v1"
    # --cert-issuer KIND/NAME: the cert-manager issuer of the TLS Certificate; None renders a self-signed Issuer.
    cert_issuer: tuple[str, str] | None = None
    # --controller-objects: exactly the controller's object set (no Certificate or Issuer), for review diffs.
    controller_objects: bool = False
    capabilities: Capabilities = field(default_factory=Capabilities)
    # Kubernetes version whose JSON Schemas every rendered object must pass (--validate);
    # None checks only the API server's own rules (names, labels, sizes, references in pods).
    schema_version: str | None = None


@record
class RenderContext:
    """One service, resolved: its own object, its merged spec, settings, options, findings.

    `service` is the LLMInferenceService as the API server would store it (CRD and
    webhook defaults applied), `spec` the merged and template-rendered spec with the
    post-template steps (managed DRA, route rewrites, scheduler config) done.
    """

    service: dict[str, Any]
    spec: dict[str, Any]
    settings: Settings
    options: RenderOptions
    findings: Findings
    lora_adapters: list[dict[str, Any]] = field(default_factory=list)
    cluster: Any = None  # llmc.render.router.Cluster: Gateways/HTTPRoutes/Services given with -f, or None

    @property
    def name(self) -> str:
        return self.service["metadata"]["name"]

    @property
    def namespace(self) -> str:
        return self.service["metadata"]["namespace"]

    @property
    def annotations(self) -> dict[str, str]:
        return self.service["metadata"].get("annotations") or {}

    @property
    def labels(self) -> dict[str, str]:
        return self.service["metadata"].get("labels") or {}

    def child(self, suffix: str) -> str:
        return child_name(self.name, suffix)

    def metadata(self, name: str, labels: dict[str, str] | None = None, annotations: dict[str, str] | None = None) -> dict[str, Any]:
        """metadata for a namespaced child: name, namespace, labels/annotations when non-empty, ownerReferences on request."""
        meta: dict[str, Any] = {"name": name, "namespace": self.namespace}
        if labels:
            meta["labels"] = dict(labels)
        if annotations:
            meta["annotations"] = dict(annotations)
        if self.options.owner_references:
            meta["ownerReferences"] = [self.owner_reference()]
        return meta

    def owner_reference(self) -> dict[str, Any]:
        """The controller's owner reference; the API server rejects one without a uid, so it is required."""
        uid = self.service["metadata"].get("uid")
        if not uid:
            from llmc.core.errors import LlmcError, Location

            raise LlmcError(
                "--owner-references needs metadata.uid: the API server rejects an ownerReference without a uid",
                Location(path="metadata"),
                hint="copy the uid from `kubectl get llminferenceservice NAME -o jsonpath={.metadata.uid}`, "
                "or render without --owner-references",
                exit_code=2,
            )
        return {
            "apiVersion": "serving.kserve.io/v1alpha2",
            "kind": "LLMInferenceService",
            "name": self.name,
            "uid": uid,
            "controller": True,
            "blockOwnerDeletion": True,
        }


