"""Input files and folders that cannot be read as given (issue 16): exit 1 with the path, never skipped."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVICE = (ROOT / "docs" / "kustomize" / "generator" / "llama.yaml").read_text()


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2_000_000_000, 2_000_000_000))

    full = {k: v for k, v in os.environ.items() if not k.startswith("ARGOCD_ENV_")}
    full.update(env)
    return subprocess.run([sys.executable, "-m", "llmc", *args], cwd=cwd, env=full, capture_output=True, text=True,
                          timeout=120, preexec_fn=limits, stdin=subprocess.DEVNULL)


def clean_failure(done: subprocess.CompletedProcess[str], code: int = 1) -> None:
    assert done.returncode == code, done.stderr
    assert done.stdout == ""
    assert "Traceback" not in done.stderr


def test_an_unreadable_subfolder_is_an_error_not_skipped(tmp_path: Path, monkeypatch) -> None:
    """Root reads every folder, so the refusal is injected where os.walk lists a folder (EACCES, as for a user)."""
    from llmc.core.errors import LlmcError
    from llmc.read.inputs import read_documents

    services = tmp_path / "services"
    (services / "locked").mkdir(parents=True)
    (services / "llama.yaml").write_text(SERVICE)
    (services / "locked" / "other.yaml").write_text(SERVICE)
    real = os.scandir

    def scandir(path="."):
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    with pytest.raises(LlmcError) as err:
        read_documents([str(services)], {})
    assert err.value.exit_code == 1
    assert "cannot read folder: Permission denied" in err.value.message
    assert err.value.location.file.endswith("locked")


def test_a_fifo_is_named_as_such_not_missing(tmp_path: Path) -> None:
    (tmp_path / "llama.yaml").write_text(SERVICE)
    os.mkfifo(tmp_path / "pipe.yaml")
    done = run(["argocd-generate"], tmp_path, ARGOCD_ENV_LLMC_FILES="pipe.yaml")
    clean_failure(done, 2)
    assert "not a regular file or folder: pipe.yaml" in done.stderr
    assert "no such file" not in done.stderr


def test_not_utf8_is_bad_input_exit_1(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_bytes(SERVICE.encode() + b"\n# \xff\xfe\n")
    done = run(["render", "-f", "bad.yaml"], tmp_path)
    clean_failure(done, 1)
    assert "bad.yaml" in done.stderr and "not UTF-8" in done.stderr
