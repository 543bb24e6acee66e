"""What the InferenceService controller and its pod webhook read from `inferenceservice-config`.

`IsvcConfig()` holds the values of the ConfigMap KServe ships
(config/configmap/inferenceservice.yaml). `IsvcConfig.from_configmap` reads a user's
ConfigMap key by key, as `llmc.kserve.settings` does: a key the ConfigMap has sets the fields
it names over the shipped ones, an absent key keeps the shipped values (so a ConfigMap
with only the keys a user changed works). Each key is then read as the v1beta1
controller reads it (configmap.go): legacy deployment modes normalised, the ingress
defaults, the storage-initializer quantities checked.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from llmc.core.errors import LlmcError, Location
from llmc.k8s.quantity import parse_quantity
from llmc.core.record import field, record

STANDARD, KNATIVE, MODELMESH = "Standard", "Knative", "ModelMesh"
# Deprecated spellings the controller rewrites (constants.LegacyRawDeployment / LegacyServerless).
LEGACY_MODES = {"RawDeployment": STANDARD, "Serverless": KNATIVE}

DEFAULT_DOMAIN_TEMPLATE = "{{ .Name }}-{{ .Namespace }}.{{ .IngressDomain }}"
DEFAULT_INGRESS_DOMAIN = "example.com"

# constants.ServiceAnnotationDisallowedList: never copied from the InferenceService to its children.
DISALLOWED_ANNOTATIONS: tuple[str, ...] = (
    "autoscaling.knative.dev/min-scale",
    "autoscaling.knative.dev/max-scale",
    "internal.serving.kserve.io/storage-initializer-sourceuri",
    "kubectl.kubernetes.io/last-applied-configuration",
    "modelFormat",
)


@record(frozen=True)
class IngressConfig:
    """The `ingress` key, after NewIngressConfig's defaults."""

    enable_gateway_api: bool = False
    ingress_class_name: str | None = "istio"
    ingress_domain: str = DEFAULT_INGRESS_DOMAIN
    domain_template: str = DEFAULT_DOMAIN_TEMPLATE
    disable_ingress_creation: bool = False


@record(frozen=True)
class StorageInitializerConfig:
    """The `storageInitializer` key (types.StorageInitializerConfig), as far as the init container uses it."""

    image: str = "kserve/storage-initializer:latest"
    cpu_request: str = "100m"
    cpu_limit: str = "1"
    memory_request: str = "100Mi"
    memory_limit: str = "1Gi"
    ca_bundle_configmap_name: str = ""
    ca_bundle_volume_mount_path: str = "/etc/ssl/custom-certs"


@record(frozen=True)
class IsvcConfig:
    """The cluster configuration one InferenceService render depends on; defaults are KServe's shipped values."""

    default_deployment_mode: str = KNATIVE  # shipped "Serverless", normalised by NewDeployConfig
    rollout: tuple[str, str] | None = None  # deploy.deploymentRolloutStrategy.defaultRollout (maxSurge, maxUnavailable)
    ingress: IngressConfig = field(default_factory=IngressConfig)
    storage_initializer: StorageInitializerConfig = field(default_factory=StorageInitializerConfig)
    service_cluster_ip_none: bool = False
    disallowed_annotations: tuple[str, ...] = DISALLOWED_ANNOTATIONS
    automount_service_account_token: bool = True

    @classmethod
    def from_configmap(cls, obj: dict[str, Any], file: str = "<input>") -> "IsvcConfig":
        """Read KServe's `inferenceservice-config` ConfigMap object as the controller does."""
        if obj.get("kind") != "ConfigMap":
            raise LlmcError(f"expected a ConfigMap, found kind {obj.get('kind')!r}", Location(file, path="kind"), exit_code=2)
        return _Reader(obj.get("data") or {}, file).config()


# The keys of KServe's shipped ConfigMap this module reads, as parsed JSON (`service` is not shipped).
SHIPPED: dict[str, dict[str, Any]] = {
    "deploy": {"defaultDeploymentMode": "Serverless"},
    "ingress": {"enableGatewayApi": False, "kserveIngressGateway": "kserve/kserve-ingress-gateway",
                "ingressGateway": "knative-serving/knative-ingress-gateway", "ingressDomain": DEFAULT_INGRESS_DOMAIN,
                "ingressClassName": "istio", "domainTemplate": DEFAULT_DOMAIN_TEMPLATE, "disableIngressCreation": False},
    "storageInitializer": {"image": "kserve/storage-initializer:latest", "memoryRequest": "100Mi", "memoryLimit": "1Gi",
                           "cpuRequest": "100m", "cpuLimit": "1", "caBundleConfigMapName": "",
                           "caBundleVolumeMountPath": "/etc/ssl/custom-certs"},
    "inferenceService": {},
    "security": {"autoMountServiceAccountToken": True},
}


class _Reader:
    """Parses the JSON values of the ConfigMap's keys over the shipped ones; errors name the key."""

    def __init__(self, data: Mapping[str, Any], file: str) -> None:
        self.data = data
        self.file = file

    def fail(self, key: str, message: str) -> LlmcError:
        return LlmcError(message, Location(self.file, path=f"data.{key}"), exit_code=2)

    def section(self, key: str, what: str) -> dict[str, Any]:
        """The key's fields over the shipped key's (empty when neither has the key)."""
        if key not in self.data:
            return SHIPPED.get(key, {})
        try:
            value = json.loads(self.data[key])
        except (TypeError, json.JSONDecodeError) as exc:
            raise self.fail(key, f"unable to parse {what} config json: {exc}") from None
        if not isinstance(value, dict):
            raise self.fail(key, f"unable to parse {what} config json: not a JSON object")
        return {**SHIPPED.get(key, {}), **value}

    def typed(self, key: str, section: dict[str, Any], name: str, kind: type, default: Any) -> Any:
        value = section.get(name)
        if value is None:
            return default
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise self.fail(key, f"data.{key}: {name} must be a {kind.__name__ if kind is not str else 'string'}")
        return value

    def config(self) -> IsvcConfig:
        mode, rollout = self.deploy()
        return IsvcConfig(
            default_deployment_mode=mode,
            rollout=rollout,
            ingress=self.ingress(),
            storage_initializer=self.storage_initializer(),
            service_cluster_ip_none=self.typed("service", self.section("service", "service"),
                                               "serviceClusterIPNone", bool, False),
            disallowed_annotations=self.disallowed(),
            automount_service_account_token=self.typed("security", self.section("security", "security"),
                                                       "autoMountServiceAccountToken", bool, False),
        )

    def deploy(self) -> tuple[str, tuple[str, str] | None]:
        """NewDeployConfig: the mode is required, legacy names are normalised."""
        section = self.section("deploy", "deploy")
        mode = self.typed("deploy", section, "defaultDeploymentMode", str, "")
        if mode == "":
            raise self.fail("deploy", "invalid deploy config, defaultDeploymentMode is required")
        mode = LEGACY_MODES.get(mode, mode)
        if mode not in (KNATIVE, STANDARD, MODELMESH):
            raise self.fail("deploy", "invalid deployment mode. Supported modes are Knative, Standard and ModelMesh")
        strategy = self.typed("deploy", section, "deploymentRolloutStrategy", dict, {})
        default = strategy.get("defaultRollout")
        if not isinstance(default, dict):
            return mode, None
        surge = self.typed("deploy", default, "maxSurge", str, "")
        unavailable = self.typed("deploy", default, "maxUnavailable", str, "")
        return mode, (surge, unavailable)

    def ingress(self) -> IngressConfig:
        section = self.section("ingress", "ingress")
        gateway_api = self.typed("ingress", section, "enableGatewayApi", bool, False)
        if gateway_api and not self.typed("ingress", section, "kserveIngressGateway", str, ""):
            raise self.fail("ingress", "invalid ingress config - kserveIngressGateway is required")
        if not self.typed("ingress", section, "ingressGateway", str, ""):
            raise self.fail("ingress", "invalid ingress config - ingressGateway is required")
        return IngressConfig(
            enable_gateway_api=gateway_api,
            ingress_class_name=self.typed("ingress", section, "ingressClassName", str, None),
            ingress_domain=self.typed("ingress", section, "ingressDomain", str, "") or DEFAULT_INGRESS_DOMAIN,
            domain_template=self.typed("ingress", section, "domainTemplate", str, "") or DEFAULT_DOMAIN_TEMPLATE,
            disable_ingress_creation=self.typed("ingress", section, "disableIngressCreation", bool, False),
        )

    def storage_initializer(self) -> StorageInitializerConfig:
        """GetStorageInitializerConfigs: the four resource values must parse as quantities."""
        key = "storageInitializer"
        section = self.section(key, key)
        values = {name: self.typed(key, section, name, str, "")
                  for name in ("memoryRequest", "memoryLimit", "cpuRequest", "cpuLimit")}
        for name, value in values.items():
            try:
                parse_quantity(value)
            except ValueError as exc:
                raise self.fail(key, f'failed to parse resource configuration for "{key}"."{name}": {exc}') from None
        return StorageInitializerConfig(
            image=self.typed(key, section, "image", str, ""),
            cpu_request=values["cpuRequest"],
            cpu_limit=values["cpuLimit"],
            memory_request=values["memoryRequest"],
            memory_limit=values["memoryLimit"],
            ca_bundle_configmap_name=self.typed(key, section, "caBundleConfigMapName", str, ""),
            ca_bundle_volume_mount_path=self.typed(key, section, "caBundleVolumeMountPath", str, ""),
        )

    def disallowed(self) -> tuple[str, ...]:
        """NewInferenceServicesConfig: the built-in list plus the configured one."""
        section = self.section("inferenceService", "isvc")
        extra = self.typed("inferenceService", section, "serviceAnnotationDisallowedList", list, [])
        return DISALLOWED_ANNOTATIONS + tuple(str(item) for item in extra)
