"""Finding codes: every code llmc emits is registered, documented, and every registered one is used."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from llmc.core.findings import CODES, NOTE_CODES, NOTE_PREFIX, Finding

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {p: p.read_text() for p in (ROOT / "llmc").rglob("*.py") if p.name != "findings.py"}


def used_codes() -> set[str]:
    return {code for text in SOURCES.values() for code in re.findall(r"\bLLMC\d{3}\b", text)}


def test_every_used_code_is_registered():
    assert used_codes() <= set(CODES)


def test_every_registered_code_is_used():
    assert set(CODES) <= used_codes()


def test_every_code_is_documented_with_its_severity():
    docs = (ROOT / "docs" / "findings.md").read_text()
    for code in CODES:
        note = code.startswith(NOTE_PREFIX) or code in NOTE_CODES
        row = f"| {code} (note) |" if note else f"| {code} |"
        assert row in docs, code


def test_unknown_codes_are_refused():
    with pytest.raises(ValueError):
        Finding("ns/x", "LLMC999", "spec", "nope")
