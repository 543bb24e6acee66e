"""Stage 7, order and emit: apply-safe kind order and deterministic YAML/JSON text."""
