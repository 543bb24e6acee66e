"""Documents read without position tables (`keep_positions=False`) locate every path as if they had them."""

from __future__ import annotations

from pathlib import Path

import pytest

from llmc.load.documents import load_text

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted({*ROOT.glob("golden/*/*.yaml"), *ROOT.glob("docs/examples/*.yaml"), *ROOT.glob("presets/*/*.yaml"),
                *ROOT.glob("tests/data/**/*.yaml"), *ROOT.glob("tests/data/**/*.json")} - set(ROOT.glob("golden/*/expected.yaml")))


def _loads(path: Path):
    try:
        return load_text(path.read_text(encoding="utf-8"), str(path))
    except Exception:  # noqa: BLE001 - inputs llmc refuses are not this test's subject
        return None


READABLE = [p for p in FILES if _loads(p) is not None]  # inputs llmc refuses have no positions to compare


def test_most_inputs_are_readable() -> None:
    assert len(READABLE) > len(FILES) // 2


@pytest.mark.parametrize("path", READABLE, ids=[str(p.relative_to(ROOT)) for p in READABLE])
def test_lazy_positions_locate_like_eager_ones(path: Path) -> None:
    eager = _loads(path)
    lazy = load_text(path.read_text(encoding="utf-8"), str(path), keep_positions=False)
    assert [d.obj for d in lazy] == [d.obj for d in eager]
    for e, lz in zip(eager, lazy):
        assert not lz.positions and lz.source is not None
        paths = {*e.positions, *e.key_positions, ("no", "such", 3)}
        assert [lz.locate(p) for p in paths] == [e.locate(p) for p in paths]
        assert [lz.locate_key(p) for p in paths] == [e.locate_key(p) for p in paths]


@pytest.mark.parametrize("path", READABLE, ids=[str(p.relative_to(ROOT)) for p in READABLE])
def test_released_documents_read_their_data_again(path: Path) -> None:
    eager = _loads(path)
    lazy = load_text(path.read_text(encoding="utf-8"), str(path), keep_positions=False)
    for doc in lazy:
        doc.release()
        assert "obj" not in vars(doc)
    assert [d.obj for d in lazy] == [d.obj for d in eager]
    assert [d.locate(()) for d in lazy] == [d.locate(()) for d in eager]


def test_a_document_without_its_text_keeps_its_data() -> None:
    (doc,) = load_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n")
    doc.release()
    assert doc.obj["metadata"] == {"name": "a"} and "obj" in vars(doc)
    with pytest.raises(AttributeError):
        doc.no_such_attribute  # noqa: B018


def test_a_valid_batch_never_reads_position_tables(tmp_path: Path, monkeypatch) -> None:
    """Positions and the documents' data are for errors: rendering valid services must not re-read their
    files for them (once per service it cost a third of a batch)."""
    import sys

    from llmc.load.documents import Document
    from llmc.cli.render import run

    sys.path.insert(0, str(ROOT / "bench"))
    import gen  # noqa: PLC0415  (bench/gen.py: the batch benchmark's services)

    gen.write(tmp_path, 30, per_file=10)
    calls = []
    real = Document._tables
    monkeypatch.setattr(Document, "_tables", lambda self: calls.append(self.file) or real(self))
    data = Document.__getattr__
    monkeypatch.setattr(Document, "__getattr__", lambda self, name: calls.append((self.file, name)) or data(self, name))
    monkeypatch.setattr(sys, "stdout", open(tmp_path / "out.yaml", "w"))
    run(filename=[str(tmp_path)], quiet=True)
    sys.stdout.close()
    assert (tmp_path / "out.yaml").stat().st_size > 0
    assert calls == []
