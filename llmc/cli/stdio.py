"""Standard streams that fail cleanly: stdout closed (`>&-`), full (`> /dev/full`) or gone, stderr closed (`2>&-`).

`install()` (run by the console script before anything is written) wraps stdout so that a
failed write or flush raises `StdoutError`, which `llmc.cli.main` reports as `error: writing
stdout: ...` with exit 1 instead of a traceback, for every command. A closed stdout becomes
such a stream that fails on its first write, so commands that print nothing still succeed. A
closed stderr becomes /dev/null: nothing can be reported there, and a run that succeeded
keeps its exit status.
"""

from __future__ import annotations

import errno
import os
import sys


class StdoutError(OSError):
    """Writing to stdout failed (the errno and strerror of the failure)."""


class _Closed:
    """What stdout is when its file descriptor was closed before llmc started."""

    encoding = "utf-8"
    errors = "strict"

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    def flush(self) -> None:
        return None

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))


class _Guarded:
    """A text stream whose write and flush failures become StdoutError; everything else is the stream's."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise StdoutError(exc.errno, exc.strerror) from None

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise StdoutError(exc.errno, exc.strerror) from None

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def install() -> None:
    """Guard the streams; stdout always writes UTF-8 (manifests are UTF-8 text whatever
    PYTHONIOENCODING or the locale say, so no character can fail halfway through the output)."""
    if sys.stdout is not None and hasattr(sys.stdout, "reconfigure") and \
            (sys.stdout.encoding or "").lower().replace("-", "").replace("_", "") != "utf8":
        sys.stdout.reconfigure(encoding="utf-8")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")
    if not isinstance(sys.stdout, _Guarded):
        sys.stdout = _Guarded(sys.stdout if sys.stdout is not None else _Closed())


def report(exc: OSError) -> int:
    """Say that writing stdout failed (quietly for a closed pipe, as click does); the exit code, 1."""
    if exc.errno != errno.EPIPE:
        try:
            sys.stderr.write(f"error: writing stdout: {exc.strerror or exc}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
    return 1
