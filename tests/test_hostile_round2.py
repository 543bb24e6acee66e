"""Issue 16 ("Hostile input, round two"): one small repro per item of the issue's list.

Every repro runs the real console script (`python -m llmc`) in a subprocess under a 2 GB
address-space limit and a timeout of a few seconds, and checks the contract for bad input:
the exit code, a message on stderr with its location (file:line:col where the input has
one), nothing on stdout, no traceback and no internal error. Items whose repro needs
more than a table row (signals, closed streams, big files) have their own test below.
Items covered in depth elsewhere are named where they are: template budgets
(tests/test_budgets.py), path confinement (tests/test_confinement.py), Go decoding of
template output (tests/test_godecode.py), duplicates (tests/test_duplicates.py),
--output-dir atomicity (tests/test_outdir_atomic.py), unreadable folders
(tests/test_input_files.py); here each still has one repro of the issue's own input.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
AS_LIMIT = 2 * 1024 ** 3
SERVICE = """\
apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceService
metadata:
  name: {name}
  namespace: ns
spec:
  model:
    uri: {uri}
    name: {model}
  template:
    containers:
      - name: main
{extra}"""


def service(name: str = "t", uri: str = "hf://org/model", model: str = "org/model", extra: str = "") -> str:
    return SERVICE.format(name=name, uri=uri, model=model, extra=extra)


CONFIG = """\
apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceServiceConfig
metadata:
  name: team
  namespace: ns
spec:
  template:
    containers:
      - name: main
        env:
          - name: A
            value: ok
          - name: FROM_TEMPLATE
            value: '{value}'
---
"""


def with_config(value: str) -> str:
    return CONFIG.format(value=value) + service().replace("spec:\n", "spec:\n  baseRefs: [{name: team}]\n", 1)


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))


def llmc(args: list[str], cwd: Path, stdin: bytes | None = None, env: dict | None = None, timeout: float = 20,
         **popen) -> subprocess.CompletedProcess[str]:
    """The console script under the address-space limit; text out, `stdin` bytes in (default: none)."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("ARGOCD_ENV_", "LLMC_"))}
    full.update(env or {})
    proc = subprocess.run([sys.executable, "-m", "llmc", *args], cwd=cwd, env=full, input=stdin,
                          stdin=None if stdin is not None else subprocess.DEVNULL, capture_output=True,
                          timeout=timeout, preexec_fn=_limit, **popen)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8", "replace"),
                                       proc.stderr.decode("utf-8", "replace"))


def assert_clean(done: subprocess.CompletedProcess[str], code: int, *fragments: str, stdout: str = "") -> None:
    assert done.returncode == code, done.stderr[-2000:]
    if stdout == "":
        assert done.stdout == "", done.stdout[:500]
    for fragment in fragments:
        assert fragment in done.stderr, (fragment, done.stderr[-2000:])
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr[-2000:]


@dataclass
class Case:
    """One repro: the files written to a fresh folder, the command, and what must come back."""

    files: dict[str, str | bytes]
    args: list[str]
    code: int
    stderr: list[str] = field(default_factory=list)
    stdin: bytes | None = None
    env: dict[str, str] = field(default_factory=dict)


ROUTED = "apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceService\nmetadata: {{name: {name}, namespace: {namespace}}}\n" \
    "spec:\n  model: {{uri: hf://org/model}}\n  router: {{gateway: {{}}, route: {{}}, scheduler: {{}}}}\n"
INJECTION = 'x"],"securityContext":{"privileged":true,"runAsUser":0},"args":["'
LONE_SURROGATE_JSON = json.dumps(yaml.safe_load(service())).replace('"org/model"', '"a\\ud800b"')
NESTING = "{{ printf `%c` 34 }},{{ range 40000 }}[{{ end }}{{ range 40000 }}]{{ end }},{{ printf `%c` 34 }}"  # within the range budget
RESOURCE_LIST = """\
apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: "a\xff"}
"""

CASES: dict[str, Case] = {
    # Security: preset sets are names, never paths; no byte of an outside file is echoed
    "argocd-preset-set-path": Case({"svc.yaml": service()}, ["argocd-generate"], 2, ["unknown preset set '../../..'"],
                                   env={"ARGOCD_ENV_LLMC_PRESET_SET": "../../.."}),
    "argocd-preset-set-root": Case({"svc.yaml": service()}, ["argocd-generate"], 2, ["unknown preset set '/'"],
                                   env={"ARGOCD_ENV_LLMC_PRESET_SET": "/"}),
    "plugin-files-absolute": Case({"svc.yaml": service(),
                                   "cfg.yaml": "apiVersion: llmc.dev/v1alpha1\nkind: LLMRender\nmetadata: {name: x}\n"
                                               "files: [/etc/passwd]\n"},
                                  ["kustomize-plugin", "cfg.yaml"], 2, ["files /etc/passwd is outside the allowed folders"]),
    # Partial output: lone surrogates are refused when loading, with the field's location
    "surrogate-json-render": Case({"svc.json": LONE_SURROGATE_JSON}, ["render", "-f", "svc.json", "-o", "json"], 1,
                                  ["svc.json:1:", "spec.model.name: \\ud800 is a lone UTF-16 surrogate"]),
    "surrogate-json-diff": Case({"svc.json": LONE_SURROGATE_JSON, "b.yaml": service()}, ["diff", "svc.json", "b.yaml"], 2,
                                ["svc.json:1:", "spec.model.name: \\ud800 is a lone UTF-16 surrogate"]),
    "surrogate-yaml": Case({"svc.yaml": service(model='"a\\ud800b"')}, ["render", "-f", "svc.yaml"], 1,
                           ["svc.yaml:9:", "spec.model.name: YAML syntax error"]),
    "ascii-stdout-encoding": Case({"svc.yaml": service(extra='        env: [{name: X, value: "h\u00e9llo \u2603"}]\n')},
                                  ["render", "-f", "svc.yaml", "-o", "json", "-q"], 0, env={"PYTHONIOENCODING": "ascii"}),
    # Duplicates
    "duplicate-service": Case({"a.yaml": service(), "b.yaml": service()}, ["render", "-f", "a.yaml", "-f", "b.yaml"], 1,
                              ["a.yaml:4:", "b.yaml"]),
    "colliding-children": Case({"a.yaml": ROUTED.format(name="b-c", namespace="a") + "---\n"
                                          + ROUTED.format(name="c", namespace="a-b")},
                               ["render", "-f", "a.yaml"], 1, ["ClusterRoleBinding.rbac.authorization.k8s.io a-b-c-epp-auth-rb"
                                                               " is rendered by both"]),
    # Crashes
    "invalid-utf8-stdin": Case({}, ["render", "-f", "-"], 1, ["<stdin>:9:15: not UTF-8 text: byte 0xff"],
                               stdin=service(model="org/\xff").encode("latin-1")),
    "invalid-utf8-krm": Case({}, ["krm"], 1, ["<stdin>:6:22: not UTF-8 text: byte 0xff"], stdin=RESOURCE_LIST.encode("latin-1")),
    "nested-brackets": Case({"svc.yaml": service(extra=f"        args: ['{NESTING}']\n")}, ["render", "-f", "svc.yaml"], 1,
                            ["failed to unmarshal config from template: exceeded max depth (100)"]),
    # Time and memory budgets (tests/test_budgets.py for the limits themselves)
    "exponential-define": Case({"svc.yaml": service(extra="        args: ['{{ define `a` }}{{ if lt (len .) 60 }}"
                                                          "{{ template `a` (printf `%sx` .) }}{{ template `a` (printf `%sx` .) }}"
                                                          "{{ end }}{{ end }}{{ template `a` `` }}']\n")},
                               ["render", "-f", "svc.yaml"], 1, ["llmc limit: more than 100000 template and function calls"]),
    "doubling": Case({"svc.yaml": service(extra="        args: ['{{ $s := `xx` }}{{ range 40 }}{{ $s = printf `%s%s` $s $s }}"
                                                "{{ end }}{{ len $s }}']\n")},
                     ["render", "-f", "svc.yaml"], 1, ["llmc limit: a value of"]),
    "wide-printf": Case({"svc.yaml": service(extra="        args: ['{{ range 1000000 }}{{ $x := printf `%1000000d` 1 }}"
                                                   "{{ end }}']\n")},
                        ["render", "-f", "svc.yaml"], 1, ["llmc limit: template work exceeds"]),
    "dev-zero": Case({}, ["render", "-f", "/dev/zero"], 1, ["/dev/zero: input is over the limit of 32 MiB"]),
    "output-budget": Case({"svc.yaml": service()}, ["render", "-f", "svc.yaml", "--max-output-bytes", "1000"], 1,
                          ["over the budget of 1000 bytes"]),
    # Wrong output or message
    "negative-memory": Case({"svc.yaml": service(extra="        resources: {limits: {memory: '-1'}}\n")},
                            ["render", "-f", "svc.yaml"], 1, ["svc.yaml:", "must be greater than or equal to 0"]),
    "negative-cpu": Case({"svc.yaml": service(extra="        resources: {requests: {cpu: -100m}}\n")},
                         ["render", "-f", "svc.yaml"], 1, ["svc.yaml:", "Invalid value: \"-100m\": must be greater than or equal to 0"]),
    "pvc-backstep": Case({"svc.yaml": service(uri="pvc://claim/../etc")}, ["render", "-f", "svc.yaml"], 1,
                         ["svc.yaml:8:10: spec.model.uri:", "subPath: Invalid value: \"../etc\": must not contain '..'"]),
    "pvc-absolute": Case({"svc.yaml": service(uri="pvc://claim//abs")}, ["render", "-f", "svc.yaml", "--validate"], 1,
                         ["svc.yaml:8:10: spec.model.uri:", "subPath: Invalid value: \"/abs\": must be a relative path"]),
    "json-1e400": Case({"svc.json": json.dumps(yaml.safe_load(service())).replace('"ns"}', '"ns", "generation": 1e400}')},
                       ["render", "-f", "svc.json"], 1, ["svc.json:1:", "cannot unmarshal number 1e400"]),
    "template-error-at-config-line": Case({"svc.yaml": with_config("{{ .Spec.Nope }}")}, ["render", "-f", "svc.yaml"], 1,
                                          ["svc.yaml:14:20: spec.template.containers[0].env[1].value: failed to merge config"]),
    "template-quote-hint": Case({"svc.yaml": with_config('{{ printf "%s" .Name }}')}, ["render", "-f", "svc.yaml"], 1,
                                ["svc.yaml:14:20:", "hint: string literals inside actions must be backtick raw strings"]),
    "template-unclosed-no-quote-hint": Case({"svc.yaml": with_config("{{ .Name")}, ["render", "-f", "svc.yaml"], 1,
                                            ["svc.yaml:14:20:", "hint: the action opened with {{ is not closed"]),
    "bad-escape-path": Case({"cm.yaml": 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  a: "1"\n  b: "x\\qy"\n'},
                            ["render", "-f", "cm.yaml"], 1, ["cm.yaml:6:8: data.b: YAML syntax error"]),
    "tab-path": Case({"cm.yaml": 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  a: "1"\n\tb: "x"\n'},
                     ["render", "-f", "cm.yaml"], 1, ["cm.yaml:6:1: data: YAML syntax error"]),
    "bad-escape-json-path": Case({"cm.json": '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"},\n'
                                             ' "data": {"a": "1",\n "b": "x\\qy"}}'},
                                 ["render", "-f", "cm.json"], 1, ["cm.json:3:9: data.b: JSON syntax error"]),
    "namespace-option": Case({"svc.yaml": service().replace("  namespace: ns\n", "")},
                             ["render", "-f", "svc.yaml", "-n", "Bad_NS"], 2, ["error: -n/--namespace: Invalid value: \"Bad_NS\""]),
    "not-utf8-file": Case({"svc.yaml": service().encode() + b"# \xff\n"}, ["render", "-f", "svc.yaml"], 1,
                          ["svc.yaml:13:3: not UTF-8 text: byte 0xff"]),
}


@pytest.mark.parametrize("name", CASES)
def test_issue_item(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    for file, text in case.files.items():
        (tmp_path / file).write_bytes(text if isinstance(text, bytes) else text.encode())
    start = time.perf_counter()
    done = llmc(case.args, tmp_path, stdin=case.stdin, env=case.env)
    assert time.perf_counter() - start < 15
    if case.code == 0:
        assert_clean(done, 0, stdout=None)
        assert done.stdout and json.loads(done.stdout)
        return
    assert_clean(done, case.code, *case.stderr, stdout="" if name != "invalid-utf8-krm" else None)
    assert "root:x:" not in done.stdout + done.stderr


def test_krm_answers_bad_input_with_an_error_result(tmp_path: Path) -> None:
    done = llmc(["krm"], tmp_path, stdin=RESOURCE_LIST.encode("latin-1"))
    assert done.returncode == 1
    answer = yaml.safe_load(done.stdout)
    assert answer["kind"] == "ResourceList" and answer["results"][0]["severity"] == "error"
    assert "not UTF-8 text" in answer["results"][0]["message"]
    surrogate = {"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList",
                 "items": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"x": "X"}}]}
    done = llmc(["krm"], tmp_path, stdin=json.dumps(surrogate).replace('"X"', '"\\udc00"').encode())
    result = yaml.safe_load(done.stdout)["results"][0]
    assert done.returncode == 1 and result["field"]["path"] == "items[0].data.x" and "lone UTF-16 surrogate" in result["message"]


def test_injected_keys_decode_as_go_and_are_refused(tmp_path: Path) -> None:
    """The issue's injection: Go merges the second securityContext into the preset's, so the pod is
    privileged with allowPrivilegeEscalation false, which the API server refuses; llmc says so."""
    (tmp_path / "svc.yaml").write_text(service(model="'" + INJECTION + "'"))
    done = llmc(["render", "-f", "svc.yaml"], tmp_path)
    assert_clean(done, 1, "securityContext: Invalid value: cannot set `allowPrivilegeEscalation` to false and "
                          "`privileged` to true")


def test_a_spliced_backslash_warns(tmp_path: Path) -> None:
    """`\\u0041` in the model name is spliced as a JSON escape: the pod gets `orgA`; LLMC005 says why."""
    (tmp_path / "svc.yaml").write_text(service(model="'org\\u0041'"))
    done = llmc(["render", "-f", "svc.yaml"], tmp_path)
    assert_clean(done, 0, "warning: LLMC005 ns/t: spec.model.name: {{ .Spec.Model.Name }} splices this value into the "
                          "config's JSON text unescaped; its characters \"\\\\\" change the JSON's structure", stdout=None)
    assert "--served-model-name \"orgA\"" in done.stdout


def test_shell_metacharacters_in_the_model_name_warn(tmp_path: Path) -> None:
    (tmp_path / "svc.yaml").write_text(service(model='"org/$(id)"'))
    done = llmc(["render", "-f", "svc.yaml"], tmp_path)
    assert done.stdout
    assert_clean(done, 0, 'LLMC005 ns/t: spec.model.name: {{ .Spec.Model.Name }} reaches the vLLM start script, '
                          'where its characters "$" "(" ")" are interpreted by the shell', stdout=None)
    (tmp_path / "svc.yaml").write_text(service(model="org/m\u00f6del-1.5"))
    assert "LLMC005" not in llmc(["render", "-f", "svc.yaml"], tmp_path).stderr


# --------------------------------------------------------------------------- errors shown and how fast


def bad_documents(count: int, pad: int = 0) -> str:
    bad = service(extra="        bogus: 1\n")
    return "---\n".join(bad.replace("name: t\n", f"name: t{i}\n", 1) + ("# " + "p" * pad + "\n" if pad else "")
                        for i in range(count))


def test_ten_thousand_bad_documents_in_32_mb_report_in_seconds(tmp_path: Path) -> None:
    text = bad_documents(10_000, pad=3000)
    assert 30 * 2 ** 20 < len(text) < 32 * 2 ** 20
    (tmp_path / "big.yaml").write_text(text)
    start = time.perf_counter()
    done = llmc(["render", "-f", "big.yaml"], tmp_path, timeout=60)
    assert time.perf_counter() - start < 20
    assert_clean(done, 1, "big.yaml:13:9: spec.template.containers[0].bogus: unknown field",
                 "error: 9980 more errors not shown (LLMC_MAX_ERRORS=20)")
    assert done.stderr.count("error: ") == 21


def test_the_error_cap_follows_llmc_max_errors(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(bad_documents(5))
    done = llmc(["render", "-f", "bad.yaml"], tmp_path, env={"LLMC_MAX_ERRORS": "2"})
    assert_clean(done, 1, "error: 3 more errors not shown (LLMC_MAX_ERRORS=2)")
    assert done.stderr.count("unknown field") == 2
    assert llmc(["render", "-f", "bad.yaml"], tmp_path).stderr.count("unknown field") == 5


def test_an_excerpt_of_a_5_mb_line_is_cut(tmp_path: Path) -> None:
    (tmp_path / "long.yaml").write_text(service(extra="        x: " + "a" * 5_000_000 + "\n"))
    done = llmc(["render", "-f", "long.yaml"], tmp_path)
    assert_clean(done, 1, "long.yaml:13:12:")
    assert len(done.stderr) < 2000
    excerpt = next(line for line in done.stderr.splitlines() if line.lstrip().startswith("13 |"))
    assert len(excerpt) < 200 and excerpt.endswith("\u2026")


# --------------------------------------------------------------------------- inputs


def test_a_2_gb_file_is_not_read_into_memory(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with open(big, "wb") as fh:  # sparse: 2 GB of NUL bytes on a few kilobytes of disk
        fh.truncate(2 * 1024 ** 3)
    done = llmc(["render", "-f", "big.yaml"], tmp_path)
    assert_clean(done, 1, "big.yaml: input is over the limit of 32 MiB")


def test_an_endless_stdin_is_cut_at_the_limit(tmp_path: Path) -> None:
    source = subprocess.Popen(["yes", "a: b"], stdout=subprocess.PIPE)
    try:
        done = subprocess.run([sys.executable, "-m", "llmc", "render", "-f", "-"], stdin=source.stdout, capture_output=True,
                              text=True, timeout=20, preexec_fn=_limit, cwd=tmp_path)
    finally:
        source.kill()
        source.wait()
    assert_clean(done, 1, "<stdin>: input is over the limit of 32 MiB")


def test_a_fifo_is_named_as_such(tmp_path: Path) -> None:
    (tmp_path / "svc.yaml").write_text(service())
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "cfg.yaml").write_text("apiVersion: llmc.dev/v1alpha1\nkind: LLMRender\nmetadata: {name: x}\nfiles: [pipe.yaml]\n")
    done = llmc(["kustomize-plugin", "cfg.yaml"], tmp_path, timeout=10)
    assert_clean(done, 2, "error: files: not a regular file or folder: pipe.yaml")
    done = llmc(["argocd-generate"], tmp_path, env={"ARGOCD_ENV_LLMC_FILES": "pipe.yaml"}, timeout=10)
    assert_clean(done, 2, "not a regular file or folder: pipe.yaml")
    assert "no such file" not in done.stderr


# --------------------------------------------------------------------------- streams and signals

COMMANDS = [
    ["render", "-f", "svc.yaml"], ["render", "-f", "svc.yaml", "-o", "json"], ["render", "-j", "2", "-f", "two.yaml"],
    ["diff", "svc.yaml", "--render", "svc.yaml"], ["explain", "-f", "svc.yaml"], ["presets", "list"],
    ["presets", "show", "config-llm-template"], ["version"], ["schema"], ["render", "--help"], ["explain", "--help"],
    ["kustomize-plugin", "cfg.yaml"], ["argocd-generate"],
]


@pytest.fixture
def app_folder(tmp_path: Path) -> Path:
    (tmp_path / "svc.yaml").write_text(service())
    (tmp_path / "two.yaml").write_text(service("a") + "---\n" + service("b"))
    (tmp_path / "cfg.yaml").write_text("apiVersion: llmc.dev/v1alpha1\nkind: LLMRender\nmetadata: {name: x}\nfiles: [svc.yaml]\n")
    return tmp_path


def _run_with(args: list[str], cwd: Path, close: int | None = None, **streams) -> subprocess.CompletedProcess[str]:
    """The console script with the given streams; `close`: a descriptor closed before llmc starts (`>&-`)."""
    def setup() -> None:
        _limit()
        if close is not None:
            os.close(close)

    return subprocess.run([sys.executable, "-m", "llmc", *args], cwd=cwd, text=True, timeout=60, preexec_fn=setup,
                          stdin=subprocess.DEVNULL, **streams)


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_stdout_full_or_closed_is_a_clean_error(args: list[str], app_folder: Path) -> None:
    with open("/dev/full", "w") as full:
        done = _run_with(args, app_folder, stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 1 and "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    assert "error: writing stdout: No space left on device" in done.stderr
    done = _run_with(args, app_folder, close=1, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert done.returncode == 1 and "error: writing stdout: Bad file descriptor" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_closed_stderr_keeps_a_valid_run_valid(args: list[str], app_folder: Path) -> None:
    expected = _run_with(args, app_folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    done = _run_with(args, app_folder, close=2, stdout=subprocess.PIPE)
    assert (done.returncode, done.stdout) == (expected.returncode, expected.stdout)
    assert expected.returncode in (0, 1)  # diff exits 1 for a difference


def _children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_sigterm_to_render_j2_leaves_no_workers(tmp_path: Path) -> None:
    (tmp_path / "many.yaml").write_text("---\n".join(service(f"t{i}") for i in range(400)))
    proc = subprocess.Popen([sys.executable, "-m", "llmc", "render", "-q", "-j", "2", "-f", "many.yaml"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=_limit)
    try:
        deadline = time.monotonic() + 20
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
            workers = _children(proc.pid)
        assert len(workers) >= 2, "the workers never started"
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while any(map(_alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(map(_alive, workers)), "orphaned workers"
    finally:
        for pid in [proc.pid, *workers]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        proc.stdout.close()


def test_budgets_doc_lists_every_budget_with_its_default() -> None:
    from llmc.go.template.exec import MAX_CALLS, MAX_RANGE_ITERATIONS, MAX_WORK_BYTES
    from llmc.load.documents import MAX_FILE_BYTES
    from llmc.cli.report import EXCERPT_WIDTH, MAX_ERRORS

    text = (ROOT / "docs" / "budgets.md").read_text()
    rows = {line.split("|")[1].strip(): line for line in text.splitlines() if line.startswith("| ") and line.count("|") > 3}
    for budget in ("iterations", "calls", "work", "value size", "output size", "input size", "errors shown", "excerpt width"):
        assert budget in rows, budget
    assert f"{MAX_RANGE_ITERATIONS:,}" in rows["iterations"] and f"{MAX_CALLS:,}" in rows["calls"]
    assert str(MAX_WORK_BYTES) in rows["work"] and str(MAX_FILE_BYTES) in rows["input size"]
    assert str(MAX_ERRORS) in rows["errors shown"] and "LLMC_MAX_ERRORS" in rows["errors shown"]
    assert str(EXCERPT_WIDTH) in rows["excerpt width"]
    assert "--max-output-bytes" in text
