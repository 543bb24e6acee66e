"""Render one input with KServe's own controller (the oracle) and with llmc, and list how the objects differ.

The oracle is `../shared/oracle/kserve-oracle` (see its README): KServe's unmodified `llmisvc`
reconciler against a fake API client, run with `--converge`. Both sides get the same input file,
in which every LLMInferenceService carries a `metadata.uid` (the oracle writes ownerReferences,
llmc does with `--owner-references`) and the CRD defaults the API server would apply (`admitted`),
the same KServe presets and the same
`inferenceservice-config` ConfigMap.

The comparison is the oracle's own `compare.py`, imported from ../shared at test time (never copied
into the project): its normalizations are what the API server or Go's serializer does, not
controller behaviour (docs/differences.md, "How fidelity is tested"). Objects the input refers to
but does not define (Gateways, HTTPRoutes, ServiceAccounts, an InferencePool) come from the
oracle's `environment.py`, as the README says.

Oracle runs are processes, `jobs` at a time (one service costs it about 2 s of CPU, mostly
generating the TLS key each pass); llmc renders in this process meanwhile, one input at a time,
since it redirects stdout.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import copy
import importlib.util
import io
import json
import os
import subprocess
import tempfile
import uuid
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
ORACLE_DIR = SHARED / "oracle"
ORACLE = ORACLE_DIR / "kserve-oracle"
KSERVE = SHARED / "upstream" / "kserve"
PRESETS = KSERVE / "presets" / "master"
ISVC_CONFIG = KSERVE / "config" / "inferenceservice-configmap.yaml"
STORAGE_CONTAINERS = KSERVE / "config" / "storagecontainer.yaml"
NAMESPACE = "demo"
ORACLE_TIMEOUT = 300  # seconds for one oracle run; a healthy one takes a few
NO_ORACLE = f"needs KServe's controller as an offline oracle at {ORACLE} (absent in this clone; see ../shared/oracle/README.md)"

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):
    """Writes a value that occurs twice out twice: llmc refuses YAML anchors and aliases."""

    def ignore_aliases(self, data) -> bool:
        return True


def available() -> bool:
    return ORACLE.is_file() and (ORACLE_DIR / "compare.py").is_file() and PRESETS.is_dir()


@cache
def _shared_module(name: str):
    """compare.py or environment.py of ../shared/oracle, imported from where they are."""
    spec = importlib.util.spec_from_file_location(f"oracle_{name}", ORACLE_DIR / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def _crds() -> dict:
    """(group, kind, version) -> schema of every pinned CRD under ../shared/upstream, as compare.py's
    `load_crd_schemas` finds them (N3 defaults objects with them), read once per process with libyaml
    (compare.py's pure-Python reading takes seconds)."""
    out = {}
    for path in sorted((SHARED / "upstream").rglob("*.y*ml")):
        text = path.read_text(errors="replace")
        if "CustomResourceDefinition" not in text:
            continue
        try:
            docs = list(yaml.load_all(text, Loader=_Loader))
        except yaml.YAMLError:
            continue
        for doc in docs:
            if not isinstance(doc, dict) or doc.get("kind") != "CustomResourceDefinition":
                continue
            spec = doc.get("spec", {})
            group, kind = spec.get("group"), spec.get("names", {}).get("kind")
            for version in spec.get("versions", []) or []:
                schema = (version.get("schema") or {}).get("openAPIV3Schema")
                if schema:
                    out[(group, kind, version.get("name"))] = schema
    return out


@dataclass(frozen=True)
class Case:
    """One input: the documents given to both sides with `-f`, and the options each side gets on top of the defaults."""

    id: str
    documents: tuple
    llmc_args: tuple[str, ...] = ()
    oracle_args: tuple[str, ...] = ()


@dataclass(frozen=True)
class Difference:
    kind: str
    namespace: str
    name: str
    path: str
    oracle: str
    llmc: str

    def __str__(self) -> str:
        return f"{self.kind}/{self.namespace}/{self.name} {self.path}: oracle={self.oracle} llmc={self.llmc}"


@dataclass
class Outcome:
    """What the two sides did with one case; an error is the side's exit status and stderr."""

    case: Case
    oracle_error: str | None = None
    llmc_error: str | None = None
    differences: list[Difference] = field(default_factory=list)
    oracle_note: str = ""  # the oracle's stderr on success (e.g. "every service is stopped")


def admitted(documents) -> list[dict]:
    """The documents as the API server stores them: the CRD schemas' defaults applied to every
    LLMInferenceService and LLMInferenceServiceConfig, and a stable `metadata.uid` on every service
    that has none.

    The oracle's fake client applies no CRD defaults to its inputs, but a cluster does before the
    controller reads them (e.g. kvCacheOffloading.evictionPolicy "lru", scaling.wva.variantCost
    "10.0"); llmc applies them itself, so this changes nothing on its side.
    """
    compare = _shared_module("compare")
    out = []
    for doc in documents:
        if isinstance(doc, dict) and doc.get("kind") in ("LLMInferenceService", "LLMInferenceServiceConfig"):
            group, version = compare.split_api(str(doc.get("apiVersion", "")))
            schema = _crds().get((group, doc["kind"], version))
            doc = compare.apply_defaults(copy.deepcopy(doc), schema) if schema else copy.deepcopy(doc)
            if doc["kind"] == "LLMInferenceService":
                md = doc.setdefault("metadata", {})
                key = f"llmc-oracle/{md.get('namespace', NAMESPACE)}/{md.get('name')}"
                md.setdefault("uid", str(uuid.uuid5(uuid.NAMESPACE_URL, key)))
        out.append(doc)
    return out


def environment(documents, oracle_args=()) -> list[dict]:
    """Pre-existing objects the input refers to (environment.py), with services defaulted to NAMESPACE,
    plus the Gateway an --isvc-config names in kserveIngressGateway (the cluster's; llmc assumes it)."""
    env = _shared_module("environment")
    env.DEFAULT_NS = NAMESPACE
    extra = env.environment(list(documents))
    args = list(oracle_args)
    if "--isvc-config" in args:
        config = yaml.load(Path(args[args.index("--isvc-config") + 1]).read_text(), Loader=_Loader) or {}
        gateway = json.loads((config.get("data") or {}).get("ingress") or "{}").get("kserveIngressGateway", "")
        namespace, _, name = gateway.partition("/")
        if name and (namespace, name) != ("kserve", "kserve-ingress-gateway"):
            extra.append({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
                          "metadata": {"name": name, "namespace": namespace},
                          "spec": {"gatewayClassName": "istio", "listeners": [
                              {"name": "http", "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "All"}}}]}})
    return extra


def passed_through(documents) -> set[tuple[str, str, str]]:
    """(kind, namespace as written, name) of the input objects llmc passes through unchanged (a ConfigMap,
    a Secret): they are the user's, which the controller finds in the cluster and does not create."""
    return {(d["kind"], (d.get("metadata") or {}).get("namespace") or "", (d.get("metadata") or {}).get("name", ""))
            for d in documents if isinstance(d, dict) and not str(d.get("apiVersion", "")).startswith("serving.kserve.io/")}


def _dump(documents, path: Path) -> None:
    path.write_text(yaml.dump_all(list(documents), Dumper=_Dumper, sort_keys=False))


def _oracle_command(case: Case, input_file: Path, extra_file: Path | None) -> list[str]:
    cmd = [str(ORACLE), "--converge", "-n", NAMESPACE, "-f", str(input_file), "--presets", str(PRESETS),
           "--isvc-config", str(ISVC_CONFIG), "--extra", str(STORAGE_CONTAINERS)]
    if extra_file is not None:
        cmd += ["--extra", str(extra_file)]
    return cmd + list(case.oracle_args)


def _run_oracle(cmd: list[str]) -> tuple[int, str, str]:
    # One Go scheduler thread: the runs are already parallel, and a second thread only adds GC work.
    env = {**os.environ, "GOMAXPROCS": "1"}
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=ORACLE_TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        return -1, "", f"oracle timed out after {ORACLE_TIMEOUT}s"
    return proc.returncode, proc.stdout, proc.stderr


def llmc_args(case: Case, input_file: Path) -> list[str]:
    return ["render", "-q", "--presets", str(PRESETS), "--kserve-config", str(ISVC_CONFIG), "-n", NAMESPACE,
            "--owner-references", "-f", str(input_file), *case.llmc_args]


def run_llmc(argv: list[str]) -> tuple[int, str, str]:
    """`llmc ARGV` in this process (the console script's own fast path), as (exit status, stdout, stderr)."""
    from llmc.cli.main import render_options
    from llmc.cli.render import run

    options = render_options(argv, {})
    if options is None:
        raise ValueError(f"not a plain llmc render command line: {argv}")
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            run(**options)
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
    return code, out.getvalue(), err.getvalue()


def _keyed(text: str, side: str) -> dict:
    """(group, kind, namespace, name) -> normalized object, as compare.py's `load`."""
    compare = _shared_module("compare")
    out = {}
    for doc in yaml.load_all(text, Loader=_Loader):
        if not doc:
            continue
        if not isinstance(doc, dict) or "kind" not in doc:
            raise ValueError(f"{side} printed something that is not a Kubernetes object: {str(doc)[:80]}")
        doc = compare.normalize(doc, _crds())
        md = doc.get("metadata", {})
        group, _ = compare.split_api(doc.get("apiVersion", ""))
        key = (group, doc["kind"], md.get("namespace", "") or "", md.get("name", ""))
        if key in out:
            raise ValueError(f"{side} printed {key} twice")
        out[key] = doc
    return out


def differences(oracle_yaml: str, llmc_yaml: str) -> list[Difference]:
    """compare.py's differences between the two object streams, after its normalizations."""
    compare = _shared_module("compare")
    oracle, llmc = _keyed(oracle_yaml, "the oracle"), _keyed(llmc_yaml, "llmc")
    by_id = {compare.obj_id(k): k for k in (*oracle, *llmc)}
    found = []
    for oid, path, ours, theirs in compare.compare(oracle, llmc):
        _, kind, ns, name = by_id[oid]
        found.append(Difference(kind, ns, name, path, str(ours), str(theirs)))
    return found


def run_cases(cases, jobs: int = 2) -> dict[str, Outcome]:
    """Every case through both sides; the oracle runs `jobs` processes at a time."""
    cases = list(cases)
    outcomes: dict[str, Outcome] = {}
    with tempfile.TemporaryDirectory(prefix="llmc-oracle-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        futures = {}
        for i, case in enumerate(cases):
            folder = Path(tmp) / f"{i:05d}"
            folder.mkdir()
            docs = admitted(case.documents)
            input_file = folder / "input.yaml"
            _dump(docs, input_file)
            extra = environment(docs, case.oracle_args)
            extra_file = None
            if extra:
                extra_file = folder / "extra.yaml"
                _dump(extra, extra_file)
            futures[case.id] = (pool.submit(_run_oracle, _oracle_command(case, input_file, extra_file)), input_file)
        for case in cases:  # llmc renders here while the oracle processes run
            future, input_file = futures[case.id]
            outcomes[case.id] = Outcome(case)
            code, out, err = run_llmc(llmc_args(case, input_file))
            futures[case.id] = (future, input_file, (code, out, err))
        for case in cases:
            future, input_file, (code, llmc_out, llmc_err) = futures[case.id]
            outcome = outcomes[case.id]
            if code:  # messages name the input by its case, not by the temporary file
                outcome.llmc_error = f"exit {code}: {llmc_err.strip()}".replace(str(input_file), case.id)
            ocode, oracle_out, oracle_err = future.result()
            oracle_err = oracle_err.replace(str(input_file), case.id)
            if ocode:
                outcome.oracle_error = f"exit {ocode}: {_oracle_message(oracle_err)}"
            else:
                outcome.oracle_note = _oracle_message(oracle_err)
            if not code and not ocode:
                mine = passed_through(case.documents)
                outcome.differences = [d for d in differences(oracle_out, llmc_out)
                                       if not (d.oracle == "<absent>" and (d.kind, d.namespace, d.name) in mine)]
    return outcomes


def _oracle_message(stderr: str) -> str:
    """The oracle's own lines (`oracle: ...`), without its event log and service status."""
    lines = [line for line in stderr.splitlines() if line.startswith(("oracle:", "Error", "error"))]
    return "\n".join(lines or stderr.strip().splitlines()[-5:])
