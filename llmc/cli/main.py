"""The `llmc` console script: a plain `llmc render` command line runs without typer; anything else goes to typer.

Importing typer and its click costs about as much as rendering a small service, and
`llmc render` is the command CI and Argo CD start again and again. `render_options`
parses a render command line only when it can do so exactly as click would: each
option spelt out as `-f X`, `--filename X` or `--filename=X`, flags alone, every
value valid for its option. Anything else (help, shell completion, an unknown or
misspelt option, a stray argument, `--`, a clustered or attached short option, a
bad value, a missing required option) returns None, and typer parses the command
line and prints its own help or error. tests/test_main.py checks the option table
against the typer command and the parses against click's.
"""

from __future__ import annotations

from llmc.core.regexes import install

install()  # first: the imports below compile their regular expressions from llmc.core.regexes' table

import errno
import gc
import os
import re
import sys

from llmc.options import RENDER
from llmc.cli.stdio import StdoutError, install, report

_BY_OPTION = {flag: (o.name, o.kind) for o in RENDER for flag in o.flags}
_INT = re.compile(r"-?[0-9]{1,18}")  # what llmc.cli.coerce converts itself (larger or odder numbers: typer's)


def render_options(argv: list[str], environ) -> dict | None:
    """`run`'s keyword arguments for `llmc ARGV`, or None when typer must parse the command line."""
    if argv[:1] != ["render"] or any(k.startswith("_") and k.endswith("_COMPLETE") for k in environ):
        return None
    options = {o.name: o.default for o in RENDER}
    args = iter(argv[1:])
    for arg in args:
        opt, eq, attached = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if opt not in _BY_OPTION:
            return None
        name, kind = _BY_OPTION[opt]
        if kind == "flag":
            if eq:
                return None
            options[name] = True
            continue
        value = attached if eq else next(args, None)
        if value is None:
            return None
        if kind == "list":
            options[name] = [*(options[name] or ()), value]
        elif kind == "int":
            if not _INT.fullmatch(value):
                return None
            options[name] = int(value)
        elif kind == "str" or value in kind:
            options[name] = value
        else:
            return None
    return options if options["filename"] else None


def main() -> None:
    """Entry point: never show a traceback for an internal failure unless LLMC_DEBUG is set."""
    try:
        options = render_options(sys.argv[1:], os.environ)
        if options is None:
            from llmc.cli.app import app

            app()
            return
        # Start-up allocates much and frees little: the cyclic collector's passes over it are wasted.
        # render_command turns it back on for large batches.
        gc.disable()
        if options["presets"]:  # read and admitted by a helper while the renderer is imported
            from llmc.read.preset_helper import start

            start(options["presets"], options["system_namespace"])
        from llmc.cli.render import run

        try:
            run(**options)
        except KeyboardInterrupt:  # what click does with it on typer's path
            sys.stderr.write("\nAborted!\n")
            sys.exit(1)
        except OSError as exc:  # a closed pipe (`llmc render ... | head`): quietly, as click does
            if exc.errno != errno.EPIPE:
                raise
            sys.stdout = sys.stderr = open(os.devnull, "w")
            sys.exit(1)
        finally:
            gc.enable()
            if options["presets"]:
                from llmc.read.preset_helper import discard

                discard()
    except SystemExit:
        raise
    except StdoutError as exc:
        sys.exit(report(exc))
    except KeyboardInterrupt:
        sys.stderr.write("llmc: interrupted\n")
        sys.exit(130)
    except Exception as exc:  # an llmc bug: say so plainly
        if os.environ.get("LLMC_DEBUG"):
            raise
        sys.stderr.write(f"llmc: internal error: {type(exc).__name__}: {exc}\n(set LLMC_DEBUG=1 for details; please report it)\n")
        sys.exit(3)


def console() -> None:
    """The console script: `main`, then leave without the interpreter's teardown.

    Tearing down the interpreter frees every object of the run one by one (module
    dictionaries, presets, CRD schemas) and runs a last full collection: about 20 ms,
    a sixth of a one-service render, for memory the operating system takes back at
    once. Once stdout and stderr are flushed nothing is left to do, so the process
    ends with `os._exit`. llmc registers no atexit handlers, and its workers (-j) and
    temporary files are closed by the time `main` returns.
    """
    install()
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code
    if code is not None and not isinstance(code, int):  # what the interpreter does with sys.exit("text")
        sys.stderr.write(f"{code}\n")
        code = 1
    try:
        sys.stdout.flush()
    except OSError as exc:
        code = code or report(exc)
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code or 0)

