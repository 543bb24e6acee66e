"""Built-in data prepared ahead of time, as a `.pyc` is for a module: preset sets and CRD schemas.

Reading the eleven YAML files of a set, applying the config CRD's defaults and
checking them against its schema (840 KB of JSON to load first) is the same work
on every run, and a sixth of a one-service render. `llmc/snapshots/<set>.marshal`
holds its result: each file's text, each document as read, and each config as
admitted (with its defaulted namespace left to fill in). `admitted_builtin` uses
it only when every file's text is the one it was made from; otherwise, or when
the snapshot is missing or unreadable, llmc reads and admits the YAML as it
would any preset file.

`llmc/snapshots/regexes.marshal` holds the regular expressions a render compiles
(`llmc.core.regexes`), and `templates.marshal` the parsed template strings of the
presets (`llmc.resolve.parsed_strings`), both recorded from renders of the shipped
examples with each set.

`llmc/snapshots/crd/<schema>.marshal` holds a CRD schema of schemas/crd/ with
its identical subtrees stored once (the service CRD holds the pod spec schema four
times): 35 KB that load in a fraction of a millisecond instead of 440 KB of JSON
that take 5 ms. `llmc.core.resources.read_schema` uses it only when the JSON file is the one it was
made from (length and CRC-32). Shared subtrees are safe because llmc only reads
schemas.

A preset snapshot also depends on llmc's admission code. tests/test_snapshot.py
checks that each snapshot equals what it stands for; after changing a preset, a
schema or the admission, run `python -m llmc.read.snapshot` to write them again.
"""

from __future__ import annotations

import marshal
import os

from llmc.core.resources import SNAPSHOTS, shared
from llmc.load.documents import Document
from llmc.resolve.presets import StoredConfig

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

FORMAT = 1
FOLDER = SNAPSHOTS
_DEFAULTED = None  # the namespace slot of a config admitted with the system namespace


def admitted_builtin(set_name: str, files: tuple[str, ...], system_namespace: str,
                     sources: dict[str, str]) -> list[StoredConfig] | None:
    """The configs of built-in set `set_name` (its `files`) as admission would store them, or None.

    `sources` receives each file's text, as `read_documents` would give it.
    """
    try:
        with open(os.path.join(FOLDER, f"{set_name}.marshal"), "rb") as f:
            data = marshal.loads(f.read())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    if data["files"] != [(os.path.basename(file), _read(file)) for file in files]:
        return None
    texts = [text for _, text in data["files"]]
    sources.update(zip(files, texts))
    return stored_configs(files, texts, data["configs"], system_namespace)


def stored_configs(files, texts: list[str], entries: list[tuple], system_namespace: str) -> list[StoredConfig]:
    """The configs of snapshot `entries`, each (file index, document index, item, object as read,
    object as admitted, name, namespace or `_DEFAULTED`), read from `files` with `texts`."""
    configs = []
    for file_index, doc_index, item, raw, admitted, name, namespace in entries:
        if namespace is _DEFAULTED:
            namespace = system_namespace
            admitted["metadata"]["namespace"] = namespace
        doc = Document(raw, files[file_index], doc_index, item=item, source=texts[file_index])
        configs.append(StoredConfig(name, namespace, admitted, doc))
    return configs


def _read(file: str) -> str | None:
    try:
        with open(file, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def build(set_name: str) -> dict[str, Any]:
    """The snapshot of built-in set `set_name`, from its YAML files and llmc's admission."""
    from llmc.read.inputs import builtin_preset_files, read_documents
    from llmc.pipeline import Request, admit_request

    files = builtin_preset_files(set_name)
    sources: dict[str, str] = {}
    docs = read_documents(list(files), sources)
    configs = list(admit_request(Request([], docs)).resolver.store)
    by_doc = {(c.doc.file, c.doc.index): c for c in configs}
    entries = []
    for doc in docs:
        config = by_doc[(doc.file, doc.index)]
        defaulted = not (doc.obj.get("metadata") or {}).get("namespace")
        entries.append((files.index(doc.file), doc.index, doc.item, doc.obj, config.obj, config.name,
                        _DEFAULTED if defaulted else config.namespace))
    return {"format": FORMAT, "files": [(os.path.basename(f), sources[f]) for f in files], "configs": entries}


# Run in a child: record every pattern compiled while llmc renders argv[1:] (from the first import),
# and every JSON string literal render_config parses on its own.
_RECORDER = """
import marshal, os, sys
from re import _compiler
seen, literals, compile_source, exit_now = set(), set(), _compiler.compile, os._exit
def compile(p, flags=0):
    if isinstance(p, (str, bytes)) and not flags & 128:  # re.DEBUG prints, so it is never taken from a table
        seen.add((p, int(flags)))
    return compile_source(p, flags)
compile.table = {}  # seen as installed: llmc.core.regexes.install leaves the recorder in place
_compiler.compile = compile
from llmc.resolve import templatedata
string_nodes = templatedata._string_nodes
def recording(literal):
    literals.add(literal)
    return string_nodes(literal)
templatedata._string_nodes = recording
def exit(code):
    sys.stdout.flush()
    sys.__stderr__.buffer.write(marshal.dumps((sorted(seen, key=repr), sorted(literals))))
    exit_now(code)
os._exit = exit
sys.argv = ["llmc", *sys.argv[1:]]
from llmc.cli.main import console
console()
"""


def recorded(argv: list[str]) -> tuple[set[tuple[str | bytes, int]], set[str]]:
    """The (pattern, flags) pairs `llmc ARGV` compiles, from the first import on, and the string
    literals it parses as templates (a child process)."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", _RECORDER, *argv], capture_output=True, check=True)
    patterns, literals = marshal.loads(proc.stderr)
    return set(patterns), set(literals)


def recorded_renders() -> tuple[set[tuple[str | bytes, int]], set[str]]:
    """What renders of the shipped examples, with each built-in set and output format, compile and parse."""
    from pathlib import Path

    from llmc.core.resources import data_dir
    from llmc.read.inputs import builtin_sets

    examples = sorted(Path(data_dir("docs")).glob("examples/*.yaml"))
    patterns: set[tuple[str | bytes, int]] = set()
    literals: set[str] = set()
    for set_name in builtin_sets():
        for output in ("yaml", "json"):
            for example in examples:
                found = recorded(["render", "-q", "-f", str(example), "--preset-set", set_name, "-o", output])
                patterns |= found[0]
                literals |= found[1]
    return patterns, literals


def regex_table(patterns: set[tuple[str | bytes, int]]) -> tuple:
    """llmc/snapshots/regexes.marshal's content: `patterns` compiled for this interpreter."""
    from llmc.core.regexes import compiled_arguments, interpreter

    return interpreter(), {key: compiled_arguments(*key) for key in sorted(patterns, key=repr)}


def template_table(literals: set[str]) -> tuple:
    """llmc/snapshots/templates.marshal's content: each literal that parses on its own, packed."""
    from llmc.go.template.packed import pack
    from llmc.resolve import parsed_strings
    from llmc.resolve.templatedata import function_names, parse_string

    entries = {}
    for literal in sorted(literals):
        nodes = parse_string(literal)
        if nodes is not None:
            entries[literal] = [pack(node) for node in nodes]
    return parsed_strings.header(function_names()), entries


def main() -> None:
    """Write llmc/snapshots/<set>.marshal for every built-in preset set, crd/<schema>.marshal, regexes.marshal
    and templates.marshal."""
    import json
    import zlib
    from pathlib import Path

    from llmc.read.inputs import builtin_sets
    from llmc.core.resources import data_dir

    folder = Path(FOLDER)
    (folder / "crd").mkdir(parents=True, exist_ok=True)
    for set_name in builtin_sets():
        path = folder / f"{set_name}.marshal"
        path.write_bytes(marshal.dumps(build(set_name)))
        print(f"wrote {path}")
    for source in sorted((Path(data_dir("schemas")) / "crd").glob("*.json")):
        data = source.read_bytes()
        path = folder / "crd" / f"{source.stem}.marshal"
        path.write_bytes(marshal.dumps((len(data), zlib.crc32(data), shared(json.loads(data)))))
        print(f"wrote {path}")
    patterns, literals = recorded_renders()
    for name, table in (("regexes", regex_table(patterns)), ("templates", template_table(literals))):
        path = folder / f"{name}.marshal"
        path.write_bytes(marshal.dumps(table))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
