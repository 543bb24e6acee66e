"""KServe's annotation keys that more than one stage reads (the webhook validates them, render applies them)."""

from __future__ import annotations

# managed DRA (llmisvc/managed_dra.go)
DRA_DEVICE_CLASS = "serving.kserve.io/exp-dra-device-class"
DRA_DEVICE_COUNT = "serving.kserve.io/exp-dra-device-count"
DRA_CEL_SELECTOR = "serving.kserve.io/exp-dra-cel-selector"
DRA_CONTAINER_NAME = "serving.kserve.io/exp-dra-container-name"
