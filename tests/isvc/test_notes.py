"""Every finding code the InferenceService path emits has a title and is documented."""

from __future__ import annotations

import re

from llmc.isvc.notes import CODES, NOTES

from .helpers import ROOT


def test_codes_used_are_listed_and_documented() -> None:
    source = "".join(p.read_text() for p in (ROOT / "llmc" / "isvc").glob("*.py") if p.name != "notes.py")
    used = set(re.findall(r'"(LLMC4\d\d)"', source))
    assert used and used <= set(CODES)
    assert NOTES <= set(CODES)
    docs = (ROOT / "docs" / "inferenceservice.md").read_text()
    for code, title in CODES.items():
        assert f"| {code} | {title}" in docs
