"""The same input gives the same bytes: across runs, hash seeds, input order, and between -o yaml and -o json."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from test_output_valid import invoke

from llmc.load.documents import load_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yaml"))
TLS = ROOT / "golden" / "tls-on"
LLMC = "from llmc.cli.main import main; main()"


def _split_user_config(tmp_path: Path) -> list[Path]:
    """golden/baseref-user-config as two files: the team's config and the service naming it."""
    config, service = (ROOT / "golden" / "baseref-user-config" / "input.yaml").read_text().split("\n---\n")
    files = [tmp_path / "team-config.yaml", tmp_path / "gemma.yaml"]
    files[0].write_text(config)
    files[1].write_text(service)
    return files


def _files_args(files: list[Path]) -> list[str]:
    return [arg for f in files for arg in ("-f", str(f))]


def test_repeated_runs_are_byte_identical() -> None:
    for example in EXAMPLES:
        runs = [invoke(["render", "-f", str(example)]) for _ in range(3)]
        assert runs[0].code == 0, runs[0].stderr
        assert len({(r.stdout, r.stderr) for r in runs}) == 1, example.name


def test_hash_seed_does_not_change_output(tmp_path: Path) -> None:
    """Each run in its own interpreter (run side by side): str hashes, so set and dict orders, differ per seed."""
    args = ["render", *_files_args([*EXAMPLES, *_split_user_config(tmp_path)]),
            "--kserve-config", str(TLS / "kserve-config.yaml")]
    runs = [(seed, output) for output, seeds in (("yaml", ("0", "1", "random")), ("json", ("0", "4242"))) for seed in seeds]
    procs = [subprocess.Popen([sys.executable, "-c", LLMC, *args, "-o", output], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONHASHSEED": seed})
             for seed, output in runs]
    results: dict[str, set] = {"yaml": set(), "json": set()}
    for (seed, output), proc in zip(runs, procs):
        stdout, stderr = proc.communicate(timeout=120)
        assert proc.returncode == 0, stderr
        results[output].add((stdout, stderr))
    assert len(results["yaml"]) == 1 and len(results["json"]) == 1


def test_file_order_does_not_matter(tmp_path: Path) -> None:
    files = [*EXAMPLES, *_split_user_config(tmp_path), TLS / "input.yaml"]
    outputs = set()
    for perm in itertools.islice(itertools.permutations(files), 0, None, 977):  # a spread of the 5040 orders
        run = invoke(["render", *_files_args(list(perm))])
        assert run.code == 0, run.stderr
        outputs.add((run.stdout, run.stderr))
    assert len(outputs) == 1
    assert len(list(yaml.safe_load_all(outputs.pop()[0]))) > 40


def test_folder_and_single_stream_match_separate_files(tmp_path: Path) -> None:
    files = [*EXAMPLES, *_split_user_config(tmp_path)]
    separate = invoke(["render", *_files_args(files)])
    folder = tmp_path / "all"
    folder.mkdir()
    for f in files:
        (folder / f.name).write_text(f.read_text())
    stream = tmp_path / "stream.yaml"
    stream.write_text("\n---\n".join(f.read_text() for f in reversed(files)))
    assert separate.code == 0, separate.stderr
    for args in (["-f", str(folder)], ["-f", str(stream)]):
        run = invoke(["render", *args])
        assert run.code == 0, run.stderr
        assert run.stdout == separate.stdout


def test_error_report_does_not_depend_on_file_order(tmp_path: Path) -> None:
    bad = []
    for i, text in enumerate([
        "apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceService\nmetadata: {name: a}\nspec: {replica: 1}\n",
        "apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceService\nmetadata: {name: b}\nspec: {baseRefs: [{name: nope}], model: {uri: 5}}\n",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: 1, a: 2}\n",
    ]):
        bad.append(tmp_path / f"bad{i}.yaml")
        bad[-1].write_text(text)
    for files, named in (([*bad[:2], EXAMPLES[0]], ("bad0.yaml", "bad1.yaml")),  # errors of admission
                         ([*bad, EXAMPLES[0]], ("bad2.yaml",))):  # a file that does not load stops before admission
        reports = set()
        for perm in itertools.permutations(files):
            run = invoke(["render", *_files_args(list(perm))])
            assert run.code == 1 and run.stdout == ""
            reports.add(run.stderr)
        assert len(reports) == 1
        assert all(name in next(iter(reports)) for name in named)


@pytest.mark.parametrize("source", [*EXAMPLES, TLS / "input.yaml"], ids=lambda p: p.parent.name if p.name == "input.yaml" else p.name)
def test_yaml_and_json_carry_the_same_objects(source: Path) -> None:
    extra = ["--kserve-config", str(TLS / "kserve-config.yaml")] if source.parent == TLS else []
    as_yaml = invoke(["render", "-f", str(source), *extra])
    as_json = invoke(["render", "-f", str(source), "-o", "json", *extra])
    assert as_yaml.code == as_json.code == 0, as_yaml.stderr + as_json.stderr
    assert as_yaml.stderr == as_json.stderr
    items = json.loads(as_json.stdout)
    assert items["apiVersion"] == "v1" and items["kind"] == "List"
    from_yaml = list(yaml.safe_load_all(as_yaml.stdout))
    assert from_yaml == items["items"]
    # Same key order too, and llmc's own reader sees the same objects in both.
    assert [list(o) for o in from_yaml] == [list(o) for o in items["items"]]
    assert [d.obj for d in load_text(as_yaml.stdout)] == [d.obj for d in load_text(as_json.stdout)] == items["items"]
