"""The router layer: merged-spec fix-ups, the HTTPRoute, the EPP stack and tokenizer as one plan,
cluster capabilities, reference validation and the predicted URL (reference 03, 01 §2.7, §3.6–3.8).

The reference example (03 §11, managed-DRA minimal sample in kserve-demo) is built from the
upstream presets rendered by hand (the few template expressions they contain, 01 §4.4), merged
under the sample's `router: {scheduler: {}, route: {}, gateway: {}}` (empty objects keep the
preset content, 01 §3.4), then put through the controller's fix-ups in order (01 §2.7).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from llmc.go import yaml as goyaml
from llmc.core.errors import LlmcError
from llmc.core.findings import Findings
from llmc.render import router
from llmc.k8s.capabilities import Capabilities
from llmc.render.context import RenderContext, RenderOptions
from llmc.kserve.settings import DEFAULT_INGRESS, Settings

from .epp_reference import DEFAULT_EPP_CONFIG
from .hand import HEADER, hand_render
from llmc.kserve import scheduler_spec
from llmc.resolve import router_fixups

NS, NAME = "kserve-demo", "qwen2-7b-instruct-dra-minimal"
MODEL = "Qwen/Qwen2.5-7B-Instruct"
FQ = f"publishers/{NS}/models/{MODEL}"
ALL_APIS = Capabilities().api_versions | {"inference.networking.x-k8s.io/v1alpha2"}
SCHED_LABELS = {
    "app.kubernetes.io/component": "llminferenceservice-router-scheduler",
    "app.kubernetes.io/name": NAME,
    "app.kubernetes.io/part-of": "llminferenceservice",
}


def preset(upstream: Path, file: str, **kw: Any) -> dict[str, Any]:
    text = (upstream / "kserve/presets/master" / file).read_text()
    return yaml.safe_load(hand_render(text, **{"name": NAME, "ns": NS, "model": MODEL, **kw}))["spec"]


def fix_up(spec: dict[str, Any], name: str = NAME, ns: str = NS) -> dict[str, Any]:
    """The controller's post-merge steps that touch the router, in order (01 §2.7)."""
    router_fixups.default_pool_selector(spec, name)
    router_fixups.default_scheduler_service_account(spec, name)
    router_fixups.apply_gateway_refs(spec)
    router_fixups.rewrite_default_backend_refs(spec, name)
    router_fixups.resolve_scheduler_config_ref(spec, ns, "kserve", {})
    router_fixups.default_epp_port(spec)
    return spec


def merged(upstream: Path, router_spec: dict[str, Any] | None = None, *, tls: bool = False, **extra: Any) -> dict[str, Any]:
    """The managed-DRA minimal sample's merged spec, restricted to what the router reads."""
    user = router_spec if router_spec is not None else {"scheduler": {}, "route": {}, "gateway": {}}
    spec: dict[str, Any] = {
        "model": {"uri": f"hf://{MODEL}", "name": MODEL},
        # the workload preset's opt-in (03 §8); the rest of that preset is not read by the router
        "annotations": dict(yaml.safe_load((upstream / "kserve/presets/master/config-llm-template.yaml").read_text())["spec"]["annotations"]),
        "router": {},
    }
    if "scheduler" in user and not ((user["scheduler"].get("pool") or {}).get("ref")):
        spec["router"]["scheduler"] = preset(upstream, "config-llm-scheduler.yaml", tls=tls)["router"]["scheduler"]
    if "route" in user and not ((user["route"].get("http") or {}).get("refs")):
        spec["router"]["route"] = preset(upstream, "config-llm-router-route.yaml")["router"]["route"]
    for key, value in user.items():  # the user's non-empty router fields replace or extend the presets'
        if key not in spec["router"]:
            spec["router"][key] = copy.deepcopy(value)
        elif value:
            for sub, sub_value in value.items():
                spec["router"][key][sub] = copy.deepcopy(sub_value)
    spec.update(extra)
    return fix_up(spec)


def context(spec: dict[str, Any], *, tls: bool = False, apis: frozenset[str] = ALL_APIS, owners: bool = False,
            ingress: dict[str, Any] | None = None, annotations: dict[str, str] | None = None,
            gateway_pool_api: str = "v1") -> RenderContext:
    service = {"metadata": {"name": NAME, "namespace": NS, "uid": "uid-1", "annotations": annotations or {}},
               "spec": {"model": {"uri": f"hf://{MODEL}", "name": MODEL}, "router": {}}}
    settings = Settings(ingress=dict(DEFAULT_INGRESS, enableLLMInferenceServiceTLS=tls, **(ingress or {})))
    options = RenderOptions(owner_references=owners, capabilities=Capabilities(api_versions=apis),
                            gateway_pool_api=gateway_pool_api)
    return RenderContext(service, spec, settings, options, Findings(f"{NS}/{NAME}"))


def render(ctx: RenderContext, cluster: router.Cluster | None = None) -> list[dict[str, Any]]:
    return router.objects(ctx, cluster, attach_model=fake_attach)


def fake_attach(ctx: RenderContext, pod: dict[str, Any], container: str, path: str, where: str) -> None:
    """Stands in for llmc.render.storage: marks where the model would be attached."""
    pod.setdefault("initContainers", []).append({"name": "storage-initializer", "args": [f"hf://{MODEL}", path]})


def by_kind(objs: list[dict[str, Any]], kind: str, api: str | None = None) -> dict[str, Any]:
    found = [o for o in objs if o["kind"] == kind and (api is None or o["apiVersion"] == api)]
    assert len(found) == 1, [o["kind"] for o in objs]
    return found[0]


def codes(ctx: RenderContext) -> list[str]:
    return [f.code for f in ctx.findings.items]


# -- 03 §11, object by object -----------------------------------------------------------------------


@pytest.fixture
def reference(upstream: Path) -> list[dict[str, Any]]:
    return render(context(merged(upstream)))


def test_reference_objects_in_controller_order(reference: list[dict[str, Any]]) -> None:
    # 03 §2 reconcileRouter: SA → CRB → Role → RB → EPP Deployment → Service → pools → HTTPRoute
    assert [(o["apiVersion"], o["kind"], o["metadata"]["name"]) for o in reference] == [
        ("v1", "ServiceAccount", f"{NAME}-epp-sa"),
        ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", f"{NS}-{NAME}-epp-auth-rb"),
        ("rbac.authorization.k8s.io/v1", "Role", f"{NAME}-epp-role"),
        ("rbac.authorization.k8s.io/v1", "RoleBinding", f"{NAME}-epp-rb"),
        ("apps/v1", "Deployment", f"{NAME}-kserve-router-scheduler"),
        ("v1", "Service", f"{NAME}-epp-service"),
        ("inference.networking.k8s.io/v1", "InferencePool", f"{NAME}-inference-pool"),
        ("inference.networking.x-k8s.io/v1alpha2", "InferencePool", f"{NAME}-inference-pool"),
        ("gateway.networking.k8s.io/v1", "HTTPRoute", f"{NAME}-kserve-route"),
    ]


def _pool_backend(group: str = "inference.networking.k8s.io") -> dict[str, Any]:
    # The converged route (expectedHTTPRoute's migration block): v1 once the Gateway accepts it.
    return {"group": group, "kind": "InferencePool", "name": f"{NAME}-inference-pool", "port": 8000, "weight": 1}


def _svc_backend() -> dict[str, Any]:
    # 03 §11: no group sent; the API server stores group "" (emitted, 03 §3.1.1 notes)
    return {"group": "", "kind": "Service", "name": f"{NAME}-kserve-workload-svc", "port": 8000, "weight": 1}


def _rewrite(rule: str, backend: dict[str, Any], prefix: str, target: str) -> dict[str, Any]:
    return {
        "name": rule,
        "backendRefs": [backend],
        "matches": [{"path": {"type": "PathPrefix", "value": prefix}}],
        "filters": [{"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": target}}}],
        "timeouts": {"backendRequest": "0s", "request": "0s"},
    }


def reference_rules() -> list[dict[str, Any]]:
    """03 §11 HTTPRoute rules (table 03 §3.1.1), with the API-server defaults llmc emits."""
    endpoints = ["completions", "chat/completions", "responses", "messages"]
    rules = [_rewrite(f"v1-{e.replace('/', '-')}-path", _pool_backend(), f"/{NS}/{NAME}/v1/{e}", f"/v1/{e}") for e in endpoints]
    header = [{"type": "Exact", "name": HEADER, "value": FQ}]
    rules.append({
        "name": "v1-model-routing",
        "backendRefs": [_pool_backend()],
        "matches": [{"path": {"type": "Exact", "value": f"/v1/{e}{slash}"}, "headers": header} for e in endpoints for slash in ("", "/")],
        "timeouts": {"backendRequest": "0s", "request": "0s"},
    })
    rules += [_rewrite(f"v1-{e.replace('/', '-')}-publisher-path", _pool_backend(), f"/{FQ}/v1/{e}", f"/v1/{e}") for e in endpoints]
    rules.append(_rewrite("v1-publisher-path-catch-all", _svc_backend(), f"/{FQ}", "/"))
    rules.append(_rewrite("v1-catch-all-path", _svc_backend(), f"/{NS}/{NAME}", "/"))
    rules.append({
        "name": "v1-catch-all-model-routing",
        "backendRefs": [_svc_backend()],
        # no path sent; the API server stores PathPrefix "/" (emitted)
        "matches": [{"headers": header, "path": {"type": "PathPrefix", "value": "/"}}],
        "timeouts": {"backendRequest": "0s", "request": "0s"},
    })
    return rules


def test_reference_httproute(reference: list[dict[str, Any]]) -> None:
    route = by_kind(reference, "HTTPRoute")
    assert route["metadata"] == {
        "name": f"{NAME}-kserve-route",
        "namespace": NS,
        "labels": {"app.kubernetes.io/component": "llminferenceservice-router", "app.kubernetes.io/name": NAME,
                   "app.kubernetes.io/part-of": "llminferenceservice"},
        "annotations": {"serving.kserve.io/inference-pool-migrated": "v1"},
    }
    assert route["spec"]["parentRefs"] == [
        {"group": "gateway.networking.k8s.io", "kind": "Gateway", "name": "kserve-ingress-gateway", "namespace": "kserve"}
    ]
    assert route["spec"]["rules"] == reference_rules()
    assert set(route["spec"]) == {"parentRefs", "rules"}


def test_route_stays_on_v1alpha2_for_a_gateway_that_reads_only_v1alpha2(upstream: Path) -> None:
    """expectedHTTPRoute: without the migration signal (v1 accepted, or v1alpha2 rejected) the default pool
    backends keep the v1alpha2 group and the route gets no inference-pool-migrated annotation."""
    route = by_kind(render(context(merged(upstream), gateway_pool_api="v1alpha2")), "HTTPRoute")
    assert "annotations" not in route["metadata"]
    pools = [ref for rule in route["spec"]["rules"] for ref in rule.get("backendRefs", []) if ref["kind"] == "InferencePool"]
    assert pools and all(ref == _pool_backend("inference.networking.x-k8s.io") for ref in pools)


def test_reference_inference_pools(reference: list[dict[str, Any]]) -> None:
    v1 = by_kind(reference, "InferencePool", "inference.networking.k8s.io/v1")
    assert v1["metadata"] == {"name": f"{NAME}-inference-pool", "namespace": NS, "labels": SCHED_LABELS}
    assert v1["spec"] == {
        "endpointPickerRef": {"failureMode": "FailOpen", "kind": "Service", "name": f"{NAME}-epp-service", "port": {"number": 9002}},
        "selector": {"matchLabels": {"app.kubernetes.io/name": NAME, "app.kubernetes.io/part-of": "llminferenceservice",
                                     "kserve.io/component": "workload"}},
        "targetPorts": [{"number": 8000}],
    }
    v1alpha2 = by_kind(reference, "InferencePool", "inference.networking.x-k8s.io/v1alpha2")
    assert v1alpha2["metadata"] == v1["metadata"]
    assert v1alpha2["spec"] == {
        "selector": {"app.kubernetes.io/name": NAME, "app.kubernetes.io/part-of": "llminferenceservice", "kserve.io/component": "workload"},
        "targetPortNumber": 8000,
        "extensionRef": {"kind": "Service", "name": f"{NAME}-epp-service", "portNumber": 9002, "failureMode": "FailOpen"},
    }


def test_reference_service_account_and_rbac(reference: list[dict[str, Any]]) -> None:
    assert by_kind(reference, "ServiceAccount") == {
        "apiVersion": "v1", "kind": "ServiceAccount",
        "metadata": {"name": f"{NAME}-epp-sa", "namespace": NS, "labels": SCHED_LABELS},
    }
    subject = [{"kind": "ServiceAccount", "name": f"{NAME}-epp-sa", "namespace": NS}]
    assert by_kind(reference, "ClusterRoleBinding") == {
        "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
        "metadata": {"name": f"{NS}-{NAME}-epp-auth-rb", "labels": SCHED_LABELS},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "system:auth-delegator"},
        "subjects": subject,
    }
    read = ["get", "list", "watch"]
    assert by_kind(reference, "Role") == {
        "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
        "metadata": {"name": f"{NAME}-epp-role", "namespace": NS, "labels": SCHED_LABELS},
        "rules": [
            {"apiGroups": [""], "resources": ["pods"], "verbs": read},
            {"apiGroups": ["inference.networking.k8s.io", "inference.networking.x-k8s.io"],
             "resources": ["inferencepools", "inferenceobjectives", "inferencemodels"], "verbs": read},
            {"apiGroups": ["inference.networking.x-k8s.io"], "resources": ["inferencemodelrewrites", "inferencepoolimports"], "verbs": read},
            {"apiGroups": ["llm-d.ai"], "resources": ["inferenceobjectives", "inferencemodelrewrites"], "verbs": read},
            {"apiGroups": ["discovery.k8s.io"], "resources": ["endpointslices"], "verbs": read},
            {"apiGroups": ["coordination.k8s.io"], "resources": ["leases"], "verbs": read + ["create", "update", "patch", "delete"]},
        ],
    }
    assert by_kind(reference, "RoleBinding") == {
        "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
        "metadata": {"name": f"{NAME}-epp-rb", "namespace": NS, "labels": SCHED_LABELS},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": f"{NAME}-epp-role"},
        "subjects": subject,
    }




def test_reference_epp_deployment(reference: list[dict[str, Any]]) -> None:
    dep = by_kind(reference, "Deployment")
    assert dep["metadata"] == {"name": f"{NAME}-kserve-router-scheduler", "namespace": NS, "labels": SCHED_LABELS}
    spec = dep["spec"]
    assert "replicas" not in spec
    assert spec["strategy"] == {"type": "Recreate"}
    assert spec["selector"] == {"matchLabels": SCHED_LABELS}
    assert spec["template"]["metadata"] == {"labels": SCHED_LABELS, "annotations": {"app.kubernetes.io/version": "0.10.0"}}
    pod = spec["template"]["spec"]
    assert {k: v for k, v in pod.items() if k != "containers"} == {
        "serviceAccountName": f"{NAME}-epp-sa",
        "volumes": [{"name": "tls-certs", "secret": {"secretName": f"{NAME}-kserve-self-signed-certs"}}],
        "dnsPolicy": "ClusterFirst",
        "restartPolicy": "Always",
        "terminationGracePeriodSeconds": 60,
    }
    assert [c["name"] for c in pod["containers"]] == ["main"]
    grpc = lambda service, delay: {  # noqa: E731
        "grpc": {"port": 9003, "service": service}, "initialDelaySeconds": delay, "periodSeconds": 10,
        "timeoutSeconds": 1, "successThreshold": 1, "failureThreshold": 3}
    assert pod["containers"][0] == {
        "name": "main",
        "image": "ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0",
        "imagePullPolicy": "IfNotPresent",
        "command": ["/app/epp", "--pool-name", f"{NAME}-inference-pool", "--pool-namespace", NS, "--zap-encoder", "json",
                    "--grpc-port", "9002", "--grpc-health-port", "9003", "", "", "", ""],
        "args": ["--config-text", DEFAULT_EPP_CONFIG],
        "env": [{"name": "SSL_CERT_DIR", "value": "/var/run/kserve/tls:/var/run/secrets/kubernetes.io/serviceaccount:/etc/pki/tls/certs"}],
        "ports": [{"containerPort": 9002, "name": "grpc", "protocol": "TCP"}, {"containerPort": 9003, "name": "grpc-health", "protocol": "TCP"},
                  {"containerPort": 9090, "name": "metrics", "protocol": "TCP"}, {"containerPort": 5557, "name": "zmq", "protocol": "TCP"}],
        "lifecycle": {"preStop": {"exec": {"command": ["/bin/sleep", "15"]}}},
        "livenessProbe": grpc("liveness", 5),
        "readinessProbe": grpc("readiness", 30),
        "resources": {"requests": {"cpu": 1, "memory": "2Gi"}, "limits": {"cpu": 6, "memory": "16Gi"}},
        "securityContext": {"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True, "runAsNonRoot": True,
                            "capabilities": {"drop": ["ALL"]}, "seccompProfile": {"type": "RuntimeDefault"}},
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "FallbackToLogsOnError",
        "volumeMounts": [{"mountPath": "/var/run/kserve/tls", "name": "tls-certs", "readOnly": True}],
    }


def test_reference_epp_service(reference: list[dict[str, Any]]) -> None:
    assert by_kind(reference, "Service") == {
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"name": f"{NAME}-epp-service", "namespace": NS, "labels": SCHED_LABELS},
        "spec": {
            "selector": SCHED_LABELS,
            "ports": [{"name": "grpc", "port": 9002, "targetPort": "grpc", "protocol": "TCP"},
                      {"name": "grpc-health", "port": 9003, "targetPort": "grpc-health", "protocol": "TCP"},
                      {"name": "metrics", "port": 9090, "targetPort": "metrics", "protocol": "TCP"},
                      {"name": "zmq", "port": 5557, "targetPort": "zmq", "protocol": "TCP"}],
        },
    }


def test_reference_owner_references(upstream: Path) -> None:
    # 03 §3: every namespaced object is owned by the service; the ClusterRoleBinding is not
    objs = render(context(merged(upstream), owners=True))
    owner = {"apiVersion": "serving.kserve.io/v1alpha2", "kind": "LLMInferenceService", "name": NAME, "uid": "uid-1",
             "controller": True, "blockOwnerDeletion": True}
    for obj in objs:
        expected = None if obj["kind"] == "ClusterRoleBinding" else [owner]
        assert obj["metadata"].get("ownerReferences") == expected, obj["kind"]


def test_reference_with_tls(upstream: Path) -> None:
    # 03 §11 TLS-on comments: three TLS flags stay, the metrics scheme moves into the config
    objs = render(context(merged(upstream, tls=True), tls=True))
    main = by_kind(objs, "Deployment")["spec"]["template"]["spec"]["containers"][0]
    assert main["command"][-3:] == ["--enable-cert-reload=true", "--secure-serving=true", "--cert-path=/var/run/kserve/tls"]
    assert main["args"][1].endswith("- type: max-score-picker\n- parameters:\n    scheme: https\n  type: metrics-data-source\n"
                                    "schedulingProfiles:\n- name: default\n" + DEFAULT_EPP_CONFIG.split("- name: default\n")[1])


def test_reference_with_the_go_template_engine(upstream: Path) -> None:
    # the same merged spec through llmc's own merge and template engine, when they are available
    merge = pytest.importorskip("llmc.resolve.merge", reason="llmc.resolve.merge (MergeSpecs) is not available yet")
    templatedata = pytest.importorskip("llmc.resolve.templatedata", reason="llmc.resolve.templatedata (ReplaceVariables) is not available yet")
    raw = [yaml.safe_load((upstream / "kserve/presets/master" / f).read_text())["spec"]
           for f in ("config-llm-scheduler.yaml", "config-llm-router-route.yaml", "config-llm-template.yaml")]
    sample = yaml.safe_load((upstream / "kserve/samples/managed-dra/llm-inference-service-managed-dra-minimal.yaml").read_text())
    sample["metadata"]["namespace"] = NS
    spec = merge.merge_specs(*raw, sample["spec"])
    router_fixups.default_pool_selector(spec, NAME)
    router_fixups.default_scheduler_service_account(spec, NAME)
    global_config = {"SystemNamespace": "kserve", "IngressGatewayName": "kserve-ingress-gateway", "IngressGatewayNamespace": "kserve",
                     "EnableTLS": False, "ModelBasedRoutingHeaderName": HEADER, "InferencePoolNamespacedName": f"{NS}/{NAME}-inference-pool"}
    spec = templatedata.render_config({"metadata": sample["metadata"], "spec": spec}, sample, global_config)["spec"]
    objs = render(context(fix_up(spec)))
    assert by_kind(objs, "HTTPRoute")["spec"]["rules"] == reference_rules()
    assert by_kind(objs, "Deployment")["spec"]["template"]["spec"]["containers"][0]["args"] == ["--config-text", DEFAULT_EPP_CONFIG]


# -- fix-ups of the merged spec (01 §3.6–3.8) ------------------------------------------------------------


def test_pool_selector_defaulted_only_when_empty() -> None:
    spec = {"router": {"scheduler": {"pool": {"spec": {"selector": {"matchLabels": {}}}}}}}
    router_fixups.default_pool_selector(spec, "svc")
    assert spec["router"]["scheduler"]["pool"]["spec"]["selector"]["matchLabels"] == {
        "app.kubernetes.io/part-of": "llminferenceservice", "app.kubernetes.io/name": "svc", "kserve.io/component": "workload"}
    kept = {"router": {"scheduler": {"pool": {"spec": {"selector": {"matchLabels": {"a": "b"}}}}}}}
    router_fixups.default_pool_selector(kept, "svc")
    assert kept["router"]["scheduler"]["pool"]["spec"]["selector"]["matchLabels"] == {"a": "b"}


def test_scheduler_service_account_default() -> None:
    spec = {"router": {"scheduler": {"template": {"containers": []}}}}
    router_fixups.default_scheduler_service_account(spec, "svc")
    assert spec["router"]["scheduler"]["template"]["serviceAccountName"] == "svc-epp-sa"
    no_template = {"router": {"scheduler": {}}}
    router_fixups.default_scheduler_service_account(no_template, "svc")
    assert no_template == {"router": {"scheduler": {}}}


def test_epp_port_default() -> None:
    # 01 §3.6: only for a Service (or kind-less) picker without a port
    for kind, expected in (("Service", {"number": 9002}), ("", {"number": 9002}), ("Other", None)):
        spec = {"router": {"scheduler": {"pool": {"spec": {"endpointPickerRef": {"kind": kind, "port": {"number": 0}}}}}}}
        router_fixups.default_epp_port(spec)
        got = spec["router"]["scheduler"]["pool"]["spec"]["endpointPickerRef"]["port"]
        assert got == (expected or {"number": 0})


def test_gateway_refs_replace_parent_refs(upstream: Path) -> None:
    # ToParentRefs (TestToParentRefs): namespace only when set, sectionName when set
    spec = merged(upstream, {"route": {}, "gateway": {"refs": [{"name": "gw-a", "namespace": "infra", "sectionName": "https"},
                                                               {"name": "gw-b", "namespace": ""}]}})
    route = router.http_route(context(spec))
    assert route["spec"]["parentRefs"] == [
        {"group": "gateway.networking.k8s.io", "kind": "Gateway", "name": "gw-a", "namespace": "infra", "sectionName": "https"},
        {"group": "gateway.networking.k8s.io", "kind": "Gateway", "name": "gw-b"},
    ]


def test_without_scheduler_every_backend_is_the_workload_service(upstream: Path) -> None:
    # 03 §3.1.2 / config merge step 6: all 12 rules hit the workload Service; no EPP objects
    ctx = context(merged(upstream, {"route": {}, "gateway": {}}))
    objs = render(ctx)
    assert [o["kind"] for o in objs] == ["HTTPRoute"]
    backends = [ref for rule in objs[0]["spec"]["rules"] for ref in rule["backendRefs"]]
    assert len(backends) == 12 and all(ref == _svc_backend() for ref in backends)


def test_pool_ref_renames_backends_and_skips_the_epp(upstream: Path) -> None:
    # 03 §4 table: no SA/RBAC/EPP/pools; route backends named after the ref, v1 group kept
    ctx = context(merged(upstream, {"scheduler": {"pool": {"ref": {"name": "shared-pool"}}}, "route": {}}))
    objs = render(ctx)
    assert [o["kind"] for o in objs] == ["HTTPRoute"]
    pools = [ref for rule in objs[0]["spec"]["rules"] for ref in rule["backendRefs"] if ref["kind"] == "InferencePool"]
    assert len(pools) == 9 and all(ref["name"] == "shared-pool" and ref["group"] == "inference.networking.k8s.io" for ref in pools)


def test_route_refs_mean_no_managed_route(upstream: Path) -> None:
    # 03 §3.2: referenced routes are never created; the route preset is not merged
    ctx = context(merged(upstream, {"scheduler": {}, "route": {"http": {"refs": [{"name": "my-route"}]}}, "gateway": {"refs": [{"name": "gw"}]}}))
    assert "HTTPRoute" not in [o["kind"] for o in render(ctx)]
    assert router.http_route(ctx) is None


def test_scheduler_without_route(upstream: Path) -> None:
    # 03 §4 `scheduler: {}` only: EPP stack and pools, no HTTPRoute
    objs = render(context(merged(upstream, {"scheduler": {}})))
    assert "HTTPRoute" not in [o["kind"] for o in objs] and by_kind(objs, "Deployment")


def test_v1alpha2_pool_only_when_discoverable(upstream: Path) -> None:
    # 03 §3.5: the twin needs the v1alpha2 CRD; the converged route points at the v1 pool, which is rendered
    objs = render(context(merged(upstream), apis=Capabilities().api_versions))
    assert [o["apiVersion"] for o in objs if o["kind"] == "InferencePool"] == ["inference.networking.k8s.io/v1"]
    assert by_kind(objs, "HTTPRoute")["spec"]["rules"][0]["backendRefs"][0]["group"] == "inference.networking.k8s.io"


# -- model-based routing and LoRA (03 §8) ---------------------------------------------------------------


def test_lora_adapters_add_header_matches(upstream: Path) -> None:
    # expandLoRAAdapterMatches: adapters sorted by name, one copy per header match, unnamed skipped
    spec = merged(upstream)
    spec["model"]["lora"] = {"adapters": [{"name": "zeta", "uri": "hf://a/z"}, {"uri": "hf://a/x"}, {"name": "alpha", "uri": "hf://a/a"}]}
    rules = router.http_route(context(spec))["spec"]["rules"]
    model_routing = next(r for r in rules if r["name"] == "v1-model-routing")
    assert len(model_routing["matches"]) == 8 * 3
    assert [m["headers"][0]["value"] for m in model_routing["matches"][8:10]] == [
        f"publishers/{NS}/models/alpha", f"publishers/{NS}/models/zeta"]
    catch_all = next(r for r in rules if r["name"] == "v1-catch-all-model-routing")
    assert [m["headers"][0]["value"] for m in catch_all["matches"]] == [FQ, f"publishers/{NS}/models/alpha", f"publishers/{NS}/models/zeta"]


@pytest.mark.parametrize("how", ["mode", "annotation", "gateway"])
def test_model_routing_disabled_strips_header_rules(upstream: Path, how: str) -> None:
    # stripModelBasedRoutingRules: preset rules 5 and 12 vanish (03 §8)
    spec = merged(upstream, {"scheduler": {}, "route": {}, "gateway": {"refs": [{"name": "gw", "namespace": "infra"}]}})
    cluster = None
    ingress = None
    if how == "mode":
        ingress = {"modelBasedRoutingMode": "Disabled"}
    elif how == "annotation":
        spec["annotations"] = {}
    else:
        gw = {"metadata": {"name": "gw", "namespace": "infra", "annotations": {"serving.kserve.io/model-based-routing-enabled": "false"}}}
        cluster = router.Cluster(gateways={("infra", "gw"): gw})
    rules = router.http_route(context(spec, ingress=ingress), cluster)["spec"]["rules"]
    assert len(rules) == 10
    assert {"v1-model-routing", "v1-catch-all-model-routing"}.isdisjoint(r["name"] for r in rules)


def test_default_gateway_opt_out_is_not_consulted(upstream: Path) -> None:
    # 03 §12 #15: without gateway.refs the default gateway's annotation is ignored
    gw = {"metadata": {"name": "kserve-ingress-gateway", "namespace": "kserve",
                       "annotations": {"serving.kserve.io/model-based-routing-enabled": "false"}}}
    route = router.http_route(context(merged(upstream)), router.Cluster(gateways={("kserve", "kserve-ingress-gateway"): gw}))
    assert len(route["spec"]["rules"]) == 12


def test_routing_group_label_and_backends(upstream: Path) -> None:
    # RouterLabels + rewriteRulesForGroup with the service as its only member, first reconcile:
    # rules other than /<ns>/<name>/... get the member's backend (workload Service, the group weight)
    spec = merged(upstream, {"scheduler": {}, "route": {"group": "blue", "weight": 70}, "gateway": {}})
    route = router.http_route(context(spec))
    assert route["metadata"]["labels"]["serving.kserve.io/routing-group"] == "blue"
    member = {"group": "", "kind": "Service", "name": f"{NAME}-kserve-workload-svc", "port": 8000, "weight": 70}
    by_name = {r["name"]: r["backendRefs"] for r in route["spec"]["rules"]}
    assert by_name["v1-completions-path"] == [_pool_backend()]
    assert by_name["v1-catch-all-path"] == [_svc_backend()]
    for name in ("v1-model-routing", "v1-completions-publisher-path", "v1-publisher-path-catch-all", "v1-catch-all-model-routing"):
        assert by_name[name] == [member]


def test_routing_group_member_diverging_from_itself(upstream: Path) -> None:
    # injectGroupBackendRefs: the member (as stored) and the merged spec disagree on the model names,
    # so no member matches and the rewritten rules lose their backends
    spec = merged(upstream, {"scheduler": {}, "route": {"group": "blue", "weight": 70}, "gateway": {}})
    spec["model"]["lora"] = {"adapters": [{"name": "from-a-baseref", "uri": "hf://a/b"}]}
    rules = {r["name"]: r for r in router.http_route(context(spec))["spec"]["rules"]}
    assert "backendRefs" not in rules["v1-model-routing"]
    assert rules["v1-completions-path"]["backendRefs"] == [_pool_backend()]


def test_route_defaults() -> None:
    # gateway-api HTTPRoute CRD defaults (03 §3.1.1 notes; 01 §3.5)
    spec: dict[str, Any] = {"parentRefs": [{"name": "gw"}]}
    router.route_defaults(spec)
    assert spec == {"parentRefs": [{"name": "gw", "group": "gateway.networking.k8s.io", "kind": "Gateway"}],
                    "rules": [{"matches": [{"path": {"type": "PathPrefix", "value": "/"}}]}]}
    rule = {"matches": [{"headers": [{"name": "h", "value": "v"}], "queryParams": [{"name": "q", "value": "1"}]}],
            "backendRefs": [{"name": "svc", "filters": [{"type": "RequestMirror", "requestMirror": {"backendRef": {"name": "m"}, "fraction": {"numerator": 5}}}]}],
            "filters": [{"type": "RequestRedirect", "requestRedirect": {}}, {"type": "CORS", "cors": {}}]}
    router.route_defaults({"rules": [rule]})
    assert rule["matches"][0] == {"headers": [{"name": "h", "value": "v", "type": "Exact"}], "queryParams": [{"name": "q", "value": "1", "type": "Exact"}],
                                  "path": {"type": "PathPrefix", "value": "/"}}
    assert rule["backendRefs"][0] == {"name": "svc", "group": "", "kind": "Service", "weight": 1, "filters": [
        {"type": "RequestMirror", "requestMirror": {"backendRef": {"name": "m", "group": "", "kind": "Service"}, "fraction": {"numerator": 5, "denominator": 100}}}]}
    assert rule["filters"] == [{"type": "RequestRedirect", "requestRedirect": {"statusCode": 302}}, {"type": "CORS", "cors": {"maxAge": 5}}]


# -- scheduler variants through the plan -------------------------------------------------------------


def test_inline_config_reaches_the_epp(upstream: Path) -> None:
    inline = {"apiVersion": "llm-d.ai/v1alpha1", "kind": "EndpointPickerConfig", "plugins": [{"type": "random-picker"}]}
    objs = render(context(merged(upstream, {"scheduler": {"config": {"inline": inline}}, "route": {}})))
    args = by_kind(objs, "Deployment")["spec"]["template"]["spec"]["containers"][0]["args"]
    assert args == ["--config-text", "apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: random-picker\n"]


def test_tokenizer_objects_and_wiring(upstream: Path) -> None:
    # 03 §3.10 and §7.5: token-producer ⇒ tokenizer preset, Deployment/Service before the EPP, URL in the config
    inline = {"apiVersion": "llm-d.ai/v1alpha1", "kind": "EndpointPickerConfig",
              "plugins": [{"type": "token-producer"}, {"type": "max-score-picker"}]}
    spec = merged(upstream, {"scheduler": {"config": {"inline": inline}}, "route": {}})
    assert scheduler_spec.tokenizer_enabled(spec)
    spec["router"]["scheduler"]["tokenizer"] = preset(upstream, "config-llm-tokenizer.yaml")["router"]["scheduler"]["tokenizer"]
    objs = render(context(spec))
    assert [o["kind"] for o in objs][4:7] == ["Deployment", "Service", "Deployment"]
    tok, svc = objs[4], objs[5]
    labels = {"app.kubernetes.io/component": "tokenizer", "app.kubernetes.io/name": NAME, "app.kubernetes.io/part-of": "llminferenceservice"}
    assert tok["metadata"] == {"name": f"{NAME}-tokenizer", "namespace": NS, "labels": labels}
    assert tok["spec"]["replicas"] == 1 and tok["spec"]["selector"] == {"matchLabels": labels}
    pod = tok["spec"]["template"]["spec"]
    assert pod["automountServiceAccountToken"] is False
    assert pod["initContainers"][0]["args"] == [f"hf://{MODEL}", "/mnt/models/base"]  # what fake_attach records
    assert pod["containers"][0]["readinessProbe"]["httpGet"]["scheme"] == "HTTP"
    assert svc["spec"] == {"selector": labels, "ports": [{"name": "render-http", "port": 8000, "targetPort": "render-http", "protocol": "TCP"}]}
    config = goyaml.parse_go_yaml(objs[6]["spec"]["template"]["spec"]["containers"][0]["args"][1])
    assert config["plugins"][0]["parameters"] == {"modelName": "/mnt/models/base",
                                                  "vllm": {"url": f"http://{NAME}-tokenizer.{NS}.svc.cluster.local:8000"}}


def test_tokenizer_url_scheme_follows_tls(upstream: Path) -> None:
    # tokenizer.go tokenizerServiceURL (TestTokenizerServiceURL)
    from llmc.render import tokenizer

    assert tokenizer.tokenizer_url(context({}, tls=True)) == f"https://{NAME}-tokenizer.{NS}.svc.cluster.local:8000"


def test_tokenizer_plugin_from_configmap_stops_the_scheduler(upstream: Path) -> None:
    # a token-producer that arrives through config.ref: no tokenizer template was merged (LLMC204)
    cm = {"metadata": {"name": "epp-config", "namespace": NS}, "data": {"epp": "kind: EndpointPickerConfig\nplugins:\n- type: token-producer\n"}}
    spec = merged(upstream)
    spec["router"]["scheduler"]["config"] = {"ref": {"name": "epp-config", "key": ""}}
    findings = Findings(f"{NS}/{NAME}")
    assert router_fixups.resolve_scheduler_config_ref(spec, NS, "kserve", {(NS, "epp-config"): cm}, findings) == f"{NS}/epp-config"
    assert [f.code for f in findings.items] == ["LLMC204"]
    ctx = context(spec)
    assert [o["kind"] for o in render(ctx)] == ["ServiceAccount", "ClusterRoleBinding", "Role", "RoleBinding"]
    assert codes(ctx) == ["LLMC204"]


def test_latency_predictor_sidecars_come_from_the_merged_template(upstream: Path) -> None:
    # 03 §7.6: detection on the inline config; sidecars are pod containers, not Service ports
    inline = {"kind": "EndpointPickerConfig", "plugins": [{"type": "predicted-latency-producer"}]}
    spec = merged(upstream, {"scheduler": {"config": {"inline": inline}}, "route": {}})
    assert scheduler_spec.latency_predictor_enabled(spec)
    overlay = preset(upstream, "config-llm-scheduler-latency-predictor.yaml")["router"]["scheduler"]["template"]
    template = spec["router"]["scheduler"]["template"]
    template["containers"][0]["env"] += overlay["containers"][0]["env"]  # strategic merge by container name
    template["containers"] += overlay["containers"][1:]
    template["volumes"] += overlay["volumes"]
    objs = render(context(spec))
    pod = by_kind(objs, "Deployment")["spec"]["template"]["spec"]
    assert [c["name"] for c in pod["containers"]] == ["main", "training-server", "prediction-server"]
    assert [p["name"] for p in by_kind(objs, "Service")["spec"]["ports"]] == ["grpc", "grpc-health", "metrics", "zmq"]


def test_ha_replicas(upstream: Path) -> None:
    objs = render(context(merged(upstream, {"scheduler": {"replicas": 3}, "route": {}})))
    dep = by_kind(objs, "Deployment")
    assert dep["spec"]["replicas"] == 3
    assert dep["spec"]["template"]["spec"]["containers"][0]["args"][0] == "--ha-enable-leader-election"


def test_stopped_service_has_no_router_objects(upstream: Path) -> None:
    assert render(context(merged(upstream), annotations={"serving.kserve.io/stop": "TRUE"})) == []


# -- cluster capabilities (03 §5) --------------------------------------------------------------------


def test_missing_gateway_api_renders_nothing_and_warns(upstream: Path) -> None:
    # 03 §5: the parent Gateway read fails before the scheduler: no router object at all, RouterReady=True
    ctx = context(merged(upstream), apis=frozenset({"inference.networking.k8s.io/v1"}))
    assert render(ctx) == []
    assert codes(ctx) == ["LLMC201"]
    assert "RouterReady=True" in ctx.findings.items[0].message


def test_missing_gateway_api_without_route_keeps_the_epp(upstream: Path) -> None:
    # 03 §5: `scheduler: {}` alone never reads Gateway API
    ctx = context(merged(upstream, {"scheduler": {}}), apis=frozenset({"inference.networking.k8s.io/v1"}))
    assert by_kind(render(ctx), "InferencePool") and codes(ctx) == []


def test_missing_inference_pool_api_stops_after_the_epp_service(upstream: Path) -> None:
    # 03 §3.4: no CRD check; the v1 pool write fails (SchedulerReconcileError), no HTTPRoute
    ctx = context(merged(upstream), apis=frozenset({"gateway.networking.k8s.io/v1"}))
    assert [o["kind"] for o in render(ctx)] == ["ServiceAccount", "ClusterRoleBinding", "Role", "RoleBinding", "Deployment", "Service"]
    assert codes(ctx) == ["LLMC202"]


# -- config.ref resolution (01 §3.8) -------------------------------------------------------------------


def _ref_spec(name: str, key: str = "") -> dict[str, Any]:
    return {"router": {"scheduler": {"config": {"ref": {"name": name, "key": key}}}}}


def test_config_ref_from_the_service_namespace() -> None:
    spec = _ref_spec("mine")
    cm = {"metadata": {"name": "mine", "namespace": "ns"}, "data": {"epp": "kind: EndpointPickerConfig\n# kept\n"}}
    assert router_fixups.resolve_scheduler_config_ref(spec, "ns", "kserve", {("ns", "mine"): cm}) == "ns/mine"
    config = spec["router"]["scheduler"]["config"]
    assert "ref" not in config and scheduler_spec.inline_raw(config["inline"]) == "kind: EndpointPickerConfig\n# kept\n"
    assert config["inline"] == {"kind": "EndpointPickerConfig"}  # what the dry-run validation sees


def test_config_ref_falls_back_to_the_system_namespace_for_config_scheduler_names() -> None:
    cm = {"metadata": {"name": "config-scheduler-pd", "namespace": "kserve"}, "data": {"cfg": "kind: X\n"}}
    spec = _ref_spec("config-scheduler-pd", "cfg")
    assert router_fixups.resolve_scheduler_config_ref(spec, "ns", "kserve", {("kserve", "config-scheduler-pd"): cm}) == "kserve/config-scheduler-pd"


@pytest.mark.parametrize(
    ("name", "configmaps", "message"),
    [
        ("config-scheduler-x", {}, 'failed to get scheduler config "config-scheduler-x" from namespaces ["ns", "kserve"]: '
                                   'failed to get v1.ConfigMap kserve/config-scheduler-x from API Server: configmaps "config-scheduler-x" not found'),
        ("other", {}, 'ConfigMap / doesn\'t have key "epp" in data'),
        ("other", {("ns", "other"): {"metadata": {"name": "other", "namespace": "ns"}, "data": {"x": ""}}},
         'ConfigMap ns/other doesn\'t have key "epp" in data'),
    ],
)
def test_config_ref_errors(name: str, configmaps: dict, message: str) -> None:
    # config_merge.go combineBaseRefsConfig error texts
    with pytest.raises(LlmcError) as err:
        router_fixups.resolve_scheduler_config_ref(_ref_spec(name), "ns", "kserve", configmaps)
    assert err.value.message == message


def test_latency_producer_in_configmap_is_reported() -> None:
    # LatencyPredictorConfigRef event (01 §3.8) ⇒ LLMC204
    cm = {"metadata": {"name": "c", "namespace": "ns"}, "data": {"epp": "plugins:\n- type: predicted-latency-producer\n"}}
    findings = Findings("ns/svc")
    router_fixups.resolve_scheduler_config_ref(_ref_spec("c"), "ns", "kserve", {("ns", "c"): cm}, findings)
    assert [f.code for f in findings.items] == ["LLMC204"] and "predicted-latency-producer" in findings.items[0].message


# -- reference validation (03 §10.2) -------------------------------------------------------------------


DEFAULT_GW = {("kserve", "kserve-ingress-gateway"): {"metadata": {"name": "kserve-ingress-gateway", "namespace": "kserve"}}}


def test_validation_passes_with_the_default_gateway(upstream: Path) -> None:
    router.validate_references(context(merged(upstream)), router.Cluster(gateways=DEFAULT_GW))


@pytest.mark.parametrize(
    ("user", "cluster", "message"),
    [
        ({"route": {}, "gateway": {"refs": [{"name": "a"}, {"name": "b", "namespace": "infra"}]}}, router.Cluster(),
         f"Gateway {NS}/a does not exist; Gateway infra/b does not exist"),
        ({"route": {"http": {"refs": [{"name": "r1"}]}}, "gateway": {"refs": [{"name": "a"}]}},
         router.Cluster(gateways={(NS, "a"): {}}), f"HTTPRoute {NS}/r1 does not exist"),
        ({"route": {}}, router.Cluster(), "Managed HTTPRoute references non-existent Gateway kserve/kserve-ingress-gateway"),
        ({"route": {"http": {"refs": [{"name": "r1"}, {"name": "r2"}]}}, "gateway": {"refs": [{"name": "a"}]}},
         router.Cluster(gateways={(NS, "a"): {}}, httproutes={(NS, "r1"): {"spec": {}}, (NS, "r2"): {"spec": {"parentRefs": [{"name": "gone"}]}}}),
         f"HTTPRoute target validation failed: HTTPRoute {NS}/r1 has no parent gateway references; "
         f"HTTPRoute {NS}/r2 references non-existent Gateway {NS}/gone"),
    ],
)
def test_validation_messages(upstream: Path, user: dict[str, Any], cluster: router.Cluster, message: str) -> None:
    with pytest.raises(LlmcError) as err:
        router.validate_references(context(merged(upstream, user)), cluster)
    assert err.value.message == message
    assert "RefsInvalid" in (err.value.hint or "")


def test_validation_needs_an_inventory(upstream: Path) -> None:
    router.validate_references(context(merged(upstream)), None)  # nothing known, nothing checked


# -- status.url (03 §6) -----------------------------------------------------------------------------------


def _gateway(address: str) -> dict[str, Any]:
    return {"metadata": {"name": "kserve-ingress-gateway", "namespace": "kserve"},
            "spec": {"listeners": [{"name": "http", "protocol": "HTTP", "port": 80}]},
            "status": {"addresses": [{"value": address}]}}


ISTIO_SVC = {("kserve", "kserve-ingress-gateway-istio"): {
    "metadata": {"name": "kserve-ingress-gateway-istio", "namespace": "kserve",
                 "labels": {"gateway.networking.k8s.io/gateway-name": "kserve-ingress-gateway"}},
    "spec": {"ports": [{"port": 80}]}}}


def test_predicted_url_external_address(upstream: Path) -> None:
    # 03 §11 expected status: url http://203.0.113.10/kserve-demo/qwen2-7b-instruct-dra-minimal
    cluster = router.Cluster(gateways={("kserve", "kserve-ingress-gateway"): _gateway("203.0.113.10")}, services=ISTIO_SVC)
    assert router.predicted_url(context(merged(upstream)), cluster) == f"http://203.0.113.10/{NS}/{NAME}"


def test_predicted_url_private_address(upstream: Path) -> None:
    # 03 §11: with a private address nothing is external; first http URL with the prefix, in string order
    cluster = router.Cluster(gateways={("kserve", "kserve-ingress-gateway"): _gateway("10.0.0.7")}, services=ISTIO_SVC)
    assert router.predicted_url(context(merged(upstream)), cluster) == f"http://10.0.0.7/{NS}/{NAME}"


def test_predicted_url_unknown(upstream: Path) -> None:
    assert router.predicted_url(context(merged(upstream))) is None  # gateway addresses unknown offline
    assert router.predicted_url(context(merged(upstream, {"scheduler": {}})), router.Cluster()) is None  # no route


# -- explain ----------------------------------------------------------------------------------------------


def test_explain_lists_every_object(upstream: Path) -> None:
    ctx = context(merged(upstream))
    explained = router.explain_objects(ctx)
    assert [(k, n) for k, n, _ in explained] == [(o["kind"], o["metadata"]["name"]) for o in render(ctx)]
    assert all(why for _, _, why in explained)


def test_tokenizer_model_download_through_storage(upstream: Path) -> None:
    # tokenizer.go: attachModelArtifacts(container "main", /mnt/models/base, no LoRA). In
    # workload_storage.go attachStorageInitializer the download still goes to /mnt/models; only the
    # target's read-only mount uses modelPath; STORAGE_ALLOW_PATTERNS is for a container named "tokenizer"
    inline = {"kind": "EndpointPickerConfig", "plugins": [{"type": "token-producer"}]}
    spec = merged(upstream, {"scheduler": {"config": {"inline": inline}}})
    spec["router"]["scheduler"]["tokenizer"] = preset(upstream, "config-llm-tokenizer.yaml")["router"]["scheduler"]["tokenizer"]
    tok = [o for o in router.objects(context(spec)) if o["metadata"]["name"] == f"{NAME}-tokenizer" and o["kind"] == "Deployment"][0]
    pod = tok["spec"]["template"]["spec"]
    init = pod["initContainers"][0]
    assert init["name"] == "storage-initializer" and init["args"] == [f"hf://{MODEL}", "/mnt/models"]
    assert "STORAGE_ALLOW_PATTERNS" not in [e["name"] for e in init.get("env") or []]
    mounts = pod["containers"][0]["volumeMounts"]
    assert {"name": "kserve-provision-location", "mountPath": "/mnt/models/base", "readOnly": True} in mounts
