"""Fixtures for the InferenceService tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def hf_isvc() -> str:
    """A Standard-mode InferenceService on the Hugging Face runtime (selected by format)."""
    return """
        apiVersion: serving.kserve.io/v1beta1
        kind: InferenceService
        metadata:
          name: llama
          namespace: team-a
          annotations:
            serving.kserve.io/deploymentMode: RawDeployment
        spec:
          predictor:
            model:
              modelFormat:
                name: huggingface
              storageUri: hf://meta-llama/Llama-3.1-8B-Instruct
              args: [--backend=vllm]
    """
