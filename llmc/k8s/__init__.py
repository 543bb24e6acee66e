"""Kubernetes as llmc needs it: quantities, child names, cluster capabilities, the install order of kinds."""
