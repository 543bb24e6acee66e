"""`python -m llmc` runs the CLI."""

from .cli import main

main()
