"""Inputs llmc refuses at admission are refused by KServe too (issue 19): by the real API server with the
pinned CRDs (schema and CEL), or, where the API server admits them, by a named rule of KServe's
validating webhook, which tests/kube does not install."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from llmc.cli.app import app
from tests.conftest import ROOT
from tests.kube.apiserver import ApiServer

BAD = ROOT / "tests" / "data" / "bad"
# inputs the API server admits, and the KServe webhook rule (pkg/apis/serving/v1alpha2) that refuses them
WEBHOOK_RULES = {
    "webhook-config-baserefs.yaml": "LLMInferenceServiceConfig validator: a config may not have baseRefs",
    "webhook-dra.yaml": "LLMInferenceService validator: the managed-DRA annotations (exp-dra-device-count)",
    "webhook-parallelism.yaml": "LLMInferenceService validator: pipeline and data parallelism together",
}
CASES = sorted(p.name for p in BAD.glob("schema-*.yaml")) + sorted(WEBHOOK_RULES)
SERVING = "serving.kserve.io/"


def _inputs(path: Path) -> list[dict]:
    return [d for d in yaml.safe_load_all(path.read_text()) if isinstance(d, dict)
            and str(d.get("apiVersion", "")).startswith(SERVING)]


def _refusal(apiserver: ApiServer, obj: dict) -> str | None:
    """The API server's refusal of `obj` (its namespace included: one that cannot exist refuses it)."""
    try:
        return apiserver.dry_run({**obj, "metadata": {"namespace": "default", **(obj.get("metadata") or {})}}).error
    except RuntimeError as err:  # the namespace itself is invalid
        return str(err)


def test_every_webhook_case_exists() -> None:
    assert all((BAD / name).is_file() for name in WEBHOOK_RULES)
    assert sorted(p.name for p in BAD.glob("webhook-*.yaml")) == sorted(WEBHOOK_RULES)


@pytest.mark.parametrize("name", CASES)
def test_llmc_refuses_only_what_kserve_refuses(apiserver: ApiServer, name: str) -> None:
    path = BAD / name
    result = CliRunner().invoke(app, ["render", "--allow-empty", "-f", str(path)])
    assert result.exit_code == 1 and result.stdout == "", result.stderr
    refused = [error for obj in _inputs(path) if (error := _refusal(apiserver, obj))]
    if name in WEBHOOK_RULES:
        assert refused == [], f"the API server refuses it too: drop it from WEBHOOK_RULES ({refused})"
    else:
        assert refused, f"the API server admits {name}, which llmc refuses: a bug, or a webhook rule to name"
