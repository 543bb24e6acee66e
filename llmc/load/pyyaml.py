"""PyYAML, imported with its Python reader's NON_PRINTABLE regex compiled on first use.

`yaml.reader` compiles a large Unicode character class at import (about 4 ms, 5% of a
cold render), for the pure-Python reader only. llmc reads and writes YAML through
libyaml (CSafeLoader, CParser, CSafeDumper), which never uses that regex, so the
import hands the reader a pattern that compiles itself when first searched. Nothing
else of PyYAML changes; the console script (`llmc.cli.main`) imports this first.
"""

from __future__ import annotations

import re
import sys

_NON_PRINTABLE = "[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]"


class _LazyPattern:
    """A compiled pattern's stand-in that compiles on first attribute access."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._args = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str):
        if self._compiled is None:
            self._compiled = _compile(*self._args)
        return getattr(self._compiled, name)


_compile = re.compile


def _compile_lazily(pattern, flags=0):
    if pattern == _NON_PRINTABLE:
        return _LazyPattern(pattern, flags)
    return _compile(pattern, flags)


if "yaml" not in sys.modules:
    re.compile = _compile_lazily
    try:
        import yaml  # noqa: F401
    finally:
        re.compile = _compile
