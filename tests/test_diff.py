"""`llmc diff`: objects paired by identity, lists by name, kubectl diff's exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from llmc.cli import app
from llmc.diff import Change, diff_sets, object_key

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
    assert same.exit_code == 0 and same.stdout == "no differences\n"
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
