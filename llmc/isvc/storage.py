"""Model download for a predictor with `storageUri`: the controller's check and the pod webhook's injection.

The controller only validates the URI (`ValidateStorageURI`) and records it in the
annotation `internal.serving.kserve.io/storage-initializer-sourceuri`; KServe's pod
mutating webhook (pkg/webhook/admission/pod, `InjectStorageInitializer` and
`CommonStorageInitialization` with one legacy URI) adds the download to every pod
labelled `serving.kserve.io/inferenceservice`. llmc writes that injection into the
Deployment's pod template, so the pods are complete without the webhook; with the
webhook present nothing changes, since it skips pods that already have a
`storage-initializer` init container and never mounts a volume twice.

- `pvc://<claim>[/<path>]`: the claim as volume `kserve-pvc-source`, mounted at
  /mnt/models (subPath = path) in `kserve-container` (and `transformer-container`);
- any other URI: init container `storage-initializer` (image and resources from the
  ConfigMap's `storageInitializer`, args `[uri, /mnt/models]`), emptyDir
  `kserve-provision-location` mounted read-only in the serving containers and
  read-write in the init container, then the matching ClusterStorageContainer's
  container strategic-merged into it, the CA bundle (when configured) and the default
  Hugging Face download variables;
- `STORAGE_URI` in the serving container, when set, becomes /mnt/models.

Credentials come from Secrets the webhook reads in the cluster (the ServiceAccount's
`secrets`, the `serving.kserve.io/storageSecretName` annotation); llmc cannot and does
not render them.
"""

from __future__ import annotations

import re
from typing import Any

from llmc.core.errors import LlmcError
from llmc.core.record import record
from llmc.isvc import shape
from llmc.isvc.config import StorageInitializerConfig
from llmc.isvc.podspec import KSERVE_CONTAINER, TRANSFORMER_CONTAINER, WORKER_CONTAINER
from llmc.kserve.spec import find_container, parse_pvc_uri
from llmc.load.documents import Document
from llmc.render.storage import (
    CA_BUNDLE_VOLUME, HF_DEFAULT_ENV, MODEL_PATH, PROVISION_VOLUME, PVC_VOLUME, add_env_if_absent,
    add_model_mount, merge_container,
)
from llmc.render.storage import INIT_NAME as INIT_CONTAINER

SOURCE_URI_ANNOTATION = "internal.serving.kserve.io/storage-initializer-sourceuri"
STORAGE_CONTAINER_NAME_ANNOTATION = "internal.serving.kserve.io/storage-container-name"
READONLY_ANNOTATION = "storage.kserve.io/readonly"
INIT_UID_ANNOTATION = "serving.kserve.io/storage-initializer-uid"
GKE_ACCELERATOR_ANNOTATION = "serving.kserve.io/gke-accelerator"
GKE_ACCELERATOR_SELECTOR = "cloud.google.com/gke-accelerator"

GLOBAL_CA_BUNDLE = "global-ca-bundle"
KSERVE_NAMESPACE = "kserve"
STORAGE_URI_ENV = "STORAGE_URI"


# utils.SupportedStorageURIPrefixList, in the controller's order (its error message lists them).
SUPPORTED_PREFIXES = ("gs://", "s3://", "pvc://", "file://", "https://", "http://", "hdfs://", "webhdfs://",
                      "oci://", "oci+native://", "oci+fetch://", "hf://")
_AZURE_BLOB = re.compile(r"https://(.+?).blob.core.windows.net/(.+)")
_HAS_SCHEME = re.compile(r"\w+?://", re.ASCII)
_GO_INT = re.compile(r"[+-]?[0-9]+")


@record(frozen=True)
class StorageContainer:
    """A ClusterStorageContainer: its name, spec and the top-level `disabled` flag."""

    name: str
    spec: dict[str, Any]
    disabled: bool = False

    def supports(self, uri: str) -> bool:
        """IsStorageUriSupported: a prefix match, or an unanchored regular expression match."""
        for fmt in self.spec.get("supportedUriFormats") or []:
            if fmt.get("prefix"):
                if uri.startswith(fmt["prefix"]):
                    return True
            elif fmt.get("regex") and re.search(fmt["regex"], uri):
                return True
        return False

    @property
    def init_container(self) -> bool:
        return self.spec.get("workloadType") == "initContainer"


def storage_container_from(doc: Document) -> StorageContainer:
    """A ClusterStorageContainer from its document; `spec.container` and `spec.supportedUriFormats` are required."""
    obj = doc.obj
    shape.check(obj, shape.STORAGE_CONTAINER)
    name = (obj.get("metadata") or {}).get("name")
    if not isinstance(name, str) or not name:
        raise LlmcError("metadata.name: Required value", doc.locate(("metadata",)))
    spec = obj.get("spec")
    if not isinstance(spec, dict) or not isinstance(spec.get("container"), dict):
        raise LlmcError("spec.container: Required value", doc.locate(("spec",)))
    if not isinstance(spec.get("supportedUriFormats"), list):
        raise LlmcError("spec.supportedUriFormats: Required value", doc.locate(("spec",)))
    for i, fmt in enumerate(spec["supportedUriFormats"]):
        if isinstance(fmt, dict) and fmt.get("regex"):
            try:
                re.compile(fmt["regex"])
            except re.error as exc:
                raise LlmcError(f"invalid regex {fmt['regex']!r}: {exc}",
                                doc.locate(("spec", "supportedUriFormats", i, "regex"))) from None
    return StorageContainer(name, spec, obj.get("disabled") is True)


def storage_container_for(uri: str, name: str | None, containers: list[StorageContainer]) -> StorageContainer | None:
    """GetStorageContainerSpec: by name with its eligibility checks, else the first eligible one by name order."""
    if name:
        found = next((sc for sc in containers if sc.name == name), None)
        if found is None:
            raise LlmcError(f'ClusterStorageContainer "{name}" not found')
        if found.disabled:
            raise LlmcError(f'ClusterStorageContainer "{name}" is disabled')
        if not found.init_container:
            raise LlmcError(f'ClusterStorageContainer "{name}" has workloadType "{found.spec.get("workloadType", "")}"; '
                            'explicit selection requires "initContainer"')
        if not found.supports(uri):
            raise LlmcError(f'ClusterStorageContainer "{name}" does not support storageUri "{uri}"')
        return found
    for sc in sorted(containers, key=lambda sc: sc.name):  # the API server lists by name
        if not sc.disabled and sc.init_container and sc.supports(uri):
            return sc
    return None


def validate_storage_uri(uri: str, containers: list[StorageContainer]) -> None:
    """ValidateStorageURI, as the controller wraps it ("StorageURI not supported: ...")."""
    if storage_container_for(uri, None, containers) is not None or not _HAS_SCHEME.search(uri):
        return
    if "blob.core.windows.net" in uri:
        if _AZURE_BLOB.search(uri):
            return
    elif any(uri.startswith(p) for p in SUPPORTED_PREFIXES):
        return
    raise LlmcError(
        "StorageURI not supported: storageUri, must be one of: "
        f"[{', '.join(SUPPORTED_PREFIXES)}] or match https://{{}}.blob.core.windows.net/{{}}/{{}} "
        f"or be an absolute or relative local path. StorageUri [{uri}] is not supported"
    )


def is_oci(uri: str) -> bool:
    """ParseOciScheme's test: `oci://` or `oci+<mode>://`."""
    return uri.startswith("oci://") or (uri.startswith("oci+") and "://" in uri)


@record(frozen=True)
class Injection:
    """What the webhook did: whether it added the init container."""

    init_container: bool


def inject(pod_meta: dict[str, Any], pod: dict[str, Any], config: StorageInitializerConfig,
           containers: list[StorageContainer], namespace: str) -> Injection:
    """The pod webhook's mutators that depend only on the pod: GKE accelerator selector,
    storage initializer, storage-initializer UID. `pod` (a pod spec) is changed in place."""
    annotations = pod_meta.get("annotations") or {}
    _gke_accelerator(pod, annotations)
    uri = annotations.get(SOURCE_URI_ANNOTATION)
    if uri is None:
        return Injection(False)
    added = _storage_initializer(pod, uri, annotations, config, containers, namespace)
    _init_uid(pod, annotations)
    return Injection(added)


def _gke_accelerator(pod: dict[str, Any], annotations: dict[str, str]) -> None:
    """InjectGKEAcceleratorSelector: GPU containers and the annotation give a node selector."""
    gpu = any("nvidia.com/gpu" in ((c.get("resources") or {}).get("limits") or {}) for c in pod.get("containers") or [])
    if gpu and GKE_ACCELERATOR_ANNOTATION in annotations:
        pod["nodeSelector"] = {**(pod.get("nodeSelector") or {}), GKE_ACCELERATOR_SELECTOR: annotations[GKE_ACCELERATOR_ANNOTATION]}


def _storage_initializer(pod: dict[str, Any], uri: str, annotations: dict[str, str], config: StorageInitializerConfig,
                         containers: list[StorageContainer], namespace: str) -> bool:
    """InjectStorageInitializer + CommonStorageInitialization for one legacy URI; True when the init container was added."""
    read_only = annotations.get(READONLY_ANNOTATION) != "false"
    storage_container = storage_container_for(uri, annotations.get(STORAGE_CONTAINER_NAME_ANNOTATION), containers)
    if any(c.get("name") == INIT_CONTAINER for c in pod.get("initContainers") or []):
        return False
    names = [c.get("name") for c in pod.get("containers") or []]
    user = KSERVE_CONTAINER if KSERVE_CONTAINER in names else WORKER_CONTAINER if WORKER_CONTAINER in names else None
    if user is None:
        raise LlmcError("Invalid configuration: cannot find container")
    targets = [user] + ([TRANSFORMER_CONTAINER] if TRANSFORMER_CONTAINER in names else [])
    init = None
    if uri.startswith("pvc://"):
        claim, sub_path = parse_pvc_uri(uri)
        volume = PVC_VOLUME
    else:
        init = _init_container([uri, MODEL_PATH], config)
        pod.setdefault("initContainers", []).append(init)
        targets.append(INIT_CONTAINER)
        volume, sub_path, claim = PROVISION_VOLUME, "", ""
    for name in targets:
        add_model_mount(pod, name, volume, MODEL_PATH, read_only=read_only, sub_path=sub_path, claim=claim)
    for entry in find_container(pod.get("containers"), user).get("env") or []:  # type: ignore[union-attr]
        if entry.get("name") == STORAGE_URI_ENV and entry.get("value"):
            entry["value"] = MODEL_PATH
    if init is None:
        return False
    index = len(pod["initContainers"]) - 1
    ca_name, ca_path = _ca_bundle(config, namespace)
    if storage_container is not None:
        init = merge_container(init, storage_container.spec["container"])
    if ca_name is not None:
        add_env_if_absent(init, "CA_BUNDLE_CONFIGMAP_NAME", ca_name)
        add_env_if_absent(init, "CA_BUNDLE_VOLUME_MOUNT_POINT", ca_path)
        pod.setdefault("volumes", []).append({"name": CA_BUNDLE_VOLUME, "configMap": {"name": ca_name}})
        init.setdefault("volumeMounts", []).append({"name": CA_BUNDLE_VOLUME, "readOnly": True, "mountPath": ca_path})
    for name, value in HF_DEFAULT_ENV:
        add_env_if_absent(init, name, value)
    pod["initContainers"][index] = init
    return True


def _ca_bundle(config: StorageInitializerConfig, namespace: str) -> tuple[str | None, str]:
    """needCaBundleMount with no credential env: the configured ConfigMap, `global-ca-bundle` outside KServe's namespace."""
    if not config.ca_bundle_configmap_name:
        return None, ""
    name = config.ca_bundle_configmap_name if namespace == KSERVE_NAMESPACE else GLOBAL_CA_BUNDLE
    return name, config.ca_bundle_volume_mount_path or "/etc/ssl/custom-certs"


def _init_container(args: list[str], config: StorageInitializerConfig) -> dict[str, Any]:
    """CreateInitContainerWithConfig."""
    return {
        "name": INIT_CONTAINER,
        "image": config.image or "kserve/storage-initializer:latest",
        "args": list(args),
        "resources": {
            "limits": {"cpu": config.cpu_limit, "memory": config.memory_limit},
            "requests": {"cpu": config.cpu_request, "memory": config.memory_request},
        },
        "terminationMessagePolicy": "FallbackToLogsOnError",
    }


def _init_uid(pod: dict[str, Any], annotations: dict[str, str]) -> None:
    """SetIstioCniSecurityContext's annotation branch: a numeric UID for the storage initializer."""
    value = annotations.get(INIT_UID_ANNOTATION)
    if value is None:
        return
    if not _GO_INT.fullmatch(value) or not -(2**63) <= int(value) < 2**63:  # strconv.ParseInt(value, 10, 64)
        return
    uid = int(value)
    for init in pod.get("initContainers") or []:
        if init.get("name") == INIT_CONTAINER:
            init.setdefault("securityContext", {})["runAsUser"] = uid
