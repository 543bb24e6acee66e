"""llmc inside KRM pipelines: the `LLMRender` config object and the ResourceList contract.

One configuration serves the kustomize exec plugin (a generator whose config is
an `LLMRender` object), the KRM function (`functionConfig` is an `LLMRender`
or a ConfigMap with the same keys in `data`) and the Argo CD plugin (the same
keys from `ARGOCD_ENV_LLMC_*` variables). Field names are documented in
docs/gitops.md.

Objects follow one rule wherever they come in (`llmc render -f`, KRM `items`, an
Argo CD application folder, the kustomize plugin's `files`; `partition`):
`LLMInferenceService`, `LLMInferenceServiceConfig`, `InferenceService` and its
runtimes are inputs and are replaced by what they render to; ConfigMaps (a
scheduler `config.ref` may name them), Gateways, HTTPRoutes and Services (what
the router reads) are read and stay in the output; every other object passes
through untouched. What stays is written before the rendered objects, in kind
order.

Everything here is pure: the CLI layer (llmc/cli/gitops.py) reads stdin, files
and the environment.
"""

from __future__ import annotations


from llmc.core.errors import LlmcError, Location
from llmc.options import BY_KEY, RENDER
from llmc.core.record import record

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:  # kept out of `llmc`'s start-up: the CLI imports this module for every command
    from typing import Any
    from llmc.core.findings import Finding
    from llmc.load.documents import Document

CONFIG_API = "llmc.dev/v1alpha1"
CONFIG_KIND = "LLMRender"
RESOURCE_LIST_APIS = ("config.kubernetes.io/v1", "config.kubernetes.io/v1beta1")
RESOURCE_LIST_KIND = "ResourceList"
SERVING_GROUP = "serving.kserve.io/"
# rendered away: the services and what they read (no controller runs on the cluster to read them)
INPUT_KINDS = ("LLMInferenceService", "LLMInferenceServiceConfig", "InferenceService", "ServingRuntime",
               "ClusterServingRuntime", "ClusterStorageContainer")
PATH_ANNOTATIONS = ("internal.config.kubernetes.io/path", "config.kubernetes.io/path")
INDEX_ANNOTATIONS = ("internal.config.kubernetes.io/index", "config.kubernetes.io/index")


@record(frozen=True)
class RenderConfig:
    """The options that shape one render's output (the `key`ed options of llmc.options.RENDER; the
    field of `filename` is `files`), from flags, an LLMRender object, a ConfigMap or Argo CD's environment."""

    files: tuple[str, ...] = ()
    presets: tuple[str, ...] = ()
    preset_set: str | None = None
    kserve_config: str | None = None
    namespace: str = "default"
    system_namespace: str = "kserve"
    strict: bool = False
    allow: tuple[str, ...] = ()  # finding codes or globs: not reported, never failing (llmc.core.findings.Policy)
    deny: tuple[str, ...] = ()  # finding codes or globs that fail the run
    owner_references: bool = False
    api_versions: tuple[str, ...] = ()
    kube_version: str | None = None
    dra_api: str | None = None
    gateway_pool_api: str = "v1"
    cert_issuer: str | None = None
    controller_objects: bool = False
    kserve_version: str | None = None
    runtimes: tuple[str, ...] = ()
    allow_empty: bool = False  # no service in the input renders nothing instead of failing
    validate: bool = False
    # Argo CD's KUBE_API_VERSIONS lists the live cluster's APIs: they replace the defaults instead of adding.
    complete_api_versions: bool = False


def config_field(name: str) -> str:
    """The RenderConfig field of a render option."""
    return "files" if name == "filename" else name


_TYPES = {"list": list, "flag": bool}
# config key -> (RenderConfig field, type)
FIELDS: dict[str, tuple[str, type]] = {
    key: (config_field(o.name), _TYPES.get(o.kind, str)) for key, o in BY_KEY.items()  # type: ignore[arg-type]
}


def render_config(values: dict[str, Any]) -> RenderConfig:
    """A RenderConfig from `llmc render`'s keyword arguments (lists become tuples, None the default)."""
    out: dict[str, Any] = {}
    for o in RENDER:
        value = values.get(o.name)
        if o.key is None or value is None:
            continue
        out[config_field(o.name)] = tuple(value) if o.kind == "list" else value
    return RenderConfig(**out)


def parse_config(obj: dict[str, Any] | None, doc: Document | None = None, source: str = "") -> RenderConfig:
    """A RenderConfig from an `LLMRender` object or a ConfigMap carrying the same keys in `data`.

    `None` (no functionConfig) means the defaults. Unknown keys are errors: a
    misspelt option must not be ignored silently.
    """
    if obj is None:
        return RenderConfig()
    kind, api = obj.get("kind"), obj.get("apiVersion")
    if kind == "ConfigMap" and api == "v1":
        data = obj.get("data") or {}
        return _config(data, ("data",), doc, from_strings=True, source=source)
    if kind == CONFIG_KIND and api == CONFIG_API:
        fields = {k: v for k, v in obj.items() if k not in ("apiVersion", "kind", "metadata")}
        return _config(fields, (), doc, from_strings=False, source=source)
    raise LlmcError(
        f"llmc takes an {CONFIG_API} {CONFIG_KIND} or a v1 ConfigMap as its config, not {api} {kind}",
        _where(doc, ("kind",)),
        hint=f"apiVersion: {CONFIG_API}, kind: {CONFIG_KIND}, with the keys {', '.join(FIELDS)}",
    )


def config_from_strings(values: dict[str, str], source: str) -> RenderConfig:
    """A RenderConfig from string values (environment variables); lists are comma-separated."""
    return _config(values, (), None, from_strings=True, source=source)


def _config(values: dict[str, Any], prefix: tuple, doc: Document | None, *, from_strings: bool, source: str = "") -> RenderConfig:
    kwargs: dict[str, Any] = {}
    for key, value in values.items():
        where = _where(doc, (*prefix, key)) if doc else Location(source or "<config>", path=".".join((*prefix, key)))
        if key not in FIELDS:
            import difflib

            close = difflib.get_close_matches(key, FIELDS, n=1)
            raise LlmcError(f"unknown llmc option {key!r}", where,
                            hint=f"did you mean {close[0]}?" if close else f"known options: {', '.join(FIELDS)}")
        name, kind = FIELDS[key]
        if from_strings and isinstance(value, str) and not value.strip():
            continue  # an empty value (an unset ARGOCD_ENV_ variable, an empty data key) means the default
        kwargs[name] = _value(key, value, kind, where, from_strings)
    return RenderConfig(**kwargs)


def _value(key: str, value: Any, kind: type, where: Location, from_strings: bool) -> Any:
    if from_strings:
        if not isinstance(value, str):
            raise LlmcError(f"{key} must be a string", where)
        if kind is list:
            return tuple(part.strip() for part in value.replace("\n", ",").split(",") if part.strip())
        if kind is bool:
            if value.strip().lower() not in ("true", "false"):
                raise LlmcError(f"{key} must be true or false, not {value!r}", where)
            return value.strip().lower() == "true"
        return value.strip()
    if kind is list:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise LlmcError(f"{key} must be a list of strings", where)
        return tuple(value)
    if not isinstance(value, kind):
        raise LlmcError(f"{key} must be a {'boolean' if kind is bool else 'string'}", where)
    return value


def _where(doc: Document | None, path: tuple) -> Location | None:
    return doc.locate(path) if doc is not None else None


# --------------------------------------------------------------------------- items


def is_input(obj: dict[str, Any]) -> bool:
    """An object llmc renders away. Also, so that admission refuses them with a hint rather than passing
    them through: an input kind in any apiVersion (`serving.kserve.io/v1beta1` LLMInferenceService), and
    a serving.kserve.io kind that misspells one (`LLMInferenceServices`)."""
    kind = str(obj.get("kind", ""))
    if kind in INPUT_KINDS:
        return True
    if not str(obj.get("apiVersion", "")).startswith(SERVING_GROUP):
        return False
    import difflib

    return bool(difflib.get_close_matches(kind.lower(), [k.lower() for k in INPUT_KINDS], n=1, cutoff=0.85))


def is_read(obj: dict[str, Any]) -> bool:
    """An object llmc reads and keeps in the output: a ConfigMap, or what the router reads (Gateway, ...)."""
    from llmc.load.documents import KNOWN_INPUT_KINDS

    return (str(obj.get("apiVersion", "")), str(obj.get("kind", ""))) in KNOWN_INPUT_KINDS


def partition(docs: list[Document]) -> tuple[list[Document], list[Document]]:
    """(llmc inputs, documents for the output, in kind order): inputs are consumed, the objects llmc reads
    (`is_read`) are both, the rest passes through unchanged; llmc's own `LLMRender` configs (a kustomize
    folder's, read with `files: [.]`) are no objects for the cluster and are dropped."""
    from llmc.k8s.install_order import sort_key

    inputs: list[Document] = []
    kept: list[Document] = []
    for doc in docs:
        if doc.obj.get("kind") == CONFIG_KIND and doc.obj.get("apiVersion") == CONFIG_API:
            continue
        if is_input(doc.obj):
            inputs.append(doc)
            continue
        if is_read(doc.obj):
            inputs.append(doc)
        kept.append(doc)
    return inputs, sorted(kept, key=lambda d: sort_key(d.obj))


def item_documents(docs: list[Document]) -> list[Document]:
    """ResourceList items as input documents labelled `items[i]`.

    The loader's line numbers count lines of the ResourceList on stdin, which
    nobody sees, so they are dropped: results point at the item (resourceRef,
    its source file annotation) and the field path instead.
    """
    from llmc.load.documents import Document

    return [Document(d.obj, item_label(i), d.index, {}, {}, item=i) for i, d in enumerate(docs)]


def item_label(index: int) -> str:
    return f"items[{index}]"


def resource_list(items: list[dict[str, Any]], results: list[dict[str, Any]], api_version: str = RESOURCE_LIST_APIS[0]) -> dict[str, Any]:
    out: dict[str, Any] = {"apiVersion": api_version, "kind": RESOURCE_LIST_KIND, "items": items}
    if results:
        out["results"] = results
    return out


# --------------------------------------------------------------------------- results


def finding_result(finding: Finding, service: dict[str, Any] | None) -> dict[str, Any]:
    """A finding as a KRM result: warning, or info for the LLMC3xx notes."""
    result: dict[str, Any] = {
        "message": f"{finding.code} {finding.message}",
        "severity": "warning" if finding.severity == "warning" else "info",
    }
    if service is not None:
        result["resourceRef"] = resource_ref(service)
    result["field"] = {"path": finding.path}
    if service is not None and (file := source_file(service)):
        result["file"] = file
    result["tags"] = {"code": finding.code}
    return result


def error_result(err: LlmcError, items: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """An error as a KRM result; `items` maps item labels (`items[i]`) to the item objects."""
    message = err.message + (f" (hint: {err.hint})" if err.hint else "")
    loc = err.location
    result: dict[str, Any] = {"message": message, "severity": "error"}
    if loc is None:
        return result
    item = items.get(loc.file)
    if item is not None:
        result["resourceRef"] = resource_ref(item)
    if loc.path:
        result["field"] = {"path": loc.path}
    if item is not None:
        if file := source_file(item):
            result["file"] = file
    elif loc.file:
        result["file"] = {"path": loc.file}
        if loc.line is not None:
            result["message"] = f"{loc}: {message}"
    return result


def resource_ref(obj: dict[str, Any]) -> dict[str, str]:
    meta = obj.get("metadata") or {}
    ref = {"apiVersion": str(obj.get("apiVersion", "")), "kind": str(obj.get("kind", ""))}
    ref["name"] = str(meta.get("name", ""))
    if meta.get("namespace"):
        ref["namespace"] = str(meta["namespace"])
    return ref


def source_file(obj: dict[str, Any]) -> dict[str, Any] | None:
    """`{path, index}` from the annotations kustomize and kpt put on items, when present."""
    annotations = (obj.get("metadata") or {}).get("annotations") or {}
    path = next((annotations[k] for k in PATH_ANNOTATIONS if k in annotations), None)
    if path is None:
        return None
    out: dict[str, Any] = {"path": path}
    index = next((annotations[k] for k in INDEX_ANNOTATIONS if k in annotations), None)
    if isinstance(index, str) and index.isdigit():
        out["index"] = int(index)
    return out
