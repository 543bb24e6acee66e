"""Go's `json.Unmarshal` into a typed value, for the two things `json.loads` does differently.

A template's output is decoded by the controller into `LLMInferenceServiceConfig`
(`ReplaceVariables`, config_merge.go). Go's decoder walks the keys in order and
decodes each one *into* the field it names, so:

- a key written twice, or twice in different case (`securityContext`,
  `SecurityContext`: field names match case-insensitively), decodes twice into
  the same field. Into a struct the second object merges with the first: fields
  only the first set stay set. `json.loads` keeps only the last object, so a
  `privileged: true` written first would vanish from llmc's output but not from
  the cluster's.
- into a map the second object adds its keys to the same map, each value
  decoded fresh; into a slice each element decodes into the element already at
  its index, and the slice takes the new length; `null` clears a pointer, map,
  slice, interface or Quantity and leaves a struct or other scalar alone; other
  values replace scalars, Quantities, IntOrStrings, URLs and raw JSON.

Not modelled: a list key written three times or more, the second time shorter than
the first and a later time longer again. Go then decodes into the first list's
backing array, whose spare capacity (set by the allocator's size classes) brings
back elements of the first; here they start empty.

`loads` returns plain JSON where every object is a dict. When no object of the
text repeats a key (case-insensitively) that is `json.loads`' result as it is;
otherwise the repeated keys are folded together with the rules above, guided by
the Go type (llmc.kserve.gotypes). Unknown fields are left for `gotypes.project`, which
drops them.
"""

from __future__ import annotations

import json

from llmc.kserve.gotypes import GoType

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any


class _Pairs(list):
    """An object whose keys repeat (case-insensitively), kept as its (key, value) pairs in order."""


def loads(text: str, t: GoType) -> Any:
    """`text` decoded into a Go value of type `t`, as plain JSON for `gotypes.encode`.

    Raises json.JSONDecodeError as `json.loads` does.
    """
    repeated = False

    def hook(pairs: list[tuple[str, Any]]) -> Any:
        nonlocal repeated
        if len({key.lower() for key, _ in pairs}) == len(pairs):
            return dict(pairs)
        repeated = True
        return _Pairs(pairs)

    value = json.loads(text, object_pairs_hook=hook)
    return _decode(t, value, _ABSENT) if repeated else value


_ABSENT: Any = object()


def _items(value: dict | _Pairs) -> list[tuple[str, Any]]:
    return list(value.items()) if isinstance(value, dict) else list(value)


def _plain(value: Any) -> Any:
    """JSON with repeated keys resolved last-wins: what decoding into `interface{}` or raw JSON keeps."""
    if isinstance(value, (dict, _Pairs)):
        out: dict[str, Any] = {}
        for key, item in _items(value):
            out[key] = _plain(item)
        return out
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _decode(t: GoType, value: Any, old: Any) -> Any:
    """`value` decoded into a Go value of type `t` that already holds `old` (_ABSENT: the zero value)."""
    kind = t.kind
    if kind == "pointer":
        if value is None:
            return None
        return _decode(t.elem, value, old if old is not None else _ABSENT)  # type: ignore[arg-type]
    if kind == "struct":
        if value is None:
            return old if old is not _ABSENT else None
        if not isinstance(value, (dict, _Pairs)):
            return _plain(value)  # a type error, which gotypes.project reports
        out: dict[str, Any] = dict(old) if isinstance(old, dict) else {}
        for key, item in _items(value):
            f = t.folded(key)
            if f is None:
                continue  # unknown: dropped, as Go's decoder drops it
            out[f.json] = _decode(f.type, item, out.get(f.json, _ABSENT))
        return out
    if kind == "map":
        if value is None or not isinstance(value, (dict, _Pairs)):
            return _plain(value)
        merged: dict[str, Any] = dict(old) if isinstance(old, dict) else {}
        for key, item in _items(value):
            merged[key] = _decode(t.elem, item, _ABSENT)  # type: ignore[arg-type]
        return merged
    if kind == "slice":
        if not isinstance(value, list):
            return _plain(value)
        before = old if isinstance(old, list) else []
        return [_decode(t.elem, item, before[i] if i < len(before) else _ABSENT)  # type: ignore[arg-type]
                for i, item in enumerate(value)]
    if value is None and kind not in ("any", "quantity"):
        return None if old is _ABSENT else old  # null leaves a scalar alone (Quantity's UnmarshalJSON zeroes it)
    return _plain(value)
