"""llmc.read.preset_helper: the presets a forked helper admits are the ones the command admits itself
(same documents, objects, texts and order); anything unusual falls back to the command; the command
line gives the same bytes and exit code with and without the helper; the renderer's imports run
while the helper works."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from llmc.admit.admission import admit_document
from llmc.core.errors import ErrorList, LlmcError
from llmc.read import preset_helper
from llmc.read.inputs import read_documents
from llmc.resolve.presets import CONFIG_KIND

ROOT = Path(__file__).resolve().parent.parent
UPSTREAM = ROOT.parent / "shared" / "upstream"
SAMPLE = UPSTREAM / "kserve/samples/managed-dra/llm-inference-service-managed-dra-minimal.yaml"
CAN_FORK = hasattr(os, "fork") and hasattr(os, "sched_getaffinity") and len(os.sched_getaffinity(0)) >= 2
needs_helper = pytest.mark.skipif(not CAN_FORK, reason="the helper needs os.fork and two CPUs")

CONFIG = """apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceServiceConfig
metadata: {{name: {name}}}
spec:
  template:
    containers:
    - name: main
      image: {image}
"""


def _inline(paths: list[str], namespace: str) -> tuple[list[tuple], dict[str, str]]:
    """What pipeline.admit_request keeps of the presets when it reads and admits them itself."""
    sources: dict[str, str] = {}
    kept = []
    for doc in read_documents(paths, sources):
        obj = admit_document(doc, namespace)
        if obj["kind"] == CONFIG_KIND:
            meta = obj["metadata"]
            kept.append(_facts(meta["name"], meta["namespace"], obj, doc))
    return kept, sources


def _facts(name, namespace, obj, doc) -> tuple:
    # repr, not ==: 1, 1.0 and True are equal, and key order counts
    return name, namespace, repr(obj), repr(doc.obj), doc.file, doc.index, doc.item, doc.source, doc.locate(("spec",))


def _helped(paths: list[str], namespace: str) -> tuple[list[tuple], dict[str, str]] | None:
    assert preset_helper.start(paths, namespace)
    sources: dict[str, str] = {}
    configs = preset_helper.take(paths, namespace, sources)
    if configs is None:
        return None
    return [_facts(c.name, c.namespace, c.obj, c.doc) for c in configs], sources


def _folders() -> list[Path]:
    found = [ROOT / "presets" / "kserve-master", ROOT / "presets" / "kserve-v0.20"]
    if UPSTREAM.is_dir():
        found += [UPSTREAM / "kserve/presets/master", UPSTREAM / "kserve/presets/v0.20.0"]
    return found


@needs_helper
@pytest.mark.parametrize("folder", _folders(), ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.parametrize("namespace", ["kserve", "other-system"])
def test_the_helper_admits_what_the_command_admits(folder: Path, namespace: str) -> None:
    paths = [os.path.relpath(folder)]
    kept, sources = _inline(paths, namespace)
    helped = _helped(paths, namespace)
    assert helped is not None
    assert helped[0] == kept
    assert list(helped[1].items()) == list(sources.items())


@needs_helper
def test_files_lists_and_other_kinds_as_the_command_reads_them(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.yaml").write_text(CONFIG.format(name="a", image="img:1") + "---\n" + CONFIG.format(name="b", image="img:2"))
    (tmp_path / "sub" / "list.yaml").write_text(
        "apiVersion: v1\nkind: List\nitems:\n" + "".join(
            "- " + CONFIG.format(name=n, image="i").replace("\n", "\n  ").rstrip() + "\n" for n in ("c", "d")))
    (tmp_path / "sub" / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata: {k: v}\n")
    (tmp_path / "empty.yaml").write_text("")
    paths = [str(tmp_path), str(tmp_path / "a.yaml")]
    kept, sources = _inline(paths, "kserve")
    assert [k[0] for k in kept] == ["a", "b", "c", "d", "a", "b"]  # the folder walked, then the file again; no ConfigMap
    assert _helped(paths, "kserve") == (kept, sources)


@needs_helper
@pytest.mark.parametrize("text", [
    CONFIG.format(name="Bad_Name", image="i"),  # admission refuses it
    "apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceServiceConfig\nmetadata: {name: a}\nspec: [1]\n",
    "key: [unclosed\n",  # YAML syntax
    "\xff",  # not UTF-8 (written as bytes below)
])
def test_anything_the_command_would_refuse_falls_back_to_it(tmp_path: Path, text: str) -> None:
    preset = tmp_path / "p.yaml"
    if text == "\xff":
        preset.write_bytes(b"\xff\n")
    else:
        preset.write_text(text)
    with pytest.raises((ErrorList, LlmcError)):
        _inline([str(preset)], "kserve")
    assert _helped([str(preset)], "kserve") is None
    assert preset_helper._pending is None


@needs_helper
def test_other_options_when_taken_fall_back_and_reap_the_helper(tmp_path: Path) -> None:
    preset = tmp_path / "p.yaml"
    preset.write_text(CONFIG.format(name="a", image="i"))
    assert preset_helper.start([str(preset)], "kserve")
    pid = preset_helper._pending[1]
    assert preset_helper.take([str(preset)], "elsewhere", {}) is None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)
    assert preset_helper.start([str(preset)], "kserve")
    pid = preset_helper._pending[1]
    preset_helper.discard()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)
    assert preset_helper.take([str(preset)], "kserve", {}) is None  # nothing pending


def test_no_helper_for_stdin_pipes_missing_paths_or_one_cpu(tmp_path: Path, monkeypatch) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for paths in (["-"], [str(fifo)], [str(tmp_path / "absent")], []):
        assert not preset_helper.start(paths, "kserve")
    quota = tmp_path / "cpu.max"
    monkeypatch.setattr(preset_helper, "CPU_MAX", str(quota))
    for text, allowed in (("max 100000\n", True), ("200000 100000\n", True), ("150000 100000\n", False)):
        quota.write_text(text)
        assert preset_helper._cpu_quota() >= 2 if allowed else preset_helper._cpu_quota() < 2
    assert not preset_helper.start([str(tmp_path)], "kserve")  # 1.5 CPUs
    monkeypatch.setattr(preset_helper, "CPU_MAX", str(tmp_path / "absent"))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert not preset_helper.start([str(tmp_path)], "kserve")
    assert preset_helper._pending is None


# --------------------------------------------------------------------------- the command line

_WITHOUT_HELPER = "import sys; from llmc.read import preset_helper; preset_helper.start = lambda *a: False; " \
                  "sys.argv = ['llmc', *sys.argv[1:]]; from llmc.cli.main import console; console()"


def _llmc(*args: str, helper: bool) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "llmc", *args] if helper else [sys.executable, "-c", _WITHOUT_HELPER, *args]
    return subprocess.run(command, capture_output=True, cwd=ROOT)


@needs_helper
@pytest.mark.skipif(not UPSTREAM.is_dir(), reason="needs KServe's upstream data")
def test_the_command_gives_the_same_bytes_with_and_without_the_helper(tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "p.yaml").write_text(CONFIG.format(name="a", image="i") + "---\n" + CONFIG.format(name="Bad_Name", image="i"))
    for presets in (UPSTREAM / "kserve/presets/master", bad):
        args = ("render", "-f", str(SAMPLE), "--presets", str(presets))
        helped, alone = _llmc(*args, helper=True), _llmc(*args, helper=False)
        assert (helped.returncode, helped.stdout, helped.stderr) == (alone.returncode, alone.stdout, alone.stderr)
        assert helped.returncode == (0 if presets != bad else 1)


@needs_helper
@pytest.mark.skipif(not UPSTREAM.is_dir(), reason="needs KServe's upstream data")
def test_the_renderer_is_imported_while_the_helper_works() -> None:
    """After the helper's presets are taken, a render imports no module of a later stage (the command
    line's own reporting aside); and every module of pipeline.LATER_STAGES is one a render imports anyway."""
    code = (
        "import sys, os\n"
        "from llmc.read import preset_helper\n"
        "take, seen = preset_helper.take, {}\n"
        "def spy(*a, **k):\n"
        "    got = take(*a, **k)\n"
        "    seen['taken'] = got is not None\n"
        "    seen['modules'] = set(sys.modules)\n"
        "    return got\n"
        "preset_helper.take = spy\n"
        "sys.argv = ['llmc', *sys.argv[1:]]\n"
        "out = sys.stdout; sys.stdout = open(os.devnull, 'w')\n"
        "from llmc.cli.main import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "from llmc.pipeline import LATER_STAGES\n"
        "later = [m for m in set(sys.modules) - seen['modules'] if not m.startswith('llmc.cli.')]\n"
        "out.write(repr((seen['taken'], sorted(later))))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, "render", "-f", str(SAMPLE), "--presets",
                           str(UPSTREAM / "kserve/presets/master")], capture_output=True, text=True, cwd=ROOT, check=True)
    assert eval(proc.stdout) == (True, [])
    plain = subprocess.run([sys.executable, "-c", "import sys; sys.argv = ['llmc', *sys.argv[1:]]\n"
                            "from llmc.cli.main import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
                            "from llmc.pipeline import LATER_STAGES\n"
                            "sys.stderr.write(repr([m for m in LATER_STAGES if m not in sys.modules]))",
                            "render", "-q", "-f", str(SAMPLE)], capture_output=True, text=True, cwd=ROOT, check=True)
    assert plain.stderr.strip() == "[]"
