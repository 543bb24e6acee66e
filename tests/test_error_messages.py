"""Error messages that used to mislead (issue 17): each names the problem once, in the right place."""

from __future__ import annotations

import subprocess
import sys


def test_a_missing_file_is_named_once_with_the_usage_exit_code(tmp_path):
    result = subprocess.run([sys.executable, "-m", "llmc", "render", "-f", "nope.yaml"], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("nope.yaml") == 1, result.stderr
    assert "no such file or directory" in result.stderr


def test_ci_refuses_to_run_without_shared(tmp_path):
    """.ci/run's guard: a copy of the script in a folder with no ../shared stops before installing anything."""
    from pathlib import Path

    ci = tmp_path / "clone" / ".ci"
    ci.mkdir(parents=True)
    (ci / "run").write_text((Path(__file__).resolve().parent.parent / ".ci" / "run").read_text())
    result = subprocess.run(["bash", str(ci / "run")], capture_output=True, text=True)
    assert result.returncode == 1 and "../shared/upstream is missing" in result.stderr
    assert not (tmp_path / "clone" / ".venv").exists()
