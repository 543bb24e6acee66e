"""Emit fast paths: the one-pass YAML nodes and the piecewise JSON List give the documented text and errors."""

from __future__ import annotations

import io
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from llmc.output import emit

KEYS = st.sampled_from(["apiVersion", "kind", "metadata", "spec", "data", "stringData", "type", "name", "namespace",
                        "labels", "annotations", "selector", "resources", "limits", "requests", "claims", "binaryData",
                        "b", "a", "z", "", "on", "1"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
                    st.text(max_size=8), st.sampled_from(["yes", "1e3", "a: b", "x\ny", " lead", "\u2028"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(KEYS, inner, max_size=4),
    st.dictionaries(st.one_of(KEYS, st.integers()), inner, max_size=2),
    st.tuples(inner),
), max_leaves=12)
OBJECTS = st.dictionaries(KEYS, VALUES, max_size=6).map(lambda d: {"kind": "ConfigMap", **d} if "kind" in d else d)


def _outcome(make) -> tuple[str, str]:
    try:
        return "ok", make()
    except (TypeError, ValueError) as exc:
        return type(exc).__name__, str(exc)


def _two_pass(objs: list[dict]) -> str:
    """to_yaml as documented: order_keys, then nodes."""
    stream = io.StringIO()
    dumper = emit._Dumper(stream, indent=2, width=emit._WIDTH, allow_unicode=True, explicit_start=True)
    try:
        dumper.open()
        for obj in objs:
            dumper.serialize(emit._node(emit.order_keys(obj)))
        dumper.close()
    finally:
        dumper.dispose()
    text = stream.getvalue()
    return text[:-4] if text.endswith("\n...\n") else text


@settings(max_examples=500, deadline=None)
@given(st.lists(OBJECTS, max_size=3))
def test_one_pass_nodes_match_order_keys(objs: list[dict]) -> None:
    assert _outcome(lambda: emit.to_yaml(objs)) == _outcome(lambda: _two_pass(objs))


def _piecewise(objs: list[dict]) -> str:
    items = emit.json_items(objs)
    return (emit.JSON_HEAD + "".join((emit.JSON_NEXT if i else emit.JSON_FIRST) + item for i, item in enumerate(items))
            + emit.json_tail(len(items)))


@settings(max_examples=300, deadline=None)
@given(st.lists(OBJECTS, max_size=4))
def test_piecewise_json_list_is_to_json(objs: list[dict]) -> None:
    def finite(value) -> bool:
        if isinstance(value, float):
            return math.isfinite(value)
        if isinstance(value, dict):
            return all(finite(v) for v in value.values())
        if isinstance(value, (list, tuple)):
            return all(finite(v) for v in value)
        return True

    assert _outcome(lambda: _piecewise(objs)) == _outcome(lambda: emit.to_json(objs)) or not finite(objs)
