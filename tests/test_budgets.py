"""Template budgets (docs/budgets.md, "Templates and output") and JSON number overflow, issue 16.

Each template repro runs `llmc render` in a subprocess under a 2 GB address-space
limit and must be refused within seconds: exit 1, nothing on stdout, no traceback.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from llmc.go.template.template import Limits, TemplateExecError
from llmc.go.template.template import parse


SERVICE = """\
apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceService
metadata: {{name: t, namespace: ns}}
spec:
  model: {{uri: hf://org/model}}
  template:
    containers:
      - name: main
        args: [{arg}]
"""
AS_LIMIT = 2 * 1024 ** 3


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))


def render_limited(tmp_path: Path, text: str, suffix: str = ".yaml") -> tuple[subprocess.CompletedProcess, float]:
    path = tmp_path / f"svc{suffix}"
    path.write_text(text)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "llmc", "render", "-f", str(path)], capture_output=True, text=True,
                          timeout=60, preexec_fn=_limit, env={k: v for k, v in os.environ.items() if k != "LLMC_DEBUG"})
    return proc, time.perf_counter() - start


EXPONENTIAL = ("{{ define `a` }}{{ if lt (len .) 60 }}{{ template `a` (printf `%sx` .) }}"
               "{{ template `a` (printf `%sx` .) }}{{ end }}{{ end }}{{ template `a` `` }}")
DOUBLING = "{{ $s := `xx` }}{{ range 40 }}{{ $s = printf `%s%s` $s $s }}{{ end }}{{ len $s }}"
WIDE_LOOP = "{{ range 1000000 }}{{ $x := printf `%1000000d` 1 }}{{ end }}"
NESTED = "{{ printf `%c` 34 }},{{ range 100000 }}[{{ end }}"  # a quote ends the JSON string: brackets nest


@pytest.mark.parametrize("template,message", [
    (EXPONENTIAL, "more than 100000 template and function calls"),
    (DOUBLING, "exceeds 3145728 bytes"),
    (WIDE_LOOP, "template work exceeds 67108864 bytes"),
    (NESTED, "exceeded max depth (100)"),
], ids=["exponential-define", "doubling", "wide-printf-loop", "nested-brackets"])
def test_template_budget_stops_render(tmp_path: Path, template: str, message: str) -> None:
    proc, seconds = render_limited(tmp_path, SERVICE.format(arg=json.dumps(template)))
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert message in proc.stderr
    assert seconds < 20


def test_budgets_are_configurable() -> None:
    with pytest.raises(TemplateExecError) as err:
        parse("config", "{{ range 10 }}{{ print 1 }}{{ end }}").execute(None, Limits(calls=5))
    assert "more than 5 template and function calls" in err.value.message
    with pytest.raises(TemplateExecError) as err:
        parse("config", "{{ printf `%100d` 1 }}").execute(None, Limits(value_bytes=50))
    assert "a value of 100 bytes exceeds 50 bytes" in err.value.message
    with pytest.raises(TemplateExecError) as err:
        parse("config", "{{ range 10 }}{{ $x := printf `%100d` 1 }}{{ end }}").execute(None, Limits(work_bytes=500))
    assert "template work exceeds 500 bytes" in err.value.message
    assert parse("config", "{{ range 10 }}{{ printf `%10d` 1 }}{{ end }}").execute(None) == "         1" * 10


# --------------------------------------------------------------------------- JSON numbers, against Go

NUMBERS = ["1e400", "-1e400", "1.7976931348623157e308", "1.7976931348623159e308", "1e-400", "1.5", "-0.25e3"]


@pytest.fixture(scope="module")
def go_jsonnum(go_build) -> Path:
    return go_build("jsonnum")


def test_json_numbers_decode_as_go(go_jsonnum: Path) -> None:
    from llmc.core.errors import LlmcError
    from llmc.load.documents import load_text

    texts = ['{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"a":%s}}' % n for n in NUMBERS]
    proc = subprocess.run([str(go_jsonnum)], input="".join(t + "\n" for t in texts), capture_output=True, text=True,
                          timeout=60, check=True)
    for number, text, line in zip(NUMBERS, texts, proc.stdout.splitlines()):
        go = json.loads(line)
        try:
            ours = load_text(text, "n.json")[0].obj["data"]["a"]
        except LlmcError as err:
            assert "error" in go, (number, err.message)
            assert err.message == f"json: cannot unmarshal number {number} into Go value of type float64"
            assert err.location.line == 1 and text[err.location.col - 1:].startswith(number)
            continue
        assert "error" not in go, (number, go)
        assert ours == go["value"]["data"]["a"], number


def test_json_overflow_refused_yaml_keeps_string(tmp_path: Path) -> None:
    proc, _ = render_limited(tmp_path, '{"apiVersion": "serving.kserve.io/v1alpha2", "kind": "LLMInferenceService",'
                             ' "metadata": {"name": "t"}, "spec": {"replicas": 1e400, "model": {"uri": "hf://a/b"}}}',
                             ".json")
    assert proc.returncode == 1 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert "svc.json:1:" in proc.stderr and "cannot unmarshal number 1e400" in proc.stderr
    # go-yaml v2 (sigs.k8s.io/yaml, as the oracle reads it) keeps a plain 1e400 a string: ParseFloat overflows
    from llmc.load.documents import load_text
    assert load_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: 1e400}\n")[0].obj["data"]["a"] == "1e400"


# --------------------------------------------------------------------------- the whole output

def _services(n: int, arg: str) -> str:
    return "---\n".join(SERVICE.replace("name: t,", f"name: t{i},").format(arg=json.dumps(arg)) for i in range(n))


def test_output_budget_flag(tmp_path: Path) -> None:
    path = tmp_path / "svcs.yaml"
    path.write_text(_services(3, "{{ printf `%5000d` 1 }}"))
    from test_output_valid import invoke

    ok = invoke(["render", "-q", "-f", str(path)])
    assert ok.code == 0 and len(ok.stdout) > 15000
    over = invoke(["render", "-q", "-f", str(path), "--max-output-bytes", str(len(ok.stdout) - 1)])
    assert over.code == 1 and over.stdout == "" and "Traceback" not in over.stderr
    assert f"over the budget of {len(ok.stdout) - 1} bytes (--max-output-bytes)" in over.stderr
    exact = invoke(["render", "-q", "-f", str(path), f"--max-output-bytes={len(ok.stdout)}"])
    assert exact.code == 0 and exact.stdout == ok.stdout
    bad = invoke(["render", "-q", "-f", str(path), "--max-output-bytes", "0"])
    assert bad.code == 2 and bad.stdout == ""


def test_default_output_budget() -> None:
    from llmc.cli.render import MAX_OUTPUT_BYTES, Spool

    assert MAX_OUTPUT_BYTES == 64 * 1024 * 1024  # docs/budgets.md
    spool = Spool(max_bytes=10)
    spool.write("x" * MAX_OUTPUT_BYTES)
    assert not spool.over
    spool.write("y")
    assert spool.over
