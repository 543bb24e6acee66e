"""llmc: an offline compiler for KServe LLMInferenceService objects (docs/architecture.md)."""
