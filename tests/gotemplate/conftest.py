"""Fixtures for the template engine tests: the Go reference harness (tests/go/tmplrun)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest


class GoHarness:
    """Runs batches of cases through the compiled Go program (one process per batch)."""

    def __init__(self, binary: Path) -> None:
        self.binary = binary

    def run(self, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
        lines = "".join(json.dumps(c) + "\n" for c in cases)
        proc = subprocess.run([str(self.binary)], input=lines, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        results = [json.loads(line) for line in proc.stdout.splitlines()]
        assert len(results) == len(cases)
        return results


@pytest.fixture(scope="session")
def go_harness(go_build) -> GoHarness:
    return GoHarness(go_build("tmplrun"))
