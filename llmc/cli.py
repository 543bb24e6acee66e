"""The `llmc` command line: the only module that touches files, stdout/stderr and the environment."""

from __future__ import annotations

import os
import re
import shutil
import sys
from enum import Enum
from typing import Annotated, Optional

import typer

from .clicoerce import install as _install_plain_coercion

_install_plain_coercion()

app = typer.Typer(
    add_completion=True,
    no_args_is_help=True,
    help="Render KServe LLMInferenceService objects offline, as the KServe controller would create them.",
    pretty_exceptions_enable=False,
)
presets_app = typer.Typer(no_args_is_help=True, help="List and show the built-in preset sets.")
app.add_typer(presets_app, name="presets")


class KServeVersion(str, Enum):
    master = "master"
    v020 = "v0.20"


class Output(str, Enum):
    yaml = "yaml"
    json = "json"


def _stderr():
    from rich.console import Console

    return Console(stderr=True, highlight=False)


# What makes rich's Console change plain text on stderr: a colour-forcing variable, or characters it
# rewrites (emoji codes such as :warning:, tabs it expands, control codes it strips).
_RICH_ENV = ("FORCE_COLOR", "TTY_COMPATIBLE")
_RICH_REWRITES = re.compile(r"[\t\x07\x08\x0b\x0c\r]|:\S*:")


def _print_findings(findings) -> None:
    """Findings on stderr, one a line; through rich (colours) only on a terminal or for text rich would rewrite."""
    from .report import format_finding

    lines = [format_finding(f) for f in findings]
    try:
        terminal = sys.stderr.isatty()
    except ValueError:  # a closed stream
        terminal = False
    if not terminal and not any(v in os.environ for v in _RICH_ENV) and not any(map(_RICH_REWRITES.search, lines)):
        sys.stderr.write("".join(line + "\n" for line in lines))
        return
    console = _stderr()
    for finding, line in zip(findings, lines):
        style = ("yellow" if finding.severity == "warning" else "cyan") if console.is_terminal else None
        console.print(line, markup=False, style=style, soft_wrap=True)


def _fail(errors, sources: dict[str, str]) -> None:
    from .report import emit_errors

    emit_errors(errors, sources, _stderr())
    code = max((getattr(e, "exit_code", 1) for e in errors), default=1)
    raise typer.Exit(code)


FilesOpt = Annotated[
    list[str],
    typer.Option("-f", "--filename", help="File, folder (recursive *.yaml|*.yml|*.json) or - for stdin. Repeatable."),
]


@app.command()
def render(
    filename: FilesOpt,
    presets: Annotated[Optional[list[str]], typer.Option("--presets", help="Folder or file of LLMInferenceServiceConfig replacing the built-in set. Repeatable.")] = None,
    preset_set: Annotated[Optional[str], typer.Option("--preset-set", help="Built-in preset set (default: the newest).")] = None,
    kserve_config: Annotated[Optional[str], typer.Option("--kserve-config", help="KServe's inferenceservice-config ConfigMap.")] = None,
    namespace: Annotated[str, typer.Option("-n", "--namespace", help="Namespace for objects without one.")] = "default",
    system_namespace: Annotated[str, typer.Option("--system-namespace", help="KServe's namespace (presets live there).")] = "kserve",
    output: Annotated[Output, typer.Option("-o", "--output", help="Output format.")] = Output.yaml,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 when there are warnings (notes LLMC3xx never fail).")] = False,
    owner_references: Annotated[bool, typer.Option("--owner-references", help="Add ownerReferences (uses metadata.uid when set).")] = False,
    api_versions: Annotated[Optional[list[str]], typer.Option("--api-versions", help="Cluster API GROUP/VERSION[/KIND]; replaces the default capabilities. Repeatable.")] = None,
    kube_version: Annotated[Optional[str], typer.Option("--kube-version", help="Kubernetes version of the target cluster.")] = None,
    dra_api: Annotated[str, typer.Option("--dra-api", help="resource.k8s.io/v1 (default), v1beta2 or v1beta1.")] = "resource.k8s.io/v1",
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="Do not print findings.")] = False,
    kserve_version: Annotated[Optional[KServeVersion], typer.Option("--kserve-version", help="Controller behaviour to reproduce (default: the preset set's; master with --presets).")] = None,
    output_dir: Annotated[Optional[str], typer.Option("--output-dir", help="Write one file per object into this folder (replaced as a whole) instead of stdout.")] = None,
    show_only: Annotated[Optional[list[str]], typer.Option("-s", "--show-only", help="Only objects matching KIND/NAME or KIND/NAMESPACE/NAME (shell wildcards). Repeatable.")] = None,
    runtimes: Annotated[Optional[list[str]], typer.Option("--runtimes", help="ServingRuntime/ClusterServingRuntime/ClusterStorageContainer folder or file replacing the built-in ones (InferenceServices). Repeatable.")] = None,
    jobs: Annotated[int, typer.Option("-j", "--jobs", help="Render in N processes (0: one per CPU); the output is the same for every N.")] = 1,
    validate: Annotated[bool, typer.Option("--validate", help="Check every object against the strict Kubernetes JSON Schemas of --kube-version (default 1.34) and the bundled CRDs (needs the `validate` extra).")] = False,
) -> None:
    """Render services into the Kubernetes objects the KServe controller would create."""
    from .errors import ErrorList, LlmcError
    from .pipeline import IsvcOutput, admit_request, compile_isvc

    sources: dict[str, str] = {}
    if jobs < 0:
        _fail([LlmcError(f"-j {jobs}: the number of processes must be 0 (one per CPU) or more", exit_code=2)], sources)
    try:
        request = _request(
            filename, presets, preset_set, kserve_config, namespace, system_namespace,
            owner_references, api_versions, kube_version, dra_api, sources,
            kserve_version=kserve_version.value if kserve_version else None, runtimes=runtimes,
            validate=validate,
        )
    except ErrorList as errs:
        _fail(errs.errors, sources)
    except LlmcError as err:
        _fail([err], sources)

    # Every document is admitted first; then services are rendered one by one, in output order,
    # into a spooled file that reaches stdout only when all of them succeeded: bad input gives
    # errors on stderr and nothing on stdout, never half a stream.
    errors: list = []
    findings: list = []
    collected: list[dict] = []  # --show-only and --output-dir need every object
    spool = _spool()
    writer = _StreamWriter(spool, output) if not (show_only or output_dir) else None
    isvc_docs = None
    isvc_output = IsvcOutput()
    try:
        admission = admit_request(request)
    except ErrorList as errs:
        errors += errs.errors
    else:
        isvc_docs = admission.isvc_docs
        _render_all(admission, writer, collected, findings, errors, jobs)
    try:
        isvc_output = compile_isvc(request, isvc_docs)
    except ErrorList as errs:
        errors += errs.errors
    if errors:
        from .pipeline import error_order

        _fail(sorted(errors, key=error_order), sources)
    findings += isvc_output.findings
    if writer is not None:
        writer.add(isvc_output.objects)
        writer.close()
    objects = collected + isvc_output.objects
    if show_only:
        from .outdir import select

        try:
            objects = select(objects, show_only)
        except LlmcError as err:
            _fail([err], sources)
    findings.sort()
    if not quiet and findings:
        _print_findings(findings)
    failed = strict and any(f.severity == "warning" for f in findings)
    if output_dir:
        if failed:  # never replace the previous output with a failed run's
            raise typer.Exit(1)
        from .emit import to_json, to_yaml
        from .outdir import write_output_dir

        serialize = to_json if output is Output.json else to_yaml
        try:
            write_output_dir(objects, output_dir, serialize, ".json" if output is Output.json else ".yaml")
        except LlmcError as err:
            _fail([err], sources)
        return
    if writer is None:
        from .emit import to_json, to_yaml

        spool.write((to_json if output is Output.json else to_yaml)(objects))
    spool.seek(0)
    shutil.copyfileobj(spool, sys.stdout)
    sys.stdout.flush()
    if failed:
        raise typer.Exit(1)


SPOOL_BYTES = 8 * 1024 * 1024  # output kept in memory up to this size, then in a temporary file


def _spool():
    import tempfile

    return tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES, mode="w+", encoding="utf-8", newline="")


def _render_all(admission, writer, collected: list, findings: list, errors: list, jobs: int) -> None:
    """Render every admitted service into `writer` (or `collected`), in output order; errors in input order.

    After the first error nothing more is written, but every service is still rendered for its errors.
    """
    import gc

    from .stream import render_stream

    # The admitted data, presets and schemas live until the end and hold no cycles: the cyclic
    # collector need not scan them again and again (nor touch the pages forked workers share).
    gc.collect()
    gc.freeze()
    failed: list = []
    emit = writer.emit if writer is not None else list
    try:
        for rendered in progress(render_stream(admission, emit, jobs), len(admission.services)):
            if rendered.errors:
                failed.append(rendered)
            elif not failed:
                if writer is not None:
                    writer.write(rendered.payload)
                else:
                    collected += rendered.payload
            findings += rendered.findings
    finally:
        gc.unfreeze()
    for rendered in sorted(failed, key=lambda r: r.order):
        errors += rendered.errors


PROGRESS_MIN = 20  # services: below this a run is over before a bar would help


def progress(items, total: int, console=None):
    """`items`, with a transient progress bar on stderr when it is a terminal and the batch is large."""
    if total < PROGRESS_MIN:
        return items
    if console is None:
        if not sys.stderr.isatty():
            return items
        from rich.console import Console

        console = Console(stderr=True)
    return _with_bar(items, total, console)


def _with_bar(items, total: int, console):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("rendering"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("render", total=total)
        for item in items:
            yield item
            bar.advance(task)


class _StreamWriter:
    """The YAML stream or JSON List on `out`, written service by service (the same text as emit.to_yaml/to_json)."""

    def __init__(self, out, output: Output) -> None:
        from . import emit

        self.out = out
        self.json = output is Output.json
        self.emit = emit.json_items if self.json else emit.to_yaml
        self.count = 0
        if self.json:
            out.write(emit.JSON_HEAD)

    def write(self, payload) -> None:
        if not self.json:
            self.out.write(payload)
            return
        from .emit import JSON_FIRST, JSON_NEXT

        for item in payload:
            self.out.write((JSON_NEXT if self.count else JSON_FIRST) + item)
            self.count += 1

    def add(self, objects: list[dict]) -> None:
        if objects:
            self.write(self.emit(objects))

    def close(self) -> None:
        if self.json:
            from .emit import json_tail

            self.out.write(json_tail(self.count))


def _request(filename, presets, preset_set, kserve_config, namespace, system_namespace,
             owner_references, api_versions, kube_version, dra_api, sources, kserve_version=None, runtimes=None,
             validate=False):
    from .errors import LlmcError
    from .inputs import builtin_preset_files, read_documents
    from .pipeline import Request
    from .presets import DEFAULT_SET
    from .render.context import Capabilities, RenderOptions
    from .settings import Settings, settings_from_configmap

    if presets and preset_set:
        raise LlmcError("--presets and --preset-set exclude each other", exit_code=2)
    if dra_api not in ("resource.k8s.io/v1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1beta1"):
        raise LlmcError(f"unsupported --dra-api {dra_api!r}", hint="use resource.k8s.io/v1, v1beta2 or v1beta1", exit_code=2)
    inputs = read_documents(filename, sources)
    if presets:
        preset_docs = read_documents(presets, sources)
        set_name = None
    else:
        set_name = preset_set or DEFAULT_SET
        preset_docs = read_documents(list(builtin_preset_files(set_name)), sources)
    settings = Settings(system_namespace=system_namespace)
    isvc_inputs = any(d.kind == "InferenceService" for d in inputs)
    isvc_config = None
    if kserve_config:
        docs = read_documents([kserve_config], sources)
        if len(docs) != 1:
            raise LlmcError("--kserve-config must hold exactly one ConfigMap", exit_code=2)
        settings = settings_from_configmap(docs[0].obj, docs[0].file, system_namespace)
        if isvc_inputs:
            from .isvc.config import IsvcConfig

            isvc_config = IsvcConfig.from_configmap(docs[0].obj, docs[0].file)
    runtime_docs = []
    if isvc_inputs:
        from .isvc.cli import runtime_documents

        runtime_docs = runtime_documents(runtimes, sources)
    caps = Capabilities()
    if api_versions:
        caps = Capabilities(api_versions=frozenset(api_versions), kube_version=kube_version or caps.kube_version)
    elif kube_version:
        caps = Capabilities(kube_version=kube_version)
    schema_version = None
    if validate:
        from .validate_output import DEFAULT_KUBE_VERSION

        schema_version = kube_version or DEFAULT_KUBE_VERSION
    options = RenderOptions(owner_references=owner_references, dra_api=dra_api, capabilities=caps,
                            schema_version=schema_version)
    version = kserve_version or ("v0.20" if set_name == "kserve-v0.20" else "master")
    return Request(inputs, preset_docs, settings, options, namespace, version,
                   isvc_config=isvc_config, runtimes=runtime_docs)


class DiffOutput(str, Enum):
    text = "text"
    json = "json"


@app.command()
def diff(
    paths: Annotated[Optional[list[str]], typer.Argument(help="Manifest sets: file, folder or - (stdin).")] = None,
    render_input: Annotated[Optional[list[str]], typer.Option("--render", help="A side rendered by llmc from these service files. Repeatable.")] = None,
    ignore: Annotated[Optional[list[str]], typer.Option("--ignore", help="Field path to skip, e.g. metadata.labels. Repeatable.")] = None,
    output: Annotated[DiffOutput, typer.Option("-o", "--output")] = DiffOutput.text,
    namespace: Annotated[str, typer.Option("-n", "--namespace", help="Namespace for namespaced objects without one.")] = "default",
    presets: Annotated[Optional[list[str]], typer.Option("--presets", help="With --render: preset folder or file.")] = None,
    preset_set: Annotated[Optional[str], typer.Option("--preset-set", help="With --render: built-in preset set.")] = None,
    kserve_config: Annotated[Optional[str], typer.Option("--kserve-config", help="With --render: KServe ConfigMap.")] = None,
) -> None:
    """Compare two manifest sets by meaning. Exit 0 when equal, 1 when different, 2 on error."""
    import json as _json

    from .diff import diff_sets, format_report
    from .errors import ErrorList, LlmcError
    from .inputs import read_documents

    sources: dict[str, str] = {}
    sides: list[tuple[str, list[dict]]] = []
    try:
        for path in paths or []:
            sides.append((path, [d.obj for d in read_documents([path], sources)]))
        if render_input:
            from .pipeline import compile_request

            request = _request(render_input, presets, preset_set, kserve_config, namespace, "kserve",
                               False, None, None, "resource.k8s.io/v1", sources)
            rendered = [o for out in compile_request(request) for o in out.objects]
            sides.append(("llmc render", rendered))
        if len(sides) != 2:
            raise LlmcError(f"diff needs two sides, got {len(sides)}", hint="llmc diff A B, or llmc diff A --render SVC.yaml", exit_code=2)
    except ErrorList as errs:
        for e in errs.errors:
            e.exit_code = 2
        _fail(errs.errors, sources)
    except LlmcError as err:
        err.exit_code = 2
        _fail([err], sources)
    (left_label, left), (right_label, right) = sides
    report = diff_sets(left, right, tuple(ignore or ()), namespace)
    if output is DiffOutput.json:
        sys.stdout.write(_json.dumps(report.as_dict(), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(format_report(report, left_label, right_label))
    raise typer.Exit(0 if report.same else 1)


@presets_app.command("list")
def presets_list() -> None:
    """List the built-in preset sets and their configs."""
    from .inputs import builtin_preset_files, builtin_sets
    from .presets import DEFAULT_SET

    for name in builtin_sets():
        marker = " (default)" if name == DEFAULT_SET else ""
        typer.echo(f"{name}{marker}")
        for path in builtin_preset_files(name):
            typer.echo(f"  {os.path.splitext(os.path.basename(path))[0]}")


@presets_app.command("show")
def presets_show(
    name: Annotated[str, typer.Argument(help="Config name, e.g. kserve-config-llm-template or config-llm-template.")],
    preset_set: Annotated[Optional[str], typer.Option("--preset-set")] = None,
) -> None:
    """Print one built-in preset as YAML."""
    from .errors import LlmcError
    from .inputs import builtin_preset_files, read_text
    from .presets import DEFAULT_SET, PREFIX

    set_name = preset_set or DEFAULT_SET
    try:
        files = builtin_preset_files(set_name)
    except LlmcError as err:
        _fail([err], {})
    wanted = name.removeprefix(PREFIX)
    for path in files:
        if os.path.splitext(os.path.basename(path))[0] == wanted:
            sys.stdout.write(read_text(path))
            return
    _fail([LlmcError(f"no preset {name!r} in set {set_name}", hint="see `llmc presets list`", exit_code=2)], {})


@app.command()
def version() -> None:
    """Print llmc's version."""
    from . import __version__

    typer.echo(__version__)


def main() -> None:
    """Entry point: never show a traceback for an internal failure unless LLMC_DEBUG is set."""
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.stderr.write("llmc: interrupted\n")
        sys.exit(130)
    except Exception as exc:  # an llmc bug: say so plainly
        if os.environ.get("LLMC_DEBUG"):
            raise
        sys.stderr.write(f"llmc: internal error: {type(exc).__name__}: {exc}\n(set LLMC_DEBUG=1 for details; please report it)\n")
        sys.exit(3)


from . import gitops_cli  # noqa: E402,F401  (registers explain, krm, check, schema, ... on `app`)
from .isvc import cli as _isvc_cli  # noqa: E402,F401  (registers convert on `app`)
