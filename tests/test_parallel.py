"""`llmc render -j N`: the same bytes, findings, errors and exit code for every N; streamed output equals the whole-list emit."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
import yaml

from llmc.output.emit import to_yaml
from llmc.read.inputs import builtin_preset_files, read_documents
from llmc.pipeline import Request, run
from llmc.resolve.presets import DEFAULT_SET

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"


@cache
def _golden_inputs() -> tuple[tuple[Path, ...], tuple[Path, ...]]:
    """Inputs of the golden cases run as plain `render -f FILE`: (those that render, those that fail)."""
    good, bad = [], []
    for case in sorted(GOLDEN.iterdir()):
        args_file = case / "args"
        if not args_file.is_file():
            continue
        args = [line.strip() for line in args_file.read_text().splitlines() if line.strip()]
        if len(args) == 3 and args[:2] == ["render", "-f"]:
            (bad if (case / "exit_code").exists() else good).append((case / args[2]).resolve())
    return tuple(good), tuple(bad)


def _files(*paths: Path) -> list[str]:
    return [arg for path in paths for arg in ("-f", str(path))]


def _llmc(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "llmc", *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def _all_inputs() -> list[str]:
    good, _ = _golden_inputs()
    return _files(*_unique([*sorted((ROOT / "docs" / "examples").glob("*.yaml")), *good]))


def _unique(paths) -> list[Path]:
    """`paths` without the files that define a service again (an error)."""
    seen: set[tuple] = set()
    kept = []
    for path in paths:
        keys = {(d["kind"], d["metadata"].get("namespace", "default"), d["metadata"]["name"])
                for d in yaml.safe_load_all(path.read_text()) if isinstance(d, dict) and "metadata" in d}
        if not keys & seen:
            kept.append(path)
            seen |= keys
    return kept


def test_inputs_hold_many_services() -> None:
    out = _llmc("render", "-q", *_all_inputs())
    assert out.returncode == 0, out.stderr
    kinds = [doc["kind"] for doc in yaml.safe_load_all(out.stdout)]
    assert kinds.count("Deployment") + kinds.count("LeaderWorkerSet") > 40


@pytest.mark.parametrize("output", ["yaml", "json"])
def test_jobs_give_the_same_bytes(output: str) -> None:
    runs = {jobs: _llmc("render", "-o", output, "-j", jobs, *_all_inputs()) for jobs in ("1", "2", "0")}
    one = runs["1"]
    assert one.returncode == 0, one.stderr
    assert one.stdout and one.stderr  # objects, and findings
    for jobs, run in runs.items():
        assert (run.returncode, run.stdout, run.stderr) == (one.returncode, one.stdout, one.stderr), f"-j {jobs}"


def test_json_and_yaml_hold_the_same_objects() -> None:
    as_yaml = _llmc("render", "-q", "-j", "2", *_all_inputs())
    as_json = _llmc("render", "-q", "-j", "2", "-o", "json", *_all_inputs())
    assert json.loads(as_json.stdout)["items"] == list(yaml.safe_load_all(as_yaml.stdout))


def test_streamed_output_is_the_whole_list_emit() -> None:
    """Service-by-service writing gives exactly `to_yaml(ordered_objects(...))` of the whole request."""
    good, _ = _golden_inputs()
    llmisvc = _unique([*sorted((ROOT / "docs" / "examples").glob("*.yaml")), *(p for p in good if "isvc-" not in str(p))])
    sources: dict[str, str] = {}
    request = Request(read_documents(list(map(str, llmisvc)), sources),
                      read_documents(list(builtin_preset_files(DEFAULT_SET)), sources))
    whole = to_yaml(run(request).objects())
    streamed = _llmc("render", "-q", *_files(*llmisvc))
    assert streamed.returncode == 0, streamed.stderr
    assert streamed.stdout == whole


@pytest.mark.parametrize("case", ["error-missing-config", "error-unknown-field"])
def test_jobs_report_errors_the_same(case: str) -> None:
    """A bad service among good ones: the same errors and exit code, and nothing on stdout, for every N."""
    _, bad = _golden_inputs()
    broken = next(p for p in bad if p.parent.name == case)
    runs = {jobs: _llmc("render", "-j", jobs, *_all_inputs(), "-f", str(broken)) for jobs in ("1", "2")}
    assert runs["1"].returncode == 1
    assert runs["1"].stdout == ""
    assert "error:" in runs["1"].stderr
    assert (runs["2"].returncode, runs["2"].stdout, runs["2"].stderr) == (1, "", runs["1"].stderr)


def test_render_errors_from_workers_come_in_input_order(tmp_path: Path) -> None:
    """Services failing while rendered (not at admission), spread over the workers: every error, in file order."""
    template = (GOLDEN / "error-missing-config" / "input.yaml").read_text()
    broken = []
    for i, name in enumerate(["zz-last", "aa-first", "mm-middle"]):
        path = tmp_path / f"bad-{i}.yaml"
        path.write_text(template.replace("name: orphan", f"name: {name}"))
        broken.append(path)
    runs = {jobs: _llmc("render", "-j", jobs, *_all_inputs(), *_files(*broken)) for jobs in ("1", "2")}
    assert runs["1"].returncode == 1 and runs["1"].stdout == ""
    reported = [line for line in runs["1"].stderr.splitlines() if line.startswith("error:")]
    assert [line.split(":")[1].strip() for line in reported] == [str(p) for p in broken]
    assert (runs["2"].returncode, runs["2"].stdout, runs["2"].stderr) == (1, "", runs["1"].stderr)


def test_show_only_with_jobs() -> None:
    runs = {jobs: _llmc("render", "-q", "-j", jobs, "-s", "Deployment/*", *_all_inputs()) for jobs in ("1", "2")}
    assert runs["1"].returncode == 0 and runs["1"].stdout
    assert runs["2"].stdout == runs["1"].stdout


def test_negative_jobs_is_a_usage_error() -> None:
    run = _llmc("render", "-j", "-1", "-f", str(ROOT / "docs" / "examples" / "mistral-dra.yaml"))
    assert (run.returncode, run.stdout) == (2, "")
    assert "-j -1" in run.stderr
