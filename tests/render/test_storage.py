"""Model artifacts on a pod (reference 02 §3.2, §6 items 18-25; KServe workload_storage.go,
pkg/utils/storage.go, container_merge.go and their tests), and the Go URL round trip (llmc.go.url)."""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import pytest

from llmc.core.errors import LlmcError
from llmc.core.findings import Findings
from llmc.core.record import replace
from llmc.go.url import URLError, normalize, quote
from llmc.kserve.settings import Settings
from llmc.kserve.spec import Slot, find_container, parse_pvc_uri
from llmc.render import storage
from llmc.render.context import RenderContext, RenderOptions
from llmc.resolve import lora_adapters

INIT = "storage-initializer"
VOLUME = "kserve-provision-location"

# KServe's default storageInitializer resources (reference 02 §3.2 C2.2: chart defaults 1, 1Gi, 100m, 100Mi)
DEFAULT_RESOURCES = {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "100m", "memory": "100Mi"}}
HF_DEFAULTS = [
    {"name": "HF_HUB_ENABLE_HF_TRANSFER", "value": "1"},
    {"name": "HF_XET_HIGH_PERFORMANCE", "value": "1"},
    {"name": "HF_XET_NUM_CONCURRENT_RANGE_GETS", "value": "8"},
]
# controller_workload_storage_int_test.go isvcConfigPatchStorageInit
CA_SETTINGS = {"caBundleConfigMapName": "global-s3-custom-certs", "caBundleVolumeMountPath": "/path/to/globalcerts"}


def make_ctx(
    uri: str,
    pod: dict[str, Any],
    *,
    spec_extra: dict[str, Any] | None = None,
    storage_settings: dict[str, Any] | None = None,
    namespace: str = "ns",
    labels: dict[str, str] | None = None,
    annotations: dict[str, str] | None = None,
    adapters: list[dict[str, Any]] | None = None,
) -> RenderContext:
    model: dict[str, Any] = {"uri": uri}
    if adapters:
        model["lora"] = {"adapters": adapters}
    spec: dict[str, Any] = {"model": model, "template": pod, **(spec_extra or {})}
    meta: dict[str, Any] = {"name": "svc", "namespace": namespace}
    if labels:
        meta["labels"] = labels
    if annotations:
        meta["annotations"] = annotations
    service = {"metadata": meta, "spec": spec}
    settings = Settings()
    if storage_settings:
        settings = replace(settings, storage_initializer={**settings.storage_initializer, **storage_settings})
    ctx = RenderContext(service, spec, settings, RenderOptions(), Findings(f"{namespace}/svc"))
    ctx.lora_adapters = lora_adapters.enumerate_adapters(spec, service)
    return ctx


def run(
    uri: str,
    pod: dict[str, Any] | None = None,
    *,
    spec_extra: dict[str, Any] | None = None,
    storage_settings: dict[str, Any] | None = None,
    namespace: str = "ns",
    labels: dict[str, str] | None = None,
    annotations: dict[str, str] | None = None,
    adapters: list[dict[str, Any]] | None = None,
    key: str = "template",
) -> dict[str, Any]:
    pod = pod if pod is not None else {"containers": [{"name": "main"}]}
    ctx = make_ctx(
        uri, pod, spec_extra=spec_extra, storage_settings=storage_settings, namespace=namespace,
        labels=labels, annotations=annotations, adapters=adapters,
    )
    storage.apply(ctx, pod, Slot(key, ctx.spec))
    return pod


def container(pod: dict[str, Any], name: str, init: bool = False) -> dict[str, Any]:
    found = find_container(pod.get("initContainers" if init else "containers"), name)
    assert found is not None, name
    return found


# --- disabled, dispatch errors -------------------------------------------------------------------


@pytest.mark.parametrize("uri", ["hf://org/model", "s3://bucket/model", "pvc://claim/model", "oci://reg/img:tag"])
def test_disabled_storage_initializer_changes_nothing(uri: str) -> None:
    # reference 02 §3.2 step A, §6 item 18; "should NOT create storage-initializer when explicitly disabled"
    pod = {"initContainers": [{"name": INIT, "image": "mine", "args": ["x"]}], "containers": [{"name": "main"}]}
    before = copy.deepcopy(pod)
    run(uri, pod, spec_extra={"storageInitializer": {"enabled": False}})
    assert pod == before


def test_invalid_uri_is_checked_before_disabled() -> None:
    # attachModelArtifacts cuts "://" before looking at storageInitializer.enabled
    with pytest.raises(LlmcError) as err:
        run("org/model", spec_extra={"storageInitializer": {"enabled": False}})
    assert err.value.message == "invalid model URI: org/model"
    assert err.value.location is not None and err.value.location.path == "spec.model.uri"


@pytest.mark.parametrize("uri", ["gs://bucket/model", "https://example.com/m", "oci+modelcar://reg/img:tag"])
def test_unsupported_schemes(uri: str) -> None:
    # reference 02 §3.2 step C, §6 item 22
    with pytest.raises(LlmcError) as err:
        run(uri)
    assert err.value.message == f"unsupported schema in model URI: {uri}"


def test_empty_host_uri_becomes_invalid() -> None:
    # Go: url.Parse("hf://").String() == "hf:", which has no "://"
    with pytest.raises(LlmcError) as err:
        run("hf://")
    assert err.value.message == "invalid model URI: hf:"


# --- C2: single storage-initializer --------------------------------------------------------------


def test_hf_storage_initializer_shape_and_order() -> None:
    # reference 02 §3.2 C2 steps 2, 4, 5, 7 and §6 item 19 (appended last, after the routing sidecar)
    pod = {
        "initContainers": [{"name": "llm-d-routing-sidecar"}],
        "containers": [{"name": "main", "volumeMounts": [{"name": "tls-certs", "mountPath": "/var/run/kserve/tls"}]}],
        "volumes": [{"name": "tls-certs", "secret": {"secretName": "s"}}],
    }
    run("hf://user-id/repo-id:tag", pod)
    assert [c["name"] for c in pod["initContainers"]] == ["llm-d-routing-sidecar", INIT]
    assert pod["initContainers"][1] == {
        "name": INIT,
        "image": "kserve/storage-initializer:latest",
        "args": ["hf://user-id/repo-id:tag", "/mnt/models"],
        "resources": DEFAULT_RESOURCES,
        "terminationMessagePolicy": "FallbackToLogsOnError",
        "volumeMounts": [{"name": VOLUME, "mountPath": "/mnt/models"}],
        "env": HF_DEFAULTS,
    }
    assert pod["containers"][0]["volumeMounts"] == [
        {"name": "tls-certs", "mountPath": "/var/run/kserve/tls"},
        {"name": VOLUME, "readOnly": True, "mountPath": "/mnt/models"},
    ]
    assert pod["volumes"] == [{"name": "tls-certs", "secret": {"secretName": "s"}}, {"name": VOLUME, "emptyDir": {}}]


def test_configured_image_and_resources() -> None:
    pod = run(
        "hf://org/model",
        storage_settings={"image": "kserve/storage-initializer:v0.16.0", "cpuLimit": "2", "memoryRequest": "256Mi"},
    )
    init = container(pod, INIT, init=True)
    assert init["image"] == "kserve/storage-initializer:v0.16.0"
    assert init["resources"] == {"limits": {"cpu": "2", "memory": "1Gi"}, "requests": {"cpu": "100m", "memory": "256Mi"}}


def test_empty_image_falls_back_to_latest() -> None:
    # CreateInitContainerWithConfig: "kserve/storage-initializer" + ":latest" when the config image is empty
    pod = run("hf://org/model", storage_settings={"image": ""})
    assert container(pod, INIT, init=True)["image"] == "kserve/storage-initializer:latest"


def test_user_env_merged_and_hf_defaults_only_when_absent() -> None:
    # "should merge user-provided env vars into storage-initializer for hf:// URI" (user values win;
    # AddDefaultHuggingFaceEnvVars appends the missing defaults after the merge)
    user = {"name": INIT, "env": [{"name": "HF_XET_HIGH_PERFORMANCE", "value": "0"}, {"name": "TOKIO_WORKER_THREADS", "value": "1"}]}
    pod = run("hf://user-id/repo-id:tag", {"initContainers": [user], "containers": [{"name": "main"}]})
    init = container(pod, INIT, init=True)
    assert init["args"] == ["hf://user-id/repo-id:tag", "/mnt/models"]
    assert init["env"] == [
        {"name": "HF_XET_HIGH_PERFORMANCE", "value": "0"},
        {"name": "TOKIO_WORKER_THREADS", "value": "1"},
        {"name": "HF_HUB_ENABLE_HF_TRANSFER", "value": "1"},
        {"name": "HF_XET_NUM_CONCURRENT_RANGE_GETS", "value": "8"},
    ]


def test_user_override_keeps_image_and_resources_but_not_name_args_command() -> None:
    # TestMergeStorageInitializerContainer: "user overrides resources", "user overrides image",
    # "controller args preserved even if user sets them"; reference 02 §3.2 C2.3, §6 item 19
    user = {
        "name": INIT,
        "image": "my-registry/custom-storage:v2",
        "command": ["/bin/sh"],
        "args": ["should-be-ignored", "/wrong/path"],
        "resources": {"limits": {"cpu": "4", "memory": "8Gi"}, "requests": {"cpu": "2", "memory": "4Gi"}},
    }
    pod = {"initContainers": [user, {"name": "llm-d-routing-sidecar"}], "containers": [{"name": "main"}]}
    run("hf://model/x", pod)
    assert [c["name"] for c in pod["initContainers"]] == ["llm-d-routing-sidecar", INIT]
    init = pod["initContainers"][1]
    assert init["image"] == "my-registry/custom-storage:v2"
    assert init["args"] == ["hf://model/x", "/mnt/models"]
    assert "command" not in init
    assert init["resources"] == {"limits": {"cpu": "4", "memory": "8Gi"}, "requests": {"cpu": "2", "memory": "4Gi"}}


def test_user_mount_at_model_path_is_merged_by_mount_path() -> None:
    # strategic merge keys volumeMounts by mountPath; AddModelMount then skips nothing (different name)
    user = {"name": INIT, "volumeMounts": [{"name": "custom-certs", "mountPath": "/etc/certs"}]}
    pod = run("hf://org/model", {"initContainers": [user], "containers": [{"name": "main"}]})
    assert container(pod, INIT, init=True)["volumeMounts"] == [
        {"name": "custom-certs", "mountPath": "/etc/certs"},
        {"name": VOLUME, "mountPath": "/mnt/models"},
    ]


def test_confidential_env_single_uri() -> None:
    # TestAttachStorageInitializerConfidential "enabled sets env vars without swapping image"
    pod = run(
        "s3://bucket/model",
        spec_extra={"model": {"uri": "s3://bucket/model", "confidential": {"enabled": True, "resourceId": "kbs:///default/key/model-key"}}},
    )
    init = container(pod, INIT, init=True)
    assert init["image"] == "kserve/storage-initializer:latest"
    assert init["env"] == [
        {"name": "CONFIDENTIAL_ENABLED", "value": "true"},
        {"name": "CONFIDENTIAL_RESOURCE_ID", "value": "kbs:///default/key/model-key"},
    ]


def test_confidential_without_resource_id() -> None:
    # TestAttachStorageInitializerConfidential "enabled without resourceId"
    pod = run("s3://b/m", spec_extra={"model": {"uri": "s3://b/m", "confidential": {"enabled": True}}})
    assert container(pod, INIT, init=True)["env"] == [{"name": "CONFIDENTIAL_ENABLED", "value": "true"}]


def test_s3_without_ca_bundle_has_no_extra_env() -> None:
    pod = run("s3://user-id/repo-id:tag")
    init = container(pod, INIT, init=True)
    assert "env" not in init
    assert [v["name"] for v in pod["volumes"]] == [VOLUME]


def test_s3_ca_bundle_outside_kserve_namespace() -> None:
    # "should use storage-initializer to download model when uri starts with s3://": the configured
    # ConfigMap name is replaced by global-ca-bundle outside the KServe namespace
    pod = run("s3://user-id/repo-id:tag", storage_settings=CA_SETTINGS)
    init = container(pod, INIT, init=True)
    assert init["env"] == [
        {"name": "CA_BUNDLE_CONFIGMAP_NAME", "value": "global-ca-bundle"},
        {"name": "CA_BUNDLE_VOLUME_MOUNT_POINT", "value": "/path/to/globalcerts"},
    ]
    assert pod["volumes"] == [{"name": VOLUME, "emptyDir": {}}, {"name": "cabundle-cert", "configMap": {"name": "global-ca-bundle"}}]
    assert init["volumeMounts"][-1] == {"name": "cabundle-cert", "readOnly": True, "mountPath": "/path/to/globalcerts"}


def test_s3_ca_bundle_inside_kserve_namespace_and_default_path() -> None:
    # extractCaBundleConfig: in the KServe namespace the configured name is kept; empty path -> /etc/ssl/custom-certs
    pod = run(
        "s3://b/m",
        storage_settings={"caBundleConfigMapName": "my-certs", "caBundleVolumeMountPath": ""},
        namespace="kserve",
    )
    assert container(pod, INIT, init=True)["env"] == [
        {"name": "CA_BUNDLE_CONFIGMAP_NAME", "value": "my-certs"},
        {"name": "CA_BUNDLE_VOLUME_MOUNT_POINT", "value": "/etc/ssl/custom-certs"},
    ]


def test_s3_ca_bundle_from_user_aws_env() -> None:
    # reference 02 §3.2 C2.8: AWS_CA_BUNDLE_CONFIGMAP names the ConfigMap, dir(AWS_CA_BUNDLE) is the mount path
    user = {
        "name": INIT,
        "env": [{"name": "AWS_CA_BUNDLE_CONFIGMAP", "value": "corp-ca"}, {"name": "AWS_CA_BUNDLE", "value": "/certs/corp/ca.pem"}],
    }
    pod = run("s3://b/m", {"initContainers": [user], "containers": [{"name": "main"}]})
    init = container(pod, INIT, init=True)
    assert init["env"][2:] == [
        {"name": "CA_BUNDLE_CONFIGMAP_NAME", "value": "corp-ca"},
        {"name": "CA_BUNDLE_VOLUME_MOUNT_POINT", "value": "/certs/corp"},
    ]
    assert pod["volumes"][-1] == {"name": "cabundle-cert", "configMap": {"name": "corp-ca"}}


def test_hf_single_never_gets_ca_bundle() -> None:
    # reference 02 §6 item 21
    pod = run("hf://org/model", storage_settings=CA_SETTINGS)
    assert [e["name"] for e in container(pod, INIT, init=True)["env"]] == [e["name"] for e in HF_DEFAULTS]


# --- C1: pvc ---------------------------------------------------------------------------------------


def test_pvc_mount_and_user_initializer_removed() -> None:
    # validatePvcStorageForPodSpec: claim facebook-models, subPath opt-125m; reference 02 §3.2 C1
    pod = {"initContainers": [{"name": INIT, "image": "mine"}], "containers": [{"name": "main"}]}
    run("pvc://facebook-models/opt-125m", pod)
    assert pod["initContainers"] == []
    assert pod["volumes"] == [{"name": "kserve-pvc-source", "persistentVolumeClaim": {"claimName": "facebook-models"}}]
    assert pod["containers"][0]["volumeMounts"] == [
        {"name": "kserve-pvc-source", "readOnly": True, "mountPath": "/mnt/models", "subPath": "opt-125m"}
    ]


def test_pvc_without_path_has_no_subpath() -> None:
    pod = run("pvc://claim")
    assert pod["containers"][0]["volumeMounts"] == [{"name": "kserve-pvc-source", "readOnly": True, "mountPath": "/mnt/models"}]


def test_pvc_existing_mount_name_is_kept() -> None:
    # AddModelMount skips a mount/volume whose name already exists
    pod = {
        "containers": [{"name": "main", "volumeMounts": [{"name": "kserve-pvc-source", "mountPath": "/data"}]}],
        "volumes": [{"name": "kserve-pvc-source", "emptyDir": {}}],
    }
    before = copy.deepcopy(pod)
    run("pvc://claim/x", pod)
    assert pod == before


def test_pvc_parse() -> None:
    # ParsePvcURI doc examples in pkg/utils/storage.go
    assert parse_pvc_uri("pvc://myclaim") == ("myclaim", "")
    assert parse_pvc_uri("pvc://myclaim/models") == ("myclaim", "models")
    assert parse_pvc_uri("pvc://myclaim/models/v1") == ("myclaim", "models/v1")
    assert parse_pvc_uri("s3://bucket/path") == ("s3:", "/bucket/path")


def test_local_model_cache_rewrites_to_pvc() -> None:
    # "should rewrite model URI to PVC when local model cache labels are present": subPath
    # models/<GetStorageKey(sourceUri)>/ and no storage-initializer
    source = "hf://meta-llama/Llama-3.2-1B"
    key = hashlib.sha256(source.encode()).hexdigest()[:16]
    pod = run(
        source,
        labels={"internal.serving.kserve.io/localmodel": "test-cache"},
        annotations={
            "internal.serving.kserve.io/localmodel-sourceuri": source,
            "internal.serving.kserve.io/localmodel-pvc-name": "test-cache-gpu1",
        },
    )
    assert "initContainers" not in pod
    assert pod["volumes"] == [{"name": "kserve-pvc-source", "persistentVolumeClaim": {"claimName": "test-cache-gpu1"}}]
    assert pod["containers"][0]["volumeMounts"] == [
        {"name": "kserve-pvc-source", "readOnly": True, "mountPath": "/mnt/models", "subPath": f"models/{key}/"}
    ]


def test_local_model_cache_needs_annotations() -> None:
    with pytest.raises(LlmcError) as err:
        run("hf://a/b", labels={"internal.serving.kserve.io/localmodel": "c"})
    assert err.value.message == "LLMInferenceService ns/svc: annotation internal.serving.kserve.io/localmodel-sourceuri not found"


# --- C3/C4: OCI ------------------------------------------------------------------------------------


def test_oci_modelcar_shape() -> None:
    # validateOciStorageForPodSpec and reference 02 §3.2 C3, §6 item 23 (chart uidModelcar 1010)
    pod = {
        "initContainers": [{"name": "llm-d-routing-sidecar"}, {"name": INIT}],
        "containers": [{"name": "main", "env": [{"name": "A", "value": "1"}]}],
    }
    run("oci://registry.io/org/model:1.0", pod)
    main = pod["containers"][0]
    assert main["env"] == [{"name": "A", "value": "1"}, {"name": "MODEL_INIT_MODE", "value": "async"}]
    assert main["volumeMounts"] == [{"name": VOLUME, "mountPath": "/mnt"}]
    assert main["securityContext"] == {"runAsUser": 1010}
    resources = {"limits": {"cpu": "10m", "memory": "15Mi"}, "requests": {"cpu": "10m", "memory": "15Mi"}}
    assert pod["containers"][1] == {
        "name": "modelcar",
        "image": "registry.io/org/model:1.0",
        "args": ["sh", "-c", "ln -sf /proc/$$$$/root/models /mnt/models && sleep infinity"],
        "resources": resources,
        "volumeMounts": [{"name": VOLUME, "mountPath": "/mnt"}],
        "terminationMessagePolicy": "FallbackToLogsOnError",
        "securityContext": {"runAsUser": 1010},
    }
    assert [c["name"] for c in pod["initContainers"]] == ["llm-d-routing-sidecar", "modelcar-init"]
    assert pod["initContainers"][1] == {
        "name": "modelcar-init",
        "image": "registry.io/org/model:1.0",
        "args": [
            "sh",
            "-c",
            "echo 'Pre-fetching modelcar registry.io/org/model:1.0: ' && [ -d /models ] && "
            "[ \"$$(ls -A /models)\" ] && echo 'OK ... Prefetched and valid (/models exists)' || "
            "(echo 'NOK ... Prefetched but modelcar is invalid (/models does not exist or is empty)' && exit 1)",
        ],
        "resources": resources,
        "terminationMessagePolicy": "FallbackToLogsOnError",
    }
    assert pod["volumes"] == [{"name": VOLUME, "emptyDir": {}}]
    assert pod["shareProcessNamespace"] is True


def test_oci_modelcar_without_uid_and_replacing_env() -> None:
    # AddOrReplaceEnv replaces MODEL_INIT_MODE in place; no runAsUser when uidModelcar is unset
    pod = {"containers": [{"name": "main", "env": [{"name": "MODEL_INIT_MODE", "value": "sync"}, {"name": "B", "value": "2"}]}]}
    run("oci://r/i:t", pod, storage_settings={"uidModelcar": None})
    assert pod["containers"][0]["env"] == [{"name": "MODEL_INIT_MODE", "value": "async"}, {"name": "B", "value": "2"}]
    assert "securityContext" not in pod["containers"][0]
    assert "securityContext" not in pod["containers"][1]


def test_oci_needs_enabled_modelcars() -> None:
    with pytest.raises(LlmcError) as err:
        run("oci://r/i:t", storage_settings={"enableModelcar": False})
    assert err.value.message == "OCI modelcars is not enabled"


def test_oci_native_mode_from_config() -> None:
    # ResolveOciModelMode: ociModelMode wins over enableModelcar; reference 02 §3.2 C4
    pod = {"initContainers": [{"name": INIT}], "containers": [{"name": "main"}]}
    run("oci://registry.io/org/model:1.0", pod, storage_settings={"ociModelMode": "native", "enableModelcar": False})
    assert pod["initContainers"] == []
    assert pod["volumes"] == [{"name": "mnt-models", "image": {"reference": "registry.io/org/model:1.0", "pullPolicy": "IfNotPresent"}}]
    assert pod["containers"][0]["volumeMounts"] == [{"name": "mnt-models", "readOnly": True, "mountPath": "/mnt/models", "subPath": "models"}]


def test_oci_native_scheme_keeps_user_initializer() -> None:
    # reference 02 §3.2 table: oci+native:// needs no enable switch and keeps a user storage-initializer
    user = {"name": INIT, "image": "mine"}
    pod = {"initContainers": [dict(user)], "containers": [{"name": "main"}]}
    run("oci+native://registry.io/org/model:1.0", pod, storage_settings={"enableModelcar": False})
    assert pod["initContainers"] == [user]
    assert pod["volumes"][0]["image"]["reference"] == "registry.io/org/model:1.0"


def test_oci_native_rejects_taken_mount_path() -> None:
    pod = {"containers": [{"name": "main", "volumeMounts": [{"name": "other", "mountPath": "/mnt/models"}]}]}
    with pytest.raises(LlmcError) as err:
        run("oci+native://r/i:t", pod)
    assert err.value.message == 'mountPath "/mnt/models" already used by volume "other"'


@pytest.mark.parametrize("uri", ["oci://r/i:t", "oci+native://r/i:t"])
def test_oci_needs_main(uri: str) -> None:
    with pytest.raises(LlmcError) as err:
        run(uri, {"containers": [{"name": "other"}]})
    assert err.value.message == "no container found with name main"


# --- C5: multi-download ------------------------------------------------------------------------------


def test_multi_download_hf_base_and_adapters() -> None:
    # reference 02 §3.2 C5, §6 item 24: pairs in adapter-name order, volume at the common parent /mnt,
    # HF defaults, no confidential env, CA bundle considered even for hf
    pod = run(
        "hf://org/base",
        adapters=[{"name": "b", "uri": "s3://bucket/b"}, {"name": "a", "uri": "hf://org/a"}],
        spec_extra={"model": {"uri": "hf://org/base", "confidential": {"enabled": True},
                              "lora": {"adapters": [{"name": "b", "uri": "s3://bucket/b"}, {"name": "a", "uri": "hf://org/a"}]}}},
        storage_settings=CA_SETTINGS,
    )
    init = container(pod, INIT, init=True)
    assert init["args"] == ["hf://org/base", "/mnt/models", "hf://org/a", "/mnt/lora/a", "s3://bucket/b", "/mnt/lora/b"]
    assert init["volumeMounts"] == [
        {"name": VOLUME, "mountPath": "/mnt"},
        {"name": "cabundle-cert", "readOnly": True, "mountPath": "/path/to/globalcerts"},
    ]
    assert init["env"] == HF_DEFAULTS + [
        {"name": "CA_BUNDLE_CONFIGMAP_NAME", "value": "global-ca-bundle"},
        {"name": "CA_BUNDLE_VOLUME_MOUNT_POINT", "value": "/path/to/globalcerts"},
    ]
    main = pod["containers"][0]
    assert main["volumeMounts"] == [{"name": VOLUME, "readOnly": True, "mountPath": "/mnt"}]
    assert main["args"][:2] == ["--enable-lora", "--lora-modules"]


def test_multi_download_s3_only_has_no_hf_defaults() -> None:
    pod = run("s3://b/base", adapters=[{"name": "a", "uri": "s3://b/a"}])
    assert "env" not in container(pod, INIT, init=True)


def test_multi_download_pvc_base_single_adapter_path() -> None:
    # FindCommonParentPath of one path is the path itself
    pod = run("pvc://claim/base", adapters=[{"name": "a", "uri": "hf://org/a"}])
    init = container(pod, INIT, init=True)
    assert init["args"] == ["hf://org/a", "/mnt/lora/a"]
    assert init["volumeMounts"] == [{"name": VOLUME, "mountPath": "/mnt/lora/a"}]
    assert pod["containers"][0]["volumeMounts"] == [
        {"name": "kserve-pvc-source", "readOnly": True, "mountPath": "/mnt/models", "subPath": "base"},
        {"name": VOLUME, "readOnly": True, "mountPath": "/mnt/lora/a"},
    ]
    assert [v["name"] for v in pod["volumes"]] == ["kserve-pvc-source", VOLUME]


def test_multi_download_pvc_base_two_adapters_and_pvc_adapter() -> None:
    # several adapters only: /mnt/lora; the pvc adapter is mounted by the LoRA step afterwards
    pod = run(
        "pvc://claim/base",
        adapters=[{"name": "a", "uri": "hf://org/a"}, {"name": "b", "uri": "hf://org/b"}, {"name": "c", "uri": "pvc://lora/c"}],
    )
    assert container(pod, INIT, init=True)["volumeMounts"] == [{"name": VOLUME, "mountPath": "/mnt/lora"}]
    assert [v["name"] for v in pod["volumes"]] == ["kserve-pvc-source", VOLUME, "lora-pvc-c"]


def test_multi_download_merges_user_initializer() -> None:
    user = {"name": INIT, "env": [{"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}}}]}
    pod = run("hf://org/base", {"initContainers": [user], "containers": [{"name": "main"}]}, adapters=[{"name": "a", "uri": "hf://org/a"}])
    init = container(pod, INIT, init=True)
    assert init["env"][0] == user["env"][0]
    assert len(pod["initContainers"]) == 1


def test_oci_modelcar_with_hf_adapter_keeps_modelcar_mount() -> None:
    # reference 02 §6 item 24: main's provision volume stays at /mnt (mounts are de-duplicated by name)
    pod = run("oci://r/i:t", adapters=[{"name": "a", "uri": "hf://org/a"}])
    assert container(pod, INIT, init=True)["volumeMounts"] == [{"name": VOLUME, "mountPath": "/mnt/lora/a"}]
    assert [m for m in pod["containers"][0]["volumeMounts"] if m["name"] == VOLUME] == [{"name": VOLUME, "mountPath": "/mnt"}]
    assert [v["name"] for v in pod["volumes"]] == [VOLUME]


def test_oci_pvc_adapter_only_strips_initializer() -> None:
    pod = {"initContainers": [{"name": INIT}], "containers": [{"name": "main"}]}
    run("oci://r/i:t", pod, adapters=[{"name": "a", "uri": "pvc://lora/a"}])
    assert [c["name"] for c in pod["initContainers"]] == ["modelcar-init"]


def test_common_parent_path() -> None:
    # TestFindCommonParentPath
    assert storage.common_parent_path([]) == ""
    assert storage.common_parent_path(["/mnt/models"]) == "/mnt/models"
    assert storage.common_parent_path(["/mnt/models/model1", "/mnt/models/model2"]) == "/mnt/models"
    assert storage.common_parent_path(["/mnt/models", "/opt/models"]) == "/"
    assert storage.common_parent_path(["/mnt/models/pytorch/model1", "/mnt/models/pytorch/model2", "/mnt/models/pytorch/"]) == "/mnt/models/pytorch"
    assert storage.common_parent_path(["/mnt/models", "/mnt/lora/a"]) == "/mnt"


# --- container merge (TestMergeContainerWithPatch) -----------------------------------------------------


def test_merge_value_from_overrides_value() -> None:
    base = {"name": "init", "env": [{"name": "AWS_KEY", "value": "literal-secret"}]}
    ref = {"secretKeyRef": {"name": "aws-creds", "key": "access-key"}}
    merged = storage.merge_container(base, {"name": "init", "env": [{"name": "AWS_KEY", "valueFrom": ref}]})
    assert merged["env"] == [{"name": "AWS_KEY", "valueFrom": ref}]


def test_merge_value_overrides_value_from() -> None:
    base = {"name": "init", "env": [{"name": "TOKEN", "valueFrom": {"secretKeyRef": {"name": "secret", "key": "token"}}}]}
    merged = storage.merge_container(base, {"name": "init", "env": [{"name": "TOKEN", "value": "hardcoded-value"}]})
    assert merged["env"] == [{"name": "TOKEN", "value": "hardcoded-value"}]


def test_merge_replaces_args_and_restores_empty_name() -> None:
    merged = storage.merge_container({"name": "init", "args": ["--base-flag"]}, {"name": "", "args": ["--overlay-flag"]})
    assert merged == {"name": "init", "args": ["--overlay-flag"]}


def test_merge_list_order_follows_apimachinery() -> None:
    # mergeSortedSlice: server-only items stay before a patch item they preceded in the original;
    # patch-only items come before later server-only items
    base = {"name": "c", "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "1"}, {"name": "C", "value": "1"}]}
    merged = storage.merge_container(base, {"name": "c", "env": [{"name": "B", "value": "2"}, {"name": "D", "value": "2"}]})
    assert [(e["name"], e["value"]) for e in merged["env"]] == [("A", "1"), ("B", "2"), ("D", "2"), ("C", "1")]


# --- Go net/url round trip ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("hf://org/model", "hf://org/model"),
        ("HF://Org/Model", "hf://Org/Model"),  # scheme lower-cased, the rest kept
        ("hf://org/my model", "hf://org/my%20model"),  # space escaped in the path
        ("hf://org/a%2Fb", "hf://org/a%2Fb"),  # valid original encoding (RawPath) kept
        ("hf://org/é", "hf://org/%C3%A9"),  # non-ASCII escaped as UTF-8 bytes
        ("s3://bucket/m?versionId=1&x=a b", "s3://bucket/m?versionId=1&x=a b"),  # query kept verbatim
        ("hf://org/m#a b", "hf://org/m#a%20b"),  # fragment escaped
        ("http://www.google.com/file%20one%26two", "http://www.google.com/file%20one%26two"),  # Go url_test.go
        ("http://j@ne:password@google.com", "http://j%40ne:password@google.com"),  # Go url_test.go
        ("mailto:webmaster@golang.org", "mailto:webmaster@golang.org"),  # opaque, Go url_test.go
        ("oci://registry.io:5000/img:tag", "oci://registry.io:5000/img:tag"),
        ("", ""),
    ],
)
def test_gourl_round_trip(raw: str, expected: str) -> None:
    assert normalize(raw) == expected


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("hf://org/%zz", 'parse "hf://org/%zz": invalid URL escape "%zz"'),
        ("hf://org/50%", 'parse "hf://org/50%": invalid URL escape "%"'),
        ("hf://my org/model", 'parse "hf://my org/model": invalid character " " in host name'),
        ("hf://org:model/x", 'parse "hf://org:model/x": invalid port ":model" after host'),
        ("http://%41:8080/", 'parse "http://%41:8080/": invalid URL escape "%41"'),  # Go url_test.go parse errors
        ("hf://org/m\n", 'parse "hf://org/m\\n": net/url: invalid control character in URL'),
        (":foo", 'parse ":foo": missing protocol scheme'),
    ],
)
def test_gourl_errors(raw: str, message: str) -> None:
    with pytest.raises(URLError) as err:
        normalize(raw)
    assert str(err.value) == message


def test_bad_model_uri_is_an_input_error() -> None:
    with pytest.raises(LlmcError) as err:
        run("hf://org/100%")
    assert err.value.message == 'parse "hf://org/100%": invalid URL escape "%"'
    assert err.value.location is not None and err.value.location.path == "spec.model.uri"


def test_model_uri_is_reserialised_in_args() -> None:
    pod = run("HF://org/my model?rev=main")
    assert container(pod, INIT, init=True)["args"][0] == "hf://org/my%20model?rev=main"


def test_go_quote() -> None:
    # strconv.Quote
    assert quote('a"b\\c') == '"a\\"b\\\\c"'
    assert quote("tab\there") == '"tab\\there"'
    assert quote("\x01") == '"\\x01"'
    assert quote("é") == '"é"'


@pytest.mark.parametrize("uri", ["hf://org/model", "s3://b/m", "oci://r/i:t", "pvc://c/p"])
def test_go_null_lists_behave_like_absent(uri: str) -> None:
    # a Go-projected pod spec may hold nulls; the steps append to fresh lists
    pod = {"containers": [{"name": "main", "env": None, "volumeMounts": None}], "volumes": None, "initContainers": None}
    run(uri, pod, storage_settings=CA_SETTINGS)
    assert pod["volumes"]
    assert pod["containers"][0]["volumeMounts"]


# --- other containers: the scheduler's tokenizer sidecar (scheduler.go: "tokenizer", /mnt/models/base, no LoRA) ---

TOKENIZER_FILES = (
    '["tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.json", '
    '"merges.txt", "config.json", "generation_config.json"]'
)


def attach_tokenizer(uri: str, **kwargs: Any) -> dict[str, Any]:
    pod = {"containers": [{"name": "main"}, {"name": "tokenizer"}]}
    ctx = make_ctx(uri, pod, **kwargs)
    storage.attach(ctx, pod, container="tokenizer", model_path="/mnt/models/base", lora=False, where="spec.router.scheduler.template")
    return pod


def test_tokenizer_hf_download() -> None:
    # attachStorageInitializer: args and init mount use /mnt/models, the target mounts at its model path;
    # tokenizerOnlyDownload env comes after the HF defaults; adapters are ignored without LoRA
    pod = attach_tokenizer("hf://org/model", adapters=[{"name": "a", "uri": "hf://org/a"}])
    init = container(pod, INIT, init=True)
    assert init["args"] == ["hf://org/model", "/mnt/models"]
    assert init["volumeMounts"] == [{"name": VOLUME, "mountPath": "/mnt/models"}]
    assert init["env"] == HF_DEFAULTS + [{"name": "STORAGE_ALLOW_PATTERNS", "value": TOKENIZER_FILES}]
    assert container(pod, "tokenizer")["volumeMounts"] == [{"name": VOLUME, "readOnly": True, "mountPath": "/mnt/models/base"}]
    assert container(pod, "main") == {"name": "main"}


def test_tokenizer_s3_download_after_ca_bundle() -> None:
    pod = attach_tokenizer("s3://b/m", storage_settings=CA_SETTINGS)
    assert [e["name"] for e in container(pod, INIT, init=True)["env"]] == [
        "CA_BUNDLE_CONFIGMAP_NAME",
        "CA_BUNDLE_VOLUME_MOUNT_POINT",
        "STORAGE_ALLOW_PATTERNS",
    ]


def test_main_container_never_gets_tokenizer_patterns() -> None:
    # only the container named "tokenizer" (the scheduler sidecar) is limited to tokenizer files
    pod = run("hf://org/model")
    assert "STORAGE_ALLOW_PATTERNS" not in [e["name"] for e in container(pod, INIT, init=True)["env"]]


def test_tokenizer_modelcar_at_nested_path() -> None:
    # TestModelcarCommand "NonDefaultSafePath produces mkdir with unquoted paths"; volume at the parent
    pod = attach_tokenizer("oci://registry.io/m:1")
    sidecar = container(pod, "modelcar")
    assert sidecar["args"][2] == "mkdir -p /mnt/models && ln -sf /proc/$$$$/root/models /mnt/models/base && sleep infinity"
    assert sidecar["volumeMounts"] == [{"name": VOLUME, "mountPath": "/mnt/models"}]
    assert container(pod, "tokenizer")["volumeMounts"] == [{"name": VOLUME, "mountPath": "/mnt/models"}]
    assert container(pod, "tokenizer")["env"] == [{"name": "MODEL_INIT_MODE", "value": "async"}]


def test_tokenizer_oci_native_volume_name_from_path() -> None:
    # GetVolumeNameFromPath("/mnt/models/base") == "mnt-models-base"
    pod = attach_tokenizer("oci+native://registry.io/m:1")
    assert pod["volumes"] == [{"name": "mnt-models-base", "image": {"reference": "registry.io/m:1", "pullPolicy": "IfNotPresent"}}]
    assert container(pod, "tokenizer")["volumeMounts"] == [
        {"name": "mnt-models-base", "readOnly": True, "mountPath": "/mnt/models/base", "subPath": "models"}
    ]


def test_missing_target_container() -> None:
    pod = {"containers": [{"name": "main"}]}
    ctx = make_ctx("oci://r/i:t", pod)
    with pytest.raises(LlmcError) as err:
        storage.attach(ctx, pod, container="tokenizer", model_path="/mnt/models/base", lora=False, where="spec.router.scheduler.template")
    assert err.value.message == "no container found with name tokenizer"
    assert err.value.location is not None and err.value.location.path == "spec.router.scheduler.template.containers"


@pytest.mark.parametrize(
    ("model_path", "command"),
    [
        # TestModelcarCommand
        ("/mnt/models", "ln -sf /proc/$$$$/root/models /mnt/models && sleep infinity"),
        ("/mnt/my models/base", "mkdir -p '/mnt/my models' && ln -sf /proc/$$$$/root/models '/mnt/my models/base' && sleep infinity"),
        ("/mnt/it's/model", "mkdir -p '/mnt/it'\\''s' && ln -sf /proc/$$$$/root/models '/mnt/it'\\''s/model' && sleep infinity"),
    ],
)
def test_modelcar_command_quotes_paths(model_path: str, command: str) -> None:
    pod = {"containers": [{"name": "main"}]}
    storage.attach(make_ctx("oci://r/i:t", pod), pod, container="main", model_path=model_path, lora=False)
    assert container(pod, "modelcar")["args"] == ["sh", "-c", command]
