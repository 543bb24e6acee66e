"""The command line: the console script and its fast path, the typer app, each command, stderr, files."""
