"""Cold start: one `llmc render` of KServe's managed-DRA minimal sample (with its router) against
`kubectl kustomize` of an overlay holding the same objects, and against the Python floor.

    python bench/cold_start.py [--rounds 21]

Each round runs, in rotating order, and measures wall and CPU (user+system, the child's rusage):

- llmc render -f SAMPLE                         built-in presets (kserve-master)
- llmc render -f SAMPLE --presets KSERVE        KServe's own presets (../shared/upstream), when present
- kubectl kustomize bench/data/managed-dra-overlay   the yardstick: the same objects, hand-written
- python bench/floor.py llmc-output.yaml        the Python floor: interpreter + PyYAML + C load/dump
- python -c pass                                interpreter start

Prints the machine, its load, the medians and min-max, each median's ratio to kustomize, and the
median and range of the per-round (paired) ratios.
Targets (issue 18): llmc render <= 1.2x kubectl kustomize, CPU and wall.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile

from common import ROOT, UPSTREAM, child_env, llmc_command, require, require_file, run_measured, run_output, show

TARGET = 1.2
SAMPLE = UPSTREAM / "kserve/samples/managed-dra/llm-inference-service-managed-dra-minimal.yaml"
KSERVE_PRESETS = UPSTREAM / "kserve/presets/master"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--sample", default=str(SAMPLE))
    parser.add_argument("--overlay", default=str(ROOT / "bench/data/managed-dra-overlay"))
    parser.add_argument("--kserve-presets", default=str(KSERVE_PRESETS),
                        help="KServe's preset folder (skipped when absent)")
    args = parser.parse_args(argv)
    require_file(args.sample, "the managed-DRA sample (KServe's upstream data; set --sample)")
    require_file(args.overlay, "the kustomize overlay (set --overlay)")

    env = child_env()
    llmc = llmc_command()
    rendered = run_output([*llmc, "render", "-q", "-f", args.sample], env)
    output = os.path.join(tempfile.mkdtemp(), "llmc-output.yaml")
    with open(output, "wb") as f:
        f.write(rendered)
    commands = {"llmc render (built-in presets)": [*llmc, "render", "-f", args.sample]}
    if os.path.isdir(args.kserve_presets):
        commands["llmc render (KServe presets)"] = [*llmc, "render", "-f", args.sample, "--presets", args.kserve_presets]
    commands.update({
        "kubectl kustomize": [require("kubectl"), "kustomize", args.overlay],
        "python floor": [sys.executable, str(ROOT / "bench/floor.py"), output],
        "python -c pass": [sys.executable, "-c", "pass"],
    })
    names = list(commands)
    for name in names:  # warm-up: caches, bytecode
        run_measured(commands[name], env)
    wall: dict[str, list[float]] = {n: [] for n in names}
    cpu: dict[str, list[float]] = {n: [] for n in names}
    for r in range(args.rounds):
        for name in names[r % len(names):] + names[: r % len(names)]:
            w, c = run_measured(commands[name], env)
            wall[name].append(w)
            cpu[name].append(c)

    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"cold start, {args.rounds} interleaved rounds after one warm-up, sample {os.path.basename(args.sample)}:")
    base_wall, base_cpu = statistics.median(wall["kubectl kustomize"]), statistics.median(cpu["kubectl kustomize"])
    width = max(map(len, names))
    for name in names:
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        print(f"  {name:<{width}}  wall {w * 1000:7.1f} ms ({min(wall[name]) * 1000:.1f}-{max(wall[name]) * 1000:.1f}) "
              f"x{w / base_wall:4.2f}   CPU {c * 1000:7.1f} ms ({min(cpu[name]) * 1000:.1f}-{max(cpu[name]) * 1000:.1f}) "
              f"x{c / base_cpu:4.2f}   $ {show(commands[name])}")
    for name in (n for n in names if n.startswith("llmc")):
        print(f"{name} / kubectl kustomize: wall {statistics.median(wall[name]) / base_wall:.2f}, "
              f"CPU {statistics.median(cpu[name]) / base_cpu:.2f} (target <= {TARGET}); "
              f"paired per round: wall {_paired(wall[name], wall['kubectl kustomize'])}, "
              f"CPU {_paired(cpu[name], cpu['kubectl kustomize'])}; "
              f"/ python floor: wall {statistics.median(wall[name]) / statistics.median(wall['python floor']):.2f}")
    return 0


def _paired(ours: list[float], theirs: list[float]) -> str:
    """Median and range of the per-round ratios (each round runs both, so a disturbance hits both)."""
    ratios = [a / b for a, b in zip(ours, theirs)]
    return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


if __name__ == "__main__":
    sys.exit(main())
