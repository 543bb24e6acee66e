"""Model artifacts on one pod spec: the controller's `attachModelArtifacts`.

KServe `workload_storage.go` and `pkg/utils/storage.go`.
The model URI is read as Go does (`url.Parse(...).String()`, `llmc.go.url`), then dispatched
on its scheme: `pvc://` mounts the claim (C1), `hf://`/`s3://` add the storage-initializer
(C2), `oci://` a modelcar (C3) or an image volume (C4, also `oci+native://`), and hf/s3 LoRA
adapters turn the download into one multi-URI storage-initializer (C5). LoRA runs last.
Workload pods use container `main` and /mnt/models (`apply`); the scheduler's tokenizer
sidecar uses `attach` with its own container and path.

The controller reads cluster state here; llmc renders a *new* object in a namespace whose
ServiceAccount is readable and carries no annotations and no `secrets:`:
- no live Deployment/LWS, so the configured storage-initializer image is used and the
  Hugging Face download defaults are added;
- no credential env or volumes (S3/GCS/Azure/HF tokens come from Secrets listed on the
  ServiceAccount, or named by the credentials' `storageSecretNameAnnotation`). Users who
  need them add the env (`valueFrom.secretKeyRef`) to a `storage-initializer` entry in
  `spec.template.initContainers`: the controller merges that entry into the container it builds.
"""

from __future__ import annotations

import posixpath

from llmc.core.errors import LlmcError, Location
from llmc.core.jsoncopy import copy_json
from llmc.core.record import record
from llmc.go.url import quote
from llmc.k8s.quantity import canonical_quantity
from llmc.kserve.gotypes import strip_nulls
from llmc.kserve.spec import (
    HF, MAIN, OCI, OCI_NATIVE, PVC, S3, Slot, find_container, go_uri, parse_pvc_uri,
    storage_initializer_disabled,
)
from llmc.render import lora as lora_step
from llmc.render.context import RenderContext
from llmc.render.mounts import add_model_mount, add_mount, ensure_dict, ensure_list
from llmc.resolve.merge import merge_sorted

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

MODEL_PATH = "/mnt/models"
INIT_NAME = "storage-initializer"
PROVISION_VOLUME = "kserve-provision-location"
PVC_VOLUME = "kserve-pvc-source"
CA_BUNDLE_VOLUME = "cabundle-cert"
DEFAULT_IMAGE = "kserve/storage-initializer:latest"
MODELCAR, MODELCAR_INIT = "modelcar", "modelcar-init"
TOKENIZER_CONTAINER = "tokenizer"  # the scheduler's tokenizer sidecar (scheduler.go tokenizerContainerName)
TOKENIZER_FILES = (
    '["tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.json", '
    '"merges.txt", "config.json", "generation_config.json"]'
)


LOCAL_MODEL_LABEL = "internal.serving.kserve.io/localmodel"
LOCAL_MODEL_SOURCE = "internal.serving.kserve.io/localmodel-sourceuri"
LOCAL_MODEL_PVC = "internal.serving.kserve.io/localmodel-pvc-name"

HF_DEFAULT_ENV = (
    ("HF_HUB_ENABLE_HF_TRANSFER", "1"),
    ("HF_XET_HIGH_PERFORMANCE", "1"),
    ("HF_XET_NUM_CONCURRENT_RANGE_GETS", "8"),
)

# Strategic-merge keys of corev1.Container lists (patchStrategy "merge"); other lists are replaced.
_MERGE_KEYS = {"env": "name", "volumeMounts": "mountPath", "ports": "containerPort", "volumeDevices": "devicePath"}

_URI_PATH = "spec.model.uri"


def apply(ctx: RenderContext, pod: dict[str, Any], slot: Slot) -> None:
    """The workload pod step: attachModelArtifacts("main", "/mnt/models", attachLoRA = adapters exist)."""
    attach(ctx, pod, container=MAIN, model_path=MODEL_PATH, lora=bool(ctx.lora_adapters), where=f"spec.{slot.key}")


def attach(ctx: RenderContext, pod: dict[str, Any], *, container: str, model_path: str, lora: bool, where: str = "spec") -> None:
    """attachModelArtifacts for any container and model path (the scheduler's tokenizer sidecar
    uses `tokenizer` and /mnt/models/base, without LoRA). `where` is the pod's field path, for errors."""
    spec = ctx.spec
    uri = go_uri((spec.get("model") or {}).get("uri"), _URI_PATH)
    scheme, sep, _ = uri.partition("://")
    if not sep:
        raise LlmcError(f"invalid model URI: {uri}", Location(path=_URI_PATH), hint="a model URI looks like hf://org/model")
    if storage_initializer_disabled(spec):
        return
    if LOCAL_MODEL_LABEL in ctx.labels:
        uri = _local_cache_uri(ctx, uri)
        scheme = "pvc"

    settings = ctx.settings.storage_initializer
    adapters = ctx.lora_adapters if lora else []
    pairs = [(a["uri"], a["mountPath"]) for a in adapters if a["scheme"] in (HF, S3)]
    target = _Target(container, model_path, where)
    prefix = scheme + "://"
    if prefix == PVC:
        claim, sub_path = parse_pvc_uri(uri)
        add_model_mount(pod, container, PVC_VOLUME, model_path, read_only=True, sub_path=sub_path, claim=claim)
        _multi_download_or_strip(ctx, pod, pairs, target)
    elif prefix == OCI_NATIVE:
        _attach_oci_native(pod, OCI + uri[len(OCI_NATIVE):], target)
        if pairs:
            _attach_multi_download(ctx, pod, pairs, target)
    elif prefix == OCI:
        mode = oci_model_mode(settings)
        if not mode:
            raise LlmcError(
                "OCI modelcars is not enabled",
                Location(path=_URI_PATH),
                hint="set storageInitializer.enableModelcar (or ociModelMode) in the inferenceservice-config given to --kserve-config",
            )
        if mode == "native":
            _attach_oci_native(pod, uri, target)
        else:
            _attach_modelcar(pod, uri, settings, target)
        _multi_download_or_strip(ctx, pod, pairs, target)
    elif prefix in (HF, S3):
        if pairs:
            _attach_multi_download(ctx, pod, [(uri, MODEL_PATH), *pairs], target)
        else:
            _attach_single_download(ctx, pod, uri, target, hf=prefix == HF)
    else:
        raise LlmcError(
            f"unsupported schema in model URI: {uri}",
            Location(path=_URI_PATH),
            hint="LLMInferenceService models support hf://, s3://, pvc://, oci:// and oci+native://",
        )

    if adapters:
        lora_step.attach(ctx, pod, where)


def oci_model_mode(settings: dict[str, Any]) -> str:
    """ResolveOciModelMode: `ociModelMode`, else "modelcar" when modelcars/OCI support are enabled, else ""."""
    mode = settings.get("ociModelMode") or ""
    if mode:
        return str(mode)
    if settings.get("enableModelcar") or settings.get("enableOciModelSupport"):
        return "modelcar"
    return ""


def common_parent_path(paths: list[str]) -> str:
    """FindCommonParentPath: one path is its own parent; no shared component gives "/"."""
    if not paths:
        return ""
    if len(paths) == 1:
        return paths[0]
    parts = [p.strip("/").split("/") for p in paths if p.strip("/")]
    common: list[str] = []
    for level in zip(*parts):
        if len(set(level)) != 1:
            break
        common.append(level[0])
    return "/" + "/".join(common)


def add_env_if_absent(container: dict[str, Any], name: str, value: str) -> None:
    """AddEnvVars for one variable: appended only when no entry of that name exists."""
    env = ensure_list(container, "env")
    if not any(e.get("name") == name for e in env):
        env.append(_env(name, value))


def merge_container(base: dict[str, Any], overlay: dict[str, Any]) -> dict[str, Any]:
    """MergeContainerWithPatch: strategic merge of `overlay` onto `base` (corev1.Container rules:
    env by name, volumeMounts by mountPath, ports by containerPort, volumeDevices by devicePath,
    other lists replaced, objects merged), then env entries left with both value and valueFrom
    keep only the kind the overlay set. Nulls in the overlay are dropped, as Go's omitempty would."""
    patch = strip_nulls(overlay)
    merged = _merge_object(copy_json(base), patch, _MERGE_KEYS)
    overlay_env = {e.get("name"): e for e in patch.get("env") or []}
    for entry in merged.get("env") or []:
        if entry.get("value", "") == "" or entry.get("valueFrom") is None or entry.get("name") not in overlay_env:
            continue
        wanted = overlay_env[entry["name"]]
        if wanted.get("valueFrom") is not None:
            entry.pop("value")
        elif wanted.get("value", "") != "":
            entry.pop("valueFrom")
    if not merged.get("name"):
        merged["name"] = base.get("name")
    return merged


# -- schemes ---------------------------------------------------------------------------------


def _local_cache_uri(ctx: RenderContext, uri: str) -> str:
    """The local model cache PVC path that replaces the URI (GetStorageKey = 16 hex of sha256)."""
    annotations = ctx.annotations
    for key in (LOCAL_MODEL_SOURCE, LOCAL_MODEL_PVC):
        if key not in annotations:
            raise LlmcError(
                f"LLMInferenceService {ctx.namespace}/{ctx.name}: annotation {key} not found",
                Location(path="metadata.annotations"),
                hint=f"the label {LOCAL_MODEL_LABEL} needs both local model cache annotations",
            )
    source = annotations[LOCAL_MODEL_SOURCE]
    sub_path = uri[len(source):] if uri.startswith(source) else uri
    if not sub_path.startswith("/"):
        sub_path = "/" + sub_path
    import hashlib  # only here: it costs ~2 ms of start-up

    key = hashlib.sha256(source.encode()).hexdigest()[:16]
    return f"pvc://{annotations[LOCAL_MODEL_PVC]}/models/{key}{sub_path}"


@record(frozen=True)
class _Target:
    """The container that gets the model, where it expects it, and the pod's field path (for errors)."""

    container: str
    model_path: str
    where: str


def _attach_modelcar(pod: dict[str, Any], uri: str, settings: dict[str, Any], target: _Target) -> None:
    """ConfigureModelcarToContainer (index 0): shared emptyDir at the model path's parent, a
    `modelcar` sidecar symlinking its /models there, a `modelcar-init` prefetch check, and a
    shared process namespace."""
    main = _require_container(pod, target)
    parent = _parent_directory(target.model_path)
    _add_or_replace_env(main, "MODEL_INIT_MODE", "async")
    if not any(v.get("name") == PROVISION_VOLUME for v in pod.get("volumes") or []):
        ensure_list(pod, "volumes").append({"name": PROVISION_VOLUME, "emptyDir": {}})
    add_mount(main, PROVISION_VOLUME, parent, False, "")
    uid = settings.get("uidModelcar")
    if uid is not None:
        ensure_dict(main, "securityContext")["runAsUser"] = uid
    if find_container(pod.get("containers"), MODELCAR) is None:
        image = uri[len(OCI):] if uri.startswith(OCI) else uri
        cpu = settings.get("cpuModelcar") or "10m"
        memory = settings.get("memoryModelcar") or "15Mi"
        link = f"ln -sf /proc/$$$$/root/models {_shell_quote(target.model_path)} && sleep infinity"
        if target.model_path != MODEL_PATH:
            link = f"mkdir -p {_shell_quote(_go_dir(target.model_path))} && {link}"
        sidecar: dict[str, Any] = {
            "name": MODELCAR,
            "image": image,
            "args": ["sh", "-c", link],
            "resources": _resources(cpu, memory, cpu, memory),
            "volumeMounts": [{"name": PROVISION_VOLUME, "mountPath": parent}],
            "terminationMessagePolicy": "FallbackToLogsOnError",
        }
        if uid is not None:
            sidecar["securityContext"] = {"runAsUser": uid}
        ensure_list(pod, "containers").append(sidecar)
        check = (
            f"echo 'Pre-fetching modelcar {image}: ' && [ -d /models ] && [ \"$$(ls -A /models)\" ] && "
            "echo 'OK ... Prefetched and valid (/models exists)' || "
            "(echo 'NOK ... Prefetched but modelcar is invalid (/models does not exist or is empty)' && exit 1)"
        )
        ensure_list(pod, "initContainers").append(
            {
                "name": MODELCAR_INIT,
                "image": image,
                "args": ["sh", "-c", check],
                "resources": _resources(cpu, memory, cpu, memory),
                "terminationMessagePolicy": "FallbackToLogsOnError",
            }
        )
    pod["shareProcessNamespace"] = True


def _attach_oci_native(pod: dict[str, Any], uri: str, target: _Target) -> None:
    """ConfigureOciNativeToContainer: an image volume named after the model path, mounted with subPath models."""
    main = _require_container(pod, target)
    volume = target.model_path.strip("/").replace("/", "-") or "oci-model"
    for mount in main.get("volumeMounts") or []:
        if mount.get("mountPath") == target.model_path and mount.get("name") != volume:
            raise LlmcError(
                f"mountPath {quote(target.model_path)} already used by volume {quote(str(mount.get('name')))}",
                Location(path=f"{target.where}.containers"),
                hint=f"the OCI image volume is mounted at {target.model_path} on container {target.container}",
            )
    if not any(v.get("name") == volume for v in pod.get("volumes") or []):
        reference = uri[len(OCI):] if uri.startswith(OCI) else uri
        ensure_list(pod, "volumes").append({"name": volume, "image": {"reference": reference, "pullPolicy": "IfNotPresent"}})
    if not any(m.get("name") == volume for m in main.get("volumeMounts") or []):
        ensure_list(main, "volumeMounts").append(
            {"name": volume, "readOnly": True, "mountPath": target.model_path, "subPath": "models"}
        )


def _attach_single_download(ctx: RenderContext, pod: dict[str, Any], uri: str, target: _Target, *, hf: bool) -> None:
    """attachHfModelArtifact / attachS3ModelArtifact: one storage-initializer writing the model at the
    volume's root (always mounted at /mnt/models on it), the volume mounted at the model path."""
    confidential = (ctx.spec.get("model") or {}).get("confidential") or {}
    container = _storage_initializer([uri, MODEL_PATH], ctx.settings.storage_initializer)
    if confidential.get("enabled"):
        _add_or_replace_env(container, "CONFIDENTIAL_ENABLED", "true")
        if confidential.get("resourceId"):
            _add_or_replace_env(container, "CONFIDENTIAL_RESOURCE_ID", str(confidential["resourceId"]))
    init = _install(pod, container)
    add_model_mount(pod, INIT_NAME, PROVISION_VOLUME, MODEL_PATH, read_only=False)
    add_model_mount(pod, target.container, PROVISION_VOLUME, target.model_path, read_only=True)
    if hf:
        for name, value in HF_DEFAULT_ENV:
            add_env_if_absent(init, name, value)
    else:
        _inject_ca_bundle(ctx, pod, init)
    _tokenizer_only(init, target)


def _multi_download_or_strip(ctx: RenderContext, pod: dict[str, Any], pairs: list[tuple[str, str]], target: _Target) -> None:
    """pvc/oci bases: hf/s3 adapters still need a storage-initializer, else a user one is dropped."""
    if pairs:
        _attach_multi_download(ctx, pod, pairs, target)
    else:
        _extract_storage_initializer(pod)


def _attach_multi_download(ctx: RenderContext, pod: dict[str, Any], pairs: list[tuple[str, str]], target: _Target) -> None:
    """attachMultiStorageDownloads: args uri1 path1 uri2 path2 ..., the volume at the common parent."""
    parent = common_parent_path([p for _, p in pairs]) or "/"
    args = [item for pair in pairs for item in pair]
    init = _install(pod, _storage_initializer(args, ctx.settings.storage_initializer))
    add_model_mount(pod, INIT_NAME, PROVISION_VOLUME, parent, read_only=False)
    add_model_mount(pod, target.container, PROVISION_VOLUME, parent, read_only=True)
    if any(uri.startswith(HF) for uri, _ in pairs):
        for name, value in HF_DEFAULT_ENV:
            add_env_if_absent(init, name, value)
    _tokenizer_only(init, target)
    _inject_ca_bundle(ctx, pod, init)


def _tokenizer_only(init: dict[str, Any], target: _Target) -> None:
    """The scheduler's tokenizer sidecar downloads only the tokenizer files."""
    if target.container == TOKENIZER_CONTAINER:
        add_env_if_absent(init, "STORAGE_ALLOW_PATTERNS", TOKENIZER_FILES)


# -- storage-initializer ---------------------------------------------------------------------


def _storage_initializer(args: list[str], settings: dict[str, Any]) -> dict[str, Any]:
    """CreateInitContainerWithConfig from the inferenceservice-config storageInitializer JSON."""
    return {
        "name": INIT_NAME,
        "image": settings.get("image") or DEFAULT_IMAGE,
        "args": list(args),
        "resources": _resources(
            settings.get("cpuRequest"), settings.get("memoryRequest"), settings.get("cpuLimit"), settings.get("memoryLimit")
        ),
        "terminationMessagePolicy": "FallbackToLogsOnError",
    }


def _install(pod: dict[str, Any], container: dict[str, Any]) -> dict[str, Any]:
    """Merge a user-written storage-initializer onto the built one (name/args/command stay the
    controller's) and append the result as the last init container."""
    user = _extract_storage_initializer(pod)
    if user is not None:
        merged = merge_container(container, user)
        merged["name"] = container["name"]
        merged["args"] = container["args"]
        merged.pop("command", None)
        container = merged
    ensure_list(pod, "initContainers").append(container)
    return container


def _extract_storage_initializer(pod: dict[str, Any]) -> dict[str, Any] | None:
    """Remove every init container named storage-initializer; return the last one removed."""
    found: dict[str, Any] | None = None
    kept = []
    for container in pod.get("initContainers") or []:
        if container.get("name") == INIT_NAME:
            found = container
        else:
            kept.append(container)
    if found is not None:
        pod["initContainers"] = kept
    return found


def _inject_ca_bundle(ctx: RenderContext, pod: dict[str, Any], init: dict[str, Any]) -> None:
    """injectCaBundle: when a CA bundle ConfigMap is configured (or named by AWS_CA_BUNDLE_CONFIGMAP)."""
    settings = ctx.settings.storage_initializer
    configured = str(settings.get("caBundleConfigMapName") or "")
    env = init.get("env") or []
    if not configured and not any(e.get("name") == "AWS_CA_BUNDLE_CONFIGMAP" for e in env):
        return
    name = configured if ctx.namespace == ctx.settings.system_namespace else "global-ca-bundle"
    mount_path = str(settings.get("caBundleVolumeMountPath") or "") or "/etc/ssl/custom-certs"
    has_name = has_mount_point = False
    for entry in env:
        key = entry.get("name")
        if key == "AWS_CA_BUNDLE_CONFIGMAP":
            name = entry.get("value") or ""
        elif key == "AWS_CA_BUNDLE":
            mount_path = _go_dir(entry.get("value") or "")
        elif key == "CA_BUNDLE_CONFIGMAP_NAME":
            has_name = True
        elif key == "CA_BUNDLE_VOLUME_MOUNT_POINT":
            has_mount_point = True
    if not has_name:
        ensure_list(init, "env").append(_env("CA_BUNDLE_CONFIGMAP_NAME", name))
    if not has_mount_point:
        ensure_list(init, "env").append(_env("CA_BUNDLE_VOLUME_MOUNT_POINT", mount_path))
    ensure_list(pod, "volumes").append({"name": CA_BUNDLE_VOLUME, "configMap": {"name": name}})
    ensure_list(init, "volumeMounts").append({"name": CA_BUNDLE_VOLUME, "readOnly": True, "mountPath": mount_path})


# -- small helpers ---------------------------------------------------------------------------


def _require_container(pod: dict[str, Any], target: _Target) -> dict[str, Any]:
    container = find_container(pod.get("containers"), target.container)
    if container is None:
        raise LlmcError(
            f"no container found with name {target.container}",
            Location(path=f"{target.where}.containers"),
            hint=f"the model is attached to the container named {target.container}",
        )
    return container


def _add_or_replace_env(container: dict[str, Any], name: str, value: str) -> None:
    """AddOrReplaceEnv: sets the value of the first entry of that name (a valueFrom stays), else appends."""
    env = ensure_list(container, "env")
    for entry in env:
        if entry.get("name") == name:
            entry["value"] = value
            return
    env.append(_env(name, value))


def _env(name: str, value: str) -> dict[str, Any]:
    return {"name": name, "value": value} if value else {"name": name}


def _resources(cpu_request: Any, memory_request: Any, cpu_limit: Any, memory_limit: Any) -> dict[str, Any]:
    return {
        "limits": {"cpu": _quantity(cpu_limit, "cpu"), "memory": _quantity(memory_limit, "memory")},
        "requests": {"cpu": _quantity(cpu_request, "cpu"), "memory": _quantity(memory_request, "memory")},
    }


def _quantity(value: Any, what: str) -> str:
    """resource.MustParse(value) as it marshals; a bad value would make the controller panic."""
    try:
        return canonical_quantity("" if value is None else value)
    except ValueError:
        raise LlmcError(
            f"storageInitializer {what} quantity {quote(str(value if value is not None else ''))} is not a valid quantity",
            Location(path="storageInitializer"),
            hint="fix the storageInitializer JSON of the inferenceservice-config given to --kserve-config",
            exit_code=2,
        ) from None


def _parent_directory(path: str) -> str:
    """GetParentDirectory: the directory of the path, "/" for top-level paths."""
    parent = _go_dir(path)
    return "/" if parent in (".", "/") else parent


def _shell_quote(text: str) -> str:
    """ShellQuote: unchanged when only [A-Za-z0-9/._-], else single-quoted with ' as '\\''."""
    if not text:
        return "''"
    if all(c.isascii() and (c.isalnum() or c in "/._-") for c in text):
        return text
    return "'" + text.replace("'", "'\\''") + "'"


def _go_dir(path: str) -> str:
    """Go's filepath.Dir on Linux: everything before the last slash, cleaned ("." when none)."""
    head = path[: path.rfind("/") + 1]
    cleaned = posixpath.normpath(head) if head else "."
    return cleaned[1:] if cleaned.startswith("//") else cleaned


def _merge_object(base: dict[str, Any], patch: dict[str, Any], merge_keys: dict[str, str]) -> dict[str, Any]:
    for key, value in patch.items():
        current = base.get(key)
        if key in merge_keys and isinstance(current, list) and isinstance(value, list):
            base[key] = _merge_list(current, value, merge_keys[key])
        elif isinstance(current, dict) and isinstance(value, dict):
            base[key] = _merge_object(current, value, {})
        else:
            base[key] = copy_json(value)
    return base


def _merge_list(original: list[Any], patch: list[Any], key: str) -> list[Any]:
    """Strategic merge of a list of objects by `key`, in apimachinery's element order: patch
    items keep their patch order, items only in the original keep theirs, and an original-only
    item is placed before a patch item only when it came first in the original."""
    if not original and not patch:
        return original
    merged = [copy_json(item) for item in original]
    for item in patch:
        for i, existing in enumerate(merged):
            if existing.get(key) == item.get(key):
                merged[i] = _merge_object(existing, item, {})
                break
        else:
            merged.append(copy_json(item))
    patch_keys = [item.get(key) for item in patch]
    original_keys = [item.get(key) for item in original]
    from_patch = sorted((m for m in merged if m.get(key) in patch_keys), key=lambda m: patch_keys.index(m.get(key)))
    server_only = [m for m in merged if m.get(key) not in patch_keys]

    def position(item: dict[str, Any]) -> int:
        value = item.get(key)
        return original_keys.index(value) if value in original_keys else -1

    return merge_sorted(server_only, from_patch, position)

