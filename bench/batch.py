"""Batch: one `llmc render` of 1,000 distinct generated services against the serialization floor.

    python bench/batch.py [--services 1000] [--rounds 5] [--jobs 1,0]

Generates the services deterministically (bench/gen.py: single-node with and
without router, prefill/decode, multi-node data parallel, managed DRA, LoRA)
into a temporary folder, renders them once to collect the output objects, then
runs rounds of, in rotating order:

- llmc render -q -j N -f DIR > /dev/null    for each N of --jobs (a whole process)
- yaml.dump_all(objs, Dumper=yaml.CSafeDumper)   in this process, on the objects
  llmc wrote (read back with CSafeLoader): the floor, PyYAML's C emitter writing
  the same objects with no compiling at all

and prints the medians and each one's ratio to the floor (also per round, and the load). Target (issue 18):
llmc render -j 1 <= 1.25x the floor.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

import yaml

import gen
from common import child_env, interleaved, llmc_command, report, run_output, show

TARGET = 1.25  # issue 18, at -j 1


def floor(objs: list[dict]) -> float:
    start = time.perf_counter()
    yaml.dump_all(objs, Dumper=yaml.CSafeDumper)
    return time.perf_counter() - start


def run_llmc(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{show(cmd)} failed ({proc.returncode}):\n{proc.stderr.decode()[-2000:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--services", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--jobs", default="1,0", help="comma-separated -j values to time (0 = one per CPU; empty: no -j flag)")
    args = parser.parse_args(argv)

    env = child_env()
    with tempfile.TemporaryDirectory(prefix="llmc-batch-") as tmp:
        folder = Path(tmp) / "services"
        gen.write(folder, args.services)
        base = [*llmc_command(), "render", "-q"]
        out = run_output([*base, "-f", str(folder)], env)
        objs = list(yaml.load_all(out, Loader=yaml.CSafeLoader))
        print(f"{args.services} services -> {len(objs)} objects, {len(out) / 1e6:.1f} MB of YAML; "
              f"{args.rounds} interleaved rounds (after one warm-up round), medians:")
        commands: dict[str, str] = {}
        contenders = {}
        for jobs in args.jobs.split(","):
            cmd = [*base, *(["-j", jobs] if jobs else []), "-f", str(folder)]
            name = f"llmc render -j {jobs}" if jobs else "llmc render"
            contenders[name] = partial(run_llmc, cmd, env)
            commands[name] = show(cmd) + " > /dev/null"
        contenders["C-dumper floor"] = partial(floor, objs)
        commands["C-dumper floor"] = "yaml.dump_all(objs, Dumper=yaml.CSafeDumper)  # in-process"
        times = interleaved(contenders, args.rounds)
    report(times, "C-dumper floor", commands)
    base_median = statistics.median(times["C-dumper floor"])
    for name in contenders:
        if name != "C-dumper floor":
            rounds = [t / f for t, f in zip(times[name], times["C-dumper floor"])]
            print(f"{name} / floor = {statistics.median(times[name]) / base_median:.2f} (target <= {TARGET}; "
                  f"per round {min(rounds):.2f}-{max(rounds):.2f})")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
