"""The CLI as a user meets it: presets commands, inputs, and errors that never reach stdout."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml
from typer.testing import CliRunner

from llmc.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
runner = CliRunner()


def test_presets_list_names_both_sets_and_their_configs():
    result = runner.invoke(app, ["presets", "list"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "kserve-master (default)" in lines and "kserve-v0.20" in lines
    assert "  config-llm-tokenizer" in lines  # master only
    master = lines[lines.index("kserve-master (default)") + 1 : lines.index("kserve-v0.20")]
    assert len(master) == 11 and len(lines) - lines.index("kserve-v0.20") - 1 == 10


def test_presets_show_prints_an_installable_config():
    result = runner.invoke(app, ["presets", "show", "kserve-config-llm-template"])
    assert result.exit_code == 0
    obj = yaml.safe_load(result.stdout)
    assert (obj["apiVersion"], obj["kind"], obj["metadata"]["name"]) == (
        "serving.kserve.io/v1alpha2", "LLMInferenceServiceConfig", "kserve-config-llm-template")
    missing = runner.invoke(app, ["presets", "show", "config-llm-nope"])
    assert missing.exit_code == 2 and "no preset" in missing.stderr and missing.stdout == ""


def test_folder_input_renders_every_service_in_service_order():
    result = runner.invoke(app, ["render", "-q", "-f", str(EXAMPLES)])
    assert result.exit_code == 0
    objs = list(yaml.safe_load_all(result.stdout))
    services = []
    for obj in objs:
        owner = obj["metadata"].get("labels", {}).get("app.kubernetes.io/name")
        if owner and (not services or services[-1] != owner):
            services.append(owner)
    # grouped by service, services sorted by namespace/name
    assert services == ["deepseek-dp", "mistral-dra", "llama-8b", "qwen-pd"]


def test_stdin_input_and_json_output():
    text = (EXAMPLES / "llama-single-gpu.yaml").read_text()
    result = runner.invoke(app, ["render", "-q", "-f", "-", "-o", "json"], input=text)
    assert result.exit_code == 0
    doc = yaml.safe_load(result.stdout)
    assert doc["kind"] == "List" and {o["kind"] for o in doc["items"]} >= {"Deployment", "HTTPRoute"}


def test_one_bad_service_among_good_ones_prints_nothing(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceService\nmetadata:\n  name: x\nspec:\n  model:\n    uri: gs://b/m\n")
    result = runner.invoke(app, ["render", "-f", str(EXAMPLES), "-f", str(bad)])
    assert result.exit_code == 1 and result.stdout == ""
    assert f"{bad}:" in result.stderr and "unsupported schema in model URI" in result.stderr


def test_usage_errors_exit_2():
    both = runner.invoke(app, ["render", "-f", str(EXAMPLES), "--presets", str(EXAMPLES), "--preset-set", "kserve-master"])
    assert both.exit_code == 2 and both.stdout == ""
    unknown_set = runner.invoke(app, ["render", "-f", str(EXAMPLES), "--preset-set", "kserve-v9"])
    assert unknown_set.exit_code == 2 and "unknown preset set" in unknown_set.stderr


def test_strict_fails_on_warnings_but_not_on_notes():
    notes_only = runner.invoke(app, ["render", "--strict", "-f", str(EXAMPLES / "llama-single-gpu.yaml")])
    assert notes_only.exit_code == 0 and "note: LLMC302" in notes_only.stderr
    warned = runner.invoke(app, ["render", "--strict", "-f", str(ROOT / "golden/pipeline-parallel-single-node/input.yaml")])
    assert warned.exit_code == 1 and "warning: LLMC101" in warned.stderr
    assert warned.stdout  # the manifests are still written; the exit code carries the verdict


def test_no_traceback_for_a_binary_file(tmp_path):
    blob = tmp_path / "blob.yaml"
    blob.write_bytes(b"\xff\xfe\x00garbage")
    proc = subprocess.run([sys.executable, "-m", "llmc", "render", "-f", str(blob)], capture_output=True, text=True)
    assert proc.returncode in (1, 2) and proc.stdout == ""
    assert "Traceback" not in proc.stderr and str(blob) in proc.stderr


def test_owner_references_need_the_uid(tmp_path):
    text = (EXAMPLES / "llama-single-gpu.yaml").read_text()
    without = runner.invoke(app, ["render", "-q", "--owner-references", "-f", "-"], input=text)
    assert without.exit_code == 2 and without.stdout == "" and "needs metadata.uid" in without.stderr
    uid = "3f1c9a2e-0000-4000-8000-000000000001"
    with_uid = runner.invoke(
        app, ["render", "-q", "--owner-references", "-f", "-"],
        input=text.replace("  namespace: team-a\n", f"  namespace: team-a\n  uid: {uid}\n", 1),
    )
    assert with_uid.exit_code == 0
    objs = list(yaml.safe_load_all(with_uid.stdout))
    ref = {"apiVersion": "serving.kserve.io/v1alpha2", "kind": "LLMInferenceService", "name": "llama-8b",
           "uid": uid, "controller": True, "blockOwnerDeletion": True}
    for obj in objs:
        if obj["kind"] == "ClusterRoleBinding":  # cluster-scoped: a namespaced owner is not allowed
            assert "ownerReferences" not in obj["metadata"]
        else:
            assert obj["metadata"]["ownerReferences"] == [ref], obj["kind"]


def test_progress_bar_only_for_large_batches_on_a_terminal():
    import io

    from rich.console import Console

    from llmc.cli.common import PROGRESS_MIN, progress

    small = list(range(PROGRESS_MIN - 1))
    assert progress(small, len(small)) is small  # no bar, the items themselves
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=80)
    items = list(range(PROGRESS_MIN))
    assert list(progress(items, len(items), console)) == items
    assert f"{PROGRESS_MIN}/{PROGRESS_MIN}" in out.getvalue()
