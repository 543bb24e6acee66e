"""Each class of template error, with the exact text Go prints.

Expected strings are Go's: the parse and exec error tables of Go's own
text/template tests (parse_test.go `parseTests`/`errorTests`, exec_test.go
`execTests`) and KServe's notes (reference 01 §4.3, config_validation_int_test.go).
Positions were checked against Go with tests/go/tmplrun; the differential tests
re-check the same behaviour against a real Go toolchain on every run.
"""

from __future__ import annotations

import pytest

from llmc.core.errors import LlmcError
from llmc.go.template.template import Limits, TemplateExecError, TemplateParseError
from llmc.go.template.template import parse
from llmc.resolve.templatedata import FUNCS, template_data

from gotmpl_samples import GLOBAL, SERVICES


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{{.A", "template: config:1: unclosed action"),
        ("{{if .A}}", "template: config:1: unexpected EOF"),
        ("{{end}}", "template: config:1: unexpected {{end}}"),
        ("{{else}}", "template: config:1: unexpected {{else}}"),
        ("{{foo}}", 'template: config:1: function "foo" not defined'),
        ("{{$x}}", 'template: config:1: undefined variable "$x"'),
        ("{{3 | 4}}", "template: config:1: non executable command in pipeline stage 2"),
        ("{{range $a, $b, $c := .}}{{end}}", "template: config:1: too many declarations in range"),
        ("{{.A#}}", "template: config:1: bad character U+0023 '#'"),
        ("{{1x}}", 'template: config:1: bad number syntax: "1x"'),
        ("{{99999999999999999999}}", 'template: config:1: integer overflow: "99999999999999999999"'),
        ("{{'ab'}}", "template: config:1: malformed character constant: 'ab'"),
        ("{{break}}", "template: config:1: {{break}} outside {{range}}"),
        ("{{/* x */ }}", "template: config:1: comment ends before closing delimiter"),
        ("{{template .X}}", 'template: config:1: unexpected ".X" in template clause'),
        ("{{(1}}", "template: config:1: unclosed left paren"),
        ("{{)}}", "template: config:1: unexpected right paren"),
        ('{{define "a"}}x{{end}}{{define "a"}}y{{end}}',
         'template: config:1: template: multiple definition of template "a"'),
        # reference 01 §4.3: a JSON-escaped quote inside an action
        ('{{ ChildName .Name \\"-x\\" }}', 'template: config:1: unexpected "\\\\" in operand'),
        ("{{\n.A\n", "template: config:3: unclosed action started at config:1"),
    ],
)
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(TemplateParseError) as err:
        parse("config", text, funcs=FUNCS, missingkey="error")
    assert err.value.message == message
    assert isinstance(err.value, LlmcError)


def run(text: str, service: str = "minimal") -> str:
    return parse("config", text, funcs=FUNCS, missingkey="error").execute(template_data(SERVICES[service], GLOBAL))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # reference 01 §4.3 (verified there with Go)
        ("{{ .Spec.Parallelism.Expert }}",
         'template: config:1:8: executing "config" at <.Spec.Parallelism.Expert>: '
         "nil pointer evaluating *v1alpha2.ParallelismSpec.Expert"),
        ("{{ .Spec.X }}",
         'template: config:1:8: executing "config" at <.Spec.X>: '
         "can't evaluate field X in type v1alpha2.LLMInferenceServiceSpec"),
        ("{{ .GlobalConfig.StorageConfig }}",
         'template: config:1:16: executing "config" at <.GlobalConfig.StorageConfig>: '
         "can't evaluate field StorageConfig in type llmisvc.templateGlobalConfig"),
        ("{{ .NonExisting }}",
         'template: config:1:3: executing "config" at <.NonExisting>: can\'t evaluate field NonExisting in type '
         "struct { *v1alpha2.LLMInferenceService; GlobalConfig llmisvc.templateGlobalConfig }"),
        ("{{ .ObjectMeta.Labels.app }}",
         'template: config:1:14: executing "config" at <.ObjectMeta.Labels.app>: map has no entry for key "app"'),
        ('{{ eq 1 "a" }}',
         'template: config:1:3: executing "config" at <eq 1 "a">: error calling eq: '
         "incompatible types for comparison: int and string"),
        ("{{ lt true false }}",
         'template: config:1:3: executing "config" at <lt true false>: error calling lt: invalid type for comparison'),
        ("{{ index .Spec.BaseRefs 1 }}",
         'template: config:1:3: executing "config" at <index .Spec.BaseRefs 1>: error calling index: '
         "index out of range: 1"),
        ("{{ len 3 }}", 'template: config:1:3: executing "config" at <len 3>: error calling len: len of type int'),
        ("{{ ChildName 1 `x` }}",
         'template: config:1:13: executing "config" at <1>: expected string; found 1'),
        ("{{ ChildName .Spec.Model.Name }}",
         'template: config:1:3: executing "config" at <ChildName>: wrong number of args for ChildName: want 2 got 1'),
        ("{{ shutdownTimeout nil .Spec.Replicas }}",
         'template: config:1:28: executing "config" at <.Spec.Replicas>: '
         "wrong type for value; expected int64; got *int32"),
        ("{{ nil }}", 'template: config:1:3: executing "config" at <nil>: nil is not a command'),
        ("{{ template `t` }}", 'template: config:1:12: executing "config" at <{{template "t"}}>: template "t" not defined'),
        ("{{ range .Name }}{{ end }}",
         'template: config:1:9: executing "config" at <.Name>: range can\'t iterate over llama'),
        ("{{ .Name 1 }}",
         'template: config:1:3: executing "config" at <.Name>: Name has arguments but cannot be invoked as function'),
    ],
)
def test_exec_errors(text: str, message: str) -> None:
    with pytest.raises(TemplateExecError) as err:
        run(text)
    assert err.value.message == message


@pytest.mark.parametrize(
    ("text", "out"),
    [
        # reference 01 §4.3: `or X 1` returns the first non-empty argument; a nil *int32 falls through
        ("{{ or .Spec.Parallelism.Data 1 }}|{{ or .Spec.Parallelism.DataLocal 1 }}", "4|2"),
        ("{{ and .Spec.Prefill .Spec.Prefill.Parallelism .Spec.Prefill.Parallelism.Tensor }}", "1"),
        ("{{ .Spec.Model.Name }} {{ .Spec.Model.URI.Host }} {{ .Spec.Model.URI }}", "m bucket s3://bucket/path/model"),
        ("{{ shutdownTimeout .Spec.Template 15 }} {{ shutdownTimeout .Spec.Worker 15 }} {{ shutdownTimeout nil 15 }}",
         "40 0 40"),
        ("{{ printf `%5.1f|%-3d|%q|%x` 3.14159 7 `a` 255 }}", "  3.1|7  |\"a\"|ff"),
        ("{{ printf `%d` `x` }} {{ printf `%d %d` 1 }} {{ printf `%d` 1 2 }}",
         "%!d(string=x) 1 %!d(MISSING) 1%!(EXTRA int=2)"),
        ("{{ 1e6 }} {{ 0x1F }} {{ 1_000 }} {{ 'a' }} {{ 0o17 }} {{ 0b11 }}", "1e+06 31 1000 97 15 3"),
        ("{{ range $i, $v := .Spec.Parallelism.Data }}{{ end }}{{ range 3 }}{{ . }}{{ end }}", ""),
    ],
)
def test_outputs(text: str, out: str) -> None:
    if "range $i, $v" in text:
        with pytest.raises(TemplateExecError) as err:
            run(text, "data-parallel")
        assert err.value.message.endswith("can't use 4 to iterate over more than one variable")
        return
    assert run(text, "data-parallel") == out


def test_nil_pointer_prints_nil_and_is_falsy() -> None:
    # reference 01 §4.3: a nil pointer prints <nil>; `if` of a nil pointer is false, of a non-nil one true
    assert run("{{ .Spec.Model.Name }}", "no-model-name") == "<nil>"
    assert run("{{ if .Spec.Parallelism.Tensor }}t{{ else }}f{{ end }}", "no-model-name") == "t"
    assert run("{{ if .Spec.Prefill }}t{{ else }}f{{ end }}", "no-model-name") == "f"


def test_template_depth_limit() -> None:
    tmpl = parse("config", '{{define "r"}}{{template "r" .}}{{end}}{{template "r" .}}', funcs=FUNCS)
    with pytest.raises(TemplateExecError) as err:
        tmpl.execute(None, Limits(template_depth=50))
    assert err.value.message.endswith("exceeded maximum template depth (50)")


def test_range_and_output_limits() -> None:
    with pytest.raises(TemplateExecError) as err:
        parse("config", "{{range 100}}{{range 100}}x{{end}}{{end}}").execute(None, Limits(range_iterations=5000))
    assert "llmc limit: more than 5000 range iterations" in err.value.message
    with pytest.raises(TemplateExecError) as err:
        parse("config", "{{range 100}}0123456789{{end}}").execute(None, Limits(output_bytes=500))
    assert "llmc limit: template output exceeds 500 bytes" in err.value.message


def test_memory_addresses_are_refused() -> None:
    # Go prints `{0xc000... <nil> ...}` for a struct holding a non-nil pointer; llmc will not invent an address.
    with pytest.raises(TemplateExecError) as err:
        run("{{ .Spec.Parallelism }}", "data-parallel")
    assert "llmc cannot reproduce this output: Go prints the memory address of a *int32 here" in err.value.message


def test_kubernetes_types_are_modelled() -> None:
    # corev1 types come from llmc.kserve.gotypes: a real field behind a nil pointer is Go's nil-pointer error
    with pytest.raises(TemplateExecError) as err:
        run("{{ .Spec.Template.Affinity.NodeAffinity }}", "tensor-kv")
    assert err.value.message.endswith("nil pointer evaluating *v1.Affinity.NodeAffinity")
    assert run("{{ (index .Spec.Template.Containers 0).Image }}", "tensor-kv") == "vllm"


def test_unmodelled_status_field_is_named() -> None:
    with pytest.raises(TemplateExecError) as err:
        run("{{ .Status.Foo }}")
    assert err.value.message.endswith("llmc does not model field Foo of Go type v1alpha2.LLMInferenceServiceStatus")
