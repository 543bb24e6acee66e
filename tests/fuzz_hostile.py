"""The attack classes of issue 16 as fuzz generators, for tests/test_fuzz.py's test and bench/fuzz_run.py.

- `template_cases`: grammar-aware Go templates (recursion, doubling, nesting, huge widths,
  big ranges) in a service's own string or in a baseRef config; each must end within
  `SLOW_SECONDS` (bench/fuzz_run.py also runs under a 2 GB address-space limit).
- `byte_cases`: a rendering input, as YAML or JSON, corrupted byte by byte (lone surrogates,
  escaped and raw, invalid UTF-8, NUL, BOMs, overlong forms) and read from stdin.
- `gitops_cases`: the GitOps entry points (`argocd-generate` env, KRM `functionConfig`,
  kustomize plugin config) given hostile paths; no byte of the file outside the application
  folder (`MARKER`) may appear on stdout or stderr.

`hostile_outcome` sorts a case as tests/test_fuzz.py's `outcome` does, plus ``slow`` and ``leak``.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from hypothesis import strategies as st

from test_fuzz import Case, Outcome, _dump, _signature, bases, outcome
from test_output_valid import invoke

SLOW_SECONDS = 15.0  # the 100,000-iteration budget of nested ranges costs under a second, run twice for the position
MARKER = "DB_PASSWORD=hunter2-outside"


@dataclass
class HostileCase:
    """A case outside tests/test_fuzz.py's shape: its command, stdin (bytes), environment and folder."""

    kind: str  # template, bytes, gitops
    args: tuple[str, ...]
    stdin: bytes | str | None = None
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    steps: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:  # fuzz_run sorts reproducers by size
        return self.stdin.decode("latin-1") if isinstance(self.stdin, bytes) else self.stdin or ""

    def reproducer(self) -> str:
        env = " ".join(f"{k}={json.dumps(v)}" for k, v in self.env.items())
        where = f"cd {self.cwd} && " if self.cwd else ""
        return f"# {self.kind}: {'; '.join(self.steps)}\n{where}{env} llmc {' '.join(self.args)} <<'EOF'\n{self.text}\nEOF"


# --------------------------------------------------------------------------- templates

SERVICE = """\
apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceService
metadata: {{name: t, namespace: ns}}
spec:
{refs}  model: {{uri: hf://org/model, name: org/model}}
  template:
    containers:
      - name: main
        args: [{arg}]
"""
CONFIG = """\
apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceServiceConfig
metadata: {{name: team, namespace: ns}}
spec:
  template:
    containers:
      - name: main
        env: [{{name: FROM_TEMPLATE, value: {arg}}}]
---
"""
SIZES = [0, 1, 2, 5, 20, 40, 64, 100, 101, 1000, 100_000, 10_000_000, 2**31, 2**63 - 1]
WIDTHS = [1, 10, 999, 100_000, 1_000_000, 999_999_999, 2**31, 2**63]


@st.composite
def _piece(draw, depth: int = 0) -> str:
    size = draw(st.sampled_from(SIZES))
    kind = draw(st.sampled_from(["recursion", "doubling", "nesting", "brackets", "width", "range", "text"]
                                + (["compose"] if depth < 2 else [])))
    if kind == "recursion":
        calls = "".join("{{ template `a` (printf `%sx` .) }}" for _ in range(draw(st.integers(1, 3))))
        return f"{{{{ define `a` }}}}{{{{ if lt (len .) {size} }}}}{calls}{{{{ end }}}}{{{{ end }}}}{{{{ template `a` `` }}}}"
    if kind == "doubling":
        verb = draw(st.sampled_from(["printf `%s%s` $s $s", "print $s $s", "js (print $s $s)", "html $s $s"]))
        return f"{{{{ $s := `xx` }}}}{{{{ range {min(size, 200)} }}}}{{{{ $s = {verb} }}}}{{{{ end }}}}{{{{ len $s }}}}"
    if kind == "nesting":
        levels = draw(st.integers(1, 120))
        return "{{ range 2 }}" * levels + "x" + "{{ end }}" * levels
    if kind == "brackets":
        open_, close = draw(st.sampled_from([("[", "]"), ("{", "}"), ('{"a":', "}")]))
        quote = "{{ printf `%c` 34 }}"
        return f"{quote},{{{{ range {size} }}}}{open_}{{{{ end }}}}{{{{ range {size} }}}}{close}{{{{ end }}}},{quote}"
    if kind == "width":
        width = draw(st.sampled_from(WIDTHS))
        verb = draw(st.sampled_from(["d", "s", "x", "f", "v", "q"]))
        arg = "1" if verb in "dxfv" else "`x`"
        return f"{{{{ range {size} }}}}{{{{ printf `%{width}{verb}` {arg} }}}}{{{{ end }}}}"
    if kind == "range":
        return f"{{{{ range {size} }}}}{{{{ range {size} }}}}{{{{ end }}}}{{{{ end }}}}"
    if kind == "text":
        return draw(st.sampled_from(["x", "{{ .ObjectMeta.Name }}", "{{", "}}", "{{ end }}", "\\", "'"]))
    return "".join(draw(st.lists(_piece(depth + 1), min_size=2, max_size=3)))


@st.composite
def template_cases(draw) -> HostileCase:
    template = "".join(draw(st.lists(_piece(), min_size=1, max_size=3)))
    arg = json.dumps(template)
    if draw(st.booleans()):
        text, place = SERVICE.format(refs="", arg=arg), "service"
    else:
        text, place = CONFIG.format(arg=arg) + SERVICE.format(refs="  baseRefs: [{name: team}]\n", arg="plain"), "baseRef"
    return HostileCase("template", ("render", "-f", "-"), text, steps=[f"{place}: {template[:300]}"])


# --------------------------------------------------------------------------- bytes

CORRUPTIONS: list[tuple[str, bytes]] = [
    ("lone high surrogate escape", b"\\ud800"), ("lone low surrogate escape", b"\\udc00"),
    ("reversed surrogate pair", b"\\udc00\\ud800"), ("raw surrogate bytes", "\ud800".encode("utf-8", "surrogatepass")),
    ("invalid start byte", b"\xff"), ("truncated sequence", b"\xc3"), ("overlong slash", b"\xc0\xaf"),
    ("continuation byte", b"\x80"), ("NUL", b"\x00"), ("escaped NUL", b"\\u0000"), ("BOM", b"\xef\xbb\xbf"),
    ("UTF-16 BOM", b"\xff\xfe"), ("4-byte over U+10FFFF", b"\xf4\x90\x80\x80"), ("DEL", b"\x7f"), ("C1 NEL", b"\xc2\x85"),
    ("line separator", "\u2028".encode()), ("escaped line separator", b"\\u2028"), ("backslash", b"\\"),
]


@cache
def _rendering_texts() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(label, text, args) of every fuzz base as YAML and, for one-document bases, as JSON."""
    out = []
    for base in bases():
        out.append((base.label, _dump(list(base.docs)), base.args))
        if len(base.docs) == 1:
            out.append((base.label + " (json)", json.dumps(base.docs[0], ensure_ascii=False, indent=1), base.args))
    return tuple(out)


@st.composite
def byte_cases(draw) -> HostileCase:
    label, text, args = draw(st.sampled_from(_rendering_texts()))
    data = text.encode()
    steps = [label]
    for _ in range(draw(st.integers(1, 3))):
        name, piece = draw(st.sampled_from(CORRUPTIONS))
        quotes = [i for i in range(len(data)) if data[i:i + 1] == b'"'] or [0]
        # inside a quoted string most of the time (escapes mean something there), anywhere otherwise
        at = draw(st.sampled_from(quotes)) + 1 if draw(st.booleans()) else draw(st.integers(0, len(data)))
        data = data[:at] + piece + data[at:]
        steps.append(f"{name} at byte {at}")
    return HostileCase("bytes", ("render", "-f", "-", *args), data, steps=steps)


# --------------------------------------------------------------------------- GitOps paths

SERVICE_FILE = SERVICE.format(refs="", arg="plain")
SECRET_YAML = f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: leak\ndata:\n  x: {MARKER}\n"


@cache
def world() -> dict[str, str]:
    """app/ (the working directory, with a service and symlinks out) beside outside/ (a secret never to read)."""
    root = Path(tempfile.mkdtemp(prefix="llmc-fuzz-gitops-"))
    app, outside = root / "app", root / "outside"
    (app / "sub").mkdir(parents=True)
    outside.mkdir()
    (app / "svc.yaml").write_text(SERVICE_FILE)
    (outside / "secret.yaml").write_text(SECRET_YAML)
    (outside / "secret.env").write_text(MARKER + "\n")
    (app / "link.yaml").symlink_to(outside / "secret.yaml")
    (app / "sub" / "out").symlink_to(outside)
    return {"app": str(app), "outside": str(outside), "root": str(root)}


def _hostile_paths() -> list[str]:
    w = world()
    return ["../outside/secret.yaml", "../outside", f"{w['outside']}/secret.yaml", w["outside"], "/", "/etc/passwd",
            "..", "../..", "link.yaml", "sub/out", "sub/out/secret.env", "sub/../../outside/secret.yaml", "-",
            "~/secret.yaml", "//etc/passwd", "./svc.yaml", "svc.yaml", "sub", "nope.yaml", "a\x00b", "x" * 5000,
            "/dev/zero", "/proc/self/environ", "svc.yaml/..", f"{w['root']}/app/../outside/secret.env", "runtimes"]


KEYS = {"files": "FILES", "presets": "PRESETS", "kserveConfig": "KSERVE_CONFIG", "presetSet": "PRESET_SET"}


@st.composite
def gitops_cases(draw) -> HostileCase:
    key = draw(st.sampled_from(sorted(KEYS)))
    paths = draw(st.lists(st.sampled_from(_hostile_paths()), min_size=1, max_size=2))
    value: str | list[str] = paths[0] if key in ("kserveConfig", "presetSet") else paths
    entry = draw(st.sampled_from(["argocd-generate", "krm", "kustomize-plugin"]))
    if entry == "argocd-generate" and any("\x00" in p for p in paths):
        entry = "krm"  # an environment variable cannot hold NUL
    app = world()["app"]
    steps = [f"{entry} {key}={value!r}"]
    if entry == "argocd-generate":
        text = value if isinstance(value, str) else ",".join(value)
        return HostileCase("gitops", ("argocd-generate",), env={f"ARGOCD_ENV_LLMC_{KEYS[key]}": text}, cwd=app, steps=steps)
    fn = {"apiVersion": "llmc.dev/v1alpha1", "kind": "LLMRender", "metadata": {"name": "r"}, key: value}
    if entry == "krm":
        rl = {"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": [], "functionConfig": fn}
        return HostileCase("gitops", ("krm",), json.dumps(rl), cwd=app, steps=steps)
    config = Path(world()["root"]) / f"llmrender-{abs(hash(json.dumps(fn)))}.json"  # outside app: not an input itself
    config.write_text(json.dumps(fn))
    return HostileCase("gitops", ("kustomize-plugin", str(config)), cwd=app, steps=steps)


# --------------------------------------------------------------------------- outcomes


def hostile_outcome(case: HostileCase | Case, slow: float = SLOW_SECONDS) -> Outcome:
    """`outcome` for the new classes: a refusal must be clean, no run may take over `slow` seconds or show MARKER."""
    start = time.perf_counter()
    if isinstance(case, Case):
        result = outcome(case)
    else:
        env = {k: v for k, v in os.environ.items() if k.startswith("ARGOCD_ENV_")}
        run = invoke(list(case.args), cwd=Path(case.cwd) if case.cwd else None, input=case.stdin,
                     env={**{k: None for k in env}, **case.env})
        if run.code == 3:
            result = Outcome("internal-error", _signature(run), run)
        elif MARKER in run.stdout or MARKER in run.stderr:
            result = Outcome("leak", f"{case.steps[0]}: the outside file's content reached the output", run)
        elif run.code == 0:
            result = Outcome("ok", "", run)
        elif run.code in (1, 2) and (run.stdout == "" or case.args[0] == "krm") and run.stderr.strip() \
                and "Traceback" not in run.stderr:
            result = Outcome("rejected", "", run)
        else:
            result = Outcome("bad-rejection", f"exit {run.code}, stdout {len(run.stdout)} chars, "
                                              f"stderr {run.stderr[:200]!r}", run)
    seconds = time.perf_counter() - start
    if seconds > slow and result.kind in ("ok", "rejected"):
        return Outcome("slow", f"{getattr(case, 'kind', 'mutation')} case took {seconds:.0f} s", result.run)
    return result


CLASSES = {"template": template_cases, "bytes": byte_cases, "gitops": gitops_cases}
