"""Rendered objects are objects a cluster accepts: every golden case, example and upstream sample.

Rendering goes through the CLI (`typer.testing.CliRunner`), as a user or CI runs it,
and the YAML stream is read back with PyYAML's YAML 1.1 loader before validation,
so what is checked is what kubectl would send.
"""

from __future__ import annotations

import copy
import json
import os
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from llmc.cli.app import app
from llmc.core.errors import ErrorList, LlmcError
from llmc.check.api_rules import (
    DEFAULT_KUBE_VERSION, available_versions, check, dns1035_label_errors, object_errors, parse_version, skipped,
    validate_objects,
)

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yaml"))
SAMPLES = ROOT.parent / "shared" / "upstream" / "kserve" / "samples"


def golden_args(case: Path) -> list[str]:
    return [line.strip() for line in (case / "args").read_text().splitlines() if line.strip() and not line.startswith("#")]


@dataclass
class Run:
    """One llmc run: exit code, stdout, stderr, and the exception of an internal error."""

    code: int
    stdout: str
    stderr: str
    exception: BaseException | None = None


def invoke(args: list[str], cwd: Path | None = None, input: str | None = None, env: dict | None = None) -> Run:
    """Run llmc in-process as tests/test_golden.py does.

    An exception escaping the command is what `llmc.cli.main.main` reports as an
    internal error with exit 3; it is returned as such, with its traceback.
    """
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, args, input=input, env=env)
    finally:
        os.chdir(old)
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        trace = "".join(traceback.format_exception(exc))
        return Run(3, result.stdout, f"{result.stderr}llmc: internal error: {type(exc).__name__}: {exc}\n{trace}", exc)
    return Run(result.exit_code, result.stdout, result.stderr)


def assert_rejected(run: Run) -> None:
    """The contract for bad input: exit 1 or 2, a message on stderr, nothing on stdout, no traceback."""
    assert run.code in (1, 2), f"exit {run.code}: {run.stderr}"
    assert run.stdout == ""
    assert run.stderr.strip()
    assert "Traceback" not in run.stderr


def kube_version_of(args: list[str]) -> str:
    return args[args.index("--kube-version") + 1] if "--kube-version" in args else DEFAULT_KUBE_VERSION


def assert_valid_stream(stdout: str, kube_version: str = DEFAULT_KUBE_VERSION, allow_empty: bool = False) -> list[dict]:
    """The stream parses as YAML 1.1, holds mappings only, and every object validates."""
    objects = list(yaml.safe_load_all(stdout))
    assert objects or allow_empty
    assert all(isinstance(o, dict) for o in objects)
    errors = validate_objects(objects, kube_version)
    assert errors == [], "\n".join(errors)
    return objects


# The `render` cases (others, e.g. `convert`, write llmc's input kinds, not cluster objects).
GOLDEN_CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "args").is_file() and golden_args(p)[:1] == ["render"])


@pytest.mark.parametrize("name", GOLDEN_CASES)
def test_golden_output_is_valid(name: str) -> None:
    case = GOLDEN / name
    args = golden_args(case)
    result = invoke(args, case)
    if result.code != 0:
        assert_rejected(result)
        return
    if not result.stdout and "serving.kserve.io/stop" in (case / "input.yaml").read_text():
        return  # a stopped service renders nothing
    assert_valid_stream(result.stdout, kube_version_of(args))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_example_output_is_valid(example: Path) -> None:
    result = invoke(["render", "-f", str(example)])
    assert result.code == 0, result.stderr
    assert_valid_stream(result.stdout)


def _sample_runs() -> list[tuple[str, list[str]]]:
    """Each sample file alone; the e2e service files also with the configs of their folder."""
    if not SAMPLES.is_dir():
        return []
    runs = [(str(p.relative_to(SAMPLES)), ["-f", str(p)]) for p in sorted(SAMPLES.rglob("*.yaml"))]
    e2e = SAMPLES / "e2e-gpt-oss"
    configs = [a for c in sorted(e2e.glob("llmisvc_config_*.yaml")) for a in ("-f", str(c))]
    for svc in sorted(e2e.glob("inference_*.yaml")):
        runs.append((f"{svc.relative_to(SAMPLES)}+configs", ["-f", str(svc), *configs]))
    return runs


SAMPLE_RUNS = _sample_runs()


@pytest.mark.skipif(not SAMPLE_RUNS, reason="upstream samples not found")
def test_upstream_samples_that_render_are_valid() -> None:
    rendered = 0
    for label, files in SAMPLE_RUNS:
        result = invoke(["render", *files])
        if result.code == 0:  # a file of configs only renders nothing
            rendered += bool(assert_valid_stream(result.stdout, allow_empty=True))
        else:
            assert_rejected(result)
    assert rendered >= 20  # most samples render; a drop means a regression elsewhere


@pytest.mark.parametrize("version", ["1.34", "1.37"])
def test_every_example_valid_across_versions(version: str) -> None:
    for example in EXAMPLES:
        result = invoke(["render", "-f", str(example), "--kube-version", version])
        assert result.code == 0, result.stderr
        assert_valid_stream(result.stdout, version)


# --------------------------------------------------------------------------- the validator itself


@pytest.fixture(scope="module")
def objects() -> list[dict]:
    """A rendered service with a Deployment, Services, RBAC, ResourceClaimTemplate, InferencePool, HTTPRoute."""
    result = invoke(["render", "-f", str(ROOT / "docs" / "examples" / "mistral-dra.yaml")])
    assert result.code == 0, result.stderr
    return list(yaml.safe_load_all(result.stdout))


def _first(objs: list[dict], kind: str) -> dict:
    return next(o for o in objs if o["kind"] == kind)


def _errors_after(objects: list[dict], kind: str, change) -> list[str]:
    objs = copy.deepcopy(objects)
    change(_first(objs, kind))
    return validate_objects(objs, "1.34")


def _containers(obj: dict) -> list[dict]:
    return obj["spec"]["template"]["spec"]["containers"]


BROKEN = [
    ("Deployment", lambda o: _containers(o)[0].update(bogus=1),
     "spec.template.spec.containers[0].bogus: unknown field"),
    ("Deployment", lambda o: _containers(o)[0]["ports"].append({"containerPort": "8000"}),
     'spec.template.spec.containers[0].ports[1].containerPort: Invalid value: "8000": must be of type integer'),
    ("Deployment", lambda o: o["spec"].update(replicas="2"),
     'spec.replicas: Invalid value: "2": must be of type integer'),
    ("Deployment", lambda o: _containers(o)[0]["ports"].append({"containerPort": 9, "name": "much-too-long-name"}),
     "spec.template.spec.containers[0].ports[1].name: Invalid value: \"much-too-long-name\": must be no more than 15"),
    ("Deployment", lambda o: _containers(o)[0]["volumeMounts"].append({"name": "nope", "mountPath": "/nope"}),
     "volumeMounts[", ),
    ("Deployment", lambda o: _containers(o).append(copy.deepcopy(_containers(o)[0])),
     "spec.template.spec.containers[1].name: Duplicate value"),
    ("Deployment", lambda o: o["spec"]["template"]["metadata"]["labels"].clear(),
     "spec.template.metadata.labels: Invalid value: selector does not match template labels"),
    ("Deployment", lambda o: o["metadata"]["labels"].update({"app": "x" * 64}),
     'metadata.labels.app: Invalid value: "xxxx'),
    ("Deployment", lambda o: o["metadata"].update(name="Upper"),
     'metadata.name: Invalid value: "Upper": a lowercase RFC 1123 subdomain'),
    ("Deployment", lambda o: o["metadata"].pop("namespace"), "metadata.namespace: Required value"),
    ("Deployment", lambda o: _containers(o)[0].setdefault("args", []).append("x" * 1600 * 1024),
     "(object): Too long: the object is "),
    ("Deployment", lambda o: _containers(o)[0].setdefault("env", []).append({"name": "A=B", "value": "1"}),
     "env[", ),
    ("Deployment", lambda o: _containers(o)[0].setdefault("env", []).append({"name": "", "value": "1"}),
     "].name: Required value"),
    ("Deployment", lambda o: _containers(o)[0].setdefault("env", []).append(
        {"name": "X", "value": "1", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}),
     "].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty"),
    ("Deployment", lambda o: _containers(o)[0].setdefault("env", []).append(
        {"name": "X", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}, "secretKeyRef": {"name": "s", "key": "k"}}}),
     "].valueFrom: Invalid value: \"\": may not have more than one field specified at a time"),
    ("Deployment", lambda o: _containers(o)[0].update(resources={"requests": {"cpu": "-1"}}),
     'resources.requests.cpu: Invalid value: "-1": must be greater than or equal to 0'),
    ("Deployment", lambda o: _containers(o)[0].update(resources={"requests": {"memory": "2Gi"}, "limits": {"memory": "1Gi"}}),
     'resources.requests.memory: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi'),
    ("Deployment", lambda o: _containers(o)[0].pop("image"), "spec.template.spec.containers[0].image: Required value"),
    ("Deployment", lambda o: _containers(o)[0].update(securityContext={"privileged": True, "allowPrivilegeEscalation": False}),
     "containers[0].securityContext: Invalid value: cannot set `allowPrivilegeEscalation` to false and `privileged` to true"),
    ("Deployment", lambda o: _containers(o)[0].update(securityContext={"allowPrivilegeEscalation": False,
                                                                      "capabilities": {"add": ["CAP_SYS_ADMIN"]}}),
     "`capabilities.Add` CAP_SYS_ADMIN"),
    ("Service", lambda o: o["metadata"].update(name="1-starts-with-digit"),
     'metadata.name: Invalid value: "1-starts-with-digit": a DNS-1035 label'),
    ("Service", lambda o: o["spec"]["ports"][0].update(port="http"),
     'spec.ports[0].port: Invalid value: "http": must be of type integer'),
    ("Service", lambda o: o["spec"]["ports"][0].update(targetPort=True),
     "spec.ports[0].targetPort: Invalid value: true: must be of type string or integer"),
    ("ResourceClaimTemplate", lambda o: o["spec"]["spec"].update(extra={}), "spec.spec.extra: unknown field"),
    ("InferencePool", lambda o: o["spec"].update(targetPorts=[{"number": 8000}, {"number": 8000}]),
     "spec.targetPorts: Invalid value: [{\"number\": 8000}, {\"number\": 8000}]: port number must be unique"),
    ("InferencePool", lambda o: o["spec"].update(unknownField=1), "spec.unknownField: unknown field"),
    ("InferencePool", lambda o: o["metadata"].update(labels={"ok": 5}),
     "metadata.labels.ok: Invalid value: 5: must be of type string"),
    ("HTTPRoute", lambda o: o["spec"]["parentRefs"][0].update(name=None),
     "spec.parentRefs[0].name: Invalid value: null: must be of type string"),
    ("HTTPRoute", lambda o: o["spec"]["rules"][0].pop("backendRefs") and o["spec"]["rules"][0].update(extra=1),
     "spec.rules[0].extra: unknown field"),
]


@pytest.mark.parametrize("kind,change,expected", BROKEN, ids=[f"{k}-{e[:40]}" for k, _, e in BROKEN])
def test_broken_object_rejected_with_path(objects: list[dict], kind: str, change, expected: str) -> None:
    errors = _errors_after(objects, kind, change)
    assert errors, f"{expected!r} not reported"
    namespace = _first(objects, kind)["metadata"]["namespace"]
    assert all(e.startswith(f"{kind} ") for e in errors), "\n".join(errors)
    assert any(expected in e and (namespace in e.split(":")[0] or "metadata.namespace" in e) for e in errors), \
        "\n".join(errors)


def test_untouched_objects_are_valid(objects: list[dict]) -> None:
    assert validate_objects(objects, "1.34") == []


def test_lws_list_map_keys_are_unique() -> None:
    result = invoke(["render", "-f", str(ROOT / "docs" / "examples" / "deepseek-dp-multinode.yaml")])
    objs = list(yaml.safe_load_all(result.stdout))
    lws = _first(objs, "LeaderWorkerSet")
    assert validate_objects([lws], "1.34") == []
    worker = lws["spec"]["leaderWorkerTemplate"]["workerTemplate"]["spec"]["containers"][0]
    worker.setdefault("env", []).extend([{"name": "DUP", "value": "a"}, {"name": "DUP", "value": "b"}])
    errors = validate_objects([lws], "1.34")
    assert any("spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].env[" in e and "Duplicate value" in e
               for e in errors), errors


def test_dra_v1_needs_kubernetes_134(objects: list[dict]) -> None:
    claim = _first(objects, "ResourceClaimTemplate")
    assert validate_objects([claim], "1.34") == []
    errors = validate_objects([claim], "1.33")
    assert errors and "no schema for ResourceClaimTemplate resource.k8s.io/v1 in Kubernetes 1.33" in errors[0]
    with pytest.raises(ErrorList) as info:
        check([claim], "1.33")
    assert "--dra-api" in info.value.errors[0].hint


def test_unknown_kind_is_an_error_and_scaledobject_is_skipped() -> None:
    unknown = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "d"}}
    scaled = {"apiVersion": "keda.sh/v1alpha1", "kind": "ScaledObject", "metadata": {"name": "s", "namespace": "d"},
              "spec": {"anything": True}}
    errors = validate_objects([unknown, scaled], "1.34")
    assert len(errors) == 1 and errors[0].startswith("Widget d/w: (object): no schema")
    assert skipped([unknown, scaled]) == ["ScaledObject d/s: KEDA's CRD is not bundled with llmc; ScaledObject is not checked"]


def test_check_raises_error_list(objects: list[dict]) -> None:
    check(objects, "v1.34.2")
    broken = copy.deepcopy(objects)
    _first(broken, "Deployment")["spec"]["replicas"] = "two"
    with pytest.raises(ErrorList) as info:
        check(broken, "1.34")
    assert [e.exit_code for e in info.value.errors] == [1]
    assert "spec.replicas" in info.value.errors[0].message


def test_without_a_version_only_api_server_rules_run(objects: list[dict]) -> None:
    broken = copy.deepcopy(objects)
    deployment = _first(broken, "Deployment")
    deployment["spec"]["replicas"] = "two"  # a schema error
    _containers(deployment)[0]["name"] = "Main"  # an API server rule
    errors = validate_objects(broken, None)
    assert len(errors) == 1 and "containers[0].name: Invalid value: \"Main\"" in errors[0]
    assert validate_objects(objects, None) == []
    with pytest.raises(ErrorList) as info:
        check(broken, None)
    assert info.value.errors[0].message.startswith("the API server would reject Deployment ")


@pytest.mark.parametrize("text,expected", [("1.34", (1, 34)), ("v1.37.1", (1, 37)), ("1.30.0-gke.100", (1, 30))])
def test_parse_version(text: str, expected: tuple[int, int]) -> None:
    assert parse_version(text) == expected


@pytest.mark.parametrize("text", ["1.24", "1.99", "latest", "1"])
def test_unsupported_version_is_a_usage_error(text: str) -> None:
    with pytest.raises(LlmcError) as info:
        validate_objects([], text)
    assert info.value.exit_code == 2


def test_bundled_versions_cover_134_to_137() -> None:
    assert {(1, 34), (1, 35), (1, 36), (1, 37)} <= set(available_versions())


# apimachinery's messages, word for word (util/validation: IsDNS1035Label, IsValidPortName, RegexError)
DNS1035 = ("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
           "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
           "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')")
CHARSET, LETTER = "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)", "must contain at least one letter (a-z)"
HYPHENS, ENDS = "must not contain consecutive hyphens", "must not begin or end with a hyphen"


@pytest.mark.parametrize("name,messages", [
    ("my-svc", []),
    ("1-starts-with-digit", [DNS1035]),
    ("x" * 64, ["must be no more than 63 characters"]),
])
def test_dns1035_label_messages(name: str, messages: list[str]) -> None:
    assert dns1035_label_errors(name) == messages


@pytest.mark.parametrize("name,messages", [
    ("http", []),
    ("h2c-8000", []),
    ("-http", [ENDS]),
    ("http-", [ENDS]),
    ("ht--tp", [HYPHENS]),
    ("HTTP", [CHARSET, LETTER]),
    ("8000", [LETTER]),
    ("much-too-long-name", ["must be no more than 15 characters"]),
    ("--", [LETTER, HYPHENS, ENDS]),
])
def test_port_name_messages(name: str, messages: list[str]) -> None:
    """The container port checks of every rendered pod (validate_output.check)."""
    pod = {"containers": [{"name": "c", "image": "i", "ports": [{"containerPort": 80, "name": name}]}]}
    labels = {"app": "a"}
    obj = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"},
           "spec": {"selector": {"matchLabels": labels}, "template": {"metadata": {"labels": labels}, "spec": pod}}}
    path = ("spec", "template", "spec", "containers", 0, "ports", 0, "name")
    assert object_errors(obj, None) == sorted((path, f"Invalid value: {json.dumps(name)}: {m}") for m in messages)


# --------------------------------------------------------------------------- the object size bound

_WORST = [False, True, None, "\x01" * 50, '"\\' * 20, "é€𝄞\udc80", 0, -2**31, 2**100, -1.2345678901234567e-308,
          {}, [], {"k": False}, [None, [False]], "", float("inf")]


@pytest.mark.parametrize("value", _WORST, ids=repr)
def test_the_marshal_bound_is_above_the_json_size(value):
    from llmc.check.api_rules import _JSON_PER_MARSHAL_BYTE
    import marshal

    for obj in (value, [value] * 7, {"a": value, "b": [value, {"c": value}]}):
        exact = len(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))
        assert exact <= len(marshal.dumps(obj, 2)) * _JSON_PER_MARSHAL_BYTE


def test_an_object_over_the_limit_is_reported_with_its_exact_size():
    from llmc.check.api_rules import OBJECT_BYTES_LIMIT, object_errors

    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "big", "namespace": "ns"},
           "data": {"a": "x" * OBJECT_BYTES_LIMIT}}
    exact = len(json.dumps(obj, separators=(",", ":")))
    assert [m for _, m in object_errors(obj, None) if "bytes of JSON" in m] == [
        f"Too long: the object is {exact} bytes of JSON; etcd stores at most {OBJECT_BYTES_LIMIT} (1.5 MiB) per object"]
    obj["data"]["a"] = "x" * (OBJECT_BYTES_LIMIT // 7)  # within the bound's reach: no error
    assert not [m for _, m in object_errors(obj, None) if "bytes of JSON" in m]
