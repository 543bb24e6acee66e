"""Which files of a folder are manifests: the files a GitOps repository keeps next to them are not.

A folder given with -f (render, check, explain, diff) or as an Argo CD application's path is
walked recursively for *.yaml, *.yml and *.json. Skipped, because they are another tool's
input rather than Kubernetes objects:

- kustomize's `kustomization.yaml` / `kustomization.yml` / `Kustomization`;
- helm's `Chart.yaml` and `values*.yaml`;
- anything whose name, or the name of a folder below the walked one, starts with a dot
  (`.git/`, `.github/`, `.pre-commit-config.yaml`).

A file named explicitly is always read, whatever its name.
"""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path

from llmc.core.errors import LlmcError, Location

SUFFIXES = (".yaml", ".yml", ".json")
NOT_MANIFESTS = ("kustomization.yaml", "kustomization.yml", "Kustomization", "Chart.yaml", "values*.yaml", "values*.yml")


def skip_reason(relative: Path) -> str | None:
    """Why the file at `relative` (to the walked folder) is no manifest, or None when it is one."""
    if any(part.startswith(".") for part in relative.parts):
        return "hidden file or folder"
    if any(fnmatch.fnmatchcase(relative.name, pattern) for pattern in NOT_MANIFESTS):
        return "kustomize or helm file"
    if relative.suffix not in SUFFIXES:
        return "not .yaml, .yml or .json"
    return None


def walk(folder: Path, skipped: list[tuple[str, str]] | None = None) -> list[Path]:
    """The manifest files under `folder`, sorted; `skipped` receives (path, reason) of the other yaml/json
    files and of hidden folders (not walked). A subfolder that cannot be read is an error, not skipped."""
    def unreadable(exc: OSError) -> None:
        raise LlmcError(f"cannot read folder: {exc.strerror}", Location(exc.filename or str(folder)), exit_code=1)

    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(folder, onerror=unreadable):
        here = Path(dirpath)
        for name in [d for d in dirnames if d.startswith(".")]:
            dirnames.remove(name)
            if skipped is not None:
                skipped.append((str(here / name), "hidden file or folder"))
        for name in filenames:
            path = here / name
            if not path.is_file():
                continue
            reason = skip_reason(path.relative_to(folder))
            if reason is None:
                found.append(path)
            elif skipped is not None and (path.suffix in SUFFIXES or path.name == "Kustomization"):
                skipped.append((str(path), reason))
    if skipped is not None:
        skipped.sort()
    return sorted(found)
