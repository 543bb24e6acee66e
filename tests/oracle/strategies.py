"""A hypothesis strategy over the valid LLMInferenceService spec space, for the differential tests.

Every drawn input is one the controller accepts: the webhook's rules (llmc/admit/webhook.py) hold by
construction, e.g. a worker only with data or pipeline parallelism, `data` and `dataLocal`
together, route refs only with gateway refs. Where llmc and the controller then disagree, one of
them is wrong.

The issue's further features (KV-cache tiers, tracing, LoRA adapters, HPA/KEDA scaling) are drawn
rarely on top of these. `generate(n)` draws n distinct inputs with a fixed seed, so the suite and the bench compare the
same services on every run (for a given hypothesis version, which pyproject.toml pins).
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

WORDS = ("llama", "qwen", "granite", "mistral", "chat", "team", "prod", "canary", "instruct", "serving",
         "experimental", "inference", "service", "very", "long", "name", "x")
HF_MODELS = ("facebook/opt-125m", "Qwen/Qwen2.5-7B-Instruct", "meta-llama/Llama-3.1-8B-Instruct",
             "deepseek-ai/DeepSeek-R1-0528", "ibm-granite/granite-3.3-8b-instruct")
LABEL_KEYS = ("app", "team", "example.com/owner", "app.kubernetes.io/part-of", "cost-center")
ANNOTATION_KEYS = ("example.com/note", "owner", "prometheus.io/scrape", "argocd.argoproj.io/sync-wave")
VALUES = ("a", "team-a", "true", "42", "prod", "x-y.z_1")
ENV_NAMES = ("VLLM_LOGGING_LEVEL", "VLLM_ADDITIONAL_ARGS", "HF_HUB_OFFLINE", "LLMC_TEST")
INLINE_CONFIG = {
    "apiVersion": "inference.networking.x-k8s.io/v1alpha1",
    "kind": "EndpointPickerConfig",
    "plugins": [{"type": "queue-scorer"}, {"type": "kv-cache-utilization-scorer"}, {"type": "max-score-picker"}],
    "schedulingProfiles": [{"name": "default", "plugins": [
        {"pluginRef": "queue-scorer", "weight": 2}, {"pluginRef": "kv-cache-utilization-scorer", "weight": 1},
        {"pluginRef": "max-score-picker"}]}],
}


@st.composite
def names(draw) -> str:
    """A DNS-1123 label; long ones (up to 63) make every child name go through ChildName's shortening."""
    words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=10))
    name = "-".join(words)
    if draw(st.booleans()):
        name += f"-{draw(st.integers(0, 999))}"
    return name[:63].strip("-") or "x"


def _string_map(keys) -> st.SearchStrategy:
    return st.dictionaries(st.sampled_from(keys), st.sampled_from(VALUES), max_size=3)


@st.composite
def model(draw) -> dict:
    scheme = draw(st.sampled_from(("hf", "s3", "pvc", "oci")))
    hf = draw(st.sampled_from(HF_MODELS))
    uri = {
        "hf": f"hf://{hf}",
        "s3": f"s3://model-bucket/{hf.lower()}",
        "pvc": f"pvc://model-store/{hf}",
        "oci": f"oci://quay.io/example/{hf.split('/')[1].lower()}:1.0",
    }[scheme]
    out = {"uri": uri}
    if draw(st.booleans()):
        out["name"] = hf
    return out


@st.composite
def container(draw, gpus: int) -> dict:
    main: dict = {"name": "main"}
    if gpus:
        main["resources"] = {"limits": {"nvidia.com/gpu": str(gpus)}}
    elif draw(st.booleans()):
        main["resources"] = {"limits": {"cpu": "2", "memory": "8Gi"}, "requests": {"cpu": "1", "memory": "4Gi"}}
    env = draw(st.lists(st.sampled_from(ENV_NAMES), max_size=2, unique=True))
    if env:
        main["env"] = [{"name": n, "value": draw(st.sampled_from(VALUES))} for n in env]
    return main


@st.composite
def pod(draw, gpus: int) -> dict:
    spec: dict = {"containers": [draw(container(gpus))]}
    if draw(st.integers(0, 3)) == 0:
        spec["tolerations"] = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
    if draw(st.integers(0, 3)) == 0:
        spec["nodeSelector"] = {"example.com/pool": draw(st.sampled_from(VALUES))}
    return spec


@st.composite
def workload(draw, allow_worker: bool = True) -> dict:
    """replicas, parallelism, template and worker of the decode (or prefill) workload."""
    out: dict = {}
    if draw(st.booleans()):
        out["replicas"] = draw(st.integers(1, 3))
    kind = draw(st.sampled_from(("none", "tensor", "pipeline", "data")))
    tensor = draw(st.sampled_from((1, 2, 4, 8)))
    worker = allow_worker and kind in ("pipeline", "data") and draw(st.booleans())
    if kind == "tensor":
        out["parallelism"] = {"tensor": tensor}
    elif kind == "pipeline":
        out["parallelism"] = {"pipeline": draw(st.integers(2, 4))}
        if draw(st.booleans()):
            out["parallelism"]["tensor"] = tensor
    elif kind == "data":
        local = draw(st.sampled_from((1, 2, 4, 8)))
        out["parallelism"] = {"data": local * draw(st.sampled_from((1, 2, 4))), "dataLocal": local}
        if draw(st.booleans()):
            out["parallelism"]["expert"] = draw(st.booleans())
        if draw(st.booleans()):
            out["parallelism"]["tensor"] = tensor
    gpus = draw(st.sampled_from((0, 1, tensor)))
    if draw(st.integers(0, 4)):
        out["template"] = draw(pod(gpus))
    if worker:
        out["worker"] = draw(pod(gpus))
    return out


def _gateway_ref(draw) -> dict:
    ref = {"name": draw(st.sampled_from(("shared-gateway", "llm-gateway"))), "namespace": "gateways"}
    if draw(st.booleans()):
        ref["sectionName"] = "https"
    return ref


@st.composite
def router(draw) -> tuple[dict | None, list[dict]]:
    """spec.router and the documents it needs (a ConfigMap for a scheduler config ref)."""
    variant = draw(st.sampled_from(("none", "managed", "managed-no-scheduler", "gateway-refs", "route-refs",
                                    "inline-config", "config-ref", "pool-ref")))
    if variant == "none":
        return None, []
    gateway: dict = {}
    route: dict = {}
    scheduler: dict | None = {}
    extra: list[dict] = []
    if variant == "managed-no-scheduler":
        scheduler = None
    elif variant == "gateway-refs":
        gateway = {"refs": [_gateway_ref(draw)]}
    elif variant == "route-refs":
        gateway = {"refs": [_gateway_ref(draw)]}
        route = {"http": {"refs": [{"name": f"own-route-{i}"} for i in range(draw(st.integers(1, 2)))]}}
    elif variant == "inline-config":
        scheduler = {"config": {"inline": INLINE_CONFIG}}
    elif variant == "config-ref":
        scheduler = {"config": {"ref": {"name": "epp-config", "key": "config.yaml"}}}
        extra.append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "epp-config"},
                      "data": {"config.yaml": json.dumps(INLINE_CONFIG)}})
    elif variant == "pool-ref":
        scheduler = {"pool": {"ref": {"name": "shared-pool"}}}
    if scheduler is not None and variant != "pool-ref" and draw(st.integers(0, 3)) == 0:
        scheduler["replicas"] = draw(st.integers(1, 3))
    out = {"gateway": gateway, "route": route}
    if scheduler is not None:
        out["scheduler"] = scheduler
    return out, extra


@st.composite
def features(draw, spec: dict) -> dict:
    """Optional features, each drawn rarely: KV-cache tiers, tracing, LoRA adapters, HPA or KEDA scaling."""
    out: dict = {}
    if draw(st.integers(0, 5)) == 0:
        tiers = draw(st.lists(st.sampled_from(({"fileSystem": {"emptyDir": {"size": "100Gi"}}},
                                               {"fileSystem": {"pvc": {"ref": {"name": "kv-cache", "path": "q/"}}}})),
                              max_size=2, unique_by=json.dumps))
        out["kvCacheOffloading"] = {"cpu": draw(st.sampled_from(("1Gi", "10Gi"))), **({"secondary": tiers} if tiers else {})}
    if draw(st.integers(0, 5)) == 0:
        out["tracing"] = {}
    if draw(st.integers(0, 5)) == 0:
        out["model"] = {**spec["model"], "lora": {"adapters": [
            {"name": f"adapter-{i}", "uri": "hf://edbeeching/opt-125m-lora"} for i in range(draw(st.integers(1, 2)))]}}
    # Scaling replaces replicas, on the decode workload only (prefill would need the same actuator).
    if "prefill" not in spec and "worker" not in spec and draw(st.integers(0, 5)) == 0:
        bounds = {"minReplicas": 1, "maxReplicas": draw(st.integers(2, 8))}
        if draw(st.booleans()):
            out["scaling"] = {**bounds, "wva": {"hpa": {}}}
        else:
            out["scaling"] = {**bounds, "keda": {"triggers": [{"type": "prometheus", "metadata": {
                "serverAddress": "http://prometheus.monitoring:9090", "query": "sum(vllm:num_requests_waiting)",
                "threshold": "10"}}]}}
    return out


def _pipeline_config(name: str, prefill: bool) -> dict:
    """A user config the controller selects for pipeline parallelism with a worker: KServe ships no such preset
    (without it both sides refuse the service), so a cluster that serves one defines it, here in the
    service's namespace."""
    def run() -> dict:
        return {"name": "main", "image": "vllm/vllm-openai:v0.11.0", "command": ["/bin/sh", "-c"],
                "args": ["vllm serve /mnt/models --pipeline-parallel-size {{ .Spec.Parallelism.Pipeline }}"]}

    workload = {"template": {"containers": [run()]}, "worker": {"containers": [run()]}}
    return {"apiVersion": "serving.kserve.io/v1alpha2", "kind": "LLMInferenceServiceConfig",
            "metadata": {"name": name}, "spec": {"prefill": workload} if prefill else workload}


@st.composite
def services(draw) -> list[dict]:
    """One LLMInferenceService (v1alpha2), and the documents it refers to, as a list of documents."""
    metadata: dict = {"name": draw(names())}
    labels, annotations = draw(_string_map(LABEL_KEYS)), draw(_string_map(ANNOTATION_KEYS))
    if labels:
        metadata["labels"] = labels
    if annotations:
        metadata["annotations"] = annotations
    spec: dict = {"model": draw(model()), **draw(workload())}
    if draw(st.integers(0, 2)) == 0:
        spec["prefill"] = draw(workload())
    spec.update(draw(features(spec)))
    decode = "kserve-config-llm-decode-worker-pipeline-parallel" if "prefill" in spec else "kserve-config-llm-worker-pipeline-parallel"
    extra_configs = [_pipeline_config(name, prefill) for name, prefill, workload_spec in
                     ((decode, False, spec), ("kserve-config-llm-prefill-worker-pipeline-parallel", True, spec.get("prefill") or {}))
                     if "worker" in workload_spec and "pipeline" in (workload_spec.get("parallelism") or {})]
    if "scaling" in spec:
        spec.pop("replicas", None)
    route, extra = draw(router())
    if route is not None:
        spec["router"] = route
    base_refs = ["kserve-config-llm-tracing"] if draw(st.integers(0, 4)) == 0 else []
    if route is not None and "scheduler" in route and "pool" not in route["scheduler"] and draw(st.integers(0, 4)) == 0:
        base_refs.append("kserve-config-llm-scheduler-latency-predictor")
    if base_refs:
        spec["baseRefs"] = [{"name": n} for n in base_refs]
    service = {"apiVersion": "serving.kserve.io/v1alpha2", "kind": "LLMInferenceService", "metadata": metadata,
               "spec": spec}
    return [service, *extra, *extra_configs]


def generate(n: int, seed_value: int = 19) -> list[list[dict]]:
    """n distinct inputs drawn from `services()`, the same ones on every call with the same seed."""
    found: list[list[dict]] = []
    seen: set[str] = set()

    @seed(seed_value)
    @settings(max_examples=4 * n + 20, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(services())
    def collect(docs: list[dict]) -> None:
        # Distinct apart from the service's name: hypothesis starts with the simplest inputs, which
        # would otherwise differ in their names only.
        key = json.dumps([docs[0]["spec"], docs[0]["metadata"].get("labels"), docs[1:]], sort_keys=True)
        if len(found) < n and key not in seen:
            seen.add(key)
            found.append(docs)

    collect()
    if len(found) < n:
        raise RuntimeError(f"drew only {len(found)} distinct services of {n}")
    return found
