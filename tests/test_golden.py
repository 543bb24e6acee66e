"""Golden cases: golden/<case>/ holds the command line, its inputs and the expected output side by side.

Each case folder has:
  args              llmc arguments, one per line, paths relative to the case folder
  expected.yaml     the exact stdout
  expected.stderr   the exact stderr (findings or errors); absent means empty
  exit_code         expected exit status; absent means 0
`pytest --update-golden` rewrites the expected files from the current llmc, on purpose only.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from llmc.cli.app import app
from tests.conftest import NO_UPSTREAM, UPSTREAM

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "args").is_file()) if GOLDEN.is_dir() else []


def case_params(names: list[str], upstream: Path) -> list:
    """The cases as parameters; those whose args read ../shared/upstream skip when `upstream` is absent."""
    missing = not upstream.is_dir()
    return [
        pytest.param(name, marks=pytest.mark.skipif(missing and "shared/upstream" in (GOLDEN / name / "args").read_text(), reason=NO_UPSTREAM))
        for name in names
    ]


def run_case(case: Path):
    args = [line.strip() for line in (case / "args").read_text().splitlines() if line.strip() and not line.startswith("#")]
    cwd = os.getcwd()
    os.chdir(case)
    try:
        result = CliRunner().invoke(app, args, catch_exceptions=False)
    finally:
        os.chdir(cwd)
    return result


@pytest.mark.parametrize("name", case_params(CASES, UPSTREAM))
def test_golden(name: str, request: pytest.FixtureRequest) -> None:
    case = GOLDEN / name
    result = run_case(case)
    expected_out = case / "expected.yaml"
    expected_err = case / "expected.stderr"
    expected_code = case / "exit_code"
    if request.config.getoption("--update-golden"):
        expected_out.write_text(result.stdout)
        if result.stderr:
            expected_err.write_text(result.stderr)
        elif expected_err.exists():
            expected_err.unlink()
        if result.exit_code:
            expected_code.write_text(f"{result.exit_code}\n")
        elif expected_code.exists():
            expected_code.unlink()
        return
    want_code = int(expected_code.read_text()) if expected_code.exists() else 0
    assert result.exit_code == want_code, result.stderr
    assert result.stdout == expected_out.read_text()
    assert result.stderr == (expected_err.read_text() if expected_err.exists() else "")


def test_there_are_golden_cases() -> None:
    assert len(CASES) >= 10


def test_cases_reading_upstream_skip_without_it(tmp_path: Path) -> None:
    params = case_params(CASES, tmp_path / "absent")
    skipped = {p.values[0] for p in params if p.marks[0].args[0]}
    assert skipped == {n for n in CASES if "shared/upstream" in (GOLDEN / n / "args").read_text()} and skipped != set(CASES)
    assert not any(p.marks[0].args[0] for p in case_params(CASES, tmp_path))
