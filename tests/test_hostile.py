"""Hostile input through `llmc render`: refused with a clear error, never a crash, a hang or a leak.

Every case goes through the CLI and must end with exit 1 or 2, a message on
stderr, an empty stdout and no traceback (`assert_rejected`), or, where Go's
text/template itself prints something harmless, exit 0 with nothing of Python's
internals in the output. Alias bombs are measured in a subprocess (wall time,
tracemalloc peak, maxrss). Templates reach llmc both in a user
`LLMInferenceServiceConfig` named by `baseRefs` and in the service's own strings.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from test_output_valid import Run, assert_rejected, invoke


SERVICE = """\
apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceService
metadata:
  name: t
  namespace: ns
spec:
{base_refs}  model:
    uri: hf://org/model
    name: org/model
  template:
    containers:
      - name: main
        args:
          - {arg}
"""
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
          - name: FROM_TEMPLATE
            value: {arg}
---
"""
PLACES = ["service", "baseRef"]
# Python's or llmc's inside, which no template output may show.
INTERNALS = ("<class", "<function", "<built-in", "<module", "<bound method", "object at 0x", "mappingproxy",
             "site-packages", "llmc/", "Traceback", "root:x:")


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rendering never opens a connection or resolves a name."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"network access during render: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def render_template(tmp_path: Path, template: str, place: str, env: dict | None = None) -> Run:
    """Render a service whose container arg (place=service) or baseRef env value (place=baseRef) is `template`."""
    value = json.dumps(template)
    if place == "service":
        text = SERVICE.format(base_refs="", arg=value)
    else:
        text = CONFIG.format(arg=value) + SERVICE.format(base_refs="  baseRefs:\n    - name: team\n", arg="plain")
    path = tmp_path / "svc.yaml"
    path.write_text(text)
    return invoke(["render", "-f", str(path)], env=env)


def assert_no_internals(run: Run) -> None:
    for marker in INTERNALS:
        assert marker not in run.stdout and marker not in run.stderr, (marker, run.stderr[:500])


# --------------------------------------------------------------------------- YAML input

BOMB = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\ndata:\n  a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"  {chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(12)
)  # 9**13 leaves when expanded

MEASURE = textwrap.dedent("""\
    import contextlib, io, json, sys, time, tracemalloc
    from llmc.cli.main import main

    def run():
        sys.argv = ["llmc", *ARGS]
        out, err = io.StringIO(), io.StringIO()
        code = 0
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as exc:
                code = exc.code
        return code, out.getvalue(), err.getvalue()

    ARGS = sys.argv[1:]
    run()  # imports llmc's lazily imported modules: what follows measures the input, not the imports
    start = time.perf_counter()
    code, stdout, stderr = run()
    seconds = time.perf_counter() - start
    # VmHWM is this process's own peak; ru_maxrss would carry the parent's (pytest's) across exec on Linux
    maxrss_kb = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
    tracemalloc.start()
    run()
    peak = tracemalloc.get_traced_memory()[1]
    print(json.dumps({"code": code, "seconds": seconds, "peak": peak, "stdout": stdout, "stderr": stderr,
                      "maxrss_kb": maxrss_kb}))
""")


def measured(args: list[str]) -> dict:
    proc = subprocess.run([sys.executable, "-c", MEASURE, *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("text", [
    BOMB,
    BOMB.replace("ConfigMap", "LLMInferenceService").replace("apiVersion: v1", "apiVersion: serving.kserve.io/v1alpha2"),
    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: *undefined\n",
    '--- {"apiVersion": "v1", "kind": "ConfigMap", "metadata": &m {"name": "x"}, "data": *m}',
], ids=["configmap", "service", "alias-only", "json-flow"])
def test_alias_bomb_refused_before_expansion(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(text)
    result = measured(["render", "-f", str(path)])
    assert_rejected(Run(result["code"], result["stdout"], result["stderr"]))
    assert "anchors and aliases are not supported" in result["stderr"]
    assert result["seconds"] < 1.0
    assert result["peak"] < 100 * 1024 * 1024
    assert result["maxrss_kb"] < 100 * 1024  # the whole process: interpreter and imports included


HOSTILE_FILES = {
    "merge-key": ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  <<: {a: b}\n", "merge keys (<<)"),
    "duplicate-key": ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nmetadata: {name: y}\n",
                      'duplicate key "metadata"'),
    "duplicate-key-nested": ("apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceService\nmetadata:\n"
                             "  name: a\n  name: b\nspec: {}\n", 'duplicate key "name"'),
    "duplicate-key-json": ('{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "kind": "ConfigMap"}',
                           'duplicate key "kind"'),
    "duplicate-resolved-key": ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {yes: a, true: b}\n",
                               'duplicate key "true"'),
    "python-tag": ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: !!python/object/apply:os.system ['id']\n",
                   "unsupported YAML tag"),
    "deep-flow": ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: " + "[" * 5000 + "]" * 5000 + "\n",
                  "nested deeper than"),
    "deep-block": ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n"
                   + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(300)), "nested deeper than"),
    "deep-json": ('{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": '
                  + "[" * 100000 + "]" * 100000 + "}", "nested deeper than"),
    "huge-string": ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  k: " + "x" * (5 * 1024 * 1024) + "\n",
                    "over the limit of 4 MiB"),
    "nan": ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {k: .nan}\n", "cannot be represented in JSON"),
    "not-a-mapping": ("- a\n- b\n", "a document must be a mapping"),
    "no-kind": ("apiVersion: v1\nmetadata: {name: x}\n", "kind not set"),
    # other objects pass through (tests/test_appfolder.py); a misspelt service is refused
    "unknown-kind": ("apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceServices\nmetadata: {name: x}\n",
                     "llmc does not read LLMInferenceServices objects"),
    "syntax": ("apiVersion: v1\nkind: [ConfigMap\n", "YAML syntax error"),
    "tab-indent": ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: x\n", "YAML syntax error"),
    "nul-byte": ("apiVersion: v1\nkind: ConfigMap\x00\n", "not allowed in YAML"),
    "baseref-path": ("apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceService\nmetadata: {name: t, namespace: ns}\n"
                     "spec:\n  baseRefs: [{name: ../../../../etc/passwd}]\n  model: {uri: hf://o/m}\n", "passwd"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_hostile_file_refused(tmp_path: Path, name: str) -> None:
    text, message = HOSTILE_FILES[name]
    path = tmp_path / "input.yaml"
    path.write_text(text)
    run = invoke(["render", "-f", str(path)])
    assert_rejected(run)
    assert message in run.stderr
    assert "root:x:" not in run.stderr


def test_huge_file_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n" + "  k: v\n" * (5 * 1024 * 1024))
    run = invoke(["render", "-f", str(path)])
    assert_rejected(run)
    assert "over the limit of 32 MiB" in run.stderr


@pytest.mark.parametrize("data", [b"\xff\xfe\x00garbage", "apiVersion: v1\n".encode("utf-16")], ids=["binary", "utf16"])
def test_non_utf8_file_refused(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "bin.yaml"
    path.write_bytes(data)
    run = invoke(["render", "-f", str(path)])
    assert_rejected(run)
    assert "not UTF-8" in run.stderr


# --------------------------------------------------------------------------- templates: limits


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("template,message", [
    ("{{ define `x` }}{{ template `x` . }}{{ end }}{{ template `x` . }}", "exceeded maximum template depth (1000)"),
    ("{{ define `a` }}{{ template `b` }}{{ end }}{{ define `b` }}{{ template `a` }}{{ end }}{{ template `a` }}",
     "exceeded maximum template depth (1000)"),
    ("{{ range 20 }}{{ printf `%999999d` 1 }}{{ end }}", "llmc limit: template output exceeds"),
    ("{{ range 100000000 }}{{ printf `%999999d` 1 }}{{ end }}", "llmc limit: template output exceeds"),
    ("{{ template `nope` }}", 'template "nope" not defined'),
    ("{{ if }}", "missing value for if"),
    ("{{ end }}", "unexpected {{end}}"),
    ("{{ .Spec", "failed to parse template"),
    ("{{ " + "(" * 20000 + "1" + ")" * 20000 + " }}", "template: config"),
], ids=["self-recursion", "mutual-recursion", "huge-output", "endless-huge-output", "undefined",
        "if-without-value", "stray-end", "unclosed", "deep-parens"])
def test_template_stopped_with_clear_error(tmp_path: Path, place: str, template: str, message: str) -> None:
    run = render_template(tmp_path, template, place)
    assert_rejected(run)
    assert message in run.stderr
    assert_no_internals(run)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("template", ["{{ range 100000000 }}x{{ end }}",
                                      "{{ range 100000 }}{{ range 100000 }}{{ end }}{{ end }}"],
                         ids=["huge-int", "nested"])
def test_endless_range_stopped(tmp_path: Path, place: str, template: str) -> None:
    """The shipped range limit (100,000 iterations, docs/budgets.md) holds through llmc render."""
    run = render_template(tmp_path, template, place)
    assert_rejected(run)
    assert "llmc limit: more than 100000 range iterations" in run.stderr


# --------------------------------------------------------------------------- templates: no way out

SECRET = "s3cr3t-llmc-hostile-value"

NOT_DEFINED = ["env", "readFile", "exec", "include", "tpl", "lookup", "getHostByName", "expandenv", "os", "open",
               "import", "eval", "file", "glob", "httpGet"]


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("func", NOT_DEFINED)
def test_no_file_env_or_network_functions(tmp_path: Path, place: str, func: str) -> None:
    run = render_template(tmp_path, f"{{{{ {func} `LLMC_HOSTILE_SECRET` }}}}", place,
                          env={"LLMC_HOSTILE_SECRET": SECRET})
    assert_rejected(run)
    assert f'function "{func}" not defined' in run.stderr
    assert SECRET not in run.stderr


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("template", [
    "{{ .__class__ }}", "{{ .__dict__ }}", "{{ .ObjectMeta.__class__.__mro__ }}", "{{ .Spec.__init__.__globals__ }}",
    "{{ .Spec.Model.URI.__len__ }}", "{{ index . `__class__` }}", "{{ index .Spec `__dict__` }}",
    "{{ call .ObjectMeta.Name }}", "{{ call .Spec }}", "{{ call . }}", "{{ len . }}",
    "{{ printf `%v` . }}", "{{ printf `%v` .ObjectMeta }}", "{{ printf `%#v` .Spec }}", "{{ printf `%T %p` . . }}",
    "{{ js . }}", "{{ html .ObjectMeta }}", "{{ urlquery . }}", "{{ print .Spec.Template }}",
    "{{ .LLMC_HOSTILE_SECRET }}", "{{ $.LLMC_HOSTILE_SECRET }}", "{{ .GlobalConfig.LLMC_HOSTILE_SECRET }}",
    "{{ template `/etc/passwd` }}", "{{ template `SECRET_FILE` }}",
    "{{ slice .ObjectMeta.Name 0 99999999999 }}", "{{ index .ObjectMeta.Labels 1 }}",
])
def test_template_cannot_reach_internals(tmp_path: Path, place: str, template: str) -> None:
    secret_file = tmp_path / "secret.txt"
    secret_file.write_text(SECRET)
    template = template.replace("SECRET_FILE", str(secret_file))
    run = render_template(tmp_path, template, place, env={"LLMC_HOSTILE_SECRET": SECRET})
    assert run.code in (0, 1), run.stderr
    if run.code:
        assert_rejected(run)
    assert SECRET not in run.stdout and SECRET not in run.stderr
    assert_no_internals(run)


def rendered_value(run: Run, place: str) -> str | None:
    """The main container's templated arg (service) or FROM_TEMPLATE env value (baseRef) in the output."""
    deployment = next(o for o in yaml.safe_load_all(run.stdout) if o["kind"] == "Deployment")
    main = next(c for c in deployment["spec"]["template"]["spec"]["containers"] if c["name"] == "main")
    if place == "service":
        return main["args"][0]
    return next((e.get("value") for e in main.get("env", ()) if e["name"] == "FROM_TEMPLATE"), "<no env var>")


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("template,expected", [
    ("{{ printf `%999999999d` 1 }}", "%!(NOVERB)%!(EXTRA int=1)"),  # Go refuses widths over 1e6
    ("{{ printf `%*d` 999999999 1 }}", "%!(BADWIDTH)1"),
    # The controller runs templates over the JSON of the spec, where json.Marshal wrote < and > as \u003c
    # and \u003e: js escapes that backslash, html does not, and json.Unmarshal decodes what is left.
    ("{{ js `</script><x>` }}", "\\u003c/script\\u003e\\u003cx\\u003e"),
    ("{{ html `<a href='x'>` }}", "<a href=&#39;x&#39;>"),
    ("{{ printf `%v` .ObjectMeta.Name }}", "t"),
])
def test_harmless_templates_render_as_go_does(tmp_path: Path, place: str, template: str, expected: str) -> None:
    run = render_template(tmp_path, template, place)
    assert run.code == 0, run.stderr
    assert rendered_value(run, place) == expected
    assert_no_internals(run)


@pytest.mark.parametrize("place", PLACES)
def test_index_of_a_python_name_is_a_missing_map_key(tmp_path: Path, place: str) -> None:
    """`index` on a map gives the zero value for a missing key, also for names Python objects have."""
    run = render_template(tmp_path, "{{ index .ObjectMeta.Labels `__class__` }}", place)
    assert run.code == 0, run.stderr
    assert rendered_value(run, place) in ("", None)  # an empty env value is omitted (Go's omitempty)


def test_a_stream_of_empty_documents_is_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "dashes.yaml"
    path.write_text("---\n" * 7_000_000)  # 28 MB, under the size limit
    result = measured(["render", "-f", str(path)])
    assert_rejected(Run(result["code"], result["stdout"], result["stderr"]))
    assert "more than 10000 documents in one file" in result["stderr"]
    assert result["seconds"] < 2.0
