"""Which field of the user's LLMInferenceService wrote a field of a rendered pod.

An invalid env var or resource in a Deployment is a problem of the input, so the
error must point at the input's line. Rendered pods are the service's pod specs
merged with presets: a container, env var, port or volume keeps its `name`
through the merge but not its list index. So the walk follows names, and stops
at the deepest input field that exists; a field that a preset wrote blames the
service's name, the object that selected that preset.
"""

from __future__ import annotations

from collections.abc import Mapping

from llmc.load.documents import Path

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

    from llmc.load.documents import Document

# pod template paths of the rendered workloads, each with the service's pod spec it comes from
_POD_PATHS: tuple[tuple[str, Path, str], ...] = (
    ("Deployment", ("spec", "template", "spec"), "template"),
    ("LeaderWorkerSet", ("spec", "leaderWorkerTemplate", "leaderTemplate", "spec"), "template"),
    ("LeaderWorkerSet", ("spec", "leaderWorkerTemplate", "workerTemplate", "spec"), "worker"),
)


def input_path(service: Mapping[str, Any], obj: Mapping[str, Any], path: Path) -> Path:
    """The path in the user's `service` that wrote `path` of the rendered `obj`; `metadata.name` when none did."""
    if path and path[-1] == "subPath":
        from llmc.render.storage import PVC_VOLUME

        if (_get(obj, tuple(path[:-1])) or {}).get("name") == PVC_VOLUME:
            return ("spec", "model", "uri")  # the model's pvc://claim/sub/path
    for kind, prefix, part in _POD_PATHS:
        if obj.get("kind") == kind and tuple(path[: len(prefix)]) == prefix:
            prefill = str((obj.get("metadata") or {}).get("name", "")).endswith("-prefill")
            spec = service.get("spec") or {}
            if prefill:
                spec = spec.get("prefill") or {}
            root: Path = ("spec", "prefill", part) if prefill else ("spec", part)
            found = _follow(spec.get(part), _get(obj, prefix), tuple(path[len(prefix):]))
            if found:
                return root + found
            break
    return ("metadata", "name")


def _follow(source: Any, rendered: Any, rest: Path) -> Path:
    """The longest prefix of `rest` in `source`, list items matched by `name` (or by index when unnamed)."""
    out: list[str | int] = []
    for step in rest:
        if isinstance(step, int):
            if not isinstance(rendered, list) or not isinstance(source, list) or step >= len(rendered):
                break
            item = rendered[step]
            name = item.get("name") if isinstance(item, dict) else None
            index = next((i for i, s in enumerate(source) if isinstance(s, dict) and s.get("name") == name), None) \
                if name is not None else (step if step < len(source) else None)
            if index is None:
                break
            out.append(index)
            source, rendered = source[index], item
        else:
            if not isinstance(source, dict) or step not in source:
                break
            out.append(step)
            source, rendered = source[step], rendered.get(step) if isinstance(rendered, dict) else None
    return tuple(out)


def _get(obj: Any, path: Path) -> Any:
    for step in path:
        obj = obj[step] if isinstance(obj, (dict, list)) else None
    return obj


def placer(doc: Document):
    """`validate_output.check`'s `place` for an LLMInferenceService as the user wrote it (`doc`, whose
    data is read only for an error: llmc.load.documents.Document.release)."""
    from llmc.core.errors import Location
    from llmc.load.documents import format_path

    return lambda obj, path: Location(path=format_path(input_path(doc.obj, obj, path)))


def isvc_placer(docs) -> Any:
    """`place` for InferenceService objects: the predictor container's fields map to `spec.predictor.model`
    (the container the runtime's is merged with), other fields to `spec.predictor`; at the service's document."""
    from llmc.load.documents import format_path

    by_name = {(d.namespace or "", d.name): d for d in docs if d.kind == "InferenceService"}
    container = ("spec", "template", "spec", "containers", 0)

    def place(obj: Mapping[str, Any], path: Path):
        meta = obj.get("metadata") or {}
        owner = (meta.get("labels") or {}).get("serving.kserve.io/inferenceservice", meta.get("name", ""))
        doc = by_name.get((meta.get("namespace", ""), owner))
        if doc is None:
            return None
        model = (doc.obj.get("spec") or {}).get("predictor", {}).get("model")
        where: Path = ("spec", "predictor")
        if tuple(path[:5]) == container and isinstance(model, dict):
            where = ("spec", "predictor", "model") + _follow(model, _get(obj, container), tuple(path[5:]))
        location = doc.locate(where)
        location.path = format_path(where)
        return location

    return place
