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

import errno
import fnmatch
import os
import stat

from llmc.core.errors import LlmcError, Location

SUFFIXES = (".yaml", ".yml", ".json")
NOT_MANIFESTS = ("kustomization.yaml", "kustomization.yml", "Kustomization", "Chart.yaml", "values*.yaml", "values*.yml")
# what pathlib's is_file/is_dir/exists take for "no": other errors (EACCES, ENAMETOOLONG) are raised
_ABSENT = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)


def skip_reason(relative: str) -> str | None:
    """Why the file at `relative` (to the walked folder, '/'-separated) is no manifest, or None when it is one."""
    parts = [p for p in relative.split("/") if p and p != "."]
    if any(part.startswith(".") for part in parts):
        return "hidden file or folder"
    name = parts[-1] if parts else ""
    if any(fnmatch.fnmatchcase(name, pattern) for pattern in NOT_MANIFESTS):
        return "kustomize or helm file"
    if suffix(name) not in SUFFIXES:
        return "not .yaml, .yml or .json"
    return None


def suffix(name: str) -> str:
    """A file name's extension as pathlib's `suffix` gives it ("" for ".yaml" or "x.")."""
    i = name.rfind(".")
    return name[i:] if 0 < i < len(name) - 1 else ""


def normal(path: str) -> str:
    """`str(pathlib.PurePosixPath(path))`: empty and "." parts dropped, one root slash (two kept as two)."""
    slashes = len(path) - len(path.lstrip("/"))
    root = "//" if slashes == 2 else "/" if slashes else ""
    parts = [p for p in path.split("/") if p and p != "."]
    return root + "/".join(parts) if root or parts else "."


def join(folder: str, name: str) -> str:
    """`str(PurePosixPath(folder) / name)` for a `normal` folder and a plain file name."""
    if folder == ".":
        return name
    return folder + name if folder.endswith("/") else f"{folder}/{name}"


def sort_key(path: str) -> list[str]:
    """pathlib's order (part by part) for `normal` paths: "a/b" sorts before "a-c", as it does there."""
    return path.split("/")


def stat_mode(path: str) -> int | None:
    """`path`'s mode (symlinks followed), None when it is absent as pathlib's `exists` judges: other errors raised."""
    try:
        return os.stat(path).st_mode
    except OSError as exc:
        if exc.errno in _ABSENT:
            return None
        raise
    except ValueError:  # an embedded NUL
        return None


def walk(folder: str, skipped: list[tuple[str, str]] | None = None) -> list[str]:
    """The manifest files under `folder`, sorted; `skipped` receives (path, reason) of the other yaml/json
    files and of hidden folders (not walked). A subfolder that cannot be read is an error, not skipped.
    Paths are written as pathlib writes them (`normal`)."""
    top = normal(os.fspath(folder))

    def unreadable(exc: OSError) -> None:
        raise LlmcError(f"cannot read folder: {exc.strerror}", Location(exc.filename or top), exit_code=1)

    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(top, onerror=unreadable):
        here = normal(dirpath)
        relative = dirpath[len(top):]
        for name in [d for d in dirnames if d.startswith(".")]:
            dirnames.remove(name)
            if skipped is not None:
                skipped.append((join(here, name), "hidden file or folder"))
        for name in filenames:
            path = join(here, name)
            if not stat.S_ISREG(stat_mode(path) or 0):
                continue
            reason = skip_reason(f"{relative}/{name}")
            if reason is None:
                found.append(path)
            elif skipped is not None and (suffix(name) in SUFFIXES or name == "Kustomization"):
                skipped.append((path, reason))
    if skipped is not None:
        skipped.sort()
    return sorted(found, key=sort_key)
