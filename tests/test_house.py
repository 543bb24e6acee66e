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
# The stages run in this order too (docs/architecture.md), except read: it does I/O, so it sits at the edge
# with the command line and hands load's Documents to the driver.
LAYERS: list[tuple[str, list[str]]] = [
    ("plain data and Go semantics", ["core/*", "go/*", "go/template/*", "options.py"]),
    ("Kubernetes and KServe as data", ["k8s/*", "kserve/*"]),
    ("load", ["load/*"]),
    ("admit", ["admit/*"]),
    ("resolve", ["resolve/*"]),
    ("render", ["render/*", "isvc/*"]),
    ("check", ["check/*"]),
    ("order and emit", ["output/*"]),
    ("the driver", ["pipeline.py", "stream.py"]),
    ("read: the input edge", ["read/*"]),
    ("the GitOps logic", ["gitops/*"]),
    ("command line", ["cli/*", "__main__.py"]),
]

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


def _type_checking_only(tree: ast.Module) -> set[int]:
    """ids of the nodes under `if TYPE_CHECKING:`: imports for annotations, never run."""
    return {id(node) for stmt in ast.walk(tree)
            if isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Name) and stmt.test.id == "TYPE_CHECKING"
            for child in stmt.body for node in ast.walk(child)}


def _imports(rel: str, modules: dict[str, str], *, at_run_time: bool = False):
    package = ("llmc." + rel[:-3].replace("/", ".")).rsplit(".", 1)[0]
    tree = ast.parse((LLMC / rel).read_text(encoding="utf-8"))
    skip = _type_checking_only(tree) if at_run_time else set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
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
    assert sorted(upward) == []


def test_no_import_cycles() -> None:
    """No module imports itself back through others when it runs, lazy imports included."""
    modules = _modules()
    graph = {rel: set(_imports(rel, modules, at_run_time=True)) - {rel} for rel in modules.values()}
    cycles = []
    for start in sorted(graph):
        seen, todo = set(), list(graph[start])
        while todo:
            rel = todo.pop()
            if rel not in seen:
                seen.add(rel)
                todo += graph[rel]
        if start in seen:
            cycles.append(start)
    assert cycles == []


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


def test_package_init_files_hold_only_a_docstring() -> None:
    """Importing a package runs nothing: start-up cost and import order live in the modules that need them."""
    busy = [f"{p.relative_to(ROOT)}" for p in LLMC.rglob("__init__.py")
            if [n for n in ast.parse(p.read_text(encoding="utf-8")).body
                if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str))]]
    assert busy == []
