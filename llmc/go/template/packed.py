"""Parse trees as plain data that `marshal` stores, and back: a parse kept ahead of time.

Lexing and parsing a template is character-level Python work; building the same nodes
from stored tuples costs a fraction of it. `pack` writes a node as `(class number, field
values...)`, its child nodes packed the same way and its lists as lists, so a tree comes
back from `unpack` field for field. A packed tree is only good for the node classes it was
made with: `shape()` names them and their fields, and data made under another shape must
not be unpacked.
"""

from __future__ import annotations

from llmc.go.template import nodes

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

_CLASSES: tuple[type, ...] = tuple(sorted(
    (c for c in vars(nodes).values() if isinstance(c, type) and issubclass(c, nodes.Node) and c is not nodes.Node),
    key=lambda c: c.__name__))
_NUMBER = {c: i for i, c in enumerate(_CLASSES)}


def shape() -> tuple:
    """The node classes in packing order, each with its field names."""
    return tuple((c.__name__, tuple(c.__record_fields__)) for c in _CLASSES)  # type: ignore[attr-defined]


def pack(value: Any) -> Any:
    """A node (or a list of them, or a field's plain value) as tuples, lists and plain values."""
    if isinstance(value, nodes.Node):
        cls = type(value)
        return (_NUMBER[cls], *(pack(getattr(value, name)) for name in cls.__record_fields__))  # type: ignore[attr-defined]
    if isinstance(value, list):
        return [pack(item) for item in value]
    return value


def unpack(data: Any) -> Any:
    """What `pack` was given, built again."""
    kind = type(data)
    if kind is tuple:
        return _CLASSES[data[0]](*[unpack(item) for item in data[1:]])
    if kind is list:
        return [unpack(item) for item in data]
    return data
