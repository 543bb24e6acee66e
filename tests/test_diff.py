"""`llmc diff`: objects paired by identity, lists by name, kubectl diff's exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from llmc.cli.app import app
from llmc.gitops.diff import Change, diff_sets, object_key
from llmc.gitops.diff_text import format_report

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "llama-single-gpu.yaml"

DEPLOY = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "ns", "labels": {"a": "1"}},
    "spec": {
        "template": {
            "spec": {
                "containers": [
                    {"name": "main", "image": "x:1", "env": [{"name": "A", "value": "1"}]},
                    {"name": "side", "image": "y:1"},
                ]
            }
        }
    },
}


def edited(**changes):
    obj = json.loads(json.dumps(DEPLOY))
    for path, value in changes.items():
        node = obj
        *head, last = path.split("__")
        for part in head:
            node = node[int(part)] if part.isdigit() else node[part]
        node[int(last) if last.isdigit() else last] = value
    return obj


def test_identical_sets_are_the_same():
    assert diff_sets([DEPLOY], [json.loads(json.dumps(DEPLOY))]).same


def test_containers_pair_by_name_not_position():
    swapped = edited()
    swapped["spec"]["template"]["spec"]["containers"].reverse()
    report = diff_sets([DEPLOY], [swapped])
    # only the order changed: reported once, no field changes inside the containers
    (changes,) = report.changed.values()
    assert [c.path for c in changes] == ["spec.template.spec.containers[*].name"]


def test_field_change_has_path_and_values():
    new = edited(spec__template__spec__containers__0__image="x:2")
    (changes,) = diff_sets([DEPLOY], [new]).changed.values()
    assert changes == [Change("spec.template.spec.containers[name=main].image", old="x:1", new="x:2")]


def test_added_and_removed_objects_and_api_version_ignored():
    other = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "ns"}}
    moved = edited(apiVersion="apps/v1beta2")
    report = diff_sets([DEPLOY], [moved, other])
    assert report.changed == {}  # same group apps, same object
    assert [str(k) for k in report.added] == ["Service ns/web"]
    assert report.removed == []


def test_default_namespace_applies_to_namespaced_kinds_only():
    crb = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding", "metadata": {"name": "x"}}
    bare = {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "sa"}}
    assert object_key(crb, "team").namespace == ""
    assert object_key(bare, "team").namespace == "team"


def test_ignore_paths_with_and_without_list_selectors():
    new = edited(metadata__labels={"a": "2"}, spec__template__spec__containers__0__image="x:2")
    assert not diff_sets([DEPLOY], [new], ignore=("metadata.labels",)).same
    assert diff_sets([DEPLOY], [new], ignore=("metadata.labels", "spec.template.spec.containers.image")).same
    assert diff_sets([DEPLOY], [new], ignore=("metadata", "spec.template.spec.containers[name=main]")).same


def write(tmp_path: Path, name: str, objs) -> str:
    path = tmp_path / name
    path.write_text(yaml.safe_dump_all(objs))
    return str(path)


def test_cli_exit_codes_and_json(tmp_path):
    runner = CliRunner()
    a = write(tmp_path, "a.yaml", [DEPLOY])
    b = write(tmp_path, "b.yaml", [edited(spec__template__spec__containers__1__image="y:2")])
    same = runner.invoke(app, ["diff", a, a])
    assert same.exit_code == 0 and same.stdout == f"--- {a}\n+++ {a}\nno differences (1 object on both sides)\n"
    differ = runner.invoke(app, ["diff", a, b, "-o", "json"])
    assert differ.exit_code == 1
    report = json.loads(differ.stdout)
    assert report["changed"][0]["changes"] == [
        {"path": "spec.template.spec.containers[name=side].image", "old": "y:1", "new": "y:2"}
    ]
    missing = runner.invoke(app, ["diff", a, str(tmp_path / "nope.yaml")])
    assert missing.exit_code == 2 and missing.stdout == "" and "no such file" in missing.stderr
    one_side = runner.invoke(app, ["diff", a])
    assert one_side.exit_code == 2 and "two sides" in one_side.stderr


def test_cli_render_side_equals_its_own_render(tmp_path):
    runner = CliRunner()
    rendered = runner.invoke(app, ["render", "-q", "-f", str(EXAMPLE)])
    out = tmp_path / "out.yaml"
    out.write_text(rendered.stdout)
    result = runner.invoke(app, ["diff", str(out), "--render", str(EXAMPLE)])
    assert result.exit_code == 0, result.stdout + result.stderr


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
def test_kustomize_output_with_a_patch_shows_exactly_the_patch(tmp_path):
    """A kustomize overlay over llmc's own output changes one field; the diff names just that field."""
    runner = CliRunner()
    base = tmp_path / "base"
    base.mkdir()
    (base / "all.yaml").write_text(runner.invoke(app, ["render", "-q", "-f", str(EXAMPLE)]).stdout)
    (base / "kustomization.yaml").write_text("resources:\n- all.yaml\n")
    overlay = tmp_path / "overlay"
    overlay.mkdir()
    (overlay / "kustomization.yaml").write_text(
        "resources:\n- ../base\npatches:\n- target: {kind: Deployment, name: llama-8b-kserve}\n"
        "  patch: |-\n    - op: replace\n      path: /spec/replicas\n      value: 5\n"
    )
    built = subprocess.run(["kubectl", "kustomize", str(overlay)], capture_output=True, text=True, check=True)
    (tmp_path / "built.yaml").write_text(built.stdout)
    result = runner.invoke(app, ["diff", str(tmp_path / "built.yaml"), "--render", str(EXAMPLE), "-o", "json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["added"] == [] and report["removed"] == []
    assert report["changed"] == [
        {"object": "Deployment.apps team-a/llama-8b-kserve", "changes": [{"path": "spec.replicas", "old": 5, "new": 2}]}
    ]


CLAIMS = {
    "apiVersion": "resource.k8s.io/v1",
    "kind": "ResourceClaimTemplate",
    "metadata": {"name": "rct", "namespace": "ns"},
    "spec": {"spec": {"devices": {"requests": [
        {"name": "nvidia", "exactly": {"deviceClassName": "gpu.nvidia.com", "count": 1}},
        {"name": "nic", "exactly": {"deviceClassName": "rdma"}},
    ]}}},
}


def with_requests(*requests):
    obj = json.loads(json.dumps(CLAIMS))
    obj["spec"]["spec"]["devices"]["requests"] = list(requests)
    return obj


def test_an_element_that_differs_only_by_its_name_is_a_rename():
    gpu, nic = CLAIMS["spec"]["spec"]["devices"]["requests"]
    renamed = with_requests({**gpu, "name": "device"}, nic)
    (changes,) = diff_sets([CLAIMS], [renamed]).changed.values()
    assert changes == [Change("spec.spec.devices.requests[name=nvidia].name", old="nvidia", new="device")]


def test_an_element_with_another_difference_is_not_a_rename():
    gpu, nic = CLAIMS["spec"]["spec"]["devices"]["requests"]
    other = with_requests({**gpu, "name": "device", "exactly": {"deviceClassName": "gpu.nvidia.com", "count": 2}}, nic)
    (changes,) = diff_sets([CLAIMS], [other]).changed.values()
    path = "spec.spec.devices.requests"
    assert [(c.path, c.removed, c.added) for c in changes] == [
        (f"{path}[name=nvidia]", True, False), (f"{path}[name=device]", False, True)
    ]


def test_two_renames_pair_each_with_its_own_match_and_keep_the_order():
    gpu, nic = CLAIMS["spec"]["spec"]["devices"]["requests"]
    both = with_requests({**gpu, "name": "g"}, {**nic, "name": "n"})
    (changes,) = diff_sets([CLAIMS], [both]).changed.values()
    assert [(c.path, c.new) for c in changes] == [
        ("spec.spec.devices.requests[name=nvidia].name", "g"), ("spec.spec.devices.requests[name=nic].name", "n")
    ]
    swapped = with_requests({**nic, "name": "n"}, {**gpu, "name": "g"})
    (changes,) = diff_sets([CLAIMS], [swapped]).changed.values()
    assert changes[-1] == Change("spec.spec.devices.requests[*].name", old=["nvidia", "nic"], new=["n", "g"])


SCRIPT = "set -e\n" + "".join(f"echo step {i}\n" for i in range(40)) + "exec vllm serve /mnt/models\n"


def test_multi_line_strings_are_shown_as_a_line_diff():
    new_script = SCRIPT.replace("exec vllm serve /mnt/models", "exec vllm serve /mnt/models --port 8001")
    old = edited(spec__template__spec__containers__0__args=[SCRIPT])
    new = edited(spec__template__spec__containers__0__args=[new_script])
    text = format_report(diff_sets([old], [new], labels=("a.yaml", "b.yaml")))
    lines = text.splitlines()
    path = "spec.template.spec.containers[name=main].args[0]"
    start = lines.index(f"    ~ {path}:")
    body = lines[start + 1 : -1]
    assert body[0].startswith("        @@ ")
    assert "        -exec vllm serve /mnt/models" in body and "        +exec vllm serve /mnt/models --port 8001" in body
    assert "        -echo step 0" not in body and len(body) < 10, "only the changed lines and their context"
    assert "\\n" not in text


def test_header_and_summary_count_objects_and_fields():
    service = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "ns"}}
    account = {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "web", "namespace": "ns"}}
    new = edited(metadata__labels={"a": "2", "b": "1"})
    report = diff_sets([DEPLOY, service], [new, account, CLAIMS], labels=("overlay", "llmc render svc.yaml"))
    lines = format_report(report).splitlines()
    assert lines[:2] == ["--- overlay", "+++ llmc render svc.yaml"]
    assert "- Service ns/web (only left)" in lines and "+ ServiceAccount ns/web (only right)" in lines
    assert lines[-1] == "1 object only left, 2 only right, 1 changed (2 fields)"
    assert report.as_dict()["summary"] == {"onlyLeft": 1, "onlyRight": 2, "changed": 1, "fieldsChanged": 2}


ANNOTATED = edited(spec__template__metadata={"annotations": {"serving.kserve.io/x": "1", "plain": "1"}})


def test_ignore_globs_cover_keys_with_dots_and_brackets_are_literal():
    new = edited(spec__template__metadata={"annotations": {"serving.kserve.io/x": "2", "plain": "2"}})
    assert diff_sets([ANNOTATED], [new], ignore=("spec.template.metadata.annotations.*",)).same
    only_kserve = diff_sets([ANNOTATED], [new], ignore=("spec.template.metadata.annotations.serving.*",))
    assert [c.path for c in only_kserve.changed[next(iter(only_kserve.changed))]] == [
        "spec.template.metadata.annotations.plain"
    ]
    image = edited(spec__template__spec__containers__0__image="x:2")
    assert diff_sets([DEPLOY], [image], ignore=("spec.template.spec.containers[name=m*].image",)).same
    # `[nm]` is not a character class: this rule names no field
    report = diff_sets([DEPLOY], [image], ignore=("spec.template.spec.containers[nm]",))
    assert not report.same and report.unused_ignores == ["spec.template.spec.containers[nm]"]


def test_ignore_drops_ignored_parts_of_a_field_on_one_side_only():
    bare = edited(spec__template__metadata={})
    assert diff_sets([bare], [ANNOTATED], ignore=("spec.template.metadata.annotations.*",)).same
    (changes,) = diff_sets([bare], [ANNOTATED], ignore=("spec.template.metadata.annotations.plain",)).changed.values()
    assert changes == [Change("spec.template.metadata.annotations", new={"serving.kserve.io/x": "1"}, added=True)]


def test_ignore_scoped_to_a_kind():
    service = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "ns", "labels": {"a": "1"}}}
    relabel = lambda o: {**o, "metadata": {**o["metadata"], "labels": {"a": "9"}}}  # noqa: E731
    report = diff_sets([DEPLOY, service], [relabel(DEPLOY), relabel(service)], ignore=("Deployment:metadata.labels",))
    assert [str(k) for k in report.changed] == ["Service ns/web"]
    assert diff_sets([DEPLOY], [relabel(DEPLOY)], ignore=("Deployment.apps:metadata.labels.a",)).same
    assert diff_sets([DEPLOY], [relabel(DEPLOY)], ignore=("Deploy*:metadata.*",)).same
    unused = diff_sets([DEPLOY], [relabel(DEPLOY)], ignore=("Service:metadata.labels", "metadata.nothing"))
    assert unused.unused_ignores == ["Service:metadata.labels", "metadata.nothing"]


def test_cli_reports_ignore_rules_that_match_nothing(tmp_path):
    a = write(tmp_path, "a.yaml", [DEPLOY])
    b = write(tmp_path, "b.yaml", [edited(metadata__labels={"a": "2"})])
    result = CliRunner().invoke(app, ["diff", a, b, "--ignore", "metadata.labels", "--ignore", "Service:spec"])
    assert result.exit_code == 0, result.stdout
    assert "--ignore Service:spec matched no field" in result.stderr
    assert "metadata.labels matched" not in result.stderr


def render(*args: str) -> list[dict]:
    result = CliRunner().invoke(app, ["render", "-q", "-f", str(EXAMPLE), *args])
    assert result.exit_code == 0, result.stderr
    return [d for d in yaml.safe_load_all(result.stdout) if d]


def test_upgrade_preview_diffs_two_renders_of_the_same_services():
    runner = CliRunner()
    args = ["diff", "--render", str(EXAMPLE), "--preset-set", "kserve-v0.20", "--against-preset-set", "kserve-master"]
    result = runner.invoke(app, [*args, "-o", "json"])
    assert result.exit_code == 1, result.stderr
    report = json.loads(result.stdout)
    expected = diff_sets(render("--preset-set", "kserve-v0.20"), render("--preset-set", "kserve-master"))
    assert not expected.same
    assert report["changed"] == expected.as_dict()["changed"]
    assert report["left"] == f"llmc render {EXAMPLE} --preset-set kserve-v0.20"
    assert report["right"] == f"llmc render {EXAMPLE} --preset-set kserve-master"
    # the controller version alone, with the same presets
    versions = runner.invoke(app, ["diff", "--render", str(EXAMPLE), "--preset-set", "kserve-master",
                                   "--kserve-version", "v0.20", "--against-kserve-version", "master", "-o", "json"])
    expected = diff_sets(render("--kserve-version", "v0.20"), render("--kserve-version", "master"))
    assert versions.exit_code == (0 if expected.same else 1), versions.stderr
    assert json.loads(versions.stdout)["changed"] == expected.as_dict()["changed"]


def test_upgrade_preview_usage_errors(tmp_path):
    runner = CliRunner()
    same = runner.invoke(app, ["diff", "--render", str(EXAMPLE), "--against-preset-set", "kserve-master"])
    assert same.exit_code == 2 and "both sides are" in same.stderr
    a = write(tmp_path, "a.yaml", [DEPLOY])
    with_paths = runner.invoke(app, ["diff", a, "--render", str(EXAMPLE), "--against-preset-set", "kserve-v0.20"])
    assert with_paths.exit_code == 2 and "two renders of the same services" in with_paths.stderr
