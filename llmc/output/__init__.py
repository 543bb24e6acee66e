"""Stage 7, order and emit: deterministic YAML/JSON text (the kind order is llmc.k8s.install_order, which the driver applies)."""
