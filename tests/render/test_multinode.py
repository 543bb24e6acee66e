"""LeaderWorkerSets and their SA/RBAC (reference 02 §1 step 6.3, §2.3–2.5, §3.0; KServe
controller_int_multi_node_test.go and workload_multi_node.go)."""

from __future__ import annotations

import copy
from typing import Any

from llmc.core.findings import Findings
from llmc.k8s.capabilities import Capabilities
from llmc.kserve.settings import Settings
from llmc.kserve.spec import Slot
from llmc.render import multinode
from llmc.render.context import RenderContext, RenderOptions

SIDECAR = "llm-d-routing-sidecar"
KUEUE_QUEUE = "kueue.x-k8s.io/queue-name"
KUEUE_RECLAIM = "kueue.x-k8s.io/preemption-reclaim"


def prepare_pod(ctx: RenderContext, slot: Slot, before: Any = None) -> dict[str, Any]:
    """Stand-in for the shared pod pipeline: a deep copy of the slot, `before` applied."""
    pod = copy.deepcopy(slot.workload[slot.key.split(".")[-1]])
    if before is not None:
        before(ctx, pod)
    return pod


def make_ctx(
    spec: dict[str, Any],
    *,
    name: str = "svc",
    labels: dict[str, str] | None = None,
    annotations: dict[str, str] | None = None,
    capabilities: Capabilities | None = None,
) -> RenderContext:
    meta = {"name": name, "namespace": "ns", "labels": labels or {}, "annotations": annotations or {}}
    options = RenderOptions(capabilities=capabilities) if capabilities else RenderOptions()
    return RenderContext({"metadata": meta, "spec": spec}, spec, Settings(), options, Findings(f"ns/{name}"))


def main_pod() -> dict[str, Any]:
    return {"containers": [{"name": "main", "image": "vllm"}]}


def decode_pod() -> dict[str, Any]:
    return {"initContainers": [{"name": SIDECAR, "env": [{"name": "A", "value": "1"}]}], "containers": [{"name": "main"}]}


def by_kind(objs: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(o["kind"], o["metadata"]["name"]): o for o in objs}


def lws_of(objs: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return by_kind(objs)[("LeaderWorkerSet", name)]


def test_basic_multi_node() -> None:
    # "should create a basic multi-node deployment with worker spec": replicas 2, size 4 (data 4 / dataLocal 1),
    # leader and worker templates with container main; leader labels kserve.io/component workload, role decode
    spec = {
        "replicas": 2,
        "parallelism": {"data": 4, "dataLocal": 1, "tensor": 3},
        "template": main_pod(),
        "worker": main_pod(),
        "prefill": {"template": main_pod()},
    }
    lws = lws_of(multinode.objects(make_ctx(spec, name="test-llm-multinode"), prepare_pod), "test-llm-multinode-kserve-mn")
    assert lws["apiVersion"] == "leaderworkerset.x-k8s.io/v1"
    assert lws["spec"]["replicas"] == 2
    template = lws["spec"]["leaderWorkerTemplate"]
    assert template["size"] == 4
    assert [c["name"] for c in template["leaderTemplate"]["spec"]["containers"]] == ["main"]
    assert [c["name"] for c in template["workerTemplate"]["spec"]["containers"]] == ["main"]
    assert template["leaderTemplate"]["metadata"]["labels"] == {
        "app.kubernetes.io/component": "llminferenceservice-workload-leader",
        "app.kubernetes.io/name": "test-llm-multinode",
        "app.kubernetes.io/part-of": "llminferenceservice",
        "kserve.io/component": "workload",
        "llm-d.ai/role": "decode",
    }
    # 02 §2.4: worker labels (with a leader) have no kserve component and no role; the LWS's labels equal them
    worker_labels = {
        "app.kubernetes.io/component": "llminferenceservice-workload-worker",
        "app.kubernetes.io/name": "test-llm-multinode",
        "app.kubernetes.io/part-of": "llminferenceservice",
    }
    assert template["workerTemplate"]["metadata"]["labels"] == worker_labels
    assert lws["metadata"]["labels"] == worker_labels
    # 02 §2.4: fixed policies, no subGroupPolicy on the main LWS
    assert template["restartPolicy"] == "RecreateGroupOnPodRestart"
    assert "subGroupPolicy" not in template
    assert lws["spec"]["startupPolicy"] == "LeaderCreated"
    assert lws["spec"]["rolloutStrategy"] == {"type": "RollingUpdate"}
    # no prefill worker: no prefill LWS (the prefill template is a Deployment)
    kinds = by_kind(multinode.objects(make_ctx(spec, name="test-llm-multinode"), prepare_pod))
    assert ("LeaderWorkerSet", "test-llm-multinode-kserve-mn-prefill") not in kinds


def test_prefill_sizes_and_sub_group_policy() -> None:
    # "should create multi-node deployment with prefill workload": main size 5 (10/2), prefill size 3 (3/1),
    # prefill leader role prefill; 02 §2.5: subGroupPolicy only on the prefill LWS for DP
    spec = {
        "replicas": 1,
        "parallelism": {"data": 10, "dataLocal": 2, "tensor": 4},
        "worker": main_pod(),
        "prefill": {
            "replicas": 1,
            "parallelism": {"data": 3, "dataLocal": 1, "tensor": 4},
            "template": main_pod(),
            "worker": main_pod(),
        },
    }
    objs = multinode.objects(make_ctx(spec, name="p"), prepare_pod)
    main = lws_of(objs, "p-kserve-mn")
    prefill = lws_of(objs, "p-kserve-mn-prefill")
    assert main["spec"]["replicas"] == 1 and main["spec"]["leaderWorkerTemplate"]["size"] == 5
    assert "subGroupPolicy" not in main["spec"]["leaderWorkerTemplate"]
    assert prefill["spec"]["replicas"] == 1
    assert prefill["spec"]["leaderWorkerTemplate"]["size"] == 3
    assert prefill["spec"]["leaderWorkerTemplate"]["subGroupPolicy"] == {"subGroupSize": 3}
    assert prefill["spec"]["leaderWorkerTemplate"]["leaderTemplate"]["metadata"]["labels"] == {
        "app.kubernetes.io/component": "llminferenceservice-workload-leader-prefill",
        "app.kubernetes.io/name": "p",
        "app.kubernetes.io/part-of": "llminferenceservice",
        "kserve.io/component": "workload",
        "llm-d.ai/role": "prefill",
    }
    assert prefill["spec"]["leaderWorkerTemplate"]["workerTemplate"]["metadata"]["labels"]["app.kubernetes.io/component"] == (
        "llminferenceservice-workload-worker-prefill"
    )


def test_pipeline_prefill_has_no_sub_group_policy() -> None:
    # 02 §2.5: subGroupPolicy only when prefill parallelism is data parallel
    spec = {"worker": main_pod(), "prefill": {"parallelism": {"pipeline": 2}, "worker": main_pod()}}
    prefill = lws_of(multinode.objects(make_ctx(spec), prepare_pod), "svc-kserve-mn-prefill")
    assert prefill["spec"]["leaderWorkerTemplate"]["size"] == 2
    assert "subGroupPolicy" not in prefill["spec"]["leaderWorkerTemplate"]


def test_workers_without_leader_join_the_selector_as_decode() -> None:
    # workload_multi_node.go: no leader template -> workers get kserve.io/component and role decode (02 §6 #12)
    objs = multinode.objects(make_ctx({"parallelism": {"data": 2, "dataLocal": 1}, "worker": main_pod()}), prepare_pod)
    lws = lws_of(objs, "svc-kserve-mn")
    assert "leaderTemplate" not in lws["spec"]["leaderWorkerTemplate"]
    labels = lws["spec"]["leaderWorkerTemplate"]["workerTemplate"]["metadata"]["labels"]
    assert labels["kserve.io/component"] == "workload" and labels["llm-d.ai/role"] == "decode"
    assert lws["metadata"]["labels"] == labels
    # no replicas in the spec -> none in the LWS (02 §2.4: nil allowed)
    assert "replicas" not in lws["spec"]


def test_prefill_workers_without_leader_are_prefill() -> None:
    spec = {"template": main_pod(), "prefill": {"parallelism": {"data": 2, "dataLocal": 1}, "worker": main_pod()}}
    prefill = lws_of(multinode.objects(make_ctx(spec), prepare_pod), "svc-kserve-mn-prefill")
    labels = prefill["spec"]["leaderWorkerTemplate"]["workerTemplate"]["metadata"]["labels"]
    assert labels["kserve.io/component"] == "workload" and labels["llm-d.ai/role"] == "prefill"


def test_metadata_propagation() -> None:
    # "should set correct labels and annotation": kueue label/annotation reach the LWS and both templates,
    # other keys do not; leader role both without prefill; size 1 for data 1 / dataLocal 1
    spec = {"parallelism": {"data": 1, "dataLocal": 1}, "template": main_pod(), "worker": {}}
    ctx = make_ctx(
        spec,
        labels={KUEUE_QUEUE: "test-local-q", "test": "test"},
        annotations={KUEUE_RECLAIM: "0", "test": "test", "leaderworkerset.sigs.k8s.io/exclusive-topology": "rack"},
    )
    lws = lws_of(multinode.objects(ctx, prepare_pod), "svc-kserve-mn")
    template = lws["spec"]["leaderWorkerTemplate"]
    assert template["size"] == 1
    leader, worker = template["leaderTemplate"]["metadata"], template["workerTemplate"]["metadata"]
    for labels in (lws["metadata"]["labels"], leader["labels"], worker["labels"]):
        assert labels[KUEUE_QUEUE] == "test-local-q" and "test" not in labels
    for annotations in (lws["metadata"]["annotations"], leader["annotations"], worker["annotations"]):
        assert annotations[KUEUE_RECLAIM] == "0" and "test" not in annotations
        assert annotations["leaderworkerset.sigs.k8s.io/exclusive-topology"] == "rack"
    assert leader["labels"]["llm-d.ai/role"] == "both"
    assert leader["labels"]["kserve.io/component"] == "workload"


def test_spec_labels_and_annotations() -> None:
    # 02 §2.4: spec.labels land on both templates and (shared map) on the LWS; spec.annotations on the
    # templates only, without model-based routing ("should not propagate model-based-routing annotation")
    spec = {
        "labels": {"team": "a"},
        "annotations": {"serving.kserve.io/model-based-routing-enabled": "true", "note": "x"},
        "parallelism": {"data": 2, "dataLocal": 1},
        "template": main_pod(),
        "worker": main_pod(),
    }
    lws = lws_of(multinode.objects(make_ctx(spec), prepare_pod), "svc-kserve-mn")
    template = lws["spec"]["leaderWorkerTemplate"]
    assert lws["metadata"]["labels"]["team"] == "a"
    assert template["leaderTemplate"]["metadata"]["labels"]["team"] == "a"
    assert template["workerTemplate"]["metadata"]["labels"]["team"] == "a"
    assert template["leaderTemplate"]["metadata"]["annotations"] == {"note": "x"}
    assert template["workerTemplate"]["metadata"]["annotations"] == {"note": "x"}
    assert "annotations" not in lws["metadata"]


def test_only_model_routing_annotation_leaves_no_annotations() -> None:
    spec = {
        "annotations": {"serving.kserve.io/model-based-routing-enabled": "true"},
        "template": main_pod(),
        "worker": main_pod(),
    }
    lws = lws_of(multinode.objects(make_ctx(spec), prepare_pod), "svc-kserve-mn")
    assert "annotations" not in lws["spec"]["leaderWorkerTemplate"]["workerTemplate"]["metadata"]


def test_no_shared_objects_between_templates() -> None:
    # a shared dict would come out of the YAML emitter as an anchor/alias
    spec = {"labels": {"a": "b"}, "annotations": {"n": "v"}, "template": main_pod(), "worker": main_pod()}
    lws = lws_of(multinode.objects(make_ctx(spec), prepare_pod), "svc-kserve-mn")
    template = lws["spec"]["leaderWorkerTemplate"]
    worker_meta, leader_meta = template["workerTemplate"]["metadata"], template["leaderTemplate"]["metadata"]
    assert worker_meta["labels"] is not lws["metadata"]["labels"]
    assert worker_meta["annotations"] is not leader_meta["annotations"]


def test_rollout_configuration_defaults() -> None:
    # rollingUpdateConfigFromWorkloadSpec: one field set -> the other defaults (maxUnavailable 1, maxSurge 0)
    spec = {"rolloutStrategy": {"maxSurge": 1}, "template": main_pod(), "worker": main_pod()}
    lws = lws_of(multinode.objects(make_ctx(spec), prepare_pod), "svc-kserve-mn")
    assert lws["spec"]["rolloutStrategy"] == {
        "type": "RollingUpdate",
        "rollingUpdateConfiguration": {"maxUnavailable": 1, "maxSurge": 1},
    }
    spec["rolloutStrategy"] = {"maxUnavailable": "25%"}
    lws = lws_of(multinode.objects(make_ctx(spec), prepare_pod), "svc-kserve-mn")
    assert lws["spec"]["rolloutStrategy"]["rollingUpdateConfiguration"] == {"maxUnavailable": "25%", "maxSurge": 0}


def test_rbac_for_prefill_and_decode() -> None:
    # "should create RBAC resources when prefill and decode is used": SA -mn (name + part-of labels), Role -mn-role,
    # RoleBinding -mn-rb binding the SA to the Role, both LWS pods run as the SA; order per 02 §1 step 6.3
    spec = {
        "replicas": 1,
        "parallelism": {"data": 2, "dataLocal": 1, "tensor": 4},
        "template": decode_pod(),  # the decode DP preset's leader carries the routing sidecar
        "worker": {},
        "prefill": {"template": main_pod()},
    }
    objs = multinode.objects(make_ctx(spec, name="test-llm-multinode-rbac"), prepare_pod)
    n = "test-llm-multinode-rbac"
    assert [(o["kind"], o["metadata"]["name"]) for o in objs] == [
        ("ServiceAccount", f"{n}-kserve-mn"),
        ("Role", f"{n}-kserve-mn-role"),
        ("RoleBinding", f"{n}-kserve-mn-rb"),
        ("LeaderWorkerSet", f"{n}-kserve-mn"),
    ]
    sa, role, rb, lws = objs
    assert sa["metadata"]["labels"] == {"app.kubernetes.io/name": n, "app.kubernetes.io/part-of": "llminferenceservice"}
    assert len(role["rules"]) == 2
    assert rb["subjects"] == [{"kind": "ServiceAccount", "name": f"{n}-kserve-mn", "namespace": "ns"}]
    assert rb["roleRef"] == {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": f"{n}-kserve-mn-role"}
    template = lws["spec"]["leaderWorkerTemplate"]
    assert template["leaderTemplate"]["spec"]["serviceAccountName"] == f"{n}-kserve-mn"
    assert template["workerTemplate"]["spec"]["serviceAccountName"] == f"{n}-kserve-mn"


def test_full_order_with_prefill_workers() -> None:
    # reconcileMultiNodeWorkload: main SA (+Role/RB), prefill SA, main LWS, prefill LWS
    spec = {"template": decode_pod(), "worker": main_pod(), "prefill": {"template": main_pod(), "worker": main_pod()}}
    objs = multinode.objects(make_ctx(spec), prepare_pod)
    assert [(o["kind"], o["metadata"]["name"]) for o in objs] == [
        ("ServiceAccount", "svc-kserve-mn"),
        ("Role", "svc-kserve-mn-role"),
        ("RoleBinding", "svc-kserve-mn-rb"),
        ("ServiceAccount", "svc-kserve-mn-prefill"),
        ("LeaderWorkerSet", "svc-kserve-mn"),
        ("LeaderWorkerSet", "svc-kserve-mn-prefill"),
    ]
    prefill = objs[-1]["spec"]["leaderWorkerTemplate"]
    assert prefill["leaderTemplate"]["spec"]["serviceAccountName"] == "svc-kserve-mn-prefill"
    assert prefill["workerTemplate"]["spec"]["serviceAccountName"] == "svc-kserve-mn-prefill"


def test_user_service_account_is_forced_on_both_pods() -> None:
    # 02 §2.3 / §6 #14: the worker's SA (no template SA) is used for leader and worker; no managed SA;
    # the RoleBinding binds it
    spec = {"template": decode_pod(), "worker": {**main_pod(), "serviceAccountName": "mine"}}
    objs = multinode.objects(make_ctx(spec), prepare_pod)
    kinds = by_kind(objs)
    assert ("ServiceAccount", "svc-kserve-mn") not in kinds
    assert kinds[("RoleBinding", "svc-kserve-mn-rb")]["subjects"][0]["name"] == "mine"
    template = kinds[("LeaderWorkerSet", "svc-kserve-mn")]["spec"]["leaderWorkerTemplate"]
    assert template["leaderTemplate"]["spec"]["serviceAccountName"] == "mine"
    assert template["workerTemplate"]["spec"]["serviceAccountName"] == "mine"


def test_template_service_account_wins_over_worker() -> None:
    # expectedMultiNodeMainServiceAccount: the leader template's SA takes precedence
    spec = {"template": {**main_pod(), "serviceAccountName": "lead"}, "worker": {**main_pod(), "serviceAccountName": "work"}}
    lws = lws_of(multinode.objects(make_ctx(spec), prepare_pod), "svc-kserve-mn")
    assert lws["spec"]["leaderWorkerTemplate"]["workerTemplate"]["spec"]["serviceAccountName"] == "lead"


def test_managed_name_written_by_the_user_is_still_managed() -> None:
    spec = {"template": {**main_pod(), "serviceAccountName": "svc-kserve-mn"}, "worker": main_pod()}
    assert ("ServiceAccount", "svc-kserve-mn") in by_kind(multinode.objects(make_ctx(spec), prepare_pod))


def test_no_role_without_routing_sidecar() -> None:
    spec = {"template": main_pod(), "worker": main_pod(), "prefill": {"template": decode_pod(), "worker": decode_pod()}}
    kinds = by_kind(multinode.objects(make_ctx(spec), prepare_pod))
    # 02 §2.3: no Role/RoleBinding for the prefill LWS
    assert not [k for k in kinds if k[0] in ("Role", "RoleBinding")]


def test_routing_sidecar_in_a_container_does_not_count() -> None:
    # 02 §6 #13: only init containers are looked at
    spec = {"template": {"containers": [{"name": SIDECAR}]}, "worker": main_pod()}
    kinds = by_kind(multinode.objects(make_ctx(spec), prepare_pod))
    assert ("Role", "svc-kserve-mn-role") not in kinds


def test_single_node_decode_with_managed_sa_gets_no_mn_role() -> None:
    # workload_multi_node.go reconcileMultiNodeMainServiceAccount: without spec.worker the managed SA is
    # deleted and the function returns before reconcileMultiNodeMainRole/RoleBinding (the oracle agrees)
    spec = {"template": decode_pod(), "prefill": {"template": main_pod()}}
    assert multinode.objects(make_ctx(spec), prepare_pod) == []


def test_single_node_decode_with_user_sa_keeps_the_mn_role() -> None:
    # reconcileMultiNodeMainServiceAccount with useExistingServiceAccount: it goes on to the Role and
    # RoleBinding, which follow the leader's routing sidecar and bind the user's SA (the oracle agrees)
    spec = {"template": {**decode_pod(), "serviceAccountName": "mine"}, "prefill": {"template": main_pod()}}
    objs = multinode.objects(make_ctx(spec), prepare_pod)
    assert [(o["kind"], o["metadata"]["name"]) for o in objs] == [
        ("Role", "svc-kserve-mn-role"),
        ("RoleBinding", "svc-kserve-mn-rb"),
    ]
    assert objs[1]["subjects"][0]["name"] == "mine"


def test_single_node_without_sidecar_renders_nothing() -> None:
    assert multinode.objects(make_ctx({"template": main_pod()}), prepare_pod) == []


def test_inference_pool_env_on_main_leader_only() -> None:
    # 02 §3.0: INFERENCE_POOL_NAME appended to the routing sidecar of the main LWS pods when spec.router is set;
    # value N-inference-pool; the prefill LWS gets none
    spec = {
        "router": {"scheduler": {}},
        "template": decode_pod(),
        "worker": main_pod(),
        "prefill": {"template": decode_pod(), "worker": main_pod()},
    }
    objs = multinode.objects(make_ctx(spec), prepare_pod)
    main_leader = lws_of(objs, "svc-kserve-mn")["spec"]["leaderWorkerTemplate"]["leaderTemplate"]["spec"]
    assert main_leader["initContainers"][0]["env"] == [
        {"name": "A", "value": "1"},
        {"name": "INFERENCE_POOL_NAME", "value": "svc-inference-pool"},
    ]
    prefill_leader = lws_of(objs, "svc-kserve-mn-prefill")["spec"]["leaderWorkerTemplate"]["leaderTemplate"]["spec"]
    assert prefill_leader["initContainers"][0]["env"] == [{"name": "A", "value": "1"}]
    # the merged spec itself is not touched
    assert spec["template"]["initContainers"][0]["env"] == [{"name": "A", "value": "1"}]


def test_inference_pool_env_uses_pool_ref() -> None:
    router = {"scheduler": {"pool": {"ref": {"name": "shared-pool"}}}}
    spec = {"router": router, "template": decode_pod(), "worker": decode_pod()}
    template = lws_of(multinode.objects(make_ctx(spec), prepare_pod), "svc-kserve-mn")["spec"]["leaderWorkerTemplate"]
    for key in ("leaderTemplate", "workerTemplate"):
        assert template[key]["spec"]["initContainers"][0]["env"][-1] == {"name": "INFERENCE_POOL_NAME", "value": "shared-pool"}


def test_no_inference_pool_env_without_router() -> None:
    spec = {"template": decode_pod(), "worker": main_pod()}
    lws = lws_of(multinode.objects(make_ctx(spec), prepare_pod), "svc-kserve-mn")
    leader = lws["spec"]["leaderWorkerTemplate"]["leaderTemplate"]
    assert leader["spec"]["initContainers"][0]["env"] == [{"name": "A", "value": "1"}]


def test_prepare_pod_gets_the_slots() -> None:
    seen: list[str] = []

    def recording(ctx: RenderContext, slot: Slot, before: Any = None) -> dict[str, Any]:
        seen.append(slot.key)
        return prepare_pod(ctx, slot, before)

    spec = {"template": main_pod(), "worker": main_pod(), "prefill": {"template": main_pod(), "worker": main_pod()}}
    multinode.objects(make_ctx(spec), recording)
    assert seen == ["template", "worker", "prefill.template", "prefill.worker"]


def test_missing_lws_api_is_a_finding_but_still_rendered() -> None:
    spec = {"template": main_pod(), "worker": main_pod(), "prefill": {"worker": main_pod()}}
    ctx = make_ctx(spec, capabilities=Capabilities(api_versions=frozenset({"apps/v1"})))
    objs = multinode.objects(ctx, prepare_pod)
    assert ("LeaderWorkerSet", "svc-kserve-mn") in by_kind(objs)
    assert [(f.code, f.path) for f in ctx.findings.items] == [
        ("LLMC203", "spec.worker"),
        ("LLMC203", "spec.prefill.worker"),
    ]


def test_lws_api_present_is_quiet() -> None:
    ctx = make_ctx({"template": main_pod(), "worker": main_pod()})
    multinode.objects(ctx, prepare_pod)
    assert ctx.findings.items == []
