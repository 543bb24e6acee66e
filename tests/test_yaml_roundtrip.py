"""llmc's YAML is read back as the same values by a YAML 1.1 reader (what kubectl's go-yaml v2 is) and by llmc.

Strings that a YAML 1.1 resolver would turn into something else (booleans,
octals, sexagesimals, floats, nulls, timestamps, merge keys) or that the syntax
gives a meaning (`*`, `&`, `!`, `: `, ` #`, document markers, line breaks,
trailing spaces, tabs, non-BMP characters) are put into a real rendered
Deployment (labels, annotation values and keys, env values, args) and the
emitted stream is loaded again with PyYAML's YAML 1.1 `safe_load_all` and with
`llmc.load.documents.load_text`.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from llmc.cli.app import app
from llmc.output.emit import to_json, to_yaml
from llmc.load.documents import load_text

ROOT = Path(__file__).resolve().parent.parent

# Plain scalars with a YAML 1.1 (or 1.2, or go-yaml) meaning other than "this string".
RESOLVED = [
    "y", "Y", "n", "N", "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
    "true", "True", "TRUE", "false", "False", "FALSE", "~", "null", "Null", "NULL", "",
    "0", "-0", "+1", "0777", "0o17", "0O17", "0x1F", "0X1f", "0b101", "0B11", "1_000", "0x_1", "+_", "08", "09.5",
    "1e3", "1E3", "1.0e+3", "-1.5e-3", ".5", "5.", "1.2.3", "+.inf", "-.Inf", ".inf", ".NaN", ".nan", ".NAN",
    "1:30", "190:20:30", "-1:30.5", "1__2", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43.10 -5", "2001-1-1", "2002-12-14T00:00:00Z", "<<", "=",
]
# Strings whose characters carry meaning in YAML syntax.
SYNTAX = [
    "*alias", "&anchor", "!tag", "!!str", "!!python/object/apply:os.system ['id']", "a: b", "a:b", "key:", "a #b",
    "#comment", "- item", "-", "--", "---", "...", "--- x", "? key", "?", "[a, b]", "{a: b}", "|", ">", "|-", ">+",
    "%YAML 1.1", "%TAG", "@at", "`tick", "'single'", '"double"', "it's", ",comma", "a,b", "{{ .Name }}",
    "{{- if .X }}y{{ end -}}", "\\", "\\n", "%", " leading", "trailing ", "  ", "\t", "a\tb", "tab\t",
    "line1\nline2", "line1\nline2\n", "ends with two\n\n", "\nleading newline", " indented\nblock",
    "trailing space \nnext", "x\n \n", "crlf\r\nline", "cr\ronly", "nel\x85x", "ls\u2028x", "ps\u2029x",
    "\ufeffbom", "zero\x00byte", "bell\x07", "del\x7f", "c1\x9f", "ünïcödé", "日本語", "emoji 😀", "𝔘nicode",
    "right-to-left \u202e", "nbsp\u00a0", "zwj\u200d", "\ufffd", "\uffff-nonchar",
]


def _json_string(text: str) -> bool:
    """What a Kubernetes object can hold: any string JSON can encode (no lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


interesting = st.sampled_from(RESOLVED + SYNTAX)
pieces = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
values = st.one_of(
    interesting,
    st.tuples(pieces, interesting, pieces).map("".join),
    st.tuples(interesting, interesting).map(" ".join),
    st.tuples(interesting, interesting).map("\n".join),
    pieces,
).filter(_json_string)


def _rendered_deployment() -> dict:
    result = CliRunner().invoke(app, ["render", "-f", str(ROOT / "docs" / "examples" / "llama-single-gpu.yaml")])
    assert result.exit_code == 0, result.stderr
    return next(o for o in yaml.safe_load_all(result.stdout) if o["kind"] == "Deployment")


DEPLOYMENT = _rendered_deployment()


def _with_values(vals: list[str]) -> dict:
    obj = copy.deepcopy(DEPLOYMENT)
    meta = obj["metadata"]
    container = obj["spec"]["template"]["spec"]["containers"][0]
    for i, value in enumerate(vals):
        meta.setdefault("labels", {})[f"test.llmc.dev/v{i}"] = value
        meta.setdefault("annotations", {})[f"test.llmc.dev/a{i}"] = value
        meta["annotations"][value] = f"key {i}"
        container.setdefault("env", []).append({"name": f"V{i}", "value": value})
        container.setdefault("args", []).append(value)
    return obj


def _json_normal(value):
    """Data as it is after a trip through JSON: what the API server stores (1.0 and 1 are one number)."""
    return json.loads(json.dumps(value))


SETTINGS = settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.lists(values, min_size=1, max_size=4))
def test_yaml_11_reader_gets_the_same_strings(vals: list[str]) -> None:
    obj = _with_values(vals)
    text = to_yaml([obj])
    events = list(yaml.parse(text, Loader=yaml.CSafeLoader))
    assert not [e for e in events if getattr(e, "anchor", None) or getattr(e, "tag", None)]  # no anchors, aliases, tags
    (back,) = list(yaml.safe_load_all(text))
    assert back == obj
    container = back["spec"]["template"]["spec"]["containers"][0]
    assert container["args"][-len(vals):] == vals
    assert all(type(v) is str for v in container["args"])


@SETTINGS
@given(st.lists(values, min_size=1, max_size=4))
def test_llmc_loader_gets_the_same_values(vals: list[str]) -> None:
    obj = _with_values(vals)
    docs = load_text(to_yaml([obj, obj]))
    assert [d.obj for d in docs] == [_json_normal(obj)] * 2


@SETTINGS
@given(st.lists(values, min_size=1, max_size=4))
def test_json_output_carries_the_same_values(vals: list[str]) -> None:
    obj = _with_values(vals)
    text = to_json([obj])
    assert json.loads(text)["items"] == [obj]
    assert [d.obj for d in load_text(text)] == [_json_normal(obj)]


def test_every_listed_value_round_trips_as_a_string() -> None:
    """Each literal alone, as a plain value and as a key: no sampling, so none is ever skipped."""
    for value in RESOLVED + SYNTAX:
        obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "namespace": "d"},
               "data": {"v": value, value: "k"}}
        text = to_yaml([obj])
        assert list(yaml.safe_load_all(text)) == [obj], (value, text)
        assert [d.obj for d in load_text(text)] == [obj], (value, text)


def test_multiline_trailing_space_is_escaped_not_a_block() -> None:
    """Trailing whitespace inside a literal block is invisible and editors strip it: such strings are quoted."""
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "namespace": "d"},
           "data": {"a": "one \ntwo", "b": "one\ntwo\n"}}
    text = to_yaml([obj])
    assert '  a: "one \\ntwo"\n' in text
    assert "  b: |\n    one\n    two\n" in text
