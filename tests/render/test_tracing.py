"""Tracing on container main (reference 02 §3.6; KServe tracing.go, tests in tracing_test.go)."""

from __future__ import annotations

from typing import Any

from llmc.core.findings import Findings
from llmc.kserve.settings import Settings
from llmc.kserve.spec import Slot
from llmc.render import tracing
from llmc.render.context import RenderContext, RenderOptions

# kserve-config-llm-tracing preset values (reference 02 §3.6)
PRESET = {
    "exporterEndpoint": "http://otel-collector:4317",
    "sampler": "parentbased_traceidratio",
    "samplerArg": "0.05",
    "exporter": "otlp",
}


def run(tracing_spec: dict[str, Any] | None, pod: dict[str, Any], key: str = "template", *, name: str = "my-llm", ns: str = "test-ns") -> dict[str, Any]:
    spec: dict[str, Any] = {"model": {"uri": "hf://org/model"}, "template": pod}
    if tracing_spec is not None:
        spec["tracing"] = tracing_spec
    service = {"metadata": {"name": name, "namespace": ns}, "spec": spec}
    ctx = RenderContext(service, spec, Settings(), RenderOptions(), Findings(f"{ns}/{name}"))
    workload = spec.get("prefill", spec) if key.startswith("prefill.") else spec
    tracing.apply(ctx, pod, Slot(key, workload))
    return pod


def env_map(container: dict[str, Any]) -> dict[str, Any]:
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in container.get("env") or []}


def test_no_tracing_spec_leaves_pod_alone() -> None:
    # TestInjectServerTracing_NilSpec
    pod = run(None, {"containers": [{"name": "main"}]})
    assert pod == {"containers": [{"name": "main"}]}


def test_empty_endpoint_skips() -> None:
    # TestInjectServerTracing_EmptySpec_NoEndpoint_Skips
    pod = run({"sampler": "always_on"}, {"containers": [{"name": "main"}]})
    assert pod == {"containers": [{"name": "main"}]}


def test_decode_args_and_full_env_in_order() -> None:
    # reference 02 §3.6: args appended, env list and OTEL_RESOURCE_ATTRIBUTES composition
    pod = run(PRESET, {"containers": [{"name": "main", "args": ["--user"]}]})
    main = pod["containers"][0]
    assert main["args"] == [
        "--user",
        "--otlp-traces-endpoint",
        "http://otel-collector:4317",
        "--collect-detailed-traces",
        "all",
    ]
    assert main["env"] == [
        {"name": "OTEL_SERVICE_NAME", "value": "inference-server-decode"},
        {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://otel-collector:4317"},
        {"name": "OTEL_TRACES_EXPORTER", "value": "otlp"},
        {"name": "OTEL_TRACES_SAMPLER", "value": "parentbased_traceidratio"},
        {"name": "OTEL_TRACES_SAMPLER_ARG", "value": "0.05"},
        {
            "name": "OTEL_RESOURCE_ATTRIBUTES_NODE_NAME",
            "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "spec.nodeName"}},
        },
        {
            "name": "OTEL_RESOURCE_ATTRIBUTES_POD_NAME",
            "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}},
        },
        {
            "name": "OTEL_RESOURCE_ATTRIBUTES",
            "value": "k8s.namespace.name=test-ns,k8s.node.name=$(OTEL_RESOURCE_ATTRIBUTES_NODE_NAME),"
            "k8s.pod.name=$(OTEL_RESOURCE_ATTRIBUTES_POD_NAME),llmisvc.name=my-llm",
        },
    ]


def test_prefill_service_name() -> None:
    # TestInjectServerTracing_WithEndpoint_Prefill
    pod = run({"exporterEndpoint": "http://collector:4317"}, {"containers": [{"name": "main"}]}, "prefill.template")
    assert env_map(pod["containers"][0])["OTEL_SERVICE_NAME"] == "inference-server-prefill"


def test_worker_uses_decode_name() -> None:
    # reference 02 §3.0: main, leader and worker all trace as inference-server-decode
    pod = run({"exporterEndpoint": "http://collector:4317"}, {"containers": [{"name": "main"}]}, "worker")
    assert env_map(pod["containers"][0])["OTEL_SERVICE_NAME"] == "inference-server-decode"


def test_unset_fields_give_env_without_value() -> None:
    # Go marshals EnvVar{Value: ""} without a value (omitempty)
    pod = run({"exporterEndpoint": "http://collector:4317"}, {"containers": [{"name": "main"}]})
    env = pod["containers"][0]["env"]
    assert {"name": "OTEL_TRACES_EXPORTER"} in env
    assert {"name": "OTEL_TRACES_SAMPLER_ARG"} in env


def test_existing_flags_are_not_duplicated() -> None:
    # TestInjectServerTracing_DoesNotDuplicateArgs
    args = ["--otlp-traces-endpoint", "http://existing:4317", "--collect-detailed-traces", "model"]
    pod = run({"exporterEndpoint": "http://new:4317"}, {"containers": [{"name": "main", "args": list(args)}]})
    assert pod["containers"][0]["args"] == args


def test_flag_equals_form_counts_as_present() -> None:
    # TestHasArg "flag=value form"; the other flag is still appended
    pod = run({"exporterEndpoint": "http://new:4317"}, {"containers": [{"name": "main", "args": ["--otlp-traces-endpoint=http://x"]}]})
    assert pod["containers"][0]["args"] == ["--otlp-traces-endpoint=http://x", "--collect-detailed-traces", "all"]


def test_has_arg_prefix_is_not_a_match() -> None:
    # TestHasArg "partial prefix doesn't match"
    assert not tracing.has_arg(["--tracing-extra"], "--tracing")
    assert tracing.has_arg(["--tracing"], "--tracing")
    assert not tracing.has_arg([], "--tracing")


def test_user_env_wins() -> None:
    # TestInjectServerTracing_PreservesExistingEnv / TestMergeEnvVars
    pod = run(PRESET, {"containers": [{"name": "main", "env": [{"name": "OTEL_TRACES_SAMPLER", "value": "user-sampler"}]}]})
    env = pod["containers"][0]["env"]
    assert env[0] == {"name": "OTEL_TRACES_SAMPLER", "value": "user-sampler"}
    assert [e["name"] for e in env].count("OTEL_TRACES_SAMPLER") == 1
    assert len(env) == 8


def test_only_main_is_changed() -> None:
    # TestInjectServerTracingIntoPodSpec_FindsMainContainer / _NoMainContainer
    pod = run({"exporterEndpoint": "http://collector:4317"}, {"containers": [{"name": "sidecar"}, {"name": "main"}]})
    assert pod["containers"][0] == {"name": "sidecar"}
    assert env_map(pod["containers"][1])["OTEL_SERVICE_NAME"] == "inference-server-decode"
    pod = run({"exporterEndpoint": "http://collector:4317"}, {"containers": [{"name": "sidecar"}]})
    assert pod == {"containers": [{"name": "sidecar"}]}
