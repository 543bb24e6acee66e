"""`--help` of every command and subcommand, as a user runs it: the real console script, exit 0, usage on stdout."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import typer

from llmc.cli.app import app


def _command_paths(command, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths = [prefix]
    if hasattr(command, "commands"):
        for name, sub in sorted(command.commands.items()):
            paths += _command_paths(sub, prefix + (name,))
    return paths


COMMANDS = _command_paths(typer.main.get_command(app))


def test_every_command_is_listed():
    assert {("render",), ("explain",), ("presets", "show"), ("diff",), ("krm",)} <= set(COMMANDS)


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "llmc")
def test_help_exits_0_with_usage(path):
    env = dict(os.environ, COLUMNS="100", TERM="xterm-256color", FORCE_COLOR="1")
    result = subprocess.run([sys.executable, "-m", "llmc", *path, "--help"], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    usage = result.stdout.splitlines()[0]
    assert usage.startswith("Usage: ") and usage.split("llmc", 1)[1].startswith(" ".join(("",) + path)), usage
