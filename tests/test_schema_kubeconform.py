"""`llmc schema --out`: one kubeconform schema location for llmc's inputs and the custom resources it renders.

kubeconform is not installable here (neither PyPI nor Debian carry it), so these tests do
what it does with a local `-schema-location` template: resolve the template for each
object as its pkg/registry/registry.go does and validate with a JSON Schema validator
(`jsonschema`). `test_real_kubeconform` runs the documented command where it is installed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from llmc.cli.app import app
from llmc.gitops.schema_export import KINDS, KUBECONFORM_LOCATION, OUTPUT_KINDS
from llmc.check.api_rules import CRD_FILES, SKIPPED_KINDS

ROOT = Path(__file__).resolve().parent.parent
# API groups of Kubernetes itself: kubeconform's `default` location has their schemas.
BUILTIN_GROUPS = {"", "apps", "autoscaling", "batch", "networking.k8s.io", "policy", "rbac.authorization.k8s.io",
                  "resource.k8s.io"}
GOLDEN_INPUT_KINDS = {"LLMInferenceService", "LLMInferenceServiceConfig"}


def kubeconform_path(template: str, api_version: str, kind: str) -> str:
    """kubeconform's schemaPath for the variables a local template uses (Go template, spaces optional)."""
    group = api_version.split("/")[0]
    values = {"ResourceKind": kind.lower(), "Group": group, "ResourceAPIVersion": api_version.split("/")[-1]}
    return re.sub(r"\{\{\s*\.(\w+)\s*\}\}", lambda m: values[m.group(1)], template)


@cache
def exported(folder: str) -> dict[str, dict]:
    result = CliRunner().invoke(app, ["schema", "--out", folder])
    assert result.exit_code == 0, result.stderr
    return {p.relative_to(folder).as_posix(): json.loads(p.read_text()) for p in Path(folder).rglob("*.json")}


@pytest.fixture(scope="module")
def schemas(tmp_path_factory) -> dict[str, dict]:
    return exported(str(tmp_path_factory.mktemp("kubeconform")))


def test_the_documented_location_finds_every_file(schemas) -> None:
    expected = {kubeconform_path(KUBECONFORM_LOCATION, f"{g}/{v}", k) for g, v, k in KINDS + OUTPUT_KINDS}
    assert set(schemas) == expected
    assert f"-schema-location 'schemas/{KUBECONFORM_LOCATION}'" in (ROOT / "docs" / "gitops.md").read_text()
    for name, schema in schemas.items():
        group, _, _ = name.partition("/")
        (api_version,) = schema["properties"]["apiVersion"]["enum"]
        (kind,) = schema["properties"]["kind"]["enum"]
        assert kubeconform_path(KUBECONFORM_LOCATION, api_version, kind) == name


def test_the_output_kinds_are_the_ones_llmc_checks_its_output_against() -> None:
    assert {(f"{g}/{v}", k) for g, v, k in OUTPUT_KINDS} == set(CRD_FILES)


def golden_objects(names: str):
    for path in sorted(ROOT.glob(f"golden/*/{names}")):
        for index, obj in enumerate(d for d in yaml.safe_load_all(path.read_text()) if isinstance(d, dict)):
            yield path.relative_to(ROOT).as_posix(), index, obj


def schema_of(schemas: dict[str, dict], obj: dict) -> dict | None:
    return schemas.get(kubeconform_path(KUBECONFORM_LOCATION, obj["apiVersion"], obj["kind"]))


def test_every_golden_output_object_validates(schemas) -> None:
    """Every custom resource in every golden output finds its schema and passes; built-in kinds are `default`'s."""
    checked: dict[tuple[str, str], int] = {}
    failures = []
    for where, index, obj in golden_objects("expected.yaml"):
        api_version, kind = obj["apiVersion"], obj["kind"]
        group = api_version.split("/")[0] if "/" in api_version else ""
        if group in BUILTIN_GROUPS or (api_version, kind) in SKIPPED_KINDS:
            continue
        schema = schema_of(schemas, obj)
        assert schema is not None, f"{where}#{index}: no schema for {api_version} {kind}"
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in jsonschema.Draft7Validator(schema).iter_errors(obj)]
        failures += [f"{where}#{index} {kind}: {e}" for e in errors]
        checked[api_version, kind] = checked.get((api_version, kind), 0) + 1
    assert failures == []
    assert set(checked) >= {(f"{g}/{v}", k) for g, v, k in OUTPUT_KINDS}, "every output kind is exercised"


def test_every_golden_input_of_a_successful_case_validates(schemas) -> None:
    """Inputs of the cases that render (exit code 0): llmc accepted them, so must the schemas."""
    failures, seen = [], 0
    for where, index, obj in golden_objects("input.yaml"):
        if (ROOT / where).parent.joinpath("exit_code").exists() or obj.get("kind") not in GOLDEN_INPUT_KINDS:
            continue
        schema = schema_of(schemas, obj)
        assert schema is not None, f"{where}#{index}"
        failures += [f"{where}#{index}: {e.message}" for e in jsonschema.Draft7Validator(schema).iter_errors(obj)]
        seen += 1
    assert failures == [] and seen > 20


def test_a_broken_output_object_is_rejected(schemas) -> None:
    (route,) = [o for _, _, o in golden_objects("expected.yaml") if o["kind"] == "HTTPRoute"][:1]
    broken = json.loads(json.dumps(route))
    broken["spec"]["rules"][0]["backendRef"] = broken["spec"]["rules"][0].pop("backendRefs")
    errors = [e.message for e in jsonschema.Draft7Validator(schema_of(schemas, broken)).iter_errors(broken)]
    assert any("'backendRef' was unexpected" in e for e in errors), errors


@pytest.mark.skipif(shutil.which("kubeconform") is None, reason="kubeconform is not installed")
def test_real_kubeconform(tmp_path) -> None:
    """The command docs/gitops.md shows, over one golden case's input and output (no network: no `default`)."""
    folder = tmp_path / "schemas"
    CliRunner().invoke(app, ["schema", "--out", str(folder)])
    case = next(p.parent for p in sorted(ROOT.glob("golden/*/input.yaml")) if not (p.parent / "exit_code").exists())
    result = subprocess.run(
        ["kubeconform", "-strict", "-summary", "-ignore-missing-schemas", "-schema-location",
         f"{folder}/{KUBECONFORM_LOCATION}", str(case / "input.yaml"), str(case / "expected.yaml")],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
