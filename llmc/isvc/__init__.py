"""InferenceService (serving.kserve.io/v1beta1) in Standard mode: render and convert.

`compile` renders InferenceServices with their ServingRuntimes/ClusterServingRuntimes
into the objects KServe's controller creates in Standard (RawDeployment) mode, with
the pod webhook's storage initializer written into the pod template. `convert` turns
an InferenceService on the Hugging Face runtime with the vLLM backend into an
equivalent LLMInferenceService. See docs/inferenceservice.md.

Import the submodules (`llmc.isvc.compile`, `.convert`, `.config`, `.cli`) directly: this
package stays empty so that loading the CLI does not load the InferenceService path.
"""
