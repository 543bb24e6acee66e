"""The hand-run benchmarks end with a message, not a traceback, and one short round of each runs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def bench(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True, text=True, timeout=300)


def test_missing_sample_is_named(tmp_path):
    proc = bench("cold_start.py", "--rounds", "1", "--sample", str(tmp_path / "absent.yaml"))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert f"not found at {tmp_path / 'absent.yaml'}" in proc.stderr and "--sample" in proc.stderr


def test_failing_render_reports_llmc_error(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: v1\n")
    proc = bench("cold_start.py", "--rounds", "1", "--sample", str(bad))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "failed with exit code 1" in proc.stderr and f"{bad}:1:1: kind not set" in proc.stderr


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="needs kubectl")
def test_cold_start_one_round(upstream):
    proc = bench("cold_start.py", "--rounds", "1")
    assert proc.returncode == 0, proc.stderr
    for name in ("llmc render (built-in presets)", "llmc render (KServe presets)"):
        assert f"{name} / kubectl kustomize: wall " in proc.stdout


def test_batch_one_round():
    proc = bench("batch.py", "--services", "6", "--rounds", "1", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "6 services -> " in proc.stdout and "llmc render -j 1 / floor = " in proc.stdout
