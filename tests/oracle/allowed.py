"""The differences between llmc and KServe's controller that are on purpose, each documented in docs/differences.md.

An entry names the section heading of docs/differences.md that explains it and, where the
explanation is a row of that file's table, the row's first cell; tests/oracle/test_oracle.py checks
that both exist. Nothing else is allowed: a difference that matches no entry fails its input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .harness import Difference

PURPOSE = "Where llmc differs from the KServe controller, on purpose"
CONVERGED = "The converged-state rule, and the review-only flag"
TLS_ROW = "TLS Secret `<name>-kserve-self-signed-certs`"


@dataclass(frozen=True)
class Allowed:
    """Differences on objects of `kind` whose name matches `name` (a regex), at `path`, with these values."""

    heading: str
    row: str | None
    kind: str
    name: str
    path: str
    oracle: str
    llmc: str

    def matches(self, d: Difference) -> bool:
        return (d.kind, d.path, d.oracle, d.llmc) == (self.kind, self.path, self.oracle, self.llmc) \
            and re.fullmatch(self.name, d.name) is not None


ALLOWED = (
    # The controller generates the TLS Secret at run time (random key, live IPs); llmc renders a
    # cert-manager Certificate with the same secretName, issued by a self-signed Issuer, instead
    # (with --controller-objects neither, with --cert-issuer no Issuer).
    Allowed(CONVERGED, TLS_ROW, "Secret", r".+-kserve-self-signed-certs", "(object)", "present", "<absent>"),
    Allowed(CONVERGED, TLS_ROW, "Certificate", r".+-kserve-self-signed-certs", "(object)", "<absent>", "present"),
    Allowed(CONVERGED, TLS_ROW, "Issuer", r".+-kserve-self-signed-issuer", "(object)", "<absent>", "present"),
)


def allowed(d: Difference) -> Allowed | None:
    return next((entry for entry in ALLOWED if entry.matches(d)), None)


def unexplained(differences) -> list[Difference]:
    """The differences no allow-list entry explains."""
    return [d for d in differences if allowed(d) is None]
