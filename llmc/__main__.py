"""`python -m llmc` runs the CLI."""

from .main import console

console()
