"""InferenceService (serving.kserve.io/v1beta1) in Standard mode: render and convert.

`compile` renders InferenceServices with their ServingRuntimes/ClusterServingRuntimes
into the objects KServe's controller creates in Standard (RawDeployment) mode, with
the pod webhook's storage initializer written into the pod template. `convert` turns
an InferenceService on the Hugging Face runtime with the vLLM backend into an
equivalent LLMInferenceService. See docs/inferenceservice.md.
"""

from .compile import INPUT_KINDS, compile
from .config import IsvcConfig
from .convert import convert

__all__ = ["INPUT_KINDS", "IsvcConfig", "compile", "convert"]
