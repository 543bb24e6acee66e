"""Atomic exchange of two paths: Linux renameat2(RENAME_EXCHANGE), through ctypes.

With it, `--output-dir` swaps the new folder and the old one in one step, so no
kill can leave the target missing; elsewhere (no glibc 2.28, a file system
without the flag) `exchange` answers False and the caller falls back to two renames.
"""

from __future__ import annotations

import ctypes
import errno
import os
from functools import cache

AT_FDCWD = -100
RENAME_EXCHANGE = 2


@cache
def _renameat2():
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        func = libc.renameat2
    except (OSError, AttributeError):
        return None
    func.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint)
    func.restype = ctypes.c_int
    return func


def exchange(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Swap `a` and `b` atomically; False when the system cannot (then nothing changed). Other failures raise OSError."""
    func = _renameat2()
    if func is None:
        return False
    if func(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(b))
