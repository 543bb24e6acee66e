"""The differential harness itself: the comparison finds what differs, the allow-list and the bug classes match narrowly."""

from __future__ import annotations

import pytest
import yaml

from . import harness
from .allowed import allowed, unexplained
from . import known
from .known import Bug, classify, known_bugs

if not (harness.ORACLE_DIR / "compare.py").is_file():
    pytest.skip(harness.NO_ORACLE, allow_module_level=True)

DEPLOYMENT = {
    "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "svc-kserve", "namespace": "demo",
                                                                 "creationTimestamp": None},
    "spec": {"strategy": {}, "template": {"spec": {"containers": [
        {"name": "main", "image": "vllm:1", "ports": [{"containerPort": 8000}], "env": [{"name": "A", "value": "1"}]}]}}},
}


def _yaml(*docs) -> str:
    return yaml.safe_dump_all(list(docs))


def _edited(**env) -> dict:
    obj = yaml.safe_load(yaml.safe_dump(DEPLOYMENT))
    obj["spec"]["template"]["spec"]["containers"][0]["env"] = [{"name": k, "value": v} for k, v in env.items()]
    return obj


def test_same_objects_after_the_serializers_normalizations() -> None:
    llmc = _edited(A="1")
    del llmc["metadata"]["creationTimestamp"], llmc["spec"]["strategy"]
    llmc["spec"]["template"]["spec"]["containers"][0]["ports"][0]["protocol"] = "TCP"
    assert harness.differences(_yaml(DEPLOYMENT), _yaml(llmc)) == []


def test_a_changed_field_is_reported_by_path() -> None:
    found = harness.differences(_yaml(DEPLOYMENT), _yaml(_edited(A="2")))
    assert [str(d) for d in found] == ["Deployment/demo/svc-kserve .spec.template.spec.containers[name=main].env[name=A].value: "
                                       "oracle='1' llmc='2'"]
    assert unexplained(found) == found


def test_missing_and_extra_objects() -> None:
    secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "svc-kserve-self-signed-certs", "namespace": "demo"}}
    role = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "svc-kserve-mn-role", "namespace": "demo"}}
    certificate = {"apiVersion": "cert-manager.io/v1", "kind": "Certificate",
                   "metadata": {"name": "svc-kserve-self-signed-certs", "namespace": "demo"}}
    found = harness.differences(_yaml(DEPLOYMENT, secret), _yaml(DEPLOYMENT, role, certificate))
    assert {str(d) for d in found} == {
        "Secret/demo/svc-kserve-self-signed-certs (object): oracle=present llmc=<absent>",
        "Role/demo/svc-kserve-mn-role (object): oracle=<absent> llmc=present",
        "Certificate/demo/svc-kserve-self-signed-certs (object): oracle=<absent> llmc=present",
    }
    assert [d.kind for d in unexplained(found)] == ["Role"]
    # the TLS entries name the runtime Secret and its stand-ins only
    assert allowed(harness.Difference("Secret", "demo", "hf-token", "(object)", "present", "<absent>")) is None
    assert allowed(harness.Difference("Secret", "demo", "svc-kserve-self-signed-certs", ".type", "x", "y")) is None


def _outcome(docs, differences, **errors) -> harness.Outcome:
    return harness.Outcome(harness.Case("c", tuple(docs)), differences=differences, **errors)


def test_classes_of_differences(monkeypatch) -> None:
    pd_rbac = "single-node P/D renders the multi-node Role"  # a bug class as known.BUGS would hold it
    pd = [{"kind": "LLMInferenceService", "spec": {"prefill": {}}}]
    monkeypatch.setattr(known, "BUGS", (Bug(pd_rbac, "19", lambda case: True, kind="Role", path="(object)",
                                            oracle="<absent>", llmc="present"),))
    role = harness.Difference("Role", "demo", "svc-kserve-mn-role", "(object)", "<absent>", "present")
    env = harness.Difference("Deployment", "demo", "svc-kserve", ".spec.template.spec.containers[name=main].env[name=A].value", "1", "2")
    assert classify(_outcome(pd, [role]), [role]) == {pd_rbac: 1}
    assert known_bugs(_outcome(pd, [role]), [role]) == {pd_rbac}
    both = _outcome(pd, [role, env])
    assert classify(both, [role, env]) == {pd_rbac: 1, "Deployment .spec.template.spec.containers[].env[].value": 1}
    assert known_bugs(both, [role, env]) == set()
    assert classify(_outcome(pd, [], llmc_error="exit 1: no"), []) == {"llmc rejects what the oracle renders": 1}
    assert classify(_outcome(pd, [], oracle_error="exit 1: no"), []) == {"the oracle rejects what llmc renders": 1}


def test_services_get_a_stable_uid_and_the_crd_defaults() -> None:
    api = "serving.kserve.io/v1alpha2"
    kv = {"cpu": "10Gi"}
    docs = [{"apiVersion": api, "kind": "LLMInferenceService", "metadata": {"name": "a"}, "spec": {"kvCacheOffloading": kv}},
            {"apiVersion": api, "kind": "LLMInferenceService", "metadata": {"name": "b", "uid": "mine"}},
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}]
    once, again = harness.admitted(docs), harness.admitted(docs)
    assert once == again and once[0]["metadata"]["uid"] and once[1]["metadata"]["uid"] == "mine"
    assert once[0]["spec"]["kvCacheOffloading"] == {"cpu": "10Gi", "evictionPolicy": "lru"}
    assert once[2] == docs[2] and "uid" not in docs[0]["metadata"] and kv == {"cpu": "10Gi"}
