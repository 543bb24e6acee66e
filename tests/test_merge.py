"""KServe MergeSpecs: the T-MERGE cases (config_merge_test.go TestMergeSpecs), reference 01 §3-§6 facts, properties."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from llmc.core.errors import LlmcError
from llmc.kserve.gotypes import project
from llmc.resolve.merge import go_value, merge_specs, overlay_patch


def _containers(*names: str, **extra: Any) -> list[dict[str, Any]]:
    return [{"name": n, "image": n, **extra} for n in names]


# -- T-MERGE TestMergeSpecs ----------------------------------------------------------------
# Each case: input specs (as the Go test's structs would encode) and the expected spec.
# The expectation is compared after the Go round trip, which is how cmp.Diff sees structs.

T_MERGE: list[tuple[str, list[dict[str, Any]], dict[str, Any]]] = [
    ("no configs", [], {}),
    ("single config", [{"model": {"uri": "model-a"}}], {"model": {"uri": "model-a"}}),
    (
        "two configs simple merge with sub-field override",
        [
            {"model": {"uri": "model-a"}, "router": {"route": {}, "gateway": {}, "scheduler": {}}},
            {"model": {"uri": "model-a"}, "router": {"scheduler": {"pool": {"spec": {"targetPorts": [{"number": 9999}]}}}}},
        ],
        {"model": {"uri": "model-a"}, "router": {"route": {}, "gateway": {}, "scheduler": {"pool": {"spec": {"targetPorts": [{"number": 9999}]}}}}},
    ),
    (
        "two configs with override",
        [{"model": {"uri": "model-a"}, "replicas": 1}, {"model": {"uri": "model-b"}, "replicas": 2}],
        {"model": {"uri": "model-b"}, "replicas": 2},
    ),
    (
        "deep merge with podspec template",
        [
            {
                "replicas": 1,
                "template": {
                    "initContainers": [{"name": "storage-initializer", "image": "kserve/storage-initializer:latest", "resources": {"requests": {"storage": "1Mi"}}}],
                    "containers": [{"name": "kserve-container", "image": "base:0.1", "resources": {"requests": {"cpu": "1"}}}],
                    "tolerations": [{"key": "team", "operator": "Equal", "value": "a"}],
                },
            },
            {
                "replicas": 2,
                "template": {
                    "initContainers": [{"name": "storage-initializer", "resources": {"requests": {"storage": "1Gi"}}}],
                    "containers": [
                        {"name": "kserve-container", "image": "override:1.0", "env": [{"name": "FOO", "value": "bar"}], "resources": {"requests": {"cpu": "2"}}},
                        {"name": "transformer", "image": "transformer:latest"},
                    ],
                    "tolerations": [{"key": "gpu", "operator": "Exists"}],
                    "priorityClassName": "high-priority",
                },
            },
        ],
        {
            "replicas": 2,
            "template": {
                "initContainers": [{"name": "storage-initializer", "image": "kserve/storage-initializer:latest", "resources": {"requests": {"storage": "1Gi"}}}],
                "containers": [
                    {"name": "kserve-container", "image": "override:1.0", "env": [{"name": "FOO", "value": "bar"}], "resources": {"requests": {"cpu": "2"}}},
                    {"name": "transformer", "image": "transformer:latest"},
                ],
                "tolerations": [{"key": "gpu", "operator": "Exists"}],
                "priorityClassName": "high-priority",
            },
        },
    ),
    (
        "merge with prefill spec",
        [
            {"replicas": 1, "template": {"containers": [{"name": "kserve-container", "image": "decode:0.1"}]}},
            {"prefill": {"replicas": 4, "template": {"containers": [{"name": "kserve-container", "image": "prefill:0.1"}]}}},
        ],
        {
            "replicas": 1,
            "template": {"containers": [{"name": "kserve-container", "image": "decode:0.1"}]},
            "prefill": {"replicas": 4, "template": {"containers": [{"name": "kserve-container", "image": "prefill:0.1"}]}},
        },
    ),
    (
        "merge with worker spec",
        [
            {"template": {"containers": [{"name": "kserve-container", "image": "head:0.1"}]}},
            {"worker": {"containers": [{"name": "kserve-container", "image": "worker:0.1"}]}},
        ],
        {
            "template": {"containers": [{"name": "kserve-container", "image": "head:0.1"}]},
            "worker": {"containers": [{"name": "kserve-container", "image": "worker:0.1"}]},
        },
    ),
    (
        "merge with parallelism spec",
        [{"parallelism": {"tensor": 2}}, {"parallelism": {"pipeline": 4}}],
        {"parallelism": {"tensor": 2, "pipeline": 4}},
    ),
    (
        "deep merge of prefill spec",
        [
            {"prefill": {"replicas": 2, "template": {"containers": [{"name": "prefill-container", "image": "prefill:0.1", "resources": {"requests": {"cpu": "1"}}}]}}},
            {"prefill": {"replicas": 4, "template": {"containers": [{"name": "prefill-container", "env": [{"name": "PREFILL_MODE", "value": "FAST"}]}]}}},
        ],
        {
            "prefill": {
                "replicas": 4,
                "template": {
                    "containers": [
                        {"name": "prefill-container", "image": "prefill:0.1", "env": [{"name": "PREFILL_MODE", "value": "FAST"}], "resources": {"requests": {"cpu": "1"}}}
                    ]
                },
            }
        },
    ),
    (
        "4 chained merge router, epp, multi node",
        [
            {"router": {"route": {}, "gateway": {}}},
            {"parallelism": {"tensor": 1, "pipeline": 1}, "worker": {"containers": [{"name": "main", "resources": {"requests": {"cpu": "1", "nvidia.com/gpu": "1"}}}]}},
            {"router": {"scheduler": {"pool": {"spec": {"endpointPickerRef": {"failureMode": "FailClose"}}}, "template": {"containers": [{"name": "main"}]}}}},
            {"parallelism": {"tensor": 4, "pipeline": 2}, "worker": {"containers": [{"name": "main", "resources": {"requests": {"cpu": "1", "nvidia.com/gpu": "4"}}}]}},
        ],
        {
            "router": {
                "route": {},
                "gateway": {},
                "scheduler": {"pool": {"spec": {"endpointPickerRef": {"failureMode": "FailClose"}}}, "template": {"containers": [{"name": "main"}]}},
            },
            "parallelism": {"tensor": 4, "pipeline": 2},
            "worker": {"containers": [{"name": "main", "resources": {"requests": {"cpu": "1", "nvidia.com/gpu": "4"}}}]},
        },
    ),
    (
        "4 chained merge router with scheduler, http route and gateway ref, multi node",
        [
            {
                "router": {
                    "route": {"http": {"spec": {"parentRefs": [{"name": "my-parent"}]}, "refs": [{"name": "my-route"}]}},
                    "gateway": {"refs": [{"name": "my-gateway"}]},
                }
            },
            {"router": {"route": {"http": {"refs": [{"name": "my-second-route"}]}}, "gateway": {"refs": [{"name": "my-second-gateway"}]}}},
            {"parallelism": {"tensor": 1, "pipeline": 1}, "worker": {"containers": [{"name": "main", "resources": {"requests": {"cpu": "1", "nvidia.com/gpu": "1"}}}]}},
            {"router": {"scheduler": {"pool": {"ref": {"name": "my-pool"}}}}},
            {"parallelism": {"tensor": 4, "pipeline": 2}, "worker": {"containers": [{"name": "main", "resources": {"requests": {"cpu": "1", "nvidia.com/gpu": "4"}}}]}},
        ],
        {
            "router": {
                "route": {"http": {"spec": {"parentRefs": [{"name": "my-parent"}]}, "refs": [{"name": "my-second-route"}]}},
                "gateway": {"refs": [{"name": "my-second-gateway"}]},
                "scheduler": {"pool": {"ref": {"name": "my-pool"}}},
            },
            "parallelism": {"tensor": 4, "pipeline": 2},
            "worker": {"containers": [{"name": "main", "resources": {"requests": {"cpu": "1", "nvidia.com/gpu": "4"}}}]},
        },
    ),
    (
        "merge requests and limits",
        [
            {"router": {"route": {}, "gateway": {}}},
            {
                "parallelism": {"tensor": 1, "pipeline": 1},
                "worker": {
                    "containers": [
                        {
                            "name": "main",
                            "resources": {"requests": {"cpu": "1", "nvidia.com/gpu": "1"}, "limits": {"nvidia.com/gpu": "1"}},
                            "env": [{"name": "a", "value": "1"}, {"name": "z", "value": "42"}],
                            "args": ["a", "b"],
                        }
                    ]
                },
            },
            {
                "worker": {
                    "containers": [
                        {
                            "name": "main",
                            "resources": {"requests": {"memory": "1Gi"}, "limits": {"cpu": "2"}},
                            "env": [{"name": "b", "value": "2"}, {"name": "z", "value": ""}],
                            "args": ["x", "y"],
                        }
                    ]
                }
            },
        ],
        {
            "router": {"route": {}, "gateway": {}},
            "parallelism": {"tensor": 1, "pipeline": 1},
            "worker": {
                "containers": [
                    {
                        "name": "main",
                        "resources": {"requests": {"memory": "1Gi", "cpu": "1", "nvidia.com/gpu": "1"}, "limits": {"cpu": "2", "nvidia.com/gpu": "1"}},
                        "env": [{"name": "b", "value": "2"}, {"name": "a", "value": "1"}, {"name": "z", "value": "42"}],
                        "args": ["x", "y"],
                    }
                ]
            },
        },
    ),
    (
        "merge LoRA adapters",
        [
            {"model": {"uri": "base-model", "lora": {"adapters": [{"uri": "lora-model"}]}}},
            {"model": {"lora": {"adapters": [{"uri": "lora-model2"}]}}},
        ],
        {"model": {"uri": "base-model", "lora": {"adapters": [{"uri": "lora-model2"}]}}},
    ),
    (
        "merge model URI",
        [{"model": {"uri": "hf://hub.com/model-a"}}, {"model": {"uri": "s3://bucket.com/model-b"}}],
        {"model": {"uri": "s3://bucket.com/model-b"}},
    ),
    (
        "merge baseRefs",
        [{"baseRefs": [{"name": "base-config-1"}, {"name": "base-config-2"}]}, {"baseRefs": [{"name": "override-config-1"}]}],
        {"baseRefs": [{"name": "override-config-1"}]},
    ),
    (
        "merge ingress spec",
        [
            {"router": {"ingress": {"refs": [{"name": "base-ingress", "namespace": "base-ns"}]}}},
            {"router": {"ingress": {"refs": [{"name": "override-ingress", "namespace": "override-ns"}]}}},
        ],
        {"router": {"ingress": {"refs": [{"name": "override-ingress", "namespace": "override-ns"}]}}},
    ),
    (
        "merge with nil pointer handling",
        [{"model": {"uri": "model-uri", "name": "base-name"}, "replicas": 1}, {"model": {}, "replicas": 3}],
        {"model": {"uri": "model-uri", "name": "base-name"}, "replicas": 3},
    ),
    (
        "merge complex nested structures",
        [
            {
                "model": {"uri": "base-model", "name": "base-name", "lora": {"adapters": [{"uri": "lora-model"}]}},
                "replicas": 1,
                "parallelism": {"tensor": 2},
                "router": {"gateway": {"refs": [{"name": "base-gw"}]}},
            },
            {
                "model": {"name": "override-name", "lora": {"adapters": [{"uri": "lora-model2"}]}},
                "replicas": 5,
                "parallelism": {"pipeline": 4},
                "router": {"route": {"http": {"refs": [{"name": "override-route"}]}}},
            },
        ],
        {
            "model": {"uri": "base-model", "name": "override-name", "lora": {"adapters": [{"uri": "lora-model2"}]}},
            "replicas": 5,
            "parallelism": {"tensor": 2, "pipeline": 4},
            "router": {"gateway": {"refs": [{"name": "base-gw"}]}, "route": {"http": {"refs": [{"name": "override-route"}]}}},
        },
    ),
    ("merge empty structures", [{"model": {}}, {"model": {"uri": "populated-model"}}], {"model": {"uri": "populated-model"}}),
    ("merge with zero values vs nil pointers", [{"replicas": 0}, {}], {"replicas": 0}),
    (
        "merge pod spec with nil containers",
        [
            {
                "template": {"containers": [{"image": "busybox", "name": "busybox"}], "initContainers": [{"image": "busybox-init", "name": "busybox-init"}], "volumes": [{"name": "vol1"}]},
                "replicas": 1,
            },
            {"template": {}},
        ],
        {
            "template": {"containers": [{"image": "busybox", "name": "busybox"}], "initContainers": [{"image": "busybox-init", "name": "busybox-init"}], "volumes": [{"name": "vol1"}]},
            "replicas": 1,
        },
    ),
    (
        "merge pod spec with empty containers",
        [
            {
                "template": {"containers": [{"image": "busybox", "name": "busybox"}], "initContainers": [{"image": "busybox-init", "name": "busybox-init"}], "volumes": [{"name": "vol1"}]},
                "replicas": 1,
            },
            {"template": {"containers": []}},
        ],
        {
            "template": {"containers": [{"image": "busybox", "name": "busybox"}], "initContainers": [{"image": "busybox-init", "name": "busybox-init"}], "volumes": [{"name": "vol1"}]},
            "replicas": 1,
        },
    ),
    (
        "merge pod spec, add container",
        [
            {"template": {"containers": _containers("busybox"), "initContainers": _containers("busybox-sidecar")}, "replicas": 2},
            {"template": {"containers": _containers("busybox-2"), "initContainers": []}},
        ],
        {"template": {"containers": _containers("busybox-2", "busybox"), "initContainers": _containers("busybox-sidecar")}, "replicas": 2},
    ),
    (
        "merge pod spec, add container (then an empty spec)",
        [
            {"template": {"containers": _containers("busybox"), "initContainers": _containers("busybox-sidecar")}, "replicas": 2},
            {"template": {"containers": _containers("busybox-2"), "initContainers": []}},
            {},
        ],
        {"template": {"containers": _containers("busybox-2", "busybox"), "initContainers": _containers("busybox-sidecar")}, "replicas": 2},
    ),
    (
        "custom pool selector overrides base empty selector",
        [
            {
                "router": {
                    "route": {},
                    "gateway": {},
                    "scheduler": {"pool": {"spec": {"targetPorts": [{"number": 8000}]}}, "template": {"containers": [{"name": "main"}]}},
                }
            },
            {"router": {"scheduler": {"pool": {"spec": {"selector": {"matchLabels": {"llm-pool": "qwen2-7b", "kserve.io/component": "workload"}}, "targetPorts": [{"number": 8000}]}}}}},
        ],
        {
            "router": {
                "route": {},
                "gateway": {},
                "scheduler": {
                    "pool": {"spec": {"selector": {"matchLabels": {"llm-pool": "qwen2-7b", "kserve.io/component": "workload"}}, "targetPorts": [{"number": 8000}]}},
                    "template": {"containers": [{"name": "main"}]},
                },
            }
        },
    ),
    (
        "custom pool selector merge base selector",
        [
            {
                "router": {
                    "route": {},
                    "gateway": {},
                    "scheduler": {
                        "pool": {"spec": {"selector": {"matchLabels": {"x": "x"}}, "targetPorts": [{"number": 8000}]}},
                        "template": {"containers": [{"name": "main"}]},
                    },
                }
            },
            {"router": {"scheduler": {"pool": {"spec": {"selector": {"matchLabels": {"llm-pool": "qwen2-7b", "kserve.io/component": "workload"}}, "targetPorts": [{"number": 8000}]}}}}},
        ],
        {
            "router": {
                "route": {},
                "gateway": {},
                "scheduler": {
                    "pool": {"spec": {"selector": {"matchLabels": {"llm-pool": "qwen2-7b", "kserve.io/component": "workload", "x": "x"}}, "targetPorts": [{"number": 8000}]}},
                    "template": {"containers": [{"name": "main"}]},
                },
            }
        },
    ),
]


CASES = {name: specs for name, specs, _ in T_MERGE}


@pytest.mark.parametrize(("name", "specs", "want"), T_MERGE, ids=[case[0] for case in T_MERGE])
def test_t_merge_merge_specs(name: str, specs: list[dict[str, Any]], want: dict[str, Any]) -> None:
    assert merge_specs(*specs) == project(want)


def test_keyed_lists_keep_go_order() -> None:
    # T-MERGE "merge requests and limits": env [a, z] + [b, z] -> [b, a, z]; containers [busybox] + [busybox-2]
    got = merge_specs(*CASES["merge requests and limits"])
    assert [e["name"] for e in got["worker"]["containers"][0]["env"]] == ["b", "a", "z"]
    got = merge_specs({"template": {"containers": _containers("a", "main")}}, {"template": {"containers": _containers("new", "main")}})
    assert [c["name"] for c in got["template"]["containers"]] == ["new", "a", "main"]  # reference 01 §3.3 (verified)


@pytest.mark.parametrize(
    ("base", "overlay", "expected"),
    [
        # overlay order wins among overlay items; base-only items keep their relative order
        (["a", "b", "c"], ["c", "a"], ["b", "c", "a"]),
        (["a", "b", "c"], ["b"], ["a", "b", "c"]),
        (["a", "b", "c"], ["x", "c"], ["x", "a", "b", "c"]),
        (["a", "b", "c"], ["c", "x"], ["a", "b", "c", "x"]),
        ([], ["x", "y"], ["x", "y"]),
        (["a", "b"], [], ["a", "b"]),
    ],
)
def test_keyed_list_ordering_rule(base: list[str], overlay: list[str], expected: list[str]) -> None:
    """reference 01 §3.3: emit the base-only head only if both heads were in the base and it came first."""
    spec = lambda names: {"template": {"containers": [{"name": n} for n in names]}}  # noqa: E731
    got = merge_specs(spec(base), spec(overlay))
    assert [c["name"] for c in got["template"]["containers"]] == expected


def test_ports_merge_on_container_port_only_and_mounts_on_mount_path() -> None:
    base = {"template": {"containers": [{"name": "main", "ports": [{"containerPort": 8000, "protocol": "TCP", "name": "http"}], "volumeMounts": [{"name": "a", "mountPath": "/m"}]}]}}
    overlay = {"template": {"containers": [{"name": "main", "ports": [{"containerPort": 8000, "protocol": "UDP"}], "volumeMounts": [{"name": "b", "mountPath": "/m"}]}]}}
    main = merge_specs(base, overlay)["template"]["containers"][0]
    assert main["ports"] == [{"name": "http", "containerPort": 8000, "protocol": "UDP"}]
    assert main["volumeMounts"] == [{"name": "b", "mountPath": "/m"}]


# -- reference 01 §3.2 / §6 #7: omitempty and non-omitempty fields --------------------------

def test_expert_false_cannot_override_true() -> None:
    assert merge_specs({"parallelism": {"expert": True}}, {"parallelism": {"expert": False}})["parallelism"] == {"expert": True}


def test_empty_model_name_overrides() -> None:
    # `name` is a *string: a non-nil pointer to "" is encoded and wins (reference 01 §3.2, verified)
    assert merge_specs({"model": {"uri": "hf://a/b", "name": "base"}}, {"model": {"name": ""}})["model"] == {"uri": "hf://a/b", "name": ""}


def test_empty_model_uri_does_not_override() -> None:
    assert merge_specs({"model": {"uri": "hf://a/b"}}, {"model": {"uri": ""}})["model"] == {"uri": "hf://a/b"}


def test_probe_overlay_without_port_sets_port_zero() -> None:
    probe = lambda get: {"template": {"containers": [{"name": "main", "readinessProbe": {"httpGet": get, "periodSeconds": 5}}]}}  # noqa: E731
    got = merge_specs(probe({"path": "/health", "port": 8000}), probe({"path": "/ready"}))
    assert got["template"]["containers"][0]["readinessProbe"] == {"httpGet": {"path": "/ready", "port": 0}, "periodSeconds": 5}


def test_grpc_probe_overlay_deletes_service() -> None:
    probe = lambda grpc: {"template": {"containers": [{"name": "main", "livenessProbe": {"grpc": grpc}}]}}  # noqa: E731
    got = merge_specs(probe({"port": 9003, "service": "liveness"}), probe({"port": 9003}))
    assert got["template"]["containers"][0]["livenessProbe"]["grpc"] == {"port": 9003, "service": None}


def test_pointer_zero_values_override_value_zero_values_do_not() -> None:
    base = {"template": {"containers": [{"name": "main", "securityContext": {"readOnlyRootFilesystem": True}, "volumeMounts": [{"name": "v", "mountPath": "/v", "readOnly": True}], "readinessProbe": {"initialDelaySeconds": 10}}]}, "replicas": 3}
    overlay = {"template": {"containers": [{"name": "main", "securityContext": {"readOnlyRootFilesystem": False}, "volumeMounts": [{"name": "v", "mountPath": "/v", "readOnly": False}], "readinessProbe": {"initialDelaySeconds": 0}}]}, "replicas": 0}
    got = merge_specs(base, overlay)
    main = got["template"]["containers"][0]
    assert main["securityContext"] == {"readOnlyRootFilesystem": False}
    assert main["volumeMounts"] == [{"name": "v", "mountPath": "/v", "readOnly": True}]
    assert main["readinessProbe"] == {"initialDelaySeconds": 10}
    assert got["replicas"] == 0


def test_empty_args_is_a_no_op_but_empty_triggers_replace() -> None:
    # args is omitempty (P/config-llm-tokenizer `args: []`); keda.triggers is not (reference 01 §3.2)
    got = merge_specs({"template": {"containers": [{"name": "main", "args": ["--x"]}]}}, {"template": {"containers": [{"name": "main", "args": []}]}})
    assert got["template"]["containers"][0]["args"] == ["--x"]
    keda = lambda triggers: {"scaling": {"maxReplicas": 2, "keda": {"triggers": triggers}}}  # noqa: E731
    assert merge_specs(keda([{"type": "cpu", "metadata": {}}]), keda([]))["scaling"]["keda"]["triggers"] == []


def test_containers_of_tokenizer_template_are_not_defaulted() -> None:
    # SetDefaults skips router.scheduler.tokenizer.template: an overlay without containers deletes the base's
    tok = lambda t: {"router": {"scheduler": {"tokenizer": {"template": t}}}}  # noqa: E731
    got = merge_specs(tok({"containers": [{"name": "tokenizer"}]}), tok({"serviceAccountName": "sa"}))
    assert got["router"]["scheduler"]["tokenizer"]["template"] == {"containers": None, "serviceAccountName": "sa"}


# -- reference 01 §3.4: nil vs {} -----------------------------------------------------------

def test_absent_or_null_cannot_disable_a_lower_layer() -> None:
    base = {"router": {"scheduler": {}}, "tracing": {"sampler": "x"}, "prefill": {}}
    assert merge_specs(base, {"router": None, "tracing": None, "prefill": None}) == project(base)


def test_empty_objects_survive_a_merge() -> None:
    got = merge_specs({"model": {"uri": "m"}}, {"router": {"route": {"http": {}}, "gateway": {}, "scheduler": {"tokenizer": {}}}, "tracing": {}, "worker": {}})
    assert got["router"] == {"route": {"http": {}}, "gateway": {}, "scheduler": {"tokenizer": {}}}
    assert got["tracing"] == {}
    assert got["worker"] == {"containers": []}


# -- reference 01 §3.3 / §6 #10, #11: volumes and RawExtension -------------------------------

def test_volume_with_another_source_type_keeps_both_sources() -> None:
    got = merge_specs({"template": {"volumes": [{"name": "v", "emptyDir": {}}]}}, {"template": {"volumes": [{"name": "v", "secret": {"secretName": "s"}}]}})
    assert got["template"]["volumes"] == [{"name": "v", "emptyDir": {}, "secret": {"secretName": "s"}}]


def _inline(value: Any) -> dict[str, Any]:
    return {"router": {"scheduler": {"config": {"inline": value}}}}


def test_raw_extension_scalars_merge_and_structures_conflict() -> None:
    got = merge_specs(_inline({"a": 1, "b": "x"}), _inline({"b": "y", "c": True}))
    assert got["router"]["scheduler"]["config"]["inline"] == {"a": 1, "b": "y", "c": True}
    with pytest.raises(LlmcError) as err:
        merge_specs(_inline({"plugins": [{"type": "a"}]}), _inline({"plugins": [{"type": "b"}]}))
    assert err.value.message == (
        'failed to merge specs: could not apply merge patch: unable to find api field in struct RawExtension for the json field "plugins"'
    )
    with pytest.raises(LlmcError):
        merge_specs(_inline({"schedulingProfiles": {"a": 1}}), _inline({"schedulingProfiles": {"b": 2}}))
    # an object on one side and a scalar on the other: types differ, the overlay replaces
    assert merge_specs(_inline({"k": {"a": 1}}), _inline({"k": 2}))["router"]["scheduler"]["config"]["inline"] == {"k": 2}
    # YAML text (a JSON string) replaces an object wholesale
    assert merge_specs(_inline({"k": 1}), _inline("plugins: []"))["router"]["scheduler"]["config"]["inline"] == "plugins: []"


def test_missing_merge_key_is_apimachinery_error() -> None:
    base = {"template": {"imagePullSecrets": [{"name": "a"}]}}
    with pytest.raises(LlmcError) as err:
        merge_specs(base, {"template": {"imagePullSecrets": [{}]}})
    assert err.value.message == "failed to merge specs: could not apply merge patch: map: map[] does not contain declared merge key: name"


def test_go_value_prints_like_fmt() -> None:
    assert go_value({"name": "x", "port": 8000, "list": [1.5, True, None]}) == "map[list:[1.5 true <nil>] name:x port:8000]"
    assert go_value(1000000) == "1e+06"


def test_duplicate_keys_in_a_patch_collapse_into_one_element() -> None:
    # mergeSliceWithoutSpecialElements merges each patch element into the first base element with the key
    base = {"template": {"containers": [{"name": "main", "env": [{"name": "a", "value": "0"}]}]}}
    overlay = {"template": {"containers": [{"name": "main", "env": [{"name": "a", "value": "1"}, {"name": "a", "value": "2"}]}]}}
    assert merge_specs(base, overlay)["template"]["containers"][0]["env"] == [{"name": "a", "value": "2"}]


def test_overlay_patch_is_overlay_minus_zero_json() -> None:
    overlay = project({"model": {"uri": ""}, "replicas": 2, "template": {}}, overlay=True)
    assert overlay_patch(overlay) == {"replicas": 2, "template": {"containers": []}}
    assert overlay_patch(project({"model": {"uri": "x", "name": "n"}})) == {"model": {"uri": "x", "name": "n"}}


# -- the merge never modifies its inputs, and shares with them only what it takes unchanged ---

def test_inputs_are_not_modified_and_only_what_one_input_holds_is_shared() -> None:
    base = project({"labels": {"a": "1"}, "template": {"containers": [{"name": "main", "env": [{"name": "x", "value": "1"}]}]},
                    "prefill": {"replicas": 1}}, overlay=True)
    overlay = project({"labels": {"b": "2"}, "worker": {}, "template": {"containers": [{"name": "side"}]}}, overlay=True)
    before = copy.deepcopy((base, overlay))
    got = merge_specs(base, overlay, projected=True)
    assert (base, overlay) == before
    assert got["labels"] is not base["labels"] and got["labels"] is not overlay["labels"]  # both hold it: merged anew
    assert got["template"] is not base["template"]
    assert got["prefill"] is base["prefill"]  # only one input holds it: that object
    assert got["worker"] is overlay["worker"]


def test_projected_flag_gives_the_same_result() -> None:
    specs = CASES["deep merge with podspec template"]
    assert merge_specs(*[project(s, overlay=True) for s in specs], projected=True) == merge_specs(*specs)


# -- properties ----------------------------------------------------------------------------

unique_names = st.lists(st.sampled_from(["main", "side", "init", "a", "z"]), unique=True, max_size=3)


@st.composite
def specs(draw: st.DrawFn) -> dict[str, Any]:
    def container(name: str) -> dict[str, Any]:
        c: dict[str, Any] = {"name": name}
        env = draw(unique_names)
        if env:
            c["env"] = [{"name": n, "value": draw(st.sampled_from(["", "v", "w"]))} for n in env]
        if draw(st.booleans()):
            c["args"] = draw(st.lists(st.sampled_from(["--a", "--b"]), max_size=2))
        if draw(st.booleans()):
            c["resources"] = {"limits": draw(st.dictionaries(st.sampled_from(["cpu", "memory"]), st.sampled_from(["1", "500m", "1Gi"])))}
        if draw(st.booleans()):
            c["readinessProbe"] = {"grpc": {"port": draw(st.integers(0, 5))}, "periodSeconds": draw(st.integers(0, 2))}
        return c

    spec: dict[str, Any] = {}
    if draw(st.booleans()):
        spec["model"] = {"uri": draw(st.sampled_from(["", "hf://a/b"])), "name": draw(st.sampled_from(["", "m"]))}
    if draw(st.booleans()):
        spec["replicas"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        spec["labels"] = draw(st.dictionaries(st.sampled_from(["a", "b"]), st.sampled_from(["", "1"])))
    for key in ("template", "worker"):
        if draw(st.booleans()):
            pod: dict[str, Any] = {}
            if draw(st.booleans()):
                pod["containers"] = [container(n) for n in draw(unique_names)]
            if draw(st.booleans()):
                pod["volumes"] = [{"name": n, "emptyDir": {}} for n in draw(unique_names)]
            spec[key] = pod
    if draw(st.booleans()):
        spec["parallelism"] = {"tensor": draw(st.integers(1, 4)), "expert": draw(st.booleans())}
    if draw(st.booleans()):
        spec["router"] = {"scheduler": {"config": {"inline": {"k": draw(st.integers(0, 3))}}}, "gateway": {}}
    return spec


@settings(max_examples=60, deadline=None)
@given(specs())
def test_merging_a_spec_with_itself_is_idempotent(spec: dict[str, Any]) -> None:
    projected = project(spec, overlay=True)
    assert json.dumps(merge_specs(projected, projected)) == json.dumps(projected)


@settings(max_examples=60, deadline=None)
@given(specs())
def test_the_zero_spec_is_an_identity(spec: dict[str, Any]) -> None:
    projected = project(spec, overlay=True)
    assert merge_specs(projected, {}) == projected
    assert merge_specs({}, projected) == projected


@settings(max_examples=40, deadline=None)
@given(specs(), specs(), specs())
def test_merge_result_is_a_projection(a: dict[str, Any], b: dict[str, Any], c: dict[str, Any]) -> None:
    """The typed merge equals its own Go round trip (decode/encode of apimachinery's output)."""
    got = merge_specs(a, b, c)
    assert json.dumps(project(got)) == json.dumps(got)


# -- the real presets (reference 01 §2.3 order) ----------------------------------------------

def _preset(upstream: Path, name: str) -> dict[str, Any]:
    return yaml.safe_load((upstream / "kserve" / "presets" / "master" / f"config-llm-{name}.yaml").read_text())["spec"]


def _service(upstream: Path, sample: str) -> dict[str, Any]:
    for doc in yaml.safe_load_all((upstream / "kserve" / "samples" / sample).read_text()):
        if doc and doc.get("kind") == "LLMInferenceService":
            return doc["spec"]
    raise AssertionError(sample)


SERVICES = [
    ("opt-125m-cpu/llm-inference-service-facebook-opt-125m-cpu.yaml", ["scheduler", "router-route", "template"]),
    ("opt-125m-cpu/llm-inference-service-pd-facebook-opt-125m-cpu.yaml", ["scheduler", "router-route", "prefill-template", "decode-template"]),
    ("latency-predictor/llm-inference-service-latency-predictor.yaml", ["scheduler", "scheduler-latency-predictor", "router-route", "template"]),
    ("kv-cache-offloading/llm-inference-service-kv-cache-offloading.yaml", ["scheduler", "tokenizer", "router-route", "tracing", "template"]),
]


@pytest.mark.parametrize(("sample", "presets"), SERVICES, ids=[s[0].split("/")[0] + ":" + "+".join(s[1]) for s in SERVICES])
def test_real_presets_merge_in_controller_order(upstream: Path, sample: str, presets: list[str]) -> None:
    layers = [project(_preset(upstream, p), overlay=True) for p in presets]
    service = project(_service(upstream, sample), overlay=True)
    merged = merge_specs(*layers, service, projected=True)
    assert json.dumps(project(merged)) == json.dumps(merged)
    main = merged["template"]["containers"][0]
    assert main["name"] == "main"
    assert main["image"] == service["template"]["containers"][0].get("image", main["image"])
    scheduler = merged["router"]["scheduler"]
    assert scheduler["template"]["containers"][0]["name"] == "main"
    assert len(merged["router"]["route"]["http"]["spec"]["rules"]) == 12  # the route preset's rules survive
    if "decode-template" in presets:
        assert [c["name"] for c in merged["template"]["initContainers"]] == ["llm-d-routing-sidecar"]
        assert merged["prefill"]["template"]["containers"][0]["name"] == "main"
    if "scheduler-latency-predictor" in presets:
        assert [c["name"] for c in scheduler["template"]["containers"]] == ["main", "training-server", "prediction-server"]
        env = [e["name"] for e in scheduler["template"]["containers"][0]["env"]]
        assert env[0] == "PREDICTION_SERVER_URL" and env[-1] == "SSL_CERT_DIR"  # new overlay items first (§3.3)
    if "tracing" in presets:
        assert merged["tracing"]["exporterEndpoint"] == "http://otel-collector:4317"


def test_worker_data_parallel_preset_merges(upstream: Path) -> None:
    service = {"model": {"uri": "hf://x/y", "name": "m"}, "parallelism": {"data": 4, "dataLocal": 2, "expert": True}, "worker": {}, "template": {"containers": [{"name": "main", "resources": {"limits": {"nvidia.com/gpu": "2"}}}]}}
    layers = [_preset(upstream, "worker-data-parallel"), service]
    merged = merge_specs(*layers)
    assert merged["parallelism"] == {"data": 4, "dataLocal": 2, "expert": True}
    assert merged["worker"]["containers"][0]["name"] == "main"
    assert merged["template"]["containers"][0]["resources"]["limits"]["nvidia.com/gpu"] == "2"
