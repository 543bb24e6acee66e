"""HPA and KEDA ScaledObjects (reference 02 §2.9; KServe scaling_test.go)."""

from __future__ import annotations

from typing import Any

import pytest

from llmc.core.errors import LlmcError
from llmc.core.findings import Findings
from llmc.render import scaling
from llmc.k8s.capabilities import Capabilities
from llmc.render.context import RenderContext, RenderOptions
from llmc.kserve.settings import Settings

MODEL = {"uri": "hf://meta-llama/Llama-3.1-8B", "name": "meta-llama/Llama-3.1-8B"}
PROM = {"prometheus": {"url": "https://prom.monitoring:9090", "tlsInsecureSkipVerify": True}}


def make_ctx(
    spec: dict[str, Any],
    *,
    name: str = "test-svc",
    wva: dict[str, Any] | None = None,
    capabilities: Capabilities | None = None,
) -> RenderContext:
    spec = {"model": dict(MODEL), **spec}
    service = {"metadata": {"name": name, "namespace": "test-ns"}, "spec": spec}
    options = RenderOptions(capabilities=capabilities) if capabilities else RenderOptions()
    return RenderContext(service, spec, Settings(wva=wva or {}), options, Findings(f"test-ns/{name}"))


def hpa_scaling(**extra: Any) -> dict[str, Any]:
    return {"maxReplicas": 5, "wva": {"variantCost": "10.0", "hpa": {}}, **extra}


def wva_keda_scaling(keda: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"maxReplicas": 5, "wva": {"variantCost": "10.0", "keda": keda or {}}}


def names(objs: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(o["kind"], o["metadata"]["name"]) for o in objs]


# --- HPA (TestExpectedHPA) -----------------------------------------------------------------------


def test_hpa_shape() -> None:
    (hpa,) = scaling.objects(make_ctx({"scaling": hpa_scaling(), "template": {}}))
    assert hpa["apiVersion"] == "autoscaling/v2" and hpa["kind"] == "HorizontalPodAutoscaler"
    assert hpa["metadata"]["name"] == "test-svc-kserve-hpa"
    # 02 §2.9 labels (component workload, name, part-of) + accelerator "unknown"; WVA annotations
    assert hpa["metadata"]["labels"] == {
        "app.kubernetes.io/component": "llminferenceservice-workload",
        "app.kubernetes.io/name": "test-svc",
        "app.kubernetes.io/part-of": "llminferenceservice",
        "inference.optimization/acceleratorName": "unknown",
    }
    assert hpa["metadata"]["annotations"] == {
        "llm-d.ai/managed": "true",
        "llm-d.ai/model-id": "meta-llama/Llama-3.1-8B",
        "llm-d.ai/variant-cost": "10.0",
    }
    # "default minReplicas when nil", "scaleTargetRef points to correct deployment",
    # "metric selector uses variant_name from HPA name" (target Value, quantity 1), "nil behavior"
    assert hpa["spec"] == {
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "test-svc-kserve"},
        "minReplicas": 1,
        "maxReplicas": 5,
        "metrics": [
            {
                "type": "External",
                "external": {
                    "metric": {
                        "name": "wva_desired_replicas",
                        "selector": {"matchLabels": {"variant_name": "test-svc-kserve-hpa"}},
                    },
                    "target": {"type": "Value", "value": "1"},
                },
            }
        ],
    }


def test_hpa_explicit_min_max_and_behavior() -> None:
    # "explicit minReplicas", "custom HPA behavior is forwarded"
    behavior = {"scaleDown": {"stabilizationWindowSeconds": 300}}
    scaling_spec = {"minReplicas": 3, "maxReplicas": 10, "wva": {"hpa": {"behavior": behavior}}}
    (hpa,) = scaling.objects(make_ctx({"scaling": scaling_spec, "template": {}}))
    assert (hpa["spec"]["minReplicas"], hpa["spec"]["maxReplicas"]) == (3, 10)
    assert hpa["spec"]["behavior"] == behavior
    # "WVA variant-cost annotation absent when variantCost empty"
    assert "llm-d.ai/variant-cost" not in hpa["metadata"]["annotations"]


def test_hpa_targets_the_lws_for_multi_node() -> None:
    # "scaleTargetRef points to LeaderWorkerSet for multi-node"
    (hpa,) = scaling.objects(make_ctx({"scaling": hpa_scaling(), "template": {}, "worker": {}}, name="my-model"))
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "leaderworkerset.x-k8s.io/v1",
        "kind": "LeaderWorkerSet",
        "name": "my-model-kserve-mn",
    }


def test_model_id_falls_back_to_uri() -> None:
    # "WVA model-id annotation falls back to URI when name is nil"
    ctx = make_ctx({"scaling": hpa_scaling(), "template": {}})
    del ctx.spec["model"]["name"]
    (hpa,) = scaling.objects(ctx)
    assert hpa["metadata"]["annotations"]["llm-d.ai/model-id"] == "hf://meta-llama/Llama-3.1-8B"


@pytest.mark.parametrize(("labels", "accelerator"), [({"inference.optimization/acceleratorName": "H100"}, "H100"),
                                                     ({"inference.optimization/acceleratorName": ""}, "unknown"),
                                                     ({"other": "x"}, "unknown")])
def test_accelerator_label(labels: dict[str, str], accelerator: str) -> None:
    # "acceleratorName label taken from workload labels when present" / "... unknown when ... empty"
    (hpa,) = scaling.objects(make_ctx({"labels": labels, "scaling": hpa_scaling(), "template": {}}))
    assert hpa["metadata"]["labels"]["inference.optimization/acceleratorName"] == accelerator


# --- WVA ScaledObject (TestExpectedScaledObject) ---------------------------------------------------


def test_wva_scaled_object() -> None:
    # "prometheus trigger has correct metadata", "optional KEDA fields forwarded"
    ctx = make_ctx({"scaling": wva_keda_scaling({"pollingInterval": 15, "cooldownPeriod": 60}), "template": {}}, wva=PROM)
    (so,) = scaling.objects(ctx)
    assert so["apiVersion"] == "keda.sh/v1alpha1" and so["kind"] == "ScaledObject"
    assert so["metadata"]["name"] == "test-svc-kserve-keda"
    assert so["metadata"]["annotations"]["llm-d.ai/managed"] == "true"
    assert so["metadata"]["labels"]["inference.optimization/acceleratorName"] == "unknown"
    assert so["spec"] == {
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "test-svc-kserve"},
        "pollingInterval": 15,
        "cooldownPeriod": 60,
        "minReplicaCount": 1,
        "maxReplicaCount": 5,
        "triggers": [
            {
                "type": "prometheus",
                "name": "wva-desired-replicas",
                "metadata": {
                    "serverAddress": "https://prom.monitoring:9090",
                    "query": 'wva_desired_replicas{variant_name="test-svc-kserve-keda",exported_namespace="test-ns"}',
                    "threshold": "1",
                    "unsafeSsl": "true",
                },
            }
        ],
    }


def test_wva_unsafe_ssl_false() -> None:
    # "unsafeSsl is false when TLS verification enabled"
    ctx = make_ctx({"scaling": wva_keda_scaling(), "template": {}}, wva={"prometheus": {"url": "http://prom:9090"}})
    (so,) = scaling.objects(ctx)
    assert so["spec"]["triggers"][0]["metadata"]["unsafeSsl"] == "false"
    # "no auth fields when not configured"
    assert "authModes" not in so["spec"]["triggers"][0]["metadata"]
    assert "authenticationRef" not in so["spec"]["triggers"][0]


@pytest.mark.parametrize("kind", ["TriggerAuthentication", "ClusterTriggerAuthentication"])
def test_wva_auth(kind: str) -> None:
    # "TriggerAuthentication / ClusterTriggerAuthentication auth fields are wired into trigger"
    prom = {
        "prometheus": {
            "url": "https://prom.monitoring:9090",
            "authModes": "bearer",
            "triggerAuthName": "prom-bearer-auth",
            "triggerAuthKind": kind,
        }
    }
    (so,) = scaling.objects(make_ctx({"scaling": wva_keda_scaling(), "template": {}}, wva=prom))
    trigger = so["spec"]["triggers"][0]
    assert trigger["metadata"]["authModes"] == "bearer"
    assert trigger["authenticationRef"] == {"name": "prom-bearer-auth", "kind": kind}


@pytest.mark.parametrize(
    ("wva", "message"),
    [
        # TestValidateAutoscalingConfig: nil config, missing url, half-configured auth
        (
            {},
            "autoscaling-wva-controller-config.prometheus.url is required in inferenceservice-config when using KEDA",
        ),
        (
            {"prometheus": {}},
            "autoscaling-wva-controller-config.prometheus.url is required in inferenceservice-config when using KEDA",
        ),
        (
            {"prometheus": {"url": "https://prom:9090", "authModes": "bearer"}},
            "autoscaling-wva-controller-config.prometheus.authModes and "
            "autoscaling-wva-controller-config.prometheus.triggerAuthName must both be set or both be empty",
        ),
        (
            {"prometheus": {"url": "https://prom:9090", "triggerAuthName": "prom-auth"}},
            "autoscaling-wva-controller-config.prometheus.authModes and "
            "autoscaling-wva-controller-config.prometheus.triggerAuthName must both be set or both be empty",
        ),
    ],
)
def test_wva_config_errors(wva: dict[str, Any], message: str) -> None:
    with pytest.raises(LlmcError) as err:
        scaling.objects(make_ctx({"prefill": {"scaling": wva_keda_scaling(), "template": {}}, "template": {}}, wva=wva))
    assert err.value.message == message
    assert err.value.location.path == "spec.prefill.scaling.wva.keda"


def test_wva_config_wrong_type() -> None:
    with pytest.raises(LlmcError) as err:
        wva = {"prometheus": {"url": "u", "tlsInsecureSkipVerify": "true"}}
        scaling.objects(make_ctx({"scaling": wva_keda_scaling(), "template": {}}, wva=wva))
    assert "tlsInsecureSkipVerify" in err.value.message


def test_hpa_does_not_need_prometheus_config() -> None:
    # validateAutoscalingConfig runs only on the WVA KEDA path
    assert names(scaling.objects(make_ctx({"scaling": hpa_scaling(), "template": {}}))) == [
        ("HorizontalPodAutoscaler", "test-svc-kserve-hpa")
    ]


# --- direct KEDA (TestExpectedDirectScaledObject) ---------------------------------------------------


def test_direct_keda() -> None:
    # "uses user-defined triggers": verbatim triggers, no WVA annotations, labels without accelerator
    triggers = [{"type": "prometheus", "metadata": {"serverAddress": "http://p:9090", "query": "sum(x)", "threshold": "5"}}]
    keda = {"triggers": triggers, "idleReplicaCount": 0, "fallback": {"failureThreshold": 3, "replicas": 2, "behavior": "static"}}
    (so,) = scaling.objects(make_ctx({"scaling": {"minReplicas": 2, "maxReplicas": 8, "keda": keda}, "template": {}}))
    assert "annotations" not in so["metadata"]
    assert so["metadata"]["labels"] == {
        "app.kubernetes.io/component": "llminferenceservice-workload",
        "app.kubernetes.io/name": "test-svc",
        "app.kubernetes.io/part-of": "llminferenceservice",
    }
    assert so["spec"] == {
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "test-svc-kserve"},
        "idleReplicaCount": 0,
        "minReplicaCount": 2,
        "maxReplicaCount": 8,
        "triggers": triggers,
        "fallback": {"failureThreshold": 3, "replicas": 2, "behavior": "static"},
    }
    assert so["spec"]["triggers"] is not triggers


def test_direct_keda_wins_over_wva_keda_but_hpa_stays() -> None:
    # reconcileKEDAScaledObject takes scaling.keda first; reconcileHPA only looks at wva.hpa
    spec_scaling = {"maxReplicas": 4, "keda": {"triggers": []}, "wva": {"keda": {}, "hpa": {}}}
    objs = scaling.objects(make_ctx({"scaling": spec_scaling, "template": {}}))
    assert names(objs) == [("ScaledObject", "test-svc-kserve-keda"), ("HorizontalPodAutoscaler", "test-svc-kserve-hpa")]
    assert "annotations" not in objs[0]["metadata"]


# --- prefill and order --------------------------------------------------------------------------


def test_prefill_actuators_and_order() -> None:
    # 02 §2.9: main (ScaledObject then HPA) then prefill; prefill names and LWS target; component stays workload
    spec = {
        "scaling": {"maxReplicas": 3, "wva": {"keda": {}, "hpa": {}}},
        "template": {},
        "prefill": {
            "labels": {"inference.optimization/acceleratorName": "A100"},
            "scaling": {"maxReplicas": 2, "wva": {"keda": {}, "hpa": {}}},
            "worker": {},
        },
    }
    objs = scaling.objects(make_ctx(spec, wva=PROM))
    assert names(objs) == [
        ("ScaledObject", "test-svc-kserve-keda"),
        ("HorizontalPodAutoscaler", "test-svc-kserve-hpa"),
        ("ScaledObject", "test-svc-kserve-prefill-keda"),
        ("HorizontalPodAutoscaler", "test-svc-kserve-prefill-hpa"),
    ]
    prefill_so, prefill_hpa = objs[2], objs[3]
    target = {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet", "name": "test-svc-kserve-mn-prefill"}
    assert prefill_so["spec"]["scaleTargetRef"] == target
    assert prefill_hpa["spec"]["scaleTargetRef"] == target
    assert prefill_hpa["metadata"]["labels"]["app.kubernetes.io/component"] == "llminferenceservice-workload"
    assert prefill_hpa["metadata"]["labels"]["inference.optimization/acceleratorName"] == "A100"
    assert prefill_so["spec"]["triggers"][0]["metadata"]["query"] == (
        'wva_desired_replicas{variant_name="test-svc-kserve-prefill-keda",exported_namespace="test-ns"}'
    )


def test_prefill_deployment_target() -> None:
    spec = {"template": {}, "prefill": {"scaling": hpa_scaling(), "template": {}}}
    (hpa,) = scaling.objects(make_ctx(spec))
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "test-svc-kserve-prefill"}


def test_no_scaling_no_objects() -> None:
    assert scaling.objects(make_ctx({"replicas": 2, "template": {}, "prefill": {"template": {}}})) == []


# --- KEDA capability --------------------------------------------------------------------------------


def test_missing_keda_api_is_reported() -> None:
    ctx = make_ctx({"scaling": {"maxReplicas": 2, "keda": {"triggers": []}}, "template": {}},
                   capabilities=Capabilities(api_versions=frozenset({"apps/v1"})))
    assert names(scaling.objects(ctx)) == [("ScaledObject", "test-svc-kserve-keda")]
    assert [(f.code, f.path) for f in ctx.findings.items] == [(scaling.KEDA_ABSENT, "spec.scaling")]


def test_keda_api_present_is_quiet() -> None:
    ctx = make_ctx({"scaling": {"maxReplicas": 2, "keda": {"triggers": []}}, "template": {}})
    scaling.objects(ctx)
    assert ctx.findings.items == []
