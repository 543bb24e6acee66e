"""The API server harness itself, without a server: what it reports missing, when it skips and when it fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kube import conftest
from tests.kube.apiserver import Verdict, lws_pods_as_deployments, missing_tools


def test_a_missing_binary_or_etcd_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert missing_tools(tmp_path)[0] == f"the kube-apiserver binary and kapi script at {tmp_path}"
    (tmp_path / "kapi").write_text("")
    (tmp_path / "kube-apiserver.xz").write_text("")
    monkeypatch.setattr("shutil.which", lambda tool: None if tool == "etcd" else f"/usr/bin/{tool}")
    assert missing_tools(tmp_path) == ["etcd (apt-get install -y etcd-server)"]


@pytest.mark.parametrize(("ci", "outcome"), [("true", pytest.fail.Exception), ("", pytest.skip.Exception), (None, pytest.skip.Exception)])
def test_without_a_server_the_tests_skip_except_under_ci(ci, outcome, monkeypatch: pytest.MonkeyPatch) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="missing: etcd"):
        conftest._unavailable("missing: etcd")


def test_an_lws_pod_template_becomes_a_deployment_selecting_its_labels() -> None:
    lws = {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet", "metadata": {"name": "m", "namespace": "ns"},
           "spec": {"leaderWorkerTemplate": {"leaderTemplate": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": []}},
                                             "workerTemplate": {"spec": {"containers": [{"name": "w"}]}}}}}
    leader, worker = lws_pods_as_deployments(lws)
    assert leader["metadata"] == {"name": "m-leadertemplate", "namespace": "ns"}
    assert leader["spec"]["selector"] == {"matchLabels": {"a": "b"}} and leader["spec"]["template"]["spec"] == {"containers": []}
    assert worker["spec"]["selector"]["matchLabels"] == worker["spec"]["template"]["metadata"]["labels"] != {}
    assert worker["spec"]["template"]["spec"] == {"containers": [{"name": "w"}]}
    assert "labels" not in (lws["spec"]["leaderWorkerTemplate"]["workerTemplate"].get("metadata") or {})  # input left alone


def _deployment(**container) -> dict:
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "harness"},
            "spec": {"selector": {"matchLabels": {"a": "b"}},
                     "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": "i", **container}]}}}}


def test_the_server_answers_each_object(apiserver) -> None:
    assert apiserver.dry_run(_deployment()) == Verdict("Deployment harness/d", None)
    bad = apiserver.dry_run(_deployment(env=[{"name": "A=B", "value": "1"}]))
    assert bad.error.startswith("422 ") and "spec.template.spec.containers[0].env[0].name" in bad.error
    assert "unknownField" in apiserver.dry_run(_deployment(unknownField=1)).error  # strict field validation
    ports = [{"containerPort": 80, "name": "a"}, {"containerPort": 80, "name": "b"}]  # a list-map key, under server-side apply
    assert "duplicate entries for key [containerPort=80," in apiserver.dry_run(_deployment(ports=ports)).error
    deprecated = _deployment()
    deprecated["spec"]["template"]["spec"]["nodeSelector"] = {"beta.kubernetes.io/arch": "amd64"}
    verdict = apiserver.dry_run(deprecated)
    assert verdict.error is None and "nodeSelector[beta.kubernetes.io/arch]: deprecated" in verdict.warnings[0]
    role = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "r"}}
    assert apiserver.dry_run(role) == Verdict("ClusterRole r", None)
    assert apiserver.dry_run({"apiVersion": "example.com/v1", "kind": "Thing", "metadata": {"name": "t"}}).error == \
        "the server does not serve Thing in example.com/v1"
