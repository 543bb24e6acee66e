"""Strategic merge of a pod spec the way the controller's `MergePodSpec` does it.

The controller marshals both sides with encoding/json (so `omitempty` fields that are
empty are absent from the patch) and applies the predictor's pod spec to the runtime's
with apimachinery's StrategicMergePatch on `corev1.PodSpec`: objects merge key by key,
lists of a field tagged `patchStrategy:"merge"` merge element-wise by their merge key
(patch items go before the remaining base-only items unless such an item came first in
the base), containers merge as `corev1.Container`, every other list is replaced.
The patch carries no `$retainKeys` directive, so `retainKeys` never applies.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

from llmc.resolve.merge import merge_sorted
from llmc.render.storage import merge_container

# corev1.PodSpec fields with patchStrategy "merge" and their patchMergeKey.
POD_MERGE_KEYS = {
    "volumes": "name",
    "initContainers": "name",
    "containers": "name",
    "ephemeralContainers": "name",
    "imagePullSecrets": "name",
    "hostAliases": "ip",
    "topologySpreadConstraints": "topologyKey",
    "schedulingGates": "name",
    "resourceClaims": "name",
}
_CONTAINER_LISTS = ("initContainers", "containers", "ephemeralContainers")


# Plain `bool` fields of corev1.PodSpec and corev1.Container: `omitempty` drops false. The other
# booleans are `*bool` (automountServiceAccountToken, enableServiceLinks, ...), where false is kept.
_PLAIN_BOOLS = frozenset({"hostNetwork", "hostPID", "hostIPC", "stdin", "stdinOnce", "tty"})


def omit_empty(obj: dict[str, Any]) -> dict[str, Any]:
    """The top-level keys encoding/json writes for a PodSpec or Container (every field `omitempty`)."""
    return {k: v for k, v in obj.items()
            if v is not None and v != "" and v != [] and v != {} and not (v is False and k in _PLAIN_BOOLS)}


def merge_pod_spec(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """StrategicMergePatch(base, patch, corev1.PodSpec{}) on decoded JSON; the inputs are not changed."""
    out = copy.deepcopy(base)
    for key, value in omit_empty(patch).items():
        current = out.get(key)
        if key in POD_MERGE_KEYS and isinstance(current, list) and isinstance(value, list):
            merge_item = merge_container if key in _CONTAINER_LISTS else _merge_objects
            out[key] = merge_keyed(current, value, POD_MERGE_KEYS[key], merge_item)
        elif isinstance(current, dict) and isinstance(value, dict):
            out[key] = _merge_objects(current, value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _merge_objects(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """Objects without merge-strategy lists below them: keys merge, `null` deletes, lists replace."""
    out = copy.deepcopy(base)
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(out.get(key), dict) and isinstance(value, dict):
            out[key] = _merge_objects(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def merge_keyed(base: list[Any], patch: list[Any], key: str,
                merge_item: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]) -> list[Any]:
    """mergeSlice + mergeSortedSlice for a list of objects merged by `key`."""

    def key_of(item: Any) -> Any:
        return item.get(key) if isinstance(item, dict) else None

    positions: dict[Any, int] = {}
    for i, item in enumerate(base):
        positions.setdefault(key_of(item), i)
    patch_keys = {key_of(item) for item in patch}
    merged = []
    for item in patch:
        at = positions.get(key_of(item))
        if at is not None and isinstance(item, dict) and isinstance(base[at], dict):
            merged.append(merge_item(base[at], item))
        else:
            merged.append(copy.deepcopy(item))
    base_only = [copy.deepcopy(item) for item in base if key_of(item) not in patch_keys]
    return merge_sorted(base_only, merged, lambda item: positions.get(key_of(item), -1))
