"""Fidelity of the scale-out features with KServe's own presets (issue 4).

Each expectation is a fact from the reference notes (02 §2–4, §3.3, §3.4, §3.8; 01 §4.2,
§4.5) or KServe's tests cited there, applied to the upstream samples.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from typer.testing import CliRunner

from llmc.cli.app import app

ROOT = Path(__file__).resolve().parent.parent


def render(upstream, path: str) -> list[dict]:
    source = upstream / "kserve/samples" / path if not path.startswith("golden/") else ROOT / path
    result = CliRunner().invoke(
        app, ["render", "-q", "--presets", str(upstream / "kserve/presets/master"), "-f", str(source)]
    )
    assert result.exit_code == 0, result.stderr
    return list(yaml.safe_load_all(result.stdout))


def get(objs, kind, name):
    found = [o for o in objs if o["kind"] == kind and o["metadata"]["name"] == name]
    assert len(found) == 1, f"{kind}/{name}: {len(found)}"
    return found[0]


def names(objs):
    return {(o["kind"], o["metadata"]["name"]) for o in objs}


def container(pod, name="main"):
    return next(c for c in pod["containers"] if c["name"] == name)


def test_managed_dra_multi_device(upstream):
    """02 §3.8: count only above 1, one CEL selector per line, claim on the named container."""
    objs = render(upstream, "managed-dra/llm-inference-service-managed-dra-multi-device.yaml")
    svc = yaml.safe_load((upstream / "kserve/samples/managed-dra/llm-inference-service-managed-dra-multi-device.yaml").read_text())
    name = svc["metadata"]["name"]
    rct = get(objs, "ResourceClaimTemplate", f"{name}-managed-dra")
    assert "labels" not in rct["metadata"]
    (request,) = rct["spec"]["spec"]["devices"]["requests"]
    lines = [l.strip() for l in svc["metadata"]["annotations"]["serving.kserve.io/exp-dra-cel-selector"].splitlines() if l.strip()]
    assert request == {
        "name": "device",
        "exactly": {
            "deviceClassName": "gpu.nvidia.com",
            "count": 2,
            "selectors": [{"cel": {"expression": line}} for line in lines],
        },
    }
    pod = get(objs, "Deployment", f"{name}-kserve")["spec"]["template"]["spec"]
    assert {"name": "managed-device", "resourceClaimTemplateName": f"{name}-managed-dra"} in pod["resourceClaims"]
    for c in pod["containers"]:
        has_claim = {"name": "managed-device"} in (c.get("resources") or {}).get("claims", [])
        assert has_claim == (c["name"] == "main"), c["name"]


DP = "dp-ep/deepseek-r1-gpu-rdma-roce/llm-inference-service-dp-ep-deepseek-r1-gpu-deepep-ht.yaml"


def test_data_parallel_leader_worker_set(upstream):
    """02 §2.4, §4: size = data/dataLocal, user SA forced on leader and worker, DP flags from the presets."""
    objs = render(upstream, DP)
    svc = yaml.safe_load((upstream / "kserve/samples" / DP).read_text())
    name, par = svc["metadata"]["name"], svc["spec"]["parallelism"]
    lws = get(objs, "LeaderWorkerSet", f"{name}-kserve-mn")
    tmpl = lws["spec"]["leaderWorkerTemplate"]
    assert tmpl["size"] == par["data"] // par["dataLocal"]
    assert tmpl["restartPolicy"] == "RecreateGroupOnPodRestart" and lws["spec"]["startupPolicy"] == "LeaderCreated"
    leader, worker = tmpl["leaderTemplate"], tmpl["workerTemplate"]
    assert leader["metadata"]["labels"]["app.kubernetes.io/component"] == "llminferenceservice-workload-leader"
    assert leader["metadata"]["labels"]["llm-d.ai/role"] == "both"
    assert worker["metadata"]["labels"]["app.kubernetes.io/component"] == "llminferenceservice-workload-worker"
    assert lws["metadata"]["labels"] == worker["metadata"]["labels"]
    # the sample's own SA wins and is forced onto both; no managed SA is created
    assert leader["spec"]["serviceAccountName"] == worker["spec"]["serviceAccountName"] == "hfsa"
    assert ("ServiceAccount", f"{name}-kserve-mn") not in names(objs)
    # k8s.v1.cni.cncf.io annotations propagate to the LWS and its templates
    net = svc["metadata"]["annotations"]["k8s.v1.cni.cncf.io/networks"]
    assert lws["metadata"]["annotations"]["k8s.v1.cni.cncf.io/networks"] == net
    assert leader["metadata"]["annotations"]["k8s.v1.cni.cncf.io/networks"] == net
    lead_script = container(leader["spec"])["command"][2]
    work_script = container(worker["spec"])["command"][2]
    for script in (lead_script, work_script):
        assert f"--data-parallel-size {par['data']} \\" in script
        assert f"--data-parallel-size-local {par['dataLocal']} \\" in script
        assert "--data-parallel-rpc-port 5555 \\" in script
        assert "--enable-expert-parallel \\" in script
        assert "--tensor-parallel-size 1 \\" in script
    assert "--api-server-count ${VLLM_API_SERVER_COUNT:-8}" in lead_script and "START_RANK=0" in lead_script
    assert "--headless" in work_script
    assert f"START_RANK=$(( ${{LWS_WORKER_INDEX:-0}} * {par['dataLocal']} ))" in work_script
    # pvc:// model: the claim is mounted read-only at /mnt/models on main (02 §3.2 C1)
    mount = next(m for m in container(leader["spec"])["volumeMounts"] if m["name"] == "kserve-pvc-source")
    assert mount["mountPath"] == "/mnt/models" and mount["readOnly"] is True
    assert ("Deployment", f"{name}-kserve") not in names(objs)


PD = "single-node-gpu/llm-inference-service-pd-qwen2-7b-gpu.yaml"


def test_prefill_decode_pair(upstream):
    """02 §2.3, §2.6–2.8, §3.0; 01 §6 #18: roles, routing sidecar, its RBAC, prefill's served names."""
    objs = render(upstream, PD)
    svc = yaml.safe_load((upstream / "kserve/samples" / PD).read_text())
    name, model = svc["metadata"]["name"], svc["spec"]["model"]["name"]
    decode = get(objs, "Deployment", f"{name}-kserve")
    prefill = get(objs, "Deployment", f"{name}-kserve-prefill")
    assert decode["spec"]["selector"]["matchLabels"]["llm-d.ai/role"] == "decode"
    assert prefill["metadata"]["labels"]["llm-d.ai/role"] == "prefill"
    assert prefill["metadata"]["labels"]["app.kubernetes.io/component"] == "llminferenceservice-workload-prefill"
    pod = decode["spec"]["template"]["spec"]
    assert pod["serviceAccountName"] == f"{name}-kserve"
    sidecar = next(c for c in pod["initContainers"] if c["name"] == "llm-d-routing-sidecar")
    assert {"name": "INFERENCE_POOL_NAME", "value": f"{name}-inference-pool"} in sidecar["env"]
    assert "--secure-proxy=false" in sidecar["command"] and sidecar["command"].count("") == 3
    assert pod["initContainers"][-1]["name"] == "storage-initializer"
    role = get(objs, "Role", f"{name}-kserve-role")
    assert role["rules"][0] == {"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list", "watch"]}
    binding = get(objs, "RoleBinding", f"{name}-kserve-rb")
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": f"{name}-kserve", "namespace": "default"}]
    assert get(objs, "ServiceAccount", f"{name}-kserve")
    decode_script = container(pod)["command"][2]
    prefill_script = container(prefill["spec"]["template"]["spec"])["command"][2]
    assert "--port 8001" in decode_script
    assert f'--served-model-name "{model}" "publishers/default/models/{model}"' in decode_script
    assert f'--served-model-name "{model}" \\' in prefill_script and "publishers/" not in prefill_script
    service = get(objs, "Service", f"{name}-kserve-workload-svc")
    assert "llm-d.ai/role" not in service["spec"]["selector"]  # selects decode and prefill pods


def test_kv_cache_offloading_flag_and_tiers(upstream):
    """01 §4.2/§4.5 kvTransferConfig, 02 §3.4 tiers (llmc's own input: the upstream sample nests the field wrongly)."""
    objs = render(upstream, "golden/kv-cache-tiers/input.yaml")
    pod = get(objs, "Deployment", "kv-offload-kserve")["spec"]["template"]["spec"]
    main = container(pod)
    line = next(l for l in main["command"][2].splitlines() if "KV_TRANSFER_ARGS=\"--kv-transfer-config" in l)
    payload = re.search(r"'(.*)'", line).group(1).replace('\\"', '"')
    assert json.loads(payload) == {
        "kv_connector": "OffloadingConnector",
        "kv_role": "kv_both",
        "kv_connector_extra_config": {
            "spec_name": "TieringOffloadingSpec",
            "cpu_bytes_to_use": 10 * 1024**3,
            "eviction_policy": "lru",
            "secondary_tiers": [{"type": "fs", "root_dir": "/mnt/kv-cache-0"}, {"type": "fs", "root_dir": "/mnt/kv-cache-1"}],
        },
    }
    assert payload == json.dumps(json.loads(payload), sort_keys=True, separators=(",", ":"))  # Go's sorted keys
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert volumes["kv-cache-secondary-0"]["emptyDir"] == {"sizeLimit": "100Gi"}
    assert volumes["kv-cache-secondary-1"]["persistentVolumeClaim"] == {"claimName": "shared-kv-cache"}
    mounts = {m["name"]: m for m in main["volumeMounts"]}
    assert mounts["kv-cache-secondary-1"] == {"name": "kv-cache-secondary-1", "mountPath": "/mnt/kv-cache-1", "subPath": "qwen/"}
    assert main["resources"]["requests"]["ephemeral-storage"] == "120Gi"  # 20Gi + the 100Gi emptyDir tier


def test_lora_adapter_from_hugging_face(upstream):
    """02 §3.3 and §3.2 C5: one storage-initializer for model and adapter, mount at /mnt, flags prepended."""
    objs = render(upstream, "lora-adapters/test-examples/01-lora-hf-cpu.yaml")
    pod = get(objs, "Deployment", "lora-hf-test-kserve")["spec"]["template"]["spec"]
    init = pod["initContainers"][-1]
    assert init["args"] == [
        "hf://facebook/opt-125m", "/mnt/models", "hf://edbeeching/opt-125m-lora", "/mnt/lora/lora-adapter-1",
    ]
    main = container(pod)
    mount = next(m for m in main["volumeMounts"] if m["name"] == "kserve-provision-location")
    assert mount == {"name": "kserve-provision-location", "mountPath": "/mnt", "readOnly": True}
    assert main["args"][:4] == [
        "--enable-lora",
        "--lora-modules",
        '\'{"name":"lora-adapter-1","path":"/mnt/lora/lora-adapter-1"}\'',
        '\'{"name":"publishers/kserve-ci-e2e-test/models/lora-adapter-1","path":"/mnt/lora/lora-adapter-1"}\'',
    ]
