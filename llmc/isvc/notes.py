"""Findings of the InferenceService path, as plain data until the codes are registered.

`Note` has the fields of `llmc.findings.Finding` in the same order, so the pipeline
turns one into the other with `Finding(*note)`. The codes are LLMC4xx; `CODES` holds
their titles for `llmc/findings.py` and docs/findings.md.
"""

from __future__ import annotations

from typing import NamedTuple

CODES: dict[str, str] = {
    "LLMC401": "the storage-initializer that KServe's pod webhook injects is written into the Deployment's pod template",
    "LLMC402": "storage credentials the pod webhook reads from Secrets are not rendered",
    "LLMC403": "Gateway API ingress is enabled: the controller's HTTPRoute is not rendered",
    "LLMC404": "the CA bundle ConfigMap the controller copies into the namespace is not rendered",
    "LLMC405": "the InferenceService is stopped: the controller creates no objects for it",
    "LLMC410": "an InferenceService setting has no LLMInferenceService counterpart and is dropped",
    "LLMC411": "autoscaling bounds become a fixed replica count",
    "LLMC412": "the Hugging Face server's backend is not pinned to vLLM",
    "LLMC413": "clients must change the URL and the /openai route prefix",
}

# Deliberate differences between llmc and the controller: reported, never failing --strict.
NOTES = frozenset({"LLMC401"})


class Note(NamedTuple):
    """One finding about one InferenceService: `<namespace>/<name>`, code, field path, message."""

    service: str
    code: str
    path: str
    message: str
