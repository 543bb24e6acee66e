"""Fidelity: llmc with KServe's own presets yields the controller's workload objects.

Expected objects are the controller's desired objects documented in
../shared/reference/02-workloads.md §5 (managed-DRA minimal sample, HEAD presets,
EnableTLS off, namespace default, storage initializer from the shipped ConfigMap),
without ownerReferences (llmc omits them by default, docs/differences.md).
"""

from __future__ import annotations

import copy

import pytest
import yaml
from typer.testing import CliRunner

from llmc.cli.app import app

NAME = "qwen2-7b-instruct-dra-minimal"

EXPECTED_DEPLOYMENT_HEAD = f"""
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {NAME}-kserve
  namespace: default
  labels:
    app.kubernetes.io/component: llminferenceservice-workload
    app.kubernetes.io/name: {NAME}
    app.kubernetes.io/part-of: llminferenceservice
    kserve.io/component: workload
    llm-d.ai/role: both
spec:
  replicas: 1
  selector:
    matchLabels:
      app.kubernetes.io/component: llminferenceservice-workload
      app.kubernetes.io/name: {NAME}
      app.kubernetes.io/part-of: llminferenceservice
      kserve.io/component: workload
      llm-d.ai/role: both
  template:
    metadata:
      labels:
        app.kubernetes.io/component: llminferenceservice-workload
        app.kubernetes.io/name: {NAME}
        app.kubernetes.io/part-of: llminferenceservice
        kserve.io/component: workload
        llm-d.ai/role: both
"""

EXPECTED_POD = f"""
terminationGracePeriodSeconds: 60
resourceClaims:
- name: managed-device
  resourceClaimTemplateName: {NAME}-managed-dra
initContainers:
- name: storage-initializer
  image: kserve/storage-initializer:latest
  args: [hf://Qwen/Qwen2.5-7B-Instruct, /mnt/models]
  env:
  - {{name: HF_HUB_ENABLE_HF_TRANSFER, value: "1"}}
  - {{name: HF_XET_HIGH_PERFORMANCE, value: "1"}}
  - {{name: HF_XET_NUM_CONCURRENT_RANGE_GETS, value: "8"}}
  resources:
    limits: {{cpu: "1", memory: 1Gi}}
    requests: {{cpu: 100m, memory: 100Mi}}
  terminationMessagePolicy: FallbackToLogsOnError
  volumeMounts:
  - {{name: kserve-provision-location, mountPath: /mnt/models}}
volumes:
- {{name: home, emptyDir: {{}}}}
- {{name: dshm, emptyDir: {{medium: Memory, sizeLimit: 1Gi}}}}
- {{name: model-cache, emptyDir: {{}}}}
- {{name: tmp-dir, emptyDir: {{}}}}
- {{name: tls-certs, secret: {{secretName: {NAME}-kserve-self-signed-certs}}}}
- {{name: kserve-provision-location, emptyDir: {{}}}}
"""

EXPECTED_MAIN = """
name: main
image: ghcr.io/llm-d/llm-d-cuda:v0.9.0
imagePullPolicy: IfNotPresent
ports:
- {containerPort: 8000, protocol: TCP}
env:
- {name: HOME, value: /home}
- {name: VLLM_LOGGING_LEVEL, value: INFO}
- {name: HF_HUB_CACHE, value: /models}
resources:
  limits: {cpu: "4", memory: 32Gi}
  requests: {cpu: "2", memory: 16Gi}
  claims:
  - {name: managed-device}
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: false
  runAsNonRoot: true
  capabilities: {drop: [ALL]}
  seccompProfile: {type: RuntimeDefault}
lifecycle:
  preStop: {exec: {command: [/bin/sleep, "15"]}}
terminationMessagePath: /dev/termination-log
terminationMessagePolicy: FallbackToLogsOnError
livenessProbe:
  httpGet: {path: /health, port: 8000, scheme: HTTPS}
  initialDelaySeconds: 120
  periodSeconds: 30
  timeoutSeconds: 30
  failureThreshold: 5
readinessProbe:
  httpGet: {path: /health, port: 8000, scheme: HTTP}
  periodSeconds: 1
  timeoutSeconds: 1
  failureThreshold: 2
startupProbe:
  httpGet: {path: /health, port: 8000, scheme: HTTP}
  failureThreshold: 60
  periodSeconds: 10
volumeMounts:
- {name: home, mountPath: /home}
- {name: tmp-dir, mountPath: /tmp}
- {name: dshm, mountPath: /dev/shm}
- {name: model-cache, mountPath: /models}
- {name: tls-certs, mountPath: /var/run/kserve/tls, readOnly: true}
- {name: kserve-provision-location, mountPath: /mnt/models, readOnly: true}
"""

EXPECTED_SERVICE = f"""
apiVersion: v1
kind: Service
metadata:
  name: {NAME}-kserve-workload-svc
  namespace: default
  labels:
    app.kubernetes.io/component: llminferenceservice-workload
    app.kubernetes.io/name: {NAME}
    app.kubernetes.io/part-of: llminferenceservice
spec:
  type: ClusterIP
  selector:
    app.kubernetes.io/name: {NAME}
    app.kubernetes.io/part-of: llminferenceservice
    kserve.io/component: workload
  ports:
  - {{name: http, protocol: TCP, appProtocol: http, port: 8000, targetPort: 8000}}
"""

# The controller sends no allocationMode and no count of 1; the API server adds them (02 §5.3, §5.4).
EXPECTED_RCT = f"""
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: {NAME}-managed-dra
  namespace: default
spec:
  spec:
    devices:
      requests:
      - name: device
        exactly:
          deviceClassName: gpu.nvidia.com
"""


def render(upstream, sample: str, *extra: str) -> list[dict]:
    result = CliRunner().invoke(
        app,
        ["render", "-q", "--presets", str(upstream / "kserve/presets/master"), "-f", str(upstream / "kserve/samples" / sample), *extra],
    )
    assert result.exit_code == 0, result.stderr
    return list(yaml.safe_load_all(result.stdout))


def find(objs: list[dict], kind: str, name: str) -> dict:
    matches = [o for o in objs if o["kind"] == kind and o["metadata"]["name"] == name]
    assert len(matches) == 1, f"{kind}/{name} not rendered exactly once"
    return matches[0]


@pytest.fixture(scope="module")
def dra_minimal(upstream):
    return render(upstream, "managed-dra/llm-inference-service-managed-dra-minimal.yaml")


def test_deployment_metadata_and_selector(dra_minimal):
    got = copy.deepcopy(find(dra_minimal, "Deployment", f"{NAME}-kserve"))
    want = yaml.safe_load(EXPECTED_DEPLOYMENT_HEAD)
    pod = got["spec"]["template"].pop("spec")
    assert got == want
    assert pod  # the pod spec is checked below


def test_pod_spec_except_main(dra_minimal):
    pod = copy.deepcopy(find(dra_minimal, "Deployment", f"{NAME}-kserve")["spec"]["template"]["spec"])
    want = yaml.safe_load(EXPECTED_POD)
    containers = pod.pop("containers")
    assert pod == want
    assert [c["name"] for c in containers] == ["main"]


def test_main_container(dra_minimal):
    pod = find(dra_minimal, "Deployment", f"{NAME}-kserve")["spec"]["template"]["spec"]
    main = dict(pod["containers"][0])
    command = main.pop("command")
    assert main == yaml.safe_load(EXPECTED_MAIN)
    assert command[:2] == ["/bin/bash", "-c"] and command[3:] == ["--"]
    script = command[2]
    # 02 §5.1 and 01 §4.5: the rendered tail of the vLLM invocation
    assert 'SHUTDOWN_TIMEOUT_ARGS="--shutdown-timeout 40"' in script
    assert '    KV_TRANSFER_ARGS=""\n' in script
    assert (
        '--served-model-name "Qwen/Qwen2.5-7B-Instruct" "publishers/default/models/Qwen/Qwen2.5-7B-Instruct" \\\n'
        "  --port 8000 \\\n  ${ACCESS_LOG_ARGS} \\\n  ${SHUTDOWN_TIMEOUT_ARGS} \\\n  ${KV_TRANSFER_ARGS} \\\n"
        " \\\n   \\\n   \\\n   \\\n  ${VLLM_ADDITIONAL_ARGS} \\\n  $@\""
    ) in script
    assert "{{" not in script


def test_workload_service(dra_minimal):
    assert find(dra_minimal, "Service", f"{NAME}-kserve-workload-svc") == yaml.safe_load(EXPECTED_SERVICE)


def test_resource_claim_template(dra_minimal):
    assert find(dra_minimal, "ResourceClaimTemplate", f"{NAME}-managed-dra") == yaml.safe_load(EXPECTED_RCT)


def test_no_workload_rbac_without_routing_sidecar(dra_minimal):
    kinds = {(o["kind"], o["metadata"]["name"]) for o in dra_minimal}
    assert ("ServiceAccount", f"{NAME}-kserve") not in kinds
    assert ("Role", f"{NAME}-kserve-role") not in kinds


SINGLE_NODE = [
    ("opt-125m-cpu/llm-inference-service-facebook-opt-125m-cpu.yaml", "facebook-opt-125m-single"),
    ("single-node-gpu/llm-inference-service-qwen2-7b-gpu.yaml", None),
    ("single-node-gpu/llm-inference-service-qwen2-7b-gpu-no-scheduler.yaml", None),
]


@pytest.mark.parametrize("sample,_", SINGLE_NODE)
def test_single_node_samples_follow_the_workload_rules(upstream, sample, _):
    """02 §2.6/§2.8: names, labels = selector = pod labels, role both, storage-initializer last, port 8000."""
    svc = yaml.safe_load((upstream / "kserve/samples" / sample).read_text())
    name = svc["metadata"]["name"]
    objs = render(upstream, sample)
    dep = find(objs, "Deployment", f"{name}-kserve")
    labels = dep["metadata"]["labels"]
    assert dep["spec"]["selector"]["matchLabels"] == labels == dep["spec"]["template"]["metadata"]["labels"]
    assert labels["llm-d.ai/role"] == "both"
    pod = dep["spec"]["template"]["spec"]
    assert pod["initContainers"][-1]["name"] == "storage-initializer"
    assert pod["initContainers"][-1]["args"] == [svc["spec"]["model"]["uri"], "/mnt/models"]
    main = pod["containers"][0]
    user_main = svc["spec"]["template"]["containers"][0]
    assert main["name"] == "main"
    assert main["image"] == user_main.get("image", "ghcr.io/llm-d/llm-d-cuda:v0.9.0")  # the user's image wins
    model = svc["spec"]["model"].get("name") or name
    assert f'--served-model-name "{model}" "publishers/default/models/{model}"' in main["command"][2]
    svc_obj = find(objs, "Service", f"{name}-kserve-workload-svc")
    assert svc_obj["spec"]["ports"][0]["port"] == 8000
