"""Cold start: one `llmc render` of a single-node service against `kubectl kustomize` of an equivalent overlay.

    python bench/cold_start.py [--rounds 21] [--sample docs/examples/mistral-dra.yaml]

The overlay (bench/data/overlay/) holds what a user would otherwise write by hand
for the same service: the vLLM Deployment, its Service and the
ResourceClaimTemplate, placed into a namespace with a label, an image tag and a
patch. Each round runs, in rotating order:

- llmc render -f SAMPLE          the contender
- kubectl kustomize OVERLAY      the yardstick (Go, one static binary)
- python -c pass                 the floor of any Python CLI (interpreter start)
- llmc version                   llmc's fixed start-up cost (imports, argument parsing)

and prints the medians over the rounds and each one's ratio to kustomize. Output
goes to /dev/null; the children get a bytecode cache (see common.child_env).
Target (issue #8): llmc render <= 1.5x kubectl kustomize.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from functools import partial

from common import ROOT, child_env, interleaved, llmc_command, report, require, run_once, show

TARGET = 1.5


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--sample", default=str(ROOT / "docs/examples/mistral-dra.yaml"))
    parser.add_argument("--overlay", default=str(ROOT / "bench/data/overlay"))
    args = parser.parse_args(argv)

    env = child_env()
    llmc = llmc_command()
    commands = {
        "llmc render": [*llmc, "render", "-f", args.sample],
        "kubectl kustomize": [require("kubectl"), "kustomize", args.overlay],
        "python -c pass": [sys.executable, "-c", "pass"],
        "llmc version": [*llmc, "version"],
    }
    contenders = {name: partial(run_once, cmd, env) for name, cmd in commands.items()}
    print(f"cold start, {args.rounds} interleaved rounds (after one warm-up round), medians:")
    times = interleaved(contenders, args.rounds)
    report(times, "kubectl kustomize", {n: show(c) for n, c in commands.items()})
    ratio = statistics.median(times["llmc render"]) / statistics.median(times["kubectl kustomize"])
    print(f"llmc render / kubectl kustomize = {ratio:.2f} (target <= {TARGET})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
