"""Tracing on the inference server: OTLP flags and OTEL_* env on container `main`.

KServe `tracing.go` (`injectServerTracing`), tests `tracing_test.go`.
Runs only when the merged spec has `tracing` and its `exporterEndpoint` is non-empty.
Flags are appended unless the container already passes them (`--flag` or `--flag=...`);
env entries are appended only for names the container does not set, so user values win.
"""

from __future__ import annotations


from llmc.kserve.spec import MAIN, Slot, find_container
from llmc.render.context import RenderContext
from llmc.render.mounts import ensure_list

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any


def apply(ctx: RenderContext, pod: dict[str, Any], slot: Slot) -> None:
    tracing = ctx.spec.get("tracing")
    if tracing is None:
        return
    main = find_container(pod.get("containers"), MAIN)
    if main is None:
        return
    endpoint = str(tracing.get("exporterEndpoint") or "")
    if not endpoint:
        return
    args = ensure_list(main, "args")
    if not has_arg(args, "--otlp-traces-endpoint"):
        args += ["--otlp-traces-endpoint", endpoint]
    if not has_arg(args, "--collect-detailed-traces"):
        args += ["--collect-detailed-traces", "all"]

    add_otel_env(ctx, ensure_list(main, "env"), tracing, slot.tracing_service, endpoint)


def add_otel_env(ctx: RenderContext, env: list[dict[str, Any]], tracing: dict[str, Any], service: str,
                 endpoint: Any) -> None:
    """The OTEL_* variables of `tracing` (and the resource attributes), each unless `env` already has it:
    the workload's and the scheduler's tracing injection share them."""
    wanted = [
        _env("OTEL_SERVICE_NAME", service),
        _env("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint),
        _env("OTEL_TRACES_EXPORTER", tracing.get("exporter")),
        _env("OTEL_TRACES_SAMPLER", tracing.get("sampler")),
        _env("OTEL_TRACES_SAMPLER_ARG", tracing.get("samplerArg")),
        *_resource_attribute_env(ctx.namespace, ctx.name),
    ]
    present = {entry.get("name") for entry in env}
    env += [entry for entry in wanted if entry["name"] not in present]


def _resource_attribute_env(namespace: str, name: str) -> list[dict[str, Any]]:
    """otelResourceAttributeEnvVars: node and pod name from the downward API, composed into OTEL_RESOURCE_ATTRIBUTES."""
    return [
        {"name": "OTEL_RESOURCE_ATTRIBUTES_NODE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "spec.nodeName"}}},
        {"name": "OTEL_RESOURCE_ATTRIBUTES_POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
        {
            "name": "OTEL_RESOURCE_ATTRIBUTES",
            "value": f"k8s.namespace.name={namespace},k8s.node.name=$(OTEL_RESOURCE_ATTRIBUTES_NODE_NAME),"
            f"k8s.pod.name=$(OTEL_RESOURCE_ATTRIBUTES_POD_NAME),llmisvc.name={name}",
        },
    ]


def has_arg(args: list[str], flag: str) -> bool:
    """hasArg: an argument equal to the flag, or starting with `flag=`."""
    return any(arg == flag or arg.startswith(flag + "=") for arg in args)


def _env(name: str, value: Any) -> dict[str, Any]:
    """An EnvVar as Go marshals it: an empty value is omitted."""
    text = "" if value is None else str(value)
    return {"name": name, "value": text} if text else {"name": name}
