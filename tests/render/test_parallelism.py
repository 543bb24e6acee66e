"""LWS group size and the parallelism findings (reference 02 §4, 01 §1.6, §6)."""

from __future__ import annotations

from typing import Any

import pytest

from llmc.core.findings import Findings
from llmc.kserve.settings import Settings
from llmc.render import parallelism
from llmc.render.context import RenderContext, RenderOptions
from llmc.resolve import baseref


def make_ctx(spec: dict[str, Any]) -> RenderContext:
    service = {"metadata": {"name": "svc", "namespace": "ns"}, "spec": spec}
    return RenderContext(service, spec, Settings(), RenderOptions(), Findings("ns/svc"))


def codes(ctx: RenderContext) -> list[tuple[str, str]]:
    return [(f.code, f.path) for f in ctx.findings.items]


def pod(*args: str) -> dict[str, Any]:
    return {"containers": [{"name": "main", "args": list(args)}]}


@pytest.mark.parametrize(
    ("par", "size"),
    [
        # controller_int_multi_node_test.go: "basic multi-node" (4/1), "with prefill workload" (10/2, prefill 3/1),
        # "should set correct labels and annotation" (1/1)
        ({"data": 4, "dataLocal": 1, "tensor": 3}, 4),
        ({"data": 10, "dataLocal": 2, "tensor": 4}, 5),
        ({"data": 3, "dataLocal": 1, "tensor": 4}, 3),
        ({"data": 1, "dataLocal": 1}, 1),
        # reference 02 §4: integer division, data 3 / dataLocal 2 -> 1
        ({"data": 3, "dataLocal": 2}, 1),
        # GetSize: an absent data reads as 1, and the result is at least 1
        ({"dataLocal": 2}, 1),
        ({"data": 8}, 8),
        # pipeline parallel: the pipeline value; tensor alone: no size (LWS default)
        ({"pipeline": 4}, 4),
        ({"tensor": 2}, None),
        ({}, None),
        (None, None),
    ],
)
def test_lws_size(par: dict[str, Any] | None, size: int | None) -> None:
    assert parallelism.lws_size(par) == size


def test_data_parallel_wins_over_pipeline_for_size() -> None:
    # GetSize checks IsDataParallel first (llm_inference_service_types_func.go)
    assert parallelism.lws_size({"data": 6, "dataLocal": 2, "pipeline": 4}) == 3


def test_single_node_pipeline_reaches_no_container() -> None:
    # 01 §6 #3: no shipped preset renders pipeline; single-node ignores it
    ctx = make_ctx({"parallelism": {"pipeline": 2}, "template": pod("--tensor-parallel-size", "2")})
    parallelism.findings(ctx)
    assert ("LLMC101", "spec.parallelism.pipeline") in codes(ctx)


def test_pipeline_used_by_a_container_is_not_reported() -> None:
    ctx = make_ctx(
        {"parallelism": {"pipeline": 2}, "template": pod(), "worker": pod("--pipeline-parallel-size", "2")}
    )
    parallelism.findings(ctx)
    assert not [c for c in codes(ctx) if c[0] == "LLMC101"]


def test_single_node_ignores_data_fields() -> None:
    # 02 §4: single-node presets render only tensor (config_presets_test.go TestSingleNodeTensorParallelRendered)
    ctx = make_ctx(
        {
            "parallelism": {"tensor": 2, "data": 4, "dataLocal": 2, "dataRPCPort": 6000, "expert": True},
            "template": pod(),
        }
    )
    parallelism.findings(ctx)
    assert sorted(codes(ctx)) == [
        ("LLMC102", "spec.parallelism.data"),
        ("LLMC102", "spec.parallelism.dataLocal"),
        ("LLMC102", "spec.parallelism.dataRPCPort"),
        ("LLMC102", "spec.parallelism.expert"),
    ]


def test_expert_false_and_tensor_are_not_ignored_fields() -> None:
    ctx = make_ctx({"parallelism": {"tensor": 2, "expert": False}, "template": pod()})
    parallelism.findings(ctx)
    assert codes(ctx) == []


def test_multi_node_data_fields_are_used() -> None:
    ctx = make_ctx({"parallelism": {"data": 4, "dataLocal": 2, "expert": True}, "template": pod(), "worker": pod()})
    parallelism.findings(ctx)
    assert codes(ctx) == []


def test_prefill_single_node_ignores_data() -> None:
    ctx = make_ctx({"template": pod(), "prefill": {"parallelism": {"data": 2}, "template": pod()}})
    parallelism.findings(ctx)
    assert ("LLMC102", "spec.prefill.parallelism.data") in codes(ctx)


def test_data_not_multiple_of_data_local() -> None:
    # 02 §4 / §6 #15: size is data / dataLocal with integer division (10 / 4 -> 2, 8 of 10 ranks)
    ctx = make_ctx({"parallelism": {"data": 10, "dataLocal": 4}, "template": pod(), "worker": pod()})
    parallelism.findings(ctx)
    assert codes(ctx) == [("LLMC103", "spec.parallelism.data")]
    assert "size is 2" in ctx.findings.items[0].message


def test_data_multiple_of_data_local_is_quiet() -> None:
    ctx = make_ctx({"parallelism": {"data": 10, "dataLocal": 2}, "template": pod(), "worker": pod()})
    parallelism.findings(ctx)
    assert codes(ctx) == []


def test_prefill_does_not_inherit_parallelism_or_kv_cache() -> None:
    # 01 §6 #19: prefill presets read only .Spec.Prefill.*
    ctx = make_ctx(
        {
            "parallelism": {"tensor": 2},
            "kvCacheOffloading": {"cpu": "10Gi"},
            "template": pod(),
            "prefill": {"template": pod()},
        }
    )
    parallelism.findings(ctx)
    assert sorted(codes(ctx)) == [
        ("LLMC105", "spec.prefill.kvCacheOffloading"),
        ("LLMC105", "spec.prefill.parallelism"),
    ]


def test_prefill_with_its_own_parallelism_is_quiet() -> None:
    ctx = make_ctx(
        {"parallelism": {"tensor": 2}, "template": pod(), "prefill": {"parallelism": {"tensor": 1}, "template": pod()}}
    )
    parallelism.findings(ctx)
    assert codes(ctx) == []


# --- LLMC002: fields the templates cannot see (reference 01 §6 #1, 02 §6 #5) ---------------


def test_parallelism_only_from_a_baseref_is_invisible() -> None:
    merged = {"parallelism": {"tensor": 2}, "prefill": {"parallelism": {"tensor": 1}}}
    assert baseref.baseref_invisible_fields({}, merged) == ["parallelism", "prefill.parallelism"]


def test_kv_cache_only_from_a_baseref_is_invisible() -> None:
    merged = {"kvCacheOffloading": {"cpu": "10Gi"}, "prefill": {"kvCacheOffloading": {"cpu": "5Gi"}}}
    assert baseref.baseref_invisible_fields({"prefill": {}}, merged) == [
        "kvCacheOffloading",
        "prefill.kvCacheOffloading",
    ]


def test_keys_added_by_a_baseref_are_reported_one_by_one() -> None:
    own = {"parallelism": {"tensor": 2}}
    merged = {"parallelism": {"tensor": 2, "data": 4, "dataLocal": 2}}
    assert baseref.baseref_invisible_fields(own, merged) == ["parallelism.data", "parallelism.dataLocal"]


def test_expert_false_in_own_spec_hides_baseref_true() -> None:
    # 01 §1.6: expert is an omitempty bool, so false cannot override a baseRef's true
    own = {"parallelism": {"data": 2, "dataLocal": 1, "expert": False}}
    merged = {"parallelism": {"data": 2, "dataLocal": 1, "expert": True}}
    assert baseref.baseref_invisible_fields(own, merged) == ["parallelism.expert"]


def test_own_fields_are_visible() -> None:
    own = {"parallelism": {"tensor": 2}, "kvCacheOffloading": {"cpu": "1Gi"}}
    assert baseref.baseref_invisible_fields(own, own) == []


def test_grace_period_from_a_baseref_is_invisible() -> None:
    # 02 §6 #7: shutdownTimeout uses the own template's TGPS, or 60 (config_merge.go shutdownTimeout)
    merged = {"template": {"terminationGracePeriodSeconds": 120}, "worker": {"terminationGracePeriodSeconds": 30}}
    assert baseref.baseref_invisible_fields({}, merged) == [
        "template.terminationGracePeriodSeconds",
        "worker.terminationGracePeriodSeconds",
    ]


def test_preset_grace_period_of_60_agrees_with_the_default() -> None:
    # the shipped presets set terminationGracePeriodSeconds: 60, which is shutdownTimeout's default
    merged = {
        "template": {"terminationGracePeriodSeconds": 60},
        "prefill": {"template": {"terminationGracePeriodSeconds": 60}},
    }
    assert baseref.baseref_invisible_fields({}, merged) == []


def test_own_grace_period_is_visible() -> None:
    own = {"prefill": {"worker": {"terminationGracePeriodSeconds": 90}}}
    assert baseref.baseref_invisible_fields(own, own) == []
