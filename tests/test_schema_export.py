"""llmc schema: the published JSON Schemas accept every input llmc accepts and reject broken documents."""

from __future__ import annotations

import os

import copy
import json
from functools import cache
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from llmc.cli.app import app
from llmc.core.errors import ErrorList, LlmcError
from llmc.read.inputs import read_documents
from llmc.load.documents import check_kind
from llmc.admit.schema import validate

ROOT = Path(__file__).resolve().parent.parent
UPSTREAM = ROOT.parent / "shared" / "upstream"
INPUT_KINDS = ("LLMInferenceService", "LLMInferenceServiceConfig")
VERSIONS = ("v1alpha1", "v1alpha2")
SERVICE_FILE = "serving.kserve.io/llminferenceservice_v1alpha2.json"


@cache
def published(tmp_root: str) -> tuple[dict, dict[str, dict]]:
    """Run `llmc schema` once: (single-file schema, kubeconform files by name)."""
    out = Path(tmp_root)
    result = CliRunner().invoke(app, ["schema", "--out", str(out / "kc"), "--single", str(out / "llmc.json")])
    assert result.exit_code == 0, result.stderr
    files = {p.relative_to(out / "kc").as_posix(): json.loads(p.read_text()) for p in (out / "kc").rglob("*.json")}
    return json.loads((out / "llmc.json").read_text()), files


@pytest.fixture(scope="module")
def schemas(tmp_path_factory) -> tuple[dict, dict[str, dict]]:
    return published(str(tmp_path_factory.mktemp("schemas")))


def input_files() -> list[Path]:
    """Every input of golden/*/ (files in the case folders and the files their args name) and docs/examples/."""
    files = set(ROOT.glob("golden/*/*.yaml")) | set((ROOT / "docs" / "examples").glob("*.yaml"))
    for args in ROOT.glob("golden/*/args"):
        words = [w.strip() for w in args.read_text().splitlines() if w.strip() and not w.startswith("#")]
        for flag, value in zip(words, words[1:]):
            path = (args.parent / value).resolve()
            if flag in ("-f", "--filename", "--presets") and path.is_file():
                files.add(path)
    return sorted(p for p in files if not p.name.startswith("expected"))


def documents():
    for path in input_files():
        for doc in read_documents([str(path)], {}):
            if doc.kind in INPUT_KINDS:
                yield pytest.param(doc, id=f"{os.path.relpath(path, ROOT.parent)}#{doc.index}")


def llmc_accepts(doc) -> bool:
    try:
        check_kind(doc)
        validate(doc)
    except (LlmcError, ErrorList):
        return False
    return True


def test_kubeconform_layout_holds_both_input_versions(schemas) -> None:
    """The kubeconform folder and its template: tests/test_schema_kubeconform.py checks the rest."""
    _, files = schemas
    inputs = sorted(name for name in files if name.startswith("serving.kserve.io/"))
    assert inputs == sorted(f"serving.kserve.io/{k.lower()}_{v}.json" for k in INPUT_KINDS for v in VERSIONS)
    service = files[SERVICE_FILE]
    assert service["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert service["properties"]["kind"]["enum"] == ["LLMInferenceService"]
    assert service["properties"]["apiVersion"]["enum"] == ["serving.kserve.io/v1alpha2"]
    old = files["serving.kserve.io/llminferenceservice_v1alpha1.json"]
    assert old["properties"]["apiVersion"]["enum"] == ["serving.kserve.io/v1alpha1"]


def test_there_are_inputs_of_both_kinds() -> None:
    kinds = {p.values[0].kind for p in documents()}
    assert kinds == set(INPUT_KINDS)


def llmc_admits(doc) -> bool:
    """llmc's schema check of the document as the API server stores it: v1alpha1 converted first."""
    from llmc.admit.conversion import V1ALPHA1, to_v1alpha2
    from llmc.core.record import replace

    if doc.api_version == V1ALPHA1:
        try:
            check_kind(doc)
        except LlmcError:
            return False
        doc = replace(doc, obj=to_v1alpha2(doc.obj))
    return llmc_accepts(doc)


@pytest.mark.parametrize("doc", list(documents()))
def test_schemas_agree_with_llmc(doc, schemas) -> None:
    """What llmc's own schema check accepts, both published forms accept, and the reverse."""
    single, files = schemas
    by_kind = {(s["properties"]["apiVersion"]["enum"][0], s["properties"]["kind"]["enum"][0]): s
               for name, s in files.items() if name.startswith("serving.kserve.io/")}
    expected = llmc_admits(doc)
    assert jsonschema.Draft7Validator(single).is_valid(doc.obj) is expected
    assert jsonschema.Draft7Validator(by_kind[doc.api_version, doc.kind]).is_valid(doc.obj) is expected


V1ALPHA1_SERVICE = {
    "apiVersion": "serving.kserve.io/v1alpha1",
    "kind": "LLMInferenceService",
    "metadata": {"name": "old", "namespace": "ns"},
    "spec": {"model": {"uri": "hf://org/model", "criticality": "Critical"}, "router": {"route": {}, "gateway": {}}},
}


@pytest.mark.parametrize(
    ("change", "accepted"),
    [
        ({}, True),
        ({"replicas": 2}, True),
        ({"replica": 2}, False),  # unknown field
        ({"parallelism": {"tensor": 0}}, False),  # below the minimum
        ({"router": {"scheduler": {"pool": {"spec": {"targetPortNumber": 8000, "selector": {"app": "x"},
                                                      "extensionRef": {"name": "epp", "failureMode": "FailOpen"}}}}}},
         True),
    ],
)
def test_v1alpha1_services_agree_with_llmc(schemas, change, accepted) -> None:
    """v1alpha1 has its own shape (model criticality, the GIE v1alpha2 pool); llmc reads it converted."""
    from llmc.load.documents import Document

    single, files = schemas
    obj = copy.deepcopy(V1ALPHA1_SERVICE)
    obj["spec"].update(change)
    doc = Document(obj=obj, file="v1alpha1.yaml", index=0, positions={})
    assert llmc_admits(doc) is accepted
    assert jsonschema.Draft7Validator(single).is_valid(obj) is accepted
    assert jsonschema.Draft7Validator(files["serving.kserve.io/llminferenceservice_v1alpha1.json"]).is_valid(obj) is accepted


@pytest.mark.parametrize(
    "change",
    [
        {"model": {"uri": "hf://org/model", "criticality": "Urgent"}},  # not one of v1alpha1's enum
        {"router": {"scheduler": {"pool": {"spec": {"targetPortNumber": 8000, "selector": {"app": "x"},
                                                     "extensionRef": {"name": "epp"}}}}}},  # failureMode required
    ],
)
def test_v1alpha1_rules_that_conversion_drops_are_in_the_schema(schemas, change) -> None:
    """The API server checks a v1alpha1 object against the v1alpha1 schema before converting it; the schema
    does too. (llmc admits v1alpha1 after conversion, which drops these fields or fills them in.)"""
    single, _ = schemas
    obj = copy.deepcopy(V1ALPHA1_SERVICE)
    obj["spec"].update(change)
    assert not jsonschema.Draft7Validator(single).is_valid(obj)


@pytest.mark.skipif(not UPSTREAM.is_dir(), reason=f"needs KServe's upstream data at {UPSTREAM}")
def test_kserves_own_v1alpha1_sample_agrees(schemas) -> None:
    """KServe's one v1alpha1 sample writes the scheduler's inline config as a string: both reject it."""
    single, files = schemas
    path = UPSTREAM / "kserve" / "samples" / "latency-predictor" / "llm-inference-service-latency-predictor.yaml"
    (doc,) = read_documents([str(path)], {})
    assert doc.api_version == "serving.kserve.io/v1alpha1"
    errors = list(jsonschema.Draft7Validator(single).iter_errors(doc.obj))
    assert [list(e.absolute_path) for e in errors] == [["spec", "router", "scheduler", "config", "inline"]]
    assert not llmc_admits(doc)


def test_known_broken_inputs_are_among_them() -> None:
    broken = [p.values[0] for p in documents() if not llmc_accepts(p.values[0])]
    assert any(d.file.endswith("golden/error-unknown-field/input.yaml") for d in broken)


SERVICE = {
    "apiVersion": "serving.kserve.io/v1alpha2",
    "kind": "LLMInferenceService",
    "metadata": {"name": "svc", "namespace": "ns", "labels": {"team": "a"}},
    "spec": {
        "model": {"uri": "hf://org/model"},
        "replicas": 2,
        "router": {"route": None, "gateway": {}},
        "template": {"containers": [{"name": "main", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]},
    },
}


def broken(path: str, value) -> dict:
    doc = copy.deepcopy(SERVICE)
    *parents, last = path.split(".")
    node = doc
    for key in parents:
        node = node[int(key)] if key.isdigit() else node[key]
    if value is DELETE:
        del node[last]
    else:
        node[last] = value
    return doc


DELETE = object()


def test_a_valid_service_with_a_null_field_passes(schemas) -> None:
    single, _ = schemas
    assert list(jsonschema.Draft7Validator(single).iter_errors(SERVICE)) == []


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("spec.replicas", "two", "is not of type"),
        ("spec.replica", 2, "Additional properties"),
        ("spec.template.containers.0.imagePulPolicy", "Always", "Additional properties"),
        ("metadata.name", DELETE, "'name' is a required property"),
        ("metadata.labels", {"team": 1}, "is not of type 'string'"),
        ("kind", "LLMInferenceServic", "is not one of"),
        ("apiVersion", "serving.kserve.io/v1beta1", "is not one of"),
        ("spec.template.containers", {"name": "main"}, "is not of type"),
    ],
)
def test_broken_services_are_rejected(schemas, path: str, value, message: str) -> None:
    single, files = schemas
    doc = broken(path, value)
    errors = [e.message for e in jsonschema.Draft7Validator(single).iter_errors(doc)]
    assert any(message in e for e in errors), errors
    assert not jsonschema.Draft7Validator(files[SERVICE_FILE]).is_valid(doc)


def test_the_single_file_reports_only_the_documents_own_kind(schemas) -> None:
    single, _ = schemas
    errors = list(jsonschema.Draft7Validator(single).iter_errors(broken("spec.replicas", "two")))
    assert [list(e.absolute_path) for e in errors] == [["spec", "replicas"]]


def test_a_config_needs_no_model(schemas) -> None:
    single, _ = schemas
    config = {"apiVersion": "serving.kserve.io/v1alpha2", "kind": "LLMInferenceServiceConfig",
              "metadata": {"name": "c"}, "spec": {"replicas": 1}}
    assert jsonschema.Draft7Validator(single).is_valid(config)


def test_schema_without_options_writes_the_single_file_to_stdout() -> None:
    result = CliRunner().invoke(app, ["schema"])
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["properties"]["kind"]["enum"] == list(INPUT_KINDS)
    assert sorted(schema["definitions"]) == sorted(f"{k}.{v}" for k in INPUT_KINDS for v in VERSIONS)
