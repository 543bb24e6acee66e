"""Child object names exactly as knative's kmeta.ChildName makes them.

Kubernetes names are limited to 63 bytes; when parent+suffix is longer, the
parent is cut and the md5 of the parent (or of parent+suffix for long
suffixes) is spliced in so that names stay unique and stable.
"""

from __future__ import annotations


_LIMIT = 63
_HEAD = _LIMIT - 32  # room left next to a 32-hex-digit md5


def child_name(parent: str, suffix: str) -> str:
    """Return kmeta.ChildName(parent, suffix); lengths are counted in UTF-8 bytes like Go."""
    p = parent.encode()
    s = suffix.encode()
    if len(p) + len(s) <= _LIMIT:
        return parent + suffix
    import hashlib  # only for long names: hashlib costs ~2 ms of start-up

    if len(s) < _HEAD:
        digest = hashlib.md5(p).hexdigest().encode()
        return (p[: _HEAD - len(s)] + digest + s).decode("utf-8", errors="replace")
    digest = hashlib.md5(p + s).hexdigest().encode()
    out = p[:_HEAD] + digest
    if len(out) < _LIMIT:
        out += s[: _LIMIT - len(out)]
    # makeValidName: drop trailing bytes that are not ASCII letters or digits.
    while out and not (out[-1:].isalnum() and out[-1] < 0x80):
        out = out[:-1]
    return out.decode("utf-8", errors="replace")
