"""KV-cache secondary tiers (reference 02 §3.4, §6 item 27; KServe workload_kvcache.go,
TestAttachKVCacheSecondaryTiers in workload_kvcache_test.go)."""

from __future__ import annotations

from typing import Any

import pytest

from llmc.core.errors import LlmcError
from llmc.core.findings import Findings
from llmc.kserve.settings import Settings
from llmc.kserve.spec import Slot
from llmc.render import kvcache
from llmc.render.context import RenderContext, RenderOptions

PVC_SPEC = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "100Gi"}}}


def run(secondary: list[dict[str, Any]] | None, pod: dict[str, Any] | None = None, *, prefill: bool = False) -> dict[str, Any]:
    pod = pod if pod is not None else {"containers": [{"name": "main"}]}
    workload: dict[str, Any] = {"template": pod}
    if secondary is not None:
        workload["kvCacheOffloading"] = {"secondary": secondary}
    spec: dict[str, Any] = {"model": {"uri": "hf://o/m"}}
    if prefill:
        spec["prefill"] = workload
        slot = Slot("prefill.template", workload)
    else:
        spec.update(workload)
        slot = Slot("template", spec)
    service = {"metadata": {"name": "svc", "namespace": "ns"}, "spec": spec}
    ctx = RenderContext(service, spec, Settings(), RenderOptions(), Findings("ns/svc"))
    kvcache.apply(ctx, pod, slot)
    return pod


def test_no_offloading_or_empty_list() -> None:
    # "empty secondary list produces no volumes"
    assert run(None) == {"containers": [{"name": "main"}]}
    assert run([]) == {"containers": [{"name": "main"}]}


def test_nil_file_system_is_skipped_but_keeps_its_index() -> None:
    # "nil fileSystem entry is skipped"; indices count every entry of `secondary`
    pod = run([{}, {"fileSystem": {"emptyDir": {"size": "1Gi"}}}])
    assert [v["name"] for v in pod["volumes"]] == ["kv-cache-secondary-1"]
    assert pod["containers"][0]["volumeMounts"] == [{"name": "kv-cache-secondary-1", "mountPath": "/mnt/kv-cache-1"}]


def test_empty_dir_tier() -> None:
    # "emptyDir tier creates emptyDir volume with sizeLimit"; ephemeral-storage request = size
    pod = run([{"fileSystem": {"emptyDir": {"size": "100Gi"}}}])
    assert pod["volumes"] == [{"name": "kv-cache-secondary-0", "emptyDir": {"sizeLimit": "100Gi"}}]
    main = pod["containers"][0]
    assert main["volumeMounts"] == [{"name": "kv-cache-secondary-0", "mountPath": "/mnt/kv-cache-0"}]
    assert main["resources"] == {"requests": {"ephemeral-storage": "100Gi"}}


def test_empty_dir_sizes_add_to_existing_request() -> None:
    # reference 02 §6 item 27: the sizes are added to an existing ephemeral-storage request
    pod = {"containers": [{"name": "main", "resources": {"limits": {"cpu": "1"}, "requests": {"cpu": "1", "ephemeral-storage": "10Gi"}}}]}
    run([{"fileSystem": {"emptyDir": {"size": "100Gi"}}}, {"fileSystem": {"emptyDir": {"size": "200Gi"}}}], pod)
    assert pod["containers"][0]["resources"] == {"limits": {"cpu": "1"}, "requests": {"cpu": "1", "ephemeral-storage": "310Gi"}}


def test_multiple_tiers_get_indexed_names() -> None:
    # "multiple tiers get indexed names and default mountPaths"
    pod = run([{"fileSystem": {"emptyDir": {"size": "100Gi"}}}, {"fileSystem": {"emptyDir": {"size": "200Gi"}}}])
    assert pod["volumes"] == [
        {"name": "kv-cache-secondary-0", "emptyDir": {"sizeLimit": "100Gi"}},
        {"name": "kv-cache-secondary-1", "emptyDir": {"sizeLimit": "200Gi"}},
    ]
    assert pod["containers"][0]["volumeMounts"] == [
        {"name": "kv-cache-secondary-0", "mountPath": "/mnt/kv-cache-0"},
        {"name": "kv-cache-secondary-1", "mountPath": "/mnt/kv-cache-1"},
    ]


def test_pvc_spec_tier_is_an_ephemeral_volume() -> None:
    # "pvc.spec tier creates ephemeral volume using full PVC spec"; no ephemeral-storage request
    pod = run([{"fileSystem": {"pvc": {"spec": PVC_SPEC}}}])
    assert pod["volumes"] == [{"name": "kv-cache-secondary-0", "ephemeral": {"volumeClaimTemplate": {"spec": PVC_SPEC}}}]
    assert pod["containers"][0] == {"name": "main", "volumeMounts": [{"name": "kv-cache-secondary-0", "mountPath": "/mnt/kv-cache-0"}]}


def test_pvc_ref_tier_with_sub_path() -> None:
    # "pvc.ref tier creates PVC volume with subPath"
    pod = run([{"fileSystem": {"pvc": {"ref": {"name": "my-pvc", "path": "kv-cache/"}}}}])
    assert pod["volumes"] == [{"name": "kv-cache-secondary-0", "persistentVolumeClaim": {"claimName": "my-pvc"}}]
    assert pod["containers"][0]["volumeMounts"] == [{"name": "kv-cache-secondary-0", "mountPath": "/mnt/kv-cache-0", "subPath": "kv-cache/"}]


def test_mixed_backends() -> None:
    # "mixed backends: pvc.ref at index 0 and pvc.spec at index 1"
    pod = run([{"fileSystem": {"pvc": {"ref": {"name": "shared-pvc", "path": "kv/"}}}}, {"fileSystem": {"pvc": {"spec": PVC_SPEC}}}])
    assert [v["name"] for v in pod["volumes"]] == ["kv-cache-secondary-0", "kv-cache-secondary-1"]
    assert pod["containers"][0]["volumeMounts"] == [
        {"name": "kv-cache-secondary-0", "mountPath": "/mnt/kv-cache-0", "subPath": "kv/"},
        {"name": "kv-cache-secondary-1", "mountPath": "/mnt/kv-cache-1"},
    ]


def test_file_system_without_source_adds_nothing() -> None:
    # attachFileSystemKVCacheTier returns when neither emptyDir nor pvc.spec/pvc.ref is set
    assert run([{"fileSystem": {}}, {"fileSystem": {"pvc": {}}}]) == {"containers": [{"name": "main"}]}


def test_volume_without_main_container() -> None:
    # the volume is appended before looking for main; only the mount and request need it
    pod = run([{"fileSystem": {"emptyDir": {"size": "1Gi"}}}], {"containers": [{"name": "other"}]})
    assert pod == {"containers": [{"name": "other"}], "volumes": [{"name": "kv-cache-secondary-0", "emptyDir": {"sizeLimit": "1Gi"}}]}


def test_only_first_main_is_mounted() -> None:
    pod = run([{"fileSystem": {"pvc": {"ref": {"name": "c"}}}}], {"containers": [{"name": "main"}, {"name": "main"}]})
    assert "volumeMounts" in pod["containers"][0]
    assert "volumeMounts" not in pod["containers"][1]


def test_prefill_uses_its_own_offloading() -> None:
    # reference 02 §3.4: prefill pods use spec.prefill.kvCacheOffloading
    pod = run([{"fileSystem": {"emptyDir": {"size": "5Gi"}}}], prefill=True)
    assert pod["volumes"] == [{"name": "kv-cache-secondary-0", "emptyDir": {"sizeLimit": "5Gi"}}]


def test_sizes_are_canonical_quantities() -> None:
    # the size is a resource.Quantity: 1.5Gi marshals as 1536Mi
    pod = run([{"fileSystem": {"emptyDir": {"size": "1.5Gi"}}}])
    assert pod["volumes"][0]["emptyDir"]["sizeLimit"] == "1536Mi"
    assert pod["containers"][0]["resources"]["requests"]["ephemeral-storage"] == "1536Mi"


def test_bad_size_is_an_input_error() -> None:
    with pytest.raises(LlmcError) as err:
        run([{"fileSystem": {"emptyDir": {"size": "lots"}}}])
    assert err.value.location is not None
    assert err.value.location.path == "spec.kvCacheOffloading.secondary[0].fileSystem.emptyDir.size"


def test_request_sum_keeps_the_existing_format() -> None:
    # Quantity.Add keeps the receiver's format: a decimal request plus a binary size stays decimal
    pod = {"containers": [{"name": "main", "resources": {"requests": {"ephemeral-storage": "10G"}}}]}
    run([{"fileSystem": {"emptyDir": {"size": "100Gi"}}}], pod)
    assert pod["containers"][0]["resources"]["requests"]["ephemeral-storage"] == "117374182400"


def test_null_lists_from_go_projection() -> None:
    # a projected spec may carry Go nulls (e.g. `volumes: null`); they behave like absent lists
    pod = run([{"fileSystem": {"emptyDir": {"size": "1Gi"}}}], {"containers": [{"name": "main", "volumeMounts": None, "resources": {}}], "volumes": None})
    assert pod["volumes"] == [{"name": "kv-cache-secondary-0", "emptyDir": {"sizeLimit": "1Gi"}}]
    assert pod["containers"][0]["volumeMounts"] == [{"name": "kv-cache-secondary-0", "mountPath": "/mnt/kv-cache-0"}]
