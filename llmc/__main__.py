"""`python -m llmc` runs the CLI."""

from llmc.cli.main import console

console()
