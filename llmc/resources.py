"""Where llmc's data files are: in a source checkout, or inside an installed wheel."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """The `presets` or `schemas` folder: the checkout's top level, else the wheel's `llmc/_data`."""
    for candidate in (_PACKAGE.parent / name, _PACKAGE / "_data" / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"llmc data folder {name!r} is missing from this installation")
