"""A stopped service whose configs do not combine is not an error.

`reconcileBaseRefs` (config_merge.go): when combining the baseRefs fails, or the
combined spec fails the dry-run validation, and the service carries
`serving.kserve.io/stop: "true"`, the controller marks PresetsCombined False
("Service is stopped with warning: ...") and goes on with the service's own spec.
Stopped, it deletes every child, so the service renders nothing; the warning
LLMC004 carries the controller's message, so the break is seen before the service
is started again.
"""

from __future__ import annotations


from llmc.core.errors import LlmcError
from llmc.core.findings import Findings
from llmc.resolve.resolver import Resolved

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

STOP_ANNOTATION = "serving.kserve.io/stop"


def is_stopped(annotations: dict[str, Any]) -> bool:
    """`utils.GetForceStopRuntime`: the annotation's value is "true", in any case."""
    return str(annotations.get(STOP_ANNOTATION, "")).lower() == "true"


def stopped_unresolved(service: dict[str, Any], errors: list[LlmcError]) -> Resolved | None:
    """The resolution of a stopped `service` that failed with `errors`; None when it is not stopped."""
    meta = service["metadata"]
    if not is_stopped(meta.get("annotations") or {}):
        return None
    findings = Findings(f"{meta['namespace']}/{meta['name']}")
    for err in errors:
        where = err.location.path if err.location is not None and err.location.path else "spec"
        findings.add("LLMC004", where, f"Service is stopped with warning: {err.message}; it renders nothing, "
                                       "and starting it will fail until this is fixed")
    return Resolved(service=service, spec=service.get("spec") or {}, applied_configs=[], findings=findings)
