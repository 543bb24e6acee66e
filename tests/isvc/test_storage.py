"""The pod webhook's storage initializer: KServe's pkg/webhook/admission/pod/storage_initializer_injector_test.go
(TestStorageInitializerInjector, TestDirectVolumeMountForPvc, TestCustomSpecStorageUriInjection,
TestCaBundleConfigMapVolumeMountInStorageInitializer, TestStorageContainerCRDInjection,
TestExplicitStorageContainerName, TestStorageInitializerUIDForIstioCNI) and utils_test.go
TestValidateStorageURIForDefaultStorageInitializer."""

from __future__ import annotations

import pytest

from llmc.core.errors import LlmcError
from llmc.isvc.config import StorageInitializerConfig
from llmc.isvc.storage import StorageContainer, inject, storage_container_from, validate_storage_uri

from .helpers import builtin_runtimes

SOURCE = "internal.serving.kserve.io/storage-initializer-sourceuri"
RESOURCES = {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "100m", "memory": "100Mi"}}
HF_ENV = [{"name": "HF_HUB_ENABLE_HF_TRANSFER", "value": "1"}, {"name": "HF_XET_HIGH_PERFORMANCE", "value": "1"},
          {"name": "HF_XET_NUM_CONCURRENT_RANGE_GETS", "value": "8"}]
PROVISION_RO = {"name": "kserve-provision-location", "readOnly": True, "mountPath": "/mnt/models"}
PROVISION_RW = {"name": "kserve-provision-location", "mountPath": "/mnt/models"}


def run(uri: str | None, pod: dict | None = None, config: StorageInitializerConfig = StorageInitializerConfig(),
        containers: list[StorageContainer] | None = None, namespace: str = "default", **annotations: str) -> dict:
    pod = pod or {"containers": [{"name": "kserve-container"}]}
    meta = {"annotations": ({SOURCE: uri} if uri is not None else {}) | annotations}
    inject(meta, pod, config, containers or [], namespace)
    return pod


def test_missing_annotation_changes_nothing() -> None:
    assert run(None) == {"containers": [{"name": "kserve-container"}]}


def test_already_injected_changes_nothing() -> None:
    pod = {"containers": [{"name": "kserve-container"}], "initContainers": [{"name": "storage-initializer"}]}
    assert run("gs://foo", pod) == {"containers": [{"name": "kserve-container"}],
                                    "initContainers": [{"name": "storage-initializer"}]}


def test_storage_initializer_injected() -> None:
    pod = run("gs://foo")
    assert pod["containers"] == [{"name": "kserve-container", "volumeMounts": [PROVISION_RO]}]
    assert pod["initContainers"] == [{
        "name": "storage-initializer", "image": "kserve/storage-initializer:latest", "args": ["gs://foo", "/mnt/models"],
        "resources": RESOURCES, "terminationMessagePolicy": "FallbackToLogsOnError",
        "volumeMounts": [PROVISION_RW], "env": HF_ENV}]
    assert pod["volumes"] == [{"name": "kserve-provision-location", "emptyDir": {}}]


def test_readonly_false_annotation() -> None:
    pod = run("gs://foo", **{"storage.kserve.io/readonly": "false"})
    assert pod["containers"][0]["volumeMounts"] == [PROVISION_RW]


@pytest.mark.parametrize(("uri", "sub_path"), [("pvc://mypvcname/some/path/on/pvc", "some/path/on/pvc"),
                                               ("pvc://mypvcname", None)])
def test_pvc_is_mounted_directly(uri: str, sub_path: str | None) -> None:
    pod = run(uri)
    mount = {"name": "kserve-pvc-source", "readOnly": True, "mountPath": "/mnt/models"}
    if sub_path:
        mount["subPath"] = sub_path
    assert pod == {"containers": [{"name": "kserve-container", "volumeMounts": [mount]}],
                   "volumes": [{"name": "kserve-pvc-source", "persistentVolumeClaim": {"claimName": "mypvcname"}}]}


def test_storage_uri_env_points_at_the_mount() -> None:
    # TestCustomSpecStorageUriInjection/CustomSpecStorageUriSet
    pod = {"containers": [{"name": "kserve-container", "env": [{"name": "STORAGE_URI", "value": "pvc://mypvcname/x"}]}]}
    assert run("pvc://mypvcname/x", pod)["containers"][0]["env"] == [{"name": "STORAGE_URI", "value": "/mnt/models"}]


def test_transformer_container_gets_the_mount_too() -> None:
    pod = run("s3://b/m", {"containers": [{"name": "kserve-container"}, {"name": "transformer-container"}]})
    assert pod["containers"][1]["volumeMounts"] == [PROVISION_RO]


def test_no_serving_container_is_an_error() -> None:
    with pytest.raises(LlmcError, match="Invalid configuration: cannot find container"):
        run("gs://foo", {"containers": [{"name": "other"}]})


def test_ca_bundle_outside_kserve_namespace_uses_the_global_bundle() -> None:
    # TestCaBundleConfigMapVolumeMountInStorageInitializer/MountsCaBundleConfigMapVolumeWhenCaBundleConfigMapNameSet
    config = StorageInitializerConfig(ca_bundle_configmap_name="custom-certs", ca_bundle_volume_mount_path="")
    pod = run("gs://foo", config=config)
    init = pod["initContainers"][0]
    assert init["env"] == [{"name": "CA_BUNDLE_CONFIGMAP_NAME", "value": "global-ca-bundle"},
                           {"name": "CA_BUNDLE_VOLUME_MOUNT_POINT", "value": "/etc/ssl/custom-certs"}, *HF_ENV]
    assert init["volumeMounts"][1] == {"name": "cabundle-cert", "readOnly": True, "mountPath": "/etc/ssl/custom-certs"}
    assert pod["volumes"][1] == {"name": "cabundle-cert", "configMap": {"name": "global-ca-bundle"}}
    in_kserve = run("gs://foo", config=config, namespace="kserve")
    assert in_kserve["volumes"][1]["configMap"] == {"name": "custom-certs"}


S3_AZURE = StorageContainer("s3-azure", {
    "container": {"image": "kserve/storage-initializer:latest", "resources": {"limits": {"memory": "500Mi"}},
                  "env": [{"name": "name", "value": "value"}]},
    "supportedUriFormats": [{"prefix": "s3://"}, {"regex": "https://(.+?).blob.core.windows.net/(.+)"}],
    "workloadType": "initContainer"})
CUSTOM = StorageContainer("custom", {"container": {"image": "kserve/storage-initializer:latest",
                                                   "resources": {"limits": {"memory": "200Mi"}}},
                                     "supportedUriFormats": [{"prefix": "custom://"}], "workloadType": "initContainer"})


def test_storage_container_is_merged_into_the_init_container() -> None:
    # TestStorageContainerCRDInjection/s3: the CR's memory limit and env, the configured rest, then the HF env.
    init = run("s3://foo", containers=[S3_AZURE, CUSTOM])["initContainers"][0]
    assert init["resources"] == {"limits": {"cpu": "1", "memory": "500Mi"}, "requests": {"cpu": "100m", "memory": "100Mi"}}
    assert init["env"] == [{"name": "name", "value": "value"}, *HF_ENV]


def test_uri_not_matched_keeps_the_configured_container() -> None:
    # TestStorageContainerCRDInjection/"Default config if storage uri not matched in CRs"
    init = run("gs://foo", containers=[S3_AZURE, CUSTOM])["initContainers"][0]
    assert init["resources"] == RESOURCES and init["env"] == HF_ENV


def test_storage_container_by_name() -> None:
    # TestExplicitStorageContainerName: the named container, with its eligibility checks.
    annotation = "internal.serving.kserve.io/storage-container-name"
    init = run("custom://m", containers=[S3_AZURE, CUSTOM], **{annotation: "custom"})["initContainers"][0]
    assert init["resources"]["limits"]["memory"] == "200Mi"
    with pytest.raises(LlmcError, match='ClusterStorageContainer "custom" does not support storageUri "s3://m"'):
        run("s3://m", containers=[S3_AZURE, CUSTOM], **{annotation: "custom"})
    with pytest.raises(LlmcError, match='ClusterStorageContainer "missing" not found'):
        run("s3://m", containers=[S3_AZURE], **{annotation: "missing"})


def test_builtin_default_storage_container() -> None:
    # config/storagecontainer.yaml: hf:// is supported; the container adds imagePullPolicy IfNotPresent.
    [default] = [storage_container_from(d) for d in builtin_runtimes() if d.kind == "ClusterStorageContainer"]
    init = run("hf://org/model", containers=[default])["initContainers"][0]
    assert init["imagePullPolicy"] == "IfNotPresent"
    assert init["resources"] == RESOURCES
    assert init["args"] == ["hf://org/model", "/mnt/models"]


def test_builtin_storage_container_matches_kserve(upstream) -> None:
    import yaml

    theirs = yaml.safe_load((upstream / "kserve" / "config" / "storagecontainer.yaml").read_text())
    [ours] = [d.obj for d in builtin_runtimes() if d.kind == "ClusterStorageContainer"]
    assert ours == theirs


def test_storage_initializer_uid_annotation() -> None:
    # TestStorageInitializerUIDForIstioCNI: serving.kserve.io/storage-initializer-uid sets runAsUser.
    pod = run("gs://foo", **{"serving.kserve.io/storage-initializer-uid": "1337"})
    assert pod["initContainers"][0]["securityContext"] == {"runAsUser": 1337}
    assert "securityContext" not in run("gs://foo", **{"serving.kserve.io/storage-initializer-uid": "x"})["initContainers"][0]


def test_gke_accelerator_selector() -> None:
    # InjectGKEAcceleratorSelector: GPU containers plus the annotation give a node selector.
    pod = {"containers": [{"name": "kserve-container", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}
    out = run("gs://foo", pod, **{"serving.kserve.io/gke-accelerator": "nvidia-tesla-t4"})
    assert out["nodeSelector"] == {"cloud.google.com/gke-accelerator": "nvidia-tesla-t4"}


@pytest.mark.parametrize("uri", ["gs://bucket/model", "s3://bucket/model", "pvc://claim/path", "hf://org/model",
                                 "https://account.blob.core.windows.net/container/model", "https://host/model.tar",
                                 "/local/path", "relative/path"])
def test_valid_storage_uris(uri: str) -> None:
    validate_storage_uri(uri, [])


def test_invalid_storage_uri_message() -> None:
    # UnsupportedStorageURIFormatError wrapped by addStorageInitializerAnnotations.
    with pytest.raises(LlmcError) as info:
        validate_storage_uri("ftp://x/y", [])
    assert info.value.message == (
        "StorageURI not supported: storageUri, must be one of: [gs://, s3://, pvc://, file://, https://, http://, "
        "hdfs://, webhdfs://, oci://, oci+native://, oci+fetch://, hf://] or match "
        "https://{}.blob.core.windows.net/{}/{} or be an absolute or relative local path. StorageUri [ftp://x/y] is not supported")


def test_storage_container_makes_a_uri_valid() -> None:
    custom = StorageContainer("c", {"container": {}, "supportedUriFormats": [{"prefix": "ftp://"}],
                                    "workloadType": "initContainer"})
    validate_storage_uri("ftp://x/y", [custom])
