"""Cluster capabilities as helm reads them: --api-versions adds, -GROUP/VERSION removes, --kube-version is validated."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from llmc.k8s.capabilities import capabilities, dra_api, kube_version
from llmc.cli.app import app
from llmc.core.errors import LlmcError
from llmc.k8s.capabilities import Capabilities

SAMPLE = str(Path(__file__).resolve().parents[2] / "shared/upstream/kserve/samples/managed-dra/llm-inference-service-managed-dra-minimal.yaml")


@pytest.mark.parametrize(("reported", "normalized"), [
    ("1.34", "1.34.0"),
    ("v1.34.1", "1.34.1"),
    ("1.33.5-gke.1000", "1.33.5"),
    ("v1.31.2+k3s1", "1.31.2"),
    ("v1.32.4-eks.1", "1.32.4"),
    (" 1.30.0 ", "1.30.0"),
])
def test_the_forms_clusters_report_are_accepted(reported: str, normalized: str) -> None:
    assert kube_version(reported) == normalized


@pytest.mark.parametrize("bad", ["banana", "", "1", "2.0", "1.x", "v1..2", "1.34.1.5", "01.34"])
def test_other_kube_versions_are_usage_errors(bad: str) -> None:
    with pytest.raises(LlmcError) as caught:
        kube_version(bad)
    assert caught.value.exit_code == 2 and "is not a Kubernetes version" in str(caught.value)


def test_api_versions_add_to_the_defaults() -> None:
    default = Capabilities().api_versions
    added = capabilities(["monitoring.coreos.com/v1"], None).api_versions
    assert added == default | {"monitoring.coreos.com/v1"}, "like helm: nothing of the default set is lost"


def test_a_leading_dash_removes_a_default_and_removing_an_absent_api_changes_nothing() -> None:
    caps = capabilities(["-keda.sh/v1alpha1", "-not.there.io/v1"], None)
    assert not caps.has("keda.sh/v1alpha1")
    assert caps.api_versions == Capabilities().api_versions - {"keda.sh/v1alpha1"}


def test_a_complete_list_replaces_the_defaults() -> None:
    caps = capabilities(["v1", "apps/v1"], "1.33.2", complete=True)
    assert caps.api_versions == {"v1", "apps/v1"}
    assert dra_api(caps, None) is None, "Argo CD's list stands as given: no DRA API the cluster did not list"


def test_malformed_api_versions_are_usage_errors() -> None:
    with pytest.raises(LlmcError) as caught:
        capabilities(["Not A Group"], None)
    assert caught.value.exit_code == 2


@pytest.mark.parametrize(("version", "extra", "expected"), [
    ("1.34.0", [], "resource.k8s.io/v1"),
    ("1.33.5-gke.1000", [], "resource.k8s.io/v1beta2"),
    ("1.32.4", [], "resource.k8s.io/v1beta1"),
    ("1.31.0", [], None),
    ("1.34.0", ["-resource.k8s.io/v1", "resource.k8s.io/v1beta1"], "resource.k8s.io/v1beta1"),
    ("1.34.0", ["-resource.k8s.io/v1"], None),
])
def test_the_dra_api_follows_the_cluster(version: str, extra: list[str], expected: str | None) -> None:
    assert dra_api(capabilities(extra, version), None) == expected


def test_cli_rejects_banana_with_a_clear_error() -> None:
    result = CliRunner().invoke(app, ["render", "-f", SAMPLE, "--kube-version", "banana"])
    assert result.exit_code == 2 and result.stdout == ""
    assert "--kube-version 'banana' is not a Kubernetes version" in result.stderr


def test_cli_without_any_dra_api_fails_for_a_managed_dra_service() -> None:
    result = CliRunner().invoke(app, ["render", "-f", SAMPLE, "--kube-version", "1.31.0"])
    assert result.exit_code == 1 and result.stdout == ""
    assert "resource.k8s.io" in result.stderr
