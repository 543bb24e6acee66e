"""Confining GitOps path inputs to allowed folders.

In Argo CD, kustomize and KRM pipelines llmc runs over whatever a pull request
puts in a repository, so no path option may read outside the folder it runs in:
every file (a folder's files too) is resolved, symlinks included, and must lie
under an allowed root. The roots are the working directory plus the folders in
`LLMC_ALLOWED_ROOTS` (os.pathsep-separated, e.g. a shared presets checkout of a
multi-source Argo CD application). A path is refused before it is opened, so no
error message can echo a file from outside.
"""

from __future__ import annotations

import os
from pathlib import Path

from llmc.core.errors import LlmcError, Location

ALLOWED_ROOTS_ENV = "LLMC_ALLOWED_ROOTS"


def allowed_roots(cwd: Path, env: dict[str, str]) -> tuple[Path, ...]:
    """The working directory and the folders of LLMC_ALLOWED_ROOTS, resolved."""
    extra = [p for p in env.get(ALLOWED_ROOTS_ENV, "").split(os.pathsep) if p.strip()]
    return tuple(dict.fromkeys(Path(p).resolve() for p in (cwd, *extra)))


def inside(path: Path, roots: tuple[Path, ...]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def confine(raw: str, roots: tuple[Path, ...], base: Path, what: str) -> Path:
    """`raw` (relative to `base`) resolved; an LlmcError (exit 2) when it leads outside every root."""
    if raw == "-" or "\0" in raw:
        raise LlmcError(f"{what} {raw!r} is not a path llmc reads here", Location(what), exit_code=2)
    resolved = (base / raw).resolve()
    if not inside(resolved, roots):
        raise LlmcError(
            f"{what} {raw} is outside the allowed folders", Location(what),
            hint=f"use paths inside the working directory, or add a shared folder to {ALLOWED_ROOTS_ENV}",
            exit_code=2,
        )
    return resolved


def confined_files(paths: tuple[str, ...] | list[str], roots: tuple[Path, ...], base: Path, what: str) -> tuple[str, ...]:
    """The files of `paths` (folders walked), each checked: a symlink inside a folder must not lead out.

    Names stay as given (relative to `base`, the working directory), so messages name them as the user wrote them."""
    from llmc.read.inputs import expand

    out: list[str] = []
    for raw in paths:
        confine(raw, roots, base, what)
        for name in expand([raw]):
            resolved = confine(name, roots, base, what)
            if not resolved.is_file():  # a FIFO or device would block or never end; git holds neither
                raise LlmcError(f"not a regular file or folder: {name}", Location(what), exit_code=2)
            out.append(name)
    return tuple(dict.fromkeys(out))
