"""Reading YAML and JSON input into plain data, with the position of every node.

The parser is libyaml's event stream (PyYAML's `CParser`, pure-Python `Parser`
when libyaml is missing); llmc builds the data itself from the events. That is
one pass that sees every node's position, and it lets llmc refuse what it does
not want before building anything: anchors and aliases (so a "billion laughs"
input stops at its first anchor), merge keys, unknown tags, duplicate keys and
input over the size limits. Measured on the upstream presets and samples
(237 KB): libyaml events 7 ms and llmc's whole `load_text` 13 ms, against
ruamel.yaml's round-trip load 370 ms and its event parsing alone 204 ms
(ruamel.yaml has no C extension in this installation).

JSON input (text starting with `{` or `[`) is read as kubectl reads it, by a
JSON decoder, which decides what is accepted (no trailing commas, no NaN); the
same text read by the YAML parser gives the positions.

Scalars are resolved the way `kubectl` reads manifests (sigs.k8s.io/yaml on
go-yaml v2, a YAML 1.1 dialect), so llmc sees what the API server would see:

* `y`, `Y`, `yes`, `on`, `true` (and their `Yes`/`YES`/`On`/`ON`/`True`/`TRUE`
  spellings) are `true`; `n`, `no`, `off`, `false` likewise `false`. Quote
  such values where a string is meant (the schema check then reports a bool
  where a string is expected, as the API server does).
* `~`, `null`, `Null`, `NULL` and an empty value are null.
* Integers follow Go's `strconv.ParseInt(s, 0, 64)` after removing `_`:
  `0x1F` is 31, `0o17` and `017` are 15 (a leading 0 means octal), `0b101` is 5.
  Something like `08` is not octal and becomes the number 8.
* Floats: `1.5`, `.5`, `1e3`; a float with an integral value becomes an int,
  since the JSON the API server receives carries no difference (`1.0` is `1`).
  `.inf` and `.nan` are rejected: JSON cannot carry them.
* Timestamps stay strings. Mapping keys are resolved like values and then
  written as strings (`on:` is the key `"true"`, `1:` is `"1"`).
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from types import MappingProxyType
from sys import intern

import yaml
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    StreamEndEvent,
)

from llmc.core.errors import LlmcError, Location
from llmc.go.strconv import format_float
from llmc.go.yaml import YAML_FLOAT, resolve_int
from llmc.kserve.isvc_kinds import INPUT_KINDS as ISVC_INPUT_KINDS
from llmc.core.record import field, record

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any, Callable, Iterator, Mapping

try:  # libyaml is part of the PyYAML wheels; fall back to the pure parser without it
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the installation
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_DEPTH = 100
MAX_DOCUMENTS = 10_000  # per file, empty ones included: a stream of bare `---` stays cheap to refuse
MAX_STRING_BYTES = 4 * 1024 * 1024

PathKey = str | int
Path = tuple[PathKey, ...]

#: (apiVersion, kind) of the objects llmc reads.
KNOWN_INPUT_KINDS: frozenset[tuple[str, str]] = frozenset(
    {
        ("serving.kserve.io/v1alpha2", "LLMInferenceService"),
        ("serving.kserve.io/v1alpha2", "LLMInferenceServiceConfig"),
        ("serving.kserve.io/v1alpha1", "LLMInferenceService"),
        ("serving.kserve.io/v1alpha1", "LLMInferenceServiceConfig"),
        ("v1", "ConfigMap"),
        *ISVC_INPUT_KINDS,  # InferenceService (v1beta1, Standard mode) and what it needs: llmc.isvc
        # cluster state the router checks references against (Gateway refs, route refs, URL discovery)
        ("gateway.networking.k8s.io/v1", "Gateway"),
        ("gateway.networking.k8s.io/v1", "HTTPRoute"),
        ("v1", "Service"),
    }
)


@record
class Document:
    """One object read from a file: plain data plus where each value was written."""

    obj: dict[str, Any]
    file: str = "<input>"
    index: int = 0
    positions: dict[Path, tuple[int, int]] = field(default_factory=dict, repr=False)
    key_positions: dict[Path, tuple[int, int]] = field(default_factory=dict, repr=False)
    item: int | None = None  # index in `items` when the object came from a List
    # The text the document was read from, when `load_text(..., keep_positions=False)` left
    # the position tables out (most of a loaded document's memory, and only errors use
    # them): the first `locate` reads them again from this text, and so does the first
    # read of `obj` after `release`.
    source: str | None = field(default=None, repr=False, compare=False)

    def release(self) -> None:
        """Let go of `obj` when `source` can give it again: the next read of `obj` reads it again.

        A batch's services, once admitted, need their data only to place an error; kept for every
        service, the loaded data would be most of a large batch's memory. A document without its
        text keeps `obj`.
        """
        if self.source is not None:
            del self.obj

    def __getattr__(self, name: str) -> Any:
        """`obj` of a released document (Python asks only for attributes the instance lacks)."""
        if name != "obj" or self.source is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self.obj = _read_again(self.source, self.file)[(self.index, self.item)].obj
        return self.obj

    def locate(self, path: Path = ()) -> Location:
        """Location of the value at `path`, or of its nearest ancestor that has a position."""
        return self._locate(tuple(path), self._tables()[0])

    def same_place(self, other: Document) -> bool:
        """Whether `other` is this document read again (the same file given twice, e.g. `-f dir -f dir/x.yaml`)."""
        import os.path

        return os.path.normpath(self.file) == os.path.normpath(other.file) and (self.index, self.item) == (other.index, other.item)

    def locate_key(self, path: Path) -> Location:
        """Location of the mapping key that ends `path` (falls back to `locate`)."""
        path = tuple(path)
        key_positions = self._tables()[1]
        if path in key_positions:
            return self._locate(path, key_positions)
        return self.locate(path)

    def _tables(self) -> tuple[dict[Path, tuple[int, int]], dict[Path, tuple[int, int]]]:
        if self.source is not None and not self.positions:  # a loaded table holds at least the document's own ()
            again = _read_again(self.source, self.file)[(self.index, self.item)]
            self.positions, self.key_positions = again.positions, again.key_positions
        return self.positions, self.key_positions

    def _locate(self, path: Path, table: dict[Path, tuple[int, int]]) -> Location:
        for end in range(len(path), -1, -1):
            pos = table.get(path[:end])
            if pos is not None:
                return Location(self.file, pos[0], pos[1], format_path(path))
        return Location(self.file, None, None, format_path(path))

    @property
    def kind(self) -> str | None:
        value = self.obj.get("kind")
        return value if isinstance(value, str) else None

    @property
    def api_version(self) -> str | None:
        value = self.obj.get("apiVersion")
        return value if isinstance(value, str) else None

    @property
    def name(self) -> str | None:
        value = _metadata(self.obj).get("name")
        return value if isinstance(value, str) else None

    @property
    def namespace(self) -> str | None:
        value = _metadata(self.obj).get("namespace")
        return value if isinstance(value, str) else None


def _metadata(obj: dict[str, Any]) -> dict[str, Any]:
    meta = obj.get("metadata")
    return meta if isinstance(meta, dict) else {}


# The position tables of a document that keeps its text instead: one empty table for all of them
# (a batch holds every service's document; nothing writes into a document's tables).
_UNREAD: Mapping[Path, tuple[int, int]] = MappingProxyType({})

_BARE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def format_path(path: Path) -> str:
    """`("spec", "template", "containers", 0)` → `spec.template.containers[0]`.

    Keys that are not plain identifiers are written in brackets as JSON strings:
    `metadata.annotations["serving.kserve.io/x"]`.
    """
    out: list[str] = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _BARE_KEY.fullmatch(part):
            out.append(f".{part}" if out else part)
        else:
            out.append(f"[{json.dumps(part, ensure_ascii=False)}]")
    return "".join(out)


_PATH_PART = re.compile(r'\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')


def parse_path(text: str) -> Path:
    """The inverse of `format_path`; stops at the first part it cannot read (a nearer ancestor still locates)."""
    out: list[str | int] = []
    pos = 0
    while pos < len(text):
        m = _PATH_PART.match(text, pos)
        if m is None:
            break
        name, index, quoted = m.groups()
        out.append(name if name is not None else int(index) if index is not None else json.loads(quoted))
        pos = m.end()
    return tuple(out)


def relocate(err: LlmcError, doc: Document) -> LlmcError:
    """Give an error raised deep in resolve/render (a field path, no file) the document's file:line:col."""
    loc = err.location
    if loc is None:
        err.location = doc.locate(())
    elif loc.line is None and loc.file in ("<input>", doc.file):
        located = doc.locate(parse_path(loc.path))
        located.path = loc.path or located.path
        err.location = located
    return err


def check_kind(doc: Document) -> None:
    """Reject objects llmc does not read, with a hint for the near misses: a kind in the wrong
    version names the versions llmc reads it in; a misspelt kind gets a did-you-mean."""
    key = (doc.api_version, doc.kind)
    if key in KNOWN_INPUT_KINDS:
        return
    import difflib

    versions = sorted(api for api, kind in KNOWN_INPUT_KINDS if kind == doc.kind)
    close = difflib.get_close_matches(str(doc.kind), sorted({k for _, k in KNOWN_INPUT_KINDS}), n=1, cutoff=0.8)
    if versions:
        where, hint = doc.locate(("apiVersion",)), f"{doc.kind} is read as apiVersion {' or '.join(versions)}"
    elif close:
        where, hint = doc.locate(("kind",)), f"did you mean kind: {close[0]}?"
    else:
        known = ", ".join(f"{kind} ({api})" for api, kind in sorted(KNOWN_INPUT_KINDS))
        where = doc.locate(("apiVersion",)) if doc.api_version != "serving.kserve.io/v1alpha2" else doc.locate(("kind",))
        hint = f"llmc reads {known}"
    raise LlmcError(f"llmc does not read {doc.kind} objects of apiVersion {doc.api_version}", where, hint=hint)


# --------------------------------------------------------------------------- scalars

_NULLS = {"", "~", "null", "Null", "NULL"}
_TRUE = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}
_FALSE = {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}
_NONFINITE = {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"}
# First characters for which go-yaml tries anything but a string.
_MAYBE_NOT_STR = frozenset("+-0123456789.yYnNtTfFoO~")
_INT64 = 1 << 63

_STR_TAG = "tag:yaml.org,2002:str"
_SCALAR_TAGS = {
    "tag:yaml.org,2002:int": int,
    "tag:yaml.org,2002:float": float,
    "tag:yaml.org,2002:bool": bool,
    "tag:yaml.org,2002:null": type(None),
}
_MAP_TAGS = {None, "!", "tag:yaml.org,2002:map"}
_SEQ_TAGS = {None, "!", "tag:yaml.org,2002:seq"}


class _Unrepresentable(ValueError):
    """A YAML value that has no JSON form (.inf, .nan)."""


def _number(value: float) -> int | float:
    """What a float is once it went through JSON: integral values are integers."""
    if value.is_integer() and abs(value) < 1e21:
        return int(value)
    return value


def resolve_plain(text: str, json_numbers: bool = True) -> Any:
    """The value of an untagged plain scalar, as go-yaml v2 resolves it (see the module docstring).

    `json_numbers=False` keeps integral floats as floats (mapping keys are
    written from the YAML value, not from JSON).
    """
    if not text:
        return None
    if text[0] not in _MAYBE_NOT_STR:
        return text
    if text in _NULLS:
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    if text in _NONFINITE:
        raise _Unrepresentable(text)
    first = text[0]
    if first == ".":
        if YAML_FLOAT.fullmatch(text):
            return _number(float(text)) if json_numbers else float(text)
        return text
    if first in "+-0123456789":
        plain = text.replace("_", "")
        number = resolve_int(plain)
        if number is not None:
            return number
        if YAML_FLOAT.fullmatch(plain):
            value = float(plain)
            if math.isfinite(value):  # Go's ParseFloat fails on overflow: the text stays a string
                return _number(value) if json_numbers else value
    return text


def _key_string(value: Any) -> str:
    """A resolved mapping key as sigs.k8s.io/yaml turns it into a JSON key."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if value >= _INT64:
            raise ValueError("unsigned 64-bit integer")
        return str(value)
    if isinstance(value, float):
        return format_float(value, "g", -1, 32)
    if value is None:
        raise ValueError("null")
    return value


# --------------------------------------------------------------------------- building


class _Builder:
    """Turns one event stream into documents; every refusal names the position and the path."""

    def __init__(self, text: str, file: str) -> None:
        self.file = file
        self.parser = _Loader(text)
        self.next: Callable[[], Any] = self.parser.get_event
        self.path: Path = ()
        self.positions: dict[Path, tuple[int, int]] = {}
        self.key_positions: dict[Path, tuple[int, int]] = {}

    def fail(self, message: str, mark: Any, path: Path, hint: str | None = None) -> LlmcError:
        line = mark.line + 1 if mark is not None else None
        col = mark.column + 1 if mark is not None else None
        return LlmcError(message, Location(self.file, line, col, format_path(path)), hint=hint)

    def documents(self) -> Iterator[tuple[int, Any, dict, dict, Any]]:
        """Yield (index, data, positions, key_positions, start mark) for each document."""
        get = self.next
        get()  # StreamStart
        index = 0
        try:
            while True:
                event = get()
                if isinstance(event, StreamEndEvent):
                    return
                # DocumentStart
                self.positions, self.key_positions = {}, {}
                node = get()
                value = self.node(node, (), 1)
                get()  # DocumentEnd
                yield index, value, self.positions, self.key_positions, node.start_mark
                index += 1
        finally:
            self.parser.dispose()

    def node(self, event: Any, path: Path, depth: int) -> Any:
        self.path = path
        mark = event.start_mark
        self.positions[path] = (mark.line + 1, mark.column + 1)
        cls = type(event)
        if cls is ScalarEvent:
            return self.scalar(event, path)
        if cls is AliasEvent:
            raise self.anchors(mark, path)
        if event.anchor is not None:
            raise self.anchors(mark, path)
        if depth > MAX_DEPTH:
            raise self.fail(f"input is nested deeper than {MAX_DEPTH} levels", mark, path)
        if cls is MappingStartEvent:
            if event.tag not in _MAP_TAGS:
                raise self.fail(f"unsupported YAML tag {event.tag} on a mapping", mark, path)
            return self.mapping(path, depth)
        if event.tag not in _SEQ_TAGS:
            raise self.fail(f"unsupported YAML tag {event.tag} on a sequence", mark, path)
        return self.sequence(path, depth)

    def anchors(self, mark: Any, path: Path) -> LlmcError:
        return self.fail(
            "YAML anchors and aliases are not supported",
            mark,
            path,
            hint="write the repeated value out in full",
        )

    def scalar(self, event: Any, path: Path, json_numbers: bool = True) -> Any:
        text = event.value
        if event.anchor is None and event.tag is None and len(text) * 4 <= MAX_STRING_BYTES:  # the common case
            if not event.implicit[0]:
                return text
            if text and text[0] not in _MAYBE_NOT_STR:
                return text
        if event.anchor is not None:
            raise self.anchors(event.start_mark, path)
        if len(text) * 4 > MAX_STRING_BYTES and len(text.encode("utf-8", "surrogatepass")) > MAX_STRING_BYTES:
            raise self.fail(
                f"a string of {len(text.encode('utf-8', 'surrogatepass'))} bytes is over the limit of "
                f"{MAX_STRING_BYTES // (1024 * 1024)} MiB",
                event.start_mark,
                path,
            )
        tag = event.tag
        if tag is None:
            if not event.implicit[0]:  # quoted or block scalar
                return text
            try:
                return resolve_plain(text, json_numbers)
            except _Unrepresentable:
                raise self.fail(f"{text} cannot be represented in JSON", event.start_mark, path) from None
        if tag == _STR_TAG or tag == "!":
            return text
        expected = _SCALAR_TAGS.get(tag)
        if expected is None:
            raise self.fail(f"unsupported YAML tag {tag}", event.start_mark, path)
        try:
            value = resolve_plain(text, json_numbers)
        except _Unrepresentable:
            raise self.fail(f"{text} cannot be represented in JSON", event.start_mark, path) from None
        if expected is float and type(value) is int:
            return value
        if type(value) is not expected:
            raise self.fail(f"cannot decode {text!r} as {tag.rsplit(':', 1)[-1]}", event.start_mark, path)
        return value

    def mapping(self, path: Path, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        get = self.next
        positions = self.key_positions
        while True:
            self.path = path  # a scanner error in the next key belongs to this mapping, not to the previous value
            event = get()
            cls = type(event)
            if cls is not ScalarEvent:
                if cls is MappingEndEvent:
                    return result
                if cls is AliasEvent or event.anchor is not None:
                    raise self.anchors(event.start_mark, path)
                raise self.fail("a mapping key must be a string, not a mapping or sequence", event.start_mark, path)
            key = self.key(event, path)
            child = path + (key,)
            mark = event.start_mark
            if key in result:
                first = positions[child]
                raise self.fail(
                    f"duplicate key {json.dumps(key, ensure_ascii=False)} (first at line {first[0]}, column {first[1]})",
                    mark,
                    child,
                )
            positions[child] = (mark.line + 1, mark.column + 1)
            self.path = child  # a scanner error in the value (a bad escape, a tab) names this key
            result[key] = self.node(get(), child, depth + 1)

    def key(self, event: Any, path: Path) -> str:
        text = event.value
        if event.anchor is None and event.tag is None and len(text) * 4 <= MAX_STRING_BYTES:  # the common case
            if not event.implicit[0] or (text and text[0] not in _MAYBE_NOT_STR and text != "<<"):
                return intern(text)  # keys repeat in every document: one string each saves memory
        if event.anchor is not None:
            raise self.anchors(event.start_mark, path)
        text = event.value
        if event.tag is None and event.implicit[0] and text == "<<":
            raise self.fail(
                "YAML merge keys (<<) are not supported", event.start_mark, path, hint="write the merged keys out in full"
            )
        value = self.scalar(event, path + (text,), json_numbers=False)
        try:
            return _key_string(value)
        except ValueError as exc:
            raise self.fail(
                f"unsupported mapping key {json.dumps(text, ensure_ascii=False)}: {exc} keys cannot be JSON keys",
                event.start_mark,
                path,
            ) from None

    def sequence(self, path: Path, depth: int) -> list[Any]:
        result: list[Any] = []
        get = self.next
        index = 0
        while True:
            self.path = path + (index,)
            event = get()
            if type(event) is SequenceEndEvent:
                return result
            result.append(self.node(event, path + (index,), depth + 1))
            index += 1


def _check_size(text: str, file: str) -> None:
    if len(text) * 4 <= MAX_FILE_BYTES:
        return
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_FILE_BYTES:
        raise LlmcError(
            f"input is {size} bytes, over the limit of {MAX_FILE_BYTES // (1024 * 1024)} MiB",
            Location(file),
            hint="split the input into several files",
        )


def _syntax_error(exc: yaml.MarkedYAMLError, file: str, path: Path, text: str = "") -> LlmcError:
    mark = exc.problem_mark or exc.context_mark
    message = exc.problem or "invalid YAML"
    if exc.context:
        message = f"{exc.context}: {message}"
    line = mark.line + 1 if mark is not None else None
    col = mark.column + 1 if mark is not None else None
    return LlmcError(f"YAML syntax error: {message}", Location(file, line, col, format_path(path)),
                     hint=_syntax_hint(message, text, line, col))


def _syntax_hint(message: str, text: str, line: int | None, col: int | None) -> str | None:
    """What usually causes libyaml's terser refusals: a tab, or a key indented unlike its siblings."""
    if line is None or col is None:
        return None
    row = text.split("\n", line)[line - 1] if text.count("\n") >= line - 1 else ""
    if "\t" in row[: col + 1] and "cannot start any token" in message:
        return "YAML does not allow tabs for indentation: indent with spaces"
    if "did not find expected key" in message or "mapping values are not allowed here" in message:
        return "check the indentation of this line: a key must line up with the other keys of its mapping"
    return None


_SURROGATE_PAIR = re.compile(r"(?<!\\)((?:\\\\)*)\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})", re.IGNORECASE)


# Characters JSON strings may hold raw but YAML refuses, or reads as line breaks.
_JSON_UNREADABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff]")


def _json_as_yaml(text: str) -> str:
    """Adjust JSON text where YAML's reading of it differs from a JSON decoder's.

    Tabs between tokens become spaces. Control characters and the characters
    YAML reads as line breaks (NEL, LS, PS) become `\\u` escapes, which moves
    later columns on that line. A surrogate pair escape (`\\ud83d\\ude00`)
    becomes the equivalent `\\U0001f600`, which moves later columns on that
    line two to the left.
    """

    def pair(match: re.Match[str]) -> str:
        high, low = int(match.group(2), 16), int(match.group(3), 16)
        code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        return f"{match.group(1)}\\U{code:08x}"

    text = _JSON_UNREADABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text.replace("\t", " "))
    return _SURROGATE_PAIR.sub(pair, text) if "\\u" in text else text


def _reader_error(exc: yaml.reader.ReaderError, text: str, file: str, path: Path) -> LlmcError:
    """A character YAML does not allow; libyaml gives its position as a UTF-8 byte offset."""
    before = text.encode("utf-8", "surrogatepass")[: exc.position].decode("utf-8", "ignore")
    line, col = before.count("\n") + 1, len(before) - before.rfind("\n")
    what = f"character U+{exc.character:04X}" if isinstance(exc.character, int) else "a character"
    return LlmcError(f"YAML syntax error: {what} is not allowed in YAML", Location(file, line, col, format_path(path)))


def load_text(text: str, file: str = "<input>", *, keep_positions: bool = True) -> list[Document]:
    """Every object in a YAML or JSON stream; `List` objects are replaced by their items.

    Raises `LlmcError` for bad input: syntax errors, anchors/aliases/merge keys,
    unknown tags, duplicate keys, input over the limits, documents that are not
    mappings or lack `apiVersion`/`kind`. With `keep_positions=False` the
    documents hold `text` instead of their position tables and read them again
    when first asked for a location.
    """
    docs = _load_text(text, file, quick=not keep_positions)
    if not keep_positions:
        for doc in docs:
            doc.positions, doc.key_positions, doc.source = _UNREAD, _UNREAD, text
    return docs


@lru_cache(maxsize=2)
def _read_again(text: str, file: str) -> dict[tuple[int, int | None], Document]:
    """Every document of `text` with its position tables, by (index, item): errors often come in groups."""
    return {(d.index, d.item): d for d in _load_text(text, file)}


def _load_text(text: str, file: str, quick: bool = False) -> list[Document]:
    """The documents of `text`; `quick` lets ordinary YAML be read without positions (`_quick_yaml`)."""
    _check_size(text, file)
    text = text.removeprefix("\ufeff")
    if text.lstrip()[:1] not in ("{", "["):
        docs = _quick_yaml(text, file) if quick else None
        return _load_yaml(text, file) if docs is None else docs
    # JSON, as kubectl reads it: the JSON decoder decides what is accepted; the
    # YAML parser, which reads the same text, supplies the positions.
    try:
        docs = _load_json(text, file)
    except LlmcError as err:
        if err.location is not None and err.location.line is not None:
            if not err.location.path:  # the YAML parser's refusal on the same line knows the field
                try:
                    _load_yaml(_json_as_yaml(text), file)
                except LlmcError as located:
                    if located.location is not None and located.location.line == err.location.line:
                        err.location.path = located.location.path
            raise
        try:  # the same refusal from the YAML parser has a position
            _load_yaml(_json_as_yaml(text), file)
        except LlmcError as located:
            if not located.message.startswith("YAML syntax error"):
                raise located from None
        raise
    try:
        return _load_yaml(_json_as_yaml(text), file)
    except LlmcError:  # JSON that YAML cannot read, e.g. a key over YAML's 1024-character limit
        return docs


class _Unusual(Exception):
    """What `_quick_yaml` leaves to the full builder: anything to refuse, or rare enough not to handle twice."""


def _quick_yaml(text: str, file: str) -> list[Document] | None:
    """The documents of ordinary YAML without position tables, or None: then `_load_yaml` reads it.

    Most input is plain block YAML with no tags, anchors, odd keys or errors. For it, this
    builds the same data as `_Builder` without keeping a path or a position per node,
    about half of the builder's time; anything else (a tag, an anchor, a key that is not
    a plain string, a duplicate key, a value JSON cannot carry, the limits, a syntax error,
    a document that is not an object) gives None, and the full builder reads the text
    again and decides, with its positions. tests/test_quick_load.py compares the two.
    """
    parser = _Loader(text)
    get = parser.get_event

    def node(event: Any, depth: int) -> Any:
        cls = type(event)
        if cls is ScalarEvent:
            value = event.value
            if event.anchor is not None or event.tag is not None or len(value) * 4 > MAX_STRING_BYTES:
                raise _Unusual
            if not event.implicit[0] or (value and value[0] not in _MAYBE_NOT_STR):
                return value
            return resolve_plain(value)
        if cls is AliasEvent or event.anchor is not None or event.tag is not None or depth > MAX_DEPTH:
            raise _Unusual
        if cls is MappingStartEvent:
            result: dict[str, Any] = {}
            while True:
                event = get()
                if type(event) is not ScalarEvent:
                    if type(event) is MappingEndEvent:
                        return result
                    raise _Unusual
                key = event.value
                if (event.anchor is not None or event.tag is not None or len(key) * 4 > MAX_STRING_BYTES
                        or key in result or key == "<<" or (event.implicit[0] and (
                            not key or key[0] in _MAYBE_NOT_STR and type(resolve_plain(key, False)) is not str))):
                    raise _Unusual
                result[intern(key)] = node(get(), depth + 1)
        items: list[Any] = []
        while True:
            event = get()
            if type(event) is SequenceEndEvent:
                return items
            items.append(node(event, depth + 1))

    docs: list[Document] = []
    try:
        get()  # StreamStart
        index = 0
        while type(get()) is not StreamEndEvent:  # DocumentStart
            if index >= MAX_DOCUMENTS:
                return None
            value = node(get(), 1)
            get()  # DocumentEnd
            if value is not None:
                if type(value) is not dict:
                    return None
                docs.extend(_expand(Document(value, file, index)))
            index += 1
    except (_Unusual, _Unrepresentable, LlmcError, yaml.YAMLError):
        return None
    finally:
        parser.dispose()
        # `node` refers to itself through its closure: break that cycle, or the parser and the
        # text live until a cyclic collection (start-up runs without one; a batch holds them all).
        node = None  # noqa: F841
    return docs


def _load_yaml(text: str, file: str) -> list[Document]:
    builder = _Builder(text, file)
    docs: list[Document] = []
    try:
        for index, value, positions, key_positions, mark in builder.documents():
            if index >= MAX_DOCUMENTS:
                raise builder.fail(f"more than {MAX_DOCUMENTS} documents in one file", mark, ())
            if value is None:
                continue
            doc = Document(value, file, index, positions, key_positions)  # type: ignore[arg-type]
            if not isinstance(value, dict):
                kind = "a list" if isinstance(value, list) else "a scalar"
                raise builder.fail(f"a document must be a mapping (an object), found {kind}", mark, ())
            docs.extend(_expand(doc))
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, file, builder.path, text) from None
    except yaml.reader.ReaderError as exc:
        raise _reader_error(exc, text, file, builder.path) from None
    except yaml.YAMLError as exc:  # pragma: no cover - every libyaml error above carries a position
        raise LlmcError(f"YAML error: {exc}", Location(file)) from None
    return docs


def _load_json(text: str, file: str) -> list[Document]:
    """One JSON document read by a JSON decoder: the same checks, positions only for the document itself."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                raise LlmcError(f"duplicate key {json.dumps(key, ensure_ascii=False)}", Location(file))
            out[key] = value
        return out

    def constant(name: str) -> Any:
        raise LlmcError(f"{name} cannot be represented in JSON", Location(file))

    def number(literal: str) -> float:
        value = float(literal)
        if math.isinf(value):  # kubectl decodes JSON numbers into float64: strconv.ParseFloat overflows
            raise LlmcError(f"json: cannot unmarshal number {literal} into Go value of type float64",
                            _number_location(text, literal, file))
        return value

    try:
        value = json.loads(text, object_pairs_hook=pairs, parse_constant=constant, parse_float=number)
    except json.JSONDecodeError as exc:
        raise LlmcError(f"JSON syntax error: {exc.msg}", Location(file, exc.lineno, exc.colno)) from None
    except RecursionError:
        raise LlmcError(f"input is nested deeper than {MAX_DEPTH} levels", Location(file)) from None
    if "\\u" in text and (lone := _lone_surrogate(text)) is not None:
        raise LlmcError(
            f"{lone.group(2)} is a lone UTF-16 surrogate, not a character",
            Location(file, text.count("\n", 0, lone.start(2)) + 1, lone.start(2) - text.rfind("\n", 0, lone.start(2)),
                     format_path(_surrogate_path(value) or ())),
            hint="a character outside the Basic Multilingual Plane is written as a pair (\\ud83d\\ude00) or as itself",
        )
    value = _checked_json(value, (), 1, file)
    start = len(text) - len(text.lstrip())
    where = (text.count("\n", 0, start) + 1, start - text.rfind("\n", 0, start))
    if not isinstance(value, dict):
        raise LlmcError("a document must be a mapping (an object), found a list", Location(file, *where))
    return _expand(Document(value, file, 0, {(): where}))


# A surrogate escape, whole pairs first: a match of group 3 alone is a lone surrogate (Go writes U+FFFD for it).
_SURROGATE_ESCAPE = re.compile(
    r"(?<!\\)((?:\\\\)*)(?:\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|(\\u[dD][89a-fA-F][0-9a-fA-F]{2}))"
)


def _lone_surrogate(text: str) -> re.Match[str] | None:
    return next((m for m in _SURROGATE_ESCAPE.finditer(text) if m.group(2)), None)


def _surrogate_path(value: Any, path: Path = ()) -> Path | None:
    """The path of the first key or string of decoded JSON that holds a surrogate."""
    if isinstance(value, str):
        return path if re.search("[\ud800-\udfff]", value) else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if isinstance(key, str) and re.search("[\ud800-\udfff]", key):
            return path + (key,)
        found = _surrogate_path(item, path + (key,))
        if found is not None:
            return found
    return None


def _number_location(text: str, literal: str, file: str) -> Location:
    """Where the number `literal` first stands as a JSON token in `text` (line and column, 1-based)."""
    m = re.search(r"(?<![\w.+-])" + re.escape(literal) + r"(?![\w.+-])", text)
    if m is None:  # pragma: no cover - the decoder read the literal from this text
        return Location(file)
    start = m.start()
    return Location(file, text.count("\n", 0, start) + 1, start - text.rfind("\n", 0, start))


def _checked_json(value: Any, path: Path, depth: int, file: str) -> Any:
    """Apply the YAML route's limits and number rule to decoded JSON."""
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, str):
        if len(value) * 4 > MAX_STRING_BYTES and len(value.encode("utf-8", "surrogatepass")) > MAX_STRING_BYTES:
            raise LlmcError(f"a string is over the limit of {MAX_STRING_BYTES // (1024 * 1024)} MiB",
                            Location(file, path=format_path(path)))
        return value
    if not isinstance(value, (dict, list)):
        return value
    if depth > MAX_DEPTH:
        raise LlmcError(f"input is nested deeper than {MAX_DEPTH} levels", Location(file, path=format_path(path)))
    if isinstance(value, dict):
        return {k: _checked_json(v, path + (k,), depth + 1, file) for k, v in value.items()}
    return [_checked_json(v, path + (i,), depth + 1, file) for i, v in enumerate(value)]


def _expand(doc: Document) -> list[Document]:
    """A List (or `*List` with items) becomes its items; every object needs apiVersion and kind."""
    obj = doc.obj
    kind = obj.get("kind")
    items = obj.get("items")
    if not (isinstance(kind, str) and kind.endswith("List") and isinstance(items, list)):
        _require_type_meta(doc)
        return [doc]
    out = []
    positions_by_item, keys_by_item = _by_item(doc.positions), _by_item(doc.key_positions)
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise LlmcError("a List item must be a mapping (an object)", doc.locate(("items", i)))
        positions, key_positions = positions_by_item.get(i, {}), keys_by_item.get(i, {})
        if kind != "List" and "kind" not in item and isinstance(obj.get("apiVersion"), str):
            # typed lists (FooList) may leave apiVersion/kind out of their items
            item = {"apiVersion": obj["apiVersion"], "kind": kind.removesuffix("List"), **item}
        child = Document(item, doc.file, doc.index, positions, key_positions, item=i)
        _require_type_meta(child)
        out.append(child)
    return out


def _by_item(table: dict[Path, tuple[int, int]]) -> dict[int, dict[Path, tuple[int, int]]]:
    """A List's position table split by item, paths relative to the item, in one pass (not one per item)."""
    out: dict[int, dict[Path, tuple[int, int]]] = {}
    for path, pos in table.items():
        if len(path) >= 2 and path[0] == "items" and isinstance(path[1], int):
            out.setdefault(path[1], {})[path[2:]] = pos
    return out


def _require_type_meta(doc: Document) -> None:
    for key in ("apiVersion", "kind"):
        value = doc.obj.get(key)
        if value is None or value == "":
            raise LlmcError(f"{key} not set", doc.locate(()), hint="every object needs apiVersion and kind")
        if not isinstance(value, str):
            raise LlmcError(f"{key} must be a string, found {json.dumps(value)}", doc.locate((key,)))
