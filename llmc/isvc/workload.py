"""The predictor's Deployment, Service and HorizontalPodAutoscaler in Standard mode.

Facts from reconcilers/deployment/deployment_reconciler.go (`createRawDefaultDeployment`,
`setDefaultPodSpec`, `setDefaultDeploymentSpec`, `applyRolloutStrategyFromConfigmap`),
reconcilers/service/service_reconciler.go (`createDefaultSvc`) and
reconcilers/hpa/hpa_reconciler.go (`createHPA`, `getHPAMetrics`, `shouldCreateHPA`).

All three share the predictor's object metadata (`buildObjectMeta`). The Deployment
reconciler adds `app: isvc.<name>-predictor` to the pod labels through a map the
metadata shares, so the Deployment, Service and HPA carry that label too.
"""

from __future__ import annotations

import copy
from typing import Any

from llmc.k8s.quantity import canonical_quantity
from llmc.isvc.config import STANDARD, IsvcConfig
from llmc.isvc.podspec import CONTAINER_FIELDS, KSERVE_CONTAINER, POD_SPEC_FIELDS, TRANSFORMER_CONTAINER

AUTOSCALER_CLASS = "serving.kserve.io/autoscalerClass"
APP_LABEL = "app"
ISVC_LABEL = "serving.kserve.io/inferenceservice"
COMPONENT_LABEL = "component"
HTTP_PORT = 80  # constants.CommonDefaultHttpPort
CONTAINER_PORT = 8080  # constants.InferenceServiceDefaultHttpPort
DEFAULT_CPU_UTILIZATION = 80


def predictor_name(isvc_name: str) -> str:
    """constants.PredictorServiceName without a predictor name."""
    return f"{isvc_name}-predictor"


def app_label(name: str) -> str:
    """constants.GetRawServiceLabel."""
    return f"isvc.{name}"


def object_meta(isvc: dict[str, Any], runtime_spec: dict[str, Any], annotations: dict[str, str],
                config: IsvcConfig) -> dict[str, Any]:
    """buildObjectMeta: labels runtime < isvc < predictor < component labels; annotations runtime < isvc < predictor.

    `annotations` are the InferenceService's filtered annotations plus the storage annotations.
    """
    meta = isvc["metadata"]
    predictor = isvc["spec"]["predictor"]
    name = predictor_name(meta["name"])
    labels = {**(runtime_spec.get("labels") or {}), **(meta.get("labels") or {}), **(predictor.get("labels") or {}),
              ISVC_LABEL: meta["name"], COMPONENT_LABEL: "predictor", APP_LABEL: app_label(name)}
    merged = {**allowed(runtime_spec.get("annotations"), config), **annotations,
              **allowed(predictor.get("annotations"), config)}
    return {"name": name, "namespace": meta["namespace"], "labels": labels, "annotations": merged}


def allowed(annotations: dict[str, str] | None, config: IsvcConfig) -> dict[str, str]:
    """utils.Filter with ServiceAnnotationDisallowedList."""
    return {k: v for k, v in (annotations or {}).items() if k not in config.disallowed_annotations}


def _meta(meta: dict[str, Any], owner: dict[str, Any] | None) -> dict[str, Any]:
    out = {k: copy.deepcopy(v) for k, v in meta.items() if v}
    if owner is not None:
        out["ownerReferences"] = [owner]
    return out


def deployment(meta: dict[str, Any], predictor: dict[str, Any], pod: dict[str, Any], config: IsvcConfig,
               owner: dict[str, Any] | None) -> dict[str, Any]:
    """createRawDefaultDeployment for a single-node predictor."""
    spec: dict[str, Any] = {}
    annotations = meta.get("annotations") or {}
    if predictor.get("minReplicas") is not None and annotations.get(AUTOSCALER_CLASS) == "none":
        spec["replicas"] = predictor["minReplicas"]
    spec["selector"] = {"matchLabels": {APP_LABEL: app_label(meta["name"])}}
    spec["template"] = {"metadata": _meta(meta, None), "spec": with_pod_defaults(pod)}
    if predictor.get("deploymentStrategy") is not None:
        spec["strategy"] = copy.deepcopy(predictor["deploymentStrategy"])
    else:
        strategy: dict[str, Any] = {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}}
        if config.default_deployment_mode == STANDARD and config.rollout is not None:
            surge, unavailable = config.rollout
            if surge:
                strategy["rollingUpdate"]["maxSurge"] = surge
            if unavailable:
                strategy["rollingUpdate"]["maxUnavailable"] = unavailable
        spec["strategy"] = strategy
        spec["revisionHistoryLimit"] = 10
        spec["progressDeadlineSeconds"] = 600
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": _meta(meta, owner), "spec": spec}


def with_pod_defaults(pod: dict[str, Any]) -> dict[str, Any]:
    """setDefaultPodSpec, then Go's field order and canonical quantities (the object goes through encoding/json)."""
    pod = copy.deepcopy(pod)
    pod.setdefault("dnsPolicy", "ClusterFirst")
    pod.setdefault("restartPolicy", "Always")
    pod.setdefault("terminationGracePeriodSeconds", 30)
    pod.setdefault("securityContext", {})
    pod.setdefault("schedulerName", "default-scheduler")
    for container in pod.get("containers") or []:
        container.setdefault("terminationMessagePath", "/dev/termination-log")
        container.setdefault("terminationMessagePolicy", "File")
        container.setdefault("imagePullPolicy", "IfNotPresent")
        if container.get("name") in (KSERVE_CONTAINER, TRANSFORMER_CONTAINER) and container.get("readinessProbe") is None:
            ports = container.get("ports") or []
            port = ports[0].get("containerPort", 0) if ports else CONTAINER_PORT
            container["readinessProbe"] = {"tcpSocket": {"port": port}, "timeoutSeconds": 1, "periodSeconds": 10,
                                           "successThreshold": 1, "failureThreshold": 3}
    return go_pod_spec(pod)


def go_pod_spec(pod: dict[str, Any]) -> dict[str, Any]:
    """A pod spec in corev1.PodSpec field order, containers in corev1.Container order, quantities canonical."""
    out = _ordered(pod, POD_SPEC_FIELDS)
    for key in ("initContainers", "containers"):
        if key in out:
            out[key] = [_container(c) for c in out[key]]
    return out


def _container(container: dict[str, Any]) -> dict[str, Any]:
    out = _ordered(container, CONTAINER_FIELDS)
    resources = out.get("resources")
    if isinstance(resources, dict):
        for kind in ("limits", "requests"):
            if isinstance(resources.get(kind), dict):
                resources[kind] = {k: canonical_quantity(v) for k, v in resources[kind].items()}
    return out


def _ordered(obj: dict[str, Any], order: tuple[str, ...]) -> dict[str, Any]:
    out = {k: obj[k] for k in order if k in obj}
    out.update((k, v) for k, v in obj.items() if k not in out)
    return out


def service(meta: dict[str, Any], pod: dict[str, Any], config: IsvcConfig, owner: dict[str, Any] | None) -> dict[str, Any]:
    """createDefaultSvc: port 80 to the first port of the first container (or the transformer), else to 8080."""
    ports: list[dict[str, Any]] = []
    containers = pod.get("containers") or []
    if containers:
        container = next((c for c in containers if c.get("name") == TRANSFORMER_CONTAINER), containers[0])
        container_ports = container.get("ports") or []
        if container_ports:
            first = container_ports[0]
            ports.append(_port(first.get("name", ""), HTTP_PORT, first.get("containerPort", 0), first.get("protocol", "")))
            for port in container_ports[1:]:
                ports.append(_port(port.get("name", ""), port.get("containerPort", 0), port.get("containerPort", 0),
                                   port.get("protocol") or "TCP"))
        else:
            ports.append(_port(meta["name"], HTTP_PORT, CONTAINER_PORT, "TCP"))
    spec: dict[str, Any] = {}
    if ports:
        spec["ports"] = ports
    spec["selector"] = {APP_LABEL: app_label(meta["name"])}
    if config.service_cluster_ip_none:
        spec["clusterIP"] = "None"
    return {"apiVersion": "v1", "kind": "Service", "metadata": _meta(meta, owner), "spec": spec}


def _port(name: str, port: int, target: int, protocol: str) -> dict[str, Any]:
    """corev1.ServicePort in Go field order; gRPC/h2c names get appProtocol kubernetes.io/h2c."""
    out: dict[str, Any] = {}
    if name:
        out["name"] = name
    if protocol:
        out["protocol"] = protocol
    if "grpc" in name or "h2c" in name:
        out["appProtocol"] = "kubernetes.io/h2c"
    out["port"] = port
    out["targetPort"] = target
    return out


def creates_hpa(meta: dict[str, Any]) -> bool:
    """shouldCreateHPA: no autoscaler class annotation, or `hpa`."""
    annotations = meta.get("annotations") or {}
    return annotations.get(AUTOSCALER_CLASS, "hpa") == "hpa"


def hpa(meta: dict[str, Any], predictor: dict[str, Any], owner: dict[str, Any] | None) -> dict[str, Any]:
    """createHPA: min replicas at least 1, max at least min, metrics, an empty behavior."""
    min_replicas = predictor.get("minReplicas")
    if min_replicas is None or min_replicas < 1:
        min_replicas = 1
    max_replicas = max(predictor.get("maxReplicas") or 0, min_replicas)
    spec: dict[str, Any] = {
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": meta["name"]},
        "minReplicas": min_replicas,
        "maxReplicas": max_replicas,
    }
    metrics = hpa_metrics(predictor)
    if metrics:
        spec["metrics"] = metrics
    spec["behavior"] = {}
    return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": _meta(meta, owner), "spec": spec}


def hpa_metrics(predictor: dict[str, Any]) -> list[dict[str, Any]]:
    """getHPAMetrics: `autoScaling.metrics` of type Resource, else `scaleMetric`/`scaleTarget` (CPU 80% by default)."""
    auto = predictor.get("autoScaling")
    if auto is not None:
        out = []
        for metric in auto.get("metrics") or []:
            resource = metric.get("resource")
            if resource is None:
                continue
            target = resource.get("target") or {}
            if resource.get("name") == "cpu":
                utilization = target.get("averageUtilization")
                out.append(_resource_metric("cpu", {"type": "Utilization", "averageUtilization":
                                                    DEFAULT_CPU_UTILIZATION if utilization is None else utilization}))
            elif resource.get("name") == "memory":
                goal: dict[str, Any] = {"type": ""}  # MetricTarget.type has no omitempty
                if target.get("type") == "Utilization":
                    goal = {"type": "Utilization"}
                    if target.get("averageUtilization") is not None:
                        goal["averageUtilization"] = target["averageUtilization"]
                elif target.get("type") == "AverageValue":
                    goal = {"type": "AverageValue"}
                    if target.get("averageValue") is not None:
                        goal["averageValue"] = canonical_quantity(target["averageValue"])
                out.append(_resource_metric("memory", goal))
        return out
    metric = predictor.get("scaleMetric") or "cpu"
    target = predictor.get("scaleTarget")
    if metric == "cpu":
        return [_resource_metric("cpu", {"type": "Utilization",
                                         "averageUtilization": DEFAULT_CPU_UTILIZATION if target is None else target})]
    if metric == "memory" and target is not None:
        return [_resource_metric("memory", {"type": "Utilization", "averageUtilization": target})]
    return []


def _resource_metric(name: str, target: dict[str, Any]) -> dict[str, Any]:
    return {"type": "Resource", "resource": {"name": name, "target": target}}
