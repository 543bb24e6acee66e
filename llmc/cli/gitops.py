"""GitOps commands on llmc's typer app: explain, kustomize-plugin, krm, argocd-generate, check, schema.

CLI layer: this module reads stdin, files and the environment and writes
stdout/stderr; the logic lives in llmc.gitops.explain, llmc.gitops.krm and llmc.gitops.schema_export.
Every command keeps stdout for its result only (a manifest stream, a
ResourceList, a schema) and writes findings, logs and errors to stderr, so it
can feed kubectl, kustomize, kpt and Argo CD directly.
"""

from __future__ import annotations

import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from llmc.cli.params import FilesOpt, KServeVersion, option_annotation
from llmc.cli.common import build_request, fail, findings_policy, report_findings, reported, stderr_console
from llmc.gitops.krm import FIELDS, RenderConfig
from llmc.options import BY_NAME
from llmc.core.record import replace

PresetsOpt = option_annotation(BY_NAME["presets"])
PresetSetOpt = option_annotation(BY_NAME["preset_set"])
KserveConfigOpt = option_annotation(BY_NAME["kserve_config"])
NamespaceOpt = option_annotation(BY_NAME["namespace"])
SystemNamespaceOpt = option_annotation(BY_NAME["system_namespace"])
ApiVersionsOpt = option_annotation(BY_NAME["api_versions"])
KubeVersionOpt = option_annotation(BY_NAME["kube_version"])
DraApiOpt = option_annotation(BY_NAME["dra_api"])
KserveVersionOpt = option_annotation(BY_NAME["kserve_version"])
StrictOpt = option_annotation(BY_NAME["strict"])
AllowOpt = option_annotation(BY_NAME["allow"])
DenyOpt = option_annotation(BY_NAME["deny"])
AllowEmptyOpt = option_annotation(BY_NAME["allow_empty"])

# ARGOCD_ENV_LLMC_<NAME> -> LLMRender key
ARGOCD_ENV_PREFIX = "ARGOCD_ENV_LLMC_"
ARGOCD_KEYS = {attr.upper(): key for key, (attr, _) in FIELDS.items()}  # e.g. PRESET_SET -> presetSet


class ExplainOutput(str, Enum):
    """The format of `explain`: text for people, json for tools."""

    text = "text"
    json = "json"


def _compile(config: RenderConfig, sources: dict[str, str], inputs=None, confined: bool = False):
    """(request, pipeline.Compiled) for a RenderConfig; `inputs` (documents) are rendered together with config.files.

    `confined` (the GitOps entry points): every path must stay inside the allowed folders (llmc.read.confine)."""
    from llmc.core.errors import LlmcError
    from llmc.pipeline import run

    if confined:
        config = _confined(config)
    versions = [v.value for v in KServeVersion]
    if config.kserve_version is not None and config.kserve_version not in versions:
        raise LlmcError(f"unknown kserveVersion {config.kserve_version!r}", hint=f"one of {', '.join(versions)}", exit_code=2)
    request = build_request(config, sources, documents=inputs or ())
    return request, run(request)


def _confined(config: RenderConfig) -> RenderConfig:
    from llmc.read.confine import allowed_roots, confine, confined_files

    base = Path.cwd()
    roots = allowed_roots(base, dict(os.environ))
    kserve = str(confine(config.kserve_config, roots, base, "kserveConfig")) if config.kserve_config else None
    return replace(config, files=confined_files(config.files, roots, base, "files"),
                   presets=confined_files(config.presets, roots, base, "presets"), kserve_config=kserve)


def _report_findings(compiled, policy) -> None:
    """Findings on stderr, as `policy` (llmc.core.findings.Policy) has them; exit 1 when it fails the run."""
    if report_findings(compiled.findings, policy):
        raise typer.Exit(1)


# --------------------------------------------------------------------------- explain


def explain(
    filename: FilesOpt,
    presets: PresetsOpt = None,
    preset_set: PresetSetOpt = None,
    kserve_config: KserveConfigOpt = None,
    namespace: NamespaceOpt = "default",
    system_namespace: SystemNamespaceOpt = "kserve",
    api_versions: ApiVersionsOpt = None,
    kube_version: KubeVersionOpt = None,
    dra_api: DraApiOpt = None,
    kserve_version: KserveVersionOpt = None,
    cluster: Annotated[Optional[list[str]], typer.Option("--cluster", help="Gateways (with their Services and status.addresses) and HTTPRoutes in the cluster, for the URL. Repeatable.")] = None,
    output: Annotated[ExplainOutput, typer.Option("-o", "--output", help="text for people, json for tools.")] = ExplainOutput.text,
    allow_empty: AllowEmptyOpt = False,
) -> None:
    """Explain each service: presets applied, why each object exists, where each field came from, findings, URL."""
    from llmc.gitops.explain import cluster_from, explain as build, format_text
    from llmc.read.inputs import read_documents

    sources: dict[str, str] = {}
    config = RenderConfig(
        files=tuple(filename), presets=tuple(presets or ()), preset_set=preset_set, kserve_config=kserve_config,
        namespace=namespace, system_namespace=system_namespace, api_versions=tuple(api_versions or ()),
        kube_version=kube_version, dra_api=dra_api, kserve_version=kserve_version.value if kserve_version else None,
        allow_empty=allow_empty,
    )
    with reported(sources):
        state = cluster_from([d.obj for d in read_documents(cluster, sources)], namespace) if cluster else None
        request, compiled = _compile(config, sources)
        doc = build(compiled, request, state)
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n" if output is ExplainOutput.json else format_text(doc)
    sys.stdout.write(text)


# --------------------------------------------------------------------------- kustomize exec plugin


def kustomize_plugin(
    config_file: Annotated[str, typer.Argument(help="The LLMRender object kustomize passes to its exec plugins.")],
) -> None:
    """Run as kustomize's exec generator plugin for `llmc.dev/v1alpha1 LLMRender` (see docs/kustomize/)."""
    from llmc.output.emit import to_yaml
    from llmc.core.errors import LlmcError
    from llmc.read.inputs import read_text
    from llmc.gitops.krm import parse_config
    from llmc.load.documents import load_text

    sources: dict[str, str] = {}
    label = "LLMRender config"
    with reported(sources):
        text = read_text(config_file)
        sources[label] = text
        docs = load_text(text, label)
        if len(docs) != 1:
            raise LlmcError(f"the plugin config must be one object, found {len(docs)}")
        config = parse_config(docs[0].obj, docs[0])
        policy = findings_policy(config)
        request, compiled = _compile(config, sources, confined=True)
    _report_findings(compiled, policy)
    sys.stdout.write(to_yaml([*request.passthrough_objects(), *compiled.objects()]))


# --------------------------------------------------------------------------- KRM function


def krm() -> None:
    """Run as a KRM function: a ResourceList on stdin, the rendered ResourceList on stdout.

    LLMInferenceService(Config), InferenceService and ServingRuntime items are replaced by what they render to,
    ConfigMaps, Gateways, HTTPRoutes and Services are read and kept, other items pass through (kept items
    first, in kind order; llmc.gitops.krm.partition); errors and findings
    become `results`; exit 1 on error.
    """
    import yaml

    from llmc.output.emit import to_yaml
    from llmc.core.errors import ErrorList, LlmcError
    from llmc.gitops.krm import (
        RESOURCE_LIST_APIS, RESOURCE_LIST_KIND, error_result, finding_result, item_documents, item_label,
        parse_config, resource_list,
    )
    from llmc.load.documents import load_text

    from llmc.read.inputs import read_text

    sources: dict[str, str] = {}
    items: list[dict[str, Any]] = []
    api_version = RESOURCE_LIST_APIS[0]

    def fail_with_results(errors: list[LlmcError]) -> None:
        by_label = {item_label(i): obj for i, obj in enumerate(items)}
        results = [error_result(e, by_label) for e in errors]
        sys.stdout.write(to_yaml([resource_list(items, results, api_version)]))
        from llmc.cli.report import emit_errors

        emit_errors(errors, sources, stderr_console())
        raise typer.Exit(1)

    try:
        text = sources["<stdin>"] = read_text("-")  # bounded and strictly UTF-8, as every input
        docs = load_text(text, "<stdin>")
        envelopes = list(yaml.load_all(text, Loader=yaml.CSafeLoader))  # the loader above checked the syntax
        envelope = envelopes[0] if len(envelopes) == 1 else None
        if not isinstance(envelope, dict) or envelope.get("kind") != RESOURCE_LIST_KIND or envelope.get("apiVersion") not in RESOURCE_LIST_APIS:
            raise LlmcError(
                "llmc krm reads one ResourceList on stdin",
                hint=f"apiVersion {' or '.join(RESOURCE_LIST_APIS)}, kind {RESOURCE_LIST_KIND}; "
                "kustomize and kpt send one; to render files use `llmc render`",
            )
        api_version = envelope["apiVersion"]
        items = [d.obj for d in docs]
        fn_config = envelope.get("functionConfig")
        config = parse_config(_plain(fn_config) if fn_config is not None else None, source="<stdin> functionConfig")
        policy = findings_policy(config)
        request, compiled = _compile(config, sources, item_documents(docs), confined=True)
    except ErrorList as errs:
        fail_with_results(errs.errors)
    except LlmcError as err:
        fail_with_results([err])
    services = {out.key: out.resolved.service for out in compiled.outputs}
    results = [finding_result(f, services.get(f.service)) for f in policy.shown(compiled.findings)]
    if policy.failing(compiled.findings):
        sys.stdout.write(to_yaml([resource_list(items, results, api_version)]))
        raise typer.Exit(1)
    sys.stdout.write(to_yaml([resource_list([*request.passthrough_objects(), *compiled.objects()], results, api_version)]))


def _plain(value: Any) -> Any:
    """The functionConfig as JSON data (YAML timestamps in its metadata become strings)."""
    return json.loads(json.dumps(value, default=str))


# --------------------------------------------------------------------------- Argo CD


def argocd_generate() -> None:
    """Run as an Argo CD Config Management Plugin's generate command (see docs/argocd/).

    Reads the application folder (the working directory), renders its
    LLMInferenceService(Config), InferenceService and ServingRuntime objects and writes them, with every other object
    of the folder, to stdout. Options come from ARGOCD_ENV_LLMC_* variables,
    ARGOCD_APP_NAMESPACE, KUBE_VERSION and KUBE_API_VERSIONS.
    """
    from llmc.output.emit import to_yaml
    from llmc.read.inputs import read_documents

    sources: dict[str, str] = {}
    root = Path.cwd().resolve()
    with reported(sources):
        config = argocd_config(dict(os.environ))
        config = _confined(config)
        policy = findings_policy(config)
        excluded = {(root / p).resolve() for p in (*config.presets, *([config.kserve_config] if config.kserve_config else []))}
        files = [f for f in _app_files(root, config.files or (".",)) if f not in excluded]
        docs = read_documents([str(f.relative_to(root)) for f in files], sources) if files else []
        request, compiled = _compile(replace(config, files=()), sources, docs)
    _report_findings(compiled, policy)
    kept, rendered = request.passthrough_objects(), compiled.objects()
    text = to_yaml([*kept, *rendered])
    sys.stderr.write(
        f"llmc: rendered {len(compiled.outputs) + compiled.isvc.services} service(s) from {len(files)} file(s) into {len(rendered)} object(s); "
        f"{len(kept)} other object(s) passed through\n"
    )
    sys.stdout.write(text)


def argocd_config(env: dict[str, str]) -> RenderConfig:
    """The render options from an Argo CD plugin environment (see docs/gitops.md)."""
    from llmc.gitops.krm import config_from_strings

    _refuse_unknown_keys(env)
    values = _app_parameters(env.get("ARGOCD_APP_PARAMETERS", ""))
    values.update({key: env[ARGOCD_ENV_PREFIX + name] for name, key in ARGOCD_KEYS.items()
                   if ARGOCD_ENV_PREFIX + name in env})  # plugin.env wins over a UI parameter
    defaults = {"namespace": env.get("ARGOCD_APP_NAMESPACE", ""), "kubeVersion": env.get("KUBE_VERSION", ""),
                "apiVersions": env.get("KUBE_API_VERSIONS", "")}
    complete = not values.get("apiVersions", "").strip() and bool(defaults["apiVersions"].strip())
    for key, value in defaults.items():
        if not values.get(key, "").strip():
            values[key] = value
    config = config_from_strings(values, "Argo CD environment")
    return replace(config, complete_api_versions=True) if complete else config


def argocd_parameters() -> list[dict[str, Any]]:
    """The `spec.parameters.static` the plugin announces (docs/argocd/plugin.yaml): every LLMRender key."""
    from llmc.options import BY_KEY

    out = []
    for key, o in BY_KEY.items():
        entry: dict[str, Any] = {"name": key, "title": key, "tooltip": o.help}
        if o.kind == "list":
            entry["collectionType"] = "array"
        elif o.default not in (None, False):
            entry["string"] = str(o.default).lower() if isinstance(o.default, bool) else str(o.default)
        out.append(entry)
    return out


def _app_parameters(text: str) -> dict[str, str]:
    """LLMRender keys from Argo CD's ARGOCD_APP_PARAMETERS (the Parameters tab): JSON `[{"name": ...,
    "string": ...} or {"name": ..., "array": [...]}]`; an unknown name is an error, with a did-you-mean."""
    import difflib

    from llmc.core.errors import LlmcError, Location
    from llmc.options import BY_KEY

    if not text.strip():
        return {}
    where = Location("ARGOCD_APP_PARAMETERS")
    try:
        params = json.loads(text)
    except json.JSONDecodeError as err:
        raise LlmcError(f"ARGOCD_APP_PARAMETERS is not JSON: {err}", where, exit_code=2) from None
    if not isinstance(params, list):
        raise LlmcError("ARGOCD_APP_PARAMETERS must be a JSON list of parameters", where, exit_code=2)
    values: dict[str, str] = {}
    for param in params:
        name = param.get("name") if isinstance(param, dict) else None
        if name not in BY_KEY:
            close = difflib.get_close_matches(str(name), BY_KEY, n=1)
            raise LlmcError(f"unknown parameter {name!r}", where, exit_code=2,
                            hint=f"did you mean {close[0]}?" if close else "known: " + ", ".join(BY_KEY))
        if isinstance(param.get("array"), list):
            values[name] = ",".join(str(v) for v in param["array"])
        elif param.get("string") is not None:
            values[name] = str(param["string"])
    return values


def _refuse_unknown_keys(env: dict[str, str]) -> None:
    """A misspelt ARGOCD_ENV_LLMC_* variable is an error (it would be ignored silently), with a did-you-mean."""
    import difflib

    from llmc.core.errors import ErrorList, LlmcError, Location

    errors = []
    for var in sorted(v for v in env if v.startswith(ARGOCD_ENV_PREFIX) and v[len(ARGOCD_ENV_PREFIX):] not in ARGOCD_KEYS):
        name = var[len(ARGOCD_ENV_PREFIX):]
        close = difflib.get_close_matches(name, ARGOCD_KEYS, n=1, cutoff=0.6)
        hint = f"did you mean LLMC_{close[0]}?" if close else "known: " + ", ".join(f"LLMC_{k}" for k in sorted(ARGOCD_KEYS))
        errors.append(LlmcError(f"unknown option {var} (plugin env LLMC_{name})", Location("Argo CD environment"), hint=hint, exit_code=2))
    if errors:
        raise ErrorList(errors)


def _inside(root: Path, path: str) -> Path:
    """`path` resolved, which must stay inside the application folder: the plugin runs for
    whoever can create an Application, and must not read the sidecar's other files."""
    from llmc.core.errors import LlmcError, Location

    resolved = (root / path).resolve()
    if resolved != root and root not in resolved.parents:
        raise LlmcError(f"{path} is outside the application folder", Location(path), hint="use paths inside the application's source path", exit_code=2)
    return resolved


def _app_files(root: Path, paths: tuple[str, ...]) -> list[Path]:
    """Manifest files under `paths`, sorted; folders are walked as `appfolder.walk` does (also no hidden folder above)."""
    from llmc.read.appfolder import walk
    from llmc.core.errors import LlmcError, Location

    out: list[Path] = []
    for raw in paths:
        path = _inside(root, raw)
        if path.is_dir():
            found = [p for p in map(Path, walk(str(path))) if not any(part.startswith(".") for part in p.relative_to(root).parts)]
            out += [_inside(root, str(p.relative_to(root))) for p in found]  # a symlink must not lead out either
        elif path.is_file():
            out.append(path)
        elif path.exists():
            raise LlmcError(f"not a regular file or folder: {raw}", Location(raw), exit_code=2)
        else:
            raise LlmcError("no such file or directory", Location(raw), exit_code=2)
    return list(dict.fromkeys(out))


# --------------------------------------------------------------------------- check (pre-commit)


def check(
    paths: Annotated[Optional[list[str]], typer.Argument(help="Files or folders; those that never mention an (LLM)InferenceService are skipped.")] = None,
    filename: Annotated[Optional[list[str]], typer.Option("-f", "--filename", help="Inputs always read, e.g. the folder of your LLMInferenceServiceConfigs. Repeatable.")] = None,
    presets: PresetsOpt = None,
    preset_set: PresetSetOpt = None,
    kserve_config: KserveConfigOpt = None,
    namespace: NamespaceOpt = "default",
    kserve_version: KserveVersionOpt = None,
    strict: StrictOpt = False,
    allow: AllowOpt = None,
    deny: DenyOpt = None,
    allow_empty: Annotated[bool, typer.Option("--allow-empty", help="Pass when no file mentions a service (the pre-commit hook sets it: a commit may touch none).")] = False,
) -> None:
    """Render the services in PATHS and discard the output: exit 1 on invalid input (or on findings: warnings with --strict, --deny CODE).

    Made for pre-commit, which passes every changed file: files that never
    mention LLMInferenceService or InferenceService are skipped, other objects in the files are
    ignored, ConfigMaps are read (a scheduler config.ref may name them).
    """
    from llmc.read.inputs import read_documents

    sources: dict[str, str] = {}
    with reported(sources):
        inputs = read_documents(paths or [], sources, mentioning="InferenceService")
        config = RenderConfig(files=tuple(filename or ()), presets=tuple(presets or ()), preset_set=preset_set,
                              kserve_config=kserve_config, namespace=namespace, strict=strict,
                              allow=tuple(allow or ()), deny=tuple(deny or ()),
                              kserve_version=kserve_version.value if kserve_version else None, allow_empty=allow_empty)
        policy = findings_policy(config)
        _, compiled = _compile(config, sources, inputs)
    _report_findings(compiled, policy)


# --------------------------------------------------------------------------- schema


def schema(
    out: Annotated[Optional[str], typer.Option("--out", help="Folder for kubeconform, inputs and rendered custom resources: GROUP/KIND_VERSION.json per kind.")] = None,
    single: Annotated[Optional[str], typer.Option("--single", help="One file for yaml-language-server's $schema (all kinds). - for stdout.")] = None,
) -> None:
    """Write JSON Schemas of llmc's inputs (v1alpha1, v1alpha2) and, with --out, its custom resources (the single file on stdout by default)."""
    from llmc.core.errors import LlmcError
    from llmc.core.resources import data_dir
    from llmc.gitops.schema_export import KINDS, OUTPUT_KINDS, crd_file, kubeconform_files, single_file

    crds = {name: json.loads((Path(data_dir("schemas")) / "crd" / name).read_text(encoding="utf-8")) for name in (crd_file(*k) for k in KINDS + OUTPUT_KINDS)}
    try:
        if out is not None:
            folder = Path(out)
            for name, content in kubeconform_files(crds).items():
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                _write_json(folder / name, content)
                sys.stderr.write(f"wrote {folder / name}\n")
        if single not in (None, "-"):
            _write_json(Path(single), single_file(crds))
            sys.stderr.write(f"wrote {single}\n")
    except OSError as exc:
        fail([LlmcError(f"cannot write schema: {exc.strerror}: {exc.filename}", exit_code=2)], {})
    if single == "-" or (out is None and single is None):
        sys.stdout.write(_json_text(single_file(crds)))


def _json_text(content: dict[str, Any]) -> str:
    """Compact, like schemas/crd/: the schemas run to hundreds of kilobytes."""
    return json.dumps(content, ensure_ascii=False, separators=(",", ":")) + "\n"


def _write_json(path: Path, content: dict[str, Any]) -> None:
    """Write through a temporary sibling and rename: readers never see half a schema."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(_json_text(content), encoding="utf-8")
    os.replace(tmp, path)
