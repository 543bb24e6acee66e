"""Memory: peak RSS of `llmc render` over 10,000 generated services, and over 1,000 to show it stays flat.

    python bench/memory.py [--services 1000,10000] [--jobs 1]

For each count, generates the services (bench/gen.py) into a temporary folder and
runs `llmc render -q [-j N] -f DIR > /dev/null` once, reading the child's peak
resident set size from os.wait4's rusage (ru_maxrss: the largest single process
of the child's tree, workers included; with -j N the pool's processes are each
below it). Prints `python -c pass` as the floor. Target (issue 18): 10,000
services under 120 MB.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import gen
from common import child_env, llmc_command, show

TARGET_MB = 120  # issue 18


def peak_rss(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(peak RSS in MB, wall seconds) of one run; stdout to /dev/null, stderr kept for failures."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise SystemExit(f"{show(cmd)} failed ({proc.returncode}):\n{err.read().decode()[-2000:]}")
    return usage.ru_maxrss / 1024, elapsed  # Linux reports KiB


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--services", default="1000,10000", help="comma-separated service counts")
    parser.add_argument("--jobs", default="1", help="-j value (empty: no -j flag)")
    args = parser.parse_args(argv)

    env = child_env()
    floor_cmd = [sys.executable, "-c", "pass"]
    floor_mb, _ = peak_rss(floor_cmd, env)
    print(f"  {'python -c pass':>24}  peak RSS {floor_mb:7.1f} MB   $ {show(floor_cmd)}")
    for count in (int(c) for c in args.services.split(",")):
        with tempfile.TemporaryDirectory(prefix="llmc-memory-") as tmp:
            folder = Path(tmp) / "services"
            gen.write(folder, count)
            size = sum(p.stat().st_size for p in folder.iterdir())
            # 10,000 services write ~300 MB: over the default --max-output-bytes budget
            cmd = [*llmc_command(), "render", "-q", *(["-j", args.jobs] if args.jobs else []),
                   "--max-output-bytes", str(1 << 31), "-f", str(folder)]
            mb, seconds = peak_rss(cmd, env)
        verdict = f" (target < {TARGET_MB} MB: {'met' if mb < TARGET_MB else 'NOT met'})" if count >= 10000 else ""
        print(f"  {count:>6} services ({size / 1e6:5.1f} MB in)  peak RSS {mb:7.1f} MB  in {seconds:6.1f} s{verdict}"
              f"   $ {show(cmd)} > /dev/null")
    return 0


if __name__ == "__main__":
    sys.exit(main())
