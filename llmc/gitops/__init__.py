"""What the GitOps commands compute over the pipeline's output: explain, diff, KRM, published schemas."""
