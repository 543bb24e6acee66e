"""The endpoint picker: EndpointPickerConfig text and its migrations, the Go YAML/JSON codecs,
and the EPP objects (reference 03 §3.4–3.12, §7; KServe scheduler.go and scheduler_test.go)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from llmc.go import yaml as goyaml
from llmc.core.errors import LlmcError
from llmc.core.findings import Findings
from llmc.k8s.names import child_name
from llmc.render import scheduler
from llmc.render.context import RenderContext, RenderOptions
from llmc.kserve.settings import DEFAULT_INGRESS, Settings

from .epp_reference import DEFAULT_EPP_CONFIG
from .hand import hand_render
from llmc.kserve import scheduler_spec

NS, NAME = "test-ns", "my-llm"



def preset_scheduler(upstream: Path, file: str = "config-llm-scheduler.yaml", **kw: Any) -> dict[str, Any]:
    text = (upstream / "kserve/presets/master" / file).read_text()
    return yaml.safe_load(hand_render(text, **{"name": NAME, "ns": NS, **kw}))["spec"]["router"]["scheduler"]


def make_ctx(spec: dict[str, Any], *, tls: bool = False, name: str = NAME, ns: str = NS) -> RenderContext:
    ingress = dict(DEFAULT_INGRESS, enableLLMInferenceServiceTLS=tls)
    service = {"metadata": {"name": name, "namespace": ns}, "spec": spec}
    return RenderContext(service, spec, Settings(ingress=ingress), RenderOptions(), Findings(f"{ns}/{name}"))


def epp_spec(upstream: Path, *, tls: bool = False, **extra: Any) -> dict[str, Any]:
    sched = preset_scheduler(upstream, tls=tls)
    sched["template"]["serviceAccountName"] = child_name(NAME, "-epp-sa")
    sched.update(extra)
    return {"model": {"uri": "hf://org/model", "name": "org/model"}, "router": {"scheduler": sched}}


def no_attach(*_: Any) -> None:
    raise AssertionError("no tokenizer container expected")


def main_of(dep: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in dep["spec"]["template"]["spec"]["containers"] if c["name"] == "main")


def config_text(container: dict[str, Any]) -> str:
    args = container["args"]
    return args[args.index("--config-text") + 1]


def transform(config: str, version: str | None, *, command: list[str] | None = None, args: list[str] | None = None,
              tokenizer_url: str | None = None) -> dict[str, Any]:
    """Run the version-gated migrations on a pod with one `main` container."""
    pod = {"containers": [{"name": "main", "command": list(command or ["/app/epp"]),
                           "args": list(args if args is not None else ["--config-text", config])}]}
    annotations = {} if version is None else {"app.kubernetes.io/version": version}
    scheduler._transform(make_ctx({}), pod, annotations, tokenizer_url)
    return pod


# -- the generated default config ---------------------------------------------------------------


def test_default_config_text_is_the_go_literal() -> None:
    # scheduler.go schedulerConfigText: a leading newline, then the single-profile baseline
    assert scheduler.default_config_text({}) == "\n" + DEFAULT_EPP_CONFIG


def test_default_config_reserialised_byte_for_byte(upstream: Path) -> None:
    # 03 §11: --config-text after the v0.10.0 transform (sorted keys, unindented sequences)
    dep = scheduler.deployment(make_ctx(epp_spec(upstream)), None, no_attach)
    assert main_of(dep)["args"] == ["--config-text", DEFAULT_EPP_CONFIG]


def test_tls_moves_the_metrics_scheme_into_the_config(upstream: Path) -> None:
    # 03 §7.3 step 8 and §11 (TLS on): the flag leaves the command, a metrics-data-source plugin appears
    dep = scheduler.deployment(make_ctx(epp_spec(upstream, tls=True), tls=True), None, no_attach)
    main = main_of(dep)
    assert main["command"][-3:] == ["--enable-cert-reload=true", "--secure-serving=true", "--cert-path=/var/run/kserve/tls"]
    assert config_text(main) == DEFAULT_EPP_CONFIG.replace(
        "- type: max-score-picker\nschedulingProfiles",
        "- type: max-score-picker\n- parameters:\n    scheme: https\n  type: metrics-data-source\nschedulingProfiles",
    )


def test_tls_off_keeps_four_empty_command_entries(upstream: Path) -> None:
    # 03 §7.1 and §11: the TLS-conditional entries render as ""
    main = main_of(scheduler.deployment(make_ctx(epp_spec(upstream)), None, no_attach))
    assert main["command"][-4:] == ["", "", "", ""]


def test_pd_default_reserialised(upstream: Path) -> None:
    # TestSchedulerConfigTextPD content; keys sorted by the re-serialisation (03 §7.3)
    spec = epp_spec(upstream)
    spec["prefill"] = {}
    text = config_text(main_of(scheduler.deployment(make_ctx(spec), None, no_attach)))
    assert text == """apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: disagg-headers-handler
- type: prefill-filter
- type: decode-filter
- type: queue-scorer
- type: kv-cache-utilization-scorer
- type: active-request-scorer
- type: prefix-cache-scorer
- type: max-score-picker
- type: always-disagg-pd-decider
- parameters:
    deciders:
      prefill: always-disagg-pd-decider
  type: disagg-profile-handler
schedulingProfiles:
- name: prefill
  plugins:
  - pluginRef: prefill-filter
  - pluginRef: prefix-cache-scorer
    weight: 3
  - pluginRef: queue-scorer
    weight: 2
  - pluginRef: kv-cache-utilization-scorer
    weight: 2
  - pluginRef: max-score-picker
- name: decode
  plugins:
  - pluginRef: decode-filter
  - pluginRef: active-request-scorer
    weight: 2
  - pluginRef: prefix-cache-scorer
    weight: 3
  - pluginRef: max-score-picker
"""


@pytest.mark.parametrize("lora", [None, {}, {"adapters": []}])
def test_no_lora_scorer_without_adapters(lora: Any) -> None:
    # TestSchedulerConfigTextLoRA: nil LoRA and empty adapters add nothing
    spec: dict[str, Any] = {"model": {} if lora is None else {"lora": lora}}
    assert "lora-affinity-scorer" not in scheduler.default_config_text(spec)


def test_lora_scorer_first_in_default_profile() -> None:
    # TestSchedulerConfigTextLoRA: adapters present (names not required)
    cfg = goyaml.parse_go_yaml(scheduler.default_config_text({"model": {"lora": {"adapters": [{}]}}}))
    assert cfg["plugins"][-1] == {"type": "lora-affinity-scorer"}
    assert cfg["schedulingProfiles"][0]["plugins"][0] == {"pluginRef": "lora-affinity-scorer", "weight": 4}


def test_lora_scorer_second_in_both_pd_profiles() -> None:
    # TestSchedulerConfigTextPDLoRA: after each profile's filter
    cfg = goyaml.parse_go_yaml(scheduler.default_config_text({"prefill": {}, "model": {"lora": {"adapters": [{}]}}}))
    assert {"type": "lora-affinity-scorer"} in cfg["plugins"]
    for profile in cfg["schedulingProfiles"]:
        assert profile["plugins"][1] == {"pluginRef": "lora-affinity-scorer", "weight": 4}


# -- which config is passed -------------------------------------------------------------------------


def test_inline_object_is_passed_and_reserialised(upstream: Path) -> None:
    # 03 §7.2 priority 1; the inline object reaches the EPP as YAML after the >=0.7 round trip
    inline = {"kind": "EndpointPickerConfig", "apiVersion": "llm-d.ai/v1alpha1", "plugins": [{"type": "queue-scorer"}]}
    spec = epp_spec(upstream, config={"inline": inline})
    text = config_text(main_of(scheduler.deployment(make_ctx(spec), None, no_attach)))
    assert text == "apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: queue-scorer\n"


def test_inline_without_kind_is_passed_as_compact_json(upstream: Path) -> None:
    # mutateSchedulerConfig skips a config without kind: the RawExtension bytes go through unchanged
    spec = epp_spec(upstream, config={"inline": {"plugins": [{"type": "queue-scorer"}], "a": "<b>"}})
    text = config_text(main_of(scheduler.deployment(make_ctx(spec), None, no_attach)))
    assert text == '{"a":"\\u003cb\\u003e","plugins":[{"type":"queue-scorer"}]}'


def test_config_file_in_template_args_suppresses_the_default(upstream: Path) -> None:
    # 03 §7.2 priority 2 (TestPreserveSchedulerConfig "template already has ...")
    spec = epp_spec(upstream)
    main = next(c for c in spec["router"]["scheduler"]["template"]["containers"] if c["name"] == "main")
    main["args"] = ["--config-file", "/etc/epp/config.yaml"]
    assert main_of(scheduler.deployment(make_ctx(spec), None, no_attach))["args"] == ["--config-file", "/etc/epp/config.yaml"]


def test_resolved_configmap_text_is_passed_verbatim_below_0_7(upstream: Path) -> None:
    # 03 §1.3 item 8: a config.ref value is copied as raw text; no re-serialisation before EPP 0.7
    raw = "# comment\nkind: EndpointPickerConfig\nplugins: [ {type: queue-scorer} ]\n"
    spec = epp_spec(upstream, config={"inline": scheduler_spec.RawConfig(goyaml.parse_go_yaml(raw), raw)},
                    annotations={"app.kubernetes.io/version": "0.6.0"})
    assert config_text(main_of(scheduler.deployment(make_ctx(spec), None, no_attach))) == raw


def test_ha_replicas_add_leader_election(upstream: Path) -> None:
    # scheduler.go expectedSchedulerDeployment: replicas > 1 adds the flag before the config pair
    dep = scheduler.deployment(make_ctx(epp_spec(upstream, replicas=2)), None, no_attach)
    assert dep["spec"]["replicas"] == 2
    assert main_of(dep)["args"][:2] == ["--ha-enable-leader-election", "--config-text"]


def test_single_replica_and_unset_replicas(upstream: Path) -> None:
    one = scheduler.deployment(make_ctx(epp_spec(upstream, replicas=1)), None, no_attach)
    assert one["spec"]["replicas"] == 1 and "--ha-enable-leader-election" not in main_of(one)["args"]
    assert "replicas" not in scheduler.deployment(make_ctx(epp_spec(upstream)), None, no_attach)["spec"]


def test_scheduler_labels_reach_metadata_selector_and_pod(upstream: Path) -> None:
    # scheduler.go: one label map is shared by metadata, selector and pod; PropagateMap writes into it
    dep = scheduler.deployment(make_ctx(epp_spec(upstream, labels={"team": "a"})), None, no_attach)
    for labels in (dep["metadata"]["labels"], dep["spec"]["selector"]["matchLabels"], dep["spec"]["template"]["metadata"]["labels"]):
        assert labels["team"] == "a"
        assert labels["app.kubernetes.io/component"] == "llminferenceservice-router-scheduler"


def test_tracing_on_the_epp(upstream: Path) -> None:
    # tracing.go injectSchedulerTracing with the tracing preset's values (03 §7.1)
    spec = epp_spec(upstream)
    spec["tracing"] = {"exporterEndpoint": "http://otel-collector:4317", "exporter": "otlp",
                       "sampler": "parentbased_traceidratio", "samplerArg": "0.05"}
    main = main_of(scheduler.deployment(make_ctx(spec), None, no_attach))
    assert main["args"][-1] == "--tracing=true"
    env = {e["name"]: e.get("value") for e in main["env"]}
    assert env["OTEL_SERVICE_NAME"] == "inference-scheduler"
    assert env["OTEL_EXPORTER_OTLP_ENDPOINT"] == "http://otel-collector:4317"
    assert env["OTEL_RESOURCE_ATTRIBUTES"].startswith(f"k8s.namespace.name={NS},")
    assert [e["name"] for e in main["env"]][0] == "SSL_CERT_DIR"


# -- migrations (schedulerTransform) --------------------------------------------------------------

OLD = """apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: prefill-header-handler
- type: pd-profile-handler
  parameters:
    deciderPluginName: always-disagg-pd-decider
- type: prefix-cache-scorer
  parameters:
    hashBlockSize: 64
    blockSizeTokens: 16
"""


def test_migrations_apply_at_0_7() -> None:
    # TestSchedulerTransform "applies all migrations for v0.7.0"
    text = config_text(transform(OLD, "0.7.0")["containers"][0])
    assert "disagg-headers-handler" in text and "prefill-header-handler" not in text
    assert "disagg-profile-handler" in text and "pd-profile-handler" not in text
    assert "prefill: always-disagg-pd-decider" in text and "deciderPluginName" not in text
    assert "hashBlockSize" not in text and "blockSizeTokens" in text


@pytest.mark.parametrize("version", ["0.6.0", None])
def test_migrations_skipped_below_0_7(version: str | None) -> None:
    # TestSchedulerTransform "skips all migrations for v0.6.0" / "when no version annotation"
    assert config_text(transform(OLD, version)["containers"][0]) == OLD


@pytest.mark.parametrize(
    ("threshold", "decider", "params"),
    [("0", "always-disagg-pd-decider", None), ("100", "prefix-based-pd-decider", {"nonCachedTokens": 25}),
     ("5", "prefix-based-pd-decider", {"nonCachedTokens": 2}), ("1", "prefix-based-pd-decider", {"nonCachedTokens": 1})],
)
def test_threshold_migration(threshold: str, decider: str, params: Any) -> None:
    # TestWithMigrateDisaggProfileParams threshold cases: the decider goes before the handler
    config = f"kind: X\nplugins:\n- type: pd-profile-handler\n  parameters:\n    threshold: {threshold}\n- type: prefill-filter\n"
    cfg = goyaml.parse_go_yaml(config_text(transform(config, "0.7.0")["containers"][0]))
    expected_decider = {"type": decider} if params is None else {"type": decider, "parameters": params}
    assert cfg["plugins"] == [
        expected_decider,
        {"type": "disagg-profile-handler", "parameters": {"deciders": {"prefill": decider}}},
        {"type": "prefill-filter"},
    ]


@pytest.mark.parametrize(("value", "tokens"), [(100, 25), (5, 2), (1, 1), (3, 1), (100.0, 25), (0.5, 1), (7.0, 2)])
def test_threshold_to_non_cached_tokens(value: Any, tokens: int) -> None:
    # TestThresholdToNonCachedTokens
    assert scheduler._non_cached_tokens(value) == tokens


def test_deprecated_metric_flags_become_a_plugin_renamed_at_0_8() -> None:
    # TestFullMigrationPipeline "v0.8.0 renames model-server-protocol-metrics to core-metrics-extractor"
    pod = transform(OLD, "0.8.0", args=["--config-text", OLD, "--total-queued-requests-metric", "vllm:num_requests_waiting",
                                        "--grpc-port", "9002"])
    main = pod["containers"][0]
    assert main["args"][2:] == ["--grpc-port", "9002"]
    plugin = goyaml.parse_go_yaml(config_text(main))["plugins"][-1]
    assert plugin == {
        "name": "core-metrics-extractor",
        "type": "core-metrics-extractor",
        "parameters": {"defaultEngine": "vllm", "engineLabelKey": "inference.networking.k8s.io/engine-type",
                       "engineConfigs": [{"name": "vllm", "queuedRequestsSpec": "vllm:num_requests_waiting"}]},
    }


def test_metric_flags_with_config_file_fail() -> None:
    # schedulerTransform: deprecated flags without a writable --config-text
    with pytest.raises(LlmcError, match="uses deprecated metric flags but has no inline --config-text"):
        transform("", "0.7.0", args=["--config-file", "/c.yaml", "--lora-info-metric", "x"])


@pytest.mark.parametrize(
    ("flag", "params"),
    [("--model-server-metrics-scheme=https", {"scheme": "https"}),
     ("--model-server-metrics-path=/custom/metrics", {"path": "/custom/metrics"}),
     ("--model-server-metrics-https-insecure-skip-verify=false", {"insecureSkipVerify": False}),
     ("--model-server-metrics-port=8000", None)],
)
def test_model_server_metrics_flags_at_0_10(flag: str, params: Any) -> None:
    # scheduler_test.go metrics-data-source table (0.10.0 rows)
    config = "kind: EndpointPickerConfig\nplugins:\n- type: queue-scorer\n"
    main = transform(config, "0.10.0", command=["/app/epp", flag])["containers"][0]
    assert main["command"] == ["/app/epp"]
    plugins = goyaml.parse_go_yaml(config_text(main))["plugins"]
    expected = [{"type": "queue-scorer"}] + ([] if params is None else [{"type": "metrics-data-source", "parameters": params}])
    assert plugins == expected


def test_model_server_metrics_flag_left_alone_at_0_9() -> None:
    # "0.9.0 leaves flag and config untouched"
    main = transform("kind: X\n", "0.9.0", command=["/app/epp", "--model-server-metrics-scheme=https"])["containers"][0]
    assert main["command"] == ["/app/epp", "--model-server-metrics-scheme=https"]


def test_model_server_metrics_with_config_file_lists_flags_sorted() -> None:
    # "0.10.0 non-writable config-file lists the set flags sorted"
    with pytest.raises(LlmcError) as err:
        transform("", "0.10.0", command=["/app/epp", "--model-server-metrics-scheme=https", "--model-server-metrics-path=/metrics",
                                         "--model-server-metrics-https-insecure-skip-verify=true"],
                  args=["--config-file", "/etc/scheduler/config.yaml"])
    assert ("--model-server-metrics-https-insecure-skip-verify, --model-server-metrics-path, --model-server-metrics-scheme"
            in err.value.message)


def test_invalid_insecure_skip_verify_fails() -> None:
    # "0.10.0 invalid insecureSkipVerify value returns error"
    with pytest.raises(LlmcError, match="invalid value"):
        transform("kind: X\n", "0.10.0", command=["/app/epp", "--model-server-metrics-https-insecure-skip-verify=notabool"])


def test_unparsable_version_fails() -> None:
    # schedulerTransform: semver.NewVersion error
    with pytest.raises(LlmcError, match='failed to parse version "0.10"'):
        transform("kind: X\n", "0.10")


def test_prefix_scorer_parameters_pruned_at_0_9() -> None:
    # TestWithRemovePrefixCacheScorerParametersV09
    config = ("kind: X\nplugins:\n- type: prefix-cache-scorer\n  parameters:\n    blockSizeTokens: 16\n"
              "    prefixMatchInfoProducerName: p\n- type: prefix-cache-scorer\n  name: b\n  parameters:\n    maxPrefixBlocks: 3\n")
    plugins = goyaml.parse_go_yaml(config_text(transform(config, "0.9.0")["containers"][0]))["plugins"]
    assert plugins == [{"type": "prefix-cache-scorer", "parameters": {"prefixMatchInfoProducerName": "p"}},
                       {"type": "prefix-cache-scorer", "name": "b"}]


def test_api_version_migrated_at_0_9_only() -> None:
    # TestSchedulerTransformMigratesLLMDAPIVersion
    old = "apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\n"
    assert config_text(transform(old, "0.9.0")["containers"][0]).startswith("apiVersion: llm-d.ai/v1alpha1\n")
    assert config_text(transform(old, "0.8.0")["containers"][0]).startswith("apiVersion: inference.networking.x-k8s.io/v1alpha1\n")


LEGACY = """apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: single-profile-handler
- parameters:
    indexerConfig:
      kvBlockIndexConfig:
        enableMetrics: true
      tokenProcessorConfig:
        blockSize: 64
        hashSeed: "42"
      tokenizersPoolConfig:
        hf:
          tokenizersCacheDir: /mnt/tokenizers
    kvEventsConfig:
      topicFilter: kv
      zmqEndpoint: tcp://*:5557
  type: precise-prefix-cache-scorer
- type: load-aware-scorer
- type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: precise-prefix-cache-scorer
    weight: 2.0
  - pluginRef: load-aware-scorer
    weight: 1.0
  - pluginRef: max-score-picker
"""


def test_precise_prefix_scorer_decomposed_from_template_args() -> None:
    # TestSchedulerTransformDecomposesPrecisePrefixCacheFromTemplateArgs (+ tokenizer_test.go URL form)
    spec = {"router": {"scheduler": {"template": {"containers": [{"name": "main", "args": ["--config-text", LEGACY]}]}}}}
    assert scheduler_spec.scheduler_config_text(spec) == LEGACY
    assert scheduler_spec.has_plugin(scheduler_spec.scheduler_config_text(spec), "precise-prefix-cache-scorer")
    url = "http://my-llm-tokenizer.default.svc.cluster.local:8000"
    cfg = goyaml.parse_go_yaml(config_text(transform(LEGACY, "0.10.0", tokenizer_url=url)["containers"][0]))
    assert cfg["apiVersion"] == "llm-d.ai/v1alpha1"
    assert [p["type"] for p in cfg["plugins"]] == [
        "single-profile-handler", "token-producer", "precise-prefix-cache-producer", "prefix-cache-scorer",
        "load-aware-scorer", "max-score-picker"]
    assert cfg["plugins"][1]["parameters"] == {"modelName": "/mnt/models/base", "vllm": {"url": url}}
    producer = cfg["plugins"][2]["parameters"]
    assert producer["tokenProcessorConfig"] == {"blockSize": 64, "hashSeed": "42"}
    assert producer["indexerConfig"] == {"kvBlockIndexConfig": {"enableMetrics": True}}
    assert cfg["plugins"][3]["parameters"] == {"prefixMatchInfoProducerName": "precise-prefix-cache-producer"}
    assert cfg["schedulingProfiles"][0]["plugins"][0] == {"pluginRef": "prefix-cache-scorer", "weight": 2}


def test_token_producer_keeps_a_user_url() -> None:
    # TestInjectTokenProducerConfig: an existing vllm.url is kept, modelName filled
    config = "kind: X\nplugins:\n- type: token-producer\n  parameters:\n    vllm:\n      url: http://custom-url:9999\n"
    cfg = goyaml.parse_go_yaml(config_text(transform(config, "0.9.0", tokenizer_url="http://t:8000")["containers"][0]))
    assert cfg["plugins"][0]["parameters"] == {"modelName": "/mnt/models/base", "vllm": {"url": "http://custom-url:9999"}}


def test_unused_tokenizer_sidecar_removed_at_0_9() -> None:
    # 03 §7.3 step 7 (v0.20 presets ship a `tokenizer` container in the EPP pod)
    pod = {"containers": [{"name": "main", "args": ["--config-text", "kind: X\nplugins: []\n"]}, {"name": "tokenizer"}]}
    scheduler._transform(make_ctx({}), pod, {"app.kubernetes.io/version": "0.9.0"}, None)
    assert [c["name"] for c in pod["containers"]] == ["main"]


# -- detection -----------------------------------------------------------------------------------------


def test_config_text_sources() -> None:
    # tokenizer.go inlineSchedulerConfigBytes: inline first, then --config-text of main; --config-file yields nothing
    inline = {"plugins": [{"type": "token-producer"}]}
    assert scheduler_spec.scheduler_config_text({"router": {"scheduler": {"config": {"inline": inline}}}}) == '{"plugins":[{"type":"token-producer"}]}'
    file_spec = {"router": {"scheduler": {"template": {"containers": [{"name": "main", "args": ["--config-file", "x", "--config-text", "y"]}]}}}}
    assert scheduler_spec.scheduler_config_text(file_spec) is None
    assert scheduler_spec.scheduler_config_text({"router": {}}) is None


def test_has_plugin_needs_a_plugins_list_of_maps() -> None:
    # scheduler_latency_predictor.go hasPluginType
    assert scheduler_spec.has_plugin("plugins:\n- type: predicted-latency-producer\n", "predicted-latency-producer")
    assert not scheduler_spec.has_plugin("plugins: {type: predicted-latency-producer}\n", "predicted-latency-producer")
    assert not scheduler_spec.has_plugin("- not a map", "x")
    assert not scheduler_spec.has_plugin("{unclosed", "x")


def test_latency_predictor_detection_v020_reads_inline_only() -> None:
    # 01 §2.3: v0.20.0 detection only reads config.inline
    spec = {"router": {"scheduler": {"template": {"containers": [{"name": "main", "args": [
        "--config-text", "plugins:\n- type: predicted-latency-producer\n"]}]}}}}
    assert scheduler_spec.latency_predictor_enabled(spec)
    assert not scheduler_spec.latency_predictor_enabled(spec, from_config_text=False)


# -- Go YAML and JSON ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "emitted"),
    [("9002", '"9002"'), ("true", '"true"'), ("y", '"y"'), ("off", '"off"'), ("", '""'), ("1e3", '"1e3"'), ("0x1F", '"0x1F"'),
     ("2001-12-14", '"2001-12-14"'), ("1:20", '"1:20"'), ("0s", "0s"), ("kv@", "kv@"), ("tcp://*:5557", "tcp://*:5557"),
     ("a: b", "'a: b'"), ("-x", "-x"), ("- x", "'- x'")],
)
def test_goyaml_v2_string_quoting(value: str, emitted: str) -> None:
    # goyaml.v2 encode.go stringv: strings that resolve to another type are double-quoted; the
    # libyaml emitter single-quotes what cannot be plain
    assert goyaml.dump_go_yaml({"k": value}) == f"k: {emitted}\n"


def test_goyaml_v2_key_order() -> None:
    # goyaml.v2 keyList.Less: non-letters before letters; digit runs compare by value (a non-digit
    # counts as the run 0, so "a-b" < "a9" < "a10")
    assert goyaml._go_sorted_keys(["a10", "a9", "b", "A", "a-b", "ab"]) == ["A", "a-b", "a9", "a10", "ab", "b"]


def test_goyaml_v2_scalars() -> None:
    # YAML 1.1 booleans and Go base-0 integers; timestamps stay strings; JSON turns 2.0 into 2
    parsed = goyaml.parse_go_yaml("a: yes\nb: 0x10\nc: 010\nd: 2001-12-14\ne: 2.0\nf: 0.5\ng: ~\nh: 1_000\n")
    assert parsed == {"a": True, "b": 16, "c": 8, "d": "2001-12-14", "e": 2, "f": 0.5, "g": None, "h": 1000}
    assert goyaml.parse_go_yaml("a: .nan\n") is None  # json.Marshal refuses NaN


def test_goyaml_v2_multiline_and_floats() -> None:
    assert goyaml.dump_go_yaml({"s": "a\nb\n", "f": 1234567.5, "g": 1e-05}) == "f: 1.2345675e+06\ng: 1e-05\ns: |\n  a\n  b\n"


# YAML line breaks other than \n (NEL, U+2028/9) and surrogates do not survive a libyaml-style emitter
# in goyaml.v2 either; they are left out.
text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x85\u2028\u2029"), max_size=12)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | text
    | st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: not f.is_integer()),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(text, children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(text, json_values, max_size=5))
def test_goyaml_round_trip(value: dict[str, Any]) -> None:
    # what the emitter writes reads back as the same JSON values (quoting decisions are consistent)
    assert goyaml.parse_go_yaml(goyaml.dump_go_yaml(value)) == value


# -- EPP objects ------------------------------------------------------------------------------------


def test_epp_service_ports_sorted_by_name(upstream: Path) -> None:
    # 03 §3.12: only grpc, grpc-health, metrics, zmq; sidecar ports are not exposed
    spec = epp_spec(upstream)
    spec["router"]["scheduler"]["template"]["containers"].append(
        {"name": "training-server", "ports": [{"containerPort": 8000, "name": "training-port"}]})
    svc = scheduler.service(make_ctx(spec))
    assert svc["spec"]["ports"] == [
        {"name": "grpc", "port": 9002, "targetPort": "grpc", "protocol": "TCP"},
        {"name": "grpc-health", "port": 9003, "targetPort": "grpc-health", "protocol": "TCP"},
        {"name": "metrics", "port": 9090, "targetPort": "metrics", "protocol": "TCP"},
        {"name": "zmq", "port": 5557, "targetPort": "zmq", "protocol": "TCP"},
    ]
    assert "type" not in svc["spec"]


def test_epp_service_named_by_endpoint_picker_ref(upstream: Path) -> None:
    # RouterSpec.EPPServiceName (03 §3.12, §12 #13)
    spec = epp_spec(upstream)
    spec["router"]["scheduler"]["pool"]["spec"]["endpointPickerRef"]["name"] = "custom-epp"
    assert scheduler.service(make_ctx(spec))["metadata"]["name"] == "custom-epp"


def test_v1alpha2_conversion_keeps_an_explicit_group(upstream: Path) -> None:
    # inferencepool_conversion.go ConvertFrom: group copied only when set; kind and failureMode always
    spec = epp_spec(upstream)
    spec["router"]["scheduler"]["pool"]["spec"]["endpointPickerRef"]["group"] = ""
    pool = scheduler.inference_pool_v1alpha2(make_ctx(spec))
    assert pool["spec"]["extensionRef"] == {"group": "", "kind": "Service", "name": "my-llm-epp-service",
                                           "portNumber": 9002, "failureMode": "FailOpen"}


def test_named_scheduler_service_account_is_bound_not_created(upstream: Path) -> None:
    # 03 §3.6: a different SA in the template must exist; RBAC binds it
    spec = epp_spec(upstream)
    spec["router"]["scheduler"]["template"]["serviceAccountName"] = "byo-sa"
    ctx = make_ctx(spec)
    assert scheduler.service_account_name(ctx) == ("byo-sa", False)
    assert scheduler.role_binding(ctx, "byo-sa")["subjects"] == [{"kind": "ServiceAccount", "name": "byo-sa", "namespace": NS}]


def test_legacy_tokenizer_sidecar_gets_the_model_and_uds_config(upstream: Path) -> None:
    # 03 §7.4: model attached to `tokenizer` at /mnt/models/base; precise-prefix scorer pointed at the UDS socket
    config = ("kind: EndpointPickerConfig\nplugins:\n- type: precise-prefix-cache-scorer\n"
              "  parameters:\n    indexerConfig:\n      tokenProcessorConfig:\n        blockSize: 16\n")
    spec = epp_spec(upstream, config={"inline": goyaml.parse_go_yaml(config)}, annotations={"app.kubernetes.io/version": "0.8.0"})
    spec["router"]["scheduler"]["template"]["containers"].append({"name": "tokenizer"})
    calls = []
    dep = scheduler.deployment(make_ctx(spec), None, lambda ctx, pod, *where: calls.append(where))
    assert calls == [("tokenizer", "/mnt/models/base", "spec.router.scheduler.template")]
    params = goyaml.parse_go_yaml(config_text(main_of(dep)))["plugins"][0]["parameters"]
    assert params["indexerConfig"]["tokenizersPoolConfig"] == {"modelName": "base", "uds": {"socketFile": "/tmp/tokenizer/tokenizer-uds.socket"}}
    assert params["tokenProcessorConfig"] == {"blockSize": 16}
