"""The per-string template cache (templatedata.spliced_config) gives the whole-text parse's output and errors."""

from __future__ import annotations

from unittest.mock import patch

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llmc.go.json import marshal
from llmc.errors import LlmcError
from llmc.templatedata import render_config, spliced_config

SERVICE = {
    "apiVersion": "serving.kserve.io/v1alpha2",
    "kind": "LLMInferenceService",
    "metadata": {"name": "svc", "namespace": "team"},
    "spec": {"model": {"uri": "hf://org/model", "name": "org/model"}, "replicas": 2,
             "template": {"containers": [{"name": "main"}, {"name": "side"}]}},
}
GLOBAL = {"SystemNamespace": "kserve", "IngressGatewayName": "gw", "IngressGatewayNamespace": "gw-ns",
          "EnableTLS": True, "ModelBasedRoutingHeaderName": "X-Model", "InferencePoolNamespacedName": "team/pool"}

SNIPPETS = [
    "plain", "a{b", "}}", "{", "x}}y", "{{", "{{ .ObjectMeta.Name }}", "{{.Name}}-{{ .Namespace }}",
    "{{ if .Spec.Replicas }}r{{ end }}", "{{ if true }}", "{{ end }}", "{{ else }}",
    "{{ $x := .Name }}{{ $x }}", "{{ $x := 1 }}", "{{ $x }}", "{{ `raw\"quote` }}", '{{ "dq" }}',
    "{{- .Name -}}", "  {{- .Name }}  ", "{{/* c */}}", '{{ define "t" }}x{{ end }}', "{{ block `b` . }}y{{ end }}",
    "{{ .NoSuchField }}", "{{ range $i, $e := .Spec.Template.Containers }}{{ $i }}:{{ $e.Name }}{{ end }}",
    "{{ break }}", "{{ ChildName .Name `-kserve` }}", "{{ .GlobalConfig.SystemNamespace }}", "\u2028{{.Name}}",
    "<&>{{.Name}}", "{{ 1 }}{{", "}}{{ .Name", "{{ len .Name }}", "\\{{ .Name }}", '"{{ .Name }}"', "\\",
    "{{ .Spec.Model.Name | printf `%q` }}", "{{ index .Labels `x` }}", "{{ (", "{{ nil }}",
    "{{ template `config` }}", "{{ .Spec.Parallelism.Tensor }}",
]
strings = st.lists(st.one_of(st.sampled_from(SNIPPETS), st.text(alphabet='{}"\\ -$.`aN', max_size=6)),
                   min_size=1, max_size=3).map("".join)


def _outcome(config: dict) -> tuple[str, object]:
    try:
        return "ok", render_config(config, SERVICE, GLOBAL)
    except LlmcError as err:
        return "error", (err.message, err.hint)


def _whole_text_outcome(config: dict) -> tuple[str, object]:
    with patch("llmc.templatedata.spliced_config", return_value=None):
        return _outcome(config)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(strings, min_size=1, max_size=5), st.lists(strings, max_size=2))
def test_spliced_parse_matches_whole_text(values: list[str], keys: list[str]) -> None:
    config = {
        "metadata": {"name": "svc", "namespace": "team"},
        "spec": {"template": {"containers": [{"name": "main", "args": values}]},
                 "labels": {key: "v" for key in keys}},
    }
    assert _outcome(config) == _whole_text_outcome(config)


def test_preset_strings_take_the_spliced_path() -> None:
    config = {"metadata": {"name": "svc"}, "spec": {"a": "{{ .Name }}-x", "b": ["{{ ChildName .Name `-y` }}"]}}
    assert spliced_config(marshal(config, sort_keys=False)) is not None
    assert _outcome(config) == ("ok", {"metadata": {"name": "svc"}, "spec": {"a": "svc-x", "b": ["svc-y"]}})


def test_actions_across_strings_take_the_whole_text_path() -> None:
    config = {"spec": {"a": "{{ if true }}", "b": "{{ end }}"}}
    assert spliced_config(marshal(config, sort_keys=False)) is None
    assert _outcome(config) == _whole_text_outcome(config)
