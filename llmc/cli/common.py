"""What every `llmc` command shares, without typer: errors and findings on stderr, the progress bar, the request.

`llmc render` runs from here and `llmc.cli.render` without importing typer
(see `llmc.cli.main`), so nothing in this module may import it; an exit is a plain
`SystemExit`, which typer passes through unchanged.
"""

from __future__ import annotations

import os
import re
import sys


def stderr_console():
    """A rich console on stderr (rich is imported only when something is printed through it)."""
    from rich.console import Console

    return Console(stderr=True, highlight=False)


# What makes rich's Console change plain text on stderr: a colour-forcing variable, or characters it
# rewrites (emoji codes such as :warning:, tabs it expands, control codes it strips).
_RICH_ENV = ("FORCE_COLOR", "TTY_COMPATIBLE")
_RICH_REWRITES = re.compile(r"[\t\x07\x08\x0b\x0c\r]|:\S*:")


def print_findings(findings) -> None:
    """Findings on stderr, one a line (repeated notes grouped, `report.format_findings`); through rich
    (colours) only on a terminal or for text rich would rewrite."""
    from llmc.cli.report import format_findings

    formatted = format_findings(findings)
    lines = [line for _, line in formatted]
    try:
        terminal = sys.stderr.isatty()
    except ValueError:  # a closed stream
        terminal = False
    if not terminal and not any(v in os.environ for v in _RICH_ENV) and not any(map(_RICH_REWRITES.search, lines)):
        sys.stderr.write("".join(line + "\n" for line in lines))
        return
    console = stderr_console()
    for severity, line in formatted:
        style = ("yellow" if severity == "warning" else "cyan") if console.is_terminal else None
        console.print(line, markup=False, style=style, soft_wrap=True)


def findings_policy(config):
    """The findings policy of a `krm.RenderConfig` (strict, allow, deny); unknown codes raise ErrorList (exit 2)."""
    from llmc.core.findings import policy

    return policy(config.strict, config.allow, config.deny)


def report_findings(findings, policy, quiet: bool = False) -> bool:
    """Print the findings `policy` shows (unless `quiet`); True when the policy fails the run, which
    is then said on a last line (even with `quiet`: an exit 1 must not be silent)."""
    if not quiet:
        shown = policy.shown(findings)
        if shown:
            print_findings(shown)
    failing = policy.failing(findings)
    if failing:
        reasons = {f.code: "--deny" if policy.denied(f) else "--strict" for f in failing}
        sys.stderr.write("error: findings fail the run: "
                         + ", ".join(f"{code} ({why})" for code, why in sorted(reasons.items())) + "\n")
    return bool(failing)


def fail(errors, sources: dict[str, str]):
    """Print `errors` with their source excerpts and exit with the largest of their exit codes."""
    from llmc.cli.report import emit_errors

    emit_errors(errors, sources, stderr_console())
    raise SystemExit(max((getattr(e, "exit_code", 1) for e in errors), default=1))


class reported:
    """`with reported(sources):` input errors (LlmcError, ErrorList) raised in the block end the command
    through `fail`; `exit_code`, when given, replaces theirs (`llmc diff` exits 2 on bad input)."""

    def __init__(self, sources: dict[str, str], exit_code: int | None = None) -> None:
        self.sources, self.exit_code = sources, exit_code

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, exc, traceback) -> bool:
        from llmc.core.errors import ErrorList, LlmcError

        if isinstance(exc, ErrorList):
            errors = exc.errors
        elif isinstance(exc, LlmcError):
            errors = [exc]
        else:
            return False
        if self.exit_code is not None:
            for error in errors:
                error.exit_code = self.exit_code
        fail(errors, self.sources)


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


def build_request(config, sources, documents=(), skipped=None):
    """The pipeline's Request from a `krm.RenderConfig`: every input file read, nothing admitted yet.

    `documents`: objects already read (pre-commit files, KRM items, an Argo CD folder), before the config's
    files. All of them go through `krm.partition`: the objects llmc does not render away are the request's
    `passthrough`, which the commands write before the rendered objects. `skipped` receives the files
    the folders' walk skipped (`appfolder.walk`)."""
    from llmc.core.errors import LlmcError
    from llmc.read.inputs import builtin_preset_files, read_documents
    from llmc.pipeline import Request
    from llmc.resolve.presets import DEFAULT_SET
    from llmc.k8s.capabilities import capabilities, dra_api as choose_dra_api, kube_version as kube_version_text
    from llmc.render.context import RenderOptions
    from llmc.kserve.settings import Settings, settings_from_configmap
    from llmc.check.api_rules import DEFAULT_KUBE_VERSION

    if config.presets and config.preset_set:
        raise LlmcError("--presets and --preset-set exclude each other", exit_code=2)
    _check_namespace(config.namespace)
    if config.validate:  # a version without schemas is a usage error of --kube-version, before any file
        from llmc.check.api_rules import parse_version

        try:
            parse_version(kube_version_text(config.kube_version) if config.kube_version else DEFAULT_KUBE_VERSION)
        except LlmcError as err:
            err.message = f"--validate --kube-version {config.kube_version}: {err.message}"
            raise
    caps = capabilities(list(config.api_versions) or None, config.kube_version, complete=config.complete_api_versions)
    options = RenderOptions(
        owner_references=config.owner_references, dra_api=choose_dra_api(caps, config.dra_api), capabilities=caps,
        gateway_pool_api=_gateway_pool_api(config.gateway_pool_api, caps), cert_issuer=_cert_issuer(config.cert_issuer),
        controller_objects=config.controller_objects,
        schema_version=(kube_version_text(config.kube_version) if config.kube_version else DEFAULT_KUBE_VERSION) if config.validate else None,
    )
    from llmc.gitops.krm import partition

    inputs, passthrough = partition([*documents, *read_documents(list(config.files), sources, skipped=skipped)])
    admitted_presets = None
    if config.presets:
        from llmc.pipeline import import_stages
        from llmc.read.preset_helper import take

        # llmc.cli.main started the helper; it admits the presets while the later stages are imported
        admitted_presets = take(config.presets, config.system_namespace, sources, meanwhile=import_stages)
        preset_docs = read_documents(list(config.presets), sources) if admitted_presets is None else []
        set_name = None
    else:
        from llmc.read.snapshot import admitted_builtin

        set_name = config.preset_set or DEFAULT_SET
        files = builtin_preset_files(set_name)
        admitted_presets = admitted_builtin(set_name, files, config.system_namespace, sources)
        preset_docs = read_documents(list(files), sources) if admitted_presets is None else []
    settings = Settings(system_namespace=config.system_namespace)
    isvc_inputs = any(d.kind == "InferenceService" for d in inputs)
    isvc_config = None
    if config.kserve_config:
        docs = read_documents([config.kserve_config], sources)
        if len(docs) != 1:
            raise LlmcError("--kserve-config must hold exactly one ConfigMap", exit_code=2)
        settings = settings_from_configmap(docs[0].obj, docs[0].file, config.system_namespace, docs[0].locate)
        if isvc_inputs:
            from llmc.isvc.config import IsvcConfig

            isvc_config = IsvcConfig.from_configmap(docs[0].obj, docs[0].file)
    runtime_docs = []
    if isvc_inputs:
        from llmc.read.inputs import runtime_documents

        runtime_docs = runtime_documents(list(config.runtimes) or None, sources)
    version = config.kserve_version or ("v0.20" if set_name == "kserve-v0.20" else "master")
    return Request(inputs, preset_docs, settings, options, config.namespace, version,
                   isvc_config=isvc_config, runtimes=runtime_docs, admitted_presets=admitted_presets or [],
                   require_services=not config.allow_empty, passthrough=passthrough)


def _check_namespace(namespace: str | None) -> None:
    """The namespace for objects without one is an option, not part of any file: a bad one is named as such (exit 2)."""
    if namespace is None or re.fullmatch(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?", namespace):
        return
    import json

    from llmc.core.errors import LlmcError, Location
    from llmc.admit.schema import dns1123_label_errors

    raise LlmcError(
        f"Invalid value: {json.dumps(namespace)}: {'; '.join(dns1123_label_errors(namespace))}", Location("-n/--namespace"),
        hint="the namespace given for objects without one (-n, LLMRender namespace, ARGOCD_APP_NAMESPACE)",
        exit_code=2,
    )


def _gateway_pool_api(value: str, caps) -> str:
    """--gateway-pool-api: v1, or v1alpha2 for a Gateway that reads only that API (its pool must be rendered)."""
    from llmc.core.errors import LlmcError

    if value not in ("v1", "v1alpha2"):
        raise LlmcError(f"unsupported --gateway-pool-api {value!r}", hint="use v1 or v1alpha2", exit_code=2)
    if value == "v1alpha2" and not caps.has("inference.networking.x-k8s.io/v1alpha2", "InferencePool"):
        raise LlmcError(
            "--gateway-pool-api v1alpha2 needs the v1alpha2 InferencePool API in the cluster's capabilities",
            hint="add --api-versions inference.networking.x-k8s.io/v1alpha2: the controller then also creates "
            "the v1alpha2 pool the route points at",
            exit_code=2,
        )
    return value


def _cert_issuer(value: str | None) -> tuple[str, str] | None:
    """--cert-issuer KIND/NAME (Issuer in the service's namespace, or ClusterIssuer)."""
    from llmc.core.errors import LlmcError

    if value is None:
        return None
    kind, _, name = value.partition("/")
    if kind not in ("Issuer", "ClusterIssuer") or not name or "/" in name:
        raise LlmcError(f"--cert-issuer {value!r} is not KIND/NAME",
                        hint="use Issuer/NAME (in the service's namespace) or ClusterIssuer/NAME", exit_code=2)
    return kind, name
