"""Reading inputs: files, folders, stdin and the built-in preset sets (the CLI's I/O edge)."""

from __future__ import annotations

import os
import stat
import sys
from functools import cache

from llmc.read.appfolder import stat_mode, walk
from llmc.core.errors import ErrorList, LlmcError, Location
from llmc.load.documents import Document, load_text


def expand(paths: list[str], skipped: list[tuple[str, str]] | None = None) -> list[str]:
    """Files as given, folders walked for manifests (`appfolder.walk`) in sorted order, `-` kept."""
    out: list[str] = []
    for raw in paths:
        if raw == "-":
            out.append(raw)
            continue
        try:
            mode = stat_mode(raw)
        except OSError as exc:  # a name too long, a loop of symlinks
            raise LlmcError(f"cannot read: {exc.strerror}", Location(raw[:200]), exit_code=2) from None
        if mode is not None and stat.S_ISDIR(mode):
            out += walk(raw, skipped)
        elif mode is not None:  # regular files, and pipes such as /dev/fd/N from <(...)
            out.append(raw)
        else:
            raise LlmcError("no such file or directory", Location(raw), exit_code=2)
    return out


def read_text(name: str) -> str:
    """The text of a file or of stdin (`-`), read no further than the input limit, strictly UTF-8.

    The limit (`load.MAX_FILE_BYTES`) is checked while reading, so a 2 GB file, `/dev/zero` or an
    endless stdin costs at most the limit in memory. Not UTF-8 is bad input (exit 1) at the first bad byte.
    """
    label = "<stdin>" if name == "-" else name
    if name == "-":
        data = _read_bounded(sys.stdin.buffer, label)
    else:
        try:
            with open(name, "rb") as fh:
                data = _read_bounded(fh, label)
        except OSError as exc:
            raise LlmcError(f"cannot read file: {exc.strerror}", Location(name), exit_code=2) from None
    return decode_utf8(data, label)


def _read_bounded(stream, label: str) -> bytes:
    from llmc.load.documents import MAX_FILE_BYTES

    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise LlmcError(
            f"input is over the limit of {MAX_FILE_BYTES // (1024 * 1024)} MiB (stopped reading there)",
            Location(label),
            hint="split the input into several files",
        )
    return data


def decode_utf8(data: bytes, label: str) -> str:
    """`data` as UTF-8 text, or an error at the line and column of the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        line = data.count(b"\n", 0, exc.start) + 1
        col = len(data[line_start:exc.start].decode("utf-8", "replace")) + 1
        raise LlmcError(
            f"not UTF-8 text: byte 0x{data[exc.start]:02x} ({exc.reason})", Location(label, line, col), exit_code=1,
        ) from None


def read_documents(paths: list[str], sources: dict[str, str], mentioning: str | None = None,
                   skipped: list[tuple[str, str]] | None = None) -> list[Document]:
    """Load every document of every path; `sources` receives each file's text for error excerpts.

    The documents read their positions again from that text when an error needs one. With
    `mentioning`, files whose text does not contain it are skipped (each file is read once).
    `skipped` receives (path, reason) for the files of folders that are no manifests (`appfolder.walk`).
    """
    docs: list[Document] = []
    errors: list[LlmcError] = []  # every file's errors, not only the first bad file's
    for name in expand(paths, skipped):
        label = "<stdin>" if name == "-" else name
        try:
            text = read_text(name)
            if mentioning is not None and mentioning not in text:
                continue
            sources[label] = text
            docs += load_text(text, label, keep_positions=False)
        except ErrorList as errs:
            errors += errs.errors
        except LlmcError as err:
            errors.append(err)
    if errors:
        raise ErrorList(errors)
    return docs


RUNTIMES_DIR = "runtimes"  # presets/runtimes holds ServingRuntimes for InferenceService, not a preset set


def builtin_sets() -> list[str]:
    from llmc.core.resources import data_dir

    folder = data_dir("presets")
    return sorted(name for name in os.listdir(folder) if os.path.isdir(os.path.join(folder, name)) and name != RUNTIMES_DIR)


@cache
def builtin_preset_files(name: str) -> tuple[str, ...]:
    from llmc.core.resources import data_dir

    # only a listed name: a path such as "../../.." or "/etc" must never become a folder to read
    if name not in builtin_sets():
        raise LlmcError(
            f"unknown preset set {name!r}",
            hint=f"built-in sets: {', '.join(builtin_sets())}",
            exit_code=2,
        )
    return tuple(expand([os.path.join(data_dir("presets"), name)]))


def runtime_documents(runtimes: list[str] | None, sources: dict[str, str]) -> list[Document]:
    """`--runtimes` folders/files, which replace the built-in ServingRuntimes and storage containers
    (presets/runtimes/*.yaml); without it, the built-in ones."""
    from llmc.core.resources import data_dir

    if runtimes:
        return read_documents(runtimes, sources)
    folder = os.path.join(data_dir("presets"), RUNTIMES_DIR)
    return read_documents(sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".yaml")),
                          sources)
