"""llmc's template engine against Go's text/template on generated templates.

Hypothesis builds templates over the whole grammar (text, trim markers, comments,
pipelines, parentheses, variables, if/else if/with/else with/range/break/continue,
define/template/block, every literal form, builtins and KServe's functions) and
compares output text, or the exact error message, with the Go harness. Batches of
templates go through one Go process; the run is derandomized for CI.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from gotmpl_samples import GLOBAL, GLOBAL_TLS, SERVICES
from test_differential_presets import llmc_run

FIELDS = [
    ".", ".Name", ".Namespace", ".ObjectMeta.Name", ".ObjectMeta.Labels", ".ObjectMeta.Annotations", ".Labels",
    ".Spec.Parallelism.Tensor", ".Spec.Parallelism.Data", ".Spec.Parallelism.Expert", ".Spec.Parallelism",
    ".Spec.Prefill.Parallelism.Tensor", ".Spec.Prefill", ".Spec.Model.Name", ".Spec.Model.URI",
    ".Spec.Model.URI.Host", ".Spec.Model.URI.Scheme", ".Spec.Model.URI.Path", ".Spec.Template",
    ".Spec.Template.Containers", ".Spec.Worker", ".Spec.KVCacheOffloading", ".Spec.KVCacheOffloading.EvictionPolicy",
    ".Spec.WorkloadSpec.Template", ".Spec.Template.TerminationGracePeriodSeconds", ".GlobalConfig",
    ".GlobalConfig.EnableTLS", ".GlobalConfig.IngressGatewayName", ".Spec.Nope", ".Spec.Parallelism.Nope",
    ".Kind", ".TypeMeta.APIVersion", ".UID", ".Spec.BaseRefs", ".Spec.Router.Scheduler.Pool.Ref.Name",
    ".ObjectMeta.Labels.app", ".ObjectMeta.Annotations.a", ".ObjectMeta.Annotations.zz",
]
INTS = ["0", "1", "2", "-3", "42", "0x1F", "0o17", "017", "0b101", "1_000", "9223372036854775807",
        "18446744073709551615", "1e3", "'a'", "'\\n'"]
FLOATS = ["1.5", "-0.25", "1e6", "2.0e-5", "0x1p-2", "123456789.0", ".5"]
STRINGS = ['"x"', '"a b"', '"%d"', '"%s-%v"', '"%5.2f|%-4d|%q|%x|%X|%o|%b|%c|%U|%t|%e|%g|%%"', '"\\t\\u00e9"',
           "`raw`", "`-x`", '"<&>\'"', '"%!"', '"%[2]d %[1]d"', '"%*d"', '"%.3s"', '"%08.3f"', '"%+d % d"', '"%#x"']
FUNCS1 = ["not", "len", "html", "js", "urlquery", "print", "println", "kvTransferConfig"]
FUNCS2 = ["eq", "ne", "lt", "le", "gt", "ge", "and", "or", "index", "ChildName", "shutdownTimeout", "printf", "slice",
          "print"]
VARS = ["$", "$x", "$v", "$i"]


def pipeline(depth: int) -> st.SearchStrategy[str]:
    operand = st.one_of(
        st.sampled_from(FIELDS), st.sampled_from(INTS), st.sampled_from(FLOATS), st.sampled_from(STRINGS),
        st.sampled_from(["true", "false", "nil"]), st.sampled_from(VARS),
    )
    if depth > 0:
        operand = st.one_of(operand, pipeline(depth - 1).map(lambda p: f"({p})"))
    call1 = st.builds(lambda f, a: f"{f} {a}", st.sampled_from(FUNCS1), operand)
    call2 = st.builds(lambda f, a, b: f"{f} {a} {b}", st.sampled_from(FUNCS2), operand, operand)
    call3 = st.builds(lambda f, a, b, c: f"{f} {a} {b} {c}", st.sampled_from(["eq", "and", "or", "printf", "index", "slice"]),
                      operand, operand, operand)
    cmd = st.one_of(operand, call1, call2, call3)
    piped = st.builds(lambda c, f: f"{c} | {f}", cmd, st.sampled_from(["print", "len", "printf \"%v\"", "not",
                                                                       "html", "ChildName `-p`", "eq 2", "or 0",
                                                                       "and 1", ".Name"]))
    return st.one_of(cmd, cmd, piped)


def action(body: str, trim: tuple[bool, bool]) -> str:
    return "{{" + ("- " if trim[0] else " ") + body + (" -" if trim[1] else " ") + "}}"


TEXT = st.sampled_from(["", "a", " ", "\n", "  x  ", "\t-\n", "{", "}"])
TRIM = st.tuples(st.booleans(), st.booleans())


def block(depth: int) -> st.SearchStrategy[str]:
    leaf = st.one_of(
        TEXT,
        st.builds(action, pipeline(1), TRIM),
        st.builds(lambda p, t: action(f"$x := {p}", t) + "{{ $x }}", pipeline(1), TRIM),
        st.just("{{/* c */}}"), st.just("{{- /* c */ -}}"),
    )
    if depth == 0:
        return leaf
    inner = block(depth - 1)
    body = st.lists(inner, min_size=0, max_size=3).map("".join)
    cond = pipeline(1)
    if_ = st.builds(lambda c, a, b, t: action(f"if {c}", t) + a + "{{else}}" + b + "{{end}}", cond, body, body, TRIM)
    elif_ = st.builds(lambda c, d, a, b: f"{{{{if {c}}}}}{a}{{{{else if {d}}}}}{b}{{{{end}}}}", cond, cond, body, body)
    with_ = st.builds(lambda c, a, b: f"{{{{with {c}}}}}{a}{{{{.}}}}{{{{else}}}}{b}{{{{end}}}}", cond, body, body)
    elwith = st.builds(lambda c, d, a: f"{{{{with {c}}}}}{a}{{{{else with {d}}}}}{{{{.}}}}{{{{end}}}}", cond, cond, body)
    rng = st.builds(
        lambda over, decl, a, ctl: f"{{{{range {decl}{over}}}}}{a}{ctl}{{{{else}}}}E{{{{end}}}}",
        st.sampled_from(["3", "0", "-1", ".Spec.Template.Containers", ".ObjectMeta.Annotations", ".Labels",
                         ".Spec.BaseRefs", ".Name", "nil", ".Spec.Parallelism.Tensor", "2"]),
        st.sampled_from(["", "$v := ", "$i, $v := ", "$v = "]),
        body,
        st.sampled_from(["", "{{break}}", "{{continue}}", "{{if $}}{{break}}{{end}}", "{{$v}}"]),
    )
    tmpl = st.builds(lambda a, p: f'{{{{define "t"}}}}[{a}]{{{{end}}}}{{{{template "t" {p}}}}}', body, pipeline(0))
    blk = st.builds(lambda a: f'{{{{block "b" .}}}}<{a}>{{{{end}}}}', body)
    return st.one_of(leaf, if_, elif_, with_, elwith, rng, tmpl, blk)


TEMPLATE = st.lists(block(2), min_size=1, max_size=3).map("".join)
CASE = st.tuples(TEMPLATE, st.sampled_from(sorted(SERVICES)), st.booleans())


@pytest.fixture(scope="module")
def tally() -> dict[str, int]:
    return {"cases": 0, "outputs": 0, "errors": 0, "unreproducible": 0}


@settings(max_examples=30, derandomize=True, deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
@given(batch=st.lists(CASE, min_size=100, max_size=100))
def test_generated_templates_match_go(go_harness, tally, batch) -> None:
    cases, mine = [], []
    for text, svc, tls in batch:
        gc = GLOBAL_TLS if tls else GLOBAL
        cases.append({"mode": "template", "template": text, "service": SERVICES[svc], "global": gc})
        mine.append(llmc_run(text, SERVICES[svc], gc))
    for case, got, want in zip(cases, mine, go_harness.run(cases)):
        tally["cases"] += 1
        if got["err"] is not None and "llmc cannot reproduce" in got["err"]:
            # llmc refused to guess what Go prints here (a memory address); Go may still fail later.
            tally["unreproducible"] += 1
            continue
        tally["outputs" if want["err"] is None else "errors"] += 1
        assert (got["out"], got["err"]) == (want["out"], want["err"]), case["template"]


def test_generated_mix_is_meaningful(tally) -> None:
    """Runs after the property test: both outputs and errors were compared, and few cases were skipped."""
    if tally["cases"] == 0:
        pytest.skip("the generated-template test did not run")
    assert tally["cases"] >= 3000
    assert tally["outputs"] > tally["cases"] // 5
    assert tally["errors"] > tally["cases"] // 10
    assert tally["unreproducible"] < tally["cases"] // 10
