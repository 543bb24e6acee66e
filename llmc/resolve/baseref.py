"""Fields a baseRef adds to the merged spec that the preset templates cannot see (LLMC002).

Templates read the service's own spec, while Go code downstream reads the merged one; this
module lists where the two differ in ways that change the output.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any



# What the preset templates read from `.Spec` besides the model name (the shipped presets under config/llmisvcconfig).
_TEMPLATE_OBJECTS = ("parallelism", "kvCacheOffloading", "prefill.parallelism", "prefill.kvCacheOffloading")
_POD_SLOTS = ("template", "worker", "prefill.template", "prefill.worker")
_TGPS = "terminationGracePeriodSeconds"


# shutdownTimeout assumes this grace period when the own pod template sets none.
_DEFAULT_TGPS = 60


def baseref_invisible_fields(own_spec: dict[str, Any], merged_spec: dict[str, Any]) -> list[str]:
    """Paths (relative to `spec`) the merged spec has but the preset templates could not see (LLMC002).

    Templates read the service's own spec; Go code downstream reads the merged one
    (e.g. KV-cache volumes, LWS size), so flags and objects can disagree. A whole object
    missing from the own spec is reported once; otherwise its missing keys are. `false`
    counts as missing: `expert` is an omitempty bool, so `expert: false` cannot hide a
    baseRef's `true` from the merge but does hide it from the template.
    """
    out: list[str] = []
    for path in _TEMPLATE_OBJECTS:
        merged = _get(merged_spec, path)
        if _absent(merged):
            continue
        own = _get(own_spec, path)
        if _absent(own):
            out.append(path)
        elif isinstance(own, dict) and isinstance(merged, dict):
            out += [f"{path}.{k}" for k, v in merged.items() if not _absent(v) and _absent(own.get(k))]
    for slot in _POD_SLOTS:
        merged = _get(merged_spec, f"{slot}.{_TGPS}")
        if merged is not None and merged != _DEFAULT_TGPS and _get(own_spec, f"{slot}.{_TGPS}") is None:
            out.append(f"{slot}.{_TGPS}")
    return out


def _get(node: Any, path: str) -> Any:
    for part in path.split("."):
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    return node


def _absent(value: Any) -> bool:
    return value is None or value is False
