"""`llmc convert`: InferenceService YAML in, LLMInferenceService YAML out (findings on stderr).

Registers the command on `llmc.cli.app`; importing this module is enough. It also
provides `builtin_runtime_documents`, the built-in ClusterServingRuntimes and
ClusterStorageContainer (presets/runtimes/), for `llmc render`.
"""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from ..cli import FilesOpt, Output, _fail, _stderr, app

RUNTIMES_FOLDER = "runtimes"


def builtin_runtime_documents(sources: dict[str, str]) -> list:
    """The documents of presets/runtimes/*.yaml (built-in runtimes and storage containers)."""
    from ..inputs import read_documents
    from ..resources import data_dir

    folder = data_dir("presets") / RUNTIMES_FOLDER
    return read_documents(sorted(str(p) for p in folder.glob("*.yaml")), sources)


def runtime_documents(runtimes: list[str] | None, sources: dict[str, str]) -> list:
    """`--runtimes` folders/files replace the built-in runtimes; without it, the built-in ones."""
    from ..inputs import read_documents

    return read_documents(runtimes, sources) if runtimes else builtin_runtime_documents(sources)


@app.command()
def convert(
    filename: FilesOpt,
    runtimes: Annotated[Optional[list[str]], typer.Option("--runtimes", help="Folder or file of ServingRuntime/ClusterServingRuntime objects replacing the built-in ones. Repeatable.")] = None,
    namespace: Annotated[str, typer.Option("-n", "--namespace", help="Namespace for objects without one.")] = "default",
    output: Annotated[Output, typer.Option("-o", "--output", help="Output format.")] = Output.yaml,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="Do not print findings.")] = False,
) -> None:
    """Convert InferenceServices (Hugging Face runtime, vLLM backend) into LLMInferenceServices."""
    from ..emit import to_json, to_yaml
    from ..errors import ErrorList, LlmcError
    from ..inputs import read_documents
    from .convert import convert_documents

    sources: dict[str, str] = {}
    try:
        documents = read_documents(filename, sources)
        objects, notes = convert_documents(documents, runtime_documents(runtimes, sources), namespace)
    except ErrorList as errs:
        _fail(errs.errors, sources)
    except LlmcError as err:
        _fail([err], sources)
    if not quiet and notes:
        console = _stderr()
        for note in notes:
            console.print(str(note), markup=False, soft_wrap=True)
    sys.stdout.write(to_json(objects) if output is Output.json else to_yaml(objects))
    sys.stdout.flush()
