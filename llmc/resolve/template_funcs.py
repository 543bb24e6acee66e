"""The functions KServe's controller adds to preset templates: ChildName, shutdownTimeout, kvTransferConfig.

Signatures are the controller's (the `Funcs` of `ReplaceVariables`, llmisvc/config_merge.go): `ChildName(string, string) string`,
`shutdownTimeout(any, int64) int64`, `kvTransferConfig(any) string`. The `any`
arguments are recognised by their Go type name, as the controller's type
assertions do (`*v1.PodSpec`, `*v1alpha2.KVCacheOffloadingSpec`).
"""

from __future__ import annotations


from llmc.go.json import marshal
from llmc.k8s.names import child_name
from llmc.go.template.funcs import Func
from llmc.go.reflect import ANY, INT64, STRING, Value, find_field, field_by_path, indirect_interface, length, index_elem

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Callable

POD_SPEC_PTR = "*v1.PodSpec"
KV_SPEC_PTR = "*v1alpha2.KVCacheOffloadingSpec"
DEFAULT_TGPS = 60


def _field(v: Value, name: str) -> Value:
    path = find_field(v.t, name)
    if path is None:
        raise KeyError(f"{v.t} has no field {name}")
    return field_by_path(v, path)


def _child_name(parent: Value, suffix: Value) -> Value:
    return Value(STRING, child_name(parent.x, suffix.x))


def _wrap64(x: int) -> int:
    return (x + (1 << 63)) % (1 << 64) - (1 << 63)


def shutdown_timeout(spec: Value | None, pre_stop: Value) -> Value:
    """max(0, tgps - preStop - min(5, tgps)); tgps from a non-nil *v1.PodSpec that sets it, else 60."""
    tgps = DEFAULT_TGPS
    spec = indirect_interface(spec)
    if spec is not None and spec.t.name == POD_SPEC_PTR and spec.x is not None:
        grace = _field(spec.x, "TerminationGracePeriodSeconds")
        if grace.x is not None:
            tgps = grace.x.x
    result = _wrap64(_wrap64(tgps - pre_stop.x) - min(5, tgps))
    return Value(INT64, max(result, 0))


def kv_transfer_config(spec: Value | None, quantity_value: Callable[[Value], int]) -> Value:
    """The `--kv-transfer-config '<json>'` argument, quotes escaped to survive JSON decoding and bash."""
    spec = indirect_interface(spec)
    if spec is None or spec.t.name != KV_SPEC_PTR or spec.x is None:
        return Value(STRING, "")
    kv = spec.x
    extra: dict[str, object] = {
        "spec_name": "TieringOffloadingSpec",
        "cpu_bytes_to_use": quantity_value(_field(kv, "CPU")),
    }
    policy = _field(kv, "EvictionPolicy").x
    if policy:
        extra["eviction_policy"] = policy
    tiers = []
    secondary = _field(kv, "Secondary")
    for i in range(length(secondary)):
        if _field(index_elem(secondary, i), "FileSystem").x is None:
            continue
        tiers.append({"type": "fs", "root_dir": f"/mnt/kv-cache-{i}"})
    if tiers:
        extra["secondary_tiers"] = tiers
    config = {"kv_connector": "OffloadingConnector", "kv_role": "kv_both", "kv_connector_extra_config": extra}
    text = marshal(config)
    return Value(STRING, "--kv-transfer-config '" + text.replace('"', '\\\\\\"') + "'")


def kserve_funcs(quantity_value: Callable[[Value], int]) -> dict[str, Func]:
    """The controller's FuncMap; `quantity_value` reads a resource.Quantity value as Quantity.Value() does."""
    return {
        "ChildName": Func("ChildName", (STRING, STRING), False, _child_name),
        "shutdownTimeout": Func("shutdownTimeout", (ANY, INT64), False, shutdown_timeout),
        "kvTransferConfig": Func("kvTransferConfig", (ANY,), False, lambda spec: kv_transfer_config(spec, quantity_value)),
    }
