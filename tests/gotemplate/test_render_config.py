"""render_config: the controller's ReplaceVariables over the JSON text of the merged config."""

from __future__ import annotations

import copy

from pathlib import Path

import pytest
import yaml

from llmc.go.json import marshal
from llmc.core.errors import LlmcError
from llmc.resolve.templatedata import compile_config, render_config

from gotmpl_samples import GLOBAL, SERVICES


def _preset(upstream: Path, name: str) -> dict:
    return yaml.safe_load((upstream / "kserve" / "presets" / "master" / f"{name}.yaml").read_text())


def test_worked_example_of_reference(upstream: Path) -> None:
    """Reference 01 §4.5: service llama/team-a, tensor 2, kvCacheOffloading cpu 10Gi (lru), TLS off."""
    svc = SERVICES["tensor-kv"]
    svc = dict(svc, spec={k: v for k, v in svc["spec"].items() if k != "template"})
    svc["spec"]["kvCacheOffloading"] = {"cpu": "10Gi", "evictionPolicy": "lru"}
    preset = _preset(upstream, "config-llm-template")
    out = render_config({"metadata": svc["metadata"], "spec": preset["spec"]}, svc, GLOBAL)
    main = out["spec"]["template"]["containers"][0]
    script = main["command"][2]
    assert 'SHUTDOWN_TIMEOUT_ARGS="--shutdown-timeout 40"' in script
    assert ("KV_TRANSFER_ARGS=\"--kv-transfer-config '{\\\"kv_connector\\\":\\\"OffloadingConnector\\\","
            "\\\"kv_connector_extra_config\\\":{\\\"cpu_bytes_to_use\\\":10737418240,\\\"eviction_policy\\\":"
            "\\\"lru\\\",\\\"spec_name\\\":\\\"TieringOffloadingSpec\\\"},\\\"kv_role\\\":\\\"kv_both\\\"}'\"") in script
    assert ('--served-model-name "meta-llama/Llama-3.1-8B" "publishers/team-a/models/meta-llama/Llama-3.1-8B" \\\n'
            "  --port 8000 \\\n") in script
    assert " --tensor-parallel-size 2 \\\n   \\\n   \\\n   \\\n  ${VLLM_ADDITIONAL_ARGS}" in script
    volumes = {v["name"]: v for v in out["spec"]["template"]["volumes"]}
    assert volumes["tls-certs"]["secret"]["secretName"] == "llama-kserve-self-signed-certs"


def test_json_text_is_go_marshal() -> None:
    # encoding/json escapes <, >, & and U+2028/U+2029 and writes other non-ASCII as is
    assert marshal({"b": "<a&b>", "a": "é\u2028"}, sort_keys=False) == '{"b":"\\u003ca\\u0026b\\u003e","a":"é\\u2028"}'


def test_raw_extension_bytes_are_go_marshal() -> None:
    # RawExtension.Raw is the JSON the API server stored: encoding/json's floats (1e-7, 100000000000000000000),
    # where Python's json.dumps wrote {"x":1e-07,"y":1e+20} (21 bytes)
    svc = copy.deepcopy(SERVICES["minimal"])
    svc["spec"].setdefault("router", {})["scheduler"] = {"config": {"inline": {"x": 1e-7, "y": 1e20}}}
    out = render_config({"spec": {"model": {"name": "{{ len .Spec.Router.Scheduler.Config.Inline.Raw }}"}}}, svc, GLOBAL)
    assert out["spec"]["model"]["name"] == str(len('{"x":1e-7,"y":100000000000000000000}'))


def test_fast_path_and_cache() -> None:
    config = {"metadata": {"name": "x"}, "spec": {"model": {"uri": "hf://a"}}}
    out = render_config(config, SERVICES["minimal"], GLOBAL)
    assert out == config and out is not config
    text = '{"a":"{{ .Name }}"}'
    assert compile_config(text) is compile_config(text)


def test_controller_error_messages() -> None:
    svc = SERVICES["minimal"]
    with pytest.raises(LlmcError) as err:
        render_config({"spec": {"x": '{{ ChildName .Name "-a" }}'}}, svc, GLOBAL)
    assert err.value.message == 'failed to parse template config: template: config:1: unexpected "\\\\" in operand'
    with pytest.raises(LlmcError) as err:
        render_config({"spec": {"x": "{{ .Spec.Parallelism.Tensor }}"}}, svc, GLOBAL)
    assert err.value.message == ('failed to merge config: template: config:1:22: executing "config" at '
                                 "<.Spec.Parallelism.Tensor>: nil pointer evaluating *v1alpha2.ParallelismSpec.Tensor")
    # output is spliced raw into the JSON text (reference 01 §4.3); messages checked with tests/go/tmplrun
    for value, message in [
        ("{{ printf `%c` 34 }}b", "invalid character 'b' after object key:value pair"),
        ("a{{ printf `%c%c` 34 44 }}", "unexpected end of JSON input"),
        (["{{ printf `%c` 92 }}"], "unexpected end of JSON input"),
    ]:
        with pytest.raises(LlmcError) as err:
            render_config({"spec": {"x": value}}, svc, GLOBAL)
        assert err.value.message == f"failed to unmarshal config from template: {message}"
    # a JSON-escaped quote inside a raw string stays escaped: valid JSON again
    assert render_config({"spec": {"x": "{{ `a\"b` }}"}}, svc, GLOBAL) == {"spec": {"x": 'a"b'}}


def test_spec_is_the_services_own(upstream: Path) -> None:
    """Reference 01 §4.1: `.Spec` is the service's own spec, not the merged one."""
    svc = SERVICES["minimal"]
    config = {"metadata": svc["metadata"], "spec": {"parallelism": {"tensor": 8}, "x": "{{ .Spec.Parallelism }}"}}
    assert render_config(config, svc, GLOBAL)["spec"]["x"] == "<nil>"


def _depth_by_scanning(text: str) -> int:
    """The bracket depth of JSON text, one character at a time (strings skipped as the regex skips them)."""
    import re

    depth = deepest = 0
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', text):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif m.group() in "]}":
            depth -= 1
    return deepest


def test_json_depth_is_the_scanned_depth() -> None:
    import random

    from llmc.resolve.templatedata import MAX_JSON_DEPTH, _json_depth

    rng = random.Random(18)
    alphabet = ['[', ']', '{', '}', '"', '\\', 'a', ',', ':', '\n', '"x[{"', '"\\"{"']
    texts = ["[" * 120 + "]" * 120, '"' + "[" * 200, "]" * 150 + "[" * 150, "{" * 101 + '"}"' * 5]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(100, 600))) for _ in range(400)]
    for text in texts:
        want = _depth_by_scanning(text)
        got = _json_depth(text)
        if text.count("[") + text.count("{") > MAX_JSON_DEPTH:
            assert got == want, text
        else:
            assert got == 0 and want <= MAX_JSON_DEPTH
