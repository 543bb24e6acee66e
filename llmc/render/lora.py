"""LoRA adapters: their enumeration on the merged spec and the pod step on container `main`.

KServe `workload_lora.go`. Adapters are sorted by name and get
a sanitised mount path under /mnt/lora. hf/s3 adapters are downloaded by the model's
storage-initializer (`storage.py`, multi-download); pvc adapters are mounted here. The vLLM
flags are put *before* the user's `main.args`, unless the workload already passes
`--lora-modules` itself.
"""

from __future__ import annotations


from llmc.core.errors import LlmcError, Location
from llmc.go.json import marshal as go_json
from llmc.k8s.names import child_name
from llmc.kserve.spec import MAIN, PVC, find_container, parse_pvc_uri
from llmc.render.context import RenderContext
from llmc.render.mounts import add_model_mount

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any


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


