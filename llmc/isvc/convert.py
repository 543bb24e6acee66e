"""`convert`: an InferenceService on the Hugging Face runtime (vLLM backend) as an LLMInferenceService.

What carries over, and where:

- the model: `storageUri` (hf://, s3://, pvc://) is `spec.model.uri`; without one, the
  server's `--model_id` (with `--model_revision`) becomes `hf://<id>[:<revision>]`; the
  served name, `--model_name` (the runtime's `{{.Name}}`, i.e. the InferenceService's
  name), is `spec.model.name`, so clients keep the model name they send;
- `minReplicas` is `spec.replicas`; a `RollingUpdate` deploymentStrategy is `spec.rolloutStrategy`;
- `--tensor-parallel-size` (`--tensor_parallel_size`, `-tp`) is `spec.parallelism.tensor`;
- `--max_length` / `--max_model_len` become `--max-model-len`, and every other flag of
  the server's vLLM argument parser is passed to `vllm serve` as a container arg of
  `main` (the presets put container args last, so they win over preset flags);
- the model container's resources (merged over the runtime's, as the pods had them),
  env, volumeMounts and securityContext go to `spec.template.containers[main]`; the
  predictor's pod fields (nodeSelector, tolerations, volumes, serviceAccountName, ...)
  and other containers to `spec.template`; predictor labels/annotations to
  `spec.labels`/`spec.annotations`; the InferenceService's own labels and annotations
  stay on the object, without the InferenceService-only annotations;
- exposure: `spec.router` gets a managed route through the default gateway, unless the
  InferenceService was cluster-local.

Everything else is reported as a finding (LLMC410-LLMC413) and dropped.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from llmc.core.errors import ErrorList, LlmcError, Location
from llmc.core.findings import Finding as Note
from llmc.core.record import record, replace
from llmc.isvc import shape
from llmc.isvc.admission import AUTOSCALER_CLASS, DEPLOYMENT_MODE, FRAMEWORKS, MODEL_FORMAT_ANNOTATION
from llmc.isvc.ingress import CLUSTER_LOCAL, VISIBILITY_LABEL
from llmc.isvc.placeholders import replace_placeholders
from llmc.isvc.podspec import CONTAINER_FIELDS, KSERVE_CONTAINER, POD_SPEC_FIELDS, merge_runtime_container
from llmc.isvc.runtimes import Runtime, select_runtime
from llmc.kserve.spec import find_container
from llmc.load.documents import Document
from llmc.render.storage import MODEL_PATH

LLM_API_VERSION = "serving.kserve.io/v1alpha2"
LLM_KIND = "LLMInferenceService"
MAIN = "main"
HF_SERVER = "huggingfaceserver"
LLM_SCHEMES = ("hf://", "s3://", "pvc://")

# Flags of KServe's model server and of the Hugging Face server that vLLM does not know.
SERVER_ONLY_FLAGS = frozenset({
    "http-port", "grpc-port", "workers", "max-threads", "max-asyncio-workers", "enable-grpc", "enable-docs-url",
    "enable-latency-logging", "configure-logging", "log-config-file", "access-log-format", "event-loop",
    "timeout-keep-alive", "predictor-host", "protocol", "predictor-protocol", "predictor-use-ssl",
    "predictor-request-timeout-seconds", "grpc-max-send-message-length", "grpc-max-receive-message-length",
    "predictor-request-retries", "enable-predictor-health-check", "disable-lower-case", "disable-special-tokens",
    "tensor-input-names", "return-token-type-ids", "return-offsets-mapping", "return-probabilities",
    "return-raw-logits",
})
# InferenceService annotations that mean nothing to an LLMInferenceService.
ISVC_ONLY_ANNOTATIONS = frozenset({
    DEPLOYMENT_MODE, "serving.kserve.io/metrics", "serving.kserve.io/targetUtilizationPercentage",
    "serving.kserve.io/enable-tag-routing", "serving.kserve.io/enable-metric-aggregation",
    "serving.kserve.io/enable-prometheus-scraping", "serving.kserve.io/gke-accelerator",
    "serving.kserve.io/storage-initializer-uid", "storage.kserve.io/readonly", "serving.kserve.io/disable-localmodel",
})
# Predictor fields without a counterpart (pod spec fields carry over to spec.template).
_DROPPED_PREDICTOR = ("workerSpec", "storageUris", "storageContainerName", "logger", "batcher", "containerConcurrency",
                      "timeout", "canaryTrafficPercent", "name")
# Predictor fields converted by their own step.
_CONVERTED_PREDICTOR = frozenset({"model", "minReplicas", "maxReplicas", "scaleTarget", "scaleMetric", "scaleMetricType",
                                  "autoScaling", "deploymentStrategy", "labels", "annotations", *FRAMEWORKS})
# Model container fields that carry over to the `main` container (resources merged with the runtime's).
_CARRIED_CONTAINER = ("resources", "env", "envFrom", "volumeMounts", "volumeDevices", "securityContext")
# Model fields converted by their own step; any other model field is dropped.
_CONVERTED_MODEL = frozenset({"modelFormat", "runtime", "storageUri", "args", *_CARRIED_CONTAINER})
_VALUE = re.compile(r"-?[0-9]+(\.[0-9]+)?")


@record
class _Arg:
    """One flag of the server's command line: where it came from, its name and value."""

    tokens: list[str]
    name: str  # without dashes, underscores as dashes
    value: str | None
    path: str


def convert(isvc: dict[str, Any], runtime: dict[str, Any]) -> tuple[dict[str, Any], list[Note]]:
    """The LLMInferenceService equivalent of `isvc` served by `runtime` (its ServingRuntime or
    ClusterServingRuntime object), and a finding for every setting without a counterpart."""
    return _Converter(isvc, runtime).run()


class _Converter:
    def __init__(self, isvc: dict[str, Any], runtime: dict[str, Any]) -> None:
        shape.check(isvc, shape.INFERENCE_SERVICE)
        shape.check(runtime, shape.RUNTIME)
        self.isvc = isvc
        meta = isvc.get("metadata") or {}
        self.name = str(meta.get("name") or "")
        if not self.name:
            raise LlmcError("metadata.name: Required value", Location(path="metadata"))
        self.key = f"{meta.get('namespace') or 'default'}/{self.name}"
        rt_meta = runtime.get("metadata") or {}
        self.runtime = Runtime(str(rt_meta.get("name", "")), rt_meta.get("namespace"), runtime.get("spec") or {},
                               dict(rt_meta.get("annotations") or {}))
        self.notes: list[Note] = []

    def note(self, code: str, path: str, message: str) -> None:
        self.notes.append(Note(self.key, code, path, message))

    def drop(self, path: str, what: str) -> None:
        self.note("LLMC410", path, f"{what} has no LLMInferenceService counterpart and is dropped")

    def run(self) -> tuple[dict[str, Any], list[Note]]:
        predictor, model, model_path = self.model()
        if self.runtime.server_type() != HF_SERVER:
            raise LlmcError(
                f"convert handles the Hugging Face runtime (server type {HF_SERVER}); runtime {self.runtime.name!r} "
                f"has server type {self.runtime.server_type()!r}", Location(path=f"{model_path}.runtime"))
        self.other_components()
        args = self.args(model, model_path)
        spec: dict[str, Any] = {"model": self.model_ref(model, model_path, args)}
        self.backend(args)
        replicas = self.replicas(predictor)
        if replicas is not None:
            spec["replicas"] = replicas
        tensor = self.tensor(args)
        if tensor is not None:
            spec["parallelism"] = {"tensor": tensor}
        template = self.template(predictor, model, model_path, args)
        if template:
            spec["template"] = template
        if (self.isvc["metadata"].get("labels") or {}).get(VISIBILITY_LABEL) != CLUSTER_LOCAL:
            spec["router"] = {"gateway": {}, "route": {}}
        for key in ("labels", "annotations"):
            if predictor.get(key):
                spec[key] = dict(predictor[key])
        rollout = self.rollout(predictor)
        if rollout:
            spec["rolloutStrategy"] = rollout
        self.note("LLMC413", "spec.predictor",
                  "the OpenAI routes move from /openai/v1/... (Hugging Face server) to /v1/... (vLLM), the KServe v1/v2 "
                  "inference protocol routes are gone, and the service is reached through the LLMInferenceService's "
                  "URL (status.url) instead of the InferenceService's host names")
        out = {"apiVersion": LLM_API_VERSION, "kind": LLM_KIND, "metadata": self.metadata(model), "spec": spec}
        return out, self.notes

    # -- model and runtime ------------------------------------------------------------------

    def model(self) -> tuple[dict[str, Any], dict[str, Any], str]:
        spec = self.isvc.get("spec") or {}
        predictor = spec.get("predictor")
        if not isinstance(predictor, dict):
            raise LlmcError("spec.predictor: Required value", Location(path="spec"))
        if isinstance(predictor.get("model"), dict):
            model, path = predictor["model"], "spec.predictor.model"
        elif isinstance(predictor.get("huggingface"), dict):
            model, path = {"modelFormat": {"name": "huggingface"}, **predictor["huggingface"]}, "spec.predictor.huggingface"
        else:
            raise LlmcError("convert needs spec.predictor.model (or spec.predictor.huggingface)", Location(path="spec.predictor"))
        fmt = (model.get("modelFormat") or {}).get("name")
        if fmt != "huggingface":
            raise LlmcError(f"convert handles models of format huggingface, not {fmt!r}",
                            Location(path=f"{path}.modelFormat.name"))
        return predictor, model, path

    def other_components(self) -> None:
        spec = self.isvc.get("spec") or {}
        for key in ("transformer", "explainer", "canary"):
            if spec.get(key):
                self.drop(f"spec.{key}", f"the {key}")
        predictor = spec["predictor"]
        for key in predictor:
            if key in _DROPPED_PREDICTOR or (key not in POD_SPEC_FIELDS and key not in _CONVERTED_PREDICTOR):
                if predictor[key] not in (None, "", [], {}):
                    self.drop(f"spec.predictor.{key}", f"spec.predictor.{key}")

    def args(self, model: dict[str, Any], model_path: str) -> list[_Arg]:
        """The server's command line: runtime args then model args, placeholders replaced, split into flags."""
        base = find_container(self.runtime.spec.get("containers"), KSERVE_CONTAINER)
        if base is None:
            raise LlmcError(f"failed to find {KSERVE_CONTAINER} in ServingRuntime containers")
        runtime_args = [str(a) for a in base.get("args") or []]
        model_args = [str(a) for a in model.get("args") or []]
        meta = self.isvc.get("metadata") or {}
        try:
            replaced = replace_placeholders({"args": runtime_args + model_args}, meta).get("args") or []
        except LlmcError as err:
            raise LlmcError(f"failed to replace placeholders in the server's args: {err.message}",
                            Location(path=f"{model_path}.args")) from None
        paths = [f"{self.runtime.kind}/{self.runtime.name}.spec.containers[{KSERVE_CONTAINER}].args[{i}]"
                 for i in range(len(runtime_args))] + [f"{model_path}.args[{i}]" for i in range(len(model_args))]
        out: list[_Arg] = []
        i = 0
        while i < len(replaced):
            token = replaced[i]
            if not token.startswith("-") or _VALUE.fullmatch(token):
                self.drop(paths[i], f"the positional argument {token!r}")
                i += 1
                continue
            flag, eq, value = token.partition("=")
            tokens = [token]
            if not eq:
                value = None
                if i + 1 < len(replaced) and (not replaced[i + 1].startswith("-") or _VALUE.fullmatch(replaced[i + 1])):
                    value = replaced[i + 1]
                    tokens.append(value)
            out.append(_Arg(tokens, flag.lstrip("-").replace("_", "-"), value, paths[i]))
            i += len(tokens)
        return out

    def take(self, args: list[_Arg], *names: str) -> _Arg | None:
        """Remove every occurrence of these flags; the last one wins, as with argparse."""
        found = [a for a in args if a.name in names]
        for a in found:
            args.remove(a)
        return found[-1] if found else None

    def model_ref(self, model: dict[str, Any], model_path: str, args: list[_Arg]) -> dict[str, Any]:
        name = self.take(args, "model-name")
        model_id = self.take(args, "model-id")
        revision = self.take(args, "model-revision")
        model_dir = self.take(args, "model-dir")
        uri = model.get("storageUri")
        if model_id is not None and model_id.value:
            if uri is not None:
                self.drop(f"{model_path}.storageUri", "storageUri (the Hugging Face server loads --model_id instead)")
            uri = f"hf://{model_id.value}" + (f":{revision.value}" if revision is not None and revision.value else "")
        elif revision is not None:
            self.drop(revision.path, "--model_revision without --model_id")
        if model_dir is not None and model_dir.value not in (None, MODEL_PATH):
            self.drop(model_dir.path, f"--model_dir {model_dir.value}")
        if not isinstance(uri, str) or not uri:
            raise LlmcError("convert needs a model: storageUri or the server's --model_id", Location(path=model_path))
        if not uri.startswith(LLM_SCHEMES):
            raise LlmcError(f"storageUri {uri!r} has no LLMInferenceService counterpart",
                            Location(path=f"{model_path}.storageUri"),
                            hint="LLMInferenceService models are hf://, s3://, pvc:// or oci:// URIs")
        return {"uri": uri, "name": name.value if name is not None and name.value else self.name}

    def backend(self, args: list[_Arg]) -> None:
        backend = self.take(args, "backend")
        value = backend.value if backend is not None else None
        if value == "vllm":
            return
        if value == "huggingface":
            raise LlmcError("the InferenceService runs the Hugging Face backend (--backend=huggingface); "
                            "an LLMInferenceService serves with vLLM", Location(path=backend.path))
        self.note("LLMC412", backend.path if backend is not None else "spec.predictor.model.args",
                  f"--backend is {value or 'auto'}: the server used vLLM only when vLLM supports the model's "
                  "architecture; the LLMInferenceService always serves with vLLM")

    def tensor(self, args: list[_Arg]) -> int | None:
        arg = self.take(args, "tensor-parallel-size", "tp")
        if arg is None:
            return None
        if arg.value is None or not arg.value.isdigit() or int(arg.value) < 1:
            raise LlmcError(f"--tensor-parallel-size needs a positive integer, got {arg.value!r}", Location(path=arg.path))
        return int(arg.value)

    # -- workload ---------------------------------------------------------------------------

    def replicas(self, predictor: dict[str, Any]) -> int | None:
        min_replicas = predictor.get("minReplicas")
        max_replicas = predictor.get("maxReplicas") or 0
        scaling = [k for k in ("scaleTarget", "scaleMetric", "scaleMetricType", "autoScaling") if predictor.get(k) is not None]
        annotations = self.isvc["metadata"].get("annotations") or {}
        autoscales = annotations.get(AUTOSCALER_CLASS, "hpa") == "hpa"
        if autoscales and (max_replicas > (min_replicas or 1) or scaling):
            self.note("LLMC411", "spec.predictor.maxReplicas",
                      f"the InferenceService scales between {max(min_replicas or 1, 1)} and "
                      f"{max(max_replicas, min_replicas or 1)} replicas on "
                      f"{predictor.get('scaleMetric') or 'cpu'}; the LLMInferenceService runs "
                      f"{min_replicas or 1} (add spec.scaling for WVA or KEDA autoscaling)")
        if AUTOSCALER_CLASS in annotations:
            self.drop(f'metadata.annotations["{AUTOSCALER_CLASS}"]', f"the autoscaler class {annotations[AUTOSCALER_CLASS]!r}")
        return min_replicas

    def rollout(self, predictor: dict[str, Any]) -> dict[str, Any]:
        strategy = predictor.get("deploymentStrategy")
        if not strategy:
            return {}
        if strategy.get("type", "RollingUpdate") != "RollingUpdate":
            self.drop("spec.predictor.deploymentStrategy.type", f"the {strategy.get('type')} deployment strategy")
            return {}
        rolling = strategy.get("rollingUpdate") or {}
        return {k: rolling[k] for k in ("maxSurge", "maxUnavailable") if k in rolling}

    def template(self, predictor: dict[str, Any], model: dict[str, Any], model_path: str, args: list[_Arg]) -> dict[str, Any]:
        main: dict[str, Any] = {"name": MAIN}
        base = find_container(self.runtime.spec.get("containers"), KSERVE_CONTAINER)
        merged = merge_runtime_container(base, {k: v for k, v in model.items() if k in CONTAINER_FIELDS})
        if merged.get("resources"):
            main["resources"] = merged["resources"]
        for key in _CARRIED_CONTAINER[1:]:
            if model.get(key):
                main[key] = copy.deepcopy(model[key])
        main_args = self.vllm_args(args)
        if main_args:
            main["args"] = main_args
        for key in model:
            if key not in _CONVERTED_MODEL and model[key] not in (None, "", [], {}):
                self.drop(f"{model_path}.{key}", f"{model_path}.{key}")
        template: dict[str, Any] = {}
        for key in POD_SPEC_FIELDS:
            if key in predictor and key != "containers" and predictor[key] not in (None, [], {}, ""):
                template[key] = copy.deepcopy(predictor[key])
        containers = [main] + [copy.deepcopy(c) for c in predictor.get("containers") or []]
        if len(main) > 1 or len(containers) > 1:
            template["containers"] = containers
        return template

    def vllm_args(self, args: list[_Arg]) -> list[str]:
        out: list[str] = []
        for arg in args:
            if arg.name in SERVER_ONLY_FLAGS:
                self.drop(arg.path, f"the server flag {' '.join(arg.tokens)}")
            elif arg.name in ("max-length", "max-model-len"):
                out.append(f"--max-model-len={arg.value}")
            elif arg.name == "tokenizer-revision":
                out.append(f"--tokenizer-revision={arg.value}")
            else:
                out += arg.tokens
        return out

    def metadata(self, model: dict[str, Any]) -> dict[str, Any]:
        meta = self.isvc.get("metadata") or {}
        out: dict[str, Any] = {"name": self.name}
        if meta.get("namespace"):
            out["namespace"] = meta["namespace"]
        if meta.get("labels"):
            out["labels"] = dict(meta["labels"])
        annotations = {}
        fmt = (model.get("modelFormat") or {}).get("name")
        for key, value in (meta.get("annotations") or {}).items():
            if key == MODEL_FORMAT_ANNOTATION and value == fmt or key.startswith("internal.serving.kserve.io/") \
                    or key == AUTOSCALER_CLASS or key == "kubectl.kubernetes.io/last-applied-configuration":
                continue
            if key in ISVC_ONLY_ANNOTATIONS:
                self.drop(f'metadata.annotations["{key}"]', f"the annotation {key}")
                continue
            annotations[key] = value
        if annotations:
            out["annotations"] = annotations
        return out


def convert_documents(documents: list[Document], runtimes: list[Document],
                      namespace: str = "default") -> tuple[list[dict[str, Any]], list[Note]]:
    """Convert every InferenceService of `documents`, each with the runtime the controller would select
    among `runtimes` and the runtimes of `documents` (which take precedence). Raises ErrorList."""
    from llmc.isvc.admission import default_isvc
    from llmc.load.documents import relocate
    from llmc.isvc.compile import Cluster
    from llmc.kserve.isvc_kinds import ISVC_API_VERSION, ISVC_KIND
    from llmc.isvc.config import IsvcConfig

    services = [d for d in documents if (d.api_version, d.kind) == (ISVC_API_VERSION, ISVC_KIND)]
    if not services:
        raise LlmcError("no InferenceService (serving.kserve.io/v1beta1) in the input", exit_code=2)
    cluster = Cluster(list(runtimes) + [d for d in documents if d not in services], namespace)
    objects: list[dict[str, Any]] = []
    notes: list[Note] = []
    errors: list[LlmcError] = []
    for doc in services:
        try:
            shape.check(doc.obj, shape.INFERENCE_SERVICE)
            isvc = default_isvc(doc.obj, namespace, IsvcConfig())
            model = isvc["spec"]["predictor"].get("model")
            if not isinstance(model, dict):
                raise LlmcError("convert needs spec.predictor.model (or spec.predictor.huggingface)",
                                Location(path="spec.predictor"))
            where = Location(path="spec.predictor.model.runtime" if model.get("runtime") else "spec.predictor.model.modelFormat")
            selected = select_runtime(model, cluster.runtimes, isvc["metadata"]["namespace"], where).runtime
            converted, found = convert(doc.obj, selected.doc.obj if selected.doc is not None else {})
            key = f"{isvc['metadata']['namespace']}/{isvc['metadata']['name']}"
            objects.append(converted)
            notes += [replace(n, service=key) for n in found]
        except LlmcError as err:
            errors.append(relocate(err, doc))
    if errors:
        raise ErrorList(errors)
    return objects, sorted(notes)
