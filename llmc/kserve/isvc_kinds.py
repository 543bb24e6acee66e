"""The apiVersion and kind of each InferenceService-path input, apart so that sorting documents loads nothing else."""

from __future__ import annotations

ISVC_API_VERSION = "serving.kserve.io/v1beta1"
ISVC_KIND = "InferenceService"
RUNTIME_API_VERSION = "serving.kserve.io/v1alpha1"
SERVING_RUNTIME, CLUSTER_SERVING_RUNTIME = "ServingRuntime", "ClusterServingRuntime"
STORAGE_CONTAINER_API_VERSION = "serving.kserve.io/v1alpha1"
STORAGE_CONTAINER_KIND = "ClusterStorageContainer"

#: What `llmc.isvc.compile` takes: InferenceServices and the runtimes and storage containers they use.
INPUT_KINDS: frozenset[tuple[str, str]] = frozenset({
    (ISVC_API_VERSION, ISVC_KIND),
    (RUNTIME_API_VERSION, SERVING_RUNTIME),
    (RUNTIME_API_VERSION, CLUSTER_SERVING_RUNTIME),
    (STORAGE_CONTAINER_API_VERSION, STORAGE_CONTAINER_KIND),
})
