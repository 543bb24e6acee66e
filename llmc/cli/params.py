"""The typer parameter types of the commands, derived from the one option table (llmc.options)."""

from __future__ import annotations

import inspect
from enum import Enum
from typing import Annotated, Any, Optional

import typer

from llmc.options import BY_NAME


class KServeVersion(str, Enum):
    """Whose controller behaviour `--kserve-version` reproduces."""

    master = "master"
    v020 = "v0.20"


class Output(str, Enum):
    """The output format of `render` and `convert`."""

    yaml = "yaml"
    json = "json"


_CHOICES = {("yaml", "json"): Output, ("master", "v0.20"): KServeVersion}


def option_annotation(o) -> Any:
    """The typer annotation of one row of llmc.options: its type, and a typer.Option with its flags and help."""
    if o.kind == "list":
        hint: Any = list[str] if o.required else Optional[list[str]]
    elif o.kind == "flag":
        hint = bool
    elif o.kind == "int":
        hint = int
    elif isinstance(o.kind, tuple):
        hint = _CHOICES[o.kind] if o.default is not None else Optional[_CHOICES[o.kind]]
    else:
        hint = str if o.default is not None else Optional[str]
    return Annotated[hint, typer.Option(*o.flags, help=o.help)]


def typer_signature(options) -> inspect.Signature:
    """A command's signature for typer, from rows of llmc.options."""
    params = []
    for o in options:
        default = inspect.Parameter.empty if o.required else (
            _CHOICES[o.kind](o.default) if isinstance(o.kind, tuple) and o.default is not None else o.default)
        params.append(inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                        annotation=option_annotation(o)))
    return inspect.Signature(params, return_annotation=None)


FilesOpt = option_annotation(BY_NAME["filename"])
