"""Cluster-wide settings the controller reads from KServe's `inferenceservice-config` ConfigMap.

Defaults equal the ConfigMap KServe ships (config/configmap/inferenceservice.yaml);
`--kserve-config FILE` replaces them with a user's ConfigMap, key by key.
"""

from __future__ import annotations

import json
import re

from llmc.core.errors import LlmcError, Location
from llmc.core.record import field, record, replace

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

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


def settings_from_configmap(obj: dict[str, Any], file: str, system_namespace: str, locate=None) -> Settings:
    """Read the keys llmc needs from an `inferenceservice-config` ConfigMap object; `locate(path)`:
    the Location of a field in its document (llmc.load.documents.Document.locate), for errors."""

    def where(*path: str) -> Location:
        if locate is None:
            return Location(file, path=".".join(path))
        location = locate(path)
        location.path = ".".join(path)
        return location

    if obj.get("kind") != "ConfigMap":
        raise LlmcError(
            f"expected a ConfigMap, found kind {obj.get('kind')!r}",
            where("kind"),
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
                f"data.{key} is not valid JSON: {exc}", where("data", key), exit_code=2
            ) from None
        if not isinstance(parsed, dict):
            raise LlmcError(f"data.{key} must be a JSON object", where("data", key), exit_code=2)
        if key == "ingress":
            _check_ingress(parsed, where("data", "ingress"))
        merged = dict(getattr(base, attr))
        merged.update(parsed)
        values[attr] = merged
    return replace(base, **values)


_DNS1123_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")


def _check_ingress(ingress: dict[str, Any], where: Location) -> None:
    """`NewIngressConfig` (pkg/apis/serving/v1beta1/configmap.go): the controller refuses these, and then
    reconciles nothing at all."""
    def fail(message: str) -> None:
        raise LlmcError(f"invalid ingress config - {message}", where, exit_code=2,
                        hint="KServe's controller refuses this ConfigMap and reconciles no service")

    if ingress.get("enableGatewayAPI"):
        gateway = str(ingress.get("kserveIngressGateway") or "")
        if not gateway:
            fail("kserveIngressGateway is required")
        parts = gateway.split("/")
        if len(parts) != 2:
            fail("kserveIngressGateway should be in the format <namespace>/<name>")
        if not (len(parts[0]) <= 63 and _DNS1123_LABEL.fullmatch(parts[0])):
            fail("kserveIngressGateway gateway namespace is invalid")
        if not (len(parts[1]) <= 63 and _DNS1123_LABEL.fullmatch(parts[1])):
            fail("kserveIngressGateway gateway name is invalid")
    if not ingress.get("ingressGateway"):
        fail("ingressGateway is required")
    if ingress.get("pathTemplate") and not ingress.get("ingressDomain"):
        fail("ingressDomain is required if pathTemplate is given")
