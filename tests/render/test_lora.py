"""LoRA adapters: enumeration and the pod step (reference 02 §3.3, §6 items 25-26; 01 §3.9;
KServe workload_lora.go, tests in workload_lora_internal_test.go)."""

from __future__ import annotations

from typing import Any

import pytest

from llmc.core.errors import LlmcError
from llmc.core.findings import Findings
from llmc.k8s.names import child_name
from llmc.kserve.settings import Settings
from llmc.kserve.spec import Slot
from llmc.render import lora, storage
from llmc.render.context import RenderContext, RenderOptions
from llmc.resolve import lora_adapters

SERVICE = {"metadata": {"name": "svc", "namespace": "ns"}}


def spec_with(adapters: list[dict[str, Any]], **lora_fields: Any) -> dict[str, Any]:
    return {"model": {"uri": "pvc://models/base", "lora": {"adapters": adapters, **lora_fields}}}


def make_ctx(spec: dict[str, Any], pod: dict[str, Any]) -> RenderContext:
    spec = {**spec, "template": pod}
    service = {"metadata": {"name": "svc", "namespace": "ns"}, "spec": spec}
    ctx = RenderContext(service, spec, Settings(), RenderOptions(), Findings("ns/svc"))
    ctx.lora_adapters = lora_adapters.enumerate_adapters(spec, service)
    return ctx


# --- enumeration -------------------------------------------------------------------------------


def test_sorted_by_name_with_mount_paths() -> None:
    adapters = lora_adapters.enumerate_adapters(
        spec_with([{"name": "b", "uri": "hf://org/b"}, {"name": "a", "uri": "s3://bucket/a"}, {"name": "c", "uri": "pvc://claim/c"}]),
        SERVICE,
    )
    assert adapters == [
        {"name": "a", "mountPath": "/mnt/lora/a", "uri": "s3://bucket/a", "scheme": "s3://"},
        {"name": "b", "mountPath": "/mnt/lora/b", "uri": "hf://org/b", "scheme": "hf://"},
        {"name": "c", "mountPath": "/mnt/lora/c", "uri": "pvc://claim/c", "scheme": "pvc://"},
    ]


def test_no_adapters() -> None:
    assert lora_adapters.enumerate_adapters({"model": {"uri": "hf://a/b"}}, SERVICE) == []
    assert lora_adapters.enumerate_adapters(spec_with([]), SERVICE) == []


def test_sanitize_segment() -> None:
    # TestSanitizeLoRAPathSegment, plus the "."/".." rule of sanitizeLoRAPathSegment
    assert lora_adapters.sanitize_segment("k8s-lora") == "k8s-lora"
    assert lora_adapters.sanitize_segment("a/b") == "a-b"
    assert lora_adapters.sanitize_segment("@@@") == "---"
    assert lora_adapters.sanitize_segment("") == "adapter"
    assert lora_adapters.sanitize_segment("..") == "adapter"
    assert lora_adapters.sanitize_segment(".") == "adapter"


def test_uri_is_go_normalised() -> None:
    (adapter,) = lora_adapters.enumerate_adapters(spec_with([{"name": "x", "uri": "HF://org/my adapter"}]), SERVICE)
    assert adapter["uri"] == "hf://org/my%20adapter"
    assert adapter["scheme"] == "hf://"


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("org/model", 'LoRA adapter "x": invalid URI "org/model"'),
        ("oci://reg/img:tag", 'LoRA adapter "x": oci:// is not supported for LoRA adapters; use hf://, s3://, or pvc:// instead'),
        ("gs://bucket/a", 'LoRA adapter "x": unsupported URI scheme "gs://"; supported schemes are hf://, s3://, pvc://'),
    ],
)
def test_scheme_errors(uri: str, message: str) -> None:
    with pytest.raises(LlmcError) as err:
        lora_adapters.enumerate_adapters(spec_with([{"name": "x", "uri": uri}]), SERVICE)
    assert err.value.message.startswith(message)
    assert err.value.location is not None and err.value.location.path == "spec.model.lora.adapters[0].uri"


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("hf://org/a", 'LoRA adapter "x": hf:// and s3:// require the storage initializer'),
        ("pvc://claim/a", 'LoRA adapter "x": pvc:// requires a mounted volume'),
    ],
)
def test_storage_initializer_disabled_errors(uri: str, message: str) -> None:
    spec = {**spec_with([{"name": "x", "uri": uri}]), "storageInitializer": {"enabled": False}}
    with pytest.raises(LlmcError) as err:
        lora_adapters.enumerate_adapters(spec, SERVICE)
    assert err.value.message.startswith(message)


# --- pod step ----------------------------------------------------------------------------------


def test_vllm_flags_prepended_with_all_limits() -> None:
    # TestAddLoRAVLLMArgs "all fields"
    spec = spec_with(
        [{"name": "b", "uri": "hf://o/b"}, {"name": "a", "uri": "hf://o/a"}], maxRank=64, maxAdapters=2, maxCpuAdapters=4
    )
    pod = {"containers": [{"name": "main", "args": ["--user-flag"]}]}
    ctx = make_ctx(spec, pod)
    lora.attach(ctx, pod, "spec.template")
    assert pod["containers"][0]["args"] == [
        "--enable-lora",
        "--max-lora-rank=64",
        "--max-loras=2",
        "--max-cpu-loras=4",
        "--lora-modules",
        """'{"name":"a","path":"/mnt/lora/a"}'""",
        """'{"name":"publishers/ns/models/a","path":"/mnt/lora/a"}'""",
        """'{"name":"b","path":"/mnt/lora/b"}'""",
        """'{"name":"publishers/ns/models/b","path":"/mnt/lora/b"}'""",
        "--user-flag",
    ]


def test_vllm_flags_without_limits() -> None:
    # TestAddLoRAVLLMArgs "nil optional fields"
    pod = {"containers": [{"name": "main", "args": ["--user-flag"]}]}
    ctx = make_ctx(spec_with([{"name": "a", "uri": "hf://o/a"}]), pod)
    lora.attach(ctx, pod, "spec.template")
    assert pod["containers"][0]["args"] == [
        "--enable-lora",
        "--lora-modules",
        """'{"name":"a","path":"/mnt/lora/a"}'""",
        """'{"name":"publishers/ns/models/a","path":"/mnt/lora/a"}'""",
        "--user-flag",
    ]


def test_module_json_is_go_encoded() -> None:
    # encoding/json escapes <, > and & (HTMLEscape) and quotes; the mount path is sanitised
    pod = {"containers": [{"name": "main"}]}
    ctx = make_ctx(spec_with([{"name": 'a&b<"c">', "uri": "hf://o/a"}]), pod)
    lora.attach(ctx, pod, "spec.template")
    assert pod["containers"][0]["args"][2] == """'{"name":"a\\u0026b\\u003c\\"c\\"\\u003e","path":"/mnt/lora/a-b--c--"}'"""


@pytest.mark.parametrize(
    "main",
    [
        {"name": "main", "args": ["--lora-modules", "x=y"]},
        {"name": "main", "command": ["vllm", "serve", "--lora-modules x=/p"]},
        {"name": "main", "env": [{"name": "VLLM_ADDITIONAL_ARGS", "value": "--enable-lora --lora-modules a=/b"}]},
    ],
)
def test_user_supplied_lora_modules_skip_flags(main: dict[str, Any]) -> None:
    # TestUserSuppliedLoRAConfig; pvc mounts are still attached (they come first in attachLoRAAdapters)
    pod = {"containers": [dict(main)]}
    ctx = make_ctx(spec_with([{"name": "a", "uri": "pvc://claim/dir"}]), pod)
    lora.attach(ctx, pod, "spec.template")
    assert pod["containers"][0].get("args") == main.get("args")
    assert pod["containers"][0]["volumeMounts"][0]["name"] == "lora-pvc-a"


def test_value_from_vllm_additional_args_does_not_skip() -> None:
    # hasValueFromLoRAConfig only logs; injection goes on
    main = {"name": "main", "env": [{"name": "VLLM_ADDITIONAL_ARGS", "valueFrom": {"configMapKeyRef": {"name": "c", "key": "k"}}}]}
    pod = {"containers": [main]}
    ctx = make_ctx(spec_with([{"name": "a", "uri": "hf://o/a"}]), pod)
    lora.attach(ctx, pod, "spec.template")
    assert pod["containers"][0]["args"][0] == "--enable-lora"


def test_pvc_adapter_volume_and_mount() -> None:
    # reference 02 §3.3 / §6 item 25: volume lora-pvc-<raw name> via ChildName, sanitised mount path, subPath
    pod = {"containers": [{"name": "main"}]}
    ctx = make_ctx(spec_with([{"name": "My_Adapter.v1", "uri": "pvc://lora-claim/adapters/v1"}]), pod)
    lora.attach(ctx, pod, "spec.template")
    assert pod["volumes"] == [{"name": "lora-pvc-My_Adapter.v1", "persistentVolumeClaim": {"claimName": "lora-claim"}}]
    assert pod["containers"][0]["volumeMounts"] == [
        {"name": "lora-pvc-My_Adapter.v1", "readOnly": True, "mountPath": "/mnt/lora/My_Adapter.v1", "subPath": "adapters/v1"}
    ]


def test_pvc_adapter_volume_name_uses_child_name() -> None:
    # kmeta.ChildName("lora-pvc-", name): long names are shortened with an md5, not truncated
    name = "a" * 60
    pod = {"containers": [{"name": "main"}]}
    ctx = make_ctx(spec_with([{"name": name, "uri": "pvc://claim"}]), pod)
    lora.attach(ctx, pod, "spec.template")
    volume = pod["volumes"][0]
    assert volume["name"] == child_name("lora-pvc-", name)
    assert len(volume["name"]) <= 63
    assert "subPath" not in pod["containers"][0]["volumeMounts"][0]


def test_missing_main_is_an_error() -> None:
    pod = {"containers": [{"name": "sidecar"}]}
    ctx = make_ctx(spec_with([{"name": "a", "uri": "hf://o/a"}]), pod)
    with pytest.raises(LlmcError, match='no container "main" in pod spec for LoRA injection'):
        lora.attach(ctx, pod, "spec.template")


def test_storage_runs_lora_last_after_pvc_model() -> None:
    # attachModelArtifacts: pvc base model, then attachLoRAAdapters; a user storage-initializer is stripped
    pod = {
        "initContainers": [{"name": "storage-initializer", "image": "mine"}],
        "containers": [{"name": "main", "args": ["--x"]}],
    }
    ctx = make_ctx(spec_with([{"name": "a", "uri": "pvc://lora/a"}]), pod)
    storage.apply(ctx, pod, Slot("template", ctx.spec))
    assert pod["initContainers"] == []
    assert [v["name"] for v in pod["volumes"]] == ["kserve-pvc-source", "lora-pvc-a"]
    assert pod["containers"][0]["args"][0] == "--enable-lora"
    assert pod["containers"][0]["args"][-1] == "--x"
