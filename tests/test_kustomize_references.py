"""docs/kustomize/configurations.yaml under the real `kubectl kustomize`: namePrefix and namespace over llmc's output.

The base is five golden outputs (the four docs/examples services: single GPU, managed DRA,
prefill/decode, multi-node LWS; and a v1alpha2 InferencePool route). Two things are checked
after the build:

- every reference llmc.check.references walks that resolved in the base still resolves, with the
  configurations file (and without it, some do not: the file is what makes them follow);
- the references kustomize cannot follow, because they are parts of strings (`stale`), are
  exactly the ones docs/kustomize/README.md lists.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from llmc.check.references import Index, identity, pod_specs, references

ROOT = Path(__file__).resolve().parent.parent
CONFIGURATIONS = ROOT / "docs" / "kustomize" / "configurations.yaml"
CASES = ["example-llama-single-gpu", "example-mistral-dra", "example-qwen-prefill-decode",
         "example-deepseek-dp-multinode", "route-gateway-v1alpha2"]
NAME_LABEL = "app.kubernetes.io/name"

pytestmark = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")


def load(text: str) -> list[dict]:
    return [d for d in yaml.safe_load_all(text) if isinstance(d, dict)]


def base_objects() -> list[dict]:
    return [o for case in CASES for o in load((ROOT / "golden" / case / "expected.yaml").read_text())]


def build(tmp_path: Path, kustomization: dict, configurations: bool = True) -> list[dict]:
    base = tmp_path / "base"
    base.mkdir()
    for case in CASES:
        shutil.copy(ROOT / "golden" / case / "expected.yaml", base / f"{case}.yaml")
    (base / "kustomization.yaml").write_text(yaml.safe_dump({"resources": [f"{c}.yaml" for c in CASES]}))
    overlay = tmp_path / "overlay"
    overlay.mkdir()
    if configurations:
        shutil.copy(CONFIGURATIONS, overlay / "configurations.yaml")
        kustomization = {**kustomization, "configurations": ["configurations.yaml"]}
    (overlay / "kustomization.yaml").write_text(yaml.safe_dump({"resources": ["../base"], **kustomization}))
    done = subprocess.run(["kubectl", "kustomize", str(overlay)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return load(done.stdout)


def resolved(objects: list[dict]) -> list:
    index = Index(objects)
    return [ref for obj in objects for ref in references(obj) if index.resolves(ref)]


def broken_after(objects: list[dict]) -> list[str]:
    """References that resolved in the base and do not in `objects`, by source kind and field."""
    before = {(r.source.kind, r.path, r.target.kind) for r in resolved(base_objects())}
    index = Index(objects)
    return sorted({f"{r.source.kind}.{r.path}" for o in objects for r in references(o)
                   if (r.source.kind, r.path, r.target.kind) in before and not index.resolves(r)})


# --------------------------------------------------------------------------- references in strings


def _strings(node) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


def stale(objects: list[dict]) -> set[tuple[str, str]]:
    """(kind, what) of every reference inside a string that no longer names what it should."""
    names = {(identity(o).kind, identity(o).namespace, identity(o).name) for o in objects}
    found: set[tuple[str, str]] = set()
    for obj in objects:
        me = identity(obj)
        ns = (obj.get("metadata") or {}).get("namespace", "")
        service = ((obj.get("metadata") or {}).get("labels") or {}).get(NAME_LABEL, "")
        for _, pod in pod_specs(obj):
            for container in pod.get("containers") or []:
                words = [*(container.get("command") or []), *(container.get("args") or [])]
                flags = dict(zip(words, words[1:]))
                if "--pool-name" in flags and ("InferencePool", flags.get("--pool-namespace"), flags["--pool-name"]) not in names:
                    found.add((me.kind, "--pool-name/--pool-namespace"))
        for text in _strings(obj.get("spec")):
            if any(m != ns for m in re.findall(r"publishers/([^/]+)/models/", text)):
                found.add((me.kind, "publishers/<namespace>/models/..."))
        if me.kind == "HTTPRoute":
            for rule in obj["spec"].get("rules") or []:
                for match in rule.get("matches") or []:
                    value = (match.get("path") or {}).get("value", "")
                    if value.startswith("/") and not value.startswith("/publishers/") and value.count("/") >= 2 \
                            and value.split("/")[1:3] != [ns, service] and not value.startswith("/v1/"):
                        found.add((me.kind, "path /<namespace>/<name>"))
        if me.kind == "Certificate":
            for dns in obj["spec"].get("dnsNames") or []:
                parts = dns.split(".")
                if len(parts) >= 3 and parts[2] == "svc" and ("Service", parts[1], parts[0]) not in names:
                    found.add((me.kind, "dnsNames <service>.<namespace>.svc"))
        if me.kind == "ClusterRoleBinding" and me.name.endswith("-epp-auth-rb"):
            (subject,) = obj["subjects"]
            if not me.name.endswith(f"{subject['namespace']}-{service}-epp-auth-rb"):
                found.add((me.kind, "name <namespace>-<name>-epp-auth-rb"))
    return found


def test_the_base_has_no_stale_references_and_every_kind_of_reference() -> None:
    objects = base_objects()
    assert stale(objects) == set()
    kinds = {(r.source.kind, r.target.kind) for r in resolved(objects)}
    assert {("HTTPRoute", "InferencePool"), ("HTTPRoute", "Service"), ("InferencePool", "Service"),
            ("Deployment", "ResourceClaimTemplate"), ("LeaderWorkerSet", "ServiceAccount"),
            ("RoleBinding", "Role"), ("RoleBinding", "ServiceAccount"), ("ClusterRoleBinding", "ServiceAccount"),
            ("Certificate", "Issuer"), ("Deployment", "Secret"), ("LeaderWorkerSet", "Secret")} <= kinds
    assert {o["apiVersion"] for o in objects if o["kind"] == "InferencePool"} == {
        "inference.networking.k8s.io/v1", "inference.networking.x-k8s.io/v1alpha2"}


def test_name_prefix_follows_every_reference_with_the_configurations(tmp_path: Path) -> None:
    objects = build(tmp_path, {"namePrefix": "team-"})
    assert all(o["metadata"]["name"].startswith("team-") for o in objects if o["kind"] != "Namespace")
    assert broken_after(objects) == []
    # what kustomize cannot follow: names inside arguments and DNS names
    assert stale(objects) == {
        ("Deployment", "--pool-name/--pool-namespace"),
        ("Certificate", "dnsNames <service>.<namespace>.svc"),
    }


def test_without_the_configurations_name_prefix_breaks_the_references(tmp_path: Path) -> None:
    objects = build(tmp_path, {"namePrefix": "team-"}, configurations=False)
    assert broken_after(objects) == [
        "Certificate.spec.issuerRef",
        "Deployment.spec.template.spec.resourceClaims[0].resourceClaimTemplateName",
        *sorted({f"HTTPRoute.spec.rules[{i}].backendRefs[0]" for i in range(12)}),
        "InferencePool.spec.endpointPickerRef",
        "InferencePool.spec.extensionRef",
        "LeaderWorkerSet.spec.leaderWorkerTemplate.leaderTemplate.spec.serviceAccountName",
        "LeaderWorkerSet.spec.leaderWorkerTemplate.workerTemplate.spec.serviceAccountName",
    ]


def test_a_kustomization_namespace_leaves_the_namespace_in_strings(tmp_path: Path) -> None:
    """Why docs/kustomize/README.md says: set `namespace` in LLMRender, not in the kustomization."""
    objects = build(tmp_path, {"namespace": "moved"})
    assert {o["metadata"].get("namespace") for o in objects if o["kind"] != "ClusterRoleBinding"} == {"moved"}
    assert broken_after(objects) == []
    assert stale(objects) == {
        ("Deployment", "--pool-name/--pool-namespace"),
        ("Deployment", "publishers/<namespace>/models/..."),
        ("LeaderWorkerSet", "publishers/<namespace>/models/..."),
        ("HTTPRoute", "publishers/<namespace>/models/..."),
        ("HTTPRoute", "path /<namespace>/<name>"),
        ("Certificate", "dnsNames <service>.<namespace>.svc"),
        ("ClusterRoleBinding", "name <namespace>-<name>-epp-auth-rb"),
    }


def test_the_readme_lists_what_kustomize_cannot_follow() -> None:
    readme = (ROOT / "docs" / "kustomize" / "README.md").read_text()
    for text in ("--pool-name", "--pool-namespace", "/<namespace>/<name>", "publishers/<namespace>/",
                 "dnsNames", "<namespace>-<name>-epp-auth-rb", "configurations.yaml"):
        assert text in readme, text
    assert "set `namespace` in the `llmrender` object" in readme.lower()
