"""The shape of `llmc/`: stages and libraries in layers that import only downward, a docstring on every
public class, and reference comments that point inside the repository or upstream (docs/architecture.md)."""

from __future__ import annotations

import ast
import fnmatch
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LLMC = ROOT / "llmc"

# Lowest first. A module may import its own layer and those below; a pattern without `*` wins over one with.
LAYERS: list[tuple[str, list[str]]] = [
    ("go semantics and plain data", ["gotemplate/*", "go/*", "jsoncopy.py", "record.py",
                                    "record_inits.py", "errors.py", "pyyaml.py", "quantity.py", "names.py",
                                    "options.py", "resources.py", "atomic.py"]),
    ("kserve and kubernetes as data", ["gotypes.py", "godecode.py", "findings.py", "settings.py", "kinds.py",
                                       "capabilities.py", "annotations.py", "isvc/kinds.py"]),
    ("read and load", ["load.py", "appfolder.py", "confine.py", "inputs.py", "report.py"]),
    ("admit", ["schema.py", "webhook.py", "conversion.py", "presets.py", "snapshot.py"]),
    ("resolve", ["merge.py", "templatedata.py", "resolve.py", "stopped.py", "splice.py"]),
    ("render", ["render/*", "isvc/*"]),
    ("check", ["references.py", "blame.py", "collisions.py", "validate_output.py"]),
    ("the driver", ["pipeline.py", "stream.py"]),
    ("order and emit, and the GitOps logic", ["emit.py", "diff.py", "diff_ignore.py", "diff_text.py", "explain.py",
                                              "krm.py", "outdir.py", "schema_export.py"]),
    ("command line", ["cli.py", "cliutil.py", "main.py", "render_command.py", "diff_command.py", "gitops_cli.py", "clihelp.py",
                      "clicoerce.py", "isvc/cli.py", "__main__.py", "stdio.py"]),
]

# Imports that still go upward, each with why; the test fails when one is fixed (drop it here) or a new one appears.
KNOWN_UPWARD = {
    ("resolve.py", "render/dra.py"): "managed-DRA injection into the merged spec is a post-template fix-up",
    ("resolve.py", "render/lora.py"): "LoRA adapter enumeration runs on the merged spec",
    ("resolve.py", "render/parallelism.py"): "the baseRef-invisible-fields finding",
    ("resolve.py", "render/router.py"): "the router's post-template fix-ups (pool selector, gateway refs, config.ref)",
    ("snapshot.py", "pipeline.py"): "`python -m llmc.snapshot` admits the built-in sets with the pipeline",
}


def _layer(rel: str) -> int | None:
    best = None
    for i, (_, patterns) in enumerate(LAYERS):
        for pattern in patterns:
            if fnmatch.fnmatch(rel, pattern) and (best is None or "*" not in pattern):
                best = i
    return best


def _modules() -> dict[str, str]:
    """module name -> path relative to llmc/"""
    out = {}
    for path in LLMC.rglob("*.py"):
        rel = path.relative_to(LLMC).as_posix()
        name = "llmc." + rel[:-3].replace("/", ".")
        out[name.removesuffix(".__init__")] = rel
    return out


def _imports(rel: str, modules: dict[str, str]):
    package = ("llmc." + rel[:-3].replace("/", ".")).rsplit(".", 1)[0]
    for node in ast.walk(ast.parse((LLMC / rel).read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - (node.level - 1)] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                name = f"{base}.{alias.name}"
                target = name if name in modules else base
                if target in modules:
                    yield modules[target]
        elif isinstance(node, ast.Import):
            yield from (modules[a.name] for a in node.names if a.name in modules)


def test_every_module_has_a_layer() -> None:
    assert [rel for rel in _modules().values() if not rel.endswith("__init__.py") and _layer(rel) is None] == []


def test_imports_go_only_downward() -> None:
    modules = _modules()
    upward = set()
    for rel in modules.values():
        if rel.endswith("__init__.py"):
            continue
        for target in _imports(rel, modules):
            if (_layer(target) or 0) > (_layer(rel) or 0):
                upward.add((rel, target))
    assert upward - KNOWN_UPWARD.keys() == set(), "new upward imports"
    assert KNOWN_UPWARD.keys() - upward == set(), "fixed: drop them from KNOWN_UPWARD"


def test_every_public_class_has_a_docstring() -> None:
    missing = [f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
               for path in LLMC.rglob("*.py")
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.ClassDef) and not node.name.startswith("_") and not ast.get_docstring(node)]
    assert missing == []


def test_reference_comments_point_inside_the_repository_or_upstream() -> None:
    pattern = re.compile(r"\.\./shared|[Rr]eference 0\d|\b0\d §\d")
    hits = [f"{p.relative_to(ROOT)}:{i}" for p in LLMC.rglob("*.py")
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert hits == []
