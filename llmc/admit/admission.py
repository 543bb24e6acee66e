"""What the API server does with one object on create: conversion, CRD defaults, KServe's mutating
webhook, schema and CEL checks, and KServe's validating webhook.

Its own module, apart from llmc.pipeline, so that a forked helper can admit a preset folder
(llmc.read.preset_helper) without importing the resolver and the renderer first.
"""

from __future__ import annotations

from llmc.admit.conversion import V1ALPHA1, to_v1alpha2
from llmc.admit.schema import apply_defaults, validate
from llmc.admit.webhook import default_service, validate_config, validate_service
from llmc.core.errors import LlmcError
from llmc.core.record import replace
from llmc.load.documents import Document, check_kind

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

SERVICE_KIND = "LLMInferenceService"
CLUSTER_STATE_KINDS = frozenset({"Gateway", "HTTPRoute", "Service"})
_JSON_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array"}


def admit_document(doc: Document, default_ns: str) -> dict[str, Any]:
    """`doc` as the API server stores it, its namespace `default_ns` when it names none.

    Cluster state (Gateway, HTTPRoute, Service) and ConfigMaps are taken as they are. Raises
    LlmcError or ErrorList, placed in `doc` (the caller relocates them).
    """
    check_kind(doc)
    _require_objects(doc)
    obj = _with_namespace(doc.obj, default_ns)
    if obj.get("apiVersion") == V1ALPHA1:
        obj = to_v1alpha2(obj)
    if obj["kind"] in CLUSTER_STATE_KINDS or obj["kind"] == "ConfigMap":
        return obj
    obj = apply_defaults(obj)
    mutated = obj["kind"] == SERVICE_KIND
    if mutated:  # the API server defaults a webhook's patched object again
        obj = default_service(obj)
    validate(replace(doc, obj=obj), defaulted=not mutated)
    if obj["kind"] == SERVICE_KIND:
        validate_service(obj, doc)
    else:
        validate_config(obj, doc)
    return obj


def _require_objects(doc: Document) -> None:
    """metadata and spec must be mappings before anything reads them (the API server's message)."""
    for key in ("metadata", "spec"):
        value = doc.obj.get(key)
        if value is not None and not isinstance(value, dict):
            kind = _JSON_TYPES.get(type(value), "object")
            raise LlmcError(f'Invalid value: "{kind}": {key} in body must be of type object: "{kind}"', doc.locate((key,)))


def _with_namespace(obj: dict[str, Any], namespace: str) -> dict[str, Any]:
    meta = obj.get("metadata") or {}
    if meta.get("namespace"):
        return obj
    return {**obj, "metadata": {**meta, "namespace": namespace}}
