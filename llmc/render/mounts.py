"""Volume mounts and pod volumes added to a pod spec in place (KServe `AddModelMount`,
`addVolumeMountToContainer`), shared by the model, LoRA, KV-cache and tracing steps."""

from __future__ import annotations


from llmc.kserve.spec import find_container

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any


def add_model_mount(
    pod: dict[str, Any],
    container_name: str,
    volume: str,
    mount_path: str,
    *,
    read_only: bool,
    sub_path: str = "",
    claim: str = "",
) -> None:
    """AddModelMount: mount `volume` on the named container (init containers are searched when the
    regular one is absent or already has it, and always mount read-write), then add the pod
    volume (a PVC when `claim` is set, else an emptyDir) if the mount was added and it is missing."""
    added = False
    target = find_container(pod.get("containers"), container_name)
    if target is not None:
        added = add_mount(target, volume, mount_path, read_only, sub_path)
    if not added:
        target = find_container(pod.get("initContainers"), container_name)
        if target is not None:
            added = add_mount(target, volume, mount_path, False, sub_path)
    if added and not any(v.get("name") == volume for v in pod.get("volumes") or []):
        source: dict[str, Any] = {"persistentVolumeClaim": {"claimName": claim}} if claim else {"emptyDir": {}}
        ensure_list(pod, "volumes").append({"name": volume, **source})


def add_mount(container: dict[str, Any], volume: str, mount_path: str, read_only: bool, sub_path: str) -> bool:
    """addVolumeMountToContainer: skipped when the container already mounts a volume of that name."""
    mounts = ensure_list(container, "volumeMounts")
    if any(m.get("name") == volume for m in mounts):
        return False
    mount: dict[str, Any] = {"name": volume}
    if read_only:
        mount["readOnly"] = True
    mount["mountPath"] = mount_path
    if sub_path:
        mount["subPath"] = sub_path
    mounts.append(mount)
    return True


def ensure_list(obj: dict[str, Any], key: str) -> list[Any]:
    """obj[key] as a list to append to; a missing key or a Go `null` becomes a new empty list."""
    if obj.get(key) is None:
        obj[key] = []
    return obj[key]


def ensure_dict(obj: dict[str, Any], key: str) -> dict[str, Any]:
    """obj[key] as a map to write into; a missing key or a Go `null` becomes a new empty map."""
    if obj.get(key) is None:
        obj[key] = {}
    return obj[key]
