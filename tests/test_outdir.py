"""--output-dir layout and atomic replacement, --show-only selection."""

from __future__ import annotations

import os
import stat

import pytest

from llmc.output.emit import to_yaml
from llmc.core.errors import LlmcError
from llmc.cli.outdir import MARKER, file_names, select, write_output_dir


def obj(kind: str, name: str, namespace: str | None = "ns", api: str = "v1") -> dict:
    meta = {"name": name}
    if namespace:
        meta["namespace"] = namespace
    return {"apiVersion": api, "kind": kind, "metadata": meta}


OBJECTS = [
    obj("ServiceAccount", "llama-epp-sa"),
    obj("Service", "llama-kserve-workload-svc"),
    obj("Deployment", "llama-kserve", api="apps/v1"),
    obj("ClusterRoleBinding", "ns-llama-epp-auth-rb", namespace=None, api="rbac.authorization.k8s.io/v1"),
]


def test_file_names_are_lowercase_kind_namespace_name() -> None:
    assert file_names(OBJECTS) == [
        "serviceaccount-ns-llama-epp-sa.yaml",
        "service-ns-llama-kserve-workload-svc.yaml",
        "deployment-ns-llama-kserve.yaml",
        "clusterrolebinding-ns-llama-epp-auth-rb.yaml",
    ]


def test_same_name_in_two_api_groups_gets_the_group() -> None:
    pools = [
        obj("InferencePool", "llama-inference-pool", api="inference.networking.k8s.io/v1"),
        obj("InferencePool", "llama-inference-pool", api="inference.networking.x-k8s.io/v1alpha2"),
    ]
    assert file_names(pools) == [
        "inferencepool.inference.networking.k8s.io-ns-llama-inference-pool.yaml",
        "inferencepool.inference.networking.x-k8s.io-ns-llama-inference-pool.yaml",
    ]


def test_an_object_twice_is_an_error() -> None:
    with pytest.raises(LlmcError, match="two objects"):
        file_names([OBJECTS[0], OBJECTS[0]])


def test_unsafe_characters_never_reach_the_file_system() -> None:
    assert file_names([obj("ClusterRole", "system:../x", namespace=None)]) == ["clusterrole-system_.._x.yaml"]


def test_write_output_dir_writes_one_document_per_file(tmp_path) -> None:
    out = tmp_path / "out"
    written = write_output_dir(OBJECTS, out)
    assert [p.name for p in written] == file_names(OBJECTS)
    assert sorted(os.listdir(out)) == sorted(file_names(OBJECTS) + [MARKER])
    assert (out / "deployment-ns-llama-kserve.yaml").read_text() == to_yaml([OBJECTS[2]])
    mode = stat.S_IMODE(out.stat().st_mode)
    assert mode & 0o055, "the folder must not stay private like a mkdtemp folder"


def test_rewrite_removes_stale_files_and_leaves_no_temporaries(tmp_path) -> None:
    out = tmp_path / "out"
    write_output_dir(OBJECTS, out)
    write_output_dir(OBJECTS[:1], out)
    assert sorted(os.listdir(out)) == [MARKER, "serviceaccount-ns-llama-epp-sa.yaml"]
    assert os.listdir(tmp_path) == ["out"]


def test_error_while_writing_leaves_previous_output_untouched(tmp_path) -> None:
    out = tmp_path / "out"
    write_output_dir(OBJECTS, out)
    before = {p: (out / p).read_text() for p in os.listdir(out)}

    def broken(objs):
        if objs[0]["kind"] == "Deployment":
            raise ValueError("cannot serialize")
        return to_yaml(objs)

    with pytest.raises(ValueError):
        write_output_dir(OBJECTS, out, broken)
    assert {p: (out / p).read_text() for p in os.listdir(out)} == before
    assert os.listdir(tmp_path) == ["out"]


def test_refuses_to_replace_a_folder_of_other_files(tmp_path) -> None:
    (tmp_path / "kustomization.yaml").write_text("resources: []\n")
    with pytest.raises(LlmcError, match="did not write") as err:
        write_output_dir(OBJECTS, tmp_path)
    assert err.value.exit_code == 2
    assert os.listdir(tmp_path) == ["kustomization.yaml"]


def test_an_empty_existing_folder_is_used(tmp_path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    write_output_dir(OBJECTS[:1], out)
    assert sorted(os.listdir(out)) == [MARKER, "serviceaccount-ns-llama-epp-sa.yaml"]


def test_select_by_kind_and_name_case_insensitive_kind() -> None:
    assert select(OBJECTS, ["deployment/llama-kserve"]) == [OBJECTS[2]]
    assert select(OBJECTS, ["Service*/*"]) == OBJECTS[:2]
    assert select(OBJECTS, ["Service/ns/llama-*", "ClusterRoleBinding/*"]) == [OBJECTS[1], OBJECTS[3]]
    assert select(OBJECTS, []) == OBJECTS


def test_select_without_match_lists_the_available_objects() -> None:
    with pytest.raises(LlmcError) as err:
        select(OBJECTS, ["Deployment/llama-kserve", "HTTPRoute/llama-kserve-route"])
    assert "HTTPRoute/llama-kserve-route" in err.value.message
    assert "Deployment/llama-kserve" in err.value.hint and "ServiceAccount/llama-epp-sa" in err.value.hint
    assert err.value.exit_code == 2


@pytest.mark.parametrize("pattern", ["Deployment", "Deployment/", "a/b/c/d"])
def test_select_rejects_malformed_patterns(pattern: str) -> None:
    with pytest.raises(LlmcError, match="KIND/NAME"):
        select(OBJECTS, [pattern])


def test_an_impossible_folder_is_a_located_usage_error(tmp_path) -> None:
    (tmp_path / "file").write_text("not a folder\n")
    with pytest.raises(LlmcError, match="cannot write --output-dir") as err:
        write_output_dir(OBJECTS, tmp_path / "file" / "out")
    assert err.value.exit_code == 2
    assert os.listdir(tmp_path) == ["file"]
