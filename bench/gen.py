"""Deterministic generator of distinct LLMInferenceService documents for the batch and memory benchmarks.

Six shapes in rotation: single-node with router, single-node without router,
prefill/decode, multi-node data parallel, managed DRA, LoRA. Names, namespaces,
models, replica counts, parallelism and environment vary with the index, so no
two services render to the same objects, while the presets they use repeat, as
in a real monorepo.
"""

from __future__ import annotations

import json
from pathlib import Path

MODELS = (
    "meta-llama/Llama-3.1-8B-Instruct",
    "Qwen/Qwen2.5-7B-Instruct",
    "mistralai/Mistral-7B-Instruct-v0.3",
    "deepseek-ai/DeepSeek-R1-0528",
    "facebook/opt-125m",
    "ibm-granite/granite-3.3-8b-instruct",
    "google/gemma-3-12b-it",
)
SHAPES = ("single", "single-no-router", "prefill-decode", "multinode-dp", "dra", "lora")
ROUTER = {"gateway": {}, "route": {}, "scheduler": {}}


def _main_container(gpus: int, i: int) -> dict:
    container: dict = {
        "name": "main",
        "resources": {
            "limits": {"nvidia.com/gpu": str(gpus), "memory": f"{16 * gpus + i % 8}Gi"},
            "requests": {"cpu": str(2 + i % 4), "memory": f"{8 * gpus}Gi"},
        },
    }
    if i % 3 == 0:
        container["env"] = [{"name": "VLLM_LOGGING_LEVEL", "value": "DEBUG" if i % 2 else "INFO"},
                            {"name": "LLMC_BENCH_INDEX", "value": str(i)}]
    return container


def service(i: int) -> dict:
    """The i-th service: its shape is SHAPES[i % 6]."""
    shape = SHAPES[i % len(SHAPES)]
    model = MODELS[(i // len(SHAPES)) % len(MODELS)]
    name = f"{shape}-{model.split('/')[1].lower().replace('.', '-')}-{i:05d}"[:50].rstrip("-")
    meta: dict = {"name": name, "namespace": f"team-{i % 13:02d}", "labels": {"bench.llmc.dev/index": str(i)}}
    spec: dict = {"model": {"uri": f"hf://{model}", "name": model}, "replicas": 1 + i % 3}
    gpus = 1 + i % 2
    if shape != "single-no-router":
        spec["router"] = json.loads(json.dumps(ROUTER))
    if shape == "prefill-decode":
        spec["parallelism"] = {"tensor": gpus}
        spec["template"] = {"containers": [_main_container(gpus, i)]}
        spec["prefill"] = {"replicas": 1 + i % 2, "parallelism": {"tensor": 2},
                           "template": {"containers": [_main_container(2, i + 1)]}}
    elif shape == "multinode-dp":
        spec["replicas"] = 1
        spec["parallelism"] = {"data": 8 * gpus, "dataLocal": 4, "expert": True, "tensor": 1}
        spec["template"] = {"containers": [_main_container(4, i)]}
        spec["worker"] = {"containers": [_main_container(4, i)]}
    elif shape == "dra":
        meta["annotations"] = {
            "serving.kserve.io/exp-dra-device-class": "gpu.nvidia.com",
            "serving.kserve.io/exp-dra-device-count": str(gpus),
        }
        spec["parallelism"] = {"tensor": gpus}
        container = _main_container(gpus, i)
        del container["resources"]["limits"]["nvidia.com/gpu"]
        spec["template"] = {"containers": [container]}
    elif shape == "lora":
        spec["model"]["lora"] = {"adapters": [{"name": f"adapter-{i}-{k}", "uri": f"hf://org/lora-{i}-{k}"}
                                              for k in range(1 + i % 3)]}
        spec["template"] = {"containers": [_main_container(gpus, i)]}
    else:
        spec["template"] = {"containers": [_main_container(gpus, i)]}
    return {"apiVersion": "serving.kserve.io/v1alpha2", "kind": "LLMInferenceService", "metadata": meta, "spec": spec}


def write(folder: Path, count: int, per_file: int = 100) -> list[Path]:
    """Write `count` services as JSON-in-YAML documents, `per_file` to a file; returns the files."""
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for start in range(0, count, per_file):
        path = folder / f"services-{start // per_file:04d}.yaml"
        docs = [json.dumps(service(i), indent=2) for i in range(start, min(count, start + per_file))]
        path.write_text("---\n" + "\n---\n".join(docs) + "\n", encoding="utf-8")
        files.append(path)
    return files
