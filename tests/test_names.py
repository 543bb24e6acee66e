"""llmc.k8s.names.child_name against knative's kmeta.ChildName.

Worked examples are reference 01 §4.2 (verified there with knative's code); the
boundary cases are computed independently here from the documented rule.
"""

from __future__ import annotations

import hashlib

import pytest

from llmc.k8s.names import child_name

PARENT = "my-very-long-llm-inference-service-name-for-testing-purposes"


@pytest.mark.parametrize(
    ("suffix", "name"),
    [
        ("-inference-pool", "my-very-long-llm3692b05ad3b11cc5f5adde0b2ef4627c-inference-pool"),
        ("-kserve-self-signed-certs", "my-ver3692b05ad3b11cc5f5adde0b2ef4627c-kserve-self-signed-certs"),
        ("-kserve-workload-svc", "my-very-lon3692b05ad3b11cc5f5adde0b2ef4627c-kserve-workload-svc"),
        ("-epp-service", "my-very-long-llm-in3692b05ad3b11cc5f5adde0b2ef4627c-epp-service"),
    ],
)
def test_reference_examples(suffix: str, name: str) -> None:
    assert child_name(PARENT, suffix) == name


@pytest.mark.parametrize(("suffix", "threshold"), [("-inference-pool", 48), ("-kserve-self-signed-certs", 38),
                                                   ("-kserve-workload-svc", 43), ("-epp-service", 51), ("-epp-sa", 56)])
def test_hash_threshold(suffix: str, threshold: int) -> None:
    """Reference 01 §4.2: the parent is hashed only when longer than 63 - len(suffix)."""
    at = "a" * threshold
    over = "a" * (threshold + 1)
    assert child_name(at, suffix) == at + suffix
    assert len(child_name(at, suffix)) == 63
    hashed = child_name(over, suffix)
    assert len(hashed) == 63
    assert hashed == over[: 31 - len(suffix)] + hashlib.md5(over.encode()).hexdigest() + suffix


def test_long_suffix_hashes_parent_and_suffix() -> None:
    parent, suffix = "p" * 40, "-" + "s" * 29 + "--"  # suffix of 32 bytes >= 31
    digest = hashlib.md5((parent + suffix).encode()).hexdigest()
    assert child_name(parent, suffix) == "p" * 31 + digest  # padding "-" is stripped as non-alphanumeric


def test_lengths_are_bytes() -> None:
    parent = "é" * 30  # 60 bytes
    assert child_name(parent, "-x") == parent + "-x"  # 62 bytes: no hash
    assert len(child_name(parent, "-xyz").encode()) <= 63 + 2  # hashed; a cut rune becomes U+FFFD
