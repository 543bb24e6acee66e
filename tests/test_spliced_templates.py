"""The per-string template caches (templatedata: parses per string, outputs per string and the values it reads)
give the whole-text parse's output and errors."""

from __future__ import annotations

from unittest.mock import patch

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llmc.go.json import marshal
from llmc.core.errors import LlmcError
from llmc.resolve.templatedata import render_config, spliced_config

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
    "{{ template `config` }}", "{{ .Spec.Parallelism.Tensor }}", "{{ .Spec.Template }}", "{{ .Spec.Replicas }}",
    "{{ if and .Spec.Prefill .Spec.Prefill.Replicas }}p{{ end }}", "{{ .Spec.Model.URI.String }}", "{{ .Spec.Model.URI }}",
    "{{ with .Spec.Model }}{{ .Name }}{{ end }}", "{{ printf `%v` .Labels }}", "{{ .Name.Foo }}", "{{ .Spec.Model.Name 1 }}",
    "{{ or .Spec.Parallelism.Data 1 }}", "{{ shutdownTimeout .Spec.Template 15 }}", "{{ .GlobalConfig.EnableTLS }}",
]
SERVICES = [SERVICE, {**SERVICE, "metadata": {"name": "other", "namespace": "team", "labels": {"x": "1"}}},
            {**SERVICE, "spec": {**SERVICE["spec"], "replicas": 3, "prefill": {"replicas": 1},
                                 "model": {"uri": "pvc://claim/m", "name": "org/model"}}}]
strings = st.lists(st.one_of(st.sampled_from(SNIPPETS), st.text(alphabet='{}"\\ -$.`aN', max_size=6)),
                   min_size=1, max_size=3).map("".join)


def _outcome(config: dict, service: dict = SERVICE) -> tuple[str, object]:
    try:
        return "ok", render_config(config, service, GLOBAL)
    except LlmcError as err:
        return "error", (err.message, err.hint)


def _whole_text_outcome(config: dict, service: dict = SERVICE) -> tuple[str, object]:
    with patch("llmc.resolve.templatedata._spliced_pieces", return_value=None):
        return _outcome(config, service)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(strings, min_size=1, max_size=5), st.lists(strings, max_size=2))
def test_spliced_parse_matches_whole_text(values: list[str], keys: list[str]) -> None:
    config = {
        "metadata": {"name": "svc", "namespace": "team"},
        "spec": {"template": {"containers": [{"name": "main", "args": values}]},
                 "labels": {key: "v" for key in keys}},
    }
    for service in SERVICES + SERVICES:  # the second round finds the outputs remembered
        assert _outcome(config, service) == _whole_text_outcome(config, service)


def test_outputs_are_remembered_by_the_values_read() -> None:
    from llmc.resolve import templatedata

    templatedata._OUTPUTS.clear()
    config = {"spec": {"a": "{{ .GlobalConfig.SystemNamespace }}", "b": "{{ .Spec.Replicas }}"}}
    assert _outcome(config, SERVICES[0])[1]["spec"] == {"a": "kserve", "b": "2"}
    assert _outcome(config, SERVICES[2])[1]["spec"] == {"a": "kserve", "b": "3"}
    assert len(templatedata._OUTPUTS) == 3  # "a" once, "b" for replicas 2 and 3


def test_a_budget_over_the_whole_text_is_reported_as_without_the_cache() -> None:
    from llmc.go.template.exec import MAX_OUTPUT_BYTES

    config = {"spec": {"a": ["{{ printf `%01200000d` 1 }}"] * 3}}  # each string within the budget, all three not
    assert 1200000 < MAX_OUTPUT_BYTES < 3 * 1200000
    assert _outcome(config) == _whole_text_outcome(config)
    assert _outcome(config)[0] == "error"


def test_preset_strings_take_the_spliced_path() -> None:
    config = {"metadata": {"name": "svc"}, "spec": {"a": "{{ .Name }}-x", "b": ["{{ ChildName .Name `-y` }}"]}}
    assert spliced_config(marshal(config, sort_keys=False)) is not None
    assert _outcome(config) == ("ok", {"metadata": {"name": "svc"}, "spec": {"a": "svc-x", "b": ["svc-y"]}})


def test_actions_across_strings_take_the_whole_text_path() -> None:
    config = {"spec": {"a": "{{ if true }}", "b": "{{ end }}"}}
    assert spliced_config(marshal(config, sort_keys=False)) is None
    assert _outcome(config) == _whole_text_outcome(config)


INJECTING = ["{{ printf `%c` 34 }}", '{{ printf `%c` 34 }},"X":{"a":1},"Name":"', "{{ printf `%c%c` 92 34 }}",
             "{{ printf `%c` 10 }}", "{{ printf `%s` `\\u00e9` }}", '{{ `", "securityContext": {"privileged": true}, "x": "` }}']


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(strings, st.sampled_from(INJECTING)), min_size=1, max_size=4),
       st.dictionaries(st.sampled_from(["a", "A", "b", "{{ .Name }}"]), st.sampled_from(["v", "{{ .Name }}"]), max_size=3))
def test_the_projected_spec_shortcut_decodes_as_go(values: list[str], labels: dict[str, str]) -> None:
    """spec_projected=True reads the output with json.loads when every string stayed one string;
    the result is the same as Go's decoder's, injected JSON and repeated keys included."""
    from llmc.kserve.gotypes import project

    spec = project({"template": {"containers": [{"name": "main", "args": values, "securityContext": {"runAsUser": 1}}]},
                    "model": {"uri": "hf://org/m", "name": values[0]}})
    config = {"metadata": {"name": "svc", "namespace": "team", "labels": labels}, "spec": spec}
    for service in SERVICES:
        try:
            fast = "ok", render_config(config, service, GLOBAL, spec_projected=True)
        except LlmcError as err:
            fast = "error", (err.message, err.hint)
        assert fast == _outcome(config, service)


def test_golden_services_take_the_shortcut_with_the_same_result() -> None:
    """Every golden case renders as before when render_config compares the shortcut with Go's decoder."""
    from llmc.resolve import templatedata
    from tests.test_golden import CASES, GOLDEN, run_case

    original = templatedata.render_config
    taken = []

    def both(config, service, global_config, *, spec_projected=False):
        slow = original(config, service, global_config)
        fast = original(config, service, global_config, spec_projected=spec_projected)
        assert fast == slow
        taken.append(spec_projected)
        return fast

    with patch.object(templatedata, "render_config", both):
        for name in CASES:
            if "shared/upstream" in (GOLDEN / name / "args").read_text() and not (GOLDEN.parent.parent / "shared" / "upstream").is_dir():
                continue
            run_case(GOLDEN / name)
    assert len(taken) > 50 and all(taken)


def _tree_outcome(config: dict, service: dict = SERVICE) -> tuple[str, object]:
    try:
        return "ok", render_config(config, service, GLOBAL, spec_projected=True)
    except LlmcError as err:
        return "error", (err.message, err.hint)


def _text_outcome(config: dict, service: dict = SERVICE) -> tuple[str, object]:
    with patch("llmc.resolve.templatedata._render_tree", return_value=None):
        return _tree_outcome(config, service)


# what the JSON text changes (a float, a surrogate, a key that is no plain string) or templates (a key)
ODD_VALUES = [1.0, -0.0, 2.5, 1e21, "\ud800", "é{{ .Name }}", "\u2028", 10**20, True, None, [], {}]
ODD_KEYS = ["{{ .Name }}", "\udc80", "é", "a"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(strings, st.sampled_from(INJECTING), st.sampled_from(ODD_VALUES)), min_size=1, max_size=4),
       st.dictionaries(st.sampled_from(ODD_KEYS), st.one_of(st.sampled_from(["v", "{{ .Name }}"]), st.sampled_from(ODD_VALUES)),
                       max_size=3))
def test_the_tree_gives_what_the_json_text_gives(values: list, extra: dict) -> None:
    """render_config's shortcut on the config's tree (templatedata._render_tree) against the same shortcut
    on its JSON text: results with their types (1 is not 1.0), errors and hints."""
    config = {"metadata": {"name": "svc", "namespace": "team"},
              "spec": {"template": {"containers": [{"name": "main", "args": values}]}, "extra": extra}}
    for service in SERVICES:
        assert repr(_tree_outcome(config, service)) == repr(_text_outcome(config, service))


def test_the_tree_is_taken_for_plain_configs_and_left_for_the_rest() -> None:
    from llmc.resolve import templatedata

    plain = {"metadata": {"name": "svc"}, "spec": {"a": "{{ .Name }}-x", "b": [1, True, None, "{{ .Namespace }}"]}}
    assert templatedata._render_tree(plain, SERVICE, GLOBAL) == {
        "metadata": {"name": "svc"}, "spec": {"a": "svc-x", "b": [1, True, None, "team"]}}
    for odd in ({"x": 1.0}, {"x": "\ud800"}, {"{{ .Name }}": "v"}, {"x": "{{ if true }}"},
                {"x": "{{ printf `%c` 34 }}"}):
        config = {"metadata": {"name": "svc"}, "spec": {"a": "{{ .Name }}", **odd}}
        assert templatedata._render_tree(config, SERVICE, GLOBAL) is None, odd
        assert repr(_tree_outcome(config)) == repr(_text_outcome(config))


def test_a_budget_is_counted_with_the_plain_text_on_the_tree() -> None:
    """Near a budget the tree leaves the config to the JSON text, which counts the plain text exactly."""
    from llmc.go.template.exec import MAX_OUTPUT_BYTES
    from llmc.resolve import templatedata

    over = {"spec": {"a": ["{{ printf `%01200000d` 1 }}"] * 3}}
    assert _tree_outcome(over) == _text_outcome(over) == _whole_text_outcome(over)
    assert _tree_outcome(over)[0] == "error"
    # one output just within the budget, plain text that the bound counts six times over
    size = MAX_OUTPUT_BYTES - 200_000
    near = {"spec": {"a": "{{ printf `%0" + str(size) + "d` 1 }}", "b": "x" * 40_000}}
    assert templatedata._render_tree(near, SERVICE, GLOBAL) is None
    assert _tree_outcome(near) == _text_outcome(near)
    assert _tree_outcome(near)[0] == "ok"
