"""The issue 16 attack classes (tests/fuzz_hostile.py): every case ends cleanly, in time, and leaks nothing."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from fuzz_hostile import CLASSES, hostile_outcome
from test_fuzz import bases


@pytest.fixture(scope="module", autouse=True)
def rendered_bases():
    """Chosen before hypothesis draws (see tests/test_fuzz.py)."""
    return bases()


# A hang, not a busy machine: a case alone takes at most about 15 s (bench/fuzz_run.py holds them to 30 s).
HANG_SECONDS = 120.0


def _check(case) -> None:
    result = hostile_outcome(case, slow=HANG_SECONDS)
    assert result.kind in ("ok", "rejected"), (f"{result.kind}: {result.detail[:500]}\n{case.reproducer()[:2000]}\n"
                                               f"--- stderr:\n{result.run.stderr[-2000:] if result.run else ''}")


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_hostile_class_cases_end_cleanly(name: str) -> None:
    # generation only: shrinking or explaining a slow case would take many times its own run
    @settings(max_examples=25, derandomize=True, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(CLASSES[name]())
    def run(case) -> None:
        _check(case)

    run()
