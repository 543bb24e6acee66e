"""The one table of render options: every way of giving them derives from it.

`llmc render`'s typer command (llmc.cli.app), the fast command-line parser
(llmc.cli.main), the `LLMRender` / KRM functionConfig keys and the Argo CD
`ARGOCD_ENV_LLMC_*` variables (llmc.gitops.krm, llmc.cli.gitops) and the request
(`RenderConfig`, llmc.cli.common.build_request) all read `RENDER`. A new option is
one line here, plus its use where the request is built.

Imported on every `llmc render`: no typer, no other llmc module.
"""

from __future__ import annotations

from llmc.core.record import record

MAX_OUTPUT_BYTES = 64 * 1024 * 1024  # the whole stream's budget (docs/budgets.md)
DEFAULT_SET = "kserve-master"  # llmc.resolve.presets.DEFAULT_SET, checked by tests/test_options.py


@record(frozen=True)
class Option:
    """One option: its `run` parameter, flags, kind ("str", "list", "flag", "int" or a tuple of
    choices), default, help, and `key`, its name in LLMRender/KRM/Argo CD (None: command line only)."""

    name: str
    flags: tuple[str, ...]
    kind: object
    default: object
    help: str
    key: str | None = None
    required: bool = False


RENDER: tuple[Option, ...] = (
    Option("filename", ("-f", "--filename"), "list", None,
           "File, folder (recursive *.yaml|*.yml|*.json) or - for stdin. Repeatable.", "files", required=True),
    Option("presets", ("--presets",), "list", None,
           "Folder or file of LLMInferenceServiceConfig replacing the built-in set. Repeatable.", "presets"),
    Option("preset_set", ("--preset-set",), "str", None, f"Built-in preset set (default: {DEFAULT_SET}).", "presetSet"),
    Option("kserve_config", ("--kserve-config",), "str", None, "KServe's inferenceservice-config ConfigMap.",
           "kserveConfig"),
    Option("namespace", ("-n", "--namespace"), "str", "default", "Namespace for objects without one.", "namespace"),
    Option("system_namespace", ("--system-namespace",), "str", "kserve", "KServe's namespace (presets live there).",
           "systemNamespace"),
    Option("output", ("-o", "--output"), ("yaml", "json"), "yaml", "Output format."),
    Option("strict", ("--strict",), "flag", False, "Exit 1 when there are warnings (notes never fail; see --allow, --deny).",
           "strict"),
    Option("allow", ("--allow",), "list", None,
           "Finding CODE (or glob, e.g. 'LLMC1*') that is not printed and never fails the run. Repeatable.", "allow"),
    Option("deny", ("--deny",), "list", None,
           "Finding CODE (or glob) that fails the run even without --strict, notes included. Repeatable.", "deny"),
    Option("owner_references", ("--owner-references",), "flag", False,
           "Add ownerReferences (uses metadata.uid when set).", "ownerReferences"),
    Option("api_versions", ("--api-versions",), "list", None,
           "Cluster API GROUP/VERSION[/KIND] added to the default capabilities; -GROUP/VERSION removes one. "
           "Repeatable.", "apiVersions"),
    Option("kube_version", ("--kube-version",), "str", None, "Kubernetes version of the target cluster.",
           "kubeVersion"),
    Option("dra_api", ("--dra-api",), "str", None,
           "ResourceClaimTemplate API: resource.k8s.io/v1, v1beta2 or v1beta1 (default: the newest the cluster "
           "serves).", "draApi"),
    Option("gateway_pool_api", ("--gateway-pool-api",), "str", "v1",
           "InferencePool API the Gateway reads: v1 (default) or v1alpha2; the managed route points at that pool.",
           "gatewayPoolApi"),
    Option("cert_issuer", ("--cert-issuer",), "str", None,
           "Issuer/NAME or ClusterIssuer/NAME for the TLS Certificate (default: a self-signed Issuer, rendered "
           "too).", "certIssuer"),
    Option("controller_objects", ("--controller-objects",), "flag", False,
           "Only the controller's own objects (no cert-manager Certificate/Issuer), for review diffs.",
           "controllerObjects"),
    Option("quiet", ("-q", "--quiet"), "flag", False, "Do not print findings."),
    Option("verbose", ("-v", "--verbose"), "flag", False,
           "Say which files of the folders are skipped (kustomize and helm files, hidden files and folders) and why."),
    Option("kserve_version", ("--kserve-version",), ("master", "v0.20"), None,
           "Controller behaviour to reproduce (default: the preset set's; master with --presets).", "kserveVersion"),
    Option("output_dir", ("--output-dir",), "str", None,
           "Write one file per object into this folder (replaced as a whole) instead of stdout."),
    Option("show_only", ("-s", "--show-only"), "list", None,
           "Only objects matching KIND/NAME or KIND/NAMESPACE/NAME (shell wildcards). Repeatable."),
    Option("runtimes", ("--runtimes",), "list", None,
           "ServingRuntime/ClusterServingRuntime/ClusterStorageContainer folder or file replacing the built-in "
           "ones (InferenceServices). Repeatable.", "runtimes"),
    Option("jobs", ("-j", "--jobs"), "int", 1,
           "Render in N processes (0: one per CPU); the output is the same for every N."),
    Option("allow_empty", ("--allow-empty",), "flag", False,
           "Render nothing, successfully, when the input holds no LLMInferenceService or InferenceService "
           "(an error otherwise).", "allowEmpty"),
    Option("max_output_bytes", ("--max-output-bytes",), "int", MAX_OUTPUT_BYTES,
           "Budget for the whole output, in bytes (default 64 MiB); over it is an error and nothing is written."),
    Option("validate", ("--validate",), "flag", False,
           "Check every object against the strict Kubernetes JSON Schemas of --kube-version (default 1.34) and "
           "the bundled CRDs (needs the `validate` extra).", "validate"),
)

BY_NAME = {o.name: o for o in RENDER}
# LLMRender / KRM functionConfig / Argo CD key -> option
BY_KEY = {o.key: o for o in RENDER if o.key is not None}


def options(*names: str) -> tuple[Option, ...]:
    """The named options, in table order (a command that takes a subset of render's)."""
    unknown = set(names) - BY_NAME.keys()
    assert not unknown, unknown
    return tuple(o for o in RENDER if o.name in names)
