"""Differential run of many generated services: llmc against KServe's own controller (../shared/oracle).

    python bench/oracle_diff.py [-n 1000] [--jobs 2] [--seed 19] [--chunk 50] [--show 3]

Draws N distinct services from the suite's hypothesis strategy (tests/oracle/strategies.py, the
same seed as tests/oracle/test_oracle.py by default, which compares the first 100), renders each
with the oracle (--jobs processes at a time, about 2 s of CPU each) and with llmc, and prints

    compared N inputs, D differences (by class: ...), T s

where D counts the differences outside the allow-list (tests/oracle/allowed.py), by class
(tests/oracle/known.py: the known bugs, and `Kind path` for the rest), with up to --show example
inputs of each class. Exit status 1 when any class is not a known bug.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.oracle import harness  # noqa: E402
from tests.oracle.allowed import unexplained  # noqa: E402
from tests.oracle.known import BUGS, classify  # noqa: E402
from tests.oracle.strategies import generate  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=1000, help="generated services to compare (default 1000)")
    parser.add_argument("--jobs", type=int, default=2, help="oracle processes at a time (default 2)")
    parser.add_argument("--seed", type=int, default=19, help="the strategy's seed (default 19, the suite's)")
    parser.add_argument("--chunk", type=int, default=50, help="inputs per round, for progress on stderr")
    parser.add_argument("--show", type=int, default=3, help="example inputs printed per class")
    parser.add_argument("--record", help="write each input with its classes and differences to this file (JSON lines)")
    args = parser.parse_args()
    if not harness.available():
        print(harness.NO_ORACLE, file=sys.stderr)
        return 2
    start = time.monotonic()
    cases = [harness.Case(f"gen-{i:04d}", tuple(docs)) for i, docs in enumerate(generate(args.n, args.seed))]
    by_class: Counter = Counter()
    examples: dict[str, list[str]] = {}
    record = open(args.record, "w") if args.record else None
    for first in range(0, len(cases), args.chunk):
        for outcome in harness.run_cases(cases[first:first + args.chunk], args.jobs).values():
            classes = classify(outcome, unexplained(outcome.differences))
            by_class.update(classes)
            for name in classes:
                examples.setdefault(name, []).append(outcome.case.id)
            if record:
                record.write(json.dumps({"id": outcome.case.id, "classes": classes, "documents": outcome.case.documents,
                                         "oracle_error": outcome.oracle_error, "llmc_error": outcome.llmc_error,
                                         "differences": [str(d) for d in outcome.differences]}) + "\n")
                record.flush()
        done = min(first + args.chunk, len(cases))
        print(f"{done}/{len(cases)} compared, {sum(by_class.values())} differences, {time.monotonic() - start:.0f} s",
              file=sys.stderr, flush=True)
    elapsed = time.monotonic() - start
    classes = ", ".join(f"{name}: {count} in {len(examples[name])} inputs"
                        for name, count in by_class.most_common()) or "none"
    print(f"compared {len(cases)} inputs, {sum(by_class.values())} differences (by class: {classes}), {elapsed:.0f} s")
    docs = {case.id: case.documents for case in cases}
    for name, ids in sorted(examples.items()):
        print(f"\n{name}: {len(ids)} inputs, e.g. {', '.join(ids[:args.show])}")
        for case_id in ids[:args.show]:
            print(f"  {case_id}: {json.dumps(list(docs[case_id]), sort_keys=True)}")
    known = {bug.name for bug in BUGS}
    return 1 if set(by_class) - known else 0


if __name__ == "__main__":
    sys.exit(main())
