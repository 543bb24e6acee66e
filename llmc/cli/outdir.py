"""`--output-dir` and `--show-only` for rendered objects (a CLI-layer module: it writes files).

`write_output_dir` writes one file per object, `<kind>-<namespace>-<name>.yaml`
(lower case; cluster-scoped objects `<kind>-<name>.yaml`). When two objects
would share a file, as the two InferencePools of one name in
`inference.networking.k8s.io` and `inference.networking.x-k8s.io` do, each of
them is named with its API group: `<kind>.<group>-<namespace>-<name>.yaml`; and
when that still clashes (Services `b-c` in namespace `a` and `c` in `a-b`), with
`_` between the parts: `<kind>[.<group>]_<namespace>_<name>.yaml`.

The folder is replaced as a whole, so files of objects that are gone disappear:
everything is written into a temporary sibling folder first, then swapped with
the old folder in one atomic renameat2(RENAME_EXCHANGE) (llmc.cli.atomic; where the
system lacks it, the old folder is moved aside and the new one renamed into
place), and the old one removed. An error or a kill before the swap leaves the
previous output untouched; sibling `.X.new-*`/`.X.old-*` folders a killed run
left behind are removed by the next run. A folder is
only ever replaced when it is empty or holds the marker file `.llmc-output`
that llmc writes, never a folder of someone else's files.
"""

from __future__ import annotations

import fnmatch
import glob
import os
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from llmc.core.errors import LlmcError, Location

MARKER = ".llmc-output"
MARKER_TEXT = "Written by `llmc render --output-dir`; llmc replaces this folder as a whole on every run.\n"
_UNSAFE = re.compile(r"[^a-z0-9._-]")

Obj = Mapping[str, Any]


def file_names(objects: Iterable[Obj], suffix: str = ".yaml") -> list[str]:
    """The file name of each object, in order; raises LlmcError for two identical objects."""
    objs = list(objects)
    plain = [_name(o, with_group=False) + suffix for o in objs]
    clashing = {n for n, count in Counter(plain).items() if count > 1}
    names = [_name(o, with_group=True) + suffix if n in clashing else n for o, n in zip(objs, plain)]
    # `-` also occurs inside names and namespaces (`a/b-c` and `a-b/c`); `_` occurs in neither part of a
    # valid kind, group or namespace, so the qualified name cannot meet another object's
    clashing = {n for n, count in Counter(names).items() if count > 1 and len({_key(o) for o, m in zip(objs, names) if m == n}) > 1}
    names = [_qualified(o) + suffix if n in clashing else n for o, n in zip(objs, names)]
    seen: set[str] = set()
    for obj, name in zip(objs, names):
        if name in seen:
            raise LlmcError(f"two objects would be written to {name}", hint=f"{_label(obj)} is rendered twice")
        seen.add(name)
    return names


def _key(obj: Obj) -> tuple[str, str, str, str]:
    meta = obj.get("metadata") or {}
    return (str(obj.get("apiVersion", "")).rsplit("/", 1)[0], str(obj.get("kind", "")), str(meta.get("namespace") or ""), str(meta.get("name", "")))


def _qualified(obj: Obj) -> str:
    """`<kind>.<group>_<namespace>_<name>` (`<kind>_<namespace>_<name>` for the core group)."""
    group, kind, namespace, name = _key(obj)
    group = group if "/" in str(obj.get("apiVersion", "")) else ""
    head = f"{kind}.{group}" if group else kind
    return "_".join(_UNSAFE.sub("_", p.lower()) for p in (head, namespace, name) if p)


def _name(obj: Obj, with_group: bool) -> str:
    meta = obj.get("metadata") or {}
    kind = str(obj.get("kind", ""))
    if with_group:
        api = str(obj.get("apiVersion", ""))
        group = api.rsplit("/", 1)[0] if "/" in api else ""
        kind = f"{kind}.{group}" if group else kind
    parts = [kind, meta.get("namespace") or "", str(meta.get("name", ""))]
    return "-".join(_UNSAFE.sub("_", p.lower()) for p in parts if p)


def write_output_dir(
    objects: list[Obj],
    directory: str | os.PathLike[str],
    serialize: Callable[[list[Obj]], str] | None = None,
    suffix: str = ".yaml",
) -> list[Path]:
    """Replace `directory` with one file per object, `serialize([obj])` each (default: YAML); return the files."""
    if serialize is None:
        from llmc.output.emit import to_yaml as serialize
    target = Path(directory)
    _check_replaceable(target)
    _remove_leftovers(target)
    names = file_names(objects, suffix)
    texts = [serialize([obj]) for obj in objects]  # everything that can fail on the data, before any write
    try:
        parent = target.resolve().parent
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=parent))
    except OSError as exc:
        raise _io_error(target, exc) from None
    try:
        os.chmod(staging, 0o777 & ~_umask())  # mkdtemp makes it private; the result should look like mkdir's
        for name, text in zip(names, texts):
            _write(staging / name, text)
        _write(staging / MARKER, MARKER_TEXT)
        _swap(staging, target.resolve())
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise _io_error(target, exc) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return [target / name for name in names]


def _io_error(target: Path, exc: OSError) -> LlmcError:
    return LlmcError(f"cannot write --output-dir {target}: {exc.strerror}", Location(str(target)), exit_code=2)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _check_replaceable(target: Path) -> None:
    if not target.exists():
        return
    if not target.is_dir():
        raise LlmcError(f"--output-dir {target} exists and is not a folder", Location(str(target)), exit_code=2)
    if any(target.iterdir()) and not (target / MARKER).is_file():
        raise LlmcError(
            f"refusing to replace {target}: it holds files llmc did not write",
            Location(str(target)),
            hint=f"use an empty or new folder; llmc marks its own output folders with {MARKER}",
            exit_code=2,
        )


def _write(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())


def _remove_leftovers(target: Path) -> None:
    """The staging and aside folders of an earlier run that was killed mid-way (mkdtemp names, see _swap)."""
    parent = target.absolute().parent
    if not parent.is_dir():
        return
    for prefix in (f".{target.name}.new-", f".{target.name}.old-"):
        for leftover in parent.glob(glob.escape(prefix) + "*"):
            if leftover.is_dir() and not leftover.is_symlink():
                shutil.rmtree(leftover, ignore_errors=True)


def _swap(staging: Path, target: Path) -> None:
    """Put `staging` where `target` is; the old folder is removed only once the new one is in place."""
    from llmc.cli.atomic import exchange

    if not target.exists():
        os.rename(staging, target)
        return
    if exchange(staging, target):
        shutil.rmtree(staging, ignore_errors=True)  # it now holds the old output
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
    os.rename(target, old / target.name)
    try:
        os.rename(staging, target)
    except BaseException:
        os.rename(old / target.name, target)
        raise
    finally:
        if target.exists():
            shutil.rmtree(old, ignore_errors=True)


# --------------------------------------------------------------------------- --show-only


def select(objects: list[Obj], show_only: list[str]) -> list[Obj]:
    """Objects matching any `KIND/NAME` or `KIND/NAMESPACE/NAME` pattern, in their order.

    KIND is case-insensitive; each part may use shell wildcards (`Deployment/*`).
    Every pattern must match something (helm's `--show-only` rule): an error
    lists what is there.
    """
    if not show_only:
        return list(objects)
    rules = [_parse(p) for p in show_only]
    picked = [o for o in objects if any(_matches(o, r) for r in rules)]
    for pattern, rule in zip(show_only, rules):
        if not any(_matches(o, rule) for o in objects):
            available = ", ".join(_label(o) for o in objects) or "no objects"
            raise LlmcError(
                f"--show-only {pattern} matches no rendered object",
                hint=f"rendered: {available}",
                exit_code=2,
            )
    return picked


def _parse(pattern: str) -> tuple[str, str | None, str]:
    parts = pattern.split("/")
    if len(parts) == 2 and all(parts):
        return parts[0].lower(), None, parts[1]
    if len(parts) == 3 and all(parts):
        return parts[0].lower(), parts[1], parts[2]
    raise LlmcError(f"--show-only {pattern!r} is not KIND/NAME or KIND/NAMESPACE/NAME", hint="e.g. Deployment/llama-8b-kserve", exit_code=2)


def _matches(obj: Obj, rule: tuple[str, str | None, str]) -> bool:
    kind, namespace, name = rule
    meta = obj.get("metadata") or {}
    if not fnmatch.fnmatchcase(str(obj.get("kind", "")).lower(), kind):
        return False
    if namespace is not None and not fnmatch.fnmatchcase(str(meta.get("namespace") or ""), namespace):
        return False
    return fnmatch.fnmatchcase(str(meta.get("name", "")), name)


def _label(obj: Obj) -> str:
    meta = obj.get("metadata") or {}
    return f"{obj.get('kind', '')}/{meta.get('name', '')}"
