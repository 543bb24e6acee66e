"""Any input is rendered or refused with located errors, never an internal error.

Property: replacing any node of a valid InferenceService (or runtime) by any JSON value makes
`compile` and `convert_documents` either succeed or raise llmc's ErrorList/LlmcError.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llmc.output.emit import to_yaml
from llmc.core.errors import ErrorList, LlmcError
from llmc.isvc.compile import compile
from llmc.isvc.convert import convert_documents
from llmc.load.documents import load_text

from .helpers import builtin_runtimes, docs

BASE = docs("""
    apiVersion: serving.kserve.io/v1beta1
    kind: InferenceService
    metadata:
      name: llama
      namespace: team-a
      labels: {team: a}
      annotations: {serving.kserve.io/deploymentMode: Standard, serving.kserve.io/autoscalerClass: hpa}
    spec:
      predictor:
        minReplicas: 1
        maxReplicas: 2
        nodeSelector: {pool: gpu}
        autoScaling:
          metrics: [{type: Resource, resource: {name: memory, target: {type: AverageValue, averageValue: 1Gi}}}]
        model:
          modelFormat: {name: huggingface}
          storageUri: hf://org/model
          args: [--backend=vllm, --tensor-parallel-size=2]
          env: [{name: A, value: b}]
          ports: [{containerPort: 8080}]
          resources: {limits: {nvidia.com/gpu: "1"}}
    ---
    apiVersion: serving.kserve.io/v1alpha1
    kind: ServingRuntime
    metadata: {name: extra, namespace: team-a}
    spec:
      supportedModelFormats: [{name: huggingface, version: "1", autoSelect: true, priority: 3}]
      containers: [{name: kserve-container, image: x:1, args: ["--model_name={{.Name}}"]}]
""")
RUNTIMES = builtin_runtimes()


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, prefix + (i,))
    return out


def replaced(obj: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    out = copy.deepcopy(obj)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["", "x", "1Gi", "{{.Name}}", "-1"]),
                    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.sampled_from(["name", "a"]), inner, max_size=2),
                    max_leaves=4)


@st.composite
def mutations(draw: st.DrawFn) -> str:
    index = draw(st.sampled_from([0, 1]))
    objs = [d.obj for d in BASE]
    path = draw(st.sampled_from([p for p in paths(objs[index])[1:] if p[0] not in ("apiVersion", "kind")]))
    objs[index] = replaced(objs[index], path, draw(JSON))
    return to_yaml(objs)


@settings(max_examples=150, derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations())
def test_mutated_inputs_render_or_are_refused(text: str) -> None:
    try:
        inputs = load_text(text, "input.yaml")
    except LlmcError:
        return  # refused by the loader (e.g. apiVersion replaced)
    for run in (lambda: compile(inputs, RUNTIMES), lambda: convert_documents(inputs, RUNTIMES)):
        try:
            run()
        except (ErrorList, LlmcError):
            pass
