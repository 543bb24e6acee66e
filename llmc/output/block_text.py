"""libyaml's block-style text for ordinary documents, written directly.

`llmc.output.emit` writes YAML with libyaml (``yaml.CSafeDumper``). Most of that
cost is not libyaml's C emitter but PyYAML's per-node work around it: node
objects, events, the serializer. For the objects llmc renders, whose scalars are
nearly all short printable strings, this module writes the bytes libyaml would
write for the same nodes (2-space indentation, sequences not indented under their
key, ``{}``/``[]`` for empty collections, no folding) with string joins.

It covers exactly the scalars whose libyaml form is simple to state: printable
Basic Multilingual Plane text on one line (plain where libyaml's own analysis
allows it, else single-quoted) and literal blocks of such lines that are clipped
(``|``) or stripped (``|-``). Anything else (a double-quoted string, a keep-chomped
block ``|+``, a key over 128 bytes or empty, data that is not plain JSON) makes
`Writer.document` raise Hard, and the caller gives that document to libyaml. ``tests/test_block_text.py`` checks the bytes against libyaml's.
"""

from __future__ import annotations

import math
import re

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

# libyaml's IS_PRINTABLE within the Basic Multilingual Plane, without tab, line breaks and NEL
_PRINTABLE_LINE = re.compile("[\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd]+")
# a printable text of several lines that libyaml writes as a literal block: no space before
# a line break, no space at the end (`block_allowed` in yaml_emitter_analyze_scalar)
_BLOCK_TEXT = re.compile("(?!.* \n)[\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\n]*[\x21-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd]\n?", re.S)
# what makes libyaml refuse a plain scalar after its first character: ": ", a ":" at the end, " #"
_NOT_PLAIN_INSIDE = re.compile(": |:$| #")
_NOT_PLAIN_FIRST = frozenset("#,[]{}&*!|>'\"%@`")


class Hard(Exception):
    """A document this module does not write (the caller gives it to libyaml)."""


def _plain_allowed(text: str) -> bool:
    """libyaml's `block_plain_allowed` for one printable line (yaml_emitter_analyze_scalar)."""
    first = text[0]
    if first in _NOT_PLAIN_FIRST or first == " " or text[-1] == " " or text[:3] in ("---", "..."):
        return False
    if first in "?:-" and (len(text) == 1 or text[1] == " "):
        return False
    return _NOT_PLAIN_INSIDE.search(text, 1) is None


def scalar(text: str, style: str | None) -> str | tuple[str, tuple[str, ...]] | None:
    """A one-line string's text, or (block header, its lines) for a literal block, or None (hard).

    `style` is what emit asks libyaml for: None (plain), "'" or "|".
    """
    if style == "|":
        if _BLOCK_TEXT.fullmatch(text) is None:
            return None  # double-quoted by libyaml, or keep-chomped (|+)
        header = "|2" if text[0] in " \n" else "|"
        if text.endswith("\n"):
            return header, tuple(text[:-1].split("\n"))
        return header + "-", tuple(text.split("\n"))
    if style == '"' or (text and _PRINTABLE_LINE.fullmatch(text) is None):
        return None
    if style is None and text and _plain_allowed(text):
        return text
    return "'" + text.replace("'", "''") + "'"


def float_text(value: float) -> str:
    """A float as emit writes it: Python's shortest round-trip repr, with ``.0`` before a bare exponent."""
    text = repr(value)
    if "." not in text and "e" in text:
        text = text.replace("e", ".0e", 1)
    return text


class Writer:
    """Writes documents for one choice of scalar styles and map orders, remembering scalar texts.

    `style(text)` is emit's scalar style for a string (None, "'", "|" or '"'); `order(value, key,
    parent)` is the map `value` (under `key`, itself under `parent`) in the order it is written.
    """

    def __init__(self, style, order) -> None:
        self.style = style
        self.order = order
        self.keys: dict[str, str] = {}  # key -> its text and ":"
        self.values: dict[str, Any] = {}  # string -> " text\n", (header, lines) or None

    def document(self, root: dict[str, Any]) -> str:
        """The text libyaml writes for the mapping `root` (keys already in order) after a ``---`` line; raises Hard."""
        if not root:
            raise Hard
        if len(self.keys) + len(self.values) > _REMEMBERED:
            self.keys.clear()
            self.values.clear()
        out: list[str] = []
        self._mapping(root, 0, "", out, None)
        return "".join(out)

    def _key(self, key: Any) -> str:
        if type(key) is not str or not key or len(key) > 128 or (not key.isascii() and len(key.encode()) > 128):
            raise Hard  # libyaml writes a key over 128 bytes in the explicit `? key` form
        text = scalar(key, self.style(key))
        if type(text) is not str:
            raise Hard
        text += ":"
        if len(key) <= _REMEMBERED_LENGTH:
            self.keys[key] = text
        return text

    def _string(self, value: str) -> Any:
        text = scalar(value, self.style(value))
        text = " " + text + "\n" if type(text) is str else text
        if len(value) <= _REMEMBERED_LENGTH:
            self.values[value] = text
        return text

    def _mapping(self, value: dict[str, Any], indent: int, first: str, out: list[str], key: str | None) -> None:
        """Write a non-empty mapping found under `key`; `first` precedes its first key on the current line."""
        pad = " " * indent
        lead = first
        keys = self.keys
        values = self.values
        for k, item in value.items():
            text = keys.get(k) if type(k) is str else None
            out.append(lead + (text or self._key(k)))
            lead = pad
            if type(item) is str:
                text = values[item] if item in values else self._string(item)
                if type(text) is str:
                    out.append(text)
                    continue
            self._value(item, indent, out, True, k, key)

    def _sequence(self, value: list[Any], indent: int, first: str, out: list[str]) -> None:
        pad = " " * indent
        lead = first
        for item in value:
            out.append(lead + "-")
            lead = pad
            self._value(item, indent, out, False, None, None)

    def _value(self, value: Any, indent: int, out: list[str], in_mapping: bool, key: str | None,
               parent: str | None) -> None:
        """Write what follows a key's ``:`` or an item's ``-`` (at `indent`) through the end of its line(s)."""
        kind = type(value)
        if kind is str:
            text = self.values[value] if value in self.values else self._string(value)
            if text is None:
                raise Hard
            if type(text) is str:
                out.append(text)
                return
            header, lines = text
            pad = " " * (indent + 2)
            out.append(" " + header + "\n")
            out.extend(pad + line + "\n" if line else "\n" for line in lines)
        elif kind is dict:
            if not value:
                out.append(" {}\n")
            elif in_mapping:
                out.append("\n")
                self._mapping(self.order(value, key, parent), indent + 2, " " * (indent + 2), out, key)
            else:
                self._mapping(self.order(value, None, None), indent + 2, " ", out, None)
        elif kind is list:
            if not value:
                out.append(" []\n")
            elif in_mapping:  # sequences are not indented under their key
                out.append("\n")
                self._sequence(value, indent, " " * indent, out)
            else:
                self._sequence(value, indent + 2, " ", out)
        elif kind is bool:
            out.append(" true\n" if value else " false\n")
        elif kind is int:
            out.append(f" {value}\n")
        elif value is None:
            out.append(" null\n")
        elif kind is float and math.isfinite(value):
            out.append(" " + float_text(value) + "\n")
        else:
            raise Hard


_REMEMBERED = 1 << 14  # keys and strings remembered before starting afresh (at most about 9 MB)
_REMEMBERED_LENGTH = 256  # longer strings are not remembered (memory stays bounded)
