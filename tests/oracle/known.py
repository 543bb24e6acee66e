"""Classes of differences: the known llmc bugs the oracle found (not allowed: their inputs are strict xfails), and a
generic class for anything else, so that a report can count differences by kind rather than by input.

A known bug is matched on the outcome of one input (its differences and errors), so that an input
with the bug and a second, new difference is still reported by the second one. Remove a class when
its fix lands: the strict xfails then fail and point at it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .harness import Case, Difference, Outcome


@dataclass(frozen=True)
class Bug:
    name: str  # the class, as reports and xfail reasons name it
    issue: str
    applies: Callable[[Case], bool]  # the input has the bug: its test is a strict xfail
    kind: str | None = None  # a difference on objects of this kind ...
    path: str | None = None  # ... at this path
    oracle: str | None = None
    llmc: str | None = None
    llmc_error: str | None = None  # or llmc rejected the input with a message matching this regex
    oracle_error: str | None = None  # or the oracle did, with a message matching this one, and llmc rendered it

    def matches_difference(self, d: Difference) -> bool:
        return self.kind is not None and (d.kind, d.path) == (self.kind, self.path) \
            and self.oracle in (None, d.oracle) and self.llmc in (None, d.llmc)

    def matches_error(self, outcome: Outcome) -> bool:
        if self.llmc_error is not None and outcome.oracle_error is None and outcome.llmc_error is not None:
            return re.search(self.llmc_error, outcome.llmc_error) is not None
        if self.oracle_error is not None and outcome.llmc_error is None and outcome.oracle_error is not None:
            return re.search(self.oracle_error, outcome.oracle_error) is not None
        return False


def _services(documents) -> list[dict]:
    return [d.get("spec") or {} for d in documents if isinstance(d, dict) and d.get("kind") == "LLMInferenceService"]


BUGS: tuple[Bug, ...] = (
    # none known: the single-node P/D Role/RoleBinding (reconcileMultiNodeMainServiceAccount) and the
    # ingress config without ingressGateway (NewIngressConfig) were fixed; add a class here when the
    # oracle finds a new one, and remove it with its fix
)


def _generic(d: Difference) -> str:
    """`Kind path` with list indices and names left out: one class for the same field of every object of a kind."""
    path = re.sub(r"\[(?:name=)?[^\]]*\]", "[]", d.path)
    side = "" if d.path != "(object)" else (" only in llmc" if d.oracle == "<absent>" else " only in the oracle")
    return f"{d.kind} {path}{side}"


def classify(outcome: Outcome, unexplained: list[Difference]) -> dict[str, int]:
    """class -> count of the outcome's unexplained differences (a rejection on one side counts as one)."""
    out: dict[str, int] = {}
    errors = []
    if bool(outcome.oracle_error) != bool(outcome.llmc_error):
        bug = next((b for b in BUGS if b.matches_error(outcome)), None)
        generic = "the oracle rejects what llmc renders" if outcome.oracle_error else "llmc rejects what the oracle renders"
        errors.append(bug.name if bug else generic)
    for name in errors:
        out[name] = out.get(name, 0) + 1
    for d in unexplained:
        bug = next((b for b in BUGS if b.matches_difference(d)), None)
        name = bug.name if bug else _generic(d)
        out[name] = out.get(name, 0) + 1
    return out


def known_bugs(outcome: Outcome, unexplained: list[Difference]) -> set[str]:
    """The known bug classes behind every unexplained difference of the outcome, or an empty set when any is new."""
    classes = set(classify(outcome, unexplained))
    names = {b.name for b in BUGS}
    return classes if classes and classes <= names else set()
