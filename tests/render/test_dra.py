"""Managed DRA: annotations, injected claims, the ResourceClaimTemplate (reference 02 §3.8, §5.3, §5.4;
KServe managed_dra_test.go)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from llmc.core.errors import LlmcError
from llmc.core.findings import Findings
from llmc.kserve.settings import Settings
from llmc.render import dra
from llmc.render.context import RenderContext, RenderOptions
from llmc.resolve import dra_claims

CLASS = "serving.kserve.io/exp-dra-device-class"
COUNT = "serving.kserve.io/exp-dra-device-count"
CEL = "serving.kserve.io/exp-dra-cel-selector"
CONTAINER = "serving.kserve.io/exp-dra-container-name"


def make_ctx(
    spec: dict[str, Any], annotations: dict[str, str], *, name: str = "svc", dra_api: str | None = None
) -> RenderContext:
    service = {"metadata": {"name": name, "namespace": "default", "annotations": annotations}, "spec": spec}
    options = RenderOptions(dra_api=dra_api) if dra_api else RenderOptions()
    return RenderContext(service, spec, Settings(), options, Findings(f"default/{name}"))


def containers(*names: str) -> dict[str, Any]:
    return {"containers": [{"name": n} for n in names]}


# --- annotations -------------------------------------------------------------------------------


def test_no_device_class_means_off() -> None:
    assert dra_claims.parse_annotations({COUNT: "2"}) is None
    assert dra_claims.parse_annotations(None) is None


def test_device_class_is_trimmed_and_count_defaults_to_one() -> None:
    # TestExpectedManagedDRATemplate "device class with whitespace is trimmed"
    config = dra_claims.parse_annotations({CLASS: "  gpu.nvidia.com  "})
    assert config == dra_claims.DRAConfig("gpu.nvidia.com", 1, (), None)


@pytest.mark.parametrize(("raw", "count"), [("4", 4), (" 2 ", 2), ("", 1), ("   ", 1), ("+3", 3)])
def test_count(raw: str, count: int) -> None:
    # ManagedDRADeviceCount: blank -> 1, trimmed strconv.Atoi (which accepts a sign)
    assert dra_claims.parse_annotations({CLASS: "gpu", COUNT: raw}).count == count


def test_cel_selectors_one_per_line() -> None:
    # TestYAMLBlockScalarRoundTripsToSelectors: a `|` block scalar gives two selectors, in order
    raw = (
        "device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'\n"
        "  \n"
        "device.capacity['gpu.example.com'].memory.compareTo(quantity('4Gi')) >= 0\n"
    )
    config = dra_claims.parse_annotations({CLASS: "gpu.example.com", COUNT: "1", CEL: raw})
    assert config.selectors == (
        "device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'",
        "device.capacity['gpu.example.com'].memory.compareTo(quantity('4Gi')) >= 0",
    )


@pytest.mark.parametrize(("raw", "container"), [(" worker ", "worker"), ("", None), ("   ", None)])
def test_container_name(raw: str, container: str | None) -> None:
    # TestTargetContainerForDRA: trimmed; empty or whitespace-only falls back to the first container
    assert dra_claims.parse_annotations({CLASS: "gpu", CONTAINER: raw}).container == container


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        # validation/managed_dra.go ManagedDRADeviceCount: %q of the raw value, wrapping strconv's error
        ("abc", 'invalid serving.kserve.io/exp-dra-device-count value "abc": strconv.Atoi: parsing "abc": invalid syntax'),
        (" 1.5", 'invalid serving.kserve.io/exp-dra-device-count value " 1.5": strconv.Atoi: parsing "1.5": invalid syntax'),
        ("0", 'invalid serving.kserve.io/exp-dra-device-count value "0": must be >= 1'),
        ("-2", 'invalid serving.kserve.io/exp-dra-device-count value "-2": must be >= 1'),
        (
            "99999999999999999999",
            'invalid serving.kserve.io/exp-dra-device-count value "99999999999999999999": '
            'strconv.Atoi: parsing "99999999999999999999": value out of range',
        ),
    ],
)
def test_count_parse_errors(raw: str, message: str) -> None:
    with pytest.raises(LlmcError) as err:
        dra_claims.parse_annotations({CLASS: "gpu.nvidia.com", COUNT: raw})
    assert err.value.message == message
    assert err.value.location.path == f"metadata.annotations.{COUNT}"


# --- injection -----------------------------------------------------------------------------------


def test_inject_reference_sample() -> None:
    # 02 §5 step 4 and the real-cluster facts of §5.4
    spec = {"template": {"containers": [{"name": "main", "resources": {"limits": {"cpu": "4"}}}]}}
    dra_claims.inject(spec, "qwen2-7b-instruct-dra-minimal", dra_claims.parse_annotations({CLASS: "gpu.nvidia.com"}))
    pod = spec["template"]
    assert pod["resourceClaims"] == [
        {"name": "managed-device", "resourceClaimTemplateName": "qwen2-7b-instruct-dra-minimal-managed-dra"}
    ]
    assert pod["containers"][0]["resources"] == {"limits": {"cpu": "4"}, "claims": [{"name": "managed-device"}]}


def test_inject_first_container_by_default() -> None:
    # TestInjectManagedDRA_FirstContainerByDefault; 02 §6 #4 (index 0, not "main")
    spec = {"template": containers("sidecar", "main")}
    dra_claims.inject(spec, "svc", dra_claims.parse_annotations({CLASS: "gpu"}))
    assert spec["template"]["containers"][0]["resources"]["claims"] == [{"name": "managed-device"}]
    assert "resources" not in spec["template"]["containers"][1]


def test_inject_named_container_in_all_four_slots() -> None:
    # TestInjectManagedDRAIntoConfig_AnnotatedContainerAcrossSlots
    spec = {
        "template": containers("init", "worker", "sidecar"),
        "worker": containers("init", "worker", "sidecar"),
        "prefill": {"template": containers("init", "worker", "sidecar"), "worker": containers("init", "worker", "sidecar")},
    }
    dra_claims.inject(spec, "test", dra_claims.parse_annotations({CLASS: "gpu.example.com", CONTAINER: "worker"}))
    for pod in (spec["template"], spec["worker"], spec["prefill"]["template"], spec["prefill"]["worker"]):
        assert len(pod["resourceClaims"]) == 1
        assert [("resources" in c) for c in pod["containers"]] == [False, True, False]
        assert pod["containers"][1]["resources"]["claims"] == [{"name": "managed-device"}]


def test_inject_missing_named_container_gets_only_the_pod_claim() -> None:
    # TestInjectManagedDRA_AnnotatedContainerMissing
    spec = {"template": containers("main")}
    dra_claims.inject(spec, "svc", dra_claims.parse_annotations({CLASS: "gpu", CONTAINER: "nope"}))
    assert len(spec["template"]["resourceClaims"]) == 1
    assert "resources" not in spec["template"]["containers"][0]


def test_inject_no_containers() -> None:
    # TestInjectManagedDRA_NoContainers: pod claim only
    spec = {"worker": {}}
    dra_claims.inject(spec, "svc", dra_claims.parse_annotations({CLASS: "gpu"}))
    assert spec["worker"] == {"resourceClaims": [{"name": "managed-device", "resourceClaimTemplateName": "svc-managed-dra"}]}


def test_inject_is_idempotent() -> None:
    # TestInjectManagedDRA_Idempotent
    spec = {"template": containers("main", "sidecar")}
    config = dra_claims.parse_annotations({CLASS: "gpu.example.com"})
    dra_claims.inject(spec, "test", config)
    once = copy.deepcopy(spec)
    dra_claims.inject(spec, "test", config)
    assert spec == once
    assert len(spec["template"]["resourceClaims"]) == 1


def test_inject_keeps_hand_written_claims_in_front() -> None:
    # TestInjectManagedDRA_PreservesExistingClaims: other claims stay, managed ones are appended
    spec = {
        "template": {
            "resourceClaims": [{"name": "user-claim", "resourceClaimTemplateName": "mine"}],
            "containers": [{"name": "main", "resources": {"claims": [{"name": "user-claim"}]}}],
        }
    }
    dra_claims.inject(spec, "test", dra_claims.parse_annotations({CLASS: "gpu.example.com"}))
    assert [c["name"] for c in spec["template"]["resourceClaims"]] == ["user-claim", "managed-device"]
    assert spec["template"]["containers"][0]["resources"]["claims"] == [{"name": "user-claim"}, {"name": "managed-device"}]


def test_inject_keeps_an_existing_managed_device_entry() -> None:
    # 02 §3.8: an entry named managed-device is left untouched even if it points elsewhere
    spec = {
        "template": {
            "resourceClaims": [{"name": "managed-device", "resourceClaimName": "shared"}],
            "containers": [{"name": "main"}],
        }
    }
    dra_claims.inject(spec, "svc", dra_claims.parse_annotations({CLASS: "gpu"}))
    assert spec["template"]["resourceClaims"] == [{"name": "managed-device", "resourceClaimName": "shared"}]


def test_inject_uses_child_name_for_long_services() -> None:
    # 02 Sources: every child name is kmeta.ChildName(name, suffix); 60 + 12 bytes > 63
    name = "a" * 60
    spec = {"template": containers("main")}
    dra_claims.inject(spec, name, dra_claims.parse_annotations({CLASS: "gpu"}))
    rct = spec["template"]["resourceClaims"][0]["resourceClaimTemplateName"]
    assert len(rct) == 63 and rct.endswith("-managed-dra") and rct.startswith("a" * 19)


def test_inject_none_is_a_no_op() -> None:
    spec = {"template": containers("main")}
    dra_claims.inject(spec, "svc", None)
    assert spec == {"template": containers("main")}


# --- ResourceClaimTemplate -------------------------------------------------------------------------


def test_template_of_the_reference_sample() -> None:
    # 02 §5.3/§5.4: no labels, request {name: device, exactly: {deviceClassName}}; count 1 omitted
    ctx = make_ctx({"template": containers("main")}, {CLASS: "gpu.nvidia.com"}, name="qwen2-7b-instruct-dra-minimal")
    assert dra.objects(ctx) == [
        {
            "apiVersion": "resource.k8s.io/v1",
            "kind": "ResourceClaimTemplate",
            "metadata": {"name": "qwen2-7b-instruct-dra-minimal-managed-dra", "namespace": "default"},
            "spec": {
                "spec": {"devices": {"requests": [{"name": "device", "exactly": {"deviceClassName": "gpu.nvidia.com"}}]}}
            },
        }
    ]
    assert ctx.findings.items == []


def test_template_with_count_and_selectors() -> None:
    # TestBuildDeviceRequests "multiple devices with multiple CEL selectors": one request, count 2, two selectors
    annotations = {
        CLASS: "mig-3g.40gb",
        COUNT: "2",
        CEL: "device.attributes['gpu.nvidia.com']['type'] == 'mig'\n"
        "device.attributes['gpu.nvidia.com']['profile'] == '3g.40gb'",
    }
    (rct,) = dra.objects(make_ctx({"template": containers("main")}, annotations))
    assert rct["spec"]["spec"]["devices"]["requests"] == [
        {
            "name": "device",
            "exactly": {
                "deviceClassName": "mig-3g.40gb",
                "count": 2,
                "selectors": [
                    {"cel": {"expression": "device.attributes['gpu.nvidia.com']['type'] == 'mig'"}},
                    {"cel": {"expression": "device.attributes['gpu.nvidia.com']['profile'] == '3g.40gb'"}},
                ],
            },
        }
    ]


def test_template_v1beta2_nests_under_exactly() -> None:
    # resource.k8s.io/v1beta2 DeviceRequest has `exactly` (ExactDeviceRequest), like v1
    ctx = make_ctx({"template": containers("main")}, {CLASS: "gpu", COUNT: "4"}, dra_api="resource.k8s.io/v1beta2")
    (rct,) = dra.objects(ctx)
    assert rct["apiVersion"] == "resource.k8s.io/v1beta2"
    requests = rct["spec"]["spec"]["devices"]["requests"]
    assert requests == [{"name": "device", "exactly": {"deviceClassName": "gpu", "count": 4}}]


def test_template_v1beta1_has_fields_on_the_request() -> None:
    # resource.k8s.io/v1beta1 DeviceRequest: deviceClassName/count/selectors directly on the request
    annotations = {CLASS: "gpu", COUNT: "4", CEL: "true"}
    ctx = make_ctx({"template": containers("main")}, annotations, dra_api="resource.k8s.io/v1beta1")
    (rct,) = dra.objects(ctx)
    assert rct["apiVersion"] == "resource.k8s.io/v1beta1"
    assert rct["spec"]["spec"]["devices"]["requests"] == [
        {"name": "device", "deviceClassName": "gpu", "count": 4, "selectors": [{"cel": {"expression": "true"}}]}
    ]


def test_no_annotation_no_template() -> None:
    assert dra.objects(make_ctx({"template": containers("main")}, {"other": "x"})) == []


def test_owner_reference_on_request() -> None:
    ctx = make_ctx({"template": containers("main")}, {CLASS: "gpu"})
    ctx.service["metadata"]["uid"] = "0000-uid"
    ctx.options = RenderOptions(owner_references=True)
    (rct,) = dra.objects(ctx)
    assert "labels" not in rct["metadata"]
    assert rct["metadata"]["ownerReferences"][0]["kind"] == "LLMInferenceService"
    assert rct["metadata"]["ownerReferences"][0]["uid"] == "0000-uid"


# --- findings ------------------------------------------------------------------------------------


def test_prefill_and_decode_share_the_request() -> None:
    # controller_int_multi_node_test.go "prefill workload and managed DRA": all four pods get the one claim
    spec = {
        "template": containers("main"),
        "worker": containers("main"),
        "prefill": {"template": containers("main"), "worker": containers("main")},
    }
    ctx = make_ctx(spec, {CLASS: "gpu.nvidia.com", COUNT: "4"})
    dra.objects(ctx)
    assert [(f.code, f.path) for f in ctx.findings.items] == [("LLMC104", f"metadata.annotations.{CLASS}")]


def test_decode_only_does_not_share() -> None:
    ctx = make_ctx({"template": containers("main"), "worker": containers("main")}, {CLASS: "gpu"})
    dra.objects(ctx)
    assert ctx.findings.items == []


def test_container_name_matching_nothing() -> None:
    spec = {"template": containers("main", "sidecar"), "prefill": {"template": containers("vllm")}}
    ctx = make_ctx(spec, {CLASS: "gpu", CONTAINER: "sidecar"})
    dra.objects(ctx)
    assert ("LLMC106", "spec.prefill.template.containers") in [(f.code, f.path) for f in ctx.findings.items]
    assert ("LLMC106", "spec.template.containers") not in [(f.code, f.path) for f in ctx.findings.items]
