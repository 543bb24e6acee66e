"""llmc refuses an input ⇔ the real API server refuses what it would create (issue 14).

tests/data/kube_bad/*.yaml: each an LLMInferenceService with one invalid thing in a pod spec.
Its second line, `# llmc: LINE:COL PATH`, is where llmc must report it. llmc must exit 1 with
that location and print nothing; and with llmc's output check switched off
(`llmc.check.api_rules.check`, called by `pipeline._render`), the API server must reject the
rendered objects, naming the same pod field. An input llmc refuses before rendering (its CRD
schema) is sent to the API server as it is, which must refuse it too.

tests/data/kube_ok/*.yaml: valid but unusual pod specs that both must accept.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import llmc.check.api_rules
from llmc.cli.app import app
from tests.conftest import ROOT
from tests.kube.apiserver import ApiServer, Verdict, checked_objects

BAD = sorted((ROOT / "tests" / "data" / "kube_bad").glob("*.yaml"))
OK = sorted((ROOT / "tests" / "data" / "kube_ok").glob("*.yaml"))
EXPECTED = re.compile(r"# llmc: (\d+):(\d+) (\S+)$")


def _render(path: Path):
    return CliRunner().invoke(app, ["render", "-f", str(path)])


def _objects(stream: str) -> list[dict]:
    return [o for o in yaml.safe_load_all(stream) if o]


def _pod_fields(text: str) -> list[tuple[str, ...]]:
    """The field names of every pod-spec path in `text`, from `containers` on, without list indices
    or map keys: llmc writes `containers[0].resources.requests.memory`, the API server
    `containers[0].resources.requests[memory]`, and server-side apply `containers[name="main"]`."""
    return [tuple(step for step in re.sub(r"\[[^\]]*\]", "", path).split(".") if step)
            for path in re.findall(r"containers\[[^\s:,]*", text)]


def _same_field(llmc: str, server: str) -> bool:
    """The API server's message names llmc's field, or the list or map that holds it."""
    (want,) = _pod_fields(llmc)
    return any(len(got) >= 2 and want[:len(got)] == got for got in _pod_fields(server))


def _verdicts(server: ApiServer, objects: list[dict]) -> list[Verdict]:
    return [server.dry_run(obj) for obj in checked_objects(objects)]


def test_there_are_bad_and_good_cases() -> None:
    assert len(BAD) >= 10 and len(OK) >= 3


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_llmc_and_the_api_server_both_refuse(path: Path, apiserver: ApiServer, monkeypatch: pytest.MonkeyPatch) -> None:
    match = EXPECTED.match(path.read_text().splitlines()[1])
    assert match, f"{path.name}: the second line must be `# llmc: LINE:COL PATH`"
    line, col, field = match.groups()

    result = _render(path)
    assert result.exit_code == 1 and result.stdout == "", result.stderr
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"error: {path}:{line}:{col}: {field}: "), result.stderr

    rendered = re.search(r"would reject \S+ \S+: (\S+): ", first)
    if rendered:  # the output check refused a rendered object: without it, the API server must
        monkeypatch.setattr(llmc.check.api_rules, "check", lambda *args, **kwargs: None)
        unchecked = _render(path)
        assert unchecked.exit_code == 0, unchecked.stderr
        verdicts = _verdicts(apiserver, _objects(unchecked.stdout))
        named = rendered.group(1)
    else:  # refused before rendering: the API server must refuse the input itself
        verdicts = _verdicts(apiserver, _objects(path.read_text()))
        named = field
    rejected = [v for v in verdicts if v.error is not None]
    assert rejected, f"the API server accepted every object of {path.name}"
    assert any(_same_field(named, v.error) for v in rejected), (named, [v.error for v in rejected])


@pytest.mark.parametrize("path", OK, ids=lambda p: p.stem)
def test_llmc_and_the_api_server_both_accept(path: Path, apiserver: ApiServer) -> None:
    result = _render(path)
    assert result.exit_code == 0, result.stderr
    objects = _objects(result.stdout)
    verdicts = _verdicts(apiserver, objects + _objects(path.read_text()))
    assert [f"{v.what}: {v.error}" for v in verdicts if v.error is not None] == []
    assert any(o["kind"] == "Deployment" for o in objects)
