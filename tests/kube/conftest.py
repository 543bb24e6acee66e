"""The session's kube-apiserver: started once with every CRD llmc's output needs, stopped at the end.

Without etcd or the API server binary the tests skip, saying what is missing; under CI=true
(.ci/run installs etcd-server) they fail instead, so CI cannot pass without them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.conftest import NO_UPSTREAM, ROOT, UPSTREAM
from tests.kube.apiserver import ApiServer, Kapi, missing_tools

KUBE = ROOT.parent / "shared" / "kube"
# kinds llmc renders whose CRDs ../shared/upstream lacks: cert-manager's Certificate and Issuer, KEDA's ScaledObject
EXTRA_CRDS = (ROOT / "schemas" / "sources" / "cert-manager", ROOT / "tests" / "data" / "kube" / "crds")


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true needs the API server tests: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def apiserver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    if not UPSTREAM.is_dir():
        _unavailable(NO_UPSTREAM)
    missing = missing_tools(KUBE)
    if missing:
        _unavailable("needs a real kube-apiserver (../shared/kube/README.md); missing: " + ", ".join(missing))
    kapi = Kapi.new(KUBE, tmp_path_factory.mktemp("kapi"))
    try:
        server = ApiServer(kapi.start(UPSTREAM, *EXTRA_CRDS))
        try:
            yield server
        finally:
            server.close()
    finally:
        kapi.stop()  # also after a failed start: kapi exits on a CRD it cannot apply without stopping
