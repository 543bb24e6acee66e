"""The endpoint picker (EPP): ServiceAccount and RBAC, Deployment, Service, both InferencePools,
and the EndpointPickerConfig passed inline with `--config-text`.

KServe `scheduler.go`, `scheduler_latency_predictor.go`,
`tracing.go`, `pkg/apis/gie/v1alpha2pool/inferencepool_conversion.go`. Objects are built for
the controller's first reconcile: there is no live Deployment whose `--config-text` or replica
count would be preserved, and the ServiceAccount copies no secrets (cluster state).

The config text goes through the controller's version-gated migrations (llmisvc/scheduler.go): for EPP
version >= 0.7 it is parsed and re-serialised by sigs.k8s.io/yaml, which llmc reproduces in
the "Go YAML" section at the end (JSON-normalised values, goyaml.v2 key order and quoting).
"""

from __future__ import annotations

import math
import re

from llmc.core.errors import LlmcError
from llmc.core.jsoncopy import copy_json
from llmc.core.record import record
from llmc.go.fmt import sprint_json
from llmc.go.yaml import dump_go_yaml, parse_go_yaml
from llmc.kserve.scheduler_spec import (
    INLINE_FLAGS, PRECISE_PREFIX_SCORER, TOKEN_PRODUCER, config_flag, has_pool_ref, inline_raw, pool_spec,
    scheduler,
)
from llmc.kserve.spec import MAIN, find_container
from llmc.render import meta
from llmc.render.context import RenderContext
from llmc.render.tracing import add_otel_env, has_arg

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any, Callable

TOKENIZER_SIDECAR = "tokenizer"
TOKENIZER_MODEL_PATH = "/mnt/models/base"
SCHEDULER_COMPONENT = "llminferenceservice-router-scheduler"
VERSION_ANNOTATION = "app.kubernetes.io/version"
SERVICE_PORT_NAMES = ("grpc", "grpc-health", "metrics", "zmq")

INFERENCE_V1 = "inference.networking.k8s.io"
INFERENCE_V1ALPHA2 = "inference.networking.x-k8s.io"
LLMD = "llm-d.ai"


PRECISE_PREFIX_PRODUCER = "precise-prefix-cache-producer"
PREFIX_SCORER = "prefix-cache-scorer"
LORA_SCORER = "lora-affinity-scorer"
METRICS_EXTRACTOR = "model-server-protocol-metrics"
METRICS_EXTRACTOR_V08 = "core-metrics-extractor"
METRICS_DATA_SOURCE = "metrics-data-source"

if TYPE_CHECKING:
    AttachModel = Callable[[RenderContext, dict[str, Any], str, str, str], None]
    """attachModelArtifacts(pod, container, modelPath) without LoRA (the tokenizer's model files);
    the last argument is the pod's field path, for errors."""


# -- where the config text lives ---------------------------------------------------------------


def labels(ctx: RenderContext) -> dict[str, str]:
    """SchedulerLabels."""
    return meta.base_labels(ctx, SCHEDULER_COMPONENT)


def epp_service_name(spec: dict[str, Any], child: Callable[[str], str]) -> str:
    """RouterSpec.EPPServiceName: the pool's endpointPickerRef name (managed pool), else `<name>-epp-service`."""
    pool = (scheduler(spec) or {}).get("pool") or {}
    if not has_pool_ref(spec):
        name = ((pool.get("spec") or {}).get("endpointPickerRef") or {}).get("name")
        if name:
            return str(name)
    return child("-epp-service")


# -- ServiceAccount and RBAC --------------------------------------------------------------------


def service_account_name(ctx: RenderContext) -> tuple[str, bool]:
    """(name, managed): the template's SA when it names another one (it must exist), else `<name>-epp-sa`."""
    managed = ctx.child("-epp-sa")
    named = ((scheduler(ctx.spec) or {}).get("template") or {}).get("serviceAccountName") or ""
    if named and named != managed:
        return named, False
    return managed, True


def service_account(ctx: RenderContext) -> dict[str, Any]:
    """`<name>-epp-sa`. The controller copies secrets from the workload's (or the default) SA: none offline."""
    return {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": ctx.metadata(ctx.child("-epp-sa"), labels(ctx))}


def auth_delegator_binding(ctx: RenderContext, sa: str) -> dict[str, Any]:
    """Cluster-scoped `<namespace>-<name>-epp-auth-rb` to system:auth-delegator; no ownerReference."""
    from llmc.k8s.names import child_name

    return {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRoleBinding",
        "metadata": {"name": child_name(ctx.namespace, f"-{ctx.name}-epp-auth-rb"), "labels": labels(ctx)},
        "subjects": [{"kind": "ServiceAccount", "name": sa, "namespace": ctx.namespace}],
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "system:auth-delegator"},
    }


def role(ctx: RenderContext) -> dict[str, Any]:
    read = ["get", "list", "watch"]
    return {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "Role",
        "metadata": ctx.metadata(ctx.child("-epp-role"), labels(ctx)),
        "rules": [
            {"apiGroups": [""], "resources": ["pods"], "verbs": read},
            {
                "apiGroups": [INFERENCE_V1, INFERENCE_V1ALPHA2],
                "resources": ["inferencepools", "inferenceobjectives", "inferencemodels"],
                "verbs": read,
            },
            {"apiGroups": [INFERENCE_V1ALPHA2], "resources": ["inferencemodelrewrites", "inferencepoolimports"], "verbs": read},
            {"apiGroups": [LLMD], "resources": ["inferenceobjectives", "inferencemodelrewrites"], "verbs": read},
            {"apiGroups": ["discovery.k8s.io"], "resources": ["endpointslices"], "verbs": read},
            {
                "apiGroups": ["coordination.k8s.io"],
                "resources": ["leases"],
                "verbs": read + ["create", "update", "patch", "delete"],
            },
        ],
    }


def role_binding(ctx: RenderContext, sa: str) -> dict[str, Any]:
    return {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "RoleBinding",
        "metadata": ctx.metadata(ctx.child("-epp-rb"), labels(ctx)),
        "subjects": [{"kind": "ServiceAccount", "name": sa, "namespace": ctx.namespace}],
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": ctx.child("-epp-role")},
    }


# -- Service and InferencePools -----------------------------------------------------------------


def service(ctx: RenderContext) -> dict[str, Any]:
    """The EPP Service: the named ports grpc, grpc-health, metrics, zmq of the pod (last one wins), by name."""
    found: dict[str, dict[str, Any]] = {}
    for container in ((scheduler(ctx.spec) or {}).get("template") or {}).get("containers") or []:
        for port in container.get("ports") or []:
            if port.get("name") in SERVICE_PORT_NAMES:
                found[port["name"]] = port
    ports = []
    for name in sorted(found):
        entry: dict[str, Any] = {"name": name, "port": found[name].get("containerPort"), "targetPort": name}
        if found[name].get("protocol"):
            entry["protocol"] = found[name]["protocol"]
        ports.append(entry)
    spec: dict[str, Any] = {"selector": labels(ctx)}
    if ports:
        spec["ports"] = ports
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": ctx.metadata(epp_service_name(ctx.spec, ctx.child), labels(ctx)),
        "spec": spec,
    }


def _pool_spec(ctx: RenderContext) -> dict[str, Any]:
    return copy_json(pool_spec(ctx.spec) or {})


def inference_pool(ctx: RenderContext) -> dict[str, Any]:
    """`inference.networking.k8s.io/v1` InferencePool `<name>-inference-pool`: the merged pool spec verbatim."""
    return {
        "apiVersion": f"{INFERENCE_V1}/v1",
        "kind": "InferencePool",
        "metadata": ctx.metadata(ctx.child("-inference-pool"), labels(ctx)),
        "spec": _pool_spec(ctx),
    }


def inference_pool_v1alpha2(ctx: RenderContext) -> dict[str, Any]:
    """The v1alpha2 twin, converted as GIE's ConvertFrom does (selector flattened, first target port)."""
    v1 = _pool_spec(ctx)
    spec: dict[str, Any] = {}
    if v1:
        ref = v1.get("endpointPickerRef") or {}
        extension: dict[str, Any] = {}
        if ref.get("group") is not None:
            extension["group"] = ref["group"]
        extension["kind"] = ref.get("kind") or ""
        extension["name"] = ref.get("name") or ""
        if ref.get("port") is not None:
            extension["portNumber"] = (ref["port"] or {}).get("number", 0)
        extension["failureMode"] = ref.get("failureMode") or ""
        match = (v1.get("selector") or {}).get("matchLabels")
        ports = v1.get("targetPorts") or [{}]
        spec = {"selector": dict(match) if match is not None else None, "targetPortNumber": ports[0].get("number", 0)}
        spec["extensionRef"] = extension
    return {
        "apiVersion": f"{INFERENCE_V1ALPHA2}/v1alpha2",
        "kind": "InferencePool",
        "metadata": ctx.metadata(ctx.child("-inference-pool"), labels(ctx)),
        "spec": spec,
    }


# -- Deployment ---------------------------------------------------------------------------------


def deployment(ctx: RenderContext, tokenizer_url: str | None, attach_model: AttachModel) -> dict[str, Any]:
    """Deployment `<name>-kserve-router-scheduler` (expectedSchedulerDeployment).

    tokenizer_url: the standalone tokenizer's URL when it is enabled (token-producer wiring).
    The controller passes one label map to the Deployment, its selector and its pod template,
    then adds `scheduler.labels` to the pod's: being the same map, they land in all three.
    """
    sched = scheduler(ctx.spec) or {}
    shared = labels(ctx)
    shared.update(sched.get("labels") or {})
    pod_meta: dict[str, Any] = {"labels": dict(shared)}
    if sched.get("annotations"):
        pod_meta["annotations"] = dict(sched["annotations"])
    pod = copy_json(sched.get("template") or {})
    replicas = sched.get("replicas")
    main = find_container(pod.get("containers"), MAIN)
    if main is not None:
        args = main.setdefault("args", [])
        if replicas is not None and replicas > 1:
            if "--ha-enable-leader-election" not in args and "-ha-enable-leader-election" not in args:
                args.append("--ha-enable-leader-election")
        args += _config_args(ctx.spec)
        _inject_tracing(ctx, main)
        if not args:
            del main["args"]
    if find_container(pod.get("containers"), TOKENIZER_SIDECAR) is not None:
        attach_model(ctx, pod, TOKENIZER_SIDECAR, TOKENIZER_MODEL_PATH, "spec.router.scheduler.template")
        _mutate_config(pod, [_uds_tokenizer_config, _promote_token_processor_config, _block_size_tokens])
    _transform(ctx, pod, pod_meta.get("annotations") or {}, tokenizer_url)

    spec: dict[str, Any] = {}
    if replicas is not None:
        spec["replicas"] = replicas
    spec["selector"] = {"matchLabels": dict(shared)}
    spec["strategy"] = {"type": "Recreate"}
    spec["template"] = {"metadata": pod_meta, "spec": pod}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": ctx.metadata(ctx.child("-kserve-router-scheduler"), shared),
        "spec": spec,
    }


def _config_args(spec: dict[str, Any]) -> list[str]:
    """preserveSchedulerConfig on a first reconcile: inline config, else nothing when the template
    passes a config flag, else the generated default."""
    sched = scheduler(spec) or {}
    inline = (sched.get("config") or {}).get("inline")
    if inline is not None:
        return ["--config-text", inline_raw(inline)]
    if config_flag((sched.get("template") or {}).get("containers")) is not None:
        return []
    return ["--config-text", default_config_text(spec)]


def _inject_tracing(ctx: RenderContext, main: dict[str, Any]) -> None:
    """injectSchedulerTracing: `--tracing=true` unless set, OTEL env unless the container sets a name."""
    tracing = ctx.spec.get("tracing")
    if tracing is None:
        return
    args = main["args"]
    if not has_arg(args, "--tracing") and not has_arg(args, "-tracing"):
        args.append("--tracing=true")
    add_otel_env(ctx, main.setdefault("env", []), tracing, "inference-scheduler", tracing.get("exporterEndpoint"))


# -- EndpointPickerConfig: the generated default ---------------------------------------------------

_LORA_PLUGIN = f"- type: {LORA_SCORER}\n"
_LORA_REF = f"  - pluginRef: {LORA_SCORER}\n    weight: 4\n"

_DEFAULT = """
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: single-profile-handler
- type: queue-scorer
- type: kv-cache-utilization-scorer
- type: prefix-cache-scorer
- type: no-hit-lru-scorer
- type: max-score-picker
{plugin}schedulingProfiles:
- name: default
  plugins:
{ref}  - pluginRef: queue-scorer
    weight: 2
  - pluginRef: kv-cache-utilization-scorer
    weight: 2
  - pluginRef: prefix-cache-scorer
    weight: 3
  - pluginRef: no-hit-lru-scorer
    weight: 2
  - pluginRef: max-score-picker
"""

_DEFAULT_PD = """
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: disagg-headers-handler
- type: prefill-filter
- type: decode-filter
- type: queue-scorer
- type: kv-cache-utilization-scorer
- type: active-request-scorer
- type: prefix-cache-scorer
- type: max-score-picker
- type: always-disagg-pd-decider
- type: disagg-profile-handler
  parameters:
    deciders:
      prefill: always-disagg-pd-decider
{plugin}schedulingProfiles:
- name: prefill
  plugins:
  - pluginRef: prefill-filter
{ref}  - pluginRef: prefix-cache-scorer
    weight: 3
  - pluginRef: queue-scorer
    weight: 2
  - pluginRef: kv-cache-utilization-scorer
    weight: 2
  - pluginRef: max-score-picker
- name: decode
  plugins:
  - pluginRef: decode-filter
{ref}  - pluginRef: active-request-scorer
    weight: 2
  - pluginRef: prefix-cache-scorer
    weight: 3
  - pluginRef: max-score-picker
"""


def default_config_text(spec: dict[str, Any]) -> str:
    """schedulerConfigText without inline config: single-profile or P/D, with the LoRA scorer when
    `model.lora.adapters` is non-empty. The text as generated, before any migration."""
    lora = bool(((spec.get("model") or {}).get("lora") or {}).get("adapters"))
    text = _DEFAULT_PD if spec.get("prefill") is not None else _DEFAULT
    return text.format(plugin=_LORA_PLUGIN if lora else "", ref=_LORA_REF if lora else "")


# -- EndpointPickerConfig: version-gated migrations (schedulerTransform) --------------------------

if TYPE_CHECKING:
    Step = Callable[[dict[str, Any]], None]

_METRIC_FLAGS = {
    "total-queued-requests-metric": "queuedRequestsSpec",
    "total-running-requests-metric": "runningRequestsSpec",
    "kv-cache-usage-percentage-metric": "kvUsageSpec",
    "lora-info-metric": "loraSpec",
    "cache-info-metric": "cacheInfoSpec",
}
_SCHEME, _PATH, _PORT, _INSECURE = (
    "model-server-metrics-scheme",
    "model-server-metrics-path",
    "model-server-metrics-port",
    "model-server-metrics-https-insecure-skip-verify",
)
_MODEL_SERVER_FLAGS = (_SCHEME, _PATH, _PORT, _INSECURE)


def _fail(message: str) -> LlmcError:
    return LlmcError(
        message,
        hint="the controller fails the scheduler reconcile (SchedulerWorkloadReady=False, SchedulerReconcileError)",
    )


def _transform(ctx: RenderContext, pod: dict[str, Any], annotations: dict[str, str], tokenizer_url: str | None) -> None:
    """schedulerTransform: the migrations for the EPP version in the pod annotation (absent: 0.0.0)."""
    version = _semver(annotations.get(VERSION_ANNOTATION) or "0.0.0")
    if version < _semver("0.7.0"):
        return
    dep = f"{ctx.namespace}/{ctx.child('-kserve-router-scheduler')}"
    writable = _writable(pod)
    if not writable and any(
        _flag_name(arg) in _METRIC_FLAGS for c in pod.get("containers") or [] for arg in c.get("args") or []
    ):
        raise _fail(
            f"scheduler deployment {dep} uses deprecated metric flags but has no inline --config-text; "
            "automatic migration to core-metrics-extractor plugin is not possible — convert to "
            "--config-text or remove the deprecated flags manually"
        )
    steps: list[Step] = [
        lambda cfg: _rename_plugin(cfg, "prefill-header-handler", "disagg-headers-handler"),
        lambda cfg: _rename_plugin(cfg, "pd-profile-handler", "disagg-profile-handler"),
        _migrate_disagg_profile_params,
        _remove_hash_block_size,
    ]
    if writable:
        extracted: dict[str, str] = {}
        for container in pod.get("containers") or []:
            found = _strip_flags(container, "args", _METRIC_FLAGS)
            if found:
                extracted = found
        steps.append(lambda cfg: _add_metrics_extractor(cfg, extracted))
    if version >= _semver("0.8.0"):
        steps.append(lambda cfg: _rename_plugin(cfg, METRICS_EXTRACTOR, METRICS_EXTRACTOR_V08))
    if version >= _semver("0.9.0"):
        steps += [_prefix_scorer_v09, lambda cfg: _remove_unused_tokenizer(cfg, pod), _llmd_api_version]
        if tokenizer_url is not None:
            steps += [lambda cfg: _decompose_precise_prefix(cfg, tokenizer_url), lambda cfg: _fill_token_producer(cfg, tokenizer_url)]
    if version >= _semver("0.10.0"):
        params: dict[str, str] = {}
        for container in pod.get("containers") or []:
            params.update(_strip_flags(container, "command", _MODEL_SERVER_FLAGS))
            params.update(_strip_flags(container, "args", _MODEL_SERVER_FLAGS))
        params.pop(_PORT, None)
        if params:
            if not writable:
                flags = ", ".join(sorted("--" + name for name in params))
                raise _fail(
                    f"scheduler deployment {dep} sets deprecated {flags} but has no inline --config-text; "
                    "automatic migration to the metrics-data-source plugin is not possible — convert to "
                    "--config-text or remove the flags manually"
                )
            parameters = _metrics_data_source_parameters(params)
            if parameters:
                steps.append(lambda cfg: _add_metrics_data_source(cfg, parameters))
    _mutate_config(pod, steps)


def _writable(pod: dict[str, Any]) -> bool:
    main = find_container(pod.get("containers"), MAIN)
    args = (main or {}).get("args") or []
    return any(args[i] in INLINE_FLAGS for i in range(len(args) - 1))


def _mutate_config(pod: dict[str, Any], steps: list[Step]) -> None:
    """mutateSchedulerConfig: every inline config-text value of `main`, parsed once, mutated, re-serialised.
    A value that is not an object with a `kind` stops the mutation silently."""
    main = find_container(pod.get("containers"), MAIN)
    if main is None:
        return
    args = main.get("args") or []
    for i in range(len(args) - 1):
        if args[i] in INLINE_FLAGS:
            cfg = parse_go_yaml(args[i + 1])
            if not isinstance(cfg, dict) or not isinstance(cfg.get("kind"), str) or not cfg["kind"]:
                return
            for step in steps:
                step(cfg)
            args[i + 1] = dump_go_yaml(cfg)


def _flag_name(arg: str) -> str:
    return arg.lstrip("-").split("=", 1)[0]


def _strip_flags(container: dict[str, Any], key: str, names: Any) -> dict[str, str]:
    """filterArgs: drop `--flag=value` and `--flag value` entries, returning {flag: value}."""
    items = container.get(key) or []
    kept: list[str] = []
    found: dict[str, str] = {}
    i = 0
    while i < len(items):
        arg = items[i]
        name, eq, value = arg.lstrip("-").partition("=")
        if name not in names:
            kept.append(arg)
            i += 1
            continue
        if not eq or not value:
            value = ""
            if i + 1 < len(items) and not items[i + 1].startswith("-"):
                value = items[i + 1]
                i += 1
        found[name] = value
        i += 1
    if found:
        if kept:
            container[key] = kept
        else:
            container.pop(key, None)
    return found


def _plugins(cfg: dict[str, Any]) -> list[Any] | None:
    plugins = cfg.get("plugins")
    return plugins if isinstance(plugins, list) else None


def _plugin_maps(cfg: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in _plugins(cfg) or [] if isinstance(p, dict)]


def _profile_refs(cfg: dict[str, Any]) -> list[list[Any]]:
    profiles = cfg.get("schedulingProfiles")
    if not isinstance(profiles, list):
        return []
    out = []
    for profile in profiles:
        if isinstance(profile, dict) and isinstance(profile.get("plugins"), list):
            out.append(profile["plugins"])
    return out


def _rename_plugin(cfg: dict[str, Any], old: str, new: str) -> None:
    """WithRenamePlugin: type, name and profile pluginRefs (profiles only when `plugins` is a list)."""
    if _plugins(cfg) is None:
        return
    for plugin in _plugin_maps(cfg):
        if plugin.get("type") == old:
            plugin["type"] = new
        if plugin.get("name") == old:
            plugin["name"] = new
    for refs in _profile_refs(cfg):
        for ref in refs:
            if isinstance(ref, dict) and ref.get("pluginRef") == old:
                ref["pluginRef"] = new


def _params(plugin: dict[str, Any]) -> dict[str, Any] | None:
    params = plugin.get("parameters")
    return params if isinstance(params, dict) else None


def _migrate_disagg_profile_params(cfg: dict[str, Any]) -> None:
    """WithMigrateDisaggProfileParams: deciderPluginName / threshold become a `deciders` map;
    decider plugins it needs are inserted before the first handler."""
    plugins = _plugins(cfg)
    if plugins is None:
        return
    inject: list[dict[str, Any]] = []
    handler = -1
    for i, plugin in enumerate(plugins):
        if not isinstance(plugin, dict) or plugin.get("type") not in ("disagg-profile-handler", "pd-profile-handler"):
            continue
        if handler == -1:
            handler = i
        if plugin.get("parameters") is not None and _params(plugin) is None:
            raise _fail(f".parameters accessor error: {plugin['parameters']!r} is not a map[string]interface{{}}")
        params = _params(plugin)
        if params is None or "deciders" in params:
            continue
        if "deciderPluginName" in params:
            name = params["deciderPluginName"]
            if not isinstance(name, str):
                raise _fail(f".parameters.deciderPluginName accessor error: {name!r} is not a string")
            params["deciders"] = {"prefill": name}
            params.pop("deciderPluginName")
            params.pop("threshold", None)
            continue
        if "threshold" not in params:
            continue
        threshold = params.pop("threshold")
        if _go_v(threshold) == "0":
            params["deciders"] = {"prefill": "always-disagg-pd-decider"}
            inject.append({"type": "always-disagg-pd-decider"})
        else:
            params["deciders"] = {"prefill": "prefix-based-pd-decider"}
            inject.append({"type": "prefix-based-pd-decider", "parameters": {"nonCachedTokens": _non_cached_tokens(threshold)}})
    inserted = 0
    for entry in inject:
        if any(isinstance(p, dict) and p.get("type") == entry["type"] for p in plugins):
            continue
        plugins.insert(handler + inserted, entry)
        inserted += 1


def _go_v(value: Any) -> str:
    """fmt %v of an unstructured value: whole numbers are int64 there, other numbers float64."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return sprint_json(value)


def _non_cached_tokens(threshold: Any) -> int:
    """thresholdToNonCachedTokens: ceil(threshold / 4), at least 1 (a ~4:1 character-to-token ratio)."""
    if isinstance(threshold, (int, float)) and not isinstance(threshold, bool):
        number = float(threshold)
    else:
        match = re.match(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?", _go_v(threshold))
        if match is None:
            return 1
        number = float(match.group(0))
    return max(1, math.ceil(number / 4.0))


def _remove_hash_block_size(cfg: dict[str, Any]) -> None:
    for plugin in _plugin_maps(cfg):
        params = _params(plugin)
        if params is not None:
            params.pop("hashBlockSize", None)


def _add_metrics_extractor(cfg: dict[str, Any], extracted: dict[str, str]) -> None:
    """withCoreMetricsExtractorPlugin: the old metric flags' values as a plugin, unless one exists."""
    if not extracted:
        return
    plugins = _plugins(cfg) or []
    if any(p.get("type") in (METRICS_EXTRACTOR, METRICS_EXTRACTOR_V08) for p in _plugin_maps(cfg)):
        return
    engine = {"name": "vllm"}
    engine.update({field: extracted[flag] for flag, field in _METRIC_FLAGS.items() if flag in extracted})
    plugins.append(
        {
            "name": METRICS_EXTRACTOR,
            "type": METRICS_EXTRACTOR,
            "parameters": {
                "engineLabelKey": "inference.networking.k8s.io/engine-type",
                "defaultEngine": "vllm",
                "engineConfigs": [engine],
            },
        }
    )
    cfg["plugins"] = plugins


def _prefix_scorer_v09(cfg: dict[str, Any]) -> None:
    """withRemovePrefixCacheScorerParametersV09: only prefixMatchInfoProducerName survives."""
    for plugin in _plugin_maps(cfg):
        if plugin.get("type") != PREFIX_SCORER or "parameters" not in plugin:
            continue
        params = _params(plugin)
        if params is None:
            continue
        for key in [k for k in params if k != "prefixMatchInfoProducerName"]:
            del params[key]
        if not params:
            del plugin["parameters"]


def _remove_unused_tokenizer(cfg: dict[str, Any], pod: dict[str, Any]) -> None:
    """withRemoveUnnecessaryTokenizer: drop a `tokenizer` container unless precise-prefix-cache-scorer is used."""
    if _plugins(cfg) is None:
        return
    if any(p.get("type") == PRECISE_PREFIX_SCORER for p in _plugin_maps(cfg)):
        return
    containers = pod.get("containers") or []
    for i, container in enumerate(containers):
        if container.get("name") == TOKENIZER_SIDECAR:
            del containers[i]
            return


def _llmd_api_version(cfg: dict[str, Any]) -> None:
    if cfg.get("apiVersion") == "inference.networking.x-k8s.io/v1alpha1":
        cfg["apiVersion"] = "llm-d.ai/v1alpha1"


def _producer_params(old: dict[str, Any]) -> dict[str, Any] | None:
    """migrateProducerParams: the old scorer's parameters without tokenizersPoolConfig, with
    indexerConfig.tokenProcessorConfig promoted to the top unless already there."""
    params = _params(old)
    if not params:
        return None
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key != "indexerConfig":
            out[key] = value
            continue
        if not isinstance(value, dict):
            continue
        cleaned = {}
        for inner, inner_value in value.items():
            if inner == "tokenizersPoolConfig":
                continue
            if inner == "tokenProcessorConfig":
                if "tokenProcessorConfig" not in params:
                    out["tokenProcessorConfig"] = inner_value
                continue
            cleaned[inner] = inner_value
        if cleaned:
            out[key] = cleaned
    return out or None


def _decompose_precise_prefix(cfg: dict[str, Any], url: str) -> None:
    """withDecomposePrecisePrefixCacheScorer: token-producer + precise-prefix-cache-producer +
    prefix-cache-scorer in place of the monolithic scorer; profile refs renamed and de-duplicated."""
    plugins = _plugins(cfg)
    if plugins is None:
        return
    idx = next((i for i, p in enumerate(plugins) if isinstance(p, dict) and p.get("type") == PRECISE_PREFIX_SCORER), -1)
    if idx < 0:
        return
    producer: dict[str, Any] = {"type": PRECISE_PREFIX_PRODUCER}
    params = _producer_params(plugins[idx])
    if params:
        producer["parameters"] = params
    new = [
        {"type": TOKEN_PRODUCER, "parameters": {"modelName": TOKENIZER_MODEL_PATH, "vllm": {"url": url}}},
        producer,
        {"type": PREFIX_SCORER, "parameters": {"prefixMatchInfoProducerName": PRECISE_PREFIX_PRODUCER}},
    ]
    remaining = [
        p for i, p in enumerate(plugins) if i != idx and not (isinstance(p, dict) and p.get("type") == PREFIX_SCORER)
    ]
    at = min(idx, len(remaining))
    cfg["plugins"] = remaining[:at] + new + remaining[at:]
    profiles = cfg.get("schedulingProfiles")
    if not isinstance(profiles, list):
        return
    for profile in profiles:
        if not isinstance(profile, dict) or not isinstance(profile.get("plugins"), list):
            continue
        refs = profile["plugins"]
        for ref in refs:
            if isinstance(ref, dict) and ref.get("pluginRef") == PRECISE_PREFIX_SCORER:
                ref["pluginRef"] = PREFIX_SCORER
        seen = False
        deduped = []
        for ref in refs:
            if isinstance(ref, dict) and ref.get("pluginRef") == PREFIX_SCORER:
                if seen:
                    continue
                seen = True
            deduped.append(ref)
        profile["plugins"] = deduped


def _fill_token_producer(cfg: dict[str, Any], url: str) -> None:
    """withInjectTokenProducerConfig: modelName and vllm.url of every token-producer, where missing."""
    for plugin in _plugin_maps(cfg):
        if plugin.get("type") != TOKEN_PRODUCER:
            continue
        params = _params(plugin)
        if params is None:
            params = plugin["parameters"] = {}
        params.setdefault("modelName", TOKENIZER_MODEL_PATH)
        vllm = params.get("vllm")
        if not isinstance(vllm, dict):
            vllm = params["vllm"] = {}
        vllm.setdefault("url", url)


_GO_BOOLS = {"1": True, "t": True, "T": True, "TRUE": True, "true": True, "True": True}
_GO_BOOLS.update({"0": False, "f": False, "F": False, "FALSE": False, "false": False, "False": False})


def _metrics_data_source_parameters(params: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if params.get(_SCHEME):
        out["scheme"] = params[_SCHEME]
    if params.get(_PATH):
        out["path"] = params[_PATH]
    if _INSECURE in params:
        value = params[_INSECURE]
        if value == "":
            out["insecureSkipVerify"] = True
        elif value in _GO_BOOLS:
            out["insecureSkipVerify"] = _GO_BOOLS[value]
        else:
            raise _fail(
                f'invalid value "{value}" for --{_INSECURE}: strconv.ParseBool: parsing "{value}": invalid syntax'
            )
    return out


def _add_metrics_data_source(cfg: dict[str, Any], parameters: dict[str, Any]) -> None:
    """withMetricsDataSourceParams: append the plugin unless one is declared."""
    plugins = _plugins(cfg) or []
    if any(p.get("type") == METRICS_DATA_SOURCE for p in _plugin_maps(cfg)):
        return
    plugins.append({"type": METRICS_DATA_SOURCE, "parameters": parameters})
    cfg["plugins"] = plugins


# legacy in-pod tokenizer sidecar (llmisvc/tokenizer.go)


def _uds_tokenizer_config(cfg: dict[str, Any]) -> None:
    for plugin in _plugin_maps(cfg):
        if plugin.get("type") == PRECISE_PREFIX_SCORER:
            pool = _set_path(plugin, ("parameters", "indexerConfig", "tokenizersPoolConfig"))
            pool["modelName"] = "base"
            _set_path(pool, ("uds",))["socketFile"] = "/tmp/tokenizer/tokenizer-uds.socket"


def _promote_token_processor_config(cfg: dict[str, Any]) -> None:
    for plugin in _plugin_maps(cfg):
        if plugin.get("type") != PRECISE_PREFIX_SCORER:
            continue
        params = _params(plugin)
        if params is None or "tokenProcessorConfig" in params:
            continue
        indexer = params.get("indexerConfig")
        if isinstance(indexer, dict) and "tokenProcessorConfig" in indexer:
            params["tokenProcessorConfig"] = copy_json(indexer["tokenProcessorConfig"])


def _block_size_tokens(cfg: dict[str, Any]) -> None:
    for plugin in _plugin_maps(cfg):
        if plugin.get("type") != PREFIX_SCORER:
            continue
        params = _params(plugin)
        if params is not None and "blockSizeTokens" not in params and "blockSize" in params:
            params["blockSizeTokens"] = params["blockSize"]


def _set_path(node: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    """unstructured.SetNestedField's walk: create missing maps, fail on a non-map in the way."""
    for key in path:
        child = node.get(key)
        if child is None:
            child = node[key] = {}
        if not isinstance(child, dict):
            raise _fail(f"value cannot be set because .{key} is not a map[string]interface{{}}")
        node = child
    return node


@record(frozen=True, order=True)
class _Version:
    major: int
    minor: int
    patch: int
    release: bool  # no pre-release suffix: sorts after any pre-release of the same X.Y.Z


_IDENTIFIER = re.compile(r"[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*")


def _semver(text: str) -> _Version:
    """coreos/go-semver NewVersion: dotted-tri `X.Y.Z[-pre][+meta]`."""
    rest, _, build = text.partition("+")
    core, _, pre = rest.partition("-")
    parts = core.split(".", 2)
    if len(parts) != 3:
        raise _fail(f'failed to parse version "{text}": {core} is not in dotted-tri format')
    for what, ident in (("pre-release", pre), ("metadata", build)):
        if ident and not _IDENTIFIER.fullmatch(ident):
            raise _fail(f'failed to parse version "{text}": failed to validate {what}: {ident} is not a valid semver identifier')
    numbers = []
    for part in parts:
        if not re.fullmatch(r"[+-]?[0-9]+", part):
            raise _fail(f'failed to parse version "{text}": strconv.ParseInt: parsing "{part}": invalid syntax')
        numbers.append(int(part))
    return _Version(numbers[0], numbers[1], numbers[2], not pre)
