"""Deterministic text for rendered objects: canonical key order, YAML stream, JSON List.

Key order (``order_keys``)
--------------------------
Top level: ``apiVersion, kind, metadata, spec, data, stringData, type``, then the
other keys in the renderer's order. Top-level ``metadata``: ``name, generateName,
namespace, labels, annotations, ownerReferences, finalizers``, then the rest.
Every other map keeps the renderer's insertion order (renderers are
deterministic and follow the controller's field order), except maps Kubernetes
treats as unordered string maps, whose keys are sorted by code point (the order
Go's ``encoding/json`` writes map keys in, so ``kubectl get -o yaml`` agrees):

- at any depth, a map under the key ``labels``, ``annotations``, ``matchLabels``
  or ``nodeSelector``;
- at any depth, a map under ``selector`` whose values are all strings: the
  ``map[string]string`` selectors of Service, ReplicationController and
  ``inference.networking.x-k8s.io/v1alpha2`` InferencePool. A ``LabelSelector``
  (``matchLabels``/``matchExpressions``) is a struct and keeps its order;
- at any depth, ``limits`` and ``requests`` directly under ``resources``
  (``ResourceList``); ``resources.claims`` is a list and keeps its order;
- top-level ``data`` and ``binaryData`` of a ConfigMap, ``data`` and
  ``stringData`` of a Secret.

Only plain JSON data is accepted (``dict`` with string keys, ``list``, ``str``,
``int``, finite ``float``, ``bool``, ``None``; exact types, no subclasses):
anything else raises ``TypeError``, NaN and infinities ``ValueError`` (Kubernetes
objects travel as JSON, which has neither), the same for YAML and JSON output.

YAML (``to_yaml``)
------------------
The bytes of PyYAML's libyaml emitter (``yaml.CSafeDumper``), chosen by measurement
(``bench/emit_bench.py``), fed with nodes llmc builds itself: every scalar is
tagged ``str`` and the resolver is bypassed, so llmc alone decides quoting and
no tag or anchor is ever written. A document whose scalars are all ordinary
(``llmc.output.block_text``: printable one-line strings, clipped or stripped
literal blocks, numbers, booleans, nulls) is written directly with the same bytes,
several times faster than building nodes for libyaml; the rest go to libyaml.
A pure-Python emitter fallback is deliberately absent:
PyYAML's pure emitter, given the same nodes, writes the same bytes for
ordinary objects but not in corner cases (characters outside the Basic
Multilingual Plane, empty map keys), and the same input must give the same bytes
on every machine.

- Stream: every document starts with a ``---`` line (helm template's
  convention): the output can be concatenated with other streams, and a
  document's start is visible without context. No objects give an empty string.
  No ``...`` document-end lines (see ``to_yaml`` for the one libyaml writes).
- Layout: 2-space indentation, block style, sequences not indented under their
  key (kubectl's style), empty collections as ``{}``/``[]``, no line folding.
  Map keys longer than 128 characters are written in explicit ``? key`` form
  (libyaml's limit for simple keys); both YAML versions read it.
- Strings containing ``\\n`` are literal blocks (``|``; ``|-`` without a final
  newline, ``|+`` with several, an indentation digit when the first line starts
  with a space). libyaml refuses a block when a line ends in a space or tab, the
  string ends in a space, or it contains a tab, a carriage return or another
  character it will not print raw; the string is then double-quoted on one line
  with escapes. That is the safest form that round-trips: trailing whitespace
  inside a block is invisible and editors, linters and pre-commit hooks strip it,
  silently changing the value, while escapes are visible and survive.
- Strings containing NEL, LINE SEPARATOR or PARAGRAPH SEPARATOR are
  double-quoted with ``\\N``, ``\\L``, ``\\P``: these are line breaks to YAML 1.1
  readers and ordinary characters to YAML 1.2 readers.
- Any other string some reader would not take back as that string is
  single-quoted: see ``needs_quotes``. libyaml itself quotes strings it cannot
  write plain (empty, leading or trailing space, a leading indicator
  ``-?:,[]{}#&*!|>'"%@```, ``: ``, `` #``, ``---``/``...``).
- Unicode is written as is, except characters outside the Basic Multilingual
  Plane (emoji, some CJK extensions): libyaml writes the whole string
  double-quoted with ``\\U`` escapes.
- ``true``/``false``, ``null``, integers in decimal, floats as Python's shortest
  round-trip ``repr`` with a ``.0`` added before a bare exponent (``1.0e+20``):
  a form YAML 1.1 (which needs the dot), YAML 1.2 and go-yaml all read as that float.

JSON (``to_json``)
------------------
One ``{"apiVersion": "v1", "kind": "List", "items": [...]}`` document, 2-space
indentation, keys in the same order as the YAML, non-ASCII written as is,
trailing newline.
"""

from __future__ import annotations

import functools
import io
import json
import math
import re
from collections.abc import Iterable, Mapping

from yaml import CSafeDumper
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from llmc.output.block_text import Hard, Writer, float_text

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

TOP_KEYS = ("apiVersion", "kind", "metadata", "spec", "data", "stringData", "type")
METADATA_KEYS = ("name", "generateName", "namespace", "labels", "annotations", "ownerReferences", "finalizers")

_STRING_MAPS = frozenset({"labels", "annotations", "matchLabels", "nodeSelector"})
_RESOURCE_LISTS = frozenset({"limits", "requests"})
_DATA_KEYS = {"ConfigMap": frozenset({"data", "binaryData"}), "Secret": frozenset({"data", "stringData"})}
_SCALARS = frozenset({str, int, float, bool, type(None)})


def order_keys(obj: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``obj`` in canonical key order (see the module docstring).

    Containers are copied, scalars shared; ``obj`` is not changed.
    """
    return _walk(_root(obj), None, None)


def _root(obj: Mapping[str, Any]) -> dict[str, Any]:
    """``obj`` with its top-level and metadata keys in canonical order and its data maps sorted (a shallow copy)."""
    data_keys = _DATA_KEYS.get(obj.get("kind"), frozenset())  # type: ignore[arg-type]
    out: dict[str, Any] = {key: obj[key] for key in TOP_KEYS if key in obj}
    for key, value in obj.items():
        if key not in out:
            out[_str_key(key, None)] = value
    meta = out.get("metadata")
    if type(meta) is dict:
        ordered = {key: meta[key] for key in METADATA_KEYS if key in meta}
        for key, value in meta.items():
            if key not in ordered:
                ordered[_str_key(key, "metadata")] = value
        out["metadata"] = ordered
    for key in data_keys:
        if type(out.get(key)) is dict:
            out[key] = _sorted_map(out[key], key)
    return out


def _sorted_map(value: dict[str, Any], under: str | None) -> dict[str, Any]:
    """``value`` with its keys sorted (a shallow copy)."""
    return {_str_key(key, under): value[key] for key in sorted(value)}


def _str_key(key: Any, under: str | None) -> str:
    if type(key) is not str:
        raise TypeError(f"not plain JSON data: map key {key!r} under {under!r} is not a string")
    return key


def _unordered(value: dict[str, Any], key: str | None, parent: str | None) -> bool:
    """Whether the map `value` (under `key`, itself under `parent`) is written with sorted keys."""
    return (
        key in _STRING_MAPS
        or (key == "selector" and all(type(v) is str for v in value.values()))
        or (parent == "resources" and key in _RESOURCE_LISTS)
    )


def _walk(value: Any, key: str | None, parent: str | None) -> Any:
    """Copy ``value`` (found under ``key``, itself under ``parent``), sorting unordered maps."""
    kind = type(value)
    if kind is dict:
        if _unordered(value, key, parent):
            value = _sorted_map(value, key)
        return {_str_key(k, key): _walk(v, k, key) for k, v in value.items()}
    if kind is list:
        return [_walk(item, None, None) for item in value]
    if kind not in _SCALARS:
        raise TypeError(f"not plain JSON data: {kind.__name__} {value!r} under {key!r}")
    if kind is float and not math.isfinite(value):
        raise ValueError(f"{value!r} under {key!r}: Kubernetes objects are JSON, which has no NaN or infinity")
    return value


# --- YAML -----------------------------------------------------------------

_STR = "tag:yaml.org,2002:str"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_RESOLVED = {ScalarNode: _STR, SequenceNode: _SEQ, MappingNode: _MAP}

# Plain scalars that are booleans, nulls, merge or value keys in YAML 1.1
# (PyYAML, go-yaml v2, which Kubernetes reads with), YAML 1.2 (ruamel) or both.
_KEYWORDS = frozenset(
    """y Y yes Yes YES n N no No NO true True TRUE false False FALSE
    on On ON off Off OFF null Null NULL ~ << =""".split()
) | {""}

# Every number syntax of YAML 1.1 (spec and PyYAML: 0b, 0x, 0-octal, sexagesimal
# 1:20, floats with any dots after the first), YAML 1.2 core (0o, 1e3) and go-yaml
# v2 (Go's ParseInt base 0, 0B/0O/0X, its float regex), matched after removing
# every underscore as go-yaml does. Digit runs may be empty so that underscore-
# only runs (``0x_``, ``+_``), which some resolvers still claim, stay quoted.
_NUMBER = re.compile(
    r"""[-+]?(?:
        0[xX][0-9a-fA-F]*
      | 0[oO][0-7]*
      | 0[bB][01]*
      | [0-9]*(?::[0-9]*)*(?:\.[0-9.]*)?(?:[eE][-+]?[0-9]*)?
      | \.(?:inf|Inf|INF|nan|NaN|NAN)
    )""",
    re.VERBOSE,
)
# Dates and date-times of PyYAML, ruamel and go-yaml v2 (which also takes
# single-digit months and days): anything from YYYY-M-D on.
_TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt \t].*)?")
_YAML11_BREAKS = re.compile("[\x85\u2028\u2029]")


def needs_quotes(text: str) -> bool:
    """Whether a plain ``text`` would be read as something other than this string.

    Covers what resolvers see (booleans, nulls, numbers, timestamps, ``<<``,
    ``=``) for YAML 1.1 and 1.2; what the syntax forbids unquoted (indicators,
    ``: ``, `` #``) libyaml checks itself.
    """
    if text in _KEYWORDS:
        return True
    first = text[0]
    if first in "+-.0123456789":
        if _NUMBER.fullmatch(text.replace("_", "")):
            return True
        return first in "0123456789" and _TIMESTAMP.fullmatch(text) is not None
    return False


@functools.lru_cache(maxsize=4096)
def _style(text: str) -> str | None:
    """Scalar style for a string; cached because keys and many values repeat."""
    if _YAML11_BREAKS.search(text):
        return '"'
    if "\n" in text:
        return "|"
    if needs_quotes(text):
        return "'"
    return None


def _node(value: Any) -> Node:
    """A fresh node tree (never shared, so never an anchor) for canonical plain data."""
    kind = type(value)
    if kind is str:
        return ScalarNode(_STR, value, None, None, _style(value))
    if kind is dict:  # keys are strings: order_keys checked
        pairs = [(ScalarNode(_STR, k, None, None, _style(k)), _node(v)) for k, v in value.items()]
        return MappingNode(_MAP, pairs, None, None, False)
    if kind is list:
        return SequenceNode(_SEQ, [_node(v) for v in value], None, None, False)
    if kind is bool:
        return ScalarNode(_STR, "true" if value else "false")
    if kind is int:
        return ScalarNode(_STR, str(value))
    if kind is float:
        return ScalarNode(_STR, float_text(value))
    return ScalarNode(_STR, "null")


class _Dumper(CSafeDumper):
    """libyaml emitter whose resolver agrees with every node: no tags are written."""

    def resolve(self, kind: type[Node], value: Any, implicit: Any) -> str:
        return _RESOLVED[kind]


_WIDTH = 2**31 - 1  # libyaml's int: no folding


def to_yaml(objs: Iterable[Mapping[str, Any]]) -> str:
    """A YAML stream of ``objs`` in the given order, each through ``order_keys``.

    Callers order objects with ``llmc.k8s.install_order.sort_objects`` first. A document
    is written by ``llmc.output.block_text`` when it can (the same bytes, faster), else by libyaml.
    """
    parts: list[str] = []
    for obj in objs:
        try:
            parts.append("---\n" + _WRITER.document(_root(obj)))
        except (Hard, TypeError):  # libyaml's document, or order_keys' error on data that is not plain JSON
            parts.append(_libyaml(order_keys(obj)))
    return "".join(parts)


def _nested_order(value: dict[str, Any], key: str | None, parent: str | None) -> dict[str, Any]:
    return _sorted_map(value, key) if _unordered(value, key, parent) else value


_WRITER = Writer(_style, _nested_order)


def _libyaml(obj: dict[str, Any]) -> str:
    """One document of canonical plain data as libyaml writes it in a stream."""
    stream = io.StringIO()
    dumper = _Dumper(stream, indent=2, width=_WIDTH, allow_unicode=True, explicit_start=True)
    try:
        dumper.open()
        dumper.serialize(_node(obj))
        dumper.close()
    finally:
        dumper.dispose()
    text = stream.getvalue()
    # libyaml ends the stream with a "..." line when the document holds a keep-chomped
    # block (|+), and only there: in a stream, the next document's "---" closes the block.
    # At the end of the stream the marker carries nothing (the stream end closes the block as
    # it would), and only a marker can be an unindented "..." line, so it is dropped to keep
    # "---" the only separator.
    return text[:-4] if text.endswith("\n...\n") else text


# --- JSON -----------------------------------------------------------------


def to_json(objs: Iterable[Mapping[str, Any]]) -> str:
    """A ``kind: List`` JSON document of ``objs`` in the given order, each through ``order_keys``."""
    doc = {"apiVersion": "v1", "kind": "List", "items": [order_keys(obj) for obj in objs]}
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


# ``to_json``'s text written piece by piece: the head, each item (``json_items``)
# after ``JSON_FIRST`` or ``JSON_NEXT``, then ``json_tail(count)``. JSON strings hold
# no raw line breaks, so indenting an item's lines places it under ``items``.
JSON_HEAD = '{\n  "apiVersion": "v1",\n  "kind": "List",\n  "items": ['
JSON_FIRST = "\n    "
JSON_NEXT = ",\n    "


def json_items(objs: Iterable[Mapping[str, Any]]) -> list[str]:
    """Each object as ``to_json`` writes it inside ``items``."""
    return [json.dumps(order_keys(obj), indent=2, ensure_ascii=False, allow_nan=False).replace("\n", "\n    ")
            for obj in objs]


def json_tail(count: int) -> str:
    """The end of a List of ``count`` items."""
    return "\n  ]\n}\n" if count else "]\n}\n"
