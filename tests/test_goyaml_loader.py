"""llmc.go.yaml parses on libyaml's CParser: it must resolve every document like PyYAML's Python parser did."""

from __future__ import annotations

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from llmc.go import yaml as goyaml

SCALARS = st.one_of(
    st.sampled_from(["yes", "No", "on", "OFF", "y", "~", "null", "", "0x1F", "0o17", "017", "-0b101", "1_000",
                     "1e3", ".5", "-.inf", ".NaN", "+12", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "<<",
                     "1:30", "9223372036854775808", "-9223372036854775809", "3.0", "'quoted'", '"x"']),
    st.text(alphabet="abcXYZ019 .:-_+~#", max_size=12),
)


class _PythonGoLoader(yaml.SafeLoader):
    """The loader as it was before it moved onto CParser: the Python parser, the same resolution."""

    yaml_constructors = goyaml._GoLoader.yaml_constructors

    def resolve(self, kind, value, implicit):
        if kind is yaml.ScalarNode and implicit[0]:
            return goyaml._MERGE if value == "<<" else goyaml.go_yaml_resolve(value)[0]
        return super().resolve(kind, value, implicit)


def _python_parse(text: str):
    try:
        loader = _PythonGoLoader(text)
    except yaml.YAMLError:
        return None
    try:
        if not loader.check_node():
            return None
        return goyaml._jsonable(loader.construct_document(loader.get_node()))
    except (yaml.YAMLError, goyaml._Unparsable, RecursionError):
        return None
    finally:
        loader.dispose()


def _documents():
    leaves = SCALARS.map(lambda s: s)
    return st.recursive(
        leaves,
        lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(SCALARS, inner, max_size=3)),
        max_leaves=8,
    )


def _as_yaml(value, flow: bool) -> str:
    """A document with every scalar plain where YAML allows it, so the resolver decides its type."""
    if isinstance(value, dict):
        items = [f"{_plain(k)}: {_as_yaml(v, True)}" for k, v in value.items()]
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_as_yaml(v, True) for v in value) + "]"
    return _plain(value)


def _plain(text: str) -> str:
    return text if text and not any(c in text for c in "{}[],#:'\"") and text.strip() == text else repr(text)


@settings(max_examples=300, deadline=None)
@given(_documents())
def test_the_c_parser_resolves_like_the_python_parser(value) -> None:
    text = _as_yaml(value, False) + "\n"
    assert goyaml._parse_go_yaml.__wrapped__(text) == _python_parse(text)


def test_the_loader_is_libyaml_based_when_libyaml_is_there() -> None:
    assert issubclass(goyaml._GoLoader, yaml.CSafeLoader)
