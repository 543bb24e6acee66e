"""LoRA adapters: their enumeration on the merged spec and the pod step on container `main`.

KServe `workload_lora.go`. Adapters are sorted by name and get
a sanitised mount path under /mnt/lora. hf/s3 adapters are downloaded by the model's
storage-initializer (`storage.py`, multi-download); pvc adapters are mounted here. The vLLM
flags are put *before* the user's `main.args`, unless the workload already passes
`--lora-modules` itself.
"""

from __future__ import annotations

import re
from typing import Any

from llmc.core.errors import LlmcError, Location
from llmc.go.url import quote
from llmc.k8s.names import child_name
from llmc.go.json import marshal as go_json
from llmc.render.context import RenderContext
from llmc.render.storage import (
    HF, MAIN, OCI, PVC, S3, add_model_mount, find_container, go_uri, parse_pvc_uri, storage_initializer_disabled,
)

ROOT = "/mnt/lora"
DOCS_URL = "https://github.com/kserve/kserve/blob/master/docs/samples/llmisvc/lora-adapters/README.md"

_UNSAFE_PATH_CHARS = re.compile(r"[^a-zA-Z0-9._-]")


def enumerate_adapters(spec: dict[str, Any], service: dict[str, Any]) -> list[dict[str, Any]]:
    """enumerateLoRAAdapters on the merged, templated spec: adapters sorted by name, each as
    `{name, mountPath, uri, scheme}`; unsupported schemes raise the controller's errors.

    `service` is the stored service; its name is used in the errors' hint.
    """
    adapters = ((spec.get("model") or {}).get("lora") or {}).get("adapters") or []
    disabled = storage_initializer_disabled(spec)
    order = sorted(range(len(adapters)), key=lambda i: str(adapters[i].get("name") or ""))
    out: list[dict[str, Any]] = []
    for index in order:
        adapter = adapters[index]
        name = str(adapter.get("name") or "")
        path = f"spec.model.lora.adapters[{index}].uri"
        uri = go_uri(adapter.get("uri"), path)
        scheme, sep, _ = uri.partition("://")
        if not sep:
            _fail(f"LoRA adapter {quote(name)}: invalid URI {quote(uri)}", path, service)
        scheme += "://"
        if scheme in (HF, S3):
            if disabled:
                _fail(
                    f"LoRA adapter {quote(name)}: hf:// and s3:// require the storage initializer — "
                    f"set storageInitializer.enabled to true (see {DOCS_URL})",
                    path,
                    service,
                )
        elif scheme == PVC:
            if disabled:
                _fail(
                    f"LoRA adapter {quote(name)}: pvc:// requires a mounted volume — "
                    f"do not set storageInitializer.enabled to false (see {DOCS_URL})",
                    path,
                    service,
                )
        elif scheme == OCI:
            _fail(
                f"LoRA adapter {quote(name)}: oci:// is not supported for LoRA adapters; "
                f"use hf://, s3://, or pvc:// instead (see {DOCS_URL})",
                path,
                service,
            )
        else:
            _fail(
                f"LoRA adapter {quote(name)}: unsupported URI scheme {quote(scheme)}; "
                f"supported schemes are hf://, s3://, pvc:// (see {DOCS_URL})",
                path,
                service,
            )
        out.append({"name": name, "mountPath": f"{ROOT}/{sanitize_segment(name)}", "uri": uri, "scheme": scheme})
    return out


def sanitize_segment(name: str) -> str:
    """sanitizeLoRAPathSegment: characters outside [a-zA-Z0-9._-] become "-"; "", "." and ".." become "adapter"."""
    out = _UNSAFE_PATH_CHARS.sub("-", name)
    return "adapter" if out in ("", ".", "..") else out


def attach(ctx: RenderContext, pod: dict[str, Any], where: str) -> None:
    """attachLoRAAdapters, the last part of the model step (`storage.attach`): pvc adapter mounts,
    then the vLLM flags on `main`. `where` is the pod's field path, for errors."""
    adapters = ctx.lora_adapters
    if not adapters:
        return
    modules: list[str] = []
    for adapter in adapters:
        name, mount_path = adapter["name"], adapter["mountPath"]
        if adapter["scheme"] == PVC:
            claim, sub_path = parse_pvc_uri(adapter["uri"])
            add_model_mount(
                pod, MAIN, child_name("lora-pvc-", name), mount_path, read_only=True, sub_path=sub_path, claim=claim
            )
        for served in (name, f"publishers/{ctx.namespace}/models/{name}"):
            modules.append(go_json({"name": served, "path": mount_path}))

    main = find_container(pod.get("containers"), MAIN)
    if main is None:
        raise LlmcError(
            f'no container "{MAIN}" in pod spec for LoRA injection',
            Location(path=f"{where}.containers"),
            hint="LoRA flags are added to the container named main",
        )
    if user_supplied_lora_modules(main):
        return
    lora = (ctx.spec.get("model") or {}).get("lora") or {}
    argv = ["--enable-lora"]
    for field, flag in (("maxRank", "--max-lora-rank"), ("maxAdapters", "--max-loras"), ("maxCpuAdapters", "--max-cpu-loras")):
        if lora.get(field) is not None:
            argv.append(f"{flag}={int(lora[field])}")
    argv.append("--lora-modules")
    argv += [f"'{module}'" for module in modules]
    main["args"] = argv + list(main.get("args") or [])


def user_supplied_lora_modules(container: dict[str, Any]) -> bool:
    """userSuppliedLoRAConfig: `--lora-modules` in a literal VLLM_ADDITIONAL_ARGS, or in command+args."""
    for entry in container.get("env") or []:
        if entry.get("name") == "VLLM_ADDITIONAL_ARGS" and "--lora-modules" in str(entry.get("value") or ""):
            return True
    joined = " ".join(container.get("command") or []) + " " + " ".join(container.get("args") or [])
    return "--lora-modules" in joined


def _fail(message: str, path: str, service: dict[str, Any]) -> None:
    name = (service.get("metadata") or {}).get("name", "")
    raise LlmcError(
        message,
        Location(path=path),
        hint=f"the controller fails to merge the configs of {name} (failed to enumerate LoRA adapters)",
    )
