"""Deployment, Service and HPA of the predictor: KServe's raw reconcilers and their tests
(hpa_reconciler_test.go TestGetHPAMetrics/TestCreateHPA, service_reconciler_test.go,
deployment_reconciler.go setDefaultPodSpec/setDefaultDeploymentSpec, tests_common.go
getDeploymentWithKServiceLabel/getExectedService)."""

from __future__ import annotations

import pytest

from llmc.isvc.config import IsvcConfig
from llmc.isvc.workload import deployment, hpa, hpa_metrics, service, with_pod_defaults

META = {"name": "raw-foo-predictor", "namespace": "default", "labels": {"app": "isvc.raw-foo-predictor"},
        "annotations": {}}


def cpu(utilization: int) -> dict:
    return {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization",
                                                                       "averageUtilization": utilization}}}


@pytest.mark.parametrize(("predictor", "expected"), [
    ({"scaleMetric": "cpu", "scaleTarget": 70}, [cpu(70)]),  # default cpu metric with scaleMetric
    ({"scaleMetric": "cpu"}, [cpu(80)]),  # default cpu metric without scaleTarget
    ({"scaleMetric": "memory", "scaleTarget": 60},
     [{"type": "Resource", "resource": {"name": "memory", "target": {"type": "Utilization", "averageUtilization": 60}}}]),
    ({"scaleMetric": "memory"}, []),  # memory metric without scaleTarget
    ({"autoScaling": {"metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {
        "type": "Utilization", "averageUtilization": 75}}}]}}, [cpu(75)]),
    ({"autoScaling": {"metrics": [{"type": "Resource", "resource": {"name": "cpu"}}]}}, [cpu(80)]),
    ({"autoScaling": {"metrics": [{"type": "Resource", "resource": {"name": "memory", "target": {
        "type": "AverageValue", "averageValue": "500Mi"}}}]}},
     [{"type": "Resource", "resource": {"name": "memory", "target": {"type": "AverageValue", "averageValue": "500Mi"}}}]),
    ({}, [cpu(80)]),  # nil componentExt should return default CPU metric
])
def test_get_hpa_metrics(predictor: dict, expected: list) -> None:
    assert hpa_metrics(predictor) == expected


def test_hpa_bounds_and_empty_behavior() -> None:
    # createHPA: min at least 1, max at least min, Behavior &HorizontalPodAutoscalerBehavior{} (the API
    # server fills the scale-up/down policies seen in rawkube_controller_test's expected HPA).
    obj = hpa(META, {"minReplicas": 0, "maxReplicas": 0}, None)
    assert obj["spec"] == {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "raw-foo-predictor"},
                           "minReplicas": 1, "maxReplicas": 1, "metrics": [cpu(80)], "behavior": {}}
    assert hpa(META, {"minReplicas": 2, "maxReplicas": 5}, None)["spec"]["maxReplicas"] == 5


def test_service_without_container_ports() -> None:
    # getExectedService: port named after the predictor, 80 -> 8080, TCP, selector app=isvc.<predictor>.
    svc = service(META, {"containers": [{"name": "kserve-container"}]}, IsvcConfig(), None)
    assert svc["spec"] == {"ports": [{"name": "raw-foo-predictor", "protocol": "TCP", "port": 80, "targetPort": 8080}],
                           "selector": {"app": "isvc.raw-foo-predictor"}}


def test_service_with_container_ports() -> None:
    # createDefaultSvc: the first port becomes 80 -> containerPort (protocol as written), further ports map
    # to themselves with TCP by default; gRPC/h2c names get appProtocol kubernetes.io/h2c.
    pod = {"containers": [{"name": "kserve-container", "ports": [
        {"name": "h2c", "containerPort": 9000, "protocol": "TCP"}, {"name": "http", "containerPort": 8080}]}]}
    svc = service(META, pod, IsvcConfig(service_cluster_ip_none=True), None)
    assert svc["spec"]["ports"] == [
        {"name": "h2c", "protocol": "TCP", "appProtocol": "kubernetes.io/h2c", "port": 80, "targetPort": 9000},
        {"name": "http", "protocol": "TCP", "port": 8080, "targetPort": 8080}]
    assert svc["spec"]["clusterIP"] == "None"  # service.serviceClusterIPNone


def test_service_uses_the_transformer_container_ports() -> None:
    pod = {"containers": [{"name": "kserve-container", "ports": [{"containerPort": 1}]},
                          {"name": "transformer-container", "ports": [{"containerPort": 2, "protocol": "TCP"}]}]}
    assert service(META, pod, IsvcConfig(), None)["spec"]["ports"][0]["targetPort"] == 2


def test_pod_defaults() -> None:
    # getDeploymentWithKServiceLabel's pod spec: the controller's defaults and the TCP readiness probe on 8080.
    pod = with_pod_defaults({"containers": [{"name": "kserve-container", "image": "i"}, {"name": "side", "image": "s"}]})
    assert pod["dnsPolicy"] == "ClusterFirst" and pod["restartPolicy"] == "Always"
    assert pod["terminationGracePeriodSeconds"] == 30 and pod["securityContext"] == {}
    assert pod["schedulerName"] == "default-scheduler"
    main, side = pod["containers"]
    assert main["readinessProbe"] == {"tcpSocket": {"port": 8080}, "timeoutSeconds": 1, "periodSeconds": 10,
                                      "successThreshold": 1, "failureThreshold": 3}
    assert "readinessProbe" not in side
    for c in (main, side):
        assert (c["terminationMessagePath"], c["terminationMessagePolicy"], c["imagePullPolicy"]) == (
            "/dev/termination-log", "File", "IfNotPresent")


def test_readiness_probe_uses_the_first_container_port() -> None:
    pod = with_pod_defaults({"containers": [{"name": "kserve-container", "ports": [{"containerPort": 9000}]}]})
    assert pod["containers"][0]["readinessProbe"]["tcpSocket"] == {"port": 9000}


def test_quantities_are_canonical() -> None:
    pod = with_pod_defaults({"containers": [{"name": "c", "resources": {"limits": {"cpu": "2000m", "nvidia.com/gpu": 1},
                                                                        "requests": {"memory": "1024Mi"}}}]})
    assert pod["containers"][0]["resources"] == {"limits": {"cpu": "2", "nvidia.com/gpu": "1"}, "requests": {"memory": "1Gi"}}


def test_deployment_defaults() -> None:
    # getDefaultRollingStrategy, REVISION_HISTORY, PROGRESSION_DEADLINE_SECODS; replicas left to the API server.
    obj = deployment(META, {"minReplicas": 2}, {"containers": [{"name": "kserve-container"}]}, IsvcConfig(), None)
    spec = obj["spec"]
    assert "replicas" not in spec
    assert spec["selector"] == {"matchLabels": {"app": "isvc.raw-foo-predictor"}}
    assert spec["strategy"] == {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}}
    assert (spec["revisionHistoryLimit"], spec["progressDeadlineSeconds"]) == (10, 600)
    assert spec["template"]["metadata"] == {"name": "raw-foo-predictor", "namespace": "default",
                                            "labels": {"app": "isvc.raw-foo-predictor"}}


def test_deployment_replicas_with_autoscaler_class_none() -> None:
    meta = {**META, "annotations": {"serving.kserve.io/autoscalerClass": "none"}}
    obj = deployment(meta, {"minReplicas": 2}, {"containers": [{"name": "kserve-container"}]}, IsvcConfig(), None)
    assert obj["spec"]["replicas"] == 2


def test_user_deployment_strategy_replaces_the_defaults() -> None:
    strategy = {"type": "Recreate"}
    obj = deployment(META, {"deploymentStrategy": strategy}, {"containers": []}, IsvcConfig(), None)
    assert obj["spec"]["strategy"] == strategy
    assert "revisionHistoryLimit" not in obj["spec"] and "progressDeadlineSeconds" not in obj["spec"]


def test_configmap_rollout_applies_in_standard_default_mode_only() -> None:
    # applyRolloutStrategyFromConfigmap: only when deploy.defaultDeploymentMode is Standard.
    pod = {"containers": []}
    standard = IsvcConfig(default_deployment_mode="Standard", rollout=("1", "0"))
    assert deployment(META, {}, pod, standard, None)["spec"]["strategy"]["rollingUpdate"] == {
        "maxUnavailable": "0", "maxSurge": "1"}
    knative = IsvcConfig(rollout=("1", "0"))
    assert deployment(META, {}, pod, knative, None)["spec"]["strategy"]["rollingUpdate"]["maxSurge"] == "25%"
