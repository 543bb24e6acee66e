"""Readers of a merged LLMInferenceService spec that more than one stage needs.

The resolver's fix-ups run on the merged spec before anything is rendered, and the render
steps read the same spec: the pod-template slots, containers by name, the workload selector
labels and the model URI as Go reads it live here so both can import them downward.
"""

from __future__ import annotations


from llmc.core.errors import LlmcError, Location
from llmc.core.record import record
from llmc.go.url import URLError, normalize

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any


PART_OF = "llminferenceservice"


@record(frozen=True)
class Slot:
    """One pod template of the merged spec and the workload it belongs to.

    key: "template", "worker", "prefill.template" or "prefill.worker".
    workload: the merged WorkloadSpec dict it lives in (ctx.spec or ctx.spec["prefill"]).
    """

    key: str
    workload: dict[str, Any]

    @property
    def prefill(self) -> bool:
        return self.key.startswith("prefill.")

    @property
    def pod(self) -> dict[str, Any]:
        """The merged pod spec itself (`workload["template"]` or `workload["worker"]`)."""
        return self.workload[self.key.rpartition(".")[2]]

    @property
    def tracing_service(self) -> str:
        return "inference-server-prefill" if self.prefill else "inference-server-decode"


def slots(spec: dict[str, Any]) -> list[Slot]:
    """The non-nil pod templates of a merged spec, in the controller's order."""
    out: list[Slot] = []
    for key in ("template", "worker"):
        if spec.get(key) is not None:
            out.append(Slot(key, spec))
    prefill = spec.get("prefill")
    if prefill is not None:
        for key in ("template", "worker"):
            if prefill.get(key) is not None:
                out.append(Slot(f"prefill.{key}", prefill))
    return out


NAME = "app.kubernetes.io/name"
PART_OF_KEY = "app.kubernetes.io/part-of"
KSERVE_COMPONENT = "kserve.io/component"


def workload_selector(name: str) -> dict[str, str]:
    """GetWorkloadLabelSelector: what the workload Service and the InferencePool select."""
    return {PART_OF_KEY: PART_OF, NAME: name, KSERVE_COMPONENT: "workload"}


MAIN = "main"  # the model server container of every workload pod
HF, S3, PVC, OCI, OCI_NATIVE = "hf://", "s3://", "pvc://", "oci://", "oci+native://"


def storage_initializer_disabled(spec: dict[str, Any]) -> bool:
    """`spec.storageInitializer.enabled` explicitly false (nil and true both mean enabled)."""
    return (spec.get("storageInitializer") or {}).get("enabled") is False


def go_uri(value: Any, path: str) -> str:
    """A URI field as the controller sees it: Go's `url.Parse(value).String()`."""
    try:
        return normalize("" if value is None else str(value))
    except URLError as exc:
        raise LlmcError(str(exc), Location(path=path), hint="the URI is read with Go's net/url.Parse") from None


def parse_pvc_uri(uri: str) -> tuple[str, str]:
    """ParsePvcURI: `pvc://<claim>[/<path>]` -> (claim, path); the prefix is trimmed, not checked."""
    rest = uri[len(PVC):] if uri.startswith(PVC) else uri
    claim, _, sub_path = rest.partition("/")
    return claim, sub_path


def find_container(containers: list[dict[str, Any]] | None, name: str) -> dict[str, Any] | None:
    """The first container with that name (GetContainerWithName / GetInitContainerWithName)."""
    for container in containers or []:
        if container.get("name") == name:
            return container
    return None
