"""Run the fuzz generator of tests/test_fuzz.py for many cases in-process and count the outcomes.

Usage: python bench/fuzz_run.py [--cases 10000] [--seed 0] [--show 3] [--out FILE]

Prints the count per outcome (ok, rejected, invalid-output, bad-rejection,
internal-error), then every distinct bug signature with its count (marked
"known" when tests/test_fuzz.py KNOWN_BUGS lists it) and the reproducers of its
shortest cases. `--out` writes all bug reproducers to
a file. Exits 1 when there is any bug outcome.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from test_fuzz import KNOWN_BUGS, Case, bases, fuzz_cases, outcome  # noqa: E402

BUGS = ("invalid-output", "bad-rejection", "internal-error")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=3, help="reproducers shown per bug signature")
    parser.add_argument("--out", type=Path, help="write every bug reproducer to this file")
    opts = parser.parse_args(argv)

    print(f"{len(bases())} inputs to mutate", file=sys.stderr)  # rendered once, before any draw
    counts: collections.Counter[str] = collections.Counter()
    bugs: dict[tuple[str, str], list[Case]] = collections.defaultdict(list)
    start = time.perf_counter()

    @seed(opts.seed)
    @settings(max_examples=opts.cases, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(fuzz_cases())
    def run(case: Case) -> None:
        result = outcome(case)
        counts[result.kind] += 1
        if result.kind in BUGS:
            bugs[(result.kind, result.detail)].append(case)
        done = sum(counts.values())
        if done % 500 == 0:
            print(f"  {done} cases, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)

    run()
    elapsed = time.perf_counter() - start
    total = sum(counts.values())
    print(f"{total} cases in {elapsed:.0f} s ({1000 * elapsed / max(total, 1):.0f} ms per case)")
    for kind in ("ok", "rejected", *BUGS):
        print(f"  {kind:15} {counts[kind]}")
    for (kind, detail), cases in sorted(bugs.items(), key=lambda item: -len(item[1])):
        known = any(k == kind and re.search(pattern, detail) for k, pattern in KNOWN_BUGS)
        print(f"\n[{kind}]{' (known)' if known else ''} x{len(cases)}: {detail}")
        for case in sorted(cases, key=lambda c: len(c.text))[: opts.show]:
            print(case.reproducer())
    if opts.out:
        with open(opts.out, "w", encoding="utf-8") as fh:
            for (kind, detail), cases in bugs.items():
                for case in cases:
                    fh.write(f"### [{kind}] {detail}\n{case.reproducer()}\n\n")
    return 1 if any(counts[k] for k in BUGS) else 0


if __name__ == "__main__":
    sys.exit(main())
