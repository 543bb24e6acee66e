"""serving.kserve.io/v1alpha1 → v1alpha2, as KServe's conversion webhook does on the way into the API server.

v1alpha2 is the storage version, so the controller always reads v1alpha2. The
specs are the same but for two things: v1alpha1's `criticality` (on the model
and on LoRA adapters), which moves into annotations, and the InferencePool spec,
which is the GIE v1alpha2 shape (`selector` map, `targetPortNumber`,
`extensionRef`) in v1alpha1 and the GIE v1 shape in v1alpha2.
"""

from __future__ import annotations


from llmc.core.jsoncopy import copy_json
from llmc.go.json import marshal as go_json

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

V1ALPHA1 = "serving.kserve.io/v1alpha1"
V1ALPHA2 = "serving.kserve.io/v1alpha2"
MODEL_CRITICALITY = "internal.serving.kserve.io/model-criticality"
LORA_CRITICALITIES = "internal.serving.kserve.io/lora-criticalities"
DEFAULT_EPP_PORT = 9002


def to_v1alpha2(obj: dict[str, Any]) -> dict[str, Any]:
    """A v1alpha2 copy of a v1alpha1 LLMInferenceService or LLMInferenceServiceConfig."""
    out = copy_json(obj)
    out["apiVersion"] = V1ALPHA2
    spec = out.get("spec")
    if not isinstance(spec, dict):
        return out
    _move_criticality(out, spec)
    pool = _mapping(_mapping(_mapping(spec.get("router")).get("scheduler")).get("pool"))
    if isinstance(pool.get("spec"), dict):
        pool["spec"] = _pool_spec_to_v1(pool["spec"])
    return out


def _mapping(value: Any) -> dict[str, Any]:
    """The value if it is a mapping, else an empty one: malformed input is left to schema validation."""
    return value if isinstance(value, dict) else {}


def _move_criticality(obj: dict[str, Any], spec: dict[str, Any]) -> None:
    model = spec.get("model")
    if not isinstance(model, dict):
        return
    notes: dict[str, str] = {}
    criticality = model.pop("criticality", None)
    if criticality:
        notes[MODEL_CRITICALITY] = str(criticality)
    adapters = _mapping(model.get("lora")).get("adapters")
    adapters = adapters if isinstance(adapters, list) else []
    per_adapter: dict[str, str] = {}
    for i, adapter in enumerate(adapters):
        if isinstance(adapter, dict):
            value = adapter.pop("criticality", None)
            if value:
                per_adapter[str(i)] = str(value)
    if per_adapter:
        # Go marshals map[int]string with its keys sorted as decimal strings
        notes[LORA_CRITICALITIES] = go_json(per_adapter)
    if notes:
        meta = obj.setdefault("metadata", {})
        meta["annotations"] = {**(meta.get("annotations") or {}), **notes}


def _pool_spec_to_v1(spec: dict[str, Any]) -> dict[str, Any]:
    """GIE v1alpha2 InferencePoolSpec → v1 (selector map, target port, extensionRef → endpointPickerRef)."""
    ext = spec.get("extensionRef") or {}
    ref: dict[str, Any] = {}
    if ext.get("group") is not None:
        ref["group"] = ext["group"]
    ref["kind"] = ext.get("kind") or "Service"
    ref["name"] = ext.get("name", "")
    port = ext.get("portNumber")
    if port:
        ref["port"] = {"number": port}
    elif ref["kind"] == "Service":
        ref["port"] = {"number": DEFAULT_EPP_PORT}
    ref["failureMode"] = ext.get("failureMode") or "FailClose"
    out: dict[str, Any] = {}
    if spec.get("selector") is not None:
        out["selector"] = {"matchLabels": dict(spec["selector"])}
    out["targetPorts"] = [{"number": spec.get("targetPortNumber", 0)}]
    out["endpointPickerRef"] = ref
    return out
