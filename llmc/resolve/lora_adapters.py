"""LoRA adapters enumerated on the merged, templated spec (KServe `workload_lora.go`,
enumerateLoRAAdapters): sorted by name, each with a sanitised mount path under /mnt/lora.

Unsupported schemes fail here, as the controller's config merge does; the pod step that
mounts the adapters and passes the vLLM flags is `llmc.render.lora`.
"""

from __future__ import annotations

import re

from llmc.core.errors import LlmcError, Location
from llmc.go.url import quote
from llmc.kserve.spec import HF, OCI, PVC, S3, go_uri, storage_initializer_disabled

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any


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


def _fail(message: str, path: str, service: dict[str, Any]) -> None:
    name = (service.get("metadata") or {}).get("name", "")
    raise LlmcError(
        message,
        Location(path=path),
        hint=f"the controller fails to merge the configs of {name} (failed to enumerate LoRA adapters)",
    )
