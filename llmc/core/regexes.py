"""Regular expressions compiled ahead of time, as a `.pyc` is for a module.

Python compiles a pattern with Python code (`re._parser`, `re._compiler`) the first time a
process uses it, and no process keeps the result: a one-service render compiles about 90
(PyYAML's resolvers and reader, llmc's validators, json), about 8 ms of an 85 ms cold run.
`llmc/snapshots/regexes.marshal` holds, for the patterns a render compiles, the arguments
`re._compiler.compile` would hand `_sre.compile` (final flags, code, group count and names).
`install()` makes `re` take them from the table for exactly those (pattern, flags) pairs and
compile everything else as before; `re`'s own cache, flags and errors are untouched.

The code is specific to the interpreter, so the table records the bytecode tag, `_sre.MAGIC`,
`CODESIZE` and `MAXREPEAT` it was made under, and is not used under any other. It is written
by `python -m llmc.read.snapshot` (which records the patterns of real renders);
tests/test_regexes.py compiles every entry afresh and compares.
"""

from __future__ import annotations

import _sre
import marshal
import os.path
import sys
from re import _compiler

# not llmc.core.resources.SNAPSHOTS: its imports (pathlib, json) compile patterns before the table is in place
TABLE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "snapshots", "regexes.marshal")


def interpreter() -> tuple:
    """What the compiled code depends on: a table made under another interpreter is not used."""
    return (sys.implementation.cache_tag, _sre.MAGIC, _sre.CODESIZE, _sre.MAXREPEAT, sys.maxunicode)


def compiled_arguments(pattern: str | bytes, flags: int) -> tuple:
    """`_sre.compile`'s arguments after the pattern: what `re._compiler.compile` computes (a table entry)."""
    from re import _parser

    parsed = _parser.parse(pattern, flags)
    code = [int(c) for c in _compiler._code(parsed, flags)]  # opcodes are int subclasses, which marshal refuses
    groupindex = parsed.state.groupdict
    indexgroup = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return int(flags | parsed.state.flags), code, parsed.state.groups - 1, dict(groupindex), tuple(indexgroup)


def read_table() -> dict[tuple[str | bytes, int], tuple] | None:
    """The table's entries by (pattern, flags), or None when it is missing, unreadable or for another interpreter."""
    try:
        with open(TABLE, "rb") as f:
            header, entries = marshal.loads(f.read())  # not marshal.load(f): it reads the file in small pieces
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return entries if header == interpreter() else None


def install() -> None:
    """Have `re` compile the table's patterns from the table (once per process; a no-op without a usable table)."""
    if getattr(_compiler.compile, "table", None) is not None:
        return
    table = read_table()
    if not table:
        return
    compile_source = _compiler.compile

    def compile(p, flags=0):
        # int(): a RegexFlag hashes by its name, not its value
        entry = table.get((p, int(flags))) if isinstance(p, (str, bytes)) else None
        if entry is None:
            return compile_source(p, flags)
        return _sre.compile(p, *entry)

    compile.table, compile.source = table, compile_source
    _compiler.compile = compile
