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

from llmc.cli import app
from llmc.errors import ErrorList, LlmcError
from llmc.inputs import read_documents
from llmc.load import check_kind
from llmc.schema import validate

ROOT = Path(__file__).resolve().parent.parent
KUBECONFORM_NAMES = [
    "llminferenceservice-serving.kserve.io-v1alpha2.json",
    "llminferenceserviceconfig-serving.kserve.io-v1alpha2.json",
]
INPUT_KINDS = ("LLMInferenceService", "LLMInferenceServiceConfig")


@cache
def published(tmp_root: str) -> tuple[dict, dict[str, dict]]:
    """Run `llmc schema` once: (single-file schema, kubeconform files by name)."""
    out = Path(tmp_root)
    result = CliRunner().invoke(app, ["schema", "--out", str(out / "kc"), "--single", str(out / "llmc.json")])
    assert result.exit_code == 0, result.stderr
    files = {p.name: json.loads(p.read_text()) for p in (out / "kc").iterdir()}
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


def kubeconform_path(template: str, api_version: str, kind: str) -> str:
    """kubeconform's schemaPath (pkg/registry/registry.go) for the variables a local template uses."""
    group, _, version = api_version.rpartition("/")
    values = {"ResourceKind": kind.lower(), "Group": group, "ResourceAPIVersion": version,
              "KindSuffix": f"-{group.split('.')[0].lower()}-{version.lower()}"}
    for name, value in values.items():
        template = template.replace(f"{{{{ .{name} }}}}", value)
    return template


def test_kubeconform_layout(schemas) -> None:
    _, files = schemas
    assert sorted(files) == KUBECONFORM_NAMES
    template = "{{ .ResourceKind }}-{{ .Group }}-{{ .ResourceAPIVersion }}.json"  # as docs/gitops.md tells
    assert sorted(kubeconform_path(template, "serving.kserve.io/v1alpha2", k) for k in INPUT_KINDS) == KUBECONFORM_NAMES
    assert template in (ROOT / "docs" / "gitops.md").read_text()
    service = files[KUBECONFORM_NAMES[0]]
    assert service["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert service["properties"]["kind"]["enum"] == ["LLMInferenceService"]
    assert service["properties"]["apiVersion"]["enum"] == ["serving.kserve.io/v1alpha2"]


def test_there_are_inputs_of_both_kinds() -> None:
    kinds = {p.values[0].kind for p in documents()}
    assert kinds == set(INPUT_KINDS)


@pytest.mark.parametrize("doc", list(documents()))
def test_schemas_agree_with_llmc(doc, schemas) -> None:
    """What llmc's own schema check accepts, both published forms accept, and the reverse.

    Schemas are published for v1alpha2 only (schemas/crd/ has no other version):
    documents of another version are rejected by them whatever llmc makes of them.
    """
    single, files = schemas
    if doc.api_version != "serving.kserve.io/v1alpha2":
        assert not jsonschema.Draft7Validator(single).is_valid(doc.obj)
        return
    by_kind = {s["properties"]["kind"]["enum"][0]: s for s in files.values()}
    expected = llmc_accepts(doc)
    assert jsonschema.Draft7Validator(single).is_valid(doc.obj) is expected
    assert jsonschema.Draft7Validator(by_kind[doc.kind]).is_valid(doc.obj) is expected


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
        ("apiVersion", "serving.kserve.io/v1alpha1", "is not one of"),
        ("spec.template.containers", {"name": "main"}, "is not of type"),
    ],
)
def test_broken_services_are_rejected(schemas, path: str, value, message: str) -> None:
    single, files = schemas
    doc = broken(path, value)
    errors = [e.message for e in jsonschema.Draft7Validator(single).iter_errors(doc)]
    assert any(message in e for e in errors), errors
    assert not jsonschema.Draft7Validator(files[KUBECONFORM_NAMES[0]]).is_valid(doc)


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
    assert sorted(schema["definitions"]) == sorted(INPUT_KINDS)
