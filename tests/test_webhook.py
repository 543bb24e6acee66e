"""llmc.admit.webhook: KServe's mutating and validating webhooks, one test per rule with the controller's message.

Expected messages are written from KServe's Go code (llm_inference_service_validation.go,
llm_inference_service_defaults.go, pkg/validation/managed_dra.go, confidential.go) and
apimachinery's field.Error / NewInvalid formatting.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from llmc.admit import schema, webhook
from llmc.core.errors import ErrorList
from llmc.load.documents import load_text

BAD = Path(__file__).parent / "data" / "bad"
API = "serving.kserve.io/v1alpha2"
INVALID = 'LLMInferenceService.serving.kserve.io "demo" is invalid: '

DNS_SUBDOMAIN = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
DNS_LABEL = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
    "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)


def svc(annotations: dict | None = None, **spec) -> dict:
    metadata = {"name": "demo", "namespace": "team"}
    if annotations is not None:
        metadata["annotations"] = annotations
    return {"apiVersion": API, "kind": "LLMInferenceService", "metadata": metadata,
            "spec": {"model": {"uri": "hf://facebook/opt-125m", "name": "opt"}, **spec}}


def admit(obj: dict) -> list[str]:
    """What the API server does on create: CRD defaults, mutating webhook, validating webhook; the error texts."""
    try:
        webhook.validate_service(webhook.default_service(schema.apply_defaults(obj)))
    except ErrorList as exc:
        return [e.message for e in exc.errors]
    return []


def raw(obj: dict) -> list[str]:
    """The validating webhook alone, on the object as given."""
    try:
        webhook.validate_service(obj)
    except ErrorList as exc:
        return [e.message for e in exc.errors]
    return []


# --------------------------------------------------------------------------- mutating webhook


def test_model_name_defaults_to_the_service_name():
    obj = svc()
    del obj["spec"]["model"]["name"]
    assert webhook.default_service(obj)["spec"]["model"]["name"] == "demo"
    obj["spec"]["model"]["name"] = ""
    assert webhook.default_service(obj)["spec"]["model"]["name"] == "demo"
    obj["spec"]["model"]["name"] = "opt"
    assert webhook.default_service(obj)["spec"]["model"]["name"] == "opt"


def test_the_patch_writes_an_unset_model_uri_as_empty():
    # llm_inference_service_defaults.go SetDefaults + apis.URL without omitempty: the webhook's
    # patch carries `uri: ""`, so a service whose model comes from baseRefs passes `required: [uri]`
    obj = svc()
    del obj["spec"]["model"]
    assert webhook.default_service(obj)["spec"]["model"] == {"name": "demo", "uri": ""}
    assert webhook.default_service(svc())["spec"]["model"]["uri"] == svc()["spec"]["model"]["uri"]


def test_routing_group_label_follows_the_route_group():
    obj = svc(router={"route": {"group": "blue", "weight": 10}})
    obj["metadata"]["labels"] = {"app": "x"}
    out = webhook.default_service(obj)
    assert out["metadata"]["labels"] == {"app": "x", "serving.kserve.io/routing-group": "blue"}
    stale = svc()
    stale["metadata"]["labels"] = {"serving.kserve.io/routing-group": "old"}
    assert "labels" not in webhook.default_service(stale)["metadata"]  # removed; the empty map is dropped


def test_pod_specs_without_containers_get_an_empty_list():
    obj = svc(template={}, worker={"containers": [{"name": "w"}]}, prefill={"template": {}, "worker": {}},
              router={"scheduler": {"template": {"serviceAccountName": "sa"}}})
    spec = webhook.default_service(obj)["spec"]
    assert spec["template"] == {"containers": []}
    assert spec["worker"] == {"containers": [{"name": "w"}]}
    assert spec["prefill"] == {"template": {"containers": []}, "worker": {"containers": []}}
    assert spec["router"]["scheduler"]["template"] == {"serviceAccountName": "sa", "containers": []}


def test_default_service_does_not_change_its_input():
    obj = svc(template={})
    webhook.default_service(obj)
    assert obj["spec"]["template"] == {}


# --------------------------------------------------------------------------- router and traffic


def test_route_refs_and_inline_spec_together():
    got = raw(svc(router={"route": {"http": {"refs": [{"name": "r"}], "spec": {"parentRefs": [{"name": "gw"}]}}}}))
    assert got == [INVALID + 'spec.router.route.http: Invalid value: {"refs":[{"name":"r"}],"spec":{"parentRefs":'
                   '[{"name":"gw"}]}}: unsupported configuration: cannot use both custom HTTPRoute refs '
                   "('spec.router.route.http.refs') and an inline route spec ('spec.router.route.http.spec'); choose one"]


def test_route_refs_with_a_managed_gateway():
    got = raw(svc(router={"route": {"http": {"refs": [{"name": "r"}]}}, "gateway": {}}))
    assert got == [INVALID + 'spec.router.route.http.refs: Invalid value: [{"name":"r"}]: unsupported configuration: '
                   "custom HTTP routes ('spec.router.route.http.refs') cannot be used with a managed gateway "
                   "('spec.router.gateway'); either remove 'spec.router.route.http.refs' or set "
                   "'spec.router.gateway.refs'"]


def test_parent_refs_equal_to_gateway_refs_only_warn():
    obj = svc(router={"route": {"http": {"spec": {"parentRefs": [{"name": "b", "namespace": "n"}, {"name": "a"}]}}},
                      "gateway": {"refs": [{"name": "a"}, {"name": "b", "namespace": "n"}]}})
    assert webhook.validate_service(obj) == [
        "spec.router.route.http.spec.parentRefs can be omitted when spec.router.gateway.refs is set; parentRefs will "
        "be derived automatically from gateway refs"
    ]


def test_parent_refs_conflicting_with_gateway_refs():
    obj = svc(router={"route": {"http": {"spec": {"parentRefs": [{"name": "a", "sectionName": "https"}]}}},
                      "gateway": {"refs": [{"name": "a"}]}})
    (message,) = raw(obj)
    assert message.startswith(INVALID + "spec.router.route.http.spec: Invalid value: {")
    assert message.endswith(
        ": unsupported configuration: managed HTTP route spec ('spec.router.route.http.spec') has parentRefs that "
        "conflict with custom gateway refs ('spec.router.gateway.refs'); either remove 'spec.router.gateway.refs' or "
        "'spec.router.route.http.spec.parentRefs'")


def test_traffic_splitting_with_ingress():
    got = raw(svc(router={"route": {"group": "blue", "weight": 5}, "ingress": {}}))
    assert got == [INVALID + 'spec.router.route.group: Invalid value: "blue": traffic splitting requires Gateway API '
                   "routing; the controller manages HTTPRoutes, not Ingress resources"]


def test_weight_without_group_and_group_without_weight():
    assert raw(svc(router={"route": {"weight": 5}})) == [INVALID + "spec.router.route.group: Required value: weight requires group"]
    assert raw(svc(router={"route": {"group": "g"}})) == [INVALID + "spec.router.route.weight: Required value: group requires weight"]


def test_traffic_splitting_with_route_refs():
    got = raw(svc(router={"route": {"group": "g", "weight": 1, "http": {"refs": [{"name": "r"}]}}}))
    assert got == [INVALID + 'spec.router.route.group: Invalid value: "g": traffic splitting cannot be used with custom '
                   "HTTPRoute refs; controller-managed routes (route.http.spec or route.http: {}) are required"]


# --------------------------------------------------------------------------- parallelism


WORKER = "when worker is specified, parallelism must be configured for either data parallelism or pipeline parallelism"


@pytest.mark.parametrize("where", ["", "prefill."])
def test_worker_needs_data_or_pipeline_parallelism(where):
    def place(**fields):
        return svc(**fields) if not where else svc(prefill=fields)

    expected = [INVALID + f'spec.{where}worker: Invalid value: {{"containers":[]}}: {WORKER}']
    assert admit(place(worker={})) == expected
    assert admit(place(worker={}, parallelism={"tensor": 2})) == expected
    assert admit(place(worker={}, parallelism={"pipeline": 2})) == []


def test_pipeline_and_data_parallelism_together():
    assert admit(svc(parallelism={"data": 8, "dataLocal": 4, "pipeline": 2})) == [
        INVALID + 'spec.parallelism: Invalid value: {"pipeline":2,"data":8,"dataLocal":4}: cannot set both pipeline '
        "parallelism and data parallelism (data or dataLocal) simultaneously"
    ]


def test_data_and_data_local_go_together():
    assert admit(svc(parallelism={"data": 8})) == [
        INVALID + "spec.parallelism.dataLocal: Invalid value: null: dataLocal must be set when data is set"]
    assert admit(svc(prefill={"parallelism": {"dataLocal": 2}})) == [
        INVALID + "spec.prefill.parallelism.data: Invalid value: null: data must be set when dataLocal is set"]


def test_parallelism_must_be_positive():
    # the CRD's minimum (1) rejects these first; the webhook repeats the check on objects it sees directly
    assert raw(svc(parallelism={"pipeline": 0, "data": -1, "dataLocal": 0})) == [
        INVALID + "spec.parallelism.pipeline: Invalid value: 0: pipeline parallelism must be greater than 0",
        INVALID + "spec.parallelism.data: Invalid value: -1: data parallelism must be greater than 0",
        INVALID + "spec.parallelism.dataLocal: Invalid value: 0: dataLocal parallelism must be greater than 0",
    ]


# --------------------------------------------------------------------------- scheduler


def test_scheduler_replicas():
    assert raw(svc(router={"scheduler": {"replicas": 0}})) == [
        INVALID + "spec.router.scheduler.replicas: Invalid value: 0: scheduler replicas must be greater than zero"]


def test_scheduler_config_needs_inline_or_ref():
    assert admit(svc(router={"scheduler": {"config": {}}})) == [
        INVALID + "spec.router.scheduler.config: Invalid value: {}: either inline or ref is required"]


def test_scheduler_config_inline_and_ref():
    got = admit(svc(router={"scheduler": {"config": {"inline": {"kind": "EndpointPickerConfig"},
                                                     "ref": {"key": "epp", "name": "cm"}}}}))
    assert got == [INVALID + 'spec.router.scheduler.config: Invalid value: {"inline":{"kind":"EndpointPickerConfig"},'
                   '"ref":{"name":"cm","key":"epp"}}: both inline and ref are set, either specify inline or ref']


def test_scheduler_inline_config_too_short():
    assert admit(svc(router={"scheduler": {"config": {"inline": {}}}})) == [
        INVALID + "spec.router.scheduler.config.inline: Invalid value: {}: inline configuration is invalid"]


def test_scheduler_config_ref_without_name():
    # the CRD defaults ref.name to ""; Go leaves the empty name out of the printed ConfigMapKeySelector
    assert admit(svc(router={"scheduler": {"config": {"ref": {"key": "epp"}}}})) == [
        INVALID + 'spec.router.scheduler.config.ref.name: Invalid value: {"key":"epp"}: name is empty']


# --------------------------------------------------------------------------- scaling


HPA = {"maxReplicas": 4, "wva": {"hpa": {}}}
TRIGGERS = [{"type": "cpu", "metadata": {"value": "80"}}]


def test_scaling_and_replicas():
    assert admit(svc(replicas=2, scaling=HPA))[-1] == (
        INVALID + 'spec.scaling: Invalid value: {"minReplicas":1,"maxReplicas":4,"wva":{"variantCost":"10.0","hpa":{}}}: '
        "scaling and replicas are mutually exclusive; use scaling for autoscaled deployments or replicas for static "
        "deployments")


def test_min_replicas_above_max():
    assert raw(svc(scaling={"minReplicas": 3, "maxReplicas": 2, "wva": {"hpa": {}}})) == [
        INVALID + "spec.scaling.minReplicas: Invalid value: 3: minReplicas (3) cannot exceed maxReplicas (2)"]


def test_wva_and_keda_together_and_neither():
    assert raw(svc(scaling={"maxReplicas": 2, "wva": {"hpa": {}}, "keda": {"triggers": TRIGGERS}})) == [
        INVALID + 'spec.scaling: Invalid value: {"maxReplicas":2,"wva":{"hpa":{}},"keda":{"triggers":[{"type":"cpu",'
        '"metadata":{"value":"80"}}]}}: wva and keda are mutually exclusive; choose one scaling mechanism']
    assert raw(svc(prefill={"scaling": {"maxReplicas": 2}})) == [
        INVALID + "spec.prefill.scaling: Required value: either wva or keda must be specified when scaling is configured"]


def test_direct_keda_needs_triggers():
    assert raw(svc(scaling={"maxReplicas": 2, "keda": {"triggers": []}})) == [
        INVALID + "spec.scaling.keda.triggers: Required value: at least one trigger is required when using direct KEDA "
        "scaling"]


def test_wva_actuator_rules():
    assert raw(svc(scaling={"maxReplicas": 2, "wva": {"hpa": {}, "keda": {}}})) == [
        INVALID + 'spec.scaling.wva: Invalid value: {"hpa":{},"keda":{}}: hpa and keda are mutually exclusive; choose '
        "one actuator backend"]
    assert raw(svc(scaling={"maxReplicas": 2, "wva": {"variantCost": "10.0"}})) == [
        INVALID + "spec.scaling.wva: Required value: either hpa or keda must be specified as the actuator backend"]


def test_variant_cost_format():
    assert raw(svc(scaling={"maxReplicas": 2, "wva": {"hpa": {}, "variantCost": "-1"}})) == [
        INVALID + 'spec.scaling.wva.variantCost: Invalid value: "-1": variantCost must be a non-negative numeric string '
        '(e.g., "10", "10.0", "0.5")']


def test_scaling_modifiers_forbidden_under_wva_only():
    advanced = {"advanced": {"scalingModifiers": {"formula": "a + b"}}}
    assert raw(svc(scaling={"maxReplicas": 2, "wva": {"keda": advanced}})) == [
        INVALID + "spec.scaling.wva.keda.advanced.scalingModifiers: Forbidden: scalingModifiers must not be set; WVA "
        "controls the scaling metric formula and logic"]
    assert raw(svc(scaling={"maxReplicas": 2, "keda": {"triggers": TRIGGERS, **advanced}})) == []


def test_hpa_name_forbidden():
    keda = {"triggers": TRIGGERS, "advanced": {"horizontalPodAutoscalerConfig": {"name": "mine"}}}
    assert raw(svc(scaling={"maxReplicas": 2, "keda": keda})) == [
        INVALID + "spec.scaling.keda.advanced.horizontalPodAutoscalerConfig.name: Forbidden: "
        "horizontalPodAutoscalerConfig.name must not be set; the controller manages the HPA name"]


def test_idle_replica_count():
    assert raw(svc(scaling={"maxReplicas": 3, "keda": {"triggers": TRIGGERS, "idleReplicaCount": 0}})) == [
        INVALID + "spec.scaling.minReplicas: Required value: minReplicas is required when idleReplicaCount is set; "
        "idleReplicaCount (0) must be less than minReplicas"]
    assert admit(svc(scaling={"maxReplicas": 3, "wva": {"keda": {"idleReplicaCount": 1}}})) == [
        INVALID + "spec.scaling.wva.keda.idleReplicaCount: Invalid value: 1: idleReplicaCount (1) must be less than "
        "minReplicas (1); idleReplicaCount defines the replica floor when no triggers are active"]


def test_decode_and_prefill_scaling_modes_must_match():
    keda = {"maxReplicas": 2, "keda": {"triggers": TRIGGERS}}
    assert raw(svc(scaling=HPA, prefill={"scaling": keda})) == [
        INVALID + 'spec.prefill.scaling: Invalid value: {"maxReplicas":2,"keda":{"triggers":[{"type":"cpu","metadata":'
        '{"value":"80"}}]}}: decode and prefill must use the same scaling mode; decode uses wva but prefill uses '
        "direct keda"]


def test_decode_and_prefill_actuators_must_match():
    keda_actuator = {"maxReplicas": 2, "wva": {"keda": {}}}
    assert raw(svc(scaling=HPA, prefill={"scaling": keda_actuator})) == [
        INVALID + 'spec.prefill.scaling.wva: Invalid value: {"keda":{}}: decode and prefill must use the same actuator '
        "backend; decode uses hpa but prefill uses keda — mixing backends requires two separate metric pipelines and "
        "leads to independent, unsynchronised scaling decisions"]


# --------------------------------------------------------------------------- LoRA


def lora(**fields) -> dict:
    obj = svc()
    obj["spec"]["model"]["lora"] = fields
    return obj


def test_lora_limits():
    assert raw(lora(maxRank=0, maxAdapters=0, maxCpuAdapters=-1)) == [
        INVALID + "spec.model.lora.maxRank: Invalid value: 0: maxRank must be at least 1",
        INVALID + "spec.model.lora.maxAdapters: Invalid value: 0: maxAdapters must be at least 1",
        INVALID + "spec.model.lora.maxCpuAdapters: Invalid value: -1: maxCpuAdapters must be at least 1",
    ]


def test_lora_adapter_names():
    adapters = [{"uri": "hf://a/b"}, {"name": ".."}, {"name": "sql"}, {"name": "sql"}, {"name": "opt"}]
    assert raw(lora(adapters=adapters)) == [
        INVALID + "spec.model.lora.adapters[0].name: Required value: adapter name is required",
        INVALID + 'spec.model.lora.adapters[1].name: Invalid value: "..": adapter name must not include "." or ".." '
        "(path traversal risk)",
        INVALID + 'spec.model.lora.adapters[3].name: Invalid value: "sql": duplicate name (same as adapters[2])',
        INVALID + 'spec.model.lora.adapters[4].name: Invalid value: "opt": adapter name must differ from base model '
        'name "opt"',
    ]


def test_lora_base_name_falls_back_to_the_service_name():
    obj = lora(adapters=[{"name": "demo"}])
    del obj["spec"]["model"]["name"]
    assert raw(obj) == [INVALID + 'spec.model.lora.adapters[0].name: Invalid value: "demo": adapter name must differ '
                        'from base model name "demo"']


# --------------------------------------------------------------------------- KV cache


def kv(*tiers, cpu="10Gi", where="") -> dict:
    block = {"cpu": cpu, "secondary": list(tiers)}
    return svc(kvCacheOffloading=block) if not where else svc(prefill={"kvCacheOffloading": block})


def test_kv_cache_cpu_required_with_secondary_tiers():
    tier = {"fileSystem": {"emptyDir": {"size": "1Gi"}}}
    assert raw(kv(tier, cpu="0")) == [INVALID + "spec.kvCacheOffloading.cpu: Required value: cpu must be set when "
                                      "secondary tiers are configured"]
    assert raw(kv(tier, cpu=0, where="prefill")) == [INVALID + "spec.prefill.kvCacheOffloading.cpu: Required value: "
                                                     "cpu must be set when secondary tiers are configured"]
    assert raw(kv(cpu=0)) == []  # no secondary tiers, no check


def test_kv_cache_tiers():
    base = "spec.kvCacheOffloading.secondary"
    assert raw(kv({})) == [INVALID + f"{base}[0].fileSystem: Required value: only fileSystem tiers are supported; "
                           "fileSystem must be set"]
    assert raw(kv({"fileSystem": {}})) == [INVALID + f"{base}[0].fileSystem: Required value: exactly one of emptyDir "
                                           "or pvc must be set"]
    both = {"fileSystem": {"pvc": {"ref": {"name": "p"}}, "emptyDir": {"size": "1Gi"}}}
    assert raw(kv(both)) == [INVALID + f'{base}[0].fileSystem: Invalid value: {{"emptyDir":{{"size":"1Gi"}},"pvc":'
                             '{"ref":{"name":"p"}}}: exactly one of emptyDir or pvc must be set; multiple are set']


def test_kv_cache_pvc_tiers():
    base = "spec.kvCacheOffloading.secondary[0].fileSystem.pvc"
    assert raw(kv({"fileSystem": {"pvc": {}}})) == [INVALID + f"{base}: Required value: exactly one of spec or ref must "
                                                    "be set"]
    both = {"fileSystem": {"pvc": {"ref": {"name": "p", "path": "/x"}, "spec": {"storageClassName": "fast"}}}}
    assert raw(kv(both)) == [INVALID + f'{base}: Invalid value: {{"spec":{{"storageClassName":"fast"}},"ref":{{"name":'
                             '"p","path":"/x"}}: exactly one of spec or ref must be set; multiple are set']
    assert raw(kv({"fileSystem": {"pvc": {"ref": {"name": ""}}}})) == [INVALID + f"{base}.ref.name: Required value: "
                                                                       "name is required"]


# --------------------------------------------------------------------------- rollout strategy


PERCENT = ("a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used "
           "for validation is '[0-9]+%')")


def test_rollout_values():
    assert raw(svc(rolloutStrategy={"maxUnavailable": -1, "maxSurge": "5"})) == [
        INVALID + "spec.rolloutStrategy.maxUnavailable: Invalid value: -1: must be greater than or equal to 0",
        INVALID + f'spec.rolloutStrategy.maxSurge: Invalid value: "5": {PERCENT}',
    ]
    assert raw(svc(prefill={"rolloutStrategy": {"maxSurge": "150%"}})) == [
        INVALID + 'spec.prefill.rolloutStrategy.maxSurge: Invalid value: "150%": must not be greater than 100%']


def test_rollout_cannot_make_no_progress():
    # 50% of one replica rounds down to 0 for maxUnavailable
    assert raw(svc(rolloutStrategy={"maxSurge": 0, "maxUnavailable": "50%"})) == [
        INVALID + 'spec.rolloutStrategy: Invalid value: {"maxUnavailable":"50%","maxSurge":0}: maxUnavailable and '
        "maxSurge cannot both be zero; this would prevent any rolling update progress"]
    assert raw(svc(rolloutStrategy={"maxSurge": "1%", "maxUnavailable": 0})) == []  # 1% rounds up to 1


def test_multi_node_rollout_needs_max_surge():
    obj = svc(worker={}, parallelism={"pipeline": 2}, rolloutStrategy={"maxUnavailable": 0})
    assert raw(obj) == [INVALID + "spec.rolloutStrategy.maxSurge: Required value: maxSurge is required for multi-node "
                        "workloads when maxUnavailable is 0, otherwise no rolling update progress is possible"]
    assert raw(svc(rolloutStrategy={"maxUnavailable": 0})) == []


# --------------------------------------------------------------------------- managed DRA annotations

CLASS = "serving.kserve.io/exp-dra-device-class"
COUNT = "serving.kserve.io/exp-dra-device-count"
CEL = "serving.kserve.io/exp-dra-cel-selector"
CONTAINER = "serving.kserve.io/exp-dra-container-name"


def dra(**annotations) -> list[str]:
    keys = {"device_class": CLASS, "count": COUNT, "cel": CEL, "container": CONTAINER}
    return raw(svc(annotations={keys[k]: v for k, v in annotations.items()}))


def test_dra_options_need_a_device_class():
    assert dra(count="2") == [
        INVALID + f"metadata.annotations[{CLASS}]: Required value: {CLASS} is required to enable managed DRA when "
        f"{COUNT}, {CEL}, or {CONTAINER} is set"]


def test_dra_device_class():
    assert dra(device_class=" ") == [INVALID + f'metadata.annotations[{CLASS}]: Invalid value: " ": device class must '
                                     "not be empty"]
    assert dra(device_class="GPU_X") == [INVALID + f'metadata.annotations[{CLASS}]: Invalid value: "GPU_X": device '
                                         f"class must be a DNS subdomain: {DNS_SUBDOMAIN}"]
    assert dra(device_class=" gpu.example.com ") == []


def test_dra_device_count():
    assert dra(device_class="gpu.example.com", count="two") == [
        INVALID + f'metadata.annotations[{COUNT}]: Invalid value: "two": invalid {COUNT} value "two": strconv.Atoi: '
        'parsing "two": invalid syntax']
    assert dra(device_class="gpu.example.com", count="0") == [
        INVALID + f'metadata.annotations[{COUNT}]: Invalid value: "0": invalid {COUNT} value "0": must be >= 1']
    assert dra(device_class="gpu.example.com", count=" ") == []  # blank means 1


def test_dra_cel_selector():
    assert dra(device_class="gpu.example.com", cel="\n  \n") == [
        INVALID + f'metadata.annotations[{CEL}]: Invalid value: "\\n  \\n": cel selector must contain at least one '
        "non-empty CEL expression"]


def test_dra_container_name():
    assert dra(device_class="gpu.example.com", container=" ") == [
        INVALID + f'metadata.annotations[{CONTAINER}]: Invalid value: " ": container name must not be empty']
    assert dra(device_class="gpu.example.com", container="Main") == [
        INVALID + f'metadata.annotations[{CONTAINER}]: Invalid value: "Main": container name must be a DNS label: '
        f"{DNS_LABEL}"]


# --------------------------------------------------------------------------- confidential


def confidential(uri: str, **fields) -> dict:
    obj = svc()
    obj["spec"]["model"].update(uri=uri, confidential=fields)
    return obj


def test_confidential_warnings():
    assert webhook.validate_service(confidential("oci://registry/model:1", enabled=True)) == [
        "confidential has no effect with OCI URIs; OCI image decryption is handled by the container runtime via "
        "runtimeClassName"]
    assert webhook.validate_service(confidential("PVC://claim/path", enabled=True)) == [
        "confidential has no effect with PVC URIs; the storage-initializer is not injected for PVC volumes"]
    assert webhook.validate_service(confidential("oci://registry/model:1", enabled=False)) == []


def test_confidential_resource_id():
    assert raw(confidential("hf://a/b", enabled=True, resourceId="kbs://repo/key/1")) == [
        INVALID + 'spec.model.confidential.resourceId: Invalid value: "kbs://repo/key/1": must be in the format '
        "kbs:///<repo>/<type>/<tag>"]
    assert raw(confidential("hf://a/b", enabled=True, resourceId="kbs:///repo/key/1")) == []


# --------------------------------------------------------------------------- configs, messages, locations


def test_config_rules():
    config = {"apiVersion": API, "kind": "LLMInferenceServiceConfig", "metadata": {"name": "cfg"},
              "spec": {"baseRefs": [{"name": "x"}], "router": {"scheduler": {"replicas": -1}}}}
    with pytest.raises(ErrorList) as info:
        webhook.validate_config(config)
    prefix = 'LLMInferenceServiceConfig.serving.kserve.io "cfg" is invalid: '
    assert [e.message for e in info.value.errors] == [
        prefix + "spec.baseRefs: Forbidden: baseRefs is not a permitted field in LLMInferenceServiceConfig, support "
        "for recursive refs has been disabled",
        prefix + "spec.router.scheduler.replicas: Invalid value: -1: scheduler replicas must be greater than zero",
    ]
    config["spec"] = {"baseRefs": []}
    webhook.validate_config(config)


def test_invalid_message_aggregates_like_the_api_server():
    errors = [schema.required("spec.a", ("spec", "a"), "x"), schema.forbidden("spec.b", ("spec", "b"), "y"),
              schema.required("spec.a", ("spec", "a"), "x")]
    assert webhook.invalid_message("LLMInferenceService", "demo", errors) == (
        'LLMInferenceService.serving.kserve.io "demo" is invalid: [spec.a: Required value: x, spec.b: Forbidden: y]')
    assert webhook.invalid_message("LLMInferenceService", "demo", errors[:1]) == (
        'LLMInferenceService.serving.kserve.io "demo" is invalid: spec.a: Required value: x')


@pytest.mark.parametrize(
    "name, line, col, path, message",
    [
        ("webhook-parallelism.yaml", 9, 5, "spec.parallelism",
         'LLMInferenceService.serving.kserve.io "dp" is invalid: spec.parallelism: Invalid value: '
         '{"pipeline":2,"data":8}: cannot set both pipeline parallelism and data parallelism (data or dataLocal) '
         "simultaneously"),
        ("webhook-dra.yaml", 7, 45, 'metadata.annotations["serving.kserve.io/exp-dra-device-count"]',
         'LLMInferenceService.serving.kserve.io "dra" is invalid: '
         f'metadata.annotations[{COUNT}]: Invalid value: "two": invalid {COUNT} value "two": strconv.Atoi: parsing '
         '"two": invalid syntax'),
    ],
)
def test_webhook_errors_are_located(name, line, col, path, message):
    file = str(BAD / name)
    (doc,) = load_text((BAD / name).read_text(), file)
    obj = webhook.default_service(schema.apply_defaults(doc.obj))
    with pytest.raises(ErrorList) as info:
        webhook.validate_service(obj, doc)
    errors = [e for e in info.value.errors if e.location.path == path]
    assert [e.message for e in errors][:1] == [message]
    assert (errors[0].location.file, errors[0].location.line, errors[0].location.col) == (file, line, col)


def test_config_error_is_located():
    file = str(BAD / "webhook-config-baserefs.yaml")
    (doc,) = load_text((BAD / "webhook-config-baserefs.yaml").read_text(), file)
    with pytest.raises(ErrorList) as info:
        webhook.validate_config(doc.obj, doc)
    (err,) = info.value.errors
    assert (err.location.line, err.location.col, err.location.path) == (7, 3, "spec.baseRefs")
    assert str(err).startswith(f"{file}:7:3: spec.baseRefs: LLMInferenceServiceConfig.serving.kserve.io \"nested\"")


def test_upstream_samples_and_presets_pass_admission(upstream):
    files = sorted((upstream / "kserve" / "presets" / "master").glob("*.yaml"))
    files += sorted((upstream / "kserve" / "samples").rglob("*.yaml"))
    seen = 0
    for file in files:
        for doc in load_text(file.read_text(), str(file)) if "kustomization" not in file.name else []:
            obj = schema.apply_defaults(doc.obj)
            if doc.kind == "LLMInferenceService":
                webhook.validate_service(webhook.default_service(obj), doc)
                seen += 1
            elif doc.kind == "LLMInferenceServiceConfig":
                webhook.validate_config(obj, doc)
    assert seen > 10
