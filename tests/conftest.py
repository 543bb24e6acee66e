"""Shared test fixtures: where the upstream data lives, relative to the project root."""

from __future__ import annotations

from pathlib import Path

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
