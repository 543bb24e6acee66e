"""Check rendered objects against what a cluster of a given Kubernetes version accepts.

Three layers, each an error list naming the object (`Kind namespace/name`) and
the field path (`spec.template.spec.containers[0].ports[0].name`):

1. JSON Schema. Built-in kinds against the strict schemas that the
   `kubernetes-validate` package bundles per Kubernetes minor (1.25 to 1.37;
   strict means an unknown field is an error, as with `kubectl apply
   --validate=strict`). A patch version uses its minor's schemas. Custom
   resources (LeaderWorkerSet, HTTPRoute, InferencePool v1 and v1alpha2) against
   their CRD schemas in `schemas/crd/`, made strict the way the API server
   prunes: unknown fields are errors except under
   `x-kubernetes-preserve-unknown-fields`, null only where `nullable`. Their
   `metadata` is checked against the Kubernetes version's ObjectMeta, and their
   CEL rules (`x-kubernetes-validations`) by llmc's hand-written equivalents in
   `llmc.admit.schema.rule_check` (rules it has none for are not checked).
2. Structural rules the schemas cannot say: `x-kubernetes-list-type` `map` and
   `set` uniqueness in custom resources (after defaulting the map keys).
3. The API server's own validation of what llmc varies: the object's size
   (etcd's 1.5 MiB), object names per kind,
   namespace, label keys and values, annotation keys and size, the Deployment
   selector matching its template, and in every pod spec the container, volume
   and port names, volume mounts naming a volume, and resource claims naming a
   pod claim.

Objects of a kind with no schema for that version are errors (the cluster would
not serve them), except KEDA's `ScaledObject`, whose CRD llmc does not bundle:
it is skipped (see `SKIPPED_KINDS`).

Without a Kubernetes version (`kube_version=None`) only layer 3 runs: it holds
in every version, needs no schema package, and costs well under a millisecond
per object, so `render` can run it always. It catches what KServe's webhooks
let through but the API server refuses when the controller creates the child,
e.g. a service named `9b-model` (its Services would start with a digit) or a
container renamed to `Main`.

Measured (2-vCPU VM): the first object of a version pays for reading its
definitions (about 0.2 s); after that a 20-object service validates in
about 30 ms. Validators are built once per (version, kind) and kept.
"""

from __future__ import annotations

import json
import marshal
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache

from llmc.core.errors import ErrorList, LlmcError
from llmc.load.documents import Path, format_path
from llmc.core.resources import data_dir
from llmc.admit.schema import (
    ANNOTATIONS_SIZE_LIMIT, annotations_too_long, dns1123_label_errors, dns1123_subdomain_errors,
    label_and_annotation_errors, regex_error, rule_check,
)

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:  # jsonschema is imported when schemas are used: `render` without them stays fast
    from pathlib import Path as FsPath
    from typing import Any
    import jsonschema
    from referencing import Registry

DEFAULT_KUBE_VERSION = "1.34"

#: Kinds llmc may emit that have no schema here, with the reason.
SKIPPED_KINDS: dict[tuple[str, str], str] = {
    ("keda.sh/v1alpha1", "ScaledObject"): "KEDA's CRD is not bundled with llmc; ScaledObject is not checked",
}

#: Custom resources llmc emits and the CRD schema file of each.
CRD_FILES: dict[tuple[str, str], str] = {
    ("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet"): "leaderworkerset-leaderworkerset.x-k8s.io-v1.json",
    ("gateway.networking.k8s.io/v1", "HTTPRoute"): "httproute-gateway.networking.k8s.io-v1.json",
    ("inference.networking.k8s.io/v1", "InferencePool"): "inferencepool-inference.networking.k8s.io-v1.json",
    ("inference.networking.x-k8s.io/v1alpha2", "InferencePool"):
        "inferencepool-inference.networking.x-k8s.io-v1alpha2.json",
    ("cert-manager.io/v1", "Certificate"): "certificate-cert-manager.io-v1.json",
    ("cert-manager.io/v1", "Issuer"): "issuer-cert-manager.io-v1.json",
}

_DEFINITIONS_ID = "https://kubernetes.io/api/_definitions.json"
_OBJECT_META = f"{_DEFINITIONS_ID}#/$defs/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
# etcd's default --max-request-bytes: a larger object fails with "etcdserver: request is too large".
OBJECT_BYTES_LIMIT = 1536 * 1024


# --------------------------------------------------------------------------- versions


def _schema_root() -> FsPath:
    """kubernetes-validate's schema folder (for --validate only: pathlib stays off a plain render's imports)."""
    from pathlib import Path as FsPath

    try:
        import kubernetes_validate
    except ModuleNotFoundError:
        raise LlmcError(
            "validating output needs the kubernetes-validate package",
            hint="pip install kubernetes-validate==1.37.0",
            exit_code=2,
        ) from None
    return FsPath(kubernetes_validate.__file__).resolve().parent / "kubernetes-json-schema"


@cache
def available_versions() -> tuple[tuple[int, int], ...]:
    """The Kubernetes minors (major, minor) with bundled strict schemas, oldest first."""
    found = []
    for entry in _schema_root().iterdir():
        m = re.fullmatch(r"v(\d+)\.(\d+)\.0-local-strict", entry.name)
        if m and entry.is_dir():
            found.append((int(m.group(1)), int(m.group(2))))
    return tuple(sorted(found))


def parse_version(text: str) -> tuple[int, int]:
    """`1.34`, `v1.34.2`, `1.34.0-gke.1` → (1, 34); an LlmcError (usage, exit 2) for anything else
    or a minor without schemas."""
    m = re.fullmatch(r"v?(\d+)\.(\d+)(?:\.\d+)?(?:[-+][0-9A-Za-z.+-]*)?", text.strip())
    versions = available_versions()
    span = f"{versions[0][0]}.{versions[0][1]} to {versions[-1][0]}.{versions[-1][1]}"
    if m is None:
        raise LlmcError(f"not a Kubernetes version: {text!r}", hint="write MAJOR.MINOR, e.g. 1.34", exit_code=2)
    version = (int(m.group(1)), int(m.group(2)))
    if version not in versions:
        raise LlmcError(
            f"no Kubernetes {version[0]}.{version[1]} schemas to validate against",
            hint=f"the installed kubernetes-validate has schemas for {span}",
            exit_code=2,
        )
    return version


# --------------------------------------------------------------------------- schemas


@cache
def _registry(version: tuple[int, int]) -> Registry:
    from referencing import Registry, Resource

    path = _schema_root() / f"v{version[0]}.{version[1]}.0-local-strict" / "_definitions.json"
    definitions = Resource.from_contents(json.loads(path.read_text(encoding="utf-8")))
    return Registry().with_resource(_DEFINITIONS_ID, definitions)


def _file_api(api_version: str) -> str:
    """kubernetes-validate's file naming: `rbac.authorization.k8s.io/v1` → `rbac-v1`, `v1` → `v1`."""
    group, _, version = api_version.rpartition("/")
    return f"{group.split('.')[0]}-{version}" if group else version


@cache
def _core_validator(version: tuple[int, int], api_version: str, kind: str) -> jsonschema.Validator | None:
    if not re.fullmatch(r"[A-Za-z0-9.-]+/v\w+|v\w+", api_version) or not re.fullmatch(r"[A-Za-z0-9]+", kind):
        return None
    folder = _schema_root() / f"v{version[0]}.{version[1]}.0-local-strict"
    path = folder / f"{kind.lower()}-{_file_api(api_version)}.json"
    if not path.is_file():
        return None
    import jsonschema

    schema = json.loads(path.read_text(encoding="utf-8"))
    gvks = schema.get("x-kubernetes-group-version-kind") or []
    group, _, ver = api_version.rpartition("/")
    if not any(g.get("group", "") == group and g.get("version") == ver and g.get("kind") == kind for g in gvks):
        return None  # e.g. a file for `networking.k8s.io` found for `networking.example.com`
    return jsonschema.Draft202012Validator(schema, registry=_registry(version))


def _strict_crd(node: Any, top: bool = False) -> Any:
    """A CRD schema as the API server applies it: unknown fields and non-nullable nulls are errors."""
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "properties":
            out[key] = {name: _strict_crd(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            out[key] = _strict_crd(value)
        elif key in ("anyOf", "allOf", "oneOf"):
            out[key] = [_strict_crd(sub) for sub in value]
        elif key == "x-kubernetes-validations" or key == "default":
            continue  # CEL and defaults are handled outside JSON Schema
        else:
            out[key] = value
    if node.get("type") == "object" and "additionalProperties" not in node \
            and not node.get("x-kubernetes-preserve-unknown-fields"):
        out["additionalProperties"] = False
    if node.get("nullable") and "type" in node:
        out["type"] = [node["type"], "null"]
    if node.get("x-kubernetes-int-or-string"):
        out.pop("type", None)
        out["anyOf"] = [{"type": "integer"}, {"type": "string"}]
    if top:
        out["properties"]["metadata"] = {"$ref": _OBJECT_META}
        out["properties"].pop("status", None)  # never written by a client on create
    return out


@cache
def crd_schema(api_version: str, kind: str) -> dict[str, Any] | None:
    """The CRD's structural schema as generated (with defaults and CEL rules), or None."""
    name = CRD_FILES.get((api_version, kind))
    if name is None:
        return None
    from llmc.core.resources import read_schema

    return read_schema(os.path.join(data_dir("schemas"), "crd", name))


@cache
def _crd_validator(version: tuple[int, int], api_version: str, kind: str) -> jsonschema.Validator | None:
    schema = crd_schema(api_version, kind)
    if schema is None:
        return None
    import jsonschema

    strict = _strict_crd(schema, top=True)
    strict["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return jsonschema.Draft202012Validator(strict, registry=_registry(version))


# --------------------------------------------------------------------------- schema errors


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


def _schema_messages(error: jsonschema.ValidationError) -> Iterator[tuple[Path, str]]:
    """(field path, message) pairs for one jsonschema error, worded like the API server's."""
    path: Path = tuple(error.absolute_path)
    keyword, value = error.validator, error.instance
    if keyword == "additionalProperties" and isinstance(value, dict):
        known = error.schema.get("properties", {})
        patterns = error.schema.get("patternProperties", {})
        for key in value:
            if key not in known and not any(re.search(p, key) for p in patterns):
                yield path + (key,), "unknown field"
        return
    if keyword == "required" and isinstance(value, dict):
        for key in error.validator_value:
            if key not in value:
                yield path + (key,), "Required value"
        return
    if keyword == "type":
        want = error.validator_value
        want_text = " or ".join(w for w in (want if isinstance(want, list) else [want]) if w != "null")
        yield path, f"Invalid value: {_short(value)}: must be of type {want_text}"
        return
    if keyword == "enum":
        supported = ", ".join(_short(v) for v in error.validator_value)
        yield path, f"Unsupported value: {_short(value)}: supported values: {supported}"
        return
    if keyword in ("oneOf", "anyOf"):
        types = [s.get("type") for s in error.validator_value if isinstance(s, dict)]
        if types and all(types):
            flat = [t for ts in types for t in (ts if isinstance(ts, list) else [ts]) if t != "null"]
            yield path, f"Invalid value: {_short(value)}: must be of type {' or '.join(flat)}"
            return
    yield path, f"Invalid value: {_short(value)}: {keyword} {_short(error.validator_value)}"


# --------------------------------------------------------------------------- CRD rules


def _crd_rules(obj: Any, schema: Any, path: Path) -> Iterator[tuple[Path, str]]:
    """CEL rules llmc knows and list-type uniqueness, walking the CRD schema alongside the object."""
    if not isinstance(schema, dict):
        return
    for rule in schema.get("x-kubernetes-validations", ()):
        check = rule_check(rule["message"], rule["rule"])
        if check is not None and check(obj) is False:
            yield path, f"Invalid value: {_short(obj)}: {rule['message']}"
    if isinstance(obj, dict):
        props = schema.get("properties") or {}
        extra = schema.get("additionalProperties")
        for key, value in obj.items():
            sub = props.get(key, extra if isinstance(extra, dict) else None)
            if sub is not None:
                yield from _crd_rules(value, sub, path + (key,))
    elif isinstance(obj, list):
        items = schema.get("items")
        yield from _list_type(obj, schema, path)
        for i, value in enumerate(obj):
            yield from _crd_rules(value, items, path + (i,))


def _list_type(items: list[Any], schema: dict[str, Any], path: Path) -> Iterator[tuple[Path, str]]:
    list_type = schema.get("x-kubernetes-list-type")
    if list_type not in ("set", "map"):
        return
    keys = schema.get("x-kubernetes-list-map-keys") or []
    props = (schema.get("items") or {}).get("properties") or {}
    seen: set[str] = set()
    for i, item in enumerate(items):
        if list_type == "map":
            if not isinstance(item, dict):
                continue
            ident = {k: item.get(k, (props.get(k) or {}).get("default")) for k in keys}
        else:
            ident = item
        text = json.dumps(ident, sort_keys=True)
        if text in seen:
            yield path + (i,), f"Duplicate value: {_short(ident)}"
        seen.add(text)


# --------------------------------------------------------------------------- API server rules

_DNS1035 = re.compile(r"[a-z]([-a-z0-9]*[a-z0-9])?")
# Kinds whose name the API server checks as a DNS-1035 label (Service) or a path segment (RBAC).
# LeaderWorkerSet is a DNS-1035 label too: LWS names its headless Service after itself.
_LABEL_NAMES = frozenset({"Service", "LeaderWorkerSet"})
_RBAC_KINDS = frozenset({"Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"})
_CLUSTER_SCOPED = frozenset({"ClusterRole", "ClusterRoleBinding", "Namespace", "PriorityClass", "StorageClass"})
_PORT_NAME_CHARSET = re.compile(r"[-a-z0-9]+")


def dns1035_label_errors(value: str) -> list[str]:
    """apimachinery `validation.IsDNS1035Label`."""
    errs = []
    if len(value) > 63:
        errs.append("must be no more than 63 characters")
    if not _DNS1035.fullmatch(value):
        errs.append(regex_error("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start "
                                "with an alphabetic character, and end with an alphanumeric character",
                                _DNS1035.pattern, "my-name", "abc-123"))
    return errs


def _name_errors(kind: str, name: str) -> list[str]:
    if kind in _LABEL_NAMES:
        return dns1035_label_errors(name)
    if kind in _RBAC_KINDS:
        if name in (".", "..") or "/" in name or "%" in name:
            return ["may not be '.' or '..' and may not contain '/' or '%'"]
        return []
    return dns1123_subdomain_errors(name)


def _port_name_errors(name: str) -> list[str]:
    """apimachinery `validation.IsValidPortName` (IANA_SVC_NAME), its checks in its order."""
    errs = []
    if len(name) > 15:
        errs.append("must be no more than 15 characters")
    if not _PORT_NAME_CHARSET.fullmatch(name):
        errs.append("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
    if not re.search("[a-z]", name):
        errs.append("must contain at least one letter (a-z)")
    if "--" in name:
        errs.append("must not contain consecutive hyphens")
    if name[:1] == "-" or name[-1:] == "-":
        errs.append("must not begin or end with a hyphen")
    return errs


def _meta_errors(obj: Mapping[str, Any], meta: Any, path: Path, top: bool) -> Iterator[tuple[Path, str]]:
    if not isinstance(meta, dict):
        return
    kind = obj.get("kind")
    if top:
        name = meta.get("name")
        if not isinstance(name, str) or not name:
            yield path + ("name",), "Required value: name is required"
        else:
            for msg in _name_errors(str(kind), name):
                yield path + ("name",), f"Invalid value: {_short(name)}: {msg}"
        namespace = meta.get("namespace")
        if kind in _CLUSTER_SCOPED:
            if namespace:
                yield path + ("namespace",), "Forbidden: not allowed on this type"
        elif not isinstance(namespace, str) or not namespace:
            yield path + ("namespace",), "Required value: llmc always writes the namespace"
        else:
            for msg in dns1123_label_errors(namespace):
                yield path + ("namespace",), f"Invalid value: {_short(namespace)}: {msg}"
    for where, value, msg in label_and_annotation_errors(meta):
        yield path + where, f"Invalid value: {_short(value)}: {msg}"
    if annotations_too_long(meta):
        yield path + ("annotations",), f"Too long: must have at most {ANNOTATIONS_SIZE_LIMIT} bytes"


def _pod_templates(obj: Mapping[str, Any]) -> Iterator[tuple[Path, Any]]:
    """(path, pod template) of every pod template in a workload."""
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        return
    kind = obj.get("kind")
    if kind in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"):
        yield ("spec", "template"), spec.get("template")
    elif kind == "LeaderWorkerSet":
        lwt = spec.get("leaderWorkerTemplate")
        if isinstance(lwt, dict):
            for key in ("leaderTemplate", "workerTemplate"):
                if key in lwt:
                    yield ("spec", "leaderWorkerTemplate", key), lwt[key]


def _named(items: Any) -> list[tuple[int, dict[str, Any]]]:
    return [(i, c) for i, c in enumerate(items) if isinstance(c, dict)] if isinstance(items, list) else []


def _pod_errors(pod: Any, path: Path) -> Iterator[tuple[Path, str]]:
    """The parts of the API server's `ValidatePodSpec` that rendering can get wrong."""
    if not isinstance(pod, dict):
        return
    volumes: set[str] = set()
    for i, vol in _named(pod.get("volumes")):
        name = vol.get("name")
        if isinstance(name, str):
            for msg in dns1123_label_errors(name):
                yield path + ("volumes", i, "name"), f"Invalid value: {_short(name)}: {msg}"
            if name in volumes:
                yield path + ("volumes", i, "name"), f"Duplicate value: {_short(name)}"
            volumes.add(name)
    claims = {c.get("name") for _, c in _named(pod.get("resourceClaims"))}
    containers: set[str] = set()
    for group in ("initContainers", "containers"):
        for i, ctr in _named(pod.get(group)):
            cpath = path + (group, i)
            name = ctr.get("name")
            if isinstance(name, str):
                for msg in dns1123_label_errors(name):
                    yield cpath + ("name",), f"Invalid value: {_short(name)}: {msg}"
                if name in containers:
                    yield cpath + ("name",), f"Duplicate value: {_short(name)}"
                containers.add(name)
            yield from _container_errors(ctr, cpath, volumes, claims)


def _container_errors(ctr: dict[str, Any], path: Path, volumes: set[str], claims: set[Any]) -> Iterator[tuple[Path, str]]:
    ports: set[str] = set()
    for i, port in _named(ctr.get("ports")):
        name = port.get("name")
        if isinstance(name, str) and name:  # an empty name is no name (omitempty)
            for msg in _port_name_errors(name):
                yield path + ("ports", i, "name"), f"Invalid value: {_short(name)}: {msg}"
            if name in ports:
                yield path + ("ports", i, "name"), f"Duplicate value: {_short(name)}"
            ports.add(name)
        number = port.get("containerPort")
        if isinstance(number, int) and not 1 <= number <= 65535:
            yield path + ("ports", i, "containerPort"), f"Invalid value: {number}: must be between 1 and 65535, inclusive"
    mounts: set[str] = set()
    for i, mount in _named(ctr.get("volumeMounts")):
        name, where = mount.get("name"), mount.get("mountPath")
        if isinstance(name, str) and name not in volumes:
            yield path + ("volumeMounts", i, "name"), f"Not found: {_short(name)}"
        if isinstance(where, str):
            if where in mounts:
                yield path + ("volumeMounts", i, "mountPath"), f"Invalid value: {_short(where)}: must be unique"
            mounts.add(where)
        sub = mount.get("subPath")
        if isinstance(sub, str) and sub:
            yield from ((path + ("volumeMounts", i, "subPath"), m) for m in _descending_path_errors(sub))
    if not ctr.get("image"):
        yield path + ("image",), "Required value"
    yield from _env_errors(ctr.get("env"), path + ("env",))
    yield from _security_context_errors(ctr.get("securityContext"), path + ("securityContext",))
    resources = ctr.get("resources")
    yield from resource_errors(resources, path + ("resources",))
    for i, claim in _named(resources.get("claims") if isinstance(resources, dict) else None):
        if claim.get("name") not in claims:
            yield path + ("resources", "claims", i, "name"), \
                f"Not found: {_short(claim.get('name'))}: must be one of the pod's resourceClaims"


def _descending_path_errors(target: str) -> Iterator[str]:
    """`validateLocalDescendingPath` (a volume mount's subPath): relative, and no `..` element."""
    if target.startswith("/"):
        yield f"Invalid value: {_short(target)}: must be a relative path"
    if ".." in target.split("/"):
        yield f"Invalid value: {_short(target)}: must not contain '..'"


def _security_context_errors(sc: Any, path: Path) -> Iterator[tuple[Path, str]]:
    """`ValidateSecurityContext`'s escalation rule: allowPrivilegeEscalation false excludes privileged
    and an added CAP_SYS_ADMIN (a template's `privileged: true` meets the preset's `false` this way)."""
    if not isinstance(sc, dict) or sc.get("allowPrivilegeEscalation") is not False:
        return
    if sc.get("privileged") is True:
        yield path, "Invalid value: cannot set `allowPrivilegeEscalation` to false and `privileged` to true"
    added = ((sc.get("capabilities") or {}).get("add") or []) if isinstance(sc.get("capabilities"), dict) else []
    if "CAP_SYS_ADMIN" in added:
        yield path, "Invalid value: cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"


_ENV_SOURCES = ("fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef", "fileKeyRef")


def _env_errors(env: Any, path: Path) -> Iterator[tuple[Path, str]]:
    """`validateEnv` of Kubernetes 1.34 (RelaxedEnvironmentVariableValidation is GA there)."""
    for i, var in _named(env):
        name = var.get("name")
        if not name:
            yield path + (i, "name"), "Required value"
        elif isinstance(name, str) and (any(not " " <= c <= "~" for c in name) or "=" in name):
            yield path + (i, "name"), (f"Invalid value: {_short(name)}: a valid environment variable name must consist "
                                       "only of printable ASCII characters other than '='")
        source = var.get("valueFrom")
        if isinstance(source, dict):
            given = [k for k in _ENV_SOURCES if source.get(k) is not None]
            if var.get("value"):
                yield path + (i, "valueFrom"), "Invalid value: \"\": may not be specified when `value` is not empty"
            if len(given) > 1:
                yield path + (i, "valueFrom"), "Invalid value: \"\": may not have more than one field specified at a time"


def resource_errors(resources: Any, path: Path) -> Iterator[tuple[Path, str]]:
    """`ValidateContainerResourceRequirements`: no negative quantity, and no request above its limit."""
    if not isinstance(resources, dict):
        return
    from llmc.k8s.quantity import canonical_quantity, nano_quantity

    parsed: dict[str, dict[str, Any]] = {}
    for part in ("limits", "requests"):
        values = resources.get(part)
        for key, value in (values.items() if isinstance(values, dict) else ()):
            try:
                quantity = nano_quantity(str(value))
            except (ValueError, TypeError):
                continue  # the schema check reports a quantity that does not parse
            if quantity < 0:
                yield path + (part, key), f"Invalid value: {_short(canonical_quantity(value))}: must be greater than or equal to 0"
            parsed.setdefault(part, {})[key] = (quantity, value)
    for key, (request, text) in parsed.get("requests", {}).items():
        limit = parsed.get("limits", {}).get(key)
        if limit is not None and request > limit[0]:
            yield path + ("requests", key), (f"Invalid value: {_short(canonical_quantity(text))}: must be less than or "
                                             f"equal to {key} limit of {canonical_quantity(limit[1])}")


def _selector_errors(obj: Mapping[str, Any]) -> Iterator[tuple[Path, str]]:
    if obj.get("kind") != "Deployment":
        return
    spec = obj.get("spec") or {}
    selector = spec.get("selector") if isinstance(spec, dict) else None
    if not isinstance(selector, dict):
        return
    template = spec.get("template") or {}
    labels = ((template.get("metadata") or {}).get("labels") or {}) if isinstance(template, dict) else {}
    match = selector.get("matchLabels") or {}
    if not isinstance(match, dict) or not isinstance(labels, dict):
        return
    if not match and not selector.get("matchExpressions"):
        yield ("spec", "selector"), "Invalid value: {}: empty selector is invalid for deployment"
    elif any(labels.get(k) != v for k, v in match.items()):
        yield ("spec", "template", "metadata", "labels"), \
            "Invalid value: selector does not match template labels"


def _api_rules(obj: Mapping[str, Any]) -> Iterator[tuple[Path, str]]:
    yield from _meta_errors(obj, obj.get("metadata"), ("metadata",), top=True)
    yield from _selector_errors(obj)
    for path, template in _pod_templates(obj):
        if isinstance(template, dict):
            yield from _meta_errors(obj, template.get("metadata"), path + ("metadata",), top=False)
            yield from _pod_errors(template.get("spec"), path + ("spec",))


# --------------------------------------------------------------------------- entry points


def describe(obj: Mapping[str, Any]) -> str:
    """`Deployment team-a/llama-8b-kserve` (cluster-scoped: `ClusterRole name`)."""
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    name = meta.get("name", "<no name>")  # type: ignore[union-attr]
    namespace = meta.get("namespace")  # type: ignore[union-attr]
    return f"{obj.get('kind', '<no kind>')} {namespace}/{name}" if namespace else f"{obj.get('kind', '<no kind>')} {name}"


def _schema_errors(obj: Mapping[str, Any], version: tuple[int, int]) -> list[tuple[Path, str]]:
    api_version, kind = obj["apiVersion"], obj["kind"]
    if (api_version, kind) in SKIPPED_KINDS:
        return []
    validator = _crd_validator(version, api_version, kind) or _core_validator(version, api_version, kind)
    if validator is None:
        return [((), f"no schema for {kind} {api_version} in Kubernetes {version[0]}.{version[1]}: "
                     "a cluster of that version does not serve it")]
    found = [message for error in validator.iter_errors(obj) for message in _schema_messages(error)]
    if (api_version, kind) in CRD_FILES and not found:
        found.extend(_crd_rules(obj.get("spec"), crd_schema(api_version, kind)["properties"]["spec"], ("spec",)))
    return found


# marshal's version 2 writes every value in full (no shared references), and no value's compact
# JSON (with its comma) is more than 6 times its marshal bytes: `false,` is 6 bytes for marshal's
# 1, a control character `\u001f` 6 for 1; strings are UTF-8 in both, numbers and containers smaller.
_JSON_PER_MARSHAL_BYTE = 6


def json_size(obj: Any) -> int:
    """The object's size as compact JSON in bytes, or a bound below OBJECT_BYTES_LIMIT when it is far
    below it: marshal is cheaper than encoding JSON, and almost every object is a few KB."""
    try:
        bound = len(marshal.dumps(obj, 2)) * _JSON_PER_MARSHAL_BYTE
    except ValueError:  # not plain data (a Mapping, a str subclass): the exact size
        bound = OBJECT_BYTES_LIMIT + 1
    if bound <= OBJECT_BYTES_LIMIT:
        return bound
    return len(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))


def object_errors(obj: Mapping[str, Any], version: tuple[int, int] | None) -> list[tuple[Path, str]]:
    """(field path, message) for every problem of one object, sorted by path.

    `version` None checks the API server's rules and the size only (layer 3),
    which needs neither schemas nor the kubernetes-validate package.
    """
    if not isinstance(obj.get("apiVersion"), str) or not isinstance(obj.get("kind"), str):
        return [((), "apiVersion and kind must be strings")]
    found = _schema_errors(obj, version) if version is not None else []
    found.extend(_api_rules(obj))
    size = json_size(obj)
    if size > OBJECT_BYTES_LIMIT:
        found.append(((), f"Too long: the object is {size} bytes of JSON; etcd stores at most {OBJECT_BYTES_LIMIT} "
                          "(1.5 MiB) per object"))
    return sorted(set(found), key=lambda e: (format_path(e[0]), e[1]))


def validate_objects(objects: Iterable[Mapping[str, Any]], kube_version: str | None) -> list[str]:
    """Every problem of every object as `Kind namespace/name: field.path: message`; empty when all are valid.

    `kube_version` None skips the schemas (see `object_errors`). Raises
    LlmcError (exit 2) for a Kubernetes version without schemas.
    """
    version = parse_version(kube_version) if kube_version is not None else None
    errors = []
    for obj in objects:
        for path, message in object_errors(obj, version):
            where = format_path(path) or "(object)"
            errors.append(f"{describe(obj)}: {where}: {message}")
    return errors


def check(objects: Iterable[Mapping[str, Any]], kube_version: str | None, place=None) -> None:
    """Raise `ErrorList` (exit 1) when a rendered object would be rejected by a cluster of `kube_version`
    (None: by the API server's rules that hold in every version, see `object_errors`).

    `place(obj, path)`: the input Location that wrote that field (llmc.check.blame), or None.
    """
    version = parse_version(kube_version) if kube_version is not None else None
    target = "the API server" if version is None else f"Kubernetes {version[0]}.{version[1]}"
    errors = []
    for obj in objects:
        for path, message in object_errors(obj, version):
            text = f"{describe(obj)}: {format_path(path) or '(object)'}: {message}"
            location = place(obj, path) if place is not None else None
            hint = _hint(text)
            if location is not None and ": (object): no schema for " not in text:
                hint = ("this field of the service writes the rejected value" if location.path != "metadata.name" else
                        "a config or template the service uses writes the rejected value: `llmc explain` shows which")
            errors.append(LlmcError(f"{target} would reject {text}", location, hint=hint))
    if errors:
        raise ErrorList(errors)


def _hint(error: str) -> str:
    if ": (object): no schema for " in error:
        return "the cluster does not serve this API: check --kube-version, --api-versions and --dra-api"
    return "a field written by the service, a config or a template is invalid in the created object"


def skipped(objects: Iterable[Mapping[str, Any]]) -> list[str]:
    """Notes for objects that were not checked (kinds in `SKIPPED_KINDS`)."""
    return [f"{describe(o)}: {SKIPPED_KINDS[(o.get('apiVersion'), o.get('kind'))]}"  # type: ignore[index]
            for o in objects if (o.get("apiVersion"), o.get("kind")) in SKIPPED_KINDS]
