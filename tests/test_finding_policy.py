"""--allow / --deny CODE (llmc.core.findings.Policy): the same verdict from render (both parsers), check, the
kustomize plugin, krm and argocd-generate; unknown codes are usage errors."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from llmc.cli.app import app
from llmc.core.errors import ErrorList
from llmc.core.findings import CODES, Finding, policy
from llmc.cli.gitops import argocd_config
from llmc.gitops.krm import RenderConfig, parse_config
from tests.test_krm import LLMRENDER, SERVICE, krm, resource_list

ROOT = Path(__file__).resolve().parent.parent
PIPELINED = ROOT / "golden" / "pipeline-parallel-single-node" / "input.yaml"  # warning LLMC101, note LLMC302

WARNING = Finding("ns/a", "LLMC101", "spec.parallelism.pipeline", "m")
NOTE = Finding("ns/a", "LLMC302", "Secret/a-kserve-self-signed-certs", "m")


def test_strict_fails_on_warnings_unless_allowed() -> None:
    assert policy().failing([WARNING, NOTE]) == []
    assert policy(strict=True).failing([WARNING, NOTE]) == [WARNING]
    allowed = policy(strict=True, allow=("LLMC1*",))
    assert allowed.failing([WARNING, NOTE]) == [] and allowed.shown([WARNING, NOTE]) == [NOTE]


def test_deny_fails_without_strict_notes_too_and_wins_over_allow() -> None:
    assert policy(deny=("LLMC302",)).failing([WARNING, NOTE]) == [NOTE]
    both = policy(allow=("LLMC*",), deny=("LLMC101",))
    assert both.failing([WARNING, NOTE]) == [WARNING] and both.shown([WARNING, NOTE]) == [WARNING]


@pytest.mark.parametrize("pattern, hint", [("LLMC1O1", "did you mean LLMC101?"), ("llmc003", "did you mean LLMC003?"),
                                           ("LLMC9*", "docs/findings.md")])
def test_a_pattern_matching_no_code_is_a_usage_error(pattern: str, hint: str) -> None:
    with pytest.raises(ErrorList) as info:
        policy(allow=(pattern,), deny=("LLMC999",))
    first, second = info.value.errors
    assert first.message == f"--allow {pattern}: no finding has this code" and hint in first.hint
    assert second.message.startswith("--deny LLMC999") and first.exit_code == second.exit_code == 2


def test_every_code_is_a_pattern_of_its_own() -> None:
    assert all(policy(allow=(code,)).allowed(Finding("a/b", code, "p", "m")) for code in CODES)


def _render(*args: str) -> subprocess.CompletedProcess:
    """The console script, whose plain command lines take llmc.cli.main's fast parser."""
    return subprocess.run([sys.executable, "-c", "from llmc.cli.main import console; console()", "render", *args],
                          capture_output=True, text=True)


@pytest.mark.parametrize("via", ["fast", "typer"])
def test_render_allows_and_denies(via: str) -> None:
    def render(*args: str):
        if via == "fast":
            done = _render("-f", str(PIPELINED), *args)
            return done.returncode, done.stdout, done.stderr
        done = CliRunner().invoke(app, ["render", "-f", str(PIPELINED), *args])
        return done.exit_code, done.stdout, done.stderr

    code, out, err = render("--strict", "--allow", "LLMC101")
    assert code == 0 and "LLMC101" not in err and "LLMC302" in err and out, err
    code, out, err = render("--deny", "LLMC30*")
    assert code == 1 and out, "the manifests are still written, as under --strict"
    assert err.endswith("error: findings fail the run: LLMC302 (--deny)\n"), err
    code, out, err = render("--strict", "--allow", "LLMC10")
    assert code == 2 and out == "" and "did you mean LLMC101?" in err, err


def test_check_takes_allow_and_deny() -> None:
    runner = CliRunner()
    assert runner.invoke(app, ["check", "--strict", str(PIPELINED)]).exit_code == 1
    assert runner.invoke(app, ["check", "--strict", "--allow", "LLMC101", str(PIPELINED)]).exit_code == 0
    denied = runner.invoke(app, ["check", "--deny", "LLMC302", str(PIPELINED)])
    assert denied.exit_code == 1 and "LLMC302 (--deny)" in denied.stderr


def test_llmrender_and_argocd_carry_the_lists() -> None:
    obj = {**LLMRENDER, "allow": ["LLMC003"], "deny": "LLMC201"}
    assert parse_config(obj) == RenderConfig(preset_set="kserve-master", allow=("LLMC003",), deny=("LLMC201",))
    config = argocd_config({"ARGOCD_ENV_LLMC_ALLOW": "LLMC003, LLMC1*", "ARGOCD_ENV_LLMC_DENY": "LLMC201"})
    assert (config.allow, config.deny) == (("LLMC003", "LLMC1*"), ("LLMC201",))


def test_krm_drops_allowed_results_and_fails_on_denied() -> None:
    pipelined = copy.deepcopy(SERVICE)
    pipelined["spec"]["parallelism"] = {"pipeline": 2}
    result, out = krm(resource_list([pipelined], {**LLMRENDER, "strict": True, "allow": ["LLMC101"]}))
    assert result.exit_code == 0, result.stderr
    assert {r["tags"]["code"] for r in out["results"]} == {"LLMC302"}
    result, out = krm(resource_list([pipelined], {**LLMRENDER, "deny": ["LLMC302"]}))
    assert result.exit_code == 1 and out["items"] == [pipelined]
    result, out = krm(resource_list([pipelined], {**LLMRENDER, "deny": ["LLMC3O2"]}))
    assert result.exit_code == 1 and "did you mean LLMC302?" in out["results"][0]["message"]


def test_kustomize_plugin_applies_the_policy(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "svc.yaml").write_text(PIPELINED.read_text())
    config = tmp_path / "llmrender.yaml"
    monkeypatch.chdir(tmp_path)
    for keys, code in (({"strict": True}, 1), ({"strict": True, "allow": ["LLMC101"]}, 0), ({"deny": ["LLMC302"]}, 1)):
        config.write_text(yaml.safe_dump({**LLMRENDER, "files": ["svc.yaml"], **keys}))
        done = CliRunner().invoke(app, ["kustomize-plugin", str(config)])
        assert done.exit_code == code, (keys, done.stderr)
