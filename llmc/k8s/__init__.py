"""Kubernetes apimachinery as llmc needs it: quantities, child names, cluster capabilities."""
