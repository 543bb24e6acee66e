"""The `llmc` commands, their options and help (typer); `llmc.cli.main` is the console script that runs them."""

from __future__ import annotations

import os
import sys
from enum import Enum
from typing import Annotated, Any, Optional

import typer
from typer import completion
from typer._completion_shared import Shells as Shell

from llmc.cli import convert, gitops
from llmc.cli.common import fail
from llmc.cli.params import KServeVersion, typer_signature
from llmc.cli.coerce import install as _install_plain_coercion
from llmc.cli.help import install as _install_help_labels
from llmc.options import RENDER
from llmc.resolve.presets import DEFAULT_SET

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


def _plain(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v.value if isinstance(v, Enum) else v for k, v in values.items()}


def render(**options: Any) -> None:
    """Render services into the Kubernetes objects the KServe controller would create."""
    from llmc.cli.render import run

    run(**_plain(options))


render.__signature__ = typer_signature(RENDER)  # type: ignore[attr-defined]
render.__annotations__ = {p.name: p.annotation for p in render.__signature__.parameters.values()}  # type: ignore[attr-defined]
app.command()(render)


class DiffOutput(str, Enum):
    """The report format of `diff`: text for people, json for tools."""

    text = "text"
    json = "json"


@app.command()
def diff(
    paths: Annotated[Optional[list[str]], typer.Argument(help="Manifest sets: file, folder or - (stdin).")] = None,
    render_input: Annotated[Optional[list[str]], typer.Option("--render", help="A side rendered by llmc from these service files. Repeatable.")] = None,
    ignore: Annotated[Optional[list[str]], typer.Option("--ignore", help="[KIND:]FIELD glob to skip, e.g. metadata.labels or 'Deployment:spec.template.metadata.annotations.*'. Repeatable; a rule that matches nothing is reported.")] = None,
    output: Annotated[DiffOutput, typer.Option("-o", "--output", help="text for people, json for tools.")] = DiffOutput.text,
    namespace: Annotated[str, typer.Option("-n", "--namespace", help="Namespace for namespaced objects without one.")] = "default",
    presets: Annotated[Optional[list[str]], typer.Option("--presets", help="With --render: preset folder or file.")] = None,
    preset_set: Annotated[Optional[str], typer.Option("--preset-set", help=f"With --render: built-in preset set (default: {DEFAULT_SET}).")] = None,
    kserve_version: Annotated[Optional[KServeVersion], typer.Option("--kserve-version", help="With --render: controller behaviour to reproduce (default: the preset set's).")] = None,
    kserve_config: Annotated[Optional[str], typer.Option("--kserve-config", help="With --render: KServe ConfigMap.")] = None,
    against_presets: Annotated[Optional[list[str]], typer.Option("--against-presets", help="Upgrade preview: render --render again with this preset folder or file and diff the two. Repeatable.")] = None,
    against_preset_set: Annotated[Optional[str], typer.Option("--against-preset-set", help="Upgrade preview: render --render again with this built-in preset set and diff the two.")] = None,
    against_kserve_version: Annotated[Optional[KServeVersion], typer.Option("--against-kserve-version", help="Upgrade preview: render --render again reproducing this controller version and diff the two.")] = None,
) -> None:
    """Compare two manifest sets by meaning. Exit 0 when equal, 1 when different, 2 on error.

    llmc diff --render svc.yaml --preset-set kserve-v0.20 --against-preset-set kserve-master
    shows what changes in the cluster when KServe is upgraded.
    """
    from llmc.cli.diff import Side, run

    base = Side(presets, preset_set, kserve_version.value if kserve_version else None)
    against = None
    if against_presets or against_preset_set or against_kserve_version:
        against = Side(
            against_presets or (presets if not against_preset_set else None),
            against_preset_set or (preset_set if not against_presets else None),
            against_kserve_version.value if against_kserve_version else base.kserve_version,
        )
    code = run(paths or [], render_input or [], tuple(ignore or ()), output.value, namespace, kserve_config, base, against)
    raise typer.Exit(code)


@presets_app.command("list")
def presets_list() -> None:
    """List the built-in preset sets and their configs."""
    from llmc.read.inputs import builtin_preset_files, builtin_sets
    from llmc.resolve.presets import DEFAULT_SET

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
    from llmc.core.errors import LlmcError
    from llmc.read.inputs import builtin_preset_files, read_text
    from llmc.resolve.presets import DEFAULT_SET, PREFIX

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
    from importlib.metadata import version as installed_version

    typer.echo(installed_version("llmc"))


app.command()(gitops.explain)
app.command("kustomize-plugin")(gitops.kustomize_plugin)
app.command()(gitops.krm)
app.command("argocd-generate")(gitops.argocd_generate)
app.command()(gitops.check)
app.command()(gitops.schema)
app.command()(convert.convert)
