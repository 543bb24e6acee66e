"""Run the fuzz generator of tests/test_fuzz.py for many cases in-process and count the outcomes.

Usage: python bench/fuzz_run.py [--cases 10000] [--seed 0] [--show 3] [--out FILE] [--classes mutate,template,bytes,gitops]

`--classes` picks the generators: `mutate` (tests/test_fuzz.py: mutated real inputs) and
issue 16's attack classes of tests/fuzz_hostile.py: `template` (grammar-aware templates:
recursion, doubling, nesting, huge widths), `bytes` (surrogates, invalid UTF-8, NUL) and
`gitops` (hostile paths through argocd-generate, krm and kustomize-plugin). The run is
under a 2 GB address-space limit, so a case that would exhaust memory is an internal error.

Prints the count per outcome (ok, rejected, invalid-output, bad-rejection,
internal-error, and for the attack classes slow and leak), then every distinct bug signature with its count (marked
"known" when tests/test_fuzz.py KNOWN_BUGS lists it) and the reproducers of its
shortest cases. `--out` writes all bug reproducers to
a file. Exits 1 when there is any bug outcome.
"""

from __future__ import annotations

import argparse
import collections
import re
import resource
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from fuzz_hostile import CLASSES, hostile_outcome  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_fuzz import KNOWN_BUGS, bases, fuzz_cases  # noqa: E402

BUGS = ("invalid-output", "bad-rejection", "internal-error", "slow", "leak")
AS_LIMIT = 2 * 1024 ** 3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=3, help="reproducers shown per bug signature")
    parser.add_argument("--out", type=Path, help="write every bug reproducer to this file")
    parser.add_argument("--classes", default="mutate", help="comma-separated: mutate, " + ", ".join(CLASSES))
    opts = parser.parse_args(argv)
    generators = {"mutate": fuzz_cases, **CLASSES}
    chosen = [c.strip() for c in opts.classes.split(",") if c.strip()]
    unknown = [c for c in chosen if c not in generators]
    if unknown or not chosen:
        parser.error(f"unknown classes {unknown}; choose from {', '.join(generators)}")
    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))

    print(f"{len(bases())} inputs to mutate", file=sys.stderr)  # rendered once, before any draw
    counts: collections.Counter[str] = collections.Counter()
    bugs: dict[tuple[str, str], list] = collections.defaultdict(list)
    start = time.perf_counter()

    @seed(opts.seed)
    @settings(max_examples=opts.cases, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.one_of([generators[c]() for c in chosen]))
    def run(case) -> None:
        result = hostile_outcome(case)
        counts[result.kind] += 1
        if result.kind in BUGS:
            bugs[(result.kind, result.detail)].append(case)
        done = sum(counts.values())
        if done % 500 == 0:
            print(f"  {done} cases, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)  # a background job ignores SIGINT
    interrupted = False
    try:
        run()
    except KeyboardInterrupt:  # SIGINT or SIGTERM: the summary of the cases done so far
        interrupted = True
    elapsed = time.perf_counter() - start
    total = sum(counts.values())
    print(f"{total} cases in {elapsed:.0f} s ({1000 * elapsed / max(total, 1):.0f} ms per case)"
          + (" (interrupted)" if interrupted else ""))
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
