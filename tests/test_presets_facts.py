"""llmc's built-in preset sets carry the same facts as KServe's presets.

Everything except the container shell scripts must equal KServe's files after YAML parsing.
The scripts are llmc's own text; they must use the same template actions and, once rendered,
start vLLM with exactly the argv KServe's scripts produce. That is checked by rendering both
scripts the way the controller does (Go template actions evaluated on the JSON text of the
config, reference 01 §4.3) and running them in bash against a fake `vllm` that records its argv.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
PRESETS = ROOT / "presets"
SETS = {"kserve-master": "master", "kserve-v0.20": "v0.20.0"}
BASH = shutil.which("bash")

FieldPath = tuple  # keys and list indexes from the document root


# --------------------------------------------------------------------------- loading


def load(path: Path) -> dict:
    """Parsed once per run; callers must not modify the result."""
    return _load(str(path))


@functools.cache
def _load(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        return yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def ours_dir(set_name: str) -> Path:
    return PRESETS / set_name


def upstream_dir(upstream: Path, set_name: str) -> Path:
    return upstream / "kserve" / "presets" / SETS[set_name]


def walk(node, path=()):
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from walk(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, path + (i,))


def is_script_command(node) -> bool:
    return isinstance(node, list) and len(node) >= 3 and node[:2] == ["/bin/bash", "-c"] and isinstance(node[2], str)


def scripts(doc: dict) -> dict[FieldPath, str]:
    """Path of every `command` list of the form [/bin/bash, -c, <script>, ...] -> the script."""
    return {path: node[2] for path, node in walk(doc) if path and path[-1] == "command" and is_script_command(node)}


def without_scripts(doc: dict) -> dict:
    """The document with every script element replaced by a marker and metadata.namespace dropped."""
    doc = copy.deepcopy(doc)
    for path in scripts(doc):
        node = doc
        for key in path:
            node = node[key]
        node[2] = "<script>"
    doc.get("metadata", {}).pop("namespace", None)
    return doc


def preset_files(set_name: str) -> list[str]:
    return sorted(p.name for p in ours_dir(set_name).glob("*.yaml"))


def all_files() -> list[tuple[str, str]]:
    return [(s, f) for s in SETS for f in preset_files(s)]


def script_cases() -> list[tuple[str, str, FieldPath]]:
    cases = []
    for set_name, name in all_files():
        for path in scripts(load(ours_dir(set_name) / name)):
            cases.append((set_name, name, path))
    return cases


def case_id(case) -> str:
    set_name, name, path = case
    role = "worker" if "worker" in path else "template"
    if "prefill" in path:
        role = "prefill." + role
    if "tokenizer" in path:
        role = "tokenizer"
    return f"{set_name}/{name.removesuffix('.yaml')}/{role}"


SCRIPT_CASES = script_cases()


# --------------------------------------------------------------------------- the template actions

ACTION = re.compile(r"\{\{(- )?(.*?)( -)?\}\}", re.S)


def actions(text: str) -> set[str]:
    return {m.group(0) for m in ACTION.finditer(text)}


def render(script: str, values: dict) -> str:
    """Evaluate the script's template actions as the controller does: on the JSON text.

    `values` maps field chains and whole function calls to their Go results; function results
    are given in the form Go splices into the JSON text (raw, unescaped). `and`/`or`, `if`,
    `else`, `end` and trim markers (which eat spaces of the JSON text only) are evaluated here.
    Every action must be known to `values`, also in branches that are not taken.
    """
    text = json.dumps(script)
    parts: list[list] = []
    pos = 0
    for m in ACTION.finditer(text):
        before = text[pos : m.start()]
        if m.group(1):
            before = before.rstrip(" \t\r\n")
        parts.append(["text", before])
        parts.append(["action", m.group(2).strip(), bool(m.group(3))])
        pos = m.end()
    parts.append(["text", text[pos:]])
    for i, part in enumerate(parts):
        if part[0] == "action" and part[2]:
            parts[i + 1][1] = parts[i + 1][1].lstrip(" \t\r\n")

    def value(expr: str):
        if expr in values:
            return values[expr]
        words = expr.split()
        if words[0] in ("and", "or"):
            args = [int(w) if w.isdigit() else value(w) for w in words[1:]]
            for arg in args[:-1]:
                if bool(arg) == (words[0] == "or"):
                    return arg
            return args[-1]
        raise KeyError(f"no representative value for template action {expr!r}")

    out: list[str] = []
    stack: list[tuple[bool, bool]] = []
    active = True
    for part in parts:
        if part[0] == "text":
            if active:
                out.append(part[1])
            continue
        expr = part[1]
        if expr.startswith("if "):
            cond = bool(value(expr[3:]))
            stack.append((active, cond))
            active = active and cond
        elif expr == "else":
            parent, cond = stack[-1]
            active = parent and not cond
        elif expr == "end":
            active, _ = stack.pop()
        else:
            result = value(expr)
            if active:
                assert result is not None, f"{expr} would print <nil>"
                out.append(str(result).lower() if isinstance(result, bool) else str(result))
    assert not stack, "unbalanced if/end"
    return json.loads("".join(out))


def kv_transfer_config(cpu_bytes: int) -> str:
    """kvTransferConfig's result as spliced into the JSON text (reference 01 §4.2)."""
    cfg = {
        "kv_connector": "OffloadingConnector",
        "kv_role": "kv_both",
        "kv_connector_extra_config": {
            "spec_name": "TieringOffloadingSpec",
            "cpu_bytes_to_use": cpu_bytes,
            "eviction_policy": "lru",
            "secondary_tiers": [{"type": "fs", "root_dir": "/mnt/kv-cache-0"}],
        },
    }
    text = json.dumps(cfg, sort_keys=True, separators=(",", ":"))
    return "--kv-transfer-config '" + text.replace('"', '\\\\\\"') + "'"


KV_JSON = json.dumps(
    {
        "kv_connector": "OffloadingConnector",
        "kv_connector_extra_config": {
            "cpu_bytes_to_use": 10737418240,
            "eviction_policy": "lru",
            "secondary_tiers": [{"root_dir": "/mnt/kv-cache-0", "type": "fs"}],
            "spec_name": "TieringOffloadingSpec",
        },
        "kv_role": "kv_both",
    },
    sort_keys=True,
    separators=(",", ":"),
)

MODEL = "meta-llama/Llama-3.1-8B"

# A service with no parallelism, no KV offloading, no prefill, TLS off.
PLAIN = {
    ".Spec.Model.Name": MODEL,
    ".ObjectMeta.Namespace": "team-a",
    ".GlobalConfig.EnableTLS": False,
    ".Spec.Parallelism": None,
    ".Spec.Parallelism.Tensor": None,
    ".Spec.Parallelism.Expert": False,
    ".Spec.Parallelism.Data": None,
    ".Spec.Parallelism.DataLocal": None,
    ".Spec.Parallelism.DataRPCPort": None,
    ".Spec.Prefill": None,
    ".Spec.Prefill.Parallelism": None,
    ".Spec.Prefill.Parallelism.Tensor": None,
    ".Spec.Prefill.Parallelism.Expert": False,
    ".Spec.Prefill.Parallelism.Data": None,
    ".Spec.Prefill.Parallelism.DataLocal": None,
    ".Spec.Prefill.Parallelism.DataRPCPort": None,
    "shutdownTimeout .Spec.Template 15": 40,
    "shutdownTimeout .Spec.Worker 15": 40,
    "shutdownTimeout .Spec.Prefill.Template 15": 40,
    "shutdownTimeout .Spec.Prefill.Worker 15": 40,
    "shutdownTimeout nil 15": 40,
    "kvTransferConfig .Spec.KVCacheOffloading": "",
    "kvTransferConfig .Spec.Prefill.KVCacheOffloading": "",
}

# Everything set: tensor 2, expert, data 4 / dataLocal 2, RPC port, 120s grace, KV offloading, TLS on.
RICH = {
    **PLAIN,
    ".GlobalConfig.EnableTLS": True,
    ".Spec.Parallelism": True,
    ".Spec.Parallelism.Tensor": 2,
    ".Spec.Parallelism.Expert": True,
    ".Spec.Parallelism.Data": 4,
    ".Spec.Parallelism.DataLocal": 2,
    ".Spec.Parallelism.DataRPCPort": 6000,
    ".Spec.Prefill": True,
    ".Spec.Prefill.Parallelism": True,
    ".Spec.Prefill.Parallelism.Tensor": 4,
    ".Spec.Prefill.Parallelism.Expert": True,
    ".Spec.Prefill.Parallelism.Data": 8,
    ".Spec.Prefill.Parallelism.DataLocal": 4,
    ".Spec.Prefill.Parallelism.DataRPCPort": 7000,
    "shutdownTimeout .Spec.Template 15": 100,
    "shutdownTimeout .Spec.Worker 15": 100,
    "shutdownTimeout .Spec.Prefill.Template 15": 25,
    "shutdownTimeout .Spec.Prefill.Worker 15": 25,
    "kvTransferConfig .Spec.KVCacheOffloading": kv_transfer_config(10737418240),
    "kvTransferConfig .Spec.Prefill.KVCacheOffloading": kv_transfer_config(10737418240),
}

# Prefill present, parallelism only partly set, TLS off.
PARTIAL = {
    **RICH,
    ".GlobalConfig.EnableTLS": False,
    ".Spec.Parallelism.Expert": False,
    ".Spec.Parallelism.Tensor": None,
    ".Spec.Parallelism.DataRPCPort": None,
    ".Spec.Prefill.Parallelism.Expert": False,
    ".Spec.Prefill.Parallelism.Tensor": None,
    ".Spec.Prefill.Parallelism.DataRPCPort": None,
}

USER_KV = "--kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'"

# (id, template values, vllm --version output (None: the command fails), env (None: unset), container args)
SCENARIOS = [
    ("0.15-plain", PLAIN, "0.15.9", {}, []),
    ("0.16-tls-args", {**PLAIN, ".GlobalConfig.EnableTLS": True}, "0.16.0", {}, ["--max-model-len", "4096"]),
    ("0.17-rich", RICH, "0.17.9", {}, []),
    ("0.18-rich", RICH, "0.18.0", {"VLLM_ADDITIONAL_ARGS": "--enable-prefix-caching --gpu-memory-utilization 0.9"}, []),
    ("0.22-rich-kv", RICH, "0.22.0", {}, ["--max-num-seqs", "64"]),
    ("0.21-rich", RICH, "0.21.9", {}, ["--enable-lora"]),
    ("0.23-partial-kv", PARTIAL, "0.23.0", {"VLLM_ADDITIONAL_ARGS": "--enforce-eager"}, []),
    ("0.23-user-kv-env", RICH, "0.23.0", {"VLLM_ADDITIONAL_ARGS": USER_KV}, []),
    ("0.23-user-kv-args", RICH, "0.23.0", {}, ["--kv_transfer_config={\"kv_connector\":\"LMCacheConnectorV1\"}"]),
    ("noisy-version", RICH, "INFO 12-02 13:00:00 [__init__.py:1] loading plugins\nvllm 0.22.1", {}, []),
    ("dev-build", PARTIAL, "0.16.0rc2.dev12+g1234abc", {}, []),
    ("no-vllm-version", RICH, None, {}, []),
    ("garbage-version", RICH, "unknown", {}, []),
    ("no-worker-index", PARTIAL, "0.18.0", {"LWS_WORKER_INDEX": None}, []),
    ("leader-unresolvable", RICH, "0.23.0", {"LWS_LEADER_ADDRESS": "gone.example", "DP_ADDRESS_RESOLVE_ATTEMPTS": "3"}, []),
]

# --------------------------------------------------------------------------- running scripts

FAKE_VLLM = """#!/bin/sh
if [ "$1" = "--version" ]; then
  if [ -n "${FAKE_VLLM_VERSION+set}" ]; then printf '%s\\n' "$FAKE_VLLM_VERSION"; exit 0; fi
  echo "vllm: cannot import" >&2
  exit 1
fi
printf '%s\\0' "$@" > "$FAKE_VLLM_ARGV"
env > "$FAKE_VLLM_ENV"
"""

FAKE_GETENT = """#!/bin/sh
if [ "$1" = hosts ] && [ "$2" = leader.example ]; then
  echo "10.1.2.3        leader.example"
  exit 0
fi
exit 2
"""


RDMA_VARS = ("NCCL_", "NVSHMEM_", "UCX_")


@pytest.fixture(scope="module")
def fakebin(tmp_path_factory) -> Path:
    if BASH is None:
        pytest.skip("bash not available")
    folder = tmp_path_factory.mktemp("fakebin")
    for name, text in {"vllm": FAKE_VLLM, "getent": FAKE_GETENT, "sleep": "#!/bin/sh\nexit 0\n"}.items():
        (folder / name).write_text(text)
        (folder / name).chmod(0o755)
    return folder


def run_script(fakebin: Path, script: str, version, env: dict, args: list[str]) -> tuple[list[str], list[str], str]:
    """Run one rendered script; returns (vllm argv, exported RDMA env, log)."""
    with tempfile.TemporaryDirectory() as work:
        full_env = {
            "PATH": f"{fakebin}:/usr/local/bin:/usr/bin:/bin",
            "HOME": work,
            "LC_ALL": "C",
            "FAKE_VLLM_ARGV": f"{work}/argv",
            "FAKE_VLLM_ENV": f"{work}/env",
            "LWS_LEADER_ADDRESS": "leader.example",
            "LWS_WORKER_INDEX": "3",
            **env,
        }
        full_env = {k: v for k, v in full_env.items() if v is not None}  # None: variable not set
        if version is not None:
            full_env["FAKE_VLLM_VERSION"] = version
        proc = subprocess.run(
            [BASH, "-c", script, "--", *args], env=full_env, cwd=work, capture_output=True, text=True, timeout=60
        )
        log = proc.stdout + proc.stderr
        assert proc.returncode == 0, log
        argv_file = Path(work, "argv")
        assert argv_file.exists(), f"vllm was never started:\n{log}"
        argv = argv_file.read_bytes().decode().split("\0")[:-1]
        rdma = sorted(ln for ln in Path(work, "env").read_text().splitlines() if ln.startswith(RDMA_VARS))
        return argv, rdma, log


_RUNS: dict = {}  # (script, version, env, args) -> result; the sets share most scripts


def compare_runs(fakebin, pairs):
    """Run (ours, theirs, version, env, args) tuples in parallel; returns [(ours_result, theirs_result)]."""
    keys = []
    for ours, theirs, version, env, args in pairs:
        for script in (ours, theirs):
            keys.append((script, version, tuple(sorted(env.items())), tuple(args)))
    todo = list(dict.fromkeys(k for k in keys if k not in _RUNS))
    with ThreadPoolExecutor(max_workers=max(4, (os.cpu_count() or 2) * 2)) as pool:
        done = pool.map(lambda k: run_script(fakebin, k[0], k[1], dict(k[2]), list(k[3])), todo)
        _RUNS.update(zip(todo, done))
    return [(_RUNS[keys[i]], _RUNS[keys[i + 1]]) for i in range(0, len(keys), 2)]


def upstream_script(upstream: Path, set_name: str, name: str, path: FieldPath) -> str:
    return scripts(load(upstream_dir(upstream, set_name) / name))[path]


# --------------------------------------------------------------------------- the sets and their files


@pytest.mark.parametrize("set_name", SETS)
def test_same_preset_files_as_kserve(upstream: Path, set_name: str) -> None:
    ours = preset_files(set_name)
    theirs = sorted(p.name for p in upstream_dir(upstream, set_name).glob("*.yaml"))
    assert ours == theirs


def test_the_tokenizer_preset_exists_only_at_master() -> None:
    assert "config-llm-tokenizer.yaml" in preset_files("kserve-master")
    assert "config-llm-tokenizer.yaml" not in preset_files("kserve-v0.20")


@pytest.mark.parametrize(("set_name", "name"), all_files())
def test_a_real_config_named_like_kserves(upstream: Path, set_name: str, name: str) -> None:
    ours = load(ours_dir(set_name) / name)
    theirs = load(upstream_dir(upstream, set_name) / name)
    assert ours["apiVersion"] == "serving.kserve.io/v1alpha2"
    assert ours["kind"] == "LLMInferenceServiceConfig"
    assert set(ours) == {"apiVersion", "kind", "metadata", "spec"}
    assert ours["metadata"] == {"name": theirs["metadata"]["name"]}  # no namespace: llmc places it
    assert ours["metadata"]["name"] == "kserve-" + name.removesuffix(".yaml")


@pytest.mark.parametrize(("set_name", "name"), all_files())
def test_every_field_but_the_scripts_equals_kserves(upstream: Path, set_name: str, name: str) -> None:
    ours = load(ours_dir(set_name) / name)
    theirs = load(upstream_dir(upstream, set_name) / name)
    assert scripts(ours).keys() == scripts(theirs).keys()
    assert without_scripts(ours) == without_scripts(theirs)


@pytest.mark.parametrize("case", SCRIPT_CASES, ids=case_id)
def test_scripts_use_kserves_template_actions(upstream: Path, case) -> None:
    set_name, name, path = case
    ours = scripts(load(ours_dir(set_name) / name))[path]
    theirs = upstream_script(upstream, set_name, name, path)
    assert actions(ours) == actions(theirs)
    for action in actions(ours):
        assert '"' not in action, "a double quote inside an action cannot survive the JSON text"


def comment_lines(script: str) -> set[str]:
    return {line.strip() for line in script.splitlines() if line.strip().startswith("#")}


@pytest.mark.parametrize("case", SCRIPT_CASES, ids=case_id)
def test_scripts_are_written_for_llmc(upstream: Path, case) -> None:
    set_name, name, path = case
    ours = scripts(load(ours_dir(set_name) / name))[path]
    theirs = upstream_script(upstream, set_name, name, path)
    assert ours != theirs
    assert "\t" not in ours  # tabs would be JSON-escaped and change what trim markers eat
    assert not comment_lines(ours) & comment_lines(theirs)


@pytest.mark.parametrize("case", SCRIPT_CASES, ids=case_id)
def test_scripts_pass_bash_syntax_check(case) -> None:
    if BASH is None:
        pytest.skip("bash not available")
    set_name, name, path = case
    script = scripts(load(ours_dir(set_name) / name))[path]
    for text in (script, render(script, PLAIN), render(script, RICH)):
        proc = subprocess.run([BASH, "-n", "-c", text], capture_output=True, text=True, timeout=30)
        assert proc.returncode == 0, proc.stderr


# --------------------------------------------------------------------------- behaviour


@pytest.mark.parametrize("case", SCRIPT_CASES, ids=case_id)
def test_scripts_start_vllm_exactly_like_kserves(upstream: Path, fakebin: Path, case) -> None:
    set_name, name, path = case
    ours = scripts(load(ours_dir(set_name) / name))[path]
    theirs = upstream_script(upstream, set_name, name, path)
    pairs = [
        (render(ours, values), render(theirs, values), version, env, args)
        for _, values, version, env, args in SCENARIOS
    ]
    for (scenario, *_), ((our_argv, our_env, our_log), (their_argv, their_env, _)) in zip(
        SCENARIOS, compare_runs(fakebin, pairs)
    ):
        assert our_argv == their_argv, f"scenario {scenario}\n{our_log}"
        assert our_env == their_env == [], scenario
        assert our_argv[0] in ("serve", "launch"), scenario


def argv_of(fakebin, set_name, name, path, values, version, env=None, args=()):
    script = render(scripts(load(ours_dir(set_name) / name))[path], values)
    return run_script(fakebin, script, version, env or {}, list(args))[0]


TEMPLATE = ("spec", "template", "containers", 0, "command")
WORKER = ("spec", "worker", "containers", 0, "command")
TLS_FLAGS = ["--enable-ssl-refresh", "--ssl-certfile", "/var/run/kserve/tls/tls.crt", "--ssl-keyfile", "/var/run/kserve/tls/tls.key"]


@pytest.mark.parametrize("set_name", SETS)
def test_single_node_argv_from_the_reference(fakebin: Path, set_name: str) -> None:
    """Reference 01 §4.5 and Appendix A, independent of KServe's script text."""
    argv = argv_of(
        fakebin, set_name, "config-llm-template.yaml", TEMPLATE, RICH, "0.23.0",
        {"VLLM_ADDITIONAL_ARGS": "--enforce-eager"}, ["--max-model-len", "4096"],
    )
    assert argv == [
        "serve", "/mnt/models",
        "--served-model-name", MODEL, f"publishers/team-a/models/{MODEL}",
        "--port", "8000",
        "--disable-access-log-for-endpoints", "/health,/metrics,/ping",
        "--shutdown-timeout", "100",
        "--kv-transfer-config", KV_JSON,
        "--tensor-parallel-size", "2",
        *TLS_FLAGS,
        "--enforce-eager",
        "--max-model-len", "4096",
    ]  # fmt: skip
    old = argv_of(fakebin, set_name, "config-llm-template.yaml", TEMPLATE, PLAIN, "0.15.0")
    assert old == [
        "serve", "/mnt/models", "--served-model-name", MODEL, f"publishers/team-a/models/{MODEL}",
        "--port", "8000", "--disable-uvicorn-access-log",
    ]  # fmt: skip


@pytest.mark.parametrize("set_name", SETS)
def test_data_parallel_argv_from_the_reference(fakebin: Path, set_name: str) -> None:
    name = "config-llm-decode-worker-data-parallel.yaml"
    dp = ["--data-parallel-size", "4", "--data-parallel-size-local", "2", "--data-parallel-address", "10.1.2.3", "--data-parallel-rpc-port", "6000"]
    common = ["serve", "/mnt/models", "--served-model-name", MODEL, f"publishers/team-a/models/{MODEL}", "--port", "8001"]
    tail = ["--disable-access-log-for-endpoints", "/health,/metrics,/ping", "--shutdown-timeout", "100"]
    leader = argv_of(fakebin, set_name, name, TEMPLATE, RICH, "0.18.0", {"VLLM_API_SERVER_COUNT": "4"})
    assert leader == common + ["--api-server-count", "4", "--enable-expert-parallel", "--tensor-parallel-size", "2", *dp,
                               "--data-parallel-start-rank", "0", *tail, *TLS_FLAGS]  # fmt: skip
    worker = argv_of(fakebin, set_name, name, WORKER, RICH, "0.18.0")
    assert worker == common + ["--enable-expert-parallel", "--tensor-parallel-size", "2", *dp,
                               "--data-parallel-start-rank", "6", "--headless", *tail, *TLS_FLAGS]  # fmt: skip
    fallback = argv_of(fakebin, set_name, name, WORKER, PARTIAL, "0.15.0", {"LWS_LEADER_ADDRESS": "gone.example"})
    assert fallback[fallback.index("--data-parallel-address") + 1] == "gone.example"
    assert fallback[fallback.index("--data-parallel-rpc-port") + 1] == "5555"
    assert "--enable-expert-parallel" not in fallback and "--tensor-parallel-size" not in fallback


@pytest.mark.parametrize("set_name", SETS)
def test_prefill_advertises_one_name_and_skips_kv_when_user_has_one(fakebin: Path, set_name: str) -> None:
    path = ("spec", "prefill", "template", "containers", 0, "command")
    argv = argv_of(fakebin, set_name, "config-llm-prefill-template.yaml", path, RICH, "0.22.0", {"VLLM_ADDITIONAL_ARGS": USER_KV})
    assert argv[:6] == ["serve", "/mnt/models", "--served-model-name", MODEL, "--port", "8000"]
    assert argv.count("--kv-transfer-config") == 1
    assert argv[argv.index("--kv-transfer-config") + 1] == '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
    assert argv[argv.index("--shutdown-timeout") + 1] == "25"
    assert argv[argv.index("--tensor-parallel-size") + 1] == "4"


def test_tokenizer_render_server(fakebin: Path) -> None:
    path = ("spec", "router", "scheduler", "tokenizer", "template", "containers", 0, "command")
    name = "config-llm-tokenizer.yaml"
    assert argv_of(fakebin, "kserve-master", name, path, PLAIN, None) == ["launch", "render", "/mnt/models/base", "--port=8000"]
    assert argv_of(fakebin, "kserve-master", name, path, RICH, None) == [
        "launch", "render", "/mnt/models/base", "--port=8000", *TLS_FLAGS,
    ]  # fmt: skip


# --------------------------------------------------------------------------- RoCE / GID discovery

V4 = "0000:0000:0000:0000:0000:ffff:0a00:{:04x}"
V6 = "fe80:0000:0000:0000:0202:c9ff:fe00:{:04x}"
V1, V2 = "IB/RoCE v1", "RoCE v2"


def hca(state="4: ACTIVE", **gids):
    """gids: g<index>=(type, gid)"""
    return state, {int(k[1:]): v for k, v in gids.items()}


ANY = ...  # exported, with whatever value KServe's script picks (bash's hash order breaks this tie)


def gid(index) -> dict:
    return {"NCCL_IB_GID_INDEX": index, "NVSHMEM_IB_GID_INDEX": index, "UCX_IB_GID_INDEX": index}


def devices(*names) -> dict:
    ports = ",".join(f"{n}:1" for n in names)
    return {"NCCL_IB_HCA": ",".join(names), "NVSHMEM_HCA_LIST": ports, "UCX_NET_DEVICES": ports}


# (id, sysfs tree, env, every variable the vllm process sees afterwards)
ROCE_CASES = [
    (
        "majority-3",
        {
            "mlx5_0": hca(g0=(V1, V6.format(1)), g1=(V2, V6.format(1)), g2=(V1, V4.format(1)), g3=(V2, V4.format(1))),
            "mlx5_1": hca(g0=(V1, V6.format(2)), g3=(V2, V4.format(2))),
            "mlx5_2": hca(g1=(V2, V4.format(3))),
            "mlx5_3": hca(state="1: DOWN", g3=(V2, V4.format(4))),
            "mlx5_4": hca(g0=(V1, V4.format(5))),
            "mlx5_5": hca(g1=(V2, V6.format(6))),
            "ib0": hca(g3=(V2, V4.format(7))),
        },
        {},
        {**devices("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_5"), **gid("3")},
    ),
    (
        "tie-prefers-3",  # bash lists key 5 before key 3, so without the preference 5 would win
        {"mlx5_0": hca(g5=(V2, V4.format(1))), "mlx5_1": hca(g3=(V2, V4.format(2)))},
        {},
        {**devices("mlx5_0", "mlx5_1"), **gid("3")},
    ),
    (
        "majority-beats-3",  # only the first IPv4 GID of an HCA votes (mlx5_0's index 3 does not)
        {
            "mlx5_0": hca(g1=(V2, V4.format(1)), g3=(V2, V4.format(1))),
            "mlx5_1": hca(g1=(V2, V4.format(2))),
            "mlx5_2": hca(g3=(V2, V4.format(3))),
        },
        {},
        {**devices("mlx5_0", "mlx5_1", "mlx5_2"), **gid("1")},
    ),
    (
        "tie-without-3",
        {"mlx5_0": hca(g1=(V2, V4.format(1))), "mlx5_1": hca(g2=(V2, V4.format(2))), "mlx5_2": hca(g5=(V2, V4.format(3)))},
        {},
        {**devices("mlx5_0", "mlx5_1", "mlx5_2"), **gid(ANY)},
    ),
    (
        "environment-wins",
        {"mlx5_0": hca(g3=(V2, V4.format(1))), "mlx5_1": hca(g3=(V2, V4.format(2)))},
        {"NCCL_IB_GID_INDEX": "5", "UCX_NET_DEVICES": "mlx5_9:1", "NVSHMEM_IB_GID_INDEX": "7"},
        {**devices("mlx5_0", "mlx5_1"), "UCX_NET_DEVICES": "mlx5_9:1", **gid("5"), "NVSHMEM_IB_GID_INDEX": "7"},
    ),
    (
        "gid-filter-knob",  # KServe's KSERVE_INFER_IB_GID_INDEX_GREP picks the GID type, in both scripts
        {"mlx5_0": hca(g0=(V1, V4.format(1)), g3=(V2, V4.format(1))), "mlx5_1": hca(g0=(V1, V4.format(2)))},
        {"KSERVE_INFER_IB_GID_INDEX_GREP": "RoCE v1"},
        {**devices("mlx5_0", "mlx5_1"), **gid("0")},
    ),
    ("no-ipv4-gid", {"mlx5_0": hca(g1=(V2, V6.format(1)))}, {}, devices("mlx5_0")),
    (
        "nothing-active",
        {"mlx5_0": hca(state="1: DOWN", g3=(V2, V4.format(1))), "mlx5_1": hca(g0=(V1, V4.format(2)))},
        {"NCCL_IB_GID_INDEX": "3"},
        {"NCCL_IB_GID_INDEX": "3"},
    ),
]


def build_sysfs(root: Path, tree: dict) -> None:
    for name, (state, gids) in tree.items():
        port = root / "class" / "infiniband" / name / "ports" / "1"
        (port / "gid_attrs" / "types").mkdir(parents=True)
        (port / "gids").mkdir()
        (port / "state").write_text(state + "\n")
        for index, (kind, gid) in gids.items():
            (port / "gid_attrs" / "types" / str(index)).write_text(kind + "\n")
            (port / "gids" / str(index)).write_text(gid + "\n")


@pytest.fixture(scope="module")
def sysfs_trees(tmp_path_factory):
    """One fake sysfs per case, shared by both sets (so identical scripts run once)."""
    made: dict[str, Path] = {}

    def make(case_name: str, tree: dict) -> Path:
        if case_name not in made:
            made[case_name] = tmp_path_factory.mktemp(f"sysfs-{case_name}")
            build_sysfs(made[case_name], tree)
        return made[case_name]

    return make


@pytest.mark.parametrize("set_name", SETS)
@pytest.mark.parametrize("case", ROCE_CASES, ids=[c[0] for c in ROCE_CASES])
def test_roce_discovery_matches_kserve(upstream: Path, fakebin: Path, sysfs_trees, set_name: str, case) -> None:
    case_name, tree, env, expected = case
    tmp_path = sysfs_trees(case_name, tree)
    pairs = []
    for name, path in (("config-llm-template.yaml", TEMPLATE), ("config-llm-worker-data-parallel.yaml", WORKER)):
        ours = render(scripts(load(ours_dir(set_name) / name))[path], RICH)
        theirs = render(upstream_script(upstream, set_name, name, path), RICH)
        assert theirs.count("/sys/class/infiniband") > 0
        theirs = theirs.replace("/sys/class/infiniband", f"{tmp_path}/class/infiniband")
        run_env = {**env, "KSERVE_INFER_ROCE": "true", "LLMC_SYSFS_ROOT": str(tmp_path)}
        pairs.append((ours, theirs, "0.18.0", run_env, []))
    for (our_argv, our_env, log), (their_argv, their_env, _) in compare_runs(fakebin, pairs):
        assert our_env == their_env, log
        assert our_argv == their_argv
        exported = dict(line.split("=", 1) for line in our_env)
        assert exported.keys() == expected.keys(), log
        assert all(want is ANY or exported[k] == want for k, want in expected.items()), log


def test_roce_probe_is_off_unless_asked(fakebin: Path, tmp_path: Path) -> None:
    build_sysfs(tmp_path, {"mlx5_0": hca(g3=(V2, V4.format(1)))})
    script = render(scripts(load(ours_dir("kserve-master") / "config-llm-template.yaml"))[TEMPLATE], PLAIN)
    assert run_script(fakebin, script, "0.18.0", {"LLMC_SYSFS_ROOT": str(tmp_path)}, [])[1] == []


# --------------------------------------------------------------------------- the knobs a user can set

# llmc-only knobs, each documented in presets/README.md
OWN_KNOBS = {"LLMC_SYSFS_ROOT"}


def knobs(script: str) -> set[str]:
    """The environment variables a script reads from outside: read before the script first assigns
    them (an assignment from themselves, `X=${X:-default}`, does not count). Comments are ignored."""
    code = "\n".join(line for line in script.splitlines() if not line.lstrip().startswith("#"))
    first_read: dict[str, int] = {}
    for m in re.finditer(r"\$\{?([A-Z_][A-Z0-9_]*)", code):
        first_read.setdefault(m.group(1), m.start())
    first_set: dict[str, int] = {}
    for m in re.finditer(r"(?:^|[\s;(])(?:export\s+|local\s+|declare\s+-\w+\s+)?([A-Z_][A-Z0-9_]*)(?:\[[^\]]*\])?=(\S*)",
                         code, re.M):
        if not re.match(r"[\"']?\$\{" + m.group(1) + r"[:}-]", m.group(2)):
            first_set.setdefault(m.group(1), m.start(1))
    for m in re.finditer(r"\bfor\s+([A-Z_][A-Z0-9_]*)\s+in\b", code):
        first_set.setdefault(m.group(1), m.start(1))
    return {name for name, at in first_read.items() if at < first_set.get(name, len(code))}


@pytest.mark.parametrize("set_name", SETS)
def test_scripts_read_the_same_knobs_as_kserve(upstream: Path, set_name: str) -> None:
    for name in preset_files(set_name):
        ours = scripts(load(ours_dir(set_name) / name))
        for path, script in ours.items():
            theirs = knobs(upstream_script(upstream, set_name, name, path))
            assert knobs(script) - OWN_KNOBS == theirs, (name, path)
    assert "KSERVE_INFER_IB_GID_INDEX_GREP" in knobs(scripts(load(ours_dir(set_name) / "config-llm-template.yaml"))[TEMPLATE])
