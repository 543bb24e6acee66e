"""llmc's template engine against Go's text/template on KServe's shipped presets.

(1) every distinct action in the preset files (reference 01 §4.4 counts 44), alone and
completed into a runnable template, on several services and global configs;
(2) every preset file rendered whole through render_config's JSON-text path.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from llmc.go.json import marshal
from llmc.core.errors import LlmcError
from llmc.go.template.template import TemplateExecError, TemplateParseError
from llmc.resolve.templatedata import compile_config, render_config, template_data

from gotmpl_samples import GLOBAL, GLOBAL_TLS, SERVICES

ACTION = re.compile(r"\{\{.*?\}\}", re.S)


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


def preset_files(upstream: Path) -> list[Path]:
    return sorted((upstream / "kserve" / "presets").glob("*/*.yaml"))


def preset_actions(upstream: Path) -> list[str]:
    found: set[str] = set()
    for f in preset_files(upstream):
        for doc in yaml.safe_load_all(f.read_text()):
            for s in _strings(doc):
                found.update(ACTION.findall(s))
    return sorted(found)


def runnable(action: str) -> str:
    """Complete a control action into a whole template (an `if` gets its else/end, an else/end its if)."""
    word = action.strip("{}- \t").split(" ")[0]
    if word == "if":
        return action + "T{{else}}F{{end}}"
    if word == "else":
        return "{{if .GlobalConfig.EnableTLS}}T" + action + "F{{end}}"
    if word == "end":
        return "{{if .GlobalConfig.EnableTLS}}T" + action
    return action


def llmc_run(text: str, service: dict[str, Any], global_config: dict[str, Any]) -> dict[str, Any]:
    try:
        tmpl = compile_config(text)
    except TemplateParseError as e:
        return {"out": None, "err": e.message}
    try:
        return {"out": tmpl.execute(template_data(service, global_config)), "err": None}
    except TemplateExecError as e:
        return {"out": None, "err": e.message}


def test_preset_inventory_has_the_44_actions(upstream: Path) -> None:
    # reference 01 §4.4: "The set of distinct {{…}} strings ... 44 expressions"
    assert len(preset_actions(upstream)) == 44


def test_preset_actions_match_go(upstream: Path, go_harness) -> None:
    cases, mine = [], []
    for action in preset_actions(upstream):
        for text in {action, runnable(action)}:
            for svc in SERVICES.values():
                for gc in (GLOBAL, GLOBAL_TLS):
                    cases.append({"mode": "template", "template": text, "service": svc, "global": gc})
                    mine.append(llmc_run(text, svc, gc))
    results = go_harness.run(cases)
    outputs = sum(1 for r in results if r["out"] is not None)
    assert outputs > len(cases) // 2  # most cases produce text, so the comparison is not only of errors
    for case, got, want in zip(cases, mine, results):
        assert (got["out"], got["err"]) == (want["out"], want["err"]), case["template"]


@pytest.mark.parametrize("tls", [False, True])
def test_whole_presets_match_go(upstream: Path, go_harness, tls: bool) -> None:
    gc = GLOBAL_TLS if tls else GLOBAL
    cases, mine = [], []
    for f in preset_files(upstream):
        preset = yaml.safe_load(f.read_text())
        for svc in SERVICES.values():
            config = {"metadata": svc["metadata"], "spec": preset["spec"]}
            cases.append({"mode": "config", "config": config, "service": svc, "global": gc})
            try:
                mine.append({"decoded": render_config(config, svc, gc), "err": None, "text": marshal(config, sort_keys=False)})
            except LlmcError as e:
                mine.append({"decoded": None, "err": e.message, "text": marshal(config, sort_keys=False)})
    results = go_harness.run(cases)
    assert len(preset_files(upstream)) == 11 + 10  # master, and v0.20.0 without the tokenizer (reference 01 §4.4)
    for case, got, want in zip(cases, mine, results):
        assert got["text"] == want["text"]  # json.Marshal's text, escapes included
        assert got["err"] == want["err"]
        if want["err"] is None:
            assert got["decoded"] == want["decoded"]
