"""Sample services and global configs for the template engine tests (data a preset template sees)."""

from __future__ import annotations

from typing import Any

GLOBAL = {
    "SystemNamespace": "kserve",
    "IngressGatewayName": "kserve-ingress-gateway",
    "IngressGatewayNamespace": "kserve",
    "EnableTLS": False,
    "ModelBasedRoutingHeaderName": "X-Gateway-Model-Name",
    "InferencePoolNamespacedName": "team-a/llama-inference-pool",
}
GLOBAL_TLS = dict(GLOBAL, EnableTLS=True, IngressGatewayName="gw", IngressGatewayNamespace="gw-ns")


def _svc(name: str, namespace: str, spec: dict[str, Any], **meta: Any) -> dict[str, Any]:
    return {"apiVersion": "serving.kserve.io/v1alpha2", "kind": "LLMInferenceService",
            "metadata": {"name": name, "namespace": namespace, **meta}, "spec": spec}


SERVICES: dict[str, dict[str, Any]] = {
    "minimal": _svc("llama", "team-a", {"model": {"uri": "hf://meta-llama/Llama-3.1-8B", "name": "meta-llama/Llama-3.1-8B"}}),
    "tensor-kv": _svc("llama", "team-a", {
        "model": {"uri": "hf://meta-llama/Llama-3.1-8B", "name": "meta-llama/Llama-3.1-8B"},
        "parallelism": {"tensor": 2},
        "kvCacheOffloading": {"cpu": "10Gi", "evictionPolicy": "lru",
                              "secondary": [{"fileSystem": {}}, {}, {"fileSystem": {}}]},
        "template": {"terminationGracePeriodSeconds": 120, "containers": [{"name": "main", "image": "vllm"}]},
    }, labels={"app": "x"}, annotations={"b": "2", "a": "1"}),
    "data-parallel": _svc("my-very-long-llm-inference-service-name-for-testing-purposes", "ns", {
        "model": {"uri": "s3://bucket/path/model", "name": "m"},
        "parallelism": {"data": 4, "dataLocal": 2, "tensor": 2, "expert": True, "dataRPCPort": 6000},
        "worker": {"terminationGracePeriodSeconds": 10, "containers": []},
        "template": {"containers": []},
        "prefill": {"parallelism": {"data": 2, "tensor": 1, "expert": True},
                    "template": {"terminationGracePeriodSeconds": 30, "containers": []},
                    "worker": {"containers": []},
                    "kvCacheOffloading": {"cpu": "1500m"}},
    }),
    "preset-sample": _svc("test-llm-preset", "test-llm-preset-test", {
        "model": {"uri": "hf://llama", "name": "llama"},
        "parallelism": {"data": 4, "dataLocal": 2, "tensor": 1, "expert": True},
        "worker": {"containers": []},
        "prefill": {"template": {"containers": []}, "parallelism": {"tensor": 1, "pipeline": 1}},
        "router": {"route": {"http": {"refs": [{"name": "r"}]}}, "gateway": {"refs": [{"name": "g", "namespace": "n"}]},
                   "scheduler": {"pool": {"ref": {"name": "p"}}, "template": {"containers": []}}},
    }),
    "no-model-name": _svc("x", "", {"model": {"uri": ""}, "parallelism": {"tensor": 0, "data": 0},
                                    "kvCacheOffloading": {"cpu": "0.5"}}),
}
