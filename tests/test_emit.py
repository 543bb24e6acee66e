"""Deterministic output: install order of kinds, canonical key order, YAML/JSON text."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from llmc.output.emit import needs_quotes, order_keys, to_json, to_yaml
from llmc.k8s.install_order import INSTALL_ORDER, UNKNOWN_RANK, kind_rank, sort_objects

ROOT = Path(__file__).resolve().parent.parent
BOUNDED = settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def yaml11(text: str) -> list[Any]:
    return list(yaml.safe_load_all(text))


def yaml12(text: str) -> list[Any]:
    return list(YAML(typ="safe", pure=True).load_all(text))


def typed(value: Any) -> str:
    """Text that tells apart what ``==`` does not: True/1, 1/1.0, key order, str/date."""
    return json.dumps(value, ensure_ascii=False)


def obj(kind: str, name: str, namespace: str | None = None, api: str = "v1", **rest: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name}
    if namespace is not None:
        meta["namespace"] = namespace
    return {"apiVersion": api, "kind": kind, "metadata": meta, **rest}


# --- strategies -------------------------------------------------------------

# Strings YAML 1.1 (PyYAML, go-yaml) or 1.2 (ruamel) would read as something else,
# or that the syntax forbids unquoted.
RESERVED = [
    "y", "Y", "n", "N", "yes", "Yes", "NO", "on", "On", "off", "OFF", "true", "True", "FALSE",
    "null", "Null", "~", "", "<<", "=",
    "1e3", "1E3", "-1e-3", "0o7", "0O17", "0x1F", "0X1f", "-0x1f", "0b101", "012", "0_12", "1_000", "1__0", "0_x1F",
    ".5", "5.", "+1", "-1", "+.5", ".inf", "-.Inf", "+.INF", ".NaN", ".nan", "1:20", "190:20:30.15", "1.2.3", ".",
    "0", "-0", "00", "99999999999999999999", "1.0e+20", "+_", "0x_", "._",
    "2001-12-14", "2001-1-2", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2002-12-14T00:00:00Z",
    "*ref", "&anchor", "!tag", "!!str", "%TAG", "@x", "`x", "|x", ">x", "'x", '"x', "#x", "- x", "-", "? x", "?",
    ": x", ":", "{a}", "[a]", ",x", "x,", "]", "}", "a: b", "a #b", "a:", "---", "...", "--- x", "... x",
    " lead", "trail ", "\ttab", "tab\t", "é", "漢字", "\U0001F600", "a\u00a0", "\ufeffbom",
]
FRAGMENTS = RESERVED + [
    "\n", "\n\n", " \n", "\t\n", "\r\n", "\r", "\x85", "\u2028", "\u2029", "\x00", "\x07", "\x1b", "\x7f", "\x9f",
    "x", "abc", "--flag=1", "  ", "key: value", " # comment", "\"", "'", "\\",
]

tricky = st.one_of(
    st.sampled_from(RESERVED),
    st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=6).map("".join),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=12),
)
scalars = st.one_of(
    tricky,
    st.integers(min_value=-(2**70), max_value=2**70),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False, allow_infinity=False),
)
trees = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(tricky, inner, max_size=4),
    max_leaves=20,
)
string_maps = st.dictionaries(tricky, tricky, max_size=4)
objects = st.builds(
    lambda kind, name, labels, spec: {
        "apiVersion": "v1",
        "kind": kind,
        "metadata": {"name": name, "labels": labels},
        "spec": spec,
    },
    st.sampled_from(["ConfigMap", "Deployment", "LeaderWorkerSet", "Widget"]),
    tricky,
    string_maps,
    trees,
)


# --- YAML round trip --------------------------------------------------------


@BOUNDED
@given(st.lists(objects, min_size=1, max_size=3))
def test_yaml_round_trips_through_yaml11_and_yaml12(objs: list[dict[str, Any]]) -> None:
    text = to_yaml(objs)
    want = typed([order_keys(o) for o in objs])
    assert typed(yaml11(text)) == want
    assert typed(yaml12(text)) == want
    assert typed(json.loads(to_json(objs))["items"]) == want
    events = list(yaml.parse(text, Loader=yaml.CSafeLoader))
    assert not any(getattr(e, "anchor", None) or getattr(e, "tag", None) for e in events)  # no anchors, aliases, tags


@pytest.mark.parametrize("text", RESERVED)
def test_reserved_strings_round_trip_as_strings(text: str) -> None:
    out = to_yaml([{"v": text, text: "k"}])
    for load in (yaml11, yaml12):
        assert load(out) == [{"v": text, text: "k"}]


GO_YAML_ONLY = ["y", "Y", "n", "N", "2001-1-2", "2001-1-2 3:4:5", "0_x1F", "0O17", "1__0", "-0b1_01", "0o7"]


@pytest.mark.parametrize("text", GO_YAML_ONLY)
def test_strings_only_go_yaml_or_yaml12_misreads_are_quoted(text: str) -> None:
    # PyYAML reads these plain as strings, so the round trip cannot catch them.
    assert needs_quotes(text)
    assert to_yaml([{"v": text}]) == f"---\nv: '{text}'\n"


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl not installed")
def test_kubectl_reads_back_the_same_values(tmp_path: Path) -> None:
    """kubectl's own reader (sigs.k8s.io/yaml, go-yaml v2), offline via ``label --local``."""
    texts = sorted(set(RESERVED + GO_YAML_ONLY + [a + b for a in FRAGMENTS for b in ("", "\n", " ", "x", "\n\n")]))
    scalars = [0, -1, 2**62, 0.5, 1e20, 1.5e-07, True, False, None]
    spec = {"values": texts, "keys": {t: i for i, t in enumerate(texts)}, "scalars": scalars}
    objs = [obj("Widget", "w", api="example.com/v1", spec=spec)]
    (tmp_path / "in.yaml").write_text(to_yaml(objs), encoding="utf-8")
    result = subprocess.run(
        ["kubectl", "label", "--local", "-f", str(tmp_path / "in.yaml"), "checked=yes", "-o", "json"],
        capture_output=True, text=True, encoding="utf-8", check=True, env={**os.environ, "KUBECONFIG": os.devnull},
    )
    back = json.loads(result.stdout)["spec"]
    assert back["values"] == texts
    assert back["keys"] == spec["keys"]
    assert back["scalars"] == scalars  # Go prints 1e20 as an integer: compare values
    assert [type(v) for v in back["scalars"][-3:]] == [bool, bool, type(None)]


@pytest.mark.parametrize("text", ["abc", "v0.2.0", "10Gi", "100m", "nvidia.com/gpu", "--port=8000", "a-b", "e", "_1", "x1e3"])
def test_ordinary_strings_stay_plain(text: str) -> None:
    assert not needs_quotes(text)
    assert to_yaml([{"v": text}]) == f"---\nv: {text}\n"


def test_scalars_other_than_strings() -> None:
    doc = {"i": 8000, "neg": -1, "big": 2**70, "t": True, "f": False, "z": None, "half": 0.5, "one": 1.0, "e": 1e20, "tiny": 1.5e-07}
    assert to_yaml([doc]) == (
        "---\ni: 8000\nneg: -1\nbig: 1180591620717411303424\nt: true\nf: false\nz: null\n"
        "half: 0.5\none: 1.0\ne: 1.0e+20\ntiny: 1.5e-07\n"
    )
    assert typed(yaml11(to_yaml([doc]))) == typed([doc])
    assert typed(yaml12(to_yaml([doc]))) == typed([doc])


# --- YAML text ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("a\nb\n", "v: |\n  a\n  b\n"),
        ("a\nb", "v: |-\n  a\n  b\n"),
        ("a\n\n", "v: |+\n  a\n\n"),
        (" lead\nx", "v: |2-\n   lead\n  x\n"),
        ("#!/bin/sh\nset -e\nexec vllm serve \"$MODEL\" --port 8000\n",
         "v: |\n  #!/bin/sh\n  set -e\n  exec vllm serve \"$MODEL\" --port 8000\n"),
        ("é\n漢", "v: |-\n  é\n  漢\n"),
    ],
)
def test_multiline_strings_are_literal_blocks(value: str, text: str) -> None:
    out = to_yaml([{"v": value, "w": 1}])
    assert out == f"---\n{text}w: 1\n"
    assert yaml11(out) == yaml12(out) == [{"v": value, "w": 1}]


def test_literal_block_in_sequences_and_nested_maps() -> None:
    out = to_yaml([{"args": ["a\nb\n"], "m": {"k": "c\nd"}}])
    assert out == "---\nargs:\n- |\n  a\n  b\nm:\n  k: |-\n    c\n    d\n"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("a \nb", '"a \\nb"'),  # trailing space on a line
        ("a\nb ", '"a\\nb "'),  # trailing space at the end
        ("a\tb\nc", '"a\\tb\\nc"'),  # tab
        ("a\r\nb", '"a\\r\\nb"'),  # carriage return
        ("a\u2028b", '"a\\Lb"'),  # YAML 1.1 line break, 1.2 character
        ("a\x85b", '"a\\Nb"'),
        ("\U0001F600", '"\\U0001F600"'),  # outside the BMP: libyaml escapes
    ],
)
def test_strings_libyaml_will_not_block_are_double_quoted(value: str, text: str) -> None:
    out = to_yaml([{"v": value}])
    assert out == f"---\nv: {text}\n"
    assert yaml11(out) == yaml12(out) == [{"v": value}]


def test_kept_trailing_newlines_at_the_end_of_the_stream() -> None:
    out = to_yaml([{"v": "a\n\n"}])
    assert out == "---\nv: |+\n  a\n\n"  # libyaml's "..." trailer is dropped
    assert yaml11(out + out) == yaml12(out + out) == [{"v": "a\n\n"}] * 2


def test_long_keys_round_trip() -> None:
    key = "example.com/" + "k" * 200
    out = to_yaml([{"metadata": {"annotations": {key: "v"}}}])
    assert yaml11(out) == yaml12(out) == [{"metadata": {"annotations": {key: "v"}}}]


def test_stream_layout() -> None:
    assert to_yaml([]) == ""
    out = to_yaml([obj("Service", "a"), obj("Service", "b")])
    assert out == "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: b\n"


def test_kubectl_style_indentation_and_empty_collections() -> None:
    out = to_yaml([{"spec": {"containers": [{"name": "c", "ports": [{"containerPort": 8000}]}], "e": {}, "l": []}}])
    assert out == (
        "---\nspec:\n  containers:\n  - name: c\n    ports:\n    - containerPort: 8000\n  e: {}\n  l: []\n"
    )


def test_long_strings_are_not_folded() -> None:
    value = "--kv-transfer-config " + " ".join(["{\"kv_connector\":\"NixlConnector\"}"] * 20)
    out = to_yaml([{"v": value}])
    assert out == f"---\nv: {value}\n"


def test_no_anchors_for_shared_objects() -> None:
    labels = {"app": "x"}
    deploy = obj("Deployment", "d", spec={"selector": {"matchLabels": labels}, "template": {"metadata": {"labels": labels}}})
    out = to_yaml([deploy, deploy])
    assert "&" not in out and "*" not in out
    assert yaml11(out) == [deploy, deploy]


def test_unicode_is_written_as_is() -> None:
    out = to_yaml([{"v": "café 漢字"}])
    assert out == "---\nv: café 漢字\n"
    assert '"café 漢字"' in to_json([{"v": "café 漢字"}])


# --- key order ----------------------------------------------------------------


def test_top_level_and_metadata_key_order() -> None:
    raw = {
        "status": {}, "type": "Opaque", "data": {}, "spec": {}, "rules": [],
        "metadata": {"uid": "u", "finalizers": [], "ownerReferences": [], "annotations": {}, "labels": {},
                     "namespace": "ns", "generateName": "g", "name": "n", "resourceVersion": "1"},
        "kind": "Widget", "apiVersion": "example.com/v1", "stringData": {},
    }
    out = order_keys(raw)
    assert list(out) == ["apiVersion", "kind", "metadata", "spec", "data", "stringData", "type", "status", "rules"]
    assert list(out["metadata"]) == [
        "name", "generateName", "namespace", "labels", "annotations", "ownerReferences", "finalizers", "uid", "resourceVersion",
    ]


def test_unordered_maps_are_sorted_everywhere_and_the_rest_keeps_its_order() -> None:
    raw = obj(
        "Deployment", "d", api="apps/v1",
        spec={
            "selector": {"matchLabels": {"b": "1", "a": "2"}},
            "template": {
                "metadata": {"annotations": {"z": "1", "a": "2"}, "labels": {"y": "1", "b": "2"}},
                "spec": {
                    "nodeSelector": {"zone": "a", "arch": "amd64"},
                    "containers": [{
                        "name": "c", "image": "i",
                        "resources": {"requests": {"memory": "1Gi", "cpu": 1}, "limits": {"nvidia.com/gpu": 1, "cpu": 2},
                                      "claims": [{"name": "z"}, {"name": "a"}]},
                        "env": [{"name": "Z", "value": "1"}, {"name": "A", "value": "2"}],
                    }],
                },
            },
        },
    )
    out = order_keys(raw)
    spec = out["spec"]
    assert list(spec) == ["selector", "template"]
    assert list(spec["selector"]["matchLabels"]) == ["a", "b"]
    assert list(spec["template"]["metadata"]) == ["annotations", "labels"]  # nested metadata keeps its order
    assert list(spec["template"]["metadata"]["annotations"]) == ["a", "z"]
    assert list(spec["template"]["metadata"]["labels"]) == ["b", "y"]
    pod = spec["template"]["spec"]
    assert list(pod["nodeSelector"]) == ["arch", "zone"]
    container = pod["containers"][0]
    assert list(container) == ["name", "image", "resources", "env"]
    assert list(container["resources"]) == ["requests", "limits", "claims"]
    assert list(container["resources"]["requests"]) == ["cpu", "memory"]
    assert list(container["resources"]["limits"]) == ["cpu", "nvidia.com/gpu"]
    assert [c["name"] for c in container["resources"]["claims"]] == ["z", "a"]
    assert [e["name"] for e in container["env"]] == ["Z", "A"]


def test_selector_is_sorted_only_when_it_is_a_string_map() -> None:
    service = order_keys(obj("Service", "s", spec={"selector": {"b": "1", "a": "2"}}))
    assert list(service["spec"]["selector"]) == ["a", "b"]
    pool = order_keys(obj("InferencePool", "p", spec={"selector": {"matchLabels": {"b": "1", "a": "2"}, "matchExpressions": []}}))
    assert list(pool["spec"]["selector"]) == ["matchLabels", "matchExpressions"]
    assert list(pool["spec"]["selector"]["matchLabels"]) == ["a", "b"]


def test_configmap_and_secret_data_are_sorted_other_data_is_not() -> None:
    cm = order_keys(obj("ConfigMap", "c", data={"b": "1", "a": "2"}, binaryData={"y": "", "x": ""}))
    assert list(cm["data"]) == ["a", "b"] and list(cm["binaryData"]) == ["x", "y"]
    secret = order_keys(obj("Secret", "s", data={"tls.key": "", "tls.crt": ""}, stringData={"b": "", "a": ""}))
    assert list(secret["data"]) == ["tls.crt", "tls.key"] and list(secret["stringData"]) == ["a", "b"]
    other = order_keys(obj("Widget", "w", data={"b": "1", "a": "2"}))
    assert list(other["data"]) == ["b", "a"]


def test_order_keys_copies_and_leaves_the_input_alone() -> None:
    raw = obj("Service", "s", spec={"selector": {"b": "1", "a": "2"}, "ports": [{"port": 80}]})
    before = json.dumps(raw)
    out = order_keys(raw)
    out["spec"]["ports"].append({"port": 81})
    assert json.dumps(raw) == before


@pytest.mark.parametrize(
    ("bad", "error"),
    [((1, 2), TypeError), ({1, 2}, TypeError), ({1: "a"}, TypeError), (b"x", TypeError), (float("nan"), ValueError), (float("inf"), ValueError)],
)
def test_only_plain_json_data_is_accepted(bad: Any, error: type[Exception]) -> None:
    doc = obj("Widget", "w", spec={"field": bad})
    with pytest.raises(error):
        to_yaml([doc])
    with pytest.raises(error):
        to_json([doc])


@pytest.mark.parametrize(
    "doc",
    [
        {"kind": "Widget", 1: "x"},
        {"kind": "Widget", "metadata": {"name": "w", 2: "x"}},
        {"kind": "Widget", "metadata": {"name": "w", "labels": {3: "x"}}},
        {"kind": "ConfigMap", "data": {4: "x"}},
    ],
)
def test_map_keys_must_be_strings(doc: dict[Any, Any]) -> None:
    with pytest.raises(TypeError):
        to_yaml([doc])
    with pytest.raises(TypeError):
        to_json([doc])


SORTED_PATHS = [
    ("metadata", "labels"),
    ("metadata", "annotations"),
    ("spec", "selector"),
    ("spec", "template", "metadata", "labels"),
    ("spec", "template", "spec", "nodeSelector"),
    ("spec", "template", "spec", "containers", 0, "resources", "limits"),
    ("data",),
]


def _set(tree: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    for step in path[:-1]:
        tree = tree[step]
    tree[path[-1]] = value


@settings(max_examples=100, derandomize=True, deadline=None)
@given(st.data(), st.lists(st.lists(st.tuples(tricky, tricky), max_size=5, unique_by=lambda kv: kv[0]), min_size=len(SORTED_PATHS), max_size=len(SORTED_PATHS)))
def test_output_does_not_depend_on_insertion_order_of_unordered_maps(data: st.DataObject, maps: list[list[tuple[str, str]]]) -> None:
    def build(orders: list[list[tuple[str, str]]]) -> dict[str, Any]:
        doc = obj("ConfigMap", "c", spec={"selector": {}, "template": {"metadata": {}, "spec": {"containers": [{"resources": {}}]}}})
        doc["metadata"]["annotations"] = {}
        for path, items in zip(SORTED_PATHS, orders):
            _set(doc, path, dict(items))
        return doc

    shuffled = [data.draw(st.permutations(items)) for items in maps]
    first, second = build(maps), build(shuffled)
    assert to_yaml([first]) == to_yaml([second])
    assert to_json([first]) == to_json([second])


def test_output_does_not_depend_on_hash_seed() -> None:
    script = (
        "import sys; from llmc.output.emit import to_yaml, to_json; "
        "doc = {'kind': 'ConfigMap', 'metadata': {'name': 'x', 'labels': {k: k for k in 'zyxwvutsrq'}}, "
        "'data': {str(i): 'v' for i in range(30)}}; sys.stdout.write(to_yaml([doc]) + to_json([doc]))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1


# --- JSON -----------------------------------------------------------------------


def test_json_is_a_list_with_the_same_objects_and_key_order() -> None:
    objs = [obj("Service", "s", spec={"selector": {"b": "1", "a": "2"}}), obj("ConfigMap", "c", data={"k": "é\n"})]
    text = to_json(objs)
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert text.startswith('{\n  "apiVersion": "v1",\n  "kind": "List",\n  "items": [\n    {\n      "apiVersion"')
    assert "é" in text
    doc = json.loads(text)
    assert list(doc) == ["apiVersion", "kind", "items"]
    assert typed(doc["items"]) == typed(yaml11(to_yaml(objs)))
    assert to_json([]) == '{\n  "apiVersion": "v1",\n  "kind": "List",\n  "items": []\n}\n'


# --- kind order -------------------------------------------------------------------

HELM_ORDER = [
    "PriorityClass", "Namespace", "NetworkPolicy", "ResourceQuota", "LimitRange", "PodSecurityPolicy",
    "PodDisruptionBudget", "ServiceAccount", "Secret", "SecretList", "ConfigMap", "StorageClass", "PersistentVolume",
    "PersistentVolumeClaim", "CustomResourceDefinition", "ClusterRole", "ClusterRoleList", "ClusterRoleBinding",
    "ClusterRoleBindingList", "Role", "RoleList", "RoleBinding", "RoleBindingList", "Service", "DaemonSet", "Pod",
    "ReplicationController", "ReplicaSet", "Deployment", "HorizontalPodAutoscaler", "StatefulSet", "Job", "CronJob",
    "IngressClass", "Ingress", "APIService", "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration",
]


def test_helm_install_order_is_kept() -> None:
    assert [k for k in INSTALL_ORDER if k in HELM_ORDER] == HELM_ORDER


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("ResourceClaimTemplate", "Deployment"),
        ("ResourceClaimTemplate", "LeaderWorkerSet"),
        ("ServiceAccount", "LeaderWorkerSet"),
        ("RoleBinding", "LeaderWorkerSet"),
        ("Deployment", "ScaledObject"),
        ("StatefulSet", "ScaledObject"),
        ("LeaderWorkerSet", "ScaledObject"),
        ("Service", "InferencePool"),
        ("Deployment", "InferencePool"),
        ("InferencePool", "HTTPRoute"),
        ("Ingress", "HTTPRoute"),
    ],
)
def test_llmc_kinds_come_after_what_they_reference(before: str, after: str) -> None:
    assert kind_rank(before) < kind_rank(after) < UNKNOWN_RANK


def test_sort_objects_controller_set() -> None:
    n = "svc"
    objs = [
        obj("HTTPRoute", f"{n}-kserve-route", "ns", "gateway.networking.k8s.io/v1"),
        obj("InferencePool", f"{n}-inference-pool", "ns", "inference.networking.x-k8s.io/v1alpha2"),
        obj("ScaledObject", f"{n}-kserve-keda", "ns", "keda.sh/v1alpha1"),
        obj("Deployment", f"{n}-kserve-router-scheduler", "ns", "apps/v1"),
        obj("InferencePool", f"{n}-inference-pool", "ns", "inference.networking.k8s.io/v1"),
        obj("Deployment", f"{n}-kserve", "ns", "apps/v1"),
        obj("Service", f"{n}-kserve-workload-svc", "ns"),
        obj("PodMonitor", "z", "ns", "monitoring.coreos.com/v1"),
        obj("RoleBinding", f"{n}-epp-rb", "ns", "rbac.authorization.k8s.io/v1"),
        obj("ClusterRoleBinding", f"{n}-epp-auth-delegator", None, "rbac.authorization.k8s.io/v1"),
        obj("Role", f"{n}-epp-role", "ns", "rbac.authorization.k8s.io/v1"),
        obj("ResourceClaimTemplate", f"{n}-managed-dra", "ns", "resource.k8s.io/v1"),
        obj("Secret", f"{n}-kserve-self-signed-certs", "ns"),
        obj("ServiceAccount", f"{n}-epp-sa", "ns"),
        obj("LeaderWorkerSet", f"{n}-kserve-mn", "ns", "leaderworkerset.x-k8s.io/v1"),
        obj("AWidget", "a", "ns", "example.com/v1"),
        obj("Service", f"{n}-epp-service", "ns"),
    ]
    got = [(o["kind"], o["metadata"]["name"], o["apiVersion"]) for o in sort_objects(objs)]
    assert got == [
        ("ServiceAccount", f"{n}-epp-sa", "v1"),
        ("Secret", f"{n}-kserve-self-signed-certs", "v1"),
        ("ResourceClaimTemplate", f"{n}-managed-dra", "resource.k8s.io/v1"),
        ("ClusterRoleBinding", f"{n}-epp-auth-delegator", "rbac.authorization.k8s.io/v1"),
        ("Role", f"{n}-epp-role", "rbac.authorization.k8s.io/v1"),
        ("RoleBinding", f"{n}-epp-rb", "rbac.authorization.k8s.io/v1"),
        ("Service", f"{n}-epp-service", "v1"),
        ("Service", f"{n}-kserve-workload-svc", "v1"),
        ("Deployment", f"{n}-kserve", "apps/v1"),
        ("Deployment", f"{n}-kserve-router-scheduler", "apps/v1"),
        ("LeaderWorkerSet", f"{n}-kserve-mn", "leaderworkerset.x-k8s.io/v1"),
        ("ScaledObject", f"{n}-kserve-keda", "keda.sh/v1alpha1"),
        ("InferencePool", f"{n}-inference-pool", "inference.networking.k8s.io/v1"),
        ("InferencePool", f"{n}-inference-pool", "inference.networking.x-k8s.io/v1alpha2"),
        ("HTTPRoute", f"{n}-kserve-route", "gateway.networking.k8s.io/v1"),
        ("AWidget", "a", "example.com/v1"),
        ("PodMonitor", "z", "monitoring.coreos.com/v1"),
    ]


def test_unknown_kinds_last_by_kind_then_namespace_then_name() -> None:
    objs = [obj("Zeta", "a", "b"), obj("Alpha", "b", "a"), obj("Zeta", "a", "a"), obj("Namespace", "x"), obj("Alpha", "a", "a")]
    got = [(o["kind"], o["metadata"].get("namespace"), o["metadata"]["name"]) for o in sort_objects(objs)]
    assert got == [("Namespace", None, "x"), ("Alpha", "a", "a"), ("Alpha", "a", "b"), ("Zeta", "a", "a"), ("Zeta", "b", "a")]
    assert kind_rank("Zeta") == kind_rank("Alpha") == UNKNOWN_RANK


def test_sort_is_stable_for_identical_keys() -> None:
    first, second = obj("Service", "s", "ns"), obj("Service", "s", "ns")
    assert [id(o) for o in sort_objects([first, second])] == [id(first), id(second)]
    assert [id(o) for o in sort_objects([second, first])] == [id(second), id(first)]


@BOUNDED
@given(st.permutations([obj(k, name, ns) for k in ("Deployment", "Service", "HTTPRoute", "Foo") for name in "ab" for ns in ("x", "y")]))
def test_sort_objects_ignores_input_order(objs: list[dict[str, Any]]) -> None:
    reference = sort_objects(sorted(objs, key=json.dumps))
    assert sort_objects(objs) == reference
