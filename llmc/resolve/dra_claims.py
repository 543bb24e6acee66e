"""Managed DRA on the merged spec (llmisvc/managed_dra.go): the `serving.kserve.io/exp-dra-*`
annotations read into a `DRAConfig`, and the claim each pod template gets.

Only the service's own metadata annotations count; the presence of the device-class key
switches the feature on. The ResourceClaimTemplate itself is rendered by `llmc.render.dra`.
"""

from __future__ import annotations

import re

from llmc.core.errors import LlmcError, Location
from llmc.core.record import record
from llmc.go.strconv import quote as go_quote
from llmc.k8s.names import child_name
from llmc.kserve.annotations import DRA_CEL_SELECTOR as CEL_SELECTOR
from llmc.kserve.annotations import DRA_CONTAINER_NAME as CONTAINER_NAME
from llmc.kserve.annotations import DRA_DEVICE_CLASS as DEVICE_CLASS
from llmc.kserve.annotations import DRA_DEVICE_COUNT as DEVICE_COUNT
from llmc.kserve.spec import slots

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any


CLAIM = "managed-device"
REQUEST = "device"
SUFFIX = "-managed-dra"
_INT = re.compile(r"[+-]?[0-9]+")


@record(frozen=True)
class DRAConfig:
    """The parsed annotations; `container` None means the first container of each pod."""

    device_class: str
    count: int = 1
    selectors: tuple[str, ...] = ()
    container: str | None = None


def parse_annotations(annotations: dict[str, str] | None) -> DRAConfig | None:
    """The controller's reading of the annotations; None when managed DRA is off.

    Values are trimmed; a blank count means 1; CEL selectors are one per non-blank line.
    A count that is not an integer of at least 1 fails the reconcile with the controller's message.
    """
    annotations = annotations or {}
    if DEVICE_CLASS not in annotations:
        return None
    container = (annotations.get(CONTAINER_NAME) or "").strip() or None
    selectors = tuple(line.strip() for line in (annotations.get(CEL_SELECTOR) or "").split("\n") if line.strip())
    return DRAConfig(annotations[DEVICE_CLASS].strip(), _count(annotations), selectors, container)


def _count(annotations: dict[str, str]) -> int:
    raw = annotations.get(DEVICE_COUNT)
    if raw is None or not raw.strip():
        return 1
    text = raw.strip()
    where = Location(path=f"metadata.annotations.{DEVICE_COUNT}")
    hint = "set a whole number of devices, 1 or more"
    if not _INT.fullmatch(text):
        reason = f"strconv.Atoi: parsing {go_quote(text)}: invalid syntax"
    elif not _INT64_MIN <= int(text) <= _INT64_MAX:
        reason = f"strconv.Atoi: parsing {go_quote(text)}: value out of range"
    elif int(text) < 1:
        reason = "must be >= 1"
    else:
        return int(text)
    raise LlmcError(f"invalid {DEVICE_COUNT} value {go_quote(raw)}: {reason}", where, hint=hint)


def template_name(service_name: str) -> str:
    return child_name(service_name, SUFFIX)


def claim_pods(spec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The non-nil pod templates the controller injects into, with their field paths."""
    return [(f"spec.{slot.key}", slot.pod) for slot in slots(spec)]


def claim_target(pod: dict[str, Any], config: DRAConfig) -> int | None:
    """Index of the container that gets the claim: the named one, else the first; None when none fits."""
    containers = pod.get("containers") or []
    if not containers:
        return None
    if config.container is None:
        return 0
    for i, container in enumerate(containers):
        if container.get("name") == config.container:
            return i
    return None


def inject(spec: dict[str, Any], service_name: str, config: DRAConfig | None) -> None:
    """Add the pod claim and the container claim to every pod template of the merged spec.

    Entries already named `managed-device` are kept as they are (even if they point
    elsewhere); other claims stay in front of the managed ones. Running it twice changes nothing.
    """
    if config is None:
        return
    rct = template_name(service_name)
    for _, pod in claim_pods(spec):
        claims = pod.setdefault("resourceClaims", [])
        if not any(c.get("name") == CLAIM for c in claims):
            claims.append({"name": CLAIM, "resourceClaimTemplateName": rct})
        index = claim_target(pod, config)
        if index is None:
            continue
        container = pod["containers"][index]
        resources = container.get("resources")
        if resources is None:
            resources = container["resources"] = {}
        container_claims = resources.setdefault("claims", [])
        if not any(c.get("name") == CLAIM for c in container_claims):
            container_claims.append({"name": CLAIM})


_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1  # Go's int on 64-bit platforms
