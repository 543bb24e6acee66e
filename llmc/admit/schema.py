"""The API server's checks of a custom resource: CRD schema, CEL rules, object metadata, defaults.

llmc walks the CRD's structural schema (`schemas/crd/*.json`) itself instead of
using a JSON Schema library: the walk is a few milliseconds per service, needs
no compilation step beyond reading the schema file once, and produces the
API server's own messages, e.g.

    spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0
    spec.kvCacheOffloading.evictionPolicy: Unsupported value: "fifo": supported values: "lru", "arc"
    spec.scaling: Invalid value: "object": minReplicas cannot exceed maxReplicas

Unknown fields are errors (`unknown field "spec.foo"`), as with kubectl's strict
field validation, except under `x-kubernetes-preserve-unknown-fields`. Objects are
checked after CRD defaulting, as the API server does.

The CEL rules (`x-kubernetes-validations`) are not interpreted: each rule's
meaning is implemented by hand in `_RULES`, and the rule's message is taken
from the schema. A rule whose CEL evaluation would stop on a missing field is
skipped (the API server reports such a field as a schema error as well).
`unsupported_rules()` lists schema rules llmc does not check.

Not checked: `format` (the API server checks only a few formats), `anyOf`
beyond int-or-string, `status` (ignored on create).
"""

from __future__ import annotations

import marshal
import os
import re
from functools import cache

from llmc.core.errors import ErrorList, LlmcError
from llmc.core.jsoncopy import copy_json
from llmc.go.json import marshal as go_json
from llmc.go.strconv import format_float
from llmc.go.strconv import quote as go_quote
from llmc.load.documents import Document, Path
from llmc.core.record import record
from llmc.core.resources import data_dir

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any, Callable, Iterator

# --------------------------------------------------------------------------- Go formatting

OMIT: Any = object()  # a field error that shows no value ("Required value", "Forbidden")


class GoJSON(str):
    """A bad value already written the way Go marshals it (a Go struct; see webhook.py)."""


def go_value(value: Any) -> str:
    """How `field.Error` prints a bad value: `%v` for numbers and bools, `%q` for strings, else JSON."""
    if isinstance(value, GoJSON):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return format_float(value, "g", -1)
    if isinstance(value, str):
        return go_quote(value)
    return go_json(value)


@record(frozen=True)
class FieldError:
    """k8s.io/apimachinery `field.Error`: `<field>: <type>[: <value>][: <detail>]`.

    `field` is the path as the API server writes it; `path` is the same place as a
    tuple for `Document.locate`.
    """

    type: str  # "Invalid value", "Required value", "Unsupported value", ...
    field: str
    path: Path
    value: Any = OMIT
    detail: str = ""
    hint: str | None = None

    def body(self) -> str:
        text = self.type
        if self.value is not OMIT:
            text += ": " + go_value(self.value)
        if self.detail:
            text += ": " + self.detail
        return text

    def __str__(self) -> str:
        return f"{self.field}: {self.body()}"


def invalid(field: str, path: Path, value: Any, detail: str) -> FieldError:
    return FieldError("Invalid value", field, path, value, detail)


def required(field: str, path: Path, detail: str = "") -> FieldError:
    return FieldError("Required value", field, path, OMIT, detail)


def forbidden(field: str, path: Path, detail: str) -> FieldError:
    return FieldError("Forbidden", field, path, OMIT, detail)


def not_supported(field: str, path: Path, value: Any, supported: list[str]) -> FieldError:
    detail = "supported values: " + ", ".join(go_quote(v) for v in supported) if supported else ""
    return FieldError("Unsupported value", field, path, value, detail)


def too_many(field: str, path: Path, actual: int, maximum: int) -> FieldError:
    return FieldError("Too many", field, path, actual, f"must have at most {maximum} {'item' if maximum == 1 else 'items'}")


def too_long(field: str, path: Path, maximum: int) -> FieldError:
    return FieldError("Too long", field, path, OMIT, f"may not be more than {maximum} {'byte' if maximum == 1 else 'bytes'}")


def duplicate(field: str, path: Path, value: Any) -> FieldError:
    return FieldError("Duplicate value", field, path, value)


def api_path(path: Path) -> str:
    """A path as the schema validator names it: `spec.template.containers[0].name`, map keys dotted."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


# --------------------------------------------------------------------------- DNS names (apimachinery)

_DNS1123_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
_DNS1123_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
_QUALIFIED_NAME = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")
_LABEL_VALUE = re.compile(r"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?")


def regex_error(message: str, pattern: str, *examples: str) -> str:
    """apimachinery `validation.RegexError`, its spacing included: `(e.g. 'a',  or 'b', regex ...)`."""
    if not examples:
        return f"{message} (regex used for validation is '{pattern}')"
    shown = " or ".join(f"'{e}', " for e in examples)
    return f"{message} (e.g. {shown}regex used for validation is '{pattern}')"


def _bounded_match(value: str, max_len: int, pattern: re.Pattern[str], message: str, *examples: str) -> list[str]:
    """The length error, then the regex error: the two checks most apimachinery validators make."""
    errs = [f"must be no more than {max_len} characters"] if len(value) > max_len else []
    if not pattern.fullmatch(value):
        errs.append(regex_error(message, pattern.pattern, *examples))
    return errs


def dns1123_subdomain_errors(value: str) -> list[str]:
    """apimachinery `validation.IsDNS1123Subdomain`."""
    return _bounded_match(
        value, 253, _DNS1123_SUBDOMAIN,
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
        "and must start and end with an alphanumeric character", "example.com")


def dns1123_label_errors(value: str) -> list[str]:
    """apimachinery `validation.IsDNS1123Label`."""
    errs = []
    if len(value) > 63:
        errs.append("must be no more than 63 characters")
    if not _DNS1123_LABEL.fullmatch(value):
        if _DNS1123_SUBDOMAIN.fullmatch(value):
            errs.append("must not contain dots")
        else:
            errs.append(regex_error(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
                "and must start and end with an alphanumeric character",
                _DNS1123_LABEL.pattern, "my-name", "123-abc"))
    return errs


_QNAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
_QNAME_FMT = _QUALIFIED_NAME.pattern


def qualified_name_errors(value: str) -> list[str]:
    """apimachinery `validation.IsQualifiedName` (label and annotation keys)."""
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) > 2:
        return ["a qualified name " + regex_error(_QNAME_MSG, _QNAME_FMT, "MyName", "my.name", "123-abc")
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    name = parts[-1]
    if len(parts) == 2:
        if not parts[0]:
            errs.append("prefix part must be non-empty")
        else:
            errs.extend("prefix part " + m for m in dns1123_subdomain_errors(parts[0]))
    if not name:
        errs.append("name part must be non-empty")
    elif len(name) > 63:
        errs.append("name part must be no more than 63 characters")
    if not _QUALIFIED_NAME.fullmatch(name):
        errs.append("name part " + regex_error(_QNAME_MSG, _QNAME_FMT, "MyName", "my.name", "123-abc"))
    return errs


def label_value_errors(value: str) -> list[str]:
    """apimachinery `validation.IsValidLabelValue`."""
    return _bounded_match(
        value, 63, _LABEL_VALUE,
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
        "and must start and end with an alphanumeric character", "MyValue", "my_value", "12345")


# --------------------------------------------------------------------------- schemas

_SCHEMA_FILES = {
    ("serving.kserve.io/v1alpha2", "LLMInferenceService"): "llminferenceservice-serving.kserve.io-v1alpha2.json",
    ("serving.kserve.io/v1alpha2", "LLMInferenceServiceConfig"): "llminferenceserviceconfig-serving.kserve.io-v1alpha2.json",
}

# A ConfigMap has no CRD; this is the part of core/v1 ConfigMap llmc needs checked.
_CONFIGMAP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "apiVersion": {"type": "string"},
        "kind": {"type": "string"},
        "metadata": {"type": "object"},
        "data": {"type": "object", "additionalProperties": {"type": "string"}},
        "binaryData": {"type": "object", "additionalProperties": {"type": "string"}},
        "immutable": {"type": "boolean"},
    },
}

_METADATA_STRINGS = ("name", "generateName", "namespace", "selfLink", "uid", "resourceVersion",
                     "creationTimestamp", "deletionTimestamp")
_METADATA_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        **{key: {"type": "string"} for key in _METADATA_STRINGS},
        "generation": {"type": "integer"},
        "deletionGracePeriodSeconds": {"type": "integer"},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
        "ownerReferences": {"type": "array", "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}},
        "finalizers": {"type": "array", "items": {"type": "string"}},
        "managedFields": {"type": "array", "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}},
    },
}

ANNOTATIONS_SIZE_LIMIT = 256 * 1024  # apimachinery's TotalAnnotationSizeLimitB


def label_and_annotation_errors(meta: dict[str, Any]) -> Iterator[tuple[tuple[str, str], Any, str]]:
    """ValidateLabels and ValidateAnnotations' key checks: ((labels|annotations, key), the bad value, message).
    The total annotation size is `annotations_too_long`."""
    labels = meta.get("labels")
    if isinstance(labels, dict):
        for key, item in labels.items():
            for msg in qualified_name_errors(key):
                yield ("labels", key), key, msg
            if isinstance(item, str):
                for msg in label_value_errors(item):
                    yield ("labels", key), item, msg
    annotations = meta.get("annotations")
    if isinstance(annotations, dict):
        for key in annotations:
            for msg in qualified_name_errors(key.lower()):
                yield ("annotations", key), key, msg


def annotations_too_long(meta: dict[str, Any]) -> bool:
    annotations = meta.get("annotations")
    if not isinstance(annotations, dict):
        return False
    return sum(len(k.encode()) + len(v.encode()) for k, v in annotations.items() if isinstance(v, str)) \
        > ANNOTATIONS_SIZE_LIMIT


@cache
def schema_for(api_version: str, kind: str) -> dict[str, Any] | None:
    """The structural schema of a kind llmc checks (read once per process), or None."""
    if (api_version, kind) == ("v1", "ConfigMap"):
        return _CONFIGMAP_SCHEMA
    name = _SCHEMA_FILES.get((api_version, kind))
    if name is None:
        return None
    from llmc.core.resources import read_schema

    return read_schema(os.path.join(data_dir("schemas"), "crd", name))


def _schema_of(obj: dict[str, Any]) -> dict[str, Any] | None:
    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return None
    return schema_for(api_version, kind)


# --------------------------------------------------------------------------- defaults




def _did_you_mean(schema: dict[str, Any] | None, path: Path) -> str | None:
    """A hint naming the closest known field next to an unknown one (e.g. `replica` → `replicas`)."""
    import difflib

    for part in path[:-1]:
        if schema is None:
            return None
        schema = schema.get("items") if isinstance(part, int) else _field_schema(schema, part)
    known = list((schema or {}).get("properties") or {})
    close = difflib.get_close_matches(str(path[-1]), known, n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else None


def _field_schema(schema: dict[str, Any] | None, key: str) -> dict[str, Any] | None:
    if schema is None:
        return None
    props = schema.get("properties")
    if props is not None and key in props:
        return props[key]
    extra = schema.get("additionalProperties")
    return extra if isinstance(extra, dict) else None


def _takes_default(sub: dict[str, Any] | None) -> bool:
    """Whether a `null` under `sub` is replaced by its default."""
    return sub is not None and not sub.get("nullable") and "default" in sub


def _admitted(value: Any, schema: dict[str, Any] | None, drop_nulls: bool = True) -> Any:
    """A copy of `value` as the API server stores it under `schema`, in one walk.

    With `drop_nulls`, `null` fields that are neither nullable nor defaulted are
    dropped first (the API server's pruning of what it stores; not for inserted
    defaults). Then structural defaulting: where a parent object exists, a
    property's default fills it when absent (appended in schema order) or `null`
    (in place), and defaults are themselves defaulted. Lists keep their `null`
    items, which take the items' default the same way.
    """
    if schema is None:
        return copy_json(value)
    if isinstance(value, dict):
        props = schema.get("properties")
        extra = schema.get("additionalProperties")
        if not isinstance(extra, dict):
            extra = None
        out: dict[str, Any] = {}
        for key, item in value.items():
            sub = props[key] if props is not None and key in props else extra
            if item is None and _takes_default(sub):
                out[key] = _admitted(sub["default"], sub, False)
            elif item is None and drop_nulls and sub is not None and not sub.get("nullable"):
                continue  # dropped
            else:
                out[key] = _admitted(item, sub, drop_nulls)
        _add_defaults(out, props)
        return out
    if isinstance(value, list):
        items = schema.get("items")
        return [_admitted(items["default"], items, False) if item is None and _takes_default(items)
                else _admitted(item, items, drop_nulls) for item in value]
    return value


def _add_defaults(out: dict[str, Any], props: dict[str, Any] | None) -> None:
    for key, sub in (props or {}).items():
        if key not in out and "default" in sub:
            out[key] = _admitted(sub["default"], sub, False)


def apply_defaults(obj: dict[str, Any]) -> dict[str, Any]:
    """A copy of `obj` with its CRD's defaults applied as the API server applies them.

    Nulls that are not nullable are dropped first (a default then fills them);
    `x-kubernetes-preserve-unknown-fields` subtrees without properties are left
    alone. Objects of kinds without a CRD are returned as a plain copy.
    """
    schema = _schema_of(obj)
    if schema is None or schema is _CONFIGMAP_SCHEMA:
        return copy_json(obj)
    return _admitted(obj, schema)


# --------------------------------------------------------------------------- structural checks

_QUOTE_HINT = ("in Kubernetes YAML, yes/no/on/off/y/n are booleans and unquoted digits are numbers; "
               "quote the value to write a string")
_TYPE_NAMES = {bool: "boolean", int: "integer", float: "number", str: "string", dict: "object", list: "array"}


def _type_name(value: Any) -> str:
    return "null" if value is None else _TYPE_NAMES.get(type(value), "object")


def _type_ok(value: Any, want: str, int_or_string: bool) -> bool:
    if int_or_string:
        return type(value) is int or type(value) is str
    kind = type(value)
    if want == "integer":
        return kind is int
    if want == "number":
        return kind is int or kind is float
    return _TYPE_NAMES.get(kind) == want


@cache
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.ASCII)


_STRING_CHECKS = ("maxLength", "minLength", "pattern")
_NUMBER_CHECKS = ("minimum", "maximum")
_COUNT_CHECKS = ("maxProperties", "minProperties")


class _Plan:
    """What the checker reads from one schema node, looked up once: most nodes check little."""

    __slots__ = ("schema", "want", "int_or_string", "enum", "rules", "strings", "numbers",
                 "props", "extra", "preserve", "required", "counts")

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema  # keeps the schema, and so its id, alive
        self.want = schema.get("type")
        self.int_or_string = bool(schema.get("x-kubernetes-int-or-string"))
        self.enum = "enum" in schema
        self.rules = schema.get("x-kubernetes-validations")
        self.strings = any(k in schema for k in _STRING_CHECKS)
        self.numbers = any(k in schema for k in _NUMBER_CHECKS)
        self.props = schema.get("properties")
        extra = schema.get("additionalProperties")
        self.extra = extra if isinstance(extra, dict) else None
        self.preserve = schema.get("x-kubernetes-preserve-unknown-fields")
        self.required = schema.get("required", ())
        self.counts = any(k in schema for k in _COUNT_CHECKS)


_PLANS: dict[int, _Plan] = {}


def _plan(schema: dict[str, Any]) -> _Plan:
    plan = _PLANS.get(id(schema))
    if plan is None or plan.schema is not schema:
        plan = _PLANS[id(schema)] = _Plan(schema)
    return plan


# Subtrees found clean, by (schema node, marshal of the value): a node's errors depend only on its
# value and its schema node (the path only names them), so a subtree seen clean before is clean
# again. In a batch most subtrees of the merged spec come from the presets and repeat in every
# service. Only clean results are kept: a subtree with errors is walked again, for its paths.
_CLEAN: set[tuple[int, bytes]] = set()
_CLEAN_LIMIT = 1 << 20  # bytes of keys kept before starting afresh (memory stays flat)
_clean_bytes = 0
# Which subtrees are looked up, by depth: near the root they hold the service's own values and
# differ every time (marshalling them costs more than it saves); below 16 they are small.
# Measured on bench/gen.py's services: check_object 43% faster.
_CACHE_FROM, _CACHE_DEPTH = 5, 16


def _remember_clean(key: tuple[int, bytes]) -> None:
    global _clean_bytes
    _clean_bytes += len(key[1])
    if _clean_bytes > _CLEAN_LIMIT:
        _CLEAN.clear()
        _clean_bytes = len(key[1])
    _CLEAN.add(key)


def _identity_key(identity: Any) -> Any:
    """A key equal for two list items exactly when their JSON texts are (what the API server compares).

    A string, or an object of strings (the usual list-map keys), needs no JSON: the encoding of
    strings is one-to-one, and neither can equal the JSON of anything else. Tuples keep them apart
    from the JSON text of the rest (a number, where 1 and 1.0 are the same).
    """
    if type(identity) is str:
        return ("", identity)
    if type(identity) is dict and all(type(k) is str and type(v) is str for k, v in identity.items()):
        return tuple(sorted(identity.items()))
    return go_json(identity)


class _Checker:
    """One walk over an object and its schema, collecting field errors."""

    def __init__(self) -> None:
        self.errors: list[FieldError] = []
        self.unknown: list[Path] = []

    def node(self, value: Any, schema: dict[str, Any], path: Path) -> None:
        kind = type(value)
        if (kind is dict or kind is list) and value and _CACHE_FROM <= len(path) < _CACHE_DEPTH:
            try:  # the plan keeps its schema alive, so the schema's id is never reused
                key = (id(_plan(schema).schema), marshal.dumps(value))
            except ValueError:  # not plain data (a str subclass, too deep): walk it
                self.walk(value, schema, path)
                return
            if key in _CLEAN:
                return
            errors, unknown = len(self.errors), len(self.unknown)
            self.walk(value, schema, path)
            if len(self.errors) == errors and len(self.unknown) == unknown:
                _remember_clean(key)
            return
        self.walk(value, schema, path)

    def walk(self, value: Any, schema: dict[str, Any], path: Path) -> None:
        plan = _plan(schema)
        want = plan.want
        int_or_string = plan.int_or_string
        if want or int_or_string:
            if not _type_ok(value, want or "", int_or_string):
                name = api_path(path)
                types = "integer,string" if int_or_string else want
                actual = _type_name(value)
                hint = _QUOTE_HINT if actual in ("boolean", "integer", "number") and "string" in (types or "") else None
                self.errors.append(FieldError(
                    "Invalid value", name, path, actual, f"{name} in body must be of type {types}: {go_quote(actual)}",
                    hint=hint))
                return
        if plan.enum and value not in schema["enum"]:
            supported = [v if isinstance(v, str) else go_json(v) for v in schema["enum"]]
            self.errors.append(not_supported(api_path(path), path, value, supported))
        if isinstance(value, dict):
            self.mapping(value, plan, path)
        elif isinstance(value, list):
            self.sequence(value, schema, path)
        elif isinstance(value, str):
            if plan.strings:
                self.string(value, schema, path)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            if plan.numbers:
                self.number(value, schema, path)
        rules = plan.rules
        if rules and isinstance(value, (dict, list)):
            self.cel(value, rules, schema, path)

    def mapping(self, value: dict[str, Any], plan: _Plan, path: Path) -> None:
        props, extra = plan.props, plan.extra
        for key in plan.required:
            if key not in value:
                child = path + (key,)
                self.errors.append(required(api_path(child), child))
        for key, item in value.items():
            child = path + (key,)
            sub = props.get(key) if props else None
            if sub is None:
                sub = extra
            if sub is not None:
                self.node(item, sub, child)
            elif not plan.preserve:
                self.unknown.append(child)
        if not plan.counts:
            return
        schema = plan.schema
        self._count_bounds(schema, path, len(value), "Properties")

    def _count_bounds(self, schema: dict[str, Any], path: Path, count: int, what: str) -> None:
        """max/min{Properties,Items}: what is "Properties" or "Items"."""
        if f"max{what}" in schema and count > schema[f"max{what}"]:
            self.errors.append(too_many(api_path(path), path, count, schema[f"max{what}"]))
        if f"min{what}" in schema and count < schema[f"min{what}"]:
            name = api_path(path)
            self.errors.append(invalid(name, path, count, f"{name} in body should have at least {schema[f'min{what}']} {what.lower()}"))

    def sequence(self, value: list[Any], schema: dict[str, Any], path: Path) -> None:
        self._count_bounds(schema, path, len(value), "Items")
        items = schema.get("items")
        if items is not None:
            for i, item in enumerate(value):
                self.node(item, items, path + (i,))
        list_type = schema.get("x-kubernetes-list-type")
        if list_type == "set":
            self.duplicates(path, [(v, v) for v in value])
        elif list_type == "map":
            keys = schema.get("x-kubernetes-list-map-keys", ())
            entries = []
            for i, item in enumerate(value):
                if item is not None and not isinstance(item, dict):
                    self.errors.append(invalid(api_path(path + (i,)), path + (i,), item,
                                               "must be an object for an array of list-type map"))
                    return
                present = {k: item[k] for k in keys if item is not None and k in item}
                entries.append((present, present))
            self.duplicates(path, entries)

    def duplicates(self, path: Path, entries: list[tuple[Any, Any]]) -> None:
        """Report the second occurrence of each repeated value, as the API server's list-type check does."""
        seen: dict[Any, int] = {}
        for i, (identity, shown) in enumerate(entries):
            key = _identity_key(identity)
            seen[key] = seen.get(key, 0) + 1
            if seen[key] == 2:
                child = path + (i,)
                self.errors.append(duplicate(api_path(child), child, shown))

    def string(self, value: str, schema: dict[str, Any], path: Path) -> None:
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            self.errors.append(too_long(api_path(path), path, schema["maxLength"]))
        if "minLength" in schema and len(value) < schema["minLength"]:
            name = api_path(path)
            self.errors.append(invalid(name, path, value, f"{name} in body should be at least {schema['minLength']} chars long"))
        pattern = schema.get("pattern")
        if pattern is not None and not _regex(pattern).search(value):
            name = api_path(path)
            self.errors.append(invalid(name, path, value, f"{name} in body should match '{pattern}'"))

    def number(self, value: int | float, schema: dict[str, Any], path: Path) -> None:
        if "minimum" in schema:
            low = schema["minimum"]
            if value < low or (schema.get("exclusiveMinimum") and value == low):
                name = api_path(path)
                word = "greater than" if schema.get("exclusiveMinimum") else "greater than or equal to"
                self.errors.append(invalid(name, path, value, f"{name} in body should be {word} {format_float(float(low), 'g', -1)}"))
        if "maximum" in schema:
            high = schema["maximum"]
            if value > high or (schema.get("exclusiveMaximum") and value == high):
                name = api_path(path)
                word = "less than" if schema.get("exclusiveMaximum") else "less than or equal to"
                self.errors.append(invalid(name, path, value, f"{name} in body should be {word} {format_float(float(high), 'g', -1)}"))

    def cel(self, value: Any, rules: list[dict[str, str]], schema: dict[str, Any], path: Path) -> None:
        type_name = "object" if isinstance(value, dict) else "array"
        for rule in rules:
            check = rule_check(rule["message"], rule["rule"])
            if check is None:
                continue
            try:
                holds = check(value)
            except (TypeError, AttributeError, KeyError):  # wrong types: reported by the type checks
                holds = None
            if holds is False:
                self.errors.append(invalid(api_path(path), path, type_name, rule["message"].strip()))

    def metadata(self, meta: Any, path: Path) -> None:
        self.node(meta, _METADATA_SCHEMA, path)
        if not isinstance(meta, dict):
            return
        name = meta.get("name")
        if not name:
            self.errors.append(required("metadata.name", path + ("name",), "name or generateName is required"))
        elif isinstance(name, str):
            for msg in dns1123_subdomain_errors(name):
                self.errors.append(invalid("metadata.name", path + ("name",), name, msg))
        namespace = meta.get("namespace")
        if isinstance(namespace, str) and namespace:
            for msg in dns1123_label_errors(namespace):
                self.errors.append(invalid("metadata.namespace", path + ("namespace",), namespace, msg))
        for where, value, msg in label_and_annotation_errors(meta):
            self.errors.append(invalid(f"metadata.{where[0]}", path + where, value, msg))
        if annotations_too_long(meta):
            self.errors.append(too_long("metadata.annotations", path + ("annotations",), ANNOTATIONS_SIZE_LIMIT))


def check_object(obj: dict[str, Any]) -> tuple[list[FieldError], list[Path]]:
    """Field errors and unknown-field paths of one (already defaulted) object."""
    schema = _schema_of(obj)
    if schema is None:
        return [], []
    checker = _Checker()
    for key, value in obj.items():
        if key == "metadata":
            checker.metadata(value, ("metadata",))
        elif key == "status" and schema is not _CONFIGMAP_SCHEMA:
            continue  # ignored on create
        elif key in schema["properties"]:
            checker.node(value, schema["properties"][key], (key,))
        else:
            checker.unknown.append((key,))
    if "metadata" not in obj:
        checker.errors.append(required("metadata.name", ("metadata", "name"), "name or generateName is required"))
    return checker.errors, checker.unknown


def check_pod_spec(pod: dict[str, Any], path: Path) -> list[str]:
    """`path: message` for every schema error of a core/v1 PodSpec (the CRD's `spec.template` schema).

    For pods llmc builds from other inputs (an InferenceService predictor), where no CRD
    checked the fields on admission.
    """
    schema = schema_for("serving.kserve.io/v1alpha2", "LLMInferenceService")["properties"]["spec"]["properties"]["template"]
    checker = _Checker()
    checker.node(_admitted(pod, schema), schema, path)
    found = [f"{api_path(p)}: unknown field" for p in checker.unknown]
    return found + [err.body() if api_path(err.path) in err.body() else f"{api_path(err.path)}: {err.body()}"
                    for err in checker.errors]


def validate(doc: Document, *, defaulted: bool = False) -> None:
    """Check a document as the API server would on create; raise `ErrorList` with every error.

    Errors are sorted by position and carry the field path and file:line:col. `defaulted` says
    `doc.obj` is already `apply_defaults`' result, which defaulting again would leave as it is:
    no default in schemas/crd holds a null (tests/test_schema.py), so a second pass drops nothing.
    """
    errors, unknown = check_object(doc.obj if defaulted else apply_defaults(doc.obj))
    schema = _schema_of(doc.obj)
    found: list[LlmcError] = [
        LlmcError(f"unknown field {go_quote(api_path(p))}", doc.locate_key(p), hint=_did_you_mean(schema, p))
        for p in unknown
    ]
    for err in errors:
        found.append(LlmcError(err.body(), doc.locate(err.path), hint=err.hint))
    if found:
        found.sort(key=lambda e: (e.location.line or 0, e.location.col or 0, e.location.path))  # type: ignore[union-attr]
        raise ErrorList(found)


# --------------------------------------------------------------------------- CEL rules
#
# Each check gets the value the rule is attached to and returns True (holds),
# False (violated) or None (CEL would stop with an error on a missing field).

if TYPE_CHECKING:
    Check = Callable[[Any], bool | None]


def _all(*parts: bool | None) -> bool | None:
    """CEL `&&`: false wins over an error, an error wins over true."""
    if any(p is False for p in parts):
        return False
    return None if any(p is None for p in parts) else True


def _has(value: Any, *keys: str) -> bool:
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            return False
        value = value[key]
    return True


def _get(value: Any, *keys: str) -> Any:
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _go_duration(text: Any) -> float | None:
    """Seconds of a Go duration string (`1h30m`, `500ms`, `0s`); None if it does not parse."""
    if not isinstance(text, str):
        return None
    units = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
    if text in ("0", "+0", "-0"):
        return 0.0
    match = re.fullmatch(r"([+-]?)((?:[0-9]*\.?[0-9]+(?:ns|us|µs|μs|ms|s|m|h))+)", text)
    if match is None:
        return None
    total = sum(float(n) * units[u] for n, u in re.findall(r"([0-9]*\.?[0-9]+)(ns|us|µs|μs|ms|s|m|h)", match.group(2)))
    return -total if match.group(1) == "-" else total


def _min_below_max(v: dict) -> bool | None:
    if "minReplicas" not in v:
        return True
    if "maxReplicas" not in v:
        return None
    return v["minReplicas"] <= v["maxReplicas"]


def _idle_keda(rule: str) -> Callable[[dict], Any]:
    """The KEDA block an idleReplicaCount rule reads: `self.wva.keda` or `self.keda`."""
    return (lambda v: _get(v, "wva", "keda")) if "self.wva" in rule else (lambda v: v.get("keda"))


def _idle_needs_min(rule: str) -> Check:
    keda = _idle_keda(rule)
    return lambda v: not _has(keda(v), "idleReplicaCount") or "minReplicas" in v


def _idle_below_min(rule: str) -> Check:
    keda = _idle_keda(rule)

    def check(v: dict) -> bool | None:
        block = keda(v)
        if not _has(block, "idleReplicaCount") or "minReplicas" not in v:
            return True
        return block["idleReplicaCount"] < v["minReplicas"]

    return check


def _empty(value: dict, key: str) -> bool | None:
    return None if key not in value else len(value[key]) == 0


def _no_scaling_modifiers(v: dict) -> bool | None:
    advanced = _get(v, "keda", "advanced")
    if advanced is None:
        return True
    modifiers = advanced.get("scalingModifiers")
    if not isinstance(modifiers, dict):
        return None
    return _all(*(_empty(modifiers, k) for k in ("formula", "target", "activationTarget", "metricType")))


def _no_hpa_name(v: dict) -> bool | None:
    config = _get(v, "advanced", "horizontalPodAutoscalerConfig")
    if config is None:
        return True
    return _empty(config, "name")


def _triggers(v: dict) -> bool | None:
    if "keda" not in v:
        return True
    triggers = _get(v, "keda", "triggers")
    return None if triggers is None else len(triggers) > 0


def _unique_numbers(v: list) -> bool | None:
    numbers = [p.get("number") if isinstance(p, dict) else None for p in v]
    if any(n is None for n in numbers):
        return None
    return len(set(numbers)) == len(numbers)


def _total_matches(v: list) -> bool | None:
    total = 0
    for rule in v[:16]:
        if not _has(rule, "matches"):
            return None
        total += len(rule["matches"])
    return total <= 128


def _redirect_without_backends(v: dict) -> bool:
    if not v.get("backendRefs"):
        return True
    return all(not _has(f, "requestRedirect") for f in v.get("filters") or [])


def _prefix_rewrite(kind: str) -> Callable[[Any], bool]:
    """Whether a filter rewrites with path.replacePrefixMatch (`kind` is requestRedirect or urlRewrite)."""

    def uses(f: Any) -> bool:
        path = _get(f, kind, "path")
        return isinstance(path, dict) and path.get("type") == "ReplacePrefixMatch" and "replacePrefixMatch" in path

    return uses


def _one_prefix_match(v: dict) -> bool:
    matches = v.get("matches") or []
    return len(matches) == 1 and _get(matches[0], "path", "type") == "PathPrefix"


def _rule_prefix_rewrite(kind: str) -> Check:
    uses = _prefix_rewrite(kind)
    return lambda v: not (sum(map(uses, v.get("filters") or [])) == 1) or _one_prefix_match(v)


def _backend_prefix_rewrite(kind: str) -> Check:
    uses = _prefix_rewrite(kind)

    def check(v: dict) -> bool:
        backends = v.get("backendRefs") or []
        with_rewrite = [b for b in backends if sum(map(uses, _get(b, "filters") or [])) == 1]
        return len(with_rewrite) != 1 or _one_prefix_match(v)

    return check


def _service_port(v: dict) -> bool | None:
    if "group" not in v or "kind" not in v:
        return None
    return not (len(v["group"]) == 0 and v["kind"] == "Service") or "port" in v


def _timeouts(v: dict) -> bool | None:
    if "request" not in v or "backendRequest" not in v:
        return True
    request, backend = _go_duration(v["request"]), _go_duration(v["backendRequest"])
    if request is None or backend is None:
        return None
    return not (request != 0 and backend > request)


def _path_rule(test: Callable[[str], bool]) -> Check:
    """A rule on an HTTPRoute path match that applies to Exact and PathPrefix only."""

    def check(v: dict) -> bool | None:
        if "type" not in v:
            return None
        if v["type"] not in ("Exact", "PathPrefix"):
            return True
        return None if not isinstance(v.get("value"), str) else test(v["value"])

    return check


_FIXED_RULES: dict[str, Check] = {
    "replicas and scaling are mutually exclusive; use scaling for autoscaled deployments or replicas for static deployments":
        lambda v: not ("replicas" in v and "scaling" in v),
    "either wva or keda must be specified when scaling is configured": lambda v: "wva" in v or "keda" in v,
    "wva and keda are mutually exclusive": lambda v: not ("wva" in v and "keda" in v),
    "at least one trigger is required when using direct KEDA scaling": _triggers,
    "minReplicas cannot exceed maxReplicas": _min_below_max,
    "scalingModifiers must not be set; WVA controls the scaling metric formula and logic": _no_scaling_modifiers,
    "hpa and keda are mutually exclusive; choose one actuator backend": lambda v: not ("hpa" in v and "keda" in v),
    "either hpa or keda must be specified as the actuator backend": lambda v: "hpa" in v or "keda" in v,
    "horizontalPodAutoscalerConfig.name must not be set; the controller manages the HPA name": _no_hpa_name,
    "port is required when kind is 'Service' or unspecified (defaults to 'Service')":
        lambda v: None if "kind" not in v else v["kind"] != "Service" or "port" in v,
    "port number must be unique": _unique_numbers,
    "While 16 rules and 64 matches per rule are allowed, the total number of matches across all rules in a route "
    "must be less than 128": _total_matches,
    "RequestRedirect filter must not be used together with backendRefs": _redirect_without_backends,
    "When using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified":
        _rule_prefix_rewrite("requestRedirect"),
    "When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified":
        _rule_prefix_rewrite("urlRewrite"),
    "Within backendRefs, when using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match "
    "must be specified": _backend_prefix_rewrite("requestRedirect"),
    "Within backendRefs, When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match "
    "must be specified": _backend_prefix_rewrite("urlRewrite"),
    "Must have port for Service reference": _service_port,
    "May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, but not both":
        lambda v: not (any(_get(f, "type") == "RequestRedirect" for f in v) and any(_get(f, "type") == "URLRewrite" for f in v)),
    "Only one of percent or fraction may be specified in HTTPRequestMirrorFilter":
        lambda v: not ("percent" in v and "fraction" in v),
    "numerator must be less than or equal to denominator":
        lambda v: None if "numerator" not in v or "denominator" not in v else v["numerator"] <= v["denominator"],
    "AbsoluteTimeout must be specified when cookie lifetimeType is Permanent":
        lambda v: _get(v, "cookieConfig", "lifetimeType") != "Permanent" or "absoluteTimeout" in v,
    "cookieConfig can only be set with type Cookie":
        lambda v: "cookieConfig" not in v or (None if "type" not in v else v["type"] == "Cookie"),
    "backendRequest timeout cannot be longer than request timeout": _timeouts,
    "value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']":
        _path_rule(lambda s: s.startswith("/")),
    "type must be one of ['Exact', 'PathPrefix', 'RegularExpression']":
        lambda v: None if "type" not in v else v["type"] in ("Exact", "PathPrefix", "RegularExpression"),
}

# Rules written from one pattern; the parts of the message say what to check.
_PATTERN_RULES: list[tuple[re.Pattern[str], Callable[..., Check]]] = [
    (re.compile(r"minReplicas is required when idleReplicaCount is set"), lambda rule: _idle_needs_min(rule)),
    (re.compile(r"idleReplicaCount must be less than minReplicas; .*"), lambda rule: _idle_below_min(rule)),
    (re.compile(r"(\w+) filter cannot be repeated"),
     lambda rule, kind: lambda v: sum(1 for f in v if _get(f, "type") == kind) <= 1),
    (re.compile(r"filter\.(\w+) must be nil if the filter\.type is not (\w+)"),
     lambda rule, key, kind: lambda v: not (key in v and v.get("type") != kind)),
    (re.compile(r"filter\.(\w+) must be specified for (\w+) filter\.type"),
     lambda rule, key, kind: lambda v: not (key not in v and v.get("type") == kind)),
    (re.compile(r"\w+ cannot contain '\*' alongside other \w+"),
     lambda rule: lambda v: not ("*" in v and len(v) > 1)),
    (re.compile(r"(\w+) must be specified when (\w+) is set to '(\w+)'"),
     lambda rule, key, selector, value: lambda v: v.get(selector) != value or key in v),
    (re.compile(r"(\w+) must be '(\w+)' when (\w+) is set"),
     lambda rule, selector, value, key: lambda v: key not in v or v.get(selector) == value),
    (re.compile(r"must not contain '(.+)' when type one of \['Exact', 'PathPrefix'\]"),
     lambda rule, text: _path_rule(lambda s: text not in s)),
    (re.compile(r"must not end with '(.+)' when type one of \['Exact', 'PathPrefix'\]"),
     lambda rule, text: _path_rule(lambda s: not s.endswith(text))),
    (re.compile(r"must only contain valid characters \(matching (.+)\) for types \['Exact', 'PathPrefix'\]"),
     lambda rule, pattern: _path_rule(lambda s: _regex(pattern).search(s) is not None)),
]


@cache
def rule_check(message: str, rule: str) -> Check | None:
    """The hand-written check for a CEL rule, found by its message; None if llmc has none."""
    message = message.strip()
    if message in _FIXED_RULES:
        return _FIXED_RULES[message]
    for pattern, build in _PATTERN_RULES:
        match = pattern.fullmatch(message)
        if match:
            return build(rule, *match.groups())
    return None


def unsupported_rules(api_version: str, kind: str) -> list[str]:
    """Messages of the schema's CEL rules that llmc does not check."""
    schema = schema_for(api_version, kind)
    missing: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for rule in node.get("x-kubernetes-validations", ()):
                if rule_check(rule["message"], rule["rule"]) is None:
                    missing.add(rule["message"])
            for key in ("properties",):
                for sub in (node.get(key) or {}).values():
                    walk(sub)
            for key in ("items", "additionalProperties"):
                walk(node.get(key))

    walk(schema)
    return sorted(missing)
