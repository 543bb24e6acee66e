"""`llmc schema`: publishable JSON Schemas of llmc's inputs and of the custom resources it writes.

The inputs are `LLMInferenceService` and `LLMInferenceServiceConfig` in both versions
`llmc render` reads (v1alpha1, converted as KServe's webhook does, and v1alpha2); the
outputs are the custom resources llmc renders (HTTPRoute, InferencePool v1 and
v1alpha2, LeaderWorkerSet, cert-manager's Certificate and Issuer), so one folder
validates a repository of services and the rendered manifests alike. Built-in kinds
(Deployment, Service, ...) are kubeconform's `default` location's.

Derived from the CRD schemas in `schemas/crd/` (the API server's structural
schemas) with what a document check needs and a CRD leaves to the API server:

- `apiVersion` and `kind` pinned (`enum`), so a schema only accepts its own kind
  and the single-file form can pick the right branch;
- `metadata` as ObjectMeta (the CRD says only `type: object`), `name` required;
- unknown fields rejected (`additionalProperties: false` on every object schema
  with `properties`, unless it preserves unknown fields): the API server drops
  them, kubectl's strict field validation and llmc reject them, and an editor
  should flag the typo;
- `null` accepted for optional fields, which the API server (and llmc) drop.

`kubeconform_files` lays the files out as kubeconform's documentation and Datree's
CRDs-catalog do, `{group}/{kind}_{version}.json` with the kind in lower case, which the
`-schema-location` template `DIR/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`
finds (kubeconform lower-cases `ResourceKind`; its `{{.KindSuffix}}` would keep only
the first label of the group, so names built from it collide).

`single_file` is one draft-07 schema of the inputs for yaml-language-server's `$schema`
modeline: the kinds sit in `definitions` and `allOf` holds one `if apiVersion and kind …
then $ref` per kind and version. Unlike a `oneOf`, which reports every branch's
failures, this reports only the errors of the document's own kind.
"""

from __future__ import annotations

import copy
from typing import Any

DRAFT = "http://json-schema.org/draft-07/schema#"
SINGLE_ID = "https://llmc.dev/schemas/llmc-inputs.json"

# (group, version, kind) of every object llmc reads and publishes a schema for.
KINDS: tuple[tuple[str, str, str], ...] = (
    ("serving.kserve.io", "v1alpha1", "LLMInferenceService"),
    ("serving.kserve.io", "v1alpha1", "LLMInferenceServiceConfig"),
    ("serving.kserve.io", "v1alpha2", "LLMInferenceService"),
    ("serving.kserve.io", "v1alpha2", "LLMInferenceServiceConfig"),
)

# (group, version, kind) of the custom resources llmc renders (llmc.check.api_rules's CRD_FILES).
OUTPUT_KINDS: tuple[tuple[str, str, str], ...] = (
    ("cert-manager.io", "v1", "Certificate"),
    ("cert-manager.io", "v1", "Issuer"),
    ("gateway.networking.k8s.io", "v1", "HTTPRoute"),
    ("inference.networking.k8s.io", "v1", "InferencePool"),
    ("inference.networking.x-k8s.io", "v1alpha2", "InferencePool"),
    ("leaderworkerset.x-k8s.io", "v1", "LeaderWorkerSet"),
)

KUBECONFORM_LOCATION = "{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json"

_STRING_MAP = {"type": "object", "additionalProperties": {"type": "string"}}
OBJECT_META: dict[str, Any] = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 253},
        "generateName": {"type": "string"},
        "namespace": {"type": "string", "maxLength": 63},
        "labels": _STRING_MAP,
        "annotations": _STRING_MAP,
        "uid": {"type": "string"},
        "resourceVersion": {"type": "string"},
        "generation": {"type": "integer"},
        "creationTimestamp": {"type": ["string", "null"]},
        "deletionTimestamp": {"type": ["string", "null"]},
        "deletionGracePeriodSeconds": {"type": "integer"},
        "finalizers": {"type": "array", "items": {"type": "string"}},
        "ownerReferences": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["apiVersion", "kind", "name", "uid"],
                "properties": {
                    "apiVersion": {"type": "string"},
                    "kind": {"type": "string"},
                    "name": {"type": "string"},
                    "uid": {"type": "string"},
                    "controller": {"type": "boolean"},
                    "blockOwnerDeletion": {"type": "boolean"},
                },
            },
        },
        "managedFields": {"type": "array", "items": {"type": "object"}},
    },
}


def crd_file(group: str, version: str, kind: str) -> str:
    """`llminferenceservice-serving.kserve.io-v1alpha2.json`: the name in schemas/crd/."""
    return f"{kind.lower()}-{group}-{version}.json"


def kubeconform_file(group: str, version: str, kind: str) -> str:
    """`serving.kserve.io/llminferenceservice_v1alpha2.json`: where KUBECONFORM_LOCATION looks."""
    return f"{group}/{kind.lower()}_{version}.json"


def published(crd_schema: dict[str, Any], group: str, version: str, kind: str) -> dict[str, Any]:
    """The document schema of one kind, from its CRD's openAPIV3Schema."""
    schema = _closed(copy.deepcopy(crd_schema))
    schema["$schema"] = DRAFT
    schema["title"] = f"{kind} ({group}/{version})"
    props = schema["properties"]
    props["apiVersion"] = {"type": "string", "enum": [f"{group}/{version}"]}
    props["kind"] = {"type": "string", "enum": [kind]}
    props["metadata"] = copy.deepcopy(OBJECT_META)
    schema["required"] = ["apiVersion", "kind", "metadata"]
    return _ordered(schema)


def kubeconform_files(crds: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Relative path -> schema for every kind in KINDS and OUTPUT_KINDS; `crds` maps schemas/crd/ names to content."""
    return {kubeconform_file(*k): published(crds[crd_file(*k)], *k) for k in KINDS + OUTPUT_KINDS}


def single_file(crds: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """One schema accepting any llmc input document, checked against its own kind's schema."""
    definitions: dict[str, Any] = {}
    branches: list[dict[str, Any]] = []
    for group, version, kind in KINDS:
        schema = published(crds[crd_file(group, version, kind)], group, version, kind)
        del schema["$schema"]
        definitions[f"{kind}.{version}"] = schema
        selector = {"apiVersion": {"const": f"{group}/{version}"}, "kind": {"const": kind}}
        branches.append(
            {
                "if": {"properties": selector, "required": ["apiVersion", "kind"]},
                "then": {"$ref": f"#/definitions/{kind}.{version}"},
            }
        )
    api_versions = sorted({f"{g}/{v}" for g, v, _ in KINDS})
    return {
        "$schema": DRAFT,
        "$id": SINGLE_ID,
        "title": "llmc inputs: " + ", ".join(dict.fromkeys(k for _, _, k in KINDS)),
        "type": "object",
        "required": ["apiVersion", "kind"],
        "properties": {
            "apiVersion": {"type": "string", "enum": api_versions},
            "kind": {"type": "string", "enum": list(dict.fromkeys(k for _, _, k in KINDS))},
        },
        "allOf": branches,
        "definitions": definitions,
    }


def _closed(schema: Any) -> Any:
    """The CRD's structural schema as a document schema: closed objects, optional fields nullable.

    Object schemas that list their properties get `additionalProperties: false`.
    Optional properties also accept `null`: the API server drops a null that
    its schema does not allow before validating, and so does llmc. Walks schema
    keywords only, so a field that happens to be called `items` or `properties`
    is never mistaken for one.
    """
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    if isinstance(schema.get("properties"), dict):
        required = set(schema.get("required") or ())
        out["properties"] = {
            name: _closed(sub) if name in required else _nullable(_closed(sub))
            for name, sub in schema["properties"].items()
        }
        if "additionalProperties" not in schema and not schema.get("x-kubernetes-preserve-unknown-fields"):
            out["additionalProperties"] = False
    if isinstance(schema.get("additionalProperties"), dict):
        out["additionalProperties"] = _closed(schema["additionalProperties"])
    if isinstance(schema.get("items"), dict):
        out["items"] = _closed(schema["items"])
    for key in ("allOf", "anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            out[key] = [_closed(sub) for sub in schema[key]]
    return out


def _nullable(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    if isinstance(schema.get("type"), str):
        out["type"] = [schema["type"], "null"]
        if isinstance(schema.get("enum"), list):
            out["enum"] = [*schema["enum"], None]
    elif isinstance(schema.get("anyOf"), list):
        out["anyOf"] = [*schema["anyOf"], {"type": "null"}]
    return out


def _ordered(schema: dict[str, Any]) -> dict[str, Any]:
    """`$schema` and `title` first, for people who open the file."""
    head = {k: schema[k] for k in ("$schema", "title") if k in schema}
    return {**head, **{k: v for k, v in schema.items() if k not in head}}
