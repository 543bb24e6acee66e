"""Deep copies of plain JSON data (dicts, lists, scalars): much faster than copy.deepcopy."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any



def copy_json(value: Any) -> Any:
    """A deep copy of `value`; dict and list subclasses come back as plain dicts and lists."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value
