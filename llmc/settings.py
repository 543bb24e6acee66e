"""Cluster-wide settings the controller reads from KServe's `inferenceservice-config` ConfigMap.

Defaults equal the ConfigMap KServe ships (config/configmap/inferenceservice.yaml);
`--kserve-config FILE` replaces them with a user's ConfigMap, key by key.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import LlmcError, Location
from .record import field, record, replace

DEFAULT_INGRESS: dict[str, Any] = {
    "enableGatewayApi": False,
    "kserveIngressGateway": "kserve/kserve-ingress-gateway",
    "ingressGateway": "knative-serving/knative-ingress-gateway",
    "ingressDomain": "example.com",
    "urlScheme": "http",
}

DEFAULT_STORAGE_INITIALIZER: dict[str, Any] = {
    "image": "kserve/storage-initializer:latest",
    "memoryRequest": "100Mi",
    "memoryLimit": "1Gi",
    "cpuRequest": "100m",
    "cpuLimit": "1",
    "caBundleConfigMapName": "",
    "caBundleVolumeMountPath": "/etc/ssl/custom-certs",
    "enableModelcar": True,
    "cpuModelcar": "10m",
    "memoryModelcar": "15Mi",
    "uidModelcar": 1010,
}

@record(frozen=True)
class Settings:
    """What the controller knows about the cluster, as far as rendering depends on it."""

    system_namespace: str = "kserve"
    ingress: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_INGRESS))
    storage_initializer: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_STORAGE_INITIALIZER))
    wva: dict[str, Any] = field(default_factory=dict)  # autoscaling-wva-controller-config

    @property
    def enable_tls(self) -> bool:
        return bool(self.ingress.get("enableLLMInferenceServiceTLS", False))

    @property
    def ingress_gateway(self) -> tuple[str, str]:
        """(namespace, name) of the Gateway named by `kserveIngressGateway`, as NewIngressConfig splits it."""
        value = str(self.ingress.get("kserveIngressGateway", ""))
        parts = value.split("/")
        if len(parts) == 2:
            return parts[0], parts[1]
        return self.system_namespace, value

    @property
    def model_routing_header(self) -> str:
        return str(self.ingress.get("modelBasedRoutingHeaderName") or "X-Gateway-Model-Name")


_KEYS = {
    "ingress": "ingress",
    "storageInitializer": "storage_initializer",
    "autoscaling-wva-controller-config": "wva",
}


def settings_from_configmap(obj: dict[str, Any], file: str, system_namespace: str) -> Settings:
    """Read the keys llmc needs from an `inferenceservice-config` ConfigMap object."""
    if obj.get("kind") != "ConfigMap":
        raise LlmcError(
            f"expected a ConfigMap, found kind {obj.get('kind')!r}",
            Location(file, path="kind"),
            hint="--kserve-config takes KServe's inferenceservice-config ConfigMap",
            exit_code=2,
        )
    data = obj.get("data") or {}
    values: dict[str, Any] = {}
    base = Settings(system_namespace=system_namespace)
    for key, attr in _KEYS.items():
        if key not in data:
            continue
        try:
            parsed = json.loads(data[key])
        except (TypeError, json.JSONDecodeError) as exc:
            raise LlmcError(
                f"data.{key} is not valid JSON: {exc}", Location(file, path=f"data.{key}"), exit_code=2
            ) from None
        if not isinstance(parsed, dict):
            raise LlmcError(f"data.{key} must be a JSON object", Location(file, path=f"data.{key}"), exit_code=2)
        merged = dict(getattr(base, attr))
        merged.update(parsed)
        values[attr] = merged
    return replace(base, **values)
