"""llmc.cli.main's typer-free `render` path against typer's: the same options, the same parses, the same output."""

from __future__ import annotations

import contextlib
import io
from enum import Enum
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.main import get_command

from llmc.cli.app import app
from llmc.cli.main import render_options
from llmc.options import RENDER as RENDER_OPTIONS
from llmc.cli.render import Spool, run

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"
RENDER = get_command(app).commands["render"]


def _kind(param) -> object:
    annotation = param.type_descriptor.annotation
    if param.is_flag:
        return "flag"
    if param.multiple:
        return "list"
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return tuple(m.value for m in annotation)
    return {str: "str", int: "int"}[annotation]


def test_option_table_is_the_typer_commands() -> None:
    ours = {o.name: (o.flags, o.kind, o.default) for o in RENDER_OPTIONS}
    theirs = {}
    for param in RENDER.params:
        assert not param.secondary_opts and not param.envvar and not param.is_eager, param.name
        default = param.default.value if isinstance(param.default, Enum) else param.default
        theirs[param.name] = (tuple(param.opts), _kind(param), default)
    assert ours == theirs
    assert [p.name for p in RENDER.params if p.required] == ["filename"]


def click_parse(argv: list[str]) -> dict | None:
    """render's parameters as typer passes them to the command, or None when click refuses the command line."""
    try:
        ctx = RENDER.make_context("render", list(argv))
    except Exception as exc:  # click's UsageError and BadParameter, or typer's coercion errors
        if type(exc).__module__.startswith(("typer", "click")):
            return None
        raise
    return {k: (v.value if isinstance(v, Enum) else (list(v) if v else None) if isinstance(v, (list, tuple)) else v)
            for k, v in ctx.params.items()}


TOKENS = st.sampled_from([
    *(opt for o in RENDER_OPTIONS for opt in o.flags),
    "--no-strict", "--help", "-h", "--", "-", "-qf", "-fx.yaml", "--filename=", "--filename=a.yaml", "--strict=1",
    "--output=json", "--output=xml", "-o=json", "--jobs=2", "--file", "--name", "render",
    "a.yaml", "yaml", "json", "master", "v0.20", "V0.20", "0", "3", "-2", " 7", "1_0", "99999999999999999999", "",
])


@settings(max_examples=1500, deadline=None)
@given(st.lists(TOKENS, max_size=8))
def test_fast_parse_agrees_with_click(argv: list[str]) -> None:
    fast = render_options(["render", *argv], {})
    if fast is not None:
        assert fast == click_parse(argv)


@pytest.mark.parametrize("argv", [
    ["-f", "a.yaml"], ["--filename=a.yaml", "-o", "json", "-q", "-j", "0"], ["-f", "-", "-f", "--strict"],
    ["-f", "a", "--kserve-version", "v0.20", "-s", "Deployment/*", "--presets", "p", "--presets", "q", "--validate"],
])
def test_plain_command_lines_take_the_fast_path(argv: list[str]) -> None:
    assert render_options(["render", *argv], {}) == click_parse(argv) is not None


@pytest.mark.parametrize("argv,environ", [
    (["render", "--help"], {}), (["render"], {}), (["render", "-f", "a", "x"], {}), (["render", "-f", "a", "-o", "xml"], {}),
    (["render", "-qf", "a"], {}), (["render", "-f", "a", "-j", "1_0"], {}), (["version"], {}), ([], {}),
    (["render", "-f", "a"], {"_LLMC_COMPLETE": "bash_complete"}),
])
def test_anything_else_goes_to_typer(argv: list[str], environ: dict) -> None:
    assert render_options(argv, environ) is None


def fast_run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    options = render_options(["render", *args], {})
    assert options is not None
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            run(**options)
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def case_args(case: Path) -> list[str]:
    if not (case / "args").is_file():
        return []
    return [line.strip() for line in (case / "args").read_text().splitlines() if line.strip() and not line.startswith("#")]


def golden_render_cases() -> list[str]:
    return [case.name for case in sorted(GOLDEN.iterdir()) if render_options(case_args(case), {}) is not None]


@pytest.mark.parametrize("name", golden_render_cases())
def test_golden_cases_through_the_fast_path(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each golden `render` case the fast path takes gives its expected stdout, stderr and exit code."""
    case = GOLDEN / name
    monkeypatch.chdir(case)
    code, stdout, stderr = fast_run(case_args(case)[1:])
    want_code = int((case / "exit_code").read_text()) if (case / "exit_code").exists() else 0
    assert (code, stdout) == (want_code, (case / "expected.yaml").read_text())
    assert stderr == ((case / "expected.stderr").read_text() if (case / "expected.stderr").exists() else "")


def test_most_golden_render_cases_take_the_fast_path() -> None:
    assert len(golden_render_cases()) >= 30


@pytest.mark.parametrize("sizes", [[3, 4], [10, 1, 1], [20], [], [0, 0, 7, 30, 2]])
def test_spool_keeps_what_was_written(sizes: list[int]) -> None:
    """In memory up to the limit (8 characters here), then in a temporary file; the text is the same."""
    spool = Spool(max_bytes=8)
    parts = [chr(ord("a") + i) * n for i, n in enumerate(sizes)]
    for part in parts:
        spool.write(part)
    assert (spool.file is not None) == (sum(sizes) > 8)
    out = io.StringIO()
    spool.copy_to(out)
    assert out.getvalue() == "".join(parts)
