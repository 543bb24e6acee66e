"""The one option table (llmc.options) and what derives from it: RenderConfig, the LLMRender/KRM keys,
the Argo CD variables and the docs' table; typer's command and the fast parser are checked in test_main."""

from __future__ import annotations

import re
from pathlib import Path

from llmc.resolve import presets
from llmc.cli.gitops import ARGOCD_KEYS
from llmc.gitops.krm import FIELDS, RenderConfig, config_field, render_config
from llmc.options import BY_KEY, DEFAULT_SET, RENDER

DOCS = Path(__file__).resolve().parent.parent / "docs" / "gitops.md"


def test_every_keyed_option_is_a_render_config_field() -> None:
    fields = set(RenderConfig.__annotations__)
    assert {config_field(o.name) for o in BY_KEY.values()} | {"complete_api_versions"} == fields


def test_krm_keys_and_argocd_variables_are_the_tables() -> None:
    assert set(FIELDS) == set(BY_KEY)
    assert {f"LLMC_{name}" for name in ARGOCD_KEYS} == {
        "LLMC_" + re.sub(r"(?<!^)(?=[A-Z])", "_", key).upper() for key in BY_KEY}


def test_the_docs_table_lists_every_key_with_its_flag() -> None:
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)`[^|]*\| `LLMC_\w+` \| `([^`]+)` \|", DOCS.read_text(),
                                                          re.M)}
    assert {key: o.flags[0] for key, o in BY_KEY.items()} == rows


def test_render_config_takes_the_commands_values() -> None:
    config = render_config({"filename": ["a.yaml"], "strict": True, "quiet": True, "api_versions": None})
    assert config == RenderConfig(files=("a.yaml",), strict=True)


def test_default_set_is_the_presets_default() -> None:
    assert DEFAULT_SET == presets.DEFAULT_SET
    assert [o.name for o in RENDER if o.required] == ["filename"]
