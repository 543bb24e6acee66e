"""IsvcConfig: KServe's shipped inferenceservice-config, and a user's ConfigMap read as the controller reads it.

Facts: pkg/apis/serving/v1beta1/configmap.go (NewDeployConfig, NewIngressConfig,
NewInferenceServicesConfig, NewServiceConfig, NewSecurityConfig, GetStorageInitializerConfigs)
and pkg/constants ServiceAnnotationDisallowedList.
"""

from __future__ import annotations

import json

import pytest
import yaml

from llmc.core.errors import LlmcError
from llmc.isvc.config import DISALLOWED_ANNOTATIONS, IngressConfig, IsvcConfig, StorageInitializerConfig


def configmap(**data: object) -> dict:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "inferenceservice-config"},
            "data": {k: json.dumps(v) for k, v in data.items()}}


def test_defaults_are_the_shipped_configmap(upstream) -> None:
    shipped = yaml.safe_load((upstream / "kserve" / "config" / "inferenceservice-configmap.yaml").read_text())
    assert IsvcConfig.from_configmap(shipped) == IsvcConfig()


def test_shipped_values() -> None:
    # config/configmap/inferenceservice.yaml: deploy "Serverless" (NewDeployConfig makes it Knative),
    # ingressClassName istio, domain example.com, storage-initializer image and resources.
    config = IsvcConfig()
    assert config.default_deployment_mode == "Knative"
    assert config.ingress == IngressConfig(ingress_class_name="istio", ingress_domain="example.com",
                                           domain_template="{{ .Name }}-{{ .Namespace }}.{{ .IngressDomain }}")
    assert config.storage_initializer == StorageInitializerConfig(
        image="kserve/storage-initializer:latest", cpu_request="100m", cpu_limit="1",
        memory_request="100Mi", memory_limit="1Gi", ca_bundle_configmap_name="",
        ca_bundle_volume_mount_path="/etc/ssl/custom-certs")
    assert config.automount_service_account_token is True
    assert config.service_cluster_ip_none is False


@pytest.mark.parametrize(("given", "mode"), [("RawDeployment", "Standard"), ("Serverless", "Knative"),
                                             ("Standard", "Standard"), ("ModelMesh", "ModelMesh")])
def test_legacy_deployment_modes_are_normalised(given: str, mode: str) -> None:
    config = IsvcConfig.from_configmap(configmap(deploy={"defaultDeploymentMode": given}, storageInitializer=_SI))
    assert config.default_deployment_mode == mode


def test_unknown_deployment_mode_is_refused() -> None:
    with pytest.raises(LlmcError, match="invalid deployment mode. Supported modes are Knative, Standard and ModelMesh"):
        IsvcConfig.from_configmap(configmap(deploy={"defaultDeploymentMode": "Raw"}, storageInitializer=_SI))


_SI = {"memoryRequest": "100Mi", "memoryLimit": "1Gi", "cpuRequest": "100m", "cpuLimit": "1"}


def test_keys_merge_over_the_shipped_ones_field_by_field() -> None:
    # Like llmc.kserve.settings: an absent key keeps KServe's shipped values, a given key sets the fields it names.
    config = IsvcConfig.from_configmap(configmap(ingress={"ingressDomain": "models.example.com"}))
    assert config.ingress == IngressConfig(ingress_domain="models.example.com")
    assert config.storage_initializer == StorageInitializerConfig()
    assert config.default_deployment_mode == "Knative"
    assert config.automount_service_account_token is True
    assert IsvcConfig.from_configmap(configmap()) == IsvcConfig()


def test_disallowed_annotations_extend_the_builtin_list() -> None:
    config = IsvcConfig.from_configmap(configmap(storageInitializer=_SI,
                                                 inferenceService={"serviceAnnotationDisallowedList": ["my/key"]}))
    assert config.disallowed_annotations == DISALLOWED_ANNOTATIONS + ("my/key",)
    assert "modelFormat" in DISALLOWED_ANNOTATIONS
    assert "internal.serving.kserve.io/storage-initializer-sourceuri" in DISALLOWED_ANNOTATIONS


def test_rollout_strategy_is_read() -> None:
    config = IsvcConfig.from_configmap(configmap(storageInitializer=_SI, deploy={
        "defaultDeploymentMode": "Standard",
        "deploymentRolloutStrategy": {"defaultRollout": {"maxSurge": "1", "maxUnavailable": "0"}}}))
    assert config.rollout == ("1", "0")


def test_storage_initializer_quantities_must_parse() -> None:
    with pytest.raises(LlmcError, match='failed to parse resource configuration for "storageInitializer"."memoryRequest"'):
        IsvcConfig.from_configmap(configmap(storageInitializer={"memoryRequest": "lots"}))


def test_ingress_gateway_is_required() -> None:
    with pytest.raises(LlmcError, match="invalid ingress config - ingressGateway is required"):
        IsvcConfig.from_configmap(configmap(ingress={"ingressGateway": ""}))


def test_empty_deployment_mode_is_refused() -> None:
    with pytest.raises(LlmcError, match="invalid deploy config, defaultDeploymentMode is required"):
        IsvcConfig.from_configmap(configmap(deploy={"defaultDeploymentMode": ""}))


def test_a_non_configmap_is_a_usage_error() -> None:
    with pytest.raises(LlmcError) as info:
        IsvcConfig.from_configmap({"kind": "Secret"})
    assert info.value.exit_code == 2
