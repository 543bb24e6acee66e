"""Parallelism: the LeaderWorkerSet group size, and what the controller does with the
other `parallelism` fields silently (`ParallelismSpec` in pkg/apis/serving/v1alpha2, the presets' templates).

Go code reads `parallelism` only for preset selection and the LWS size; every vLLM
flag comes from the preset templates, which see the service's *own* spec.
"""

from __future__ import annotations


from llmc.render.context import RenderContext

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

# Fields the single-node presets never render (only `tensor` reaches vLLM there).
_SINGLE_NODE_IGNORED = ("data", "dataLocal", "dataRPCPort", "expert")


def is_data_parallel(parallelism: dict[str, Any] | None) -> bool:
    """IsDataParallel: data > 0 or dataLocal > 0 (absent counts as 0)."""
    p = parallelism or {}
    return (p.get("data") or 0) > 0 or (p.get("dataLocal") or 0) > 0


def is_pipeline_parallel(parallelism: dict[str, Any] | None) -> bool:
    return ((parallelism or {}).get("pipeline") or 0) > 0


def lws_size(parallelism: dict[str, Any] | None) -> int | None:
    """GetSize: pods per LWS group (leader included); None leaves the LWS default of 1.

    Data parallel: max(max(data, 1) // max(dataLocal, 1), 1), absent values read as 1;
    pipeline parallel: `pipeline`; anything else: None.
    """
    if parallelism is None:
        return None
    if is_data_parallel(parallelism):
        data = max(parallelism.get("data") or 1, 1)
        local = max(parallelism.get("dataLocal") or 1, 1)
        return max(data // local, 1)
    if is_pipeline_parallel(parallelism):
        return parallelism["pipeline"]
    return None


def findings(ctx: RenderContext) -> None:
    """LLMC101, LLMC102, LLMC103 for the main and prefill workloads, LLMC105 for prefill."""
    spec = ctx.spec
    workloads = [("spec.", spec)]
    if spec.get("prefill") is not None:
        workloads.append(("spec.prefill.", spec["prefill"]))
    for prefix, workload in workloads:
        par = workload.get("parallelism")
        if par is None:
            continue
        _pipeline_finding(ctx, prefix, workload, par)
        if workload.get("worker") is None:
            for key in _SINGLE_NODE_IGNORED:
                if par.get(key) not in (None, False):
                    ctx.findings.add(
                        "LLMC102",
                        f"{prefix}parallelism.{key}",
                        f"{key}={par[key]} has no effect: without a worker the single-node preset "
                        "renders only parallelism.tensor",
                    )
        elif is_data_parallel(par):
            _size_finding(ctx, prefix, par)
    prefill = spec.get("prefill")
    if prefill is not None:
        for key in ("parallelism", "kvCacheOffloading"):
            if spec.get(key) is not None and prefill.get(key) is None:
                ctx.findings.add(
                    "LLMC105",
                    f"spec.prefill.{key}",
                    f"spec.{key} is set but spec.prefill.{key} is not: the prefill workload does not inherit it "
                    "(prefill presets read only spec.prefill)",
                )


def _pipeline_finding(ctx: RenderContext, prefix: str, workload: dict[str, Any], par: dict[str, Any]) -> None:
    """No shipped preset renders `pipeline`; only a container that mentions it uses it."""
    if not is_pipeline_parallel(par):
        return
    if any("pipeline-parallel" in text for text in _container_texts(workload)):
        return
    ctx.findings.add(
        "LLMC101",
        f"{prefix}parallelism.pipeline",
        f"pipeline={par['pipeline']} reaches no container: no command, argument or env value mentions "
        "pipeline parallelism; it only sizes the LeaderWorkerSet and selects the (unshipped) pipeline preset",
    )


def _size_finding(ctx: RenderContext, prefix: str, par: dict[str, Any]) -> None:
    data = max(par.get("data") or 1, 1)
    local = max(par.get("dataLocal") or 1, 1)
    if data % local == 0:
        return
    size = lws_size(par)
    ctx.findings.add(
        "LLMC103",
        f"{prefix}parallelism.data",
        f"data={data} is not a multiple of dataLocal={local}: the LeaderWorkerSet size is "
        f"{size} (integer division), so a group hosts {size * local} of the {data} data-parallel ranks "
        "vLLM waits for",
    )


def _container_texts(workload: dict[str, Any]) -> list[str]:
    texts: list[str] = []
    for key in ("template", "worker"):
        for container in (workload.get(key) or {}).get("containers") or []:
            texts += [str(x) for x in container.get("command") or []]
            texts += [str(x) for x in container.get("args") or []]
            texts += [str(e.get("value") or "") for e in container.get("env") or []]
    return texts


