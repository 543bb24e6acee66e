"""Start-up cost guards: what `llmc` imports for its fast commands, and the coercion shim that avoids pydantic."""

from __future__ import annotations

import subprocess
import sys
from enum import Enum
from pathlib import Path

import pytest
from typer._coercion import build_runtime_param
from typer.main import get_command

from llmc.cli.app import app
from llmc.cli.coerce import _UNKNOWN, plain_value

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "mistral-dra.yaml"


def _params():
    def walk(command, prefix):
        for param in command.params:
            yield f"{prefix}{param.name}", param
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            yield from walk(sub, f"{prefix}{name} ")

    return list(walk(get_command(app), ""))


def _samples(annotation):
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return [*annotation, *(m.value for m in annotation), "no-such-choice", ""]
    return [None, (), ("a", "-"), ["x"], "text", "", "12", "-3", "1e3", " 7", True, False, 0, 5]


@pytest.mark.parametrize("name,param", _params(), ids=[n for n, _ in _params()])
def test_plain_coercion_agrees_with_typer(name: str, param) -> None:
    """For every value the shim coerces itself, typer's own (pydantic) coercion gives the same result."""
    descriptor = param.type_descriptor
    typer_param = build_runtime_param(descriptor)
    for value in _samples(descriptor.annotation):
        ours = plain_value(descriptor.annotation, value, descriptor.parameter_info.case_sensitive)
        if ours is _UNKNOWN:
            continue
        theirs = typer_param._coerce_value(value, param=param, ctx=None)
        assert ours == theirs and type(ours) is type(theirs), (name, value)


def _imported(*argv: str) -> set[str]:
    code = (
        "import sys\n"
        f"sys.argv = ['llmc', *{list(argv)!r}]\n"
        "from llmc.cli.main import main\n"
        "try:\n    main()\n"
        "except SystemExit:\n    pass\n"
        "sys.stdout.flush()\n"
        "sys.__stderr__.write('\\n'.join(sorted(sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    return set(proc.stderr.splitlines())


HEAVY = ("pydantic", "jsonschema", "ruamel.yaml", "rich", "multiprocessing")


@pytest.mark.parametrize("argv,heavy", [
    (("version",), HEAVY),
    # a plain render command line runs without typer (llmc.cli.main), llmc's records without dataclasses, annotations
    # without typing (docs/architecture.md), whole quantities without fractions (llmc.k8s.quantity), file names
    # without pathlib and its urllib.parse and ipaddress (llmc.core.resources), checksums without zlib
    (("render", "-f", str(EXAMPLE)), (*HEAVY, "typer", "dataclasses", "inspect", "hashlib", "tempfile", "typing", "fractions",
                                      "pathlib", "urllib.parse", "ipaddress", "zlib")),
], ids=["version", "render"])
def test_fast_commands_import_no_heavy_library(argv: tuple[str, ...], heavy: tuple[str, ...]) -> None:
    modules = _imported(*argv)
    assert "llmc.cli.main" in modules and ("llmc.cli.render" in modules) == (argv[0] == "render")
    for name in heavy:
        assert name not in modules, f"llmc {' '.join(argv)} imports {name}"
