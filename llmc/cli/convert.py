"""`llmc convert`: InferenceService YAML in, LLMInferenceService YAML out (findings on stderr).

`llmc.cli.app` registers the command.
"""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from llmc.cli.params import FilesOpt, Output
from llmc.cli.common import reported, stderr_console


def convert(
    filename: FilesOpt,
    runtimes: Annotated[Optional[list[str]], typer.Option("--runtimes", help="Folder or file of ServingRuntime/ClusterServingRuntime objects replacing the built-in ones. Repeatable.")] = None,
    namespace: Annotated[str, typer.Option("-n", "--namespace", help="Namespace for objects without one.")] = "default",
    output: Annotated[Output, typer.Option("-o", "--output", help="Output format.")] = Output.yaml,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="Do not print findings.")] = False,
) -> None:
    """Convert InferenceServices (Hugging Face runtime, vLLM backend) into LLMInferenceServices."""
    from llmc.output.emit import to_json, to_yaml
    from llmc.read.inputs import read_documents, runtime_documents
    from llmc.isvc.convert import convert_documents

    sources: dict[str, str] = {}
    with reported(sources):
        documents = read_documents(filename, sources)
        objects, notes = convert_documents(documents, runtime_documents(runtimes, sources), namespace)
        _check_resources(objects, documents)
    if not quiet and notes:
        console = stderr_console()
        for note in notes:
            console.print(str(note), markup=False, soft_wrap=True)
    sys.stdout.write(to_json(objects) if output is Output.json else to_yaml(objects))
    sys.stdout.flush()


def _check_resources(objects, documents) -> None:
    """A converted container whose requests exceed its limits (the predictor's merged with the runtime's)
    would be refused once rendered: report it at the InferenceService's resources, print nothing."""
    from llmc.core.errors import ErrorList, LlmcError
    from llmc.load.documents import format_path
    from llmc.check.api_rules import resource_errors

    docs = {(d.namespace or "", d.name): d for d in documents if d.kind == "InferenceService"}
    errors = []
    for obj in objects:
        meta = obj["metadata"]
        doc = docs.get((meta.get("namespace", ""), meta["name"]))
        containers = ((obj.get("spec") or {}).get("template") or {}).get("containers") or []
        for i, ctr in enumerate(containers):
            for path, message in resource_errors(ctr.get("resources"), ("spec", "template", "containers", i, "resources")):
                where = ("spec", "predictor", "model", "resources", *path[5:])
                location = doc.locate(where) if doc is not None else None
                if location is not None:
                    location.path = format_path(where)
                errors.append(LlmcError(f"the converted LLMInferenceService {meta['name']} would be rejected: "
                                        f"{format_path(path)}: {message}", location,
                                        hint="the runtime's limits apply to the predictor: raise them in "
                                             "spec.predictor.model.resources or lower the requests"))
    if errors:
        raise ErrorList(errors)
