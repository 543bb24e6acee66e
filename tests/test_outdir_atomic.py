"""--output-dir swaps folders atomically and cleans up after a killed run (issue 16)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from llmc.cli import outdir
from llmc.cli.atomic import exchange

OBJ = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "namespace": "ns"}}


def test_exchange_swaps_two_folders(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one").write_text("1")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "two").write_text("2")
    if not exchange(tmp_path / "a", tmp_path / "b"):
        pytest.skip("renameat2(RENAME_EXCHANGE) is not available here")
    assert (tmp_path / "a" / "two").read_text() == "2" and (tmp_path / "b" / "one").read_text() == "1"


def test_a_kill_during_the_swap_never_leaves_the_target_missing(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "out"
    outdir.write_output_dir([OBJ], target)
    if not exchange(tmp_path, tmp_path):  # probe: exchanging a path with itself succeeds where supported
        pytest.skip("renameat2(RENAME_EXCHANGE) is not available here")

    def killed(*args, **kwargs):
        raise KeyboardInterrupt  # a signal between two renames, the old non-atomic path

    monkeypatch.setattr(os, "rename", killed)
    outdir.write_output_dir([{**OBJ, "metadata": {"name": "b", "namespace": "ns"}}], target)
    assert sorted(p.name for p in target.iterdir()) == [".llmc-output", "configmap-ns-b.yaml"]


def test_leftovers_of_a_killed_run_are_removed(tmp_path: Path) -> None:
    target = tmp_path / "out"
    outdir.write_output_dir([OBJ], target)
    for name in (".out.new-x1", ".out.old-y2"):
        (tmp_path / name / "out").mkdir(parents=True)
    (tmp_path / ".other.new-z").mkdir()  # another folder's: not ours to remove
    outdir.write_output_dir([OBJ], target)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.new-z", "out"]
