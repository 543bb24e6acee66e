"""Shared helpers of the hand-run benchmarks: paired interleaved timing, medians, the child environment.

The machine is shared with other jobs, so every benchmark alternates its
contenders within one round (A B A B ...) and reports medians of the rounds:
a disturbance hits both sides of a round alike, and the median drops outliers.
"""

from __future__ import annotations

import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
# KServe's upstream data sits next to the clone, as for the tests (tests/conftest.py).
UPSTREAM = ROOT.parent / "shared" / "upstream"


def llmc_command() -> list[str]:
    """The installed `llmc` console script next to this interpreter (what users run)."""
    script = BIN / "llmc"
    return [str(script)] if script.exists() else [sys.executable, "-m", "llmc"]


def child_env() -> dict[str, str]:
    """Environment for timed children: bytecode is cached, as for an installed wheel.

    A development shell may set PYTHONDONTWRITEBYTECODE, which makes every run
    recompile llmc from source (~100 ms more); pip byte-compiles installed wheels,
    so the timed runs use a private bytecode cache (PYTHONPYCACHEPREFIX) instead
    of writing __pycache__ folders into the tree.
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "llmc-bench-pycache")
    return env


def show(cmd: Sequence[str]) -> str:
    return shlex.join(str(c) for c in cmd)


def run_output(cmd: Sequence[str], env: dict[str, str]) -> bytes:
    """Stdout of one run; a failing command ends the bench with its exit code and stderr, not a traceback."""
    proc = subprocess.run(cmd, env=env, capture_output=True)
    if proc.returncode != 0:
        raise SystemExit(f"{show(cmd)} failed with exit code {proc.returncode}:\n{proc.stderr.decode()[-2000:]}")
    return proc.stdout


def require_file(path: Path | str, what: str) -> Path:
    """`path`, or end the bench with a message naming what is missing and the flag that sets it."""
    path = Path(path)
    if not path.exists():
        raise SystemExit(f"{what} not found at {path}")
    return path


def run_once(cmd: Sequence[str], env: dict[str, str], stdout=subprocess.DEVNULL) -> float:
    """Wall time of one run; fails loudly when the command fails."""
    return run_measured(cmd, env, stdout)[0]


def run_measured(cmd: Sequence[str], env: dict[str, str], stdout=subprocess.DEVNULL) -> tuple[float, float]:
    """(wall, CPU user+system) seconds of one run of `cmd`, from the child's own rusage (os.wait4)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=stdout, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{show(cmd)} failed with exit code {proc.returncode}:\n{err.decode()[-2000:]}")
    return elapsed, usage.ru_utime + usage.ru_stime


def interleaved(contenders: dict[str, Callable[[], float]], rounds: int, warmup: int = 1) -> dict[str, list[float]]:
    """Run every contender once per round, in a rotating order; returns the times per contender."""
    names = list(contenders)
    for _ in range(warmup):
        for name in names:
            contenders[name]()
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        order = names[r % len(names):] + names[: r % len(names)]
        for name in order:
            times[name].append(contenders[name]())
    return times


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def report(times: dict[str, list[float]], baseline: str, commands: dict[str, str]) -> None:
    """Print each contender's command, median and spread, and its ratio to the baseline's median."""
    base = statistics.median(times[baseline])
    width = max(len(n) for n in times)
    for name, samples in times.items():
        med = statistics.median(samples)
        q = statistics.quantiles(samples, n=4) if len(samples) >= 4 else [min(samples), med, max(samples)]
        print(f"  {name:<{width}}  median {med * 1000:9.1f} ms  (IQR {q[0] * 1000:.1f}-{q[2] * 1000:.1f}, "
              f"min-max {min(samples) * 1000:.1f}-{max(samples) * 1000:.1f})"
              f"  x{med / base:5.2f} of {baseline}   $ {commands[name]}")


def require(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        raise SystemExit(f"{tool} is not on PATH")
    return path
