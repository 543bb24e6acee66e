"""llmc/snapshots/: each built-in preset set's snapshot equals a fresh admission of its YAML, and is used only then."""

from __future__ import annotations

import copy
import json
import marshal
import shutil
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_output_valid import invoke

from llmc.core import resources
from llmc.read import snapshot
from llmc.read.inputs import builtin_preset_files, builtin_sets, read_documents
from llmc.pipeline import Request, admit_request
from llmc.kserve.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "mistral-dra.yaml"
UPDATE = "the snapshot is stale: run `python -m llmc.read.snapshot` and commit llmc/snapshots/"


def fresh(set_name: str, system_namespace: str, files: tuple[str, ...] | None = None):
    """The set's configs and sources as llmc admits the YAML files."""
    sources: dict[str, str] = {}
    docs = read_documents(list(files or builtin_preset_files(set_name)), sources)
    store = admit_request(Request([], docs, Settings(system_namespace=system_namespace))).resolver.store
    return list(store), sources


def summary(configs) -> list[tuple]:
    return [(c.name, c.namespace, c.obj, c.doc.obj, c.doc.file, c.doc.index, c.doc.item,
             c.doc.locate(("metadata", "name")), c.doc.locate(("spec", "template"))) for c in configs]


@pytest.mark.parametrize("system_namespace", ["kserve", "llm-system"])
@pytest.mark.parametrize("set_name", builtin_sets())
def test_snapshot_equals_a_fresh_admission(set_name: str, system_namespace: str) -> None:
    sources: dict[str, str] = {}
    loaded = snapshot.admitted_builtin(set_name, builtin_preset_files(set_name), system_namespace, sources)
    assert loaded is not None, UPDATE
    settings = Settings(system_namespace=system_namespace)
    store = admit_request(Request([], [], settings, admitted_presets=loaded)).resolver.store
    configs, fresh_sources = fresh(set_name, system_namespace)
    assert summary(store) == summary(configs), UPDATE
    assert sources == fresh_sources


def test_an_edited_preset_is_read_from_its_yaml(tmp_path: Path) -> None:
    """A preset whose text is not the snapshot's (an installation edited in place) is admitted from the file."""
    files = []
    for file in builtin_preset_files("kserve-master"):
        files.append(str(shutil.copy(file, tmp_path)))
    assert snapshot.admitted_builtin("kserve-master", tuple(files), "kserve", {}) is not None
    Path(files[0]).write_text(Path(files[0]).read_text() + "\n# edited\n")
    assert snapshot.admitted_builtin("kserve-master", tuple(files), "kserve", {}) is None
    assert snapshot.admitted_builtin("kserve-master", tuple(files[1:]), "kserve", {}) is None  # one file fewer


def test_a_missing_or_broken_snapshot_is_not_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    files = builtin_preset_files("kserve-master")
    monkeypatch.setattr(snapshot, "FOLDER", tmp_path)
    assert snapshot.admitted_builtin("kserve-master", files, "kserve", {}) is None
    (tmp_path / "kserve-master.marshal").write_bytes(b"\x00garbage")
    assert snapshot.admitted_builtin("kserve-master", files, "kserve", {}) is None


def test_rendering_with_and_without_the_snapshot_is_the_same(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with_snapshot = invoke(["render", "-f", str(EXAMPLE), "--system-namespace", "llm-system"])
    monkeypatch.setattr(snapshot, "FOLDER", tmp_path)
    without = invoke(["render", "-f", str(EXAMPLE), "--system-namespace", "llm-system"])
    assert with_snapshot.code == without.code == 0
    assert (with_snapshot.stdout, with_snapshot.stderr) == (without.stdout, without.stderr)


SCHEMAS = sorted((ROOT / "schemas" / "crd").glob("*.json"))


@pytest.mark.parametrize("path", SCHEMAS, ids=[p.stem for p in SCHEMAS])
def test_schema_snapshot_equals_its_json(path: Path) -> None:
    loaded = resources.schema_snapshot(path)
    assert loaded is not None, UPDATE
    assert loaded == json.loads(path.read_text()), UPDATE


def test_an_edited_schema_is_read_from_its_json(tmp_path: Path) -> None:
    source = ROOT / "schemas" / "crd" / "llminferenceservice-serving.kserve.io-v1alpha2.json"
    copy = tmp_path / source.name
    copy.write_bytes(source.read_bytes())
    assert resources.schema_snapshot(copy) is not None
    edited = source.read_text().replace('"integer"', '"number"', 1)
    copy.write_text(edited)
    assert resources.schema_snapshot(copy) is None
    assert resources.read_schema(copy) == json.loads(edited)


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-2, 2) | st.floats(allow_nan=False) | st.sampled_from(["a", "b", ""]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["x", "y", "z"]), inner, max_size=3),
                    max_leaves=20))
@example([0.0, -0.0, 1, True, 1.0, {"x": 0.0}, {"x": -0.0}])
def test_sharing_keeps_the_value(value) -> None:
    """Equal subtrees become one object; the value, its types and its key order stay the same."""
    made = marshal.loads(marshal.dumps(resources.shared([value, value, copy.deepcopy(value)])))
    assert json.dumps(made) == json.dumps([value] * 3)
    assert repr(made) == repr([value] * 3)
