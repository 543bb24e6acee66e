"""Help reads well and completion works: value labels, descriptions, -h, the default preset set, shells."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from pathlib import Path
from typer.testing import CliRunner

from llmc.cli.app import app
from llmc.read.inputs import builtin_sets
from llmc.resolve.presets import DEFAULT_SET
from tests.test_help import COMMANDS

runner = CliRunner()
LLMC = str(Path(sys.executable).parent / "llmc")  # the console script: completion keys on its name


def _help(path, flag="--help"):
    result = runner.invoke(app, [*path, flag], terminal_width=200, max_content_width=200)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "llmc")
def test_help_has_no_python_type_labels_and_every_option_says_what_it_does(path):
    text = _help(path)
    assert not re.search(r"<(str|int|bool|list\[[^]]*\])>", text), text
    assert not re.search(r"\{\w+\}", text.splitlines()[0]), text
    assert "the newest)" not in text
    lines = text.splitlines() + [""]
    for line, following in zip(lines, lines[1:]):
        if re.match(r"\s+-", line) and len(re.split(r"\s{2,}", line.strip())) < 2:  # the description may wrap below
            assert re.match(r"\s{10,}[^\s-]", following), f"no description: {line!r}"


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "llmc")
def test_dash_h_is_help(path):
    assert _help(path, "-h") == _help(path)


def test_preset_set_help_names_the_default():
    assert f"(default: {DEFAULT_SET})" in _help(("render",))
    assert f"(default: {DEFAULT_SET})" in _help(("presets", "show"))


@pytest.mark.parametrize("shell,marker", [("zsh", "#compdef llmc"), ("bash", "complete -o"), ("fish", "complete --command llmc")])
def test_show_completion_prints_the_named_shell(shell, marker):
    result = subprocess.run([LLMC, "--show-completion", shell], capture_output=True, text=True,
                            env=dict(os.environ, SHELL="/bin/bash"))
    assert result.returncode == 0, result.stderr
    assert marker in result.stdout


@pytest.mark.parametrize("words", ["llmc render --preset-set kserve-", "llmc diff --against-preset-set kserve-"])
def test_preset_set_values_complete(words):
    env = dict(os.environ, _LLMC_COMPLETE="complete_bash", COMP_WORDS=words, COMP_CWORD="3")
    result = subprocess.run([LLMC], capture_output=True, text=True, env=env)
    completed = set(result.stdout.split())
    assert completed == {s for s in builtin_sets() if s.startswith("kserve-")} and completed
