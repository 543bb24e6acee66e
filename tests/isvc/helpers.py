"""Helpers for the InferenceService tests: load YAML text, render it with the built-in runtimes."""

from __future__ import annotations

import textwrap
from pathlib import Path

from llmc.isvc.compile import compile
from llmc.isvc.config import IsvcConfig
from llmc.load.documents import Document, load_text

ROOT = Path(__file__).resolve().parents[2]
RUNTIMES = ROOT / "presets" / "runtimes"


def docs(text: str, file: str = "input.yaml") -> list[Document]:
    return load_text(textwrap.dedent(text), file)


def builtin_runtimes() -> list[Document]:
    out: list[Document] = []
    for path in sorted(RUNTIMES.glob("*.yaml")):
        out += load_text(path.read_text(), str(path))
    return out


def render(text: str, config: IsvcConfig | None = None, runtimes: list[Document] | None = None, **kwargs):
    """compile() on YAML text with the built-in runtimes; returns (objects by kind, notes)."""
    objects, notes = compile(docs(text), builtin_runtimes() if runtimes is None else runtimes, config, **kwargs)
    by_kind: dict[str, dict] = {}
    for obj in objects:
        assert obj["kind"] not in by_kind, f"two {obj['kind']} objects"
        by_kind[obj["kind"]] = obj
    return by_kind, notes


STANDARD = IsvcConfig(default_deployment_mode="Standard")

