"""llmc.load.documents: YAML/JSON reading with positions, Kubernetes scalar rules, refusals of bad input."""

from __future__ import annotations

import json
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmc.load import documents as load
from llmc.core.errors import LlmcError
from llmc.load.documents import KNOWN_INPUT_KINDS, Document, check_kind, format_path, load_text

BAD = Path(__file__).parent / "data" / "bad"

HEAD = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n"


def data_of(body: str) -> dict:
    return load_text(HEAD + body, "t.yaml")[0].obj["data"]


def position_of(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of the first occurrence of `needle`, found by plain string search."""
    offset = text.index(needle)
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


# --------------------------------------------------------------------------- paths


@pytest.mark.parametrize(
    "path, text",
    [
        (("spec", "template", "containers", 0, "name"), "spec.template.containers[0].name"),
        (("metadata", "annotations", "serving.kserve.io/x"), 'metadata.annotations["serving.kserve.io/x"]'),
        (("metadata", "labels", "app"), "metadata.labels.app"),
        (("spec", "data", "with space"), 'spec.data["with space"]'),
        (("items", 2), "items[2]"),
        ((), ""),
        (("a.b",), '["a.b"]'),
    ],
)
def test_format_path(path, text):
    assert format_path(path) == text


# --------------------------------------------------------------------------- scalars (go-yaml v2, as kubectl reads YAML)


@pytest.mark.parametrize(
    "written, value",
    [
        ("yes", True),
        ("Yes", True),
        ("on", True),
        ("ON", True),
        ("y", True),
        ("n", False),
        ("off", False),
        ("No", False),
        ("true", True),
        ('"yes"', "yes"),
        ("'on'", "on"),
        ("~", None),
        ("null", None),
        ("", None),
        ("0777", 511),  # leading 0: octal (Go ParseInt base 0)
        ("0o17", 15),
        ("0x1F", 31),
        ("0b101", 5),
        ("-0b11", -3),
        ("08", 8),  # not octal: read as the float 8, which JSON carries as 8
        ("1_000", 1000),
        ("1e3", 1000),
        ("1.0", 1),
        ("1.5", 1.5),
        (".5", 0.5),
        ("-12", -12),
        ("+7", 7),
        ("2024-01-02", "2024-01-02"),  # timestamps stay strings
        ("1:20", "1:20"),
        ("1e400", "1e400"),  # Go's ParseFloat overflows: the text is a string
        ("9223372036854775807", 9223372036854775807),
        ("abc", "abc"),
        ("!!str 12", "12"),
        ("!!int 12", 12),
        ("'0777'", "0777"),
        ("|\n    block text", "block text\n"),
    ],
)
def test_scalar_resolution_follows_go_yaml_v2(written, value):
    got = data_of(f"  v: {written}\n")["v"]
    assert got == value and type(got) is type(value)


def test_keys_are_resolved_then_written_as_strings():
    data = data_of("  on: a\n  1: b\n  0x10: c\n  1.5: d\n  1e6: e\n  'on': f\n")
    assert data == {"true": "a", "1": "b", "16": "c", "1.5": "d", "1e+06": "e", "on": "f"}


def test_infinity_and_nan_are_refused():
    for text in (".inf", "-.Inf", ".NaN"):
        with pytest.raises(LlmcError, match="cannot be represented in JSON"):
            data_of(f"  v: {text}\n")


# --------------------------------------------------------------------------- positions


SERVICE = """\
apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceService
metadata:
  name: demo
  namespace: team-a
  annotations:
    serving.kserve.io/exp-dra-device-class: gpu.example.com
spec:
  model:
    uri: hf://facebook/opt-125m
  template:
    containers:
    - name: main
      args: ["--max-model-len", "4096"]
"""


def test_positions_of_values_match_the_text():
    doc = load_text(SERVICE, "svc.yaml")[0]
    cases = {
        ("metadata", "name"): "demo",
        ("metadata", "namespace"): "team-a",
        ("metadata", "annotations", "serving.kserve.io/exp-dra-device-class"): "gpu.example.com",
        ("spec", "model", "uri"): "hf://facebook",
        ("spec", "template", "containers", 0, "name"): "main\n",
        ("spec", "template", "containers", 0, "args", 1): '"4096"',
    }
    for path, needle in cases.items():
        assert doc.positions[path] == position_of(SERVICE, needle), path
    assert doc.key_positions[("spec", "model", "uri")] == position_of(SERVICE, "uri:")


def test_locate_uses_nearest_ancestor_and_keeps_the_asked_path():
    doc = load_text(SERVICE, "svc.yaml")[0]
    loc = doc.locate(("spec", "model", "name"))
    assert (loc.file, loc.line, loc.col) == ("svc.yaml", *position_of(SERVICE, "uri: hf"))
    assert loc.path == "spec.model.name"
    assert str(loc) == f"svc.yaml:{loc.line}:{loc.col}"


def test_document_properties():
    doc = load_text(SERVICE, "svc.yaml")[0]
    assert (doc.api_version, doc.kind, doc.name, doc.namespace) == (
        "serving.kserve.io/v1alpha2",
        "LLMInferenceService",
        "demo",
        "team-a",
    )
    assert Document({"apiVersion": "v1", "kind": "ConfigMap"}).namespace is None


# --------------------------------------------------------------------------- streams, lists, JSON


def test_multi_document_stream_skips_empty_documents_and_keeps_indices():
    text = "---\n" + HEAD + "  a: '1'\n---\n---\n# only a comment\n---\n" + HEAD + "  b: '2'\n"
    docs = load_text(text, "multi.yaml")
    assert [d.index for d in docs] == [0, 3]
    assert [d.obj["data"] for d in docs] == [{"a": "1"}, {"b": "2"}]
    assert docs[1].positions[("data", "b")] == position_of(text, "'2'")


def test_list_is_expanded_with_positions_kept():
    text = """\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: first
- apiVersion: serving.kserve.io/v1alpha2
  kind: LLMInferenceServiceConfig
  metadata:
    name: second
"""
    docs = load_text(text, "list.yaml")
    assert [(d.kind, d.name, d.item) for d in docs] == [
        ("ConfigMap", "first", 0),
        ("LLMInferenceServiceConfig", "second", 1),
    ]
    assert docs[1].positions[("metadata", "name")] == position_of(text, "second")


def test_typed_list_items_get_kind_from_the_list():
    text = "apiVersion: v1\nkind: ConfigMapList\nitems:\n- metadata:\n    name: a\n"
    (doc,) = load_text(text, "l.yaml")
    assert (doc.api_version, doc.kind, doc.name) == ("v1", "ConfigMap", "a")


def test_json_input_is_accepted_with_positions():
    text = '{\n\t"apiVersion": "v1",\n\t"kind": "ConfigMap",\n\t"metadata": {"name": "j"},\n\t"data": {"k": "v"}\n}\n'
    (doc,) = load_text(text, "cm.json")
    assert doc.obj == json.loads(text)
    assert doc.positions[("data", "k")] == position_of(text, '"v"')


def test_json_is_read_as_json():
    # YAML would accept the trailing comma; kubectl reads JSON with a JSON decoder, which does not
    with pytest.raises(LlmcError, match="JSON syntax error: Expecting property name enclosed in double quotes") as info:
        load_text('{"apiVersion": "v1",\n "kind": "ConfigMap",}', "bad.json")
    assert (info.value.location.line, info.value.location.col) == (2, 22)


def test_json_key_longer_than_yaml_allows_is_read_without_inner_positions():
    key = "k" * 1100
    text = json.dumps({"apiVersion": "v1", "kind": "ConfigMap", "data": {key: "v"}})
    (doc,) = load_text(text, "long.json")
    assert doc.obj["data"] == {key: "v"}
    assert doc.locate(("data", key)).line == 1


def test_json_duplicate_key_is_located():
    text = '{"apiVersion": "v1", "kind": "ConfigMap", "data": {"x": "1", "x": "2"}}'
    with pytest.raises(LlmcError, match='duplicate key "x"') as info:
        load_text(text, "dup.json")
    assert (info.value.location.line, info.value.location.col) == position_of(text, '"x": "2"')


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=20,
)


def json_normalised(value):
    """What a value is after a trip through JSON into the API server: integral floats are ints."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return int(value)
    if isinstance(value, dict):
        return {k: json_normalised(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_normalised(v) for v in value]
    return value


@settings(max_examples=60, deadline=None)
@given(json_values, st.booleans())
def test_json_text_reads_back_as_python_json_reads_it(value, ascii_only):
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "data": value}
    text = json.dumps(obj, indent=1, ensure_ascii=ascii_only)
    assert load_text(text, "h.json")[0].obj == json_normalised(json.loads(text))


# --------------------------------------------------------------------------- refusals, located


@pytest.mark.parametrize(
    "name, message, line, col, path",
    [
        ("syntax-error.yaml", "YAML syntax error: while parsing a block mapping: did not find expected key", 8, 4, None),
        ("duplicate-key.yaml", 'duplicate key "uri" (first at line 7, column 5)', 8, 5, "spec.model.uri"),
        ("anchor.yaml", "YAML anchors and aliases are not supported", 6, 10, "spec.model"),
        ("alias.yaml", "YAML anchors and aliases are not supported", 7, 10, "spec.model.uri"),
        ("merge-key.yaml", "YAML merge keys (<<) are not supported", 7, 5, "spec.model"),
        ("custom-tag.yaml", "unsupported YAML tag !secret", 7, 10, "spec.model.uri"),
        ("not-a-mapping.yaml", "a document must be a mapping (an object), found a list", 1, 1, ""),
        ("missing-kind.yaml", "kind not set", 1, 1, ""),
        ("missing-apiversion.yaml", "apiVersion not set", 2, 1, ""),
        ("infinity.yaml", ".inf cannot be represented in JSON", 6, 11, "data.weight"),
        ("list-item-not-mapping.yaml", "a List item must be a mapping (an object)", 8, 3, "items[1]"),
        ("too-deep.yaml", "input is nested deeper than 100 levels", 6, 5 + 99, None),
        ("billion-laughs.yaml", "YAML anchors and aliases are not supported", 6, 6, "data.a"),
    ],
)
def test_bad_input_is_refused_with_file_line_column_and_path(name, message, line, col, path):
    file = str(BAD / name)
    with pytest.raises(LlmcError) as info:
        load_text((BAD / name).read_text(), file)
    err = info.value
    assert err.message == message
    assert (err.location.file, err.location.line, err.location.col) == (file, line, col)
    if path is not None:
        assert err.location.path == path
    assert str(err).startswith(f"{file}:{line}:{col}: ")


def test_billion_laughs_fails_fast_without_memory_growth():
    text = (BAD / "billion-laughs.yaml").read_text()
    tracemalloc.start()
    start = time.perf_counter()
    with pytest.raises(LlmcError):
        load_text(text, "lol.yaml")
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert elapsed < 0.1
    assert peak < 1_000_000


def test_file_over_the_size_limit_is_refused(monkeypatch):
    monkeypatch.setattr(load, "MAX_FILE_BYTES", 1024)
    with pytest.raises(LlmcError, match=r"input is \d+ bytes, over the limit") as info:
        load_text(HEAD + "  big: '" + "x" * 2000 + "'\n", "big.yaml")
    assert info.value.location.file == "big.yaml"


def test_string_over_the_size_limit_is_refused(monkeypatch):
    monkeypatch.setattr(load, "MAX_STRING_BYTES", 100)
    text = HEAD + "  ok: '" + "x" * 20 + "'\n  big: '" + "é" * 60 + "'\n"
    with pytest.raises(LlmcError, match="a string of 120 bytes is over the limit") as info:
        load_text(text, "s.yaml")
    assert info.value.location.path == "data.big"
    assert (info.value.location.line, info.value.location.col) == position_of(text, "'é")


def test_control_character_in_yaml_is_refused_at_its_position():
    text = HEAD + "  bé: \"x\x7fy\"\n"
    with pytest.raises(LlmcError, match="character U\\+007F is not allowed in YAML") as info:
        load_text(text, "c.yaml")
    line, col = position_of(text, "\x7f")
    assert (info.value.location.line, info.value.location.col) == (line, col)


def test_null_keys_are_refused():
    with pytest.raises(LlmcError, match="null keys cannot be JSON keys"):
        data_of("  ~: 1\n")


# --------------------------------------------------------------------------- kinds


def test_known_kinds_are_accepted():
    assert ("serving.kserve.io/v1alpha2", "LLMInferenceService") in KNOWN_INPUT_KINDS
    for api_version, kind in KNOWN_INPUT_KINDS:
        check_kind(Document({"apiVersion": api_version, "kind": kind}))


def test_other_kinds_are_refused_with_the_list_of_known_kinds():
    (doc,) = load_text((BAD / "unknown-kind.yaml").read_text(), "d.yaml")
    with pytest.raises(LlmcError, match="llmc does not read Deployment objects of apiVersion apps/v1") as info:
        check_kind(doc)
    assert "LLMInferenceServiceConfig (serving.kserve.io/v1alpha2)" in info.value.hint


def test_upstream_presets_load_as_configs(upstream):
    files = sorted((upstream / "kserve" / "presets" / "master").glob("*.yaml"))
    assert files
    for file in files:
        text = file.read_text()
        docs = load_text(text, str(file))
        assert docs, file
        for doc in docs:
            check_kind(doc)
            assert doc.kind == "LLMInferenceServiceConfig"
            line, col = doc.positions[("metadata", "name")]
            assert text.splitlines()[line - 1][col - 1 :].startswith(doc.name)
