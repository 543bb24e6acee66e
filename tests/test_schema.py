"""llmc.admit.schema: CRD defaults (reference 01 §3.5), schema errors in the API server's words, CEL rules (01 §5.2)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from llmc.admit import schema
from llmc.core.errors import ErrorList, LlmcError
from llmc.load.documents import Document, load_text

ROOT = Path(__file__).resolve().parent.parent
BAD = Path(__file__).parent / "data" / "bad"
UPSTREAM_PRESETS = ROOT.parent / "shared" / "upstream" / "kserve" / "presets"
API = "serving.kserve.io/v1alpha2"
SVC = "LLMInferenceService"
CFG = "LLMInferenceServiceConfig"


def service(spec: dict, kind: str = SVC, **metadata) -> dict:
    return {"apiVersion": API, "kind": kind, "metadata": {"name": "demo", **metadata}, "spec": spec}


def model(**spec) -> dict:
    return {"model": {"uri": "hf://facebook/opt-125m"}, **spec}


def errors_of(obj: dict) -> list[str]:
    """Every error as `<path>: <body>`, i.e. the API server's `field.Error` text."""
    try:
        schema.validate(Document(obj, "t.yaml"))
    except ErrorList as exc:
        return [f"{e.location.path}: {e.message}" for e in exc.errors]
    return []


# --------------------------------------------------------------------------- Go formatting


def test_go_value_prints_like_field_error():
    assert [schema.go_value(v) for v in (3, 1.5, 1e6, True, "x", None, {"k": "v"})] == [
        "3", "1.5", "1e+06", "true", '"x"', "null", '{"k":"v"}']


# --------------------------------------------------------------------------- defaults (reference 01 §3.5)


def route_spec(**http_spec) -> dict:
    return model(router={"route": {"http": {"spec": http_spec}}})


def test_defaults_of_workload_fields():
    out = schema.apply_defaults(service(model(
        kvCacheOffloading={"cpu": "10Gi"},
        scaling={"maxReplicas": 3, "wva": {"keda": {"fallback": {"failureThreshold": 3, "replicas": 1}}}},
        baseRefs=[{}],
        prefill={"scaling": {"maxReplicas": 2, "keda": {"triggers": [{"type": "cpu", "metadata": {}}], "fallback": {}}}},
    )))
    spec = out["spec"]
    assert spec["kvCacheOffloading"]["evictionPolicy"] == "lru"
    assert spec["scaling"]["minReplicas"] == 1
    assert spec["scaling"]["wva"]["variantCost"] == "10.0"
    assert spec["scaling"]["wva"]["keda"]["fallback"]["behavior"] == "static"
    assert spec["prefill"]["scaling"]["keda"]["fallback"]["behavior"] == "static"
    assert spec["baseRefs"] == [{"name": ""}]


def test_defaults_of_router_fields():
    out = schema.apply_defaults(service(model(router={"scheduler": {
        "pool": {"ref": {}, "spec": {"endpointPickerRef": {"name": "epp"}, "selector": {"matchLabels": {"a": "b"}},
                                     "targetPorts": [{"number": 8000}]}},
        "config": {"ref": {"key": "epp"}},
        "template": {"containers": [{"name": "main", "ports": [{"containerPort": 9002}],
                                     "livenessProbe": {"grpc": {"port": 9003}}}]},
    }})))
    scheduler = out["spec"]["router"]["scheduler"]
    assert scheduler["pool"]["ref"] == {"name": ""}
    assert scheduler["config"]["ref"] == {"key": "epp", "name": ""}
    pool = scheduler["pool"]["spec"]
    assert pool["appProtocol"] == "http"
    assert pool["endpointPickerRef"] == {"name": "epp", "group": "", "kind": "Service", "failureMode": "FailClose"}
    container = scheduler["template"]["containers"][0]
    assert container["ports"][0]["protocol"] == "TCP"
    assert container["livenessProbe"]["grpc"]["service"] == ""


def test_defaults_of_the_http_route_spec():
    out = schema.apply_defaults(service(route_spec(
        parentRefs=[{"name": "gw"}],
        rules=[{"matches": [{"headers": [{"name": "x", "value": "y"}]}], "backendRefs": [{"name": "svc", "port": 80}]}],
    )))
    spec = out["spec"]["router"]["route"]["http"]["spec"]
    assert spec["parentRefs"] == [{"name": "gw", "group": "gateway.networking.k8s.io", "kind": "Gateway"}]
    rule = spec["rules"][0]
    assert rule["backendRefs"] == [{"name": "svc", "port": 80, "group": "", "kind": "Service", "weight": 1}]
    assert rule["matches"][0]["headers"][0]["type"] == "Exact"
    assert rule["matches"][0]["path"] == {"type": "PathPrefix", "value": "/"}


def test_http_route_spec_without_rules_gets_the_catch_all_rule():
    out = schema.apply_defaults(service(route_spec(parentRefs=[{"name": "gw"}])))
    assert out["spec"]["router"]["route"]["http"]["spec"]["rules"] == [
        {"matches": [{"path": {"type": "PathPrefix", "value": "/"}}]}
    ]


def test_defaults_apply_only_where_the_parent_exists():
    out = schema.apply_defaults(service(model()))
    assert set(out["spec"]) == {"model"}


def test_null_is_dropped_then_defaulted():
    out = schema.apply_defaults(service(model(kvCacheOffloading={"cpu": 1, "evictionPolicy": None}, tracing=None)))
    assert out["spec"]["kvCacheOffloading"]["evictionPolicy"] == "lru"
    assert "tracing" not in out["spec"]  # a null that is not nullable disappears: tracing stays off


def test_preserve_unknown_fields_subtrees_are_untouched():
    inline = {"kind": "EndpointPickerConfig", "plugins": [{"type": "x", "parameters": None}]}
    adapters = [{"name": "a", "uri": "hf://x/y", "extra": None}]
    out = schema.apply_defaults(service(model(
        router={"scheduler": {"config": {"inline": inline}}},
        model={"uri": "hf://m/n", "lora": {"adapters": adapters}},
    )))
    assert out["spec"]["router"]["scheduler"]["config"]["inline"] == inline
    assert out["spec"]["model"]["lora"]["adapters"] == adapters


def test_apply_defaults_returns_a_new_object():
    obj = service(model(kvCacheOffloading={"cpu": 1}))
    out = schema.apply_defaults(obj)
    assert "evictionPolicy" not in obj["spec"]["kvCacheOffloading"]
    assert out is not obj


def _defaults(node, where=""):
    if isinstance(node, dict):
        if "default" in node:
            yield where, node["default"]
        for key, sub in node.items():
            yield from _defaults(sub, f"{where}/{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            yield from _defaults(sub, f"{where}/{i}")


def _holds_null(value) -> bool:
    if isinstance(value, dict):
        return any(_holds_null(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_null(v) for v in value)
    return value is None


def test_no_crd_default_holds_a_null():
    """What makes defaulting idempotent, which admission relies on (`validate(defaulted=True)`): a null
    inside an inserted default would be kept by the first pass and dropped by a second."""
    for file in sorted((ROOT / "schemas" / "crd").glob("*.json")):
        found = [where for where, value in _defaults(json.loads(file.read_text())) if _holds_null(value)]
        assert not found, (file.name, found)


PRESET_FILES = sorted([*(ROOT / "presets").glob("*/*.yaml"), *UPSTREAM_PRESETS.glob("*/*.yaml"),
                       *(ROOT / "golden").glob("*/input.yaml")])


@pytest.mark.parametrize("file", PRESET_FILES, ids=[str(f.relative_to(f.parents[1])) for f in PRESET_FILES])
def test_defaulting_twice_is_defaulting_once(file: Path):
    try:
        docs = load_text(file.read_text(), str(file))
    except (ErrorList, LlmcError):  # golden error cases that are unreadable on purpose
        pytest.skip("not loadable")
    for doc in docs:
        once = schema.apply_defaults(doc.obj)
        assert schema.apply_defaults(once) == once


def test_config_crd_has_the_same_defaults():
    out = schema.apply_defaults(service(model(scaling={"maxReplicas": 2, "wva": {"hpa": {}}}), kind=CFG))
    assert out["spec"]["scaling"]["minReplicas"] == 1
    assert out["spec"]["scaling"]["wva"]["variantCost"] == "10.0"


# --------------------------------------------------------------------------- structural errors, located


@pytest.mark.parametrize(
    "name, line, col, path, message",
    [
        ("schema-unknown-field.yaml", 8, 3, "spec.workload", 'unknown field "spec.workload"'),
        ("schema-minimum.yaml", 8, 13, "spec.replicas",
         "Invalid value: -1: spec.replicas in body should be greater than or equal to 0"),
        ("schema-enum.yaml", 10, 21, "spec.kvCacheOffloading.evictionPolicy",
         'Unsupported value: "fifo": supported values: "lru", "arc"'),
        ("schema-type.yaml", 8, 13, "spec.replicas",
         'Invalid value: "string": spec.replicas in body must be of type integer: "string"'),
        ("schema-yes-is-bool.yaml", 8, 11, "spec.model.name",
         'Invalid value: "boolean": spec.model.name in body must be of type string: "boolean"'),
        ("schema-required.yaml", 7, 5, "spec.model.uri", "Required value"),
        ("schema-pattern.yaml", 10, 14, "spec.router.route.group",
         "Invalid value: \"Blue\": spec.router.route.group in body should match '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$'"),
        ("schema-cel-replicas-scaling.yaml", 6, 3, "spec",
         'Invalid value: "object": replicas and scaling are mutually exclusive; use scaling for autoscaled '
         "deployments or replicas for static deployments"),
    ],
)
def test_schema_error_is_located(name, line, col, path, message):
    file = str(BAD / name)
    (doc,) = load_text((BAD / name).read_text(), file)
    with pytest.raises(ErrorList) as info:
        schema.validate(doc)
    (err,) = info.value.errors
    assert err.message == message
    assert (err.location.file, err.location.line, err.location.col, err.location.path) == (file, line, col, path)


def test_yes_gets_a_hint_to_quote():
    (doc,) = load_text((BAD / "schema-yes-is-bool.yaml").read_text(), "y.yaml")
    with pytest.raises(ErrorList) as info:
        schema.validate(doc)
    assert "quote the value" in info.value.errors[0].hint


def test_all_errors_of_a_document_sorted_by_position():
    file = str(BAD / "schema-several.yaml")
    (doc,) = load_text((BAD / "schema-several.yaml").read_text(), file)
    with pytest.raises(ErrorList) as info:
        schema.validate(doc)
    got = [(e.location.line, e.location.col, e.location.path, e.message) for e in info.value.errors]
    assert got == [
        (8, 13, "spec.replicas", "Invalid value: -3: spec.replicas in body should be greater than or equal to 0"),
        (12, 7, "spec.template.containers[1]", 'Duplicate value: {"name":"main"}'),
        (14, 13, "spec.parallelism.tensor",
         "Invalid value: 0: spec.parallelism.tensor in body should be greater than or equal to 1"),
        (15, 3, "spec.extra", 'unknown field "spec.extra"'),
    ]
    assert str(info.value).splitlines()[0] == (
        f"{file}:8:13: spec.replicas: Invalid value: -3: spec.replicas in body should be greater than or equal to 0"
    )


def test_cel_error_on_a_route_path_is_located():
    file = str(BAD / "schema-cel-route-path.yaml")
    (doc,) = load_text((BAD / "schema-cel-route-path.yaml").read_text(), file)
    with pytest.raises(ErrorList) as info:
        schema.validate(doc)
    path = "spec.router.route.http.spec.rules[0].matches[0].path"
    assert [(e.location.line, e.location.col, e.location.path, e.message) for e in info.value.errors] == [
        (15, 17, path, "Invalid value: \"object\": value must be an absolute path and start with '/' when type one "
                       "of ['Exact', 'PathPrefix']"),
        (15, 17, path, "Invalid value: \"object\": must not contain '//' when type one of ['Exact', 'PathPrefix']"),
        (18, 15, "spec.router.route.http.spec.rules[0].backendRefs[0]",
         'Invalid value: "object": Must have port for Service reference'),
    ]


def test_metadata_name_and_namespace():
    (doc,) = load_text((BAD / "schema-metadata-name.yaml").read_text(), "m.yaml")
    with pytest.raises(ErrorList) as info:
        schema.validate(doc)
    assert [(e.location.path, e.message) for e in info.value.errors] == [
        ("metadata.name", "Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case "
                          "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character "
                          "(e.g. 'example.com', regex used for validation is "
                          "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
        ("metadata.namespace", 'Invalid value: "team.a": must not contain dots'),
    ]


def test_metadata_name_is_required():
    assert errors_of({"apiVersion": API, "kind": SVC, "metadata": {}, "spec": model()}) == [
        "metadata.name: Required value: name or generateName is required"
    ]


def test_metadata_labels_and_unknown_metadata_fields():
    obj = service(model(), labels={"app": "a b", "ok": "fine"}, color="red")
    assert errors_of(obj) == [
        'metadata.color: unknown field "metadata.color"',
        "metadata.labels.app: Invalid value: \"a b\": a valid label must be an empty string or consist of "
        "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
        "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
        "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]


@pytest.mark.parametrize(
    "spec, expected",
    [
        (model(replicas=1.5), 'spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"'),
        (model(kvCacheOffloading={"cpu": True}),
         'spec.kvCacheOffloading.cpu: Invalid value: "boolean": spec.kvCacheOffloading.cpu in body must be of type '
         'integer,string: "boolean"'),
        (model(router={"route": {"weight": 2000000, "group": "g"}}),
         "spec.router.route.weight: Invalid value: 2000000: spec.router.route.weight in body should be less than or "
         "equal to 1e+06"),
        (model(router={"route": {"group": "a-", "weight": 1}}),
         "spec.router.route.group: Invalid value: \"a-\": spec.router.route.group in body should match "
         "'^[a-z0-9]([a-z0-9-]*[a-z0-9])?$'"),
        (model(router={"route": {"http": {"spec": {"rules": [{"matches": [{"headers": [{"name": "x", "value": ""}]}]}]}}}}),
         'spec.router.route.http.spec.rules[0].matches[0].headers[0].value: Invalid value: "": '
         "spec.router.route.http.spec.rules[0].matches[0].headers[0].value in body should be at least 1 chars long"),
        (model(router={"route": {"group": "a" * 64, "weight": 1}}),
         "spec.router.route.group: Too long: may not be more than 63 bytes"),
        (model(router={"route": {"http": {"spec": {"hostnames": [f"h{i}.example.com" for i in range(17)]}}}}),
         "spec.router.route.http.spec.hostnames: Too many: 17: must have at most 16 items"),
        (model(router={"scheduler": {"pool": {"spec": {"endpointPickerRef": {"name": "e", "port": {"number": 1}},
                                                          "selector": {"matchLabels": {}},
                                                          "targetPorts": [{"number": 8000}]}}}}),
         "spec.router.scheduler.pool.spec.selector.matchLabels: Invalid value: 0: "
         "spec.router.scheduler.pool.spec.selector.matchLabels in body should have at least 1 properties"),
    ],
)
def test_structural_messages(spec, expected):
    assert errors_of(service(spec)) == [expected]


def test_unknown_fields_are_allowed_under_preserve_unknown_fields():
    obj = service(model(router={"scheduler": {"config": {"inline": {"anything": {"goes": [1, 2]}}}}},
                        model={"uri": "hf://a/b", "lora": {"adapters": [{"name": "x", "whatever": 1}]}}))
    assert errors_of(obj) == []


# --------------------------------------------------------------------------- CEL rules (reference 01 §5.2 and Gateway API)


def cel(spec: dict) -> list[str]:
    return errors_of(service(spec))


def test_every_cel_rule_of_both_crds_has_a_check():
    assert schema.unsupported_rules(API, SVC) == []
    assert schema.unsupported_rules(API, CFG) == []


@pytest.mark.parametrize("where", ["", "prefill."])
@pytest.mark.parametrize(
    "scaling, path, message",
    [
        ({"maxReplicas": 2}, "scaling", "either wva or keda must be specified when scaling is configured"),
        ({"maxReplicas": 2, "wva": {"hpa": {}}, "keda": {"triggers": [{"type": "cpu", "metadata": {}}]}},
         "scaling", "wva and keda are mutually exclusive"),
        ({"minReplicas": 3, "maxReplicas": 2, "wva": {"hpa": {}}}, "scaling", "minReplicas cannot exceed maxReplicas"),
        ({"minReplicas": 2, "maxReplicas": 4, "wva": {"keda": {"idleReplicaCount": 2}}}, "scaling",
         "idleReplicaCount must be less than minReplicas; idleReplicaCount defines the replica floor when no "
         "triggers are active"),
        ({"minReplicas": 1, "maxReplicas": 4, "keda": {"idleReplicaCount": 1, "triggers": [{"type": "cpu", "metadata": {}}]}},
         "scaling", "idleReplicaCount must be less than minReplicas; idleReplicaCount defines the replica floor when "
         "no triggers are active"),
        ({"maxReplicas": 2, "wva": {"hpa": {}, "keda": {}}}, "scaling.wva",
         "hpa and keda are mutually exclusive; choose one actuator backend"),
        ({"maxReplicas": 2, "wva": {}}, "scaling.wva", "either hpa or keda must be specified as the actuator backend"),
        ({"maxReplicas": 2, "wva": {"keda": {"advanced": {"scalingModifiers": {"formula": "a+b"}}}}}, "scaling.wva",
         "scalingModifiers must not be set; WVA controls the scaling metric formula and logic"),
        ({"maxReplicas": 2, "keda": {"triggers": [{"type": "cpu", "metadata": {}}],
                                     "advanced": {"horizontalPodAutoscalerConfig": {"name": "mine"}}}},
         "scaling.keda", "horizontalPodAutoscalerConfig.name must not be set; the controller manages the HPA name"),
    ],
)
def test_scaling_rules(where, scaling, path, message):
    spec = model(scaling=scaling) if not where else model(prefill={"scaling": scaling})
    assert cel(spec) == [f'spec.{where}{path}: Invalid value: "object": {message}']


def test_direct_keda_needs_triggers():
    assert cel(model(scaling={"maxReplicas": 2, "keda": {"triggers": []}})) == [
        'spec.scaling: Invalid value: "object": at least one trigger is required when using direct KEDA scaling',
        "spec.scaling.keda.triggers: Invalid value: 0: spec.scaling.keda.triggers in body should have at least 1 items",
    ]


def test_direct_keda_may_set_scaling_modifiers():
    scaling = {"maxReplicas": 2, "keda": {"triggers": [{"type": "cpu", "metadata": {}}],
                                          "advanced": {"scalingModifiers": {"formula": "a"}}}}
    assert cel(model(scaling=scaling)) == []


def pool(**over) -> dict:
    spec = {"endpointPickerRef": {"name": "epp", "port": {"number": 9002}},
            "selector": {"matchLabels": {"app": "x"}}, "targetPorts": [{"number": 8000}]}
    spec.update(over)
    return model(router={"scheduler": {"pool": {"spec": spec}}})


def test_pool_rules():
    base = "spec.router.scheduler.pool.spec"
    assert cel(pool()) == []
    assert cel(pool(endpointPickerRef={"name": "epp"})) == [
        f'{base}.endpointPickerRef: Invalid value: "object": port is required when kind is \'Service\' or '
        "unspecified (defaults to 'Service')"
    ]
    assert cel(pool(endpointPickerRef={"name": "epp", "kind": "Other", "group": "x.io"})) == []
    assert cel(pool(targetPorts=[{"number": 8000}, {"number": 8001}, {"number": 8000}])) == [
        f'{base}.targetPorts: Invalid value: "array": port number must be unique'
    ]


def rule(**fields) -> dict:
    return route_spec(rules=[fields])


PATH = "spec.router.route.http.spec.rules[0].matches[0].path"


@pytest.mark.parametrize(
    "value, messages",
    [
        ("/v1/completions", []),
        ("v1", ["value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']"]),
        ("/a/./b", ["must not contain '/./' when type one of ['Exact', 'PathPrefix']"]),
        ("/a/../b", ["must not contain '/../' when type one of ['Exact', 'PathPrefix']"]),
        ("/a%2fb", ["must not contain '%2f' when type one of ['Exact', 'PathPrefix']"]),
        ("/a%2Fb", ["must not contain '%2F' when type one of ['Exact', 'PathPrefix']"]),
        ("/a#b", ["must not contain '#' when type one of ['Exact', 'PathPrefix']",
                  "must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) "
                  "for types ['Exact', 'PathPrefix']"]),
        ("/a/..", ["must not end with '/..' when type one of ['Exact', 'PathPrefix']"]),
        ("/a/.", ["must not end with '/.' when type one of ['Exact', 'PathPrefix']"]),
        ("/a b", ["must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) "
                  "for types ['Exact', 'PathPrefix']"]),
    ],
)
def test_path_value_rules(value, messages):
    spec = rule(matches=[{"path": {"type": "Exact", "value": value}}])
    assert cel(spec) == [f'{PATH}: Invalid value: "object": {m}' for m in messages]


def test_regular_expression_paths_are_not_checked_as_paths():
    assert cel(rule(matches=[{"path": {"type": "RegularExpression", "value": "v1.*"}}])) == []


def test_path_type_rule():
    got = cel(rule(matches=[{"path": {"type": "Glob", "value": "/x"}}]))
    assert f"{PATH}: Invalid value: \"object\": type must be one of ['Exact', 'PathPrefix', 'RegularExpression']" in got


def test_service_backend_needs_a_port():
    base = "spec.router.route.http.spec.rules[0].backendRefs[0]"
    assert cel(rule(backendRefs=[{"name": "svc"}])) == [
        f'{base}: Invalid value: "object": Must have port for Service reference'
    ]
    assert cel(rule(backendRefs=[{"name": "svc", "port": 8000}])) == []
    assert cel(rule(backendRefs=[{"name": "pool", "group": "inference.networking.k8s.io", "kind": "InferencePool"}])) == []


def test_filter_rules():
    base = "spec.router.route.http.spec.rules[0].filters"
    modifier = {"type": "RequestHeaderModifier", "requestHeaderModifier": {"set": [{"name": "a", "value": "b"}]}}
    assert cel(rule(filters=[modifier, modifier])) == [
        f'{base}: Invalid value: "array": RequestHeaderModifier filter cannot be repeated'
    ]
    assert cel(rule(filters=[{"type": "URLRewrite"}])) == [
        f'{base}[0]: Invalid value: "object": filter.urlRewrite must be specified for URLRewrite filter.type'
    ]
    assert cel(rule(filters=[{"type": "RequestHeaderModifier", "requestHeaderModifier": {}, "urlRewrite": {}}])) == [
        f'{base}[0]: Invalid value: "object": filter.urlRewrite must be nil if the filter.type is not URLRewrite'
    ]
    both = [{"type": "RequestRedirect", "requestRedirect": {"hostname": "a.example.com"}},
            {"type": "URLRewrite", "urlRewrite": {"hostname": "b.example.com"}}]
    assert cel(rule(filters=both)) == [
        f'{base}: Invalid value: "array": May specify either httpRouteFilterRequestRedirect or '
        "httpRouteFilterRequestRewrite, but not both"
    ]


def test_redirect_with_backends_and_prefix_rewrite_rules():
    base = "spec.router.route.http.spec.rules[0]"
    redirect = {"type": "RequestRedirect", "requestRedirect": {"hostname": "a.example.com"}}
    assert cel(rule(filters=[redirect], backendRefs=[{"name": "s", "port": 80}])) == [
        f'{base}: Invalid value: "object": RequestRedirect filter must not be used together with backendRefs'
    ]
    rewrite = {"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/v1"}}}
    exact = [{"path": {"type": "Exact", "value": "/a"}}]
    assert cel(rule(filters=[rewrite], matches=exact)) == [
        f'{base}: Invalid value: "object": When using URLRewrite filter with path.replacePrefixMatch, exactly one '
        "PathPrefix match must be specified"
    ]
    assert cel(rule(filters=[rewrite], matches=[{"path": {"type": "PathPrefix", "value": "/a"}}])) == []
    assert cel(rule(backendRefs=[{"name": "s", "port": 80, "filters": [rewrite]}], matches=exact)) == [
        f'{base}: Invalid value: "object": Within backendRefs, When using URLRewrite filter with '
        "path.replacePrefixMatch, exactly one PathPrefix match must be specified"
    ]


def test_path_modifier_and_mirror_rules():
    base = "spec.router.route.http.spec.rules[0].filters[0]"
    modifier = {"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplaceFullPath"}}}
    assert cel(rule(filters=[modifier])) == [
        f"{base}.urlRewrite.path: Invalid value: \"object\": replaceFullPath must be specified when type is set to "
        "'ReplaceFullPath'"
    ]
    modifier = {"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplaceFullPath", "replacePrefixMatch": "/x"}}}
    assert f"{base}.urlRewrite.path: Invalid value: \"object\": type must be 'ReplacePrefixMatch' when " \
           "replacePrefixMatch is set" in cel(rule(filters=[modifier]))
    mirror = {"type": "RequestMirror", "requestMirror": {"backendRef": {"name": "m", "port": 80}, "percent": 10,
                                                         "fraction": {"numerator": 200}}}
    assert cel(rule(filters=[mirror])) == [
        f'{base}.requestMirror: Invalid value: "object": Only one of percent or fraction may be specified in '
        "HTTPRequestMirrorFilter",
        f'{base}.requestMirror.fraction: Invalid value: "object": numerator must be less than or equal to denominator',
    ]


def test_timeouts_session_persistence_and_total_matches():
    base = "spec.router.route.http.spec.rules"
    assert cel(rule(timeouts={"request": "10s", "backendRequest": "1m"})) == [
        f'{base}[0].timeouts: Invalid value: "object": backendRequest timeout cannot be longer than request timeout'
    ]
    assert cel(rule(timeouts={"request": "0s", "backendRequest": "1m"})) == []
    assert cel(rule(timeouts={"request": "1h", "backendRequest": "59m30s"})) == []
    assert cel(rule(sessionPersistence={"type": "Header", "cookieConfig": {"lifetimeType": "Session"}})) == [
        f'{base}[0].sessionPersistence: Invalid value: "object": cookieConfig can only be set with type Cookie'
    ]
    assert cel(rule(sessionPersistence={"cookieConfig": {"lifetimeType": "Permanent"}})) == [
        f'{base}[0].sessionPersistence: Invalid value: "object": AbsoluteTimeout must be specified when cookie '
        "lifetimeType is Permanent"
    ]
    many = [{"matches": [{"path": {"type": "PathPrefix", "value": f"/{r}-{m}"}} for m in range(43)]} for r in range(3)]
    assert cel(route_spec(rules=many)) == [
        f'{base}: Invalid value: "array": While 16 rules and 64 matches per rule are allowed, the total number of '
        "matches across all rules in a route must be less than 128"
    ]
    assert cel(route_spec(rules=many[:2] + [{"matches": many[2]["matches"][:42]}])) == []


def test_cors_wildcard_rule():
    cors = {"type": "CORS", "cors": {"allowMethods": ["*", "GET"]}}
    assert cel(rule(filters=[cors])) == [
        "spec.router.route.http.spec.rules[0].filters[0].cors.allowMethods: Invalid value: \"array\": "
        "AllowMethods cannot contain '*' alongside other methods"
    ]


def test_config_crd_keeps_workload_rules_but_not_route_rules():
    config = service(model(replicas=1, scaling={"maxReplicas": 2, "wva": {"hpa": {}}},
                           router={"route": {"http": {"spec": {"rules": [{"matches": [{"path": {"value": "{{ x }}"}}]}]}}}}),
                     kind=CFG)
    assert errors_of(config) == [
        'spec: Invalid value: "object": replicas and scaling are mutually exclusive; use scaling for autoscaled '
        "deployments or replicas for static deployments"
    ]


# --------------------------------------------------------------------------- upstream data


def test_shipped_presets_are_valid(upstream):
    for file in sorted((upstream / "kserve" / "presets" / "master").glob("*.yaml")):
        for doc in load_text(file.read_text(), str(file)):
            schema.validate(doc)


def test_configmap_data_must_be_strings():
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "x", "b": 1}}
    assert errors_of(obj) == ['data.b: Invalid value: "integer": data.b in body must be of type string: "integer"']


def test_validation_is_fast(upstream):
    text = (upstream / "kserve" / "samples" / "single-node-gpu" / "llm-inference-service-pd-qwen2-7b-gpu.yaml").read_text()
    (doc,) = load_text(text, "s.yaml")
    schema.validate(doc)  # schema read once per process
    start = time.perf_counter()
    for _ in range(50):
        schema.validate(doc)
    assert (time.perf_counter() - start) / 50 < 0.01


# --------------------------------------------------------------------------- the clean-subtree cache


def _deep(port) -> dict:
    """A service whose deep subtree (spec.template.containers[0].ports[0], depth 6) is looked up in the cache."""
    container = {"name": "main", "ports": [{"containerPort": port, "protocol": "TCP"}]}
    return service(model(template={"containers": [container]}))


def test_a_subtree_seen_clean_is_checked_again_when_it_changes():
    schema._CLEAN.clear()
    assert errors_of(_deep(8000)) == []
    assert any(key[1] for key in schema._CLEAN)  # the clean subtrees were remembered
    bad = errors_of(_deep("8000x"))
    assert bad and "containerPort" in bad[0]
    assert errors_of(_deep(8000)) == []


def test_a_subtree_with_errors_reports_them_every_time():
    schema._CLEAN.clear()
    first = errors_of(_deep(True))
    assert first and errors_of(_deep(True)) == first


def test_the_cache_gives_the_errors_of_the_plain_walk(monkeypatch):
    objs = [_deep(p) for p in (8000, "x", True, 1.5, 8000, None, "x")]
    objs.append(service(model(template={"containers": [{"name": "m", "bogus": 1, "ports": [{"containerPort": 1}]}]})))
    cached = [errors_of(o) for o in objs]
    monkeypatch.setattr(schema, "_CACHE_DEPTH", 0)
    assert [errors_of(o) for o in objs] == cached


_ITEM_SCALARS = [1, 1.0, 2, True, False, None, "1", "true", "a", "", "é", "\u2028", "<&>"]


def _list_items():
    from hypothesis import strategies as st

    scalars = st.sampled_from(_ITEM_SCALARS)
    keyed = st.dictionaries(st.sampled_from(["name", "port", "a"]), scalars, max_size=2)
    strings = st.dictionaries(st.sampled_from(["name", "port", "a"]), st.sampled_from(["1", "a", "", "é"]), max_size=2)
    return st.one_of(scalars, keyed, strings, st.lists(scalars, max_size=2))


def test_list_item_identities_are_equal_when_their_json_is() -> None:
    """schema._identity_key (the duplicate check's key) against the JSON text it stands for: 1 and 1.0
    are the same item, "1" and 1 are not, objects of strings compare by their pairs."""
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from llmc.go.json import marshal

    @settings(max_examples=500, deadline=None)
    @given(st.lists(_list_items(), min_size=2, max_size=6))
    def check(items: list) -> None:
        for a in items:
            for b in items:
                assert (schema._identity_key(a) == schema._identity_key(b)) == (marshal(a) == marshal(b)), (a, b)

    check()
