"""The `llmc` commands, their options and help (typer); `llmc.main` is the console script that runs them."""

from __future__ import annotations

import os
import sys
from enum import Enum
from typing import Annotated, Optional

import typer
from typer import completion
from typer._completion_shared import Shells as Shell

from .cliutil import build_request, fail, reported
from .clicoerce import install as _install_plain_coercion
from .clihelp import install as _install_help_labels
from .presets import DEFAULT_SET

_install_plain_coercion()
_install_help_labels()
completion.completion_init()  # typer does this only with add_completion=True

app = typer.Typer(
    # --install-completion/--show-completion take the shell's name (see `_completion` below): typer's
    # own flags detect the shell and ignore a named one (`--show-completion zsh` printed bash).
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    help="Render KServe LLMInferenceService objects offline, as the KServe controller would create them.",
    pretty_exceptions_enable=False,
    # Help texts are plain text: option help like GROUP/VERSION[/KIND] must not be read as rich markup.
    rich_markup_mode=None,
)


@app.callback()
def _completion(
    install_completion: Annotated[Optional[Shell], typer.Option("--install-completion", metavar="SHELL", callback=completion.install_callback, expose_value=False, help="Install completion for SHELL: bash, zsh, fish or powershell.")] = None,
    show_completion: Annotated[Optional[Shell], typer.Option("--show-completion", metavar="SHELL", callback=completion.show_callback, expose_value=False, help="Print the completion script for SHELL (bash, zsh, fish or powershell), to copy or customize.")] = None,
) -> None:
    """Render KServe LLMInferenceService objects offline, as the KServe controller would create them."""


presets_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="List and show the built-in preset sets.")
app.add_typer(presets_app, name="presets")


class KServeVersion(str, Enum):
    master = "master"
    v020 = "v0.20"


class Output(str, Enum):
    yaml = "yaml"
    json = "json"


FilesOpt = Annotated[
    list[str],
    typer.Option("-f", "--filename", help="File, folder (recursive *.yaml|*.yml|*.json) or - for stdin. Repeatable."),
]


@app.command()
def render(
    filename: FilesOpt,
    presets: Annotated[Optional[list[str]], typer.Option("--presets", help="Folder or file of LLMInferenceServiceConfig replacing the built-in set. Repeatable.")] = None,
    preset_set: Annotated[Optional[str], typer.Option("--preset-set", help=f"Built-in preset set (default: {DEFAULT_SET}).")] = None,
    kserve_config: Annotated[Optional[str], typer.Option("--kserve-config", help="KServe's inferenceservice-config ConfigMap.")] = None,
    namespace: Annotated[str, typer.Option("-n", "--namespace", help="Namespace for objects without one.")] = "default",
    system_namespace: Annotated[str, typer.Option("--system-namespace", help="KServe's namespace (presets live there).")] = "kserve",
    output: Annotated[Output, typer.Option("-o", "--output", help="Output format.")] = Output.yaml,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 when there are warnings (notes LLMC3xx never fail).")] = False,
    owner_references: Annotated[bool, typer.Option("--owner-references", help="Add ownerReferences (uses metadata.uid when set).")] = False,
    api_versions: Annotated[Optional[list[str]], typer.Option("--api-versions", help="Cluster API GROUP/VERSION[/KIND] added to the default capabilities; -GROUP/VERSION removes one. Repeatable.")] = None,
    kube_version: Annotated[Optional[str], typer.Option("--kube-version", help="Kubernetes version of the target cluster.")] = None,
    dra_api: Annotated[Optional[str], typer.Option("--dra-api", help="ResourceClaimTemplate API: resource.k8s.io/v1, v1beta2 or v1beta1 (default: the newest the cluster serves).")] = None,
    gateway_pool_api: Annotated[str, typer.Option("--gateway-pool-api", help="InferencePool API the Gateway reads: v1 (default) or v1alpha2; the managed route points at that pool.")] = "v1",
    cert_issuer: Annotated[Optional[str], typer.Option("--cert-issuer", help="Issuer/NAME or ClusterIssuer/NAME for the TLS Certificate (default: a self-signed Issuer, rendered too).")] = None,
    controller_objects: Annotated[bool, typer.Option("--controller-objects", help="Only the controller's own objects (no cert-manager Certificate/Issuer), for review diffs.")] = False,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="Do not print findings.")] = False,
    kserve_version: Annotated[Optional[KServeVersion], typer.Option("--kserve-version", help="Controller behaviour to reproduce (default: the preset set's; master with --presets).")] = None,
    output_dir: Annotated[Optional[str], typer.Option("--output-dir", help="Write one file per object into this folder (replaced as a whole) instead of stdout.")] = None,
    show_only: Annotated[Optional[list[str]], typer.Option("-s", "--show-only", help="Only objects matching KIND/NAME or KIND/NAMESPACE/NAME (shell wildcards). Repeatable.")] = None,
    runtimes: Annotated[Optional[list[str]], typer.Option("--runtimes", help="ServingRuntime/ClusterServingRuntime/ClusterStorageContainer folder or file replacing the built-in ones (InferenceServices). Repeatable.")] = None,
    jobs: Annotated[int, typer.Option("-j", "--jobs", help="Render in N processes (0: one per CPU); the output is the same for every N.")] = 1,
    allow_empty: Annotated[bool, typer.Option("--allow-empty", help="Render nothing, successfully, when the input holds no LLMInferenceService or InferenceService (an error otherwise).")] = False,
    max_output_bytes: Annotated[int, typer.Option("--max-output-bytes", help="Budget for the whole output, in bytes (default 64 MiB); over it is an error and nothing is written.")] = 64 * 1024 * 1024,
    validate: Annotated[bool, typer.Option("--validate", help="Check every object against the strict Kubernetes JSON Schemas of --kube-version (default 1.34) and the bundled CRDs (needs the `validate` extra).")] = False,
) -> None:
    """Render services into the Kubernetes objects the KServe controller would create."""
    from .render_command import run

    run(filename=filename, presets=presets, preset_set=preset_set, kserve_config=kserve_config, namespace=namespace,
        system_namespace=system_namespace, output=output.value, strict=strict, owner_references=owner_references,
        api_versions=api_versions, kube_version=kube_version, dra_api=dra_api, quiet=quiet,
        kserve_version=kserve_version.value if kserve_version else None, output_dir=output_dir,
        show_only=show_only, runtimes=runtimes, jobs=jobs, validate=validate, gateway_pool_api=gateway_pool_api,
        cert_issuer=cert_issuer, controller_objects=controller_objects, allow_empty=allow_empty,
        max_output_bytes=max_output_bytes)


class DiffOutput(str, Enum):
    text = "text"
    json = "json"


@app.command()
def diff(
    paths: Annotated[Optional[list[str]], typer.Argument(help="Manifest sets: file, folder or - (stdin).")] = None,
    render_input: Annotated[Optional[list[str]], typer.Option("--render", help="A side rendered by llmc from these service files. Repeatable.")] = None,
    ignore: Annotated[Optional[list[str]], typer.Option("--ignore", help="Field path to skip, e.g. metadata.labels. Repeatable.")] = None,
    output: Annotated[DiffOutput, typer.Option("-o", "--output", help="text for people, json for tools.")] = DiffOutput.text,
    namespace: Annotated[str, typer.Option("-n", "--namespace", help="Namespace for namespaced objects without one.")] = "default",
    presets: Annotated[Optional[list[str]], typer.Option("--presets", help="With --render: preset folder or file.")] = None,
    preset_set: Annotated[Optional[str], typer.Option("--preset-set", help="With --render: built-in preset set.")] = None,
    kserve_config: Annotated[Optional[str], typer.Option("--kserve-config", help="With --render: KServe ConfigMap.")] = None,
) -> None:
    """Compare two manifest sets by meaning. Exit 0 when equal, 1 when different, 2 on error."""
    import json as _json

    from .diff import diff_sets, format_report
    from .errors import LlmcError
    from .inputs import read_documents

    sources: dict[str, str] = {}
    sides: list[tuple[str, list[dict]]] = []
    with reported(sources, exit_code=2):
        for path in paths or []:
            sides.append((path, [d.obj for d in read_documents([path], sources)]))
        if render_input:
            from .pipeline import run

            request = build_request(render_input, presets, preset_set, kserve_config, namespace, "kserve",
                               False, None, None, "resource.k8s.io/v1", sources)
            rendered = run(request).objects()
            sides.append(("llmc render", rendered))
        if len(sides) != 2:
            raise LlmcError(f"diff needs two sides, got {len(sides)}", hint="llmc diff A B, or llmc diff A --render SVC.yaml", exit_code=2)
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
    preset_set: Annotated[Optional[str], typer.Option("--preset-set", help=f"Built-in preset set (default: {DEFAULT_SET}).")] = None,
) -> None:
    """Print one built-in preset as YAML."""
    from .errors import LlmcError
    from .inputs import builtin_preset_files, read_text
    from .presets import DEFAULT_SET, PREFIX

    set_name = preset_set or DEFAULT_SET
    try:
        files = builtin_preset_files(set_name)
    except LlmcError as err:
        fail([err], {})
    wanted = name.removeprefix(PREFIX)
    for path in files:
        if os.path.splitext(os.path.basename(path))[0] == wanted:
            sys.stdout.write(read_text(path))
            return
    fail([LlmcError(f"no preset {name!r} in set {set_name}", hint="see `llmc presets list`", exit_code=2)], {})


@app.command()
def version() -> None:
    """Print llmc's version."""
    from . import __version__

    typer.echo(__version__)


from . import gitops_cli  # noqa: E402,F401  (registers explain, krm, check, schema, ... on `app`)
from .isvc import cli as _isvc_cli  # noqa: E402,F401  (registers convert on `app`)
