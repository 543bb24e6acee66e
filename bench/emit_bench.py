"""Emitter benchmark: llmc's libyaml path against pure-Python emitters. Run by hand.

    python bench/emit_bench.py [--services 120] [--repeat 5]

Builds a stream shaped like llmc's output (per service: ServiceAccount, Role,
RoleBinding, two Services, two Deployments with vLLM arguments, env, probes, a
multi-line start script and DRA claims, a ResourceClaimTemplate with a CEL
selector, an InferencePool and an HTTPRoute) and times, best of ``--repeat`` (the
minimum, as timeit advises: the least disturbed run):

- llmc ``to_yaml`` (``llmc.output.block_text`` for ordinary documents, libyaml for the rest), and
  the path every document took before, llmc's nodes through libyaml (``CSafeDumper``), split into
  ``order_keys`` and emitting;
- llmc's nodes through PyYAML's pure-Python emitter (same quoting rules);
- PyYAML ``dump_all`` with stock representers, C and pure (not go-yaml-safe
  quoting, shown for scale);
- ruamel.yaml pure, ``typ="safe"`` and round-trip (YAML 1.2 quoting, not
  go-yaml-safe);
- llmc ``to_json`` and plain ``json.dumps``.

Prints MB/s of YAML written and the ratio to llmc ``to_yaml``; then the time per
service for a small stream, the unit a CI step pays a thousand times.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from ruamel.yaml import YAML

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from llmc.output import emit  # noqa: E402
from llmc.k8s.install_order import sort_objects  # noqa: E402

WIDTH = 2**31 - 1
SCRIPT = """set -euo pipefail
if [ -n "${VLLM_ADDITIONAL_ARGS:-}" ]; then
  echo "extra args: ${VLLM_ADDITIONAL_ARGS}"
fi
exec vllm serve /mnt/models --served-model-name "${MODEL_NAME}" --port 8001 ${VLLM_ADDITIONAL_ARGS:-}
"""


def _meta(name: str, ns: str, component: str) -> dict[str, Any]:
    return {
        "name": name,
        "namespace": ns,
        "labels": {
            "app.kubernetes.io/part-of": "llminferenceservice",
            "app.kubernetes.io/name": name.split("-")[0],
            "app.kubernetes.io/component": component,
        },
        "annotations": {"serving.kserve.io/model-uri": "hf://Qwen/Qwen2.5-7B-Instruct", "prometheus.io/port": "8000"},
        "ownerReferences": [{"apiVersion": "serving.kserve.io/v1alpha2", "kind": "LLMInferenceService", "name": name,
                             "uid": "00000000-0000-0000-0000-000000000000", "controller": True, "blockOwnerDeletion": True}],
    }


def _deployment(n: str, ns: str, role: str) -> dict[str, Any]:
    labels = {"app.kubernetes.io/part-of": "llminferenceservice", "app.kubernetes.io/name": n, "llm-d.ai/role": role}
    env = [{"name": f"VAR_{i}", "value": v} for i, v in enumerate(["1", "true", "y", "0.9", "on", "no", "8000", "1e3",
                                                                      "/mnt/models", "INFO", "a: b", "", "off"])]
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": _meta(f"{n}-kserve-{role}", ns, "llminferenceservice-workload"),
        "spec": {
            "replicas": 2,
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": dict(labels), "annotations": {"k8s.v1.cni.cncf.io/networks": "roce-a,roce-b"}},
                "spec": {
                    "serviceAccountName": f"{n}-kserve",
                    "initContainers": [{
                        "name": "llm-d-routing-sidecar",
                        "image": "ghcr.io/llm-d/llm-d-routing-sidecar:v0.2.0",
                        "args": ["--port=8000", "--vllm-port=8001", "--connector=nixlv2", "--secure-proxy=true"],
                        "restartPolicy": "Always",
                        "ports": [{"containerPort": 8000, "protocol": "TCP"}],
                    }],
                    "containers": [{
                        "name": "main",
                        "image": "ghcr.io/llm-d/llm-d:v0.2.0",
                        "command": ["/bin/bash", "-c"],
                        "args": [SCRIPT],
                        "env": env,
                        "ports": [{"containerPort": 8001, "name": "http", "protocol": "TCP"}],
                        "resources": {"limits": {"nvidia.com/gpu": "1", "cpu": "8", "memory": "64Gi"},
                                      "requests": {"cpu": "4", "memory": "32Gi", "nvidia.com/gpu": "1"},
                                      "claims": [{"name": "gpu"}]},
                        "livenessProbe": {"httpGet": {"path": "/health", "port": 8001, "scheme": "HTTPS"},
                                          "initialDelaySeconds": 120, "periodSeconds": 10, "timeoutSeconds": 10, "failureThreshold": 3},
                        "readinessProbe": {"httpGet": {"path": "/health", "port": 8001, "scheme": "HTTPS"},
                                           "initialDelaySeconds": 10, "periodSeconds": 10, "timeoutSeconds": 5, "failureThreshold": 60},
                        "volumeMounts": [{"name": "model-cache", "mountPath": "/mnt/models", "readOnly": True},
                                         {"name": "shm", "mountPath": "/dev/shm"},
                                         {"name": "tls-certs", "mountPath": "/etc/ssl/certs", "readOnly": True}],
                        "securityContext": {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}},
                        "terminationMessagePolicy": "FallbackToLogsOnError",
                    }],
                    "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": f"{n}-managed-dra"}],
                    "volumes": [{"name": "model-cache", "emptyDir": {}},
                                {"name": "shm", "emptyDir": {"medium": "Memory", "sizeLimit": "16Gi"}},
                                {"name": "tls-certs", "secret": {"secretName": f"{n}-kserve-self-signed-certs"}}],
                    "terminationGracePeriodSeconds": 30,
                },
            },
        },
    }


def service_objects(i: int) -> list[dict[str, Any]]:
    """The objects of one synthetic service, in renderer (not install) order."""
    n, ns = f"svc{i:04d}", f"team-{i % 7}"
    rbac = "rbac.authorization.k8s.io/v1"
    return [
        _deployment(n, ns, "decode"),
        _deployment(n, ns, "prefill"),
        {"apiVersion": "v1", "kind": "Service", "metadata": _meta(f"{n}-kserve-workload-svc", ns, "workload"),
         "spec": {"ports": [{"name": "https", "port": 8000, "protocol": "TCP", "targetPort": 8000}],
                  "selector": {"app.kubernetes.io/name": n, "kserve.io/component": "workload",
                               "app.kubernetes.io/part-of": "llminferenceservice"}, "type": "ClusterIP"}},
        {"apiVersion": "v1", "kind": "Service", "metadata": _meta(f"{n}-epp-service", ns, "router-scheduler"),
         "spec": {"ports": [{"name": p, "port": q, "protocol": "TCP", "targetPort": q}
                            for p, q in (("grpc", 9002), ("grpc-health", 9003), ("metrics", 9090), ("zmq", 5557))],
                  "selector": {"app.kubernetes.io/name": n, "app.kubernetes.io/component": "router-scheduler"}}},
        {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": _meta(f"{n}-kserve", ns, "workload")},
        {"apiVersion": rbac, "kind": "Role", "metadata": _meta(f"{n}-kserve-role", ns, "workload"),
         "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list", "watch"]},
                   {"apiGroups": ["inference.networking.k8s.io"], "resources": ["inferencepools"], "verbs": ["get", "list", "watch"]}]},
        {"apiVersion": rbac, "kind": "RoleBinding", "metadata": _meta(f"{n}-kserve-rb", ns, "workload"),
         "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": f"{n}-kserve-role"},
         "subjects": [{"kind": "ServiceAccount", "name": f"{n}-kserve", "namespace": ns}]},
        {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": _meta(f"{n}-managed-dra", ns, "workload"),
         "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {
             "deviceClassName": "gpu.nvidia.com", "count": 1,
             "selectors": [{"cel": {"expression": 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"'}}]}}]}}}},
        {"apiVersion": "inference.networking.k8s.io/v1", "kind": "InferencePool", "metadata": _meta(f"{n}-inference-pool", ns, "router"),
         "spec": {"selector": {"matchLabels": {"app.kubernetes.io/name": n, "kserve.io/component": "workload"}},
                  "targetPorts": [{"number": 8000}],
                  "endpointPickerRef": {"name": f"{n}-epp-service", "port": {"number": 9002}, "failureMode": "FailOpen"}}},
        {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": _meta(f"{n}-kserve-route", ns, "router"),
         "spec": {"parentRefs": [{"group": "gateway.networking.k8s.io", "kind": "Gateway", "name": "kserve-ingress-gateway", "namespace": "kserve"}],
                  "rules": [{"name": f"v1-{ep}-path",
                             "matches": [{"path": {"type": "PathPrefix", "value": f"/{ns}/{n}/v1/{ep}"}}],
                             "filters": [{"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": f"/v1/{ep}"}}}],
                             "backendRefs": [{"group": "inference.networking.k8s.io", "kind": "InferencePool", "name": f"{n}-inference-pool", "port": 8000, "weight": 1}],
                             "timeouts": {"backendRequest": "0s", "request": "0s"}}
                            for ep in ("completions", "chat/completions", "responses", "messages")]}},
    ]


def _pure_llmc(objs: list[dict[str, Any]]) -> str:
    """llmc's nodes and quoting through PyYAML's pure-Python emitter."""

    class Dumper(yaml.SafeDumper):
        resolve = emit._Dumper.resolve

    stream = io.StringIO()
    dumper = Dumper(stream, indent=2, width=WIDTH, allow_unicode=True, explicit_start=True)
    dumper.open()
    for obj in objs:
        dumper.serialize(emit._node(emit.order_keys(obj)))
    dumper.close()
    return stream.getvalue()


def _emit_only(canonical: list[dict[str, Any]]) -> str:
    stream = io.StringIO()
    dumper = emit._Dumper(stream, indent=2, width=WIDTH, allow_unicode=True, explicit_start=True)
    dumper.open()
    for obj in canonical:
        dumper.serialize(emit._node(obj))
    dumper.close()
    return stream.getvalue()


def _stock(dumper: type) -> Callable[[list[dict[str, Any]]], str]:
    return lambda objs: yaml.dump_all(objs, Dumper=dumper, sort_keys=False, width=WIDTH, allow_unicode=True, explicit_start=True)


def _ruamel(typ: str) -> Callable[[list[dict[str, Any]]], str]:
    y = YAML(typ=typ, pure=True)
    y.width = WIDTH
    y.allow_unicode = True
    y.explicit_start = True
    y.default_flow_style = False
    y.indent(mapping=2, sequence=2, offset=0)

    def dump(objs: list[dict[str, Any]]) -> str:
        stream = io.StringIO()
        y.dump_all(objs, stream)
        return stream.getvalue()

    return dump


def _best_seconds(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--services", type=int, default=120, help="services in the large stream")
    parser.add_argument("--repeat", type=int, default=5, help="runs per candidate; the fastest is reported")
    args = parser.parse_args()

    objs = sort_objects([o for i in range(args.services) for o in service_objects(i)])
    canonical = [emit.order_keys(o) for o in objs]
    reference = emit.to_yaml(objs)
    size_mb = len(reference.encode()) / 1e6
    print(f"stream: {args.services} services, {len(objs)} objects, {size_mb:.2f} MB YAML; "
          f"PyYAML {yaml.__version__} (libyaml {yaml.__with_libyaml__}), Python {sys.version.split()[0]}")
    print(f"llmc nodes through the pure PyYAML emitter give identical bytes: {_pure_llmc(objs) == reference}")
    print(f"llmc nodes through libyaml give identical bytes: {_emit_only(canonical) == reference}")

    candidates: list[tuple[str, Callable[[], Any]]] = [
        ("llmc to_yaml (block_text)", lambda: emit.to_yaml(objs)),
        ("llmc order_keys", lambda: [emit.order_keys(o) for o in objs]),
        ("llmc nodes + libyaml (after order_keys)", lambda: _emit_only(canonical)),
        ("llmc nodes, PyYAML pure emitter", lambda: _pure_llmc(objs)),
        ("PyYAML CSafeDumper, stock", lambda: _stock(yaml.CSafeDumper)(objs)),
        ("PyYAML SafeDumper (pure), stock", lambda: _stock(yaml.SafeDumper)(objs)),
        ("ruamel safe (pure)", lambda: _ruamel("safe")(objs)),
        ("ruamel round-trip (pure)", lambda: _ruamel("rt")(objs)),
        ("llmc to_json", lambda: emit.to_json(objs)),
        ("json.dumps indent=2", lambda: json.dumps(objs, indent=2, ensure_ascii=False)),
    ]
    base = _best_seconds(candidates[0][1], args.repeat)
    print(f"\n{'candidate':40} {'ms':>9} {'MB/s':>8} {'x llmc':>8}")
    for name, fn in candidates:
        seconds = base if fn is candidates[0][1] else _best_seconds(fn, args.repeat)
        print(f"{name:40} {seconds * 1e3:9.1f} {size_mb / seconds:8.2f} {seconds / base:8.2f}")

    one = service_objects(0)
    per_service = _best_seconds(lambda: [emit.to_yaml(sort_objects(one)) for _ in range(100)], args.repeat) / 100
    print(f"\none service ({len(one)} objects, {len(emit.to_yaml(one))} bytes): sort + to_yaml {per_service * 1e3:.2f} ms, "
          f"1000 services {per_service * 1e3:.2f} s")


if __name__ == "__main__":
    main()
