"""Where llmc's data files are (in a source checkout, or inside an installed wheel), and the CRD schemas
through their snapshots (`llmc/snapshots/crd/`, written by `python -m llmc.read.snapshot`).

Paths here are strings (os.path), not pathlib: a render reads these files on every run, and
pathlib's import (it brings urllib.parse and ipaddress) is about 4 ms of a cold render.
"""

from __future__ import annotations

import marshal
import os
from binascii import crc32  # zlib.crc32's checksum, from a module PyYAML has already imported
from functools import cache

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

_PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # llmc/
SNAPSHOTS = os.path.join(_PACKAGE, "snapshots")


@cache
def data_dir(name: str) -> str:
    """The `presets` or `schemas` folder: the checkout's top level, else the wheel's `llmc/_data`."""
    for candidate in (os.path.join(os.path.dirname(_PACKAGE), name), os.path.join(_PACKAGE, "_data", name)):
        if os.path.isdir(candidate):
            return candidate
    raise FileNotFoundError(f"llmc data folder {name!r} is missing from this installation")


def read_schema(path: str) -> dict[str, Any]:
    """The JSON Schema in file `path` (schemas/crd/): its snapshot when it has one for that text, else the JSON."""
    import json

    schema = schema_snapshot(path)
    if schema is None:
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
    return schema


def schema_snapshot(path: str) -> dict[str, Any] | None:
    """The snapshot of the JSON Schema in file `path`; None when there is none for that text."""
    stem = os.path.splitext(os.path.basename(path))[0]
    try:
        with open(path, "rb") as f:
            data = f.read()
        with open(os.path.join(SNAPSHOTS, "crd", f"{stem}.marshal"), "rb") as f:
            length, crc, schema = marshal.loads(f.read())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return schema if (length, crc) == (len(data), crc32(data)) else None


def shared(value: Any, seen: dict | None = None) -> Any:
    """`value` (plain JSON data) with equal subtrees made one object, so that marshal stores each once."""
    return _shared(value, {} if seen is None else seen)[0]


def _shared(value: Any, seen: dict) -> tuple[Any, Any]:
    if isinstance(value, dict):
        items = [(k, _shared(v, seen)) for k, v in value.items()]
        key = ("{", tuple((k, sub_key) for k, (_, sub_key) in items))
        made = seen.get(key)
        if made is None:
            made = seen[key] = {k: sub for k, (sub, _) in items}
    elif isinstance(value, list):
        items = [_shared(v, seen) for v in value]
        key = ("[", tuple(sub_key for _, sub_key in items))
        made = seen.get(key)
        if made is None:
            made = seen[key] = [sub for sub, _ in items]
    else:
        # True and 1 are equal, and so are 0.0 and -0.0, but they are not the same JSON
        return value, (type(value), repr(value) if isinstance(value, float) else value)
    return made, id(made)
