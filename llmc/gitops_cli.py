"""GitOps commands registered on llmc's typer app: explain, krm, kustomize-plugin, argocd-generate, schema."""

from __future__ import annotations

from .cli import app  # noqa: F401  (commands register themselves on it below)
