"""The cert-manager CRDs llmc checks its Certificate and Issuer against (schemas/sources/cert-manager).

They are written for llmc (no cert-manager prose, see schemas/sources/README.md) and must check
as strictly as cert-manager's own did: llmc's rendered Certificate and self-signed Issuer pass,
and each BAD case (one wrong field of what llmc renders) is refused by llmc's output check with
the API server's wording. tests/kube/test_cert_manager.py sends the same cases to a real API
server with these CRDs installed.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from llmc.check.api_rules import validate_objects
from llmc.cli.app import app
from tests.conftest import ROOT

SOURCES = ROOT / "schemas" / "sources" / "cert-manager"
EXAMPLE = ROOT / "docs" / "examples" / "llama-single-gpu.yaml"
DROP = object()

# (kind, field path, new value or DROP, the field llmc names, what its message says)
BAD: list[tuple[str, str, Any, str, str]] = [
    ("Certificate", "spec.duration", 5, "spec.duration", "must be of type string"),
    ("Certificate", "spec.renewBefore", 3600, "spec.renewBefore", "must be of type string"),
    ("Certificate", "spec.secretName", DROP, "spec.secretName", "Required value"),
    ("Certificate", "spec.issuerRef", DROP, "spec.issuerRef", "Required value"),
    ("Certificate", "spec.issuerRef.name", DROP, "spec.issuerRef.name", "Required value"),
    ("Certificate", "spec.issuerRef.kind", ["Issuer"], "spec.issuerRef.kind", "must be of type string"),
    ("Certificate", "spec.privateKey.algorithm", "DSA", "spec.privateKey.algorithm", "Unsupported value"),
    ("Certificate", "spec.privateKey.encoding", "PEM", "spec.privateKey.encoding", "Unsupported value"),
    ("Certificate", "spec.privateKey.rotationPolicy", "Sometimes", "spec.privateKey.rotationPolicy",
     "Unsupported value"),
    ("Certificate", "spec.privateKey.size", "4096", "spec.privateKey.size", "must be of type integer"),
    ("Certificate", "spec.privateKey.curve", "P-256", "spec.privateKey.curve", "unknown field"),
    ("Certificate", "spec.usages", ["server auth", "web"], "spec.usages[1]", "Unsupported value"),
    ("Certificate", "spec.dnsNames", "localhost", "spec.dnsNames", "must be of type array"),
    ("Certificate", "spec.ipAddresses", [127001], "spec.ipAddresses[0]", "must be of type string"),
    ("Certificate", "spec.subject.organizations", "Kserve", "spec.subject.organizations", "must be of type array"),
    ("Certificate", "spec.subject.organisation", ["Kserve"], "spec.subject.organisation", "unknown field"),
    ("Certificate", "spec.secretTemplate.labels", {"a": 1}, "spec.secretTemplate.labels.a", "must be of type string"),
    ("Certificate", "spec.isCA", "false", "spec.isCA", "must be of type boolean"),
    ("Certificate", "spec.signatureAlgorithm", "MD5WithRSA", "spec.signatureAlgorithm", "Unsupported value"),
    ("Certificate", "spec.renewal", {"windows": [{"cron": "0 0 * * *", "windowDuration": "soon"}]},
     "spec.renewal.windows[0].windowDuration", "pattern"),
    ("Certificate", "spec.additionalOutputFormats", [{"type": "PFX"}], "spec.additionalOutputFormats[0].type",
     "Unsupported value"),
    ("Certificate", "spec.keystores", {"pkcs12": {"profile": "Modern2023"}}, "spec.keystores.pkcs12.create",
     "Required value"),
    ("Certificate", "spec.ipAdresses", ["127.0.0.1"], "spec.ipAdresses", "unknown field"),
    ("Issuer", "spec.selfSigned", "x", "spec.selfSigned", "must be of type object"),
    ("Issuer", "spec.selfSigned.crlDistributionPoints", "http://crl", "spec.selfSigned.crlDistributionPoints",
     "must be of type array"),
    ("Issuer", "spec.selfSigned.isCA", True, "spec.selfSigned.isCA", "unknown field"),
    ("Issuer", "spec.selfSigne", {}, "spec.selfSigne", "unknown field"),
    ("Issuer", "spec.ca", {}, "spec.ca.secretName", "Required value"),
    ("Issuer", "spec.ca", {"secretName": "ca", "ocspServers": "http://ocsp"}, "spec.ca.ocspServers",
     "must be of type array"),
    ("Issuer", "spec", DROP, "spec", "Required value"),
]


@pytest.fixture(scope="module")
def rendered() -> dict[str, dict[str, Any]]:
    """llmc's Certificate and self-signed Issuer for a docs example, by kind."""
    result = CliRunner().invoke(app, ["render", "-f", str(EXAMPLE)])
    assert result.exit_code == 0, result.stderr
    found = {o["kind"]: o for o in yaml.safe_load_all(result.stdout) if o and o["kind"] in ("Certificate", "Issuer")}
    assert set(found) == {"Certificate", "Issuer"}
    assert found["Issuer"]["spec"] == {"selfSigned": {}}
    return found


def mutated(obj: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of `obj` with the field at dotted `path` set to `value` (DROP: removed)."""
    out = copy.deepcopy(obj)
    *parents, last = path.split(".")
    node = out
    for key in parents:
        node = node[key]
    if value is DROP:
        del node[last]
    else:
        node[last] = value
    return out


def test_the_crds_are_written_for_llmc_with_no_descriptions() -> None:
    for path in sorted(SOURCES.glob("*.yaml")):
        text = path.read_text()
        assert text.startswith("# Written for llmc (not cert-manager's file)"), path.name

        def walk(node: Any) -> None:
            if isinstance(node, dict):
                assert "description" not in node, path.name
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        (crd,) = [d for d in yaml.safe_load_all(text) if d]
        walk(crd)
        (version,) = crd["spec"]["versions"]
        assert (version["name"], version["served"], version["storage"]) == ("v1", True, True)
        assert version["subresources"] == {"status": {}}
        assert crd["spec"]["group"] == "cert-manager.io" and crd["spec"]["scope"] == "Namespaced"


def test_llmc_output_passes(rendered) -> None:
    assert validate_objects(list(rendered.values()), "1.34") == []


@pytest.mark.parametrize("kind,path,value,field,says", BAD, ids=[f"{c[0]}:{c[1]}" for c in BAD])
def test_a_bad_field_is_refused(rendered, kind: str, path: str, value: Any, field: str, says: str) -> None:
    obj = mutated(rendered[kind], path, value)
    meta = obj["metadata"]
    errors = validate_objects([obj], "1.34")
    assert len(errors) == 1, errors
    assert errors[0].startswith(f"{kind} {meta['namespace']}/{meta['name']}: {field}: "), errors
    assert says in errors[0], errors


def test_venafi_needs_exactly_one_backend() -> None:
    """The one CEL rule of the Issuer CRD: kept, in our words (the API server checks it; llmc renders no venafi)."""
    (crd,) = [d for d in yaml.safe_load_all((SOURCES / "cert-manager.io_issuers.yaml").read_text()) if d]
    venafi = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["venafi"]
    (rule,) = venafi["x-kubernetes-validations"]
    assert rule["rule"] == "(has(self.tpp) ? 1 : 0) + (has(self.cloud) ? 1 : 0) + (has(self.ngts) ? 1 : 0) == 1"

