"""References inside the output resolve (llmc.check.references): every KServe sample and golden render, and small cases.

The sweep renders each sample with the built-in presets and with KServe's own
(`../shared/upstream/kserve/presets/master`), and each golden case that renders, then
walks every reference of the whole stdout (not one service at a time, as the pipeline
does) and requires that only the documented LLMC206 cases dangle among the objects
the services create.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from llmc.cli.app import app
from llmc.check.references import Index, Reference, Target, check, references, selections

ROOT = Path(__file__).resolve().parent.parent
UPSTREAM = ROOT.parent / "shared" / "upstream" / "kserve"
SAMPLES = sorted(UPSTREAM.glob("samples/**/*.yaml"))
PRESETS = {"builtin": [], "kserve-master": ["--presets", str(UPSTREAM / "presets" / "master")]}
GOLDEN = ROOT / "golden"
GOLDEN_RENDERS = sorted(
    p.name for p in GOLDEN.iterdir()
    if (p / "args").is_file() and not (p / "exit_code").exists() and "render" in (p / "args").read_text().split()
)


ISVC_SUFFIXES = ("", "-predictor")  # what the InferenceService controller names its objects


def services(inputs: list[Path]) -> dict[str, tuple[dict, tuple[str, ...] | None]]:
    """name -> (spec.labels, child suffixes: None for an LLMInferenceService's) of the services in `inputs`."""
    out = {}
    for path in inputs:
        for doc in yaml.safe_load_all(path.read_text()):
            if isinstance(doc, dict) and doc.get("kind") == "LLMInferenceService":
                out[doc["metadata"]["name"]] = ((doc.get("spec") or {}).get("labels") or {}, None)
            elif isinstance(doc, dict) and doc.get("kind") == "InferenceService":
                out[doc["metadata"]["name"]] = ({}, ISVC_SUFFIXES)
    return out


def dangling(stream: str, inputs: list[Path], **options) -> tuple[list, list, list]:
    """(errors, unmatched selectors, notes) of a whole rendered stream, for the services of `inputs`."""
    objs = [o for o in yaml.safe_load_all(stream) if o]
    index = Index(objs)
    errors, unmatched, notes = [], [], []
    for name, (labels, suffixes) in services(inputs).items():
        extra = {"suffixes": suffixes} if suffixes is not None else {}
        report = check(objs, name, spec_labels=labels, index=index, **options, **extra)
        errors += report.errors
        unmatched += report.unmatched
        notes += report.notes
    return errors, unmatched, notes


DOCUMENTED = {  # docs/findings.md LLMC206: the TLS Secret the controller generates at run time
    ("Deployment", "Secret"), ("LeaderWorkerSet", "Secret"),
}


def assert_only_documented(notes) -> None:
    for item, _ in notes:
        if isinstance(item, Reference):
            assert (item.source.kind, item.target.kind) in DOCUMENTED, item
            if item.target.kind == "Secret":
                assert item.target.name.endswith("-kserve-self-signed-certs"), item
        else:  # a selector spec.labels overrode
            assert item.source.kind == "Service", item


@pytest.fixture(scope="module")
def rendered_samples() -> list[tuple[str, str, str]]:
    out = []
    for sample in SAMPLES:
        for label, args in PRESETS.items():
            result = CliRunner().invoke(app, ["render", *args, "-f", str(sample)])
            if result.exit_code == 0 and result.stdout:
                out.append((sample, f"{sample.relative_to(UPSTREAM)} ({label})", result.stdout, result.stderr))
    return out


def test_every_rendering_sample_leaves_only_the_documented_dangling_references(rendered_samples) -> None:
    if not SAMPLES:
        pytest.skip("../shared/upstream/kserve is not there")
    assert len(rendered_samples) >= 40  # 21 samples render under each preset set
    for sample, label, stream, stderr in rendered_samples:
        errors, unmatched, notes = dangling(stream, [sample])
        assert errors == [] and unmatched == [], label
        assert_only_documented(notes)
        for item, _ in notes:  # the pipeline reported each of them
            assert f"LLMC206 " in stderr and item.where in stderr, label


def test_the_route_points_at_a_rendered_pool_of_the_same_group(rendered_samples) -> None:
    pools = 0
    for _, label, stream, _ in rendered_samples:
        objs = [o for o in yaml.safe_load_all(stream) if o]
        index = Index(objs)
        for obj in objs:
            for ref in references(obj):
                if ref.target.kind == "InferencePool":
                    pools += 1
                    assert index.resolves(ref), (label, ref)
    assert pools > 0


@pytest.mark.parametrize("name", GOLDEN_RENDERS)
def test_golden_renders_leave_only_the_documented_dangling_references(name: str) -> None:
    case = GOLDEN / name
    args = [line.strip() for line in (case / "args").read_text().splitlines() if line.strip() and not line.startswith("#")]
    cwd = os.getcwd()
    os.chdir(case)
    try:
        result = CliRunner().invoke(app, args, catch_exceptions=False)
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() or "serving.kserve.io/stop" in (case / "input.yaml").read_text()
    inputs = [case / a for a in args if (case / a).is_file() and a.endswith((".yaml", ".yml", ".json"))]
    inputs += [p for a in args if (case / a).is_dir() for p in sorted((case / a).rglob("*.yaml"))]
    # the review-only flag, and LLMC207 (no cert-manager), leave the TLS Secret out on purpose
    options = {"controller_objects": "--controller-objects" in args, "cert_manager": "LLMC207" not in result.stderr}
    errors, unmatched, notes = dangling(result.stdout, inputs, **options)
    assert errors == [] and unmatched == []
    assert_only_documented(notes)
    if "--controller-objects" not in args:
        tls = [item for item, _ in notes if isinstance(item, Reference) and item.target.kind == "Secret"]
        assert tls == []


# --------------------------------------------------------------------------- the walk itself


def pod(spec: dict, name: str = "s-kserve", kind: str = "Deployment") -> dict:
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": {"name": name, "namespace": "ns"},
            "spec": {"template": {"metadata": {"labels": {"app": "s"}}, "spec": spec}}}


def test_every_pod_reference_is_walked() -> None:
    obj = pod({
        "serviceAccountName": "sa",
        "imagePullSecrets": [{"name": "pull"}],
        "volumes": [{"name": "a", "secret": {"secretName": "sec"}}, {"name": "b", "configMap": {"name": "cm"}},
                    {"name": "c", "persistentVolumeClaim": {"claimName": "pvc"}},
                    {"name": "d", "secret": {"secretName": "opt", "optional": True}}],
        "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "rct"}],
        "containers": [{"name": "main", "env": [{"name": "T", "valueFrom": {"secretKeyRef": {"name": "tok", "key": "k"}}}],
                        "envFrom": [{"configMapRef": {"name": "envcm"}}]}],
    })
    found = {(r.path, r.target.kind, r.target.name) for r in references(obj)}
    assert found == {
        ("spec.template.spec.serviceAccountName", "ServiceAccount", "sa"),
        ("spec.template.spec.imagePullSecrets[0]", "Secret", "pull"),
        ("spec.template.spec.volumes[0].secret.secretName", "Secret", "sec"),
        ("spec.template.spec.volumes[1].configMap.name", "ConfigMap", "cm"),
        ("spec.template.spec.volumes[2].persistentVolumeClaim.claimName", "PersistentVolumeClaim", "pvc"),
        ("spec.template.spec.resourceClaims[0].resourceClaimTemplateName", "ResourceClaimTemplate", "rct"),
        ("spec.template.spec.containers[0].env[0].valueFrom.secretKeyRef", "Secret", "tok"),
        ("spec.template.spec.containers[0].envFrom[0].configMapRef", "ConfigMap", "envcm"),
    }


def test_a_backend_ref_must_match_the_pool_group_too() -> None:
    route = {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "s-kserve-route", "namespace": "ns"},
             "spec": {"rules": [{"backendRefs": [{"group": "inference.networking.x-k8s.io", "kind": "InferencePool", "name": "s-inference-pool"}]}]}}
    pool = {"apiVersion": "inference.networking.k8s.io/v1", "kind": "InferencePool", "metadata": {"name": "s-inference-pool", "namespace": "ns"}, "spec": {}}
    report = check([route, pool], "s")
    assert [r.target for r in report.errors] == [Target("inference.networking.x-k8s.io", "InferencePool", "ns", "s-inference-pool")]
    route["spec"]["rules"][0]["backendRefs"][0]["group"] = "inference.networking.k8s.io"
    assert check([route, pool], "s").errors == []


def test_user_objects_are_prerequisites_and_the_controllers_missing_children_errors() -> None:
    obj = pod({"serviceAccountName": "s-kserve", "volumes": [{"name": "t", "secret": {"secretName": "hf-token"}}]})
    report = check([obj], "s")
    assert [r.target.name for r in report.errors] == ["s-kserve"]
    assert [r.target.name for r in report.prerequisites] == ["hf-token"]


def test_a_binding_to_a_missing_child_service_account_is_an_error() -> None:
    # since reconcileMultiNodeMainServiceAccount is followed (no -mn Role/RoleBinding without the
    # -mn SA), the controller leaves no binding dangling: one in the output is an llmc bug
    binding = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": "s-kserve-mn-rb", "namespace": "ns"},
               "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "s-kserve-mn-role"},
               "subjects": [{"kind": "ServiceAccount", "name": "s-kserve-mn", "namespace": "ns"}]}
    role = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "s-kserve-mn-role", "namespace": "ns"}}
    report = check([binding, role], "s")
    assert [r.target.name for r in report.errors] == ["s-kserve-mn"] and report.notes == []
    assert [r.target.name for r in check([binding], "s").errors] == ["s-kserve-mn-role", "s-kserve-mn"]


def test_a_selector_that_spec_labels_overrode_is_a_note_and_any_other_an_error() -> None:
    svc = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s-kserve-workload-svc", "namespace": "ns"},
           "spec": {"selector": {"app.kubernetes.io/name": "s"}}}
    workload = pod({})
    workload["spec"]["template"]["metadata"]["labels"] = {"app.kubernetes.io/name": "mine"}
    assert [s.path for s in check([svc, workload], "s").unmatched] == ["spec.selector"]
    report = check([svc, workload], "s", spec_labels={"app.kubernetes.io/name": "mine"})
    assert report.unmatched == [] and len(report.notes) == 1
    assert list(selections(svc))[0].selector == {"app.kubernetes.io/name": "s"}


def test_the_tls_secret_needs_its_certificate_unless_review_only() -> None:
    obj = pod({"serviceAccountName": "sa", "volumes": [{"name": "t", "secret": {"secretName": "s-kserve-self-signed-certs"}}]})
    assert [r.target.name for r in check([obj], "s").errors] == ["s-kserve-self-signed-certs"]
    assert check([obj], "s", controller_objects=True).errors == []
    assert len(check([obj], "s", controller_objects=True).notes) == 1
    assert check([obj], "s", cert_manager=False).notes == []  # LLMC207 says it
    cert = {"apiVersion": "cert-manager.io/v1", "kind": "Certificate", "metadata": {"name": "c", "namespace": "ns"},
            "spec": {"secretName": "s-kserve-self-signed-certs", "issuerRef": {"kind": "ClusterIssuer", "name": "ca"}}}
    report = check([obj, cert], "s")
    assert report.errors == [] and [r.target.kind for r in report.prerequisites] == ["ServiceAccount", "ClusterIssuer"]


def test_explain_lists_the_prerequisites(tmp_path) -> None:
    """A user-named ServiceAccount and the hf-token Secret are prerequisites, listed by explain."""
    (tmp_path / "s.yaml").write_text(
        "apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceService\nmetadata:\n  name: s\n"
        "spec:\n  model:\n    uri: hf://facebook/opt-125m\n  template:\n    serviceAccountName: mine\n"
        "    containers:\n    - name: main\n      env:\n      - name: HF_TOKEN\n        valueFrom:\n"
        "          secretKeyRef:\n            name: hf-token\n            key: token\n")
    result = CliRunner().invoke(app, ["explain", "-o", "json", "-f", str(tmp_path / "s.yaml")])
    assert result.exit_code == 0, result.stderr
    import json

    prereqs = json.loads(result.stdout)["services"][0]["prerequisites"]
    assert {(p["kind"], p["name"]) for p in prereqs} >= {("ServiceAccount", "mine"), ("Secret", "hf-token")}


def test_an_inference_services_missing_child_is_an_error() -> None:
    from llmc.core.errors import ErrorList
    from llmc.load.documents import load_text
    from llmc.pipeline import _check_isvc_references

    case = GOLDEN / "isvc-s3"
    docs = load_text((case / "input.yaml").read_text(), "input.yaml")
    objs = [o for o in yaml.safe_load_all((case / "expected.yaml").read_text()) if o]
    _check_isvc_references(objs, docs)  # the golden output is whole
    with pytest.raises(ErrorList) as raised:
        _check_isvc_references([o for o in objs if o["kind"] != "Service"], docs)
    assert all("Service models/granite-predictor" in e.message and e.location.file == "input.yaml"
               for e in raised.value.errors)
