"""KServe's `MergeSpecs`: strategic-merge of `LLMInferenceServiceSpec`s, later ones winning.

One step `merge(base, overlay)` (pkg/controller/v1alpha2/llmisvc/config_merge.go):
the overlay gets `SetDefaults` (empty `containers` lists), a two-way patch is
computed from the zero spec to the overlay — every key of the overlay JSON except
values equal to the zero JSON, i.e. all but an empty `model.uri` — and applied to
the base with apimachinery's strategic merge patch (`mergeSpecs`, llmisvc/config_merge.go):

- objects merge key by key, `null` deletes, different JSON types replace;
- lists of a field tagged `patchStrategy:"merge"` merge element-wise by the merge
  key, in the order of `_keyed_order` (new overlay items go before the remaining
  base-only items); other lists are replaced;
- below `runtime.RawExtension` (`scheduler.config.inline`) there is no type: scalar
  keys are overwritten, keys on one side kept, and an object or list on both sides
  fails as in Go;
- no `$retainKeys` directive is ever produced, so a volume overridden with another
  source type keeps both sources.

The merge is computed directly on projected specs (`gotypes.project`), walking the
Go type model: its result is exactly the projection of apimachinery's result, in
Go's field order (pass `projected=True` to skip re-projecting inputs that are).
The result is new down to every struct the merge combines; a field that only one input
holds is that input's object, not a copy (copies took a twentieth of a batch's time). Inputs
and results are therefore read-only: the resolver caches merged presets and merges them
again for every service, and a fix-up copies the objects on its path before writing
(llmc.resolve.router_fixups._writable).
"""

from __future__ import annotations


from llmc.core.errors import LlmcError
from llmc.kserve.gotypes import SET_DEFAULTS_PATHS, GoType, is_empty, project, spec_type, zero_json
from llmc.core.jsoncopy import copy_json
from llmc.go.fmt import sprint_json

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any, Callable


class _PatchError(Exception):
    """An error of strategicpatch.StrategicMergePatch, with apimachinery's text."""


def merge_specs(*specs: dict[str, Any], projected: bool = False) -> dict[str, Any]:
    """MergeSpecs(specs...): fold left, each spec strategic-merged over the previous result.

    With no spec the result is the zero spec, with one spec that spec (projected).
    `projected=True` promises that every input is already `gotypes.project`ed (for
    instance a cached preset spec); the overlays' SetDefaults is applied here either
    way. Inputs are never modified; the result shares with them what it takes unchanged.

    Errors raise LlmcError `failed to merge specs: could not apply merge patch: ...`,
    the controller's wording for the first pass (its second pass wraps it once more
    with `failed to merge specs: `).
    """
    if not specs:
        return zero_json(spec_type())
    if len(specs) == 1:
        return copy_json(specs[0]) if projected else project(specs[0])
    result = specs[0] if projected else project(specs[0])
    for overlay in specs[1:]:
        patch = overlay_patch(overlay if projected else project(overlay))
        try:
            result = _merge_struct(spec_type(), result, patch)
        except _PatchError as exc:
            raise LlmcError(
                f"failed to merge specs: could not apply merge patch: {exc}",
                hint="two layers (presets, baseRefs, the service) set values that cannot be strategic-merged",
            ) from None
    return result


def overlay_patch(overlay: dict[str, Any]) -> dict[str, Any]:
    """CreateTwoWayMergePatch(zero spec, SetDefaults(overlay)) for a projected overlay.

    Shares unchanged sub-objects with `overlay`; only the dicts on the SetDefaults
    paths are copied when a default is added.
    """
    patch = _diff(zero_json(spec_type()), overlay)
    for path in SET_DEFAULTS_PATHS:
        node: Any = patch
        chain: list[tuple[dict[str, Any], str]] = []
        for key in path:
            if not isinstance(node, dict) or not isinstance(node.get(key), dict):
                node = None
                break
            chain.append((node, key))
            node = node[key]
        if node is None or node.get("containers") is not None:
            continue
        child: dict[str, Any] = dict(node, containers=[])
        for parent, key in reversed(chain):
            parent_copy = parent if parent is patch else dict(parent)
            parent_copy[key] = child
            child = parent_copy
    return patch


def _diff(original: dict[str, Any], modified: dict[str, Any]) -> dict[str, Any]:
    """strategicpatch diffMaps for an original without lists (the zero spec has none)."""
    patch: dict[str, Any] = {}
    for key, value in modified.items():
        if key not in original:
            patch[key] = value
            continue
        base = original[key]
        if isinstance(base, dict) and isinstance(value, dict):
            sub = _diff(base, value)
            if sub:
                patch[key] = sub
        elif _go_type(base) != _go_type(value) or base != value:
            patch[key] = value
    for key in original:
        if key not in modified:
            patch[key] = None
    return patch


# -- applying the patch, typed -------------------------------------------------------------

def _merge_struct(t: GoType, base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """mergeMap on a struct, then the Go decode/encode of the result (field order, omitempty)."""
    out: dict[str, Any] = {}
    for name, f in t.json_fields().items():
        if name in patch:
            value = patch[name]
            if value is None:
                # deleted from the base; Go re-encodes a non-omitempty field as its zero value
                zero = zero_json(f.type)
                if not f.omitzero and not (f.omitempty and is_empty(f.type, zero)):
                    out[name] = zero
            elif name in base:
                out[name] = _merge_value(f.type, base[name], value)
            else:
                out[name] = value
        elif name in base:
            out[name] = base[name]
    return out


def _merge_value(t: GoType, base: Any, patch: Any) -> Any:
    if t.kind == "pointer":
        t = t.elem
    kind = t.kind
    if kind == "struct" and isinstance(base, dict) and isinstance(patch, dict):
        return _merge_struct(t, base, patch)
    if kind == "map" and isinstance(base, dict) and isinstance(patch, dict):
        merged = {k: copy_json(v) for k, v in base.items()}
        for key, value in patch.items():
            if value is None:
                merged.pop(key, None)
            elif key in merged:
                merged[key] = _merge_value(t.elem, merged[key], value)
            else:
                merged[key] = copy_json(value)
        return {k: merged[k] for k in sorted(merged)}
    if kind == "slice" and isinstance(base, list) and isinstance(patch, list):
        if t.merge_key is not None:
            return _merge_keyed(t.elem, t.merge_key, base, patch)
        if t.set_merge:
            return _merge_scalar_set(base, patch)
        return copy_json(patch)
    if kind in ("raw", "any") and isinstance(base, dict) and isinstance(patch, dict):
        return _merge_raw(base, patch)
    return copy_json(patch)


def _merge_keyed(elem: GoType, key: str, base: list[Any], patch: list[Any]) -> list[Any]:
    """mergeSlice for a list of objects with a merge key, apimachinery's algorithm step by step.

    1. each patch element is merged into the first base element with the same key
       value, or appended (so duplicate keys in the patch collapse into one element);
    2. the merged list is split into elements whose key occurs in the patch (ordered
       by first occurrence in the patch) and base-only elements (in base order);
    3. the two are interleaved (`_keyed_order`).
    """
    if not base and not patch:
        return []
    merged = [copy_json(item) for item in base]
    for item in patch:
        if not isinstance(item, dict) or key not in item:
            raise _PatchError(f"map: {go_value(item)} does not contain declared merge key: {key}")
        index = _index(merged, key, item[key])
        if index >= 0:
            merged[index] = _merge_struct(elem, merged[index], item)
        else:
            merged.append(copy_json(item))
    in_patch: list[Any] = []
    base_only: list[Any] = []
    for item in merged:
        if not isinstance(item, dict) or key not in item:
            raise _PatchError(f"map: {go_value(item)} does not contain declared merge key: {key}")
        (in_patch if _index(patch, key, item[key]) >= 0 else base_only).append(item)
    in_patch.sort(key=lambda item: _index(patch, key, item[key]))
    base_only.sort(key=lambda item: _index(base, key, item[key]))
    return _keyed_order(base_only, in_patch, base, key)


def _keyed_order(base_only: list[Any], in_patch: list[Any], base: list[Any], key: str) -> list[Any]:
    return merge_sorted(base_only, in_patch, lambda item: _index(base, key, item[key]))


def merge_sorted(base_only: list[Any], in_patch: list[Any], position: Callable[[Any], int]) -> list[Any]:
    """apimachinery's mergeSortedSlice: interleave the base-only and the patched elements of a keyed list.

    `position(item)` is the item's index in the original base list, -1 when it was not there. The
    base-only head goes first when both heads were in the base and it came earlier; otherwise the
    patched head does, so new overlay items land before the remaining base-only ones.
    """
    out: list[Any] = []
    i = j = 0
    while i < len(base_only) or j < len(in_patch):
        if i >= len(base_only):
            out.append(in_patch[j])
            j += 1
        elif j >= len(in_patch):
            out.append(base_only[i])
            i += 1
        else:
            left, right = position(base_only[i]), position(in_patch[j])
            if left >= 0 and right >= 0 and left < right:
                out.append(base_only[i])
                i += 1
            else:
                out.append(in_patch[j])
                j += 1
    return out


def _index(items: list[Any], key: str, value: Any) -> int:
    """Position of the first element whose merge key equals `value` (Go `==` on JSON values), or -1."""
    kind = _go_type(value)
    for i, item in enumerate(items):
        if isinstance(item, dict) and key in item:
            other = item[key]
            if other == value and _go_type(other) == kind:
                return i
    return -1


def _merge_scalar_set(base: list[Any], patch: list[Any]) -> list[Any]:
    """mergeSlice for a merge-strategy list of scalars: deduplicated union, patch items first in patch order.

    (Only `ObjectMeta.finalizers` of a PVC template has this strategy in the spec.)
    """
    merged: list[Any] = []
    for item in base + patch:
        if not any(_go_type(item) == _go_type(m) and item == m for m in merged):
            merged.append(item)
    in_patch = [m for m in merged if any(_go_type(m) == _go_type(p) and m == p for p in patch)]
    base_only = [m for m in merged if m not in in_patch]
    wrapped_base = [{"v": b} for b in base]
    return [
        item["v"]
        for item in _keyed_order([{"v": b} for b in base_only], [{"v": p} for p in in_patch], wrapped_base, "v")
    ]


def _merge_raw(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """mergeMap below a RawExtension: no field metadata, so objects/lists on both sides fail.

    Go walks the patch map in random order; llmc walks it in key order, so with
    several conflicting keys the first in key order is the one reported.
    """
    merged = {k: copy_json(v) for k, v in base.items()}
    for key in sorted(patch):
        value = patch[key]
        if value is None:
            merged.pop(key, None)
            continue
        if key not in merged or _go_type(merged[key]) != _go_type(value):
            merged[key] = copy_json(value)
            continue
        if isinstance(value, (dict, list)):
            raise _PatchError(f'unable to find api field in struct RawExtension for the json field "{key}"')
        merged[key] = value
    return {k: merged[k] for k in sorted(merged)}


def _go_type(value: Any) -> str:
    """The Go type encoding/json decodes a JSON value to (reflect.TypeOf in patch.go)."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "float64"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "slice"
    return "map"


def go_value(value: Any) -> str:
    """fmt's %v of a decoded JSON value (`map[a:1 b:[x y]]`), as apimachinery prints it in errors."""
    return sprint_json(value)



