"""KV-cache secondary tiers: one volume per `kvCacheOffloading.secondary[i].fileSystem`.

KServe `workload_kvcache.go`, test `workload_kvcache_test.go`.
Tier `i` becomes volume `kv-cache-secondary-<i>` mounted on `main` at `/mnt/kv-cache-<i>`
(the paths the preset's `kvTransferConfig` hands to vLLM): an emptyDir with a size limit
(whose size is also *added* to main's ephemeral-storage request), an ephemeral PVC from a
claim spec, or an existing claim with an optional subPath. The volume is added even when
there is no `main` container; the main workload uses `spec.kvCacheOffloading`, prefill
pods `spec.prefill.kvCacheOffloading`.
"""

from __future__ import annotations


from llmc.core.errors import LlmcError, Location
from llmc.k8s.quantity import add_quantities, canonical_quantity
from llmc.kserve.spec import MAIN, Slot, find_container
from llmc.render.context import RenderContext
from llmc.render.mounts import ensure_dict, ensure_list

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any


def apply(ctx: RenderContext, pod: dict[str, Any], slot: Slot) -> None:
    offloading = slot.workload.get("kvCacheOffloading")
    if offloading is None:
        return
    base = "spec.prefill.kvCacheOffloading" if slot.prefill else "spec.kvCacheOffloading"
    for index, tier in enumerate(offloading.get("secondary") or []):
        fs = (tier or {}).get("fileSystem")
        if fs is not None:
            _attach_tier(pod, fs, index, f"{base}.secondary[{index}].fileSystem")


def _attach_tier(pod: dict[str, Any], fs: dict[str, Any], index: int, path: str) -> None:
    """attachFileSystemKVCacheTier: emptyDir, else pvc.spec, else pvc.ref; nothing when none is set."""
    volume = f"kv-cache-secondary-{index}"
    empty_dir = fs.get("emptyDir")
    pvc = fs.get("pvc") or {}
    sub_path = ""
    size = ""
    if empty_dir is not None:
        size = _quantity(empty_dir.get("size"), f"{path}.emptyDir.size")
        source: dict[str, Any] = {"emptyDir": {"sizeLimit": size}}
    elif pvc.get("spec") is not None:
        source = {"ephemeral": {"volumeClaimTemplate": {"spec": pvc["spec"]}}}
    elif pvc.get("ref") is not None:
        source = {"persistentVolumeClaim": {"claimName": pvc["ref"].get("name") or ""}}
        sub_path = str(pvc["ref"].get("path") or "")
    else:
        return
    ensure_list(pod, "volumes").append({"name": volume, **source})

    main = find_container(pod.get("containers"), MAIN)
    if main is None:
        return
    mount: dict[str, Any] = {"name": volume, "mountPath": f"/mnt/kv-cache-{index}"}
    if sub_path:
        mount["subPath"] = sub_path
    ensure_list(main, "volumeMounts").append(mount)
    if empty_dir is not None:
        requests = ensure_dict(ensure_dict(main, "resources"), "requests")
        existing = requests.get("ephemeral-storage")
        requests["ephemeral-storage"] = size if existing is None else add_quantities(existing, size)


def _quantity(value: Any, path: str) -> str:
    """The tier size as Go's resource.Quantity marshals it (a missing size is the zero quantity)."""
    try:
        return canonical_quantity("0" if value is None else value)
    except ValueError as exc:
        raise LlmcError(str(exc), Location(path=path)) from None
