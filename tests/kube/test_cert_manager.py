"""The API server with llmc's cert-manager CRDs installed refuses what llmc's check refuses.

The cases are tests/test_cert_manager_schema.py's: llmc's Certificate and self-signed Issuer
pass a server-side dry-run, each BAD variant is refused naming its field, and so is a venafi
Issuer without exactly one backend (the CRD's CEL rule, which llmc does not check itself).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.kube.apiserver import ApiServer
from tests.test_cert_manager_schema import BAD, mutated, rendered  # noqa: F401 (rendered is a fixture)


def test_llmc_output_is_accepted(apiserver: ApiServer, rendered) -> None:  # noqa: F811
    for obj in rendered.values():
        assert apiserver.dry_run(obj).error is None


@pytest.mark.parametrize("kind,path,value,field,says", BAD, ids=[f"{c[0]}:{c[1]}" for c in BAD])
def test_a_bad_field_is_refused(apiserver: ApiServer, rendered, kind: str, path: str, value: Any,  # noqa: F811
                                field: str, says: str) -> None:
    error = apiserver.dry_run(mutated(rendered[kind], path, value)).error
    assert error is not None
    # the server names the field, e.g. `spec.usages[1]`, `.spec.privateKey.curve: field not declared`
    assert field.rsplit(".", 1)[-1].split("[")[0] in error, error


@pytest.mark.parametrize("backends", [[], ["cloud", "tpp"]])
def test_venafi_needs_exactly_one_backend(apiserver: ApiServer, rendered, backends: list[str]) -> None:  # noqa: F811
    spec = {"cloud": {"apiTokenSecretRef": {"name": "token"}},
            "tpp": {"url": "https://tpp", "credentialsRef": {"name": "c"}}}
    venafi = {"zone": "z", **{b: spec[b] for b in backends}}
    error = apiserver.dry_run(mutated(rendered["Issuer"], "spec", {"venafi": venafi})).error
    assert error is not None and "set exactly one of tpp, cloud and ngts" in error, error
    ok = apiserver.dry_run(mutated(rendered["Issuer"], "spec", {"venafi": {"zone": "z", "cloud": spec["cloud"]}}))
    assert ok.error is None, ok.error
