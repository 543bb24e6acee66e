"""convert: InferenceService (Hugging Face runtime, vLLM backend) -> LLMInferenceService.

Facts: the Hugging Face server's command line (python/huggingfaceserver/huggingfaceserver/__main__.py:
--model_id wins over --model_dir, --max_length is max_model_len, --backend auto|vllm|huggingface, vLLM's
arguments added to the same parser; python/kserve/kserve/model_server.py: the server-only flags),
the storage initializer's `hf://owner/model[:revision]` form (python/storage/kserve_storage),
and llmc's LLMInferenceService presets (container args last, --served-model-name from spec.model.name).
"""

from __future__ import annotations

import textwrap

import pytest
from typer.testing import CliRunner

from llmc.core.errors import ErrorList, LlmcError
from llmc.isvc.convert import convert
from llmc.isvc.convert import convert_documents
from llmc.load.documents import load_text

from .helpers import builtin_runtimes, docs

HF_RUNTIME = next(d.obj for d in builtin_runtimes() if d.kind == "ClusterServingRuntime")


def isvc(args: list[str] | None = None, **predictor: object) -> dict:
    model = {"modelFormat": {"name": "huggingface"}, "storageUri": "hf://meta-llama/Llama-3.1-8B-Instruct",
             "args": ["--backend=vllm", *(args or [])]}
    return {"apiVersion": "serving.kserve.io/v1beta1", "kind": "InferenceService",
            "metadata": {"name": "llama", "namespace": "team-a",
                         "annotations": {"serving.kserve.io/deploymentMode": "RawDeployment"}},
            "spec": {"predictor": {"model": model, **predictor}}}


def codes(notes) -> list[str]:
    return [n.code for n in notes]


def test_model_uri_name_and_router() -> None:
    out, notes = convert(isvc(), HF_RUNTIME)
    assert out["apiVersion"] == "serving.kserve.io/v1alpha2" and out["kind"] == "LLMInferenceService"
    assert out["metadata"] == {"name": "llama", "namespace": "team-a"}
    # --model_name={{.Name}} from the runtime: clients keep sending the model name "llama".
    assert out["spec"]["model"] == {"uri": "hf://meta-llama/Llama-3.1-8B-Instruct", "name": "llama"}
    assert out["spec"]["router"] == {"gateway": {}, "route": {}}
    assert "LLMC413" in codes(notes)
    assert 'metadata.annotations["serving.kserve.io/deploymentMode"]' in [n.path for n in notes if n.code == "LLMC410"]


def test_tensor_parallel_and_vllm_args() -> None:
    out, _ = convert(isvc(["--tensor-parallel-size", "4", "--max_length=8192", "--enable-prefix-caching",
                           "--gpu-memory-utilization", "0.9"]), HF_RUNTIME)
    assert out["spec"]["parallelism"] == {"tensor": 4}
    assert out["spec"]["template"]["containers"][0]["args"] == [
        "--max-model-len=8192", "--enable-prefix-caching", "--gpu-memory-utilization", "0.9"]


@pytest.mark.parametrize("flag", [["--tensor_parallel_size=2"], ["-tp", "2"], ["--tensor-parallel-size=2"]])
def test_tensor_parallel_spellings(flag: list[str]) -> None:
    out, _ = convert(isvc(flag), HF_RUNTIME)
    assert out["spec"]["parallelism"] == {"tensor": 2}


def test_server_only_flags_are_findings() -> None:
    out, notes = convert(isvc(["--http_port=9000", "--return_probabilities"]), HF_RUNTIME)
    assert "args" not in out["spec"].get("template", {"containers": [{}]})["containers"][0]
    dropped = [n.path for n in notes if n.code == "LLMC410"]
    assert "spec.predictor.model.args[1]" in dropped and "spec.predictor.model.args[2]" in dropped


def test_model_id_without_storage_uri() -> None:
    source = isvc(["--model_id=Qwen/Qwen2-7B", "--model_revision", "abc123"])
    del source["spec"]["predictor"]["model"]["storageUri"]
    out, _ = convert(source, HF_RUNTIME)
    assert out["spec"]["model"]["uri"] == "hf://Qwen/Qwen2-7B:abc123"


def test_explicit_model_name_wins() -> None:
    out, _ = convert(isvc(["--model_name", "served"]), HF_RUNTIME)
    assert out["spec"]["model"]["name"] == "served"


def test_backend_auto_and_huggingface() -> None:
    source = isvc()
    source["spec"]["predictor"]["model"]["args"] = []
    _, notes = convert(source, HF_RUNTIME)
    assert "LLMC412" in codes(notes)
    source["spec"]["predictor"]["model"]["args"] = ["--backend=huggingface"]
    with pytest.raises(LlmcError, match="Hugging Face backend"):
        convert(source, HF_RUNTIME)


def test_replicas_and_autoscaling() -> None:
    out, notes = convert(isvc(minReplicas=2, maxReplicas=5), HF_RUNTIME)
    assert out["spec"]["replicas"] == 2
    assert "LLMC411" in codes(notes)
    fixed, notes = convert(isvc(minReplicas=2, maxReplicas=2), HF_RUNTIME)
    assert fixed["spec"]["replicas"] == 2 and "LLMC411" not in codes(notes)


def test_container_and_pod_fields() -> None:
    source = isvc(nodeSelector={"pool": "gpu"}, tolerations=[{"key": "gpu", "operator": "Exists"}],
                  serviceAccountName="models", labels={"team": "a"},
                  deploymentStrategy={"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}})
    model = source["spec"]["predictor"]["model"]
    model["resources"] = {"limits": {"nvidia.com/gpu": "1"}}
    model["env"] = [{"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}}}]
    model["image"] = "custom/hf:1"
    out, notes = convert(source, HF_RUNTIME)
    template = out["spec"]["template"]
    [main] = template["containers"]
    assert main["name"] == "main"
    # The pods ran with the runtime's requests/limits merged under the model's.
    assert main["resources"] == {"requests": {"cpu": "1", "memory": "2Gi"},
                                 "limits": {"cpu": "1", "memory": "2Gi", "nvidia.com/gpu": "1"}}
    assert main["env"] == model["env"]
    assert (template["nodeSelector"], template["serviceAccountName"]) == ({"pool": "gpu"}, "models")
    assert template["tolerations"] == [{"key": "gpu", "operator": "Exists"}]
    assert out["spec"]["labels"] == {"team": "a"}
    assert out["spec"]["rolloutStrategy"] == {"maxSurge": 1, "maxUnavailable": 0}
    assert "spec.predictor.model.image" in [n.path for n in notes if n.code == "LLMC410"]


def test_other_runtimes_are_refused() -> None:
    runtime = {"metadata": {"name": "kserve-sklearnserver"}, "spec": {"containers": [{"name": "kserve-container"}]}}
    with pytest.raises(LlmcError, match="convert handles the Hugging Face runtime"):
        convert(isvc(), runtime)


def test_unconvertible_storage_uri() -> None:
    source = isvc()
    source["spec"]["predictor"]["model"]["storageUri"] = "gs://bucket/model"
    with pytest.raises(LlmcError, match="has no LLMInferenceService counterpart"):
        convert(source, HF_RUNTIME)


def test_transformer_is_a_finding() -> None:
    source = isvc()
    source["spec"]["transformer"] = {"containers": [{"name": "t", "image": "t"}]}
    _, notes = convert(source, HF_RUNTIME)
    assert "spec.transformer" in [n.path for n in notes if n.code == "LLMC410"]


def test_cluster_local_has_no_router() -> None:
    source = isvc()
    source["metadata"]["labels"] = {"networking.kserve.io/visibility": "cluster-local"}
    out, _ = convert(source, HF_RUNTIME)
    assert "router" not in out["spec"]


def test_converted_service_is_accepted_and_rendered_by_llmc(tmp_path) -> None:
    # The output is an LLMInferenceService `llmc render` admits (schema, webhooks) and renders.
    from llmc.cli.app import app
    from llmc.output.emit import to_yaml

    out, _ = convert(isvc(["--tensor-parallel-size=2", "--max-model-len=4096"],
                         minReplicas=1, nodeSelector={"pool": "gpu"}), HF_RUNTIME)
    path = tmp_path / "converted.yaml"
    path.write_text(to_yaml([out]))
    result = CliRunner().invoke(app, ["render", "-f", str(path)], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    rendered = [d.obj for d in load_text(result.stdout)]
    deployment = next(o for o in rendered if o["kind"] == "Deployment" and o["metadata"]["name"] == "llama-kserve")
    main = next(c for c in deployment["spec"]["template"]["spec"]["containers"] if c["name"] == "main")
    assert main["args"][-1] == "--max-model-len=4096"
    assert "--tensor-parallel-size 2" in main["command"][2]
    assert deployment["spec"]["template"]["spec"]["nodeSelector"] == {"pool": "gpu"}


def test_convert_documents_selects_the_runtime() -> None:
    text = textwrap.dedent("""
        apiVersion: serving.kserve.io/v1beta1
        kind: InferenceService
        metadata: {name: small}
        spec:
          predictor:
            huggingface:
              storageUri: pvc://models/opt-125m
              args: [--backend=vllm]
    """)
    [out], notes = convert_documents(docs(text), builtin_runtimes(), namespace="ns1")
    assert out["metadata"] == {"name": "small"}
    assert out["spec"]["model"] == {"uri": "pvc://models/opt-125m", "name": "small"}
    assert {n.service for n in notes} == {"ns1/small"}


def test_convert_documents_reports_selection_errors() -> None:
    text = "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata: {name: x}\n" \
           "spec: {predictor: {model: {modelFormat: {name: onnx}, storageUri: s3://b/m}}}\n"
    with pytest.raises(ErrorList, match="no runtime found to support predictor"):
        convert_documents(docs(text), builtin_runtimes())


def test_convert_command(tmp_path) -> None:
    from llmc.cli.app import app

    path = tmp_path / "isvc.yaml"
    path.write_text(textwrap.dedent("""
        apiVersion: serving.kserve.io/v1beta1
        kind: InferenceService
        metadata: {name: llama, namespace: team-a}
        spec:
          predictor:
            minReplicas: 1
            maxReplicas: 3
            model:
              modelFormat: {name: huggingface}
              storageUri: hf://meta-llama/Llama-3.1-8B-Instruct
              args: [--backend=vllm]
    """))
    result = CliRunner().invoke(app, ["convert", "-f", str(path)], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    [out] = [d.obj for d in load_text(result.stdout)]
    assert out["kind"] == "LLMInferenceService"
    assert "warning: LLMC411 team-a/llama: spec.predictor.maxReplicas:" in result.stderr
    bad = CliRunner().invoke(app, ["convert", "-f", str(tmp_path / "missing.yaml")])
    assert bad.exit_code == 2
