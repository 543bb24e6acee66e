"""The scheduler part of a merged spec: its pool reference, its EndpointPickerConfig text and
the plugins in it, which decide whether the tokenizer and the latency predictor are rendered.

KServe `scheduler.go` (inlineSchedulerConfigBytes, hasPluginType, isTokenizerEnabled). The
resolver reads these before templating and after; the router's render steps read them again.
"""

from __future__ import annotations


from llmc.go.json import marshal as go_json
from llmc.go.yaml import parse_go_yaml
from llmc.kserve.spec import MAIN, find_container

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any, Callable


EPP_PORT = 9002
INLINE_FLAGS = ("--config-text", "-config-text", "--configText", "-configText")
CONFIG_FLAGS = INLINE_FLAGS + ("--config-file", "-config-file", "--configFile", "-configFile")
TOKEN_PRODUCER = "token-producer"
PRECISE_PREFIX_SCORER = "precise-prefix-cache-scorer"
LATENCY_PRODUCER = "predicted-latency-producer"


class RawConfig(dict):
    """`config.inline` resolved from a `config.ref` ConfigMap: the parsed object, plus the raw text.

    The controller copies the ConfigMap value into `config.inline` verbatim and passes those
    bytes to `--config-text`, while its dry-run validation sees them converted to JSON. As a
    dict this value validates like that JSON; `raw` keeps the text for the EPP argument.
    """

    def __init__(self, value: dict[str, Any], raw: str) -> None:
        super().__init__(value)
        self.raw = raw


def scheduler(spec: dict[str, Any]) -> dict[str, Any] | None:
    return (spec.get("router") or {}).get("scheduler")


def pool_ref_name(spec: dict[str, Any]) -> str | None:
    """The name in `router.scheduler.pool.ref`, if any."""
    return (((scheduler(spec) or {}).get("pool") or {}).get("ref") or {}).get("name")


def pool_spec(spec: dict[str, Any]) -> dict[str, Any] | None:
    """`router.scheduler.pool.spec`: the managed InferencePool's spec, if any."""
    return ((scheduler(spec) or {}).get("pool") or {}).get("spec")


def has_pool_ref(spec: dict[str, Any]) -> bool:
    """InferencePoolSpec.HasRef: a pool ref with a non-empty name."""
    return bool(pool_ref_name(spec))


def is_managed(spec: dict[str, Any]) -> bool:
    """hasManagedScheduler: a scheduler with a pod template and no external pool."""
    sched = scheduler(spec)
    return sched is not None and sched.get("template") is not None and not has_pool_ref(spec)


def config_flag(containers: list[dict[str, Any]] | None) -> tuple[str, str] | None:
    """configFlagFromContainers: the first config flag and its value in the `main` container's args."""
    main = find_container(containers, MAIN)
    if main is None:
        return None
    args = main.get("args") or []
    for i in range(len(args) - 1):
        if args[i] in CONFIG_FLAGS:
            return args[i], args[i + 1]
    return None


def inline_raw(inline: Any) -> str:
    """The bytes the controller holds in `config.inline` (a RawExtension): ConfigMap text as is,
    an inline object as the API server serves it (compact JSON, sorted keys, HTML-escaped)."""
    if isinstance(inline, RawConfig):
        return inline.raw
    if isinstance(inline, str):
        return inline
    return go_json(inline)


def scheduler_config_text(spec: dict[str, Any]) -> str | None:
    """inlineSchedulerConfigBytes: `config.inline`, else the `main` container's `--config-text` value.

    A `--config-file` flag (contents unknown) and a `config.ref` (resolved later) yield None.
    """
    sched = scheduler(spec)
    if sched is None:
        return None
    inline = (sched.get("config") or {}).get("inline")
    if inline is not None:
        return inline_raw(inline)
    if sched.get("template") is not None:
        pair = config_flag((sched["template"] or {}).get("containers"))
        if pair is not None and pair[0] in INLINE_FLAGS:
            return pair[1]
    return None


def has_plugin(text: str | None, plugin_type: str) -> bool:
    """hasPluginType on the config text: a `plugins` entry whose `type` equals plugin_type."""
    if text is None:
        return False
    parsed = parse_go_yaml(text)
    if not isinstance(parsed, dict):
        return False
    plugins = parsed.get("plugins")
    if not isinstance(plugins, list):
        return False
    return any(isinstance(p, dict) and p.get("type") == plugin_type for p in plugins)


def latency_predictor_enabled(spec: dict[str, Any], from_config_text: bool = True) -> bool:
    """hasLatencyProducerInSpec; KServe v0.20 read only `config.inline` (from_config_text=False)."""
    sched = scheduler(spec)
    if sched is None:
        return False
    if from_config_text:
        return has_plugin(scheduler_config_text(spec), LATENCY_PRODUCER)
    inline = (sched.get("config") or {}).get("inline")
    return inline is not None and has_plugin(inline_raw(inline), LATENCY_PRODUCER)


def inference_pool_name(spec: dict[str, Any], child: Callable[[str], str]) -> str:
    """SchedulerSpec.InferencePoolName: the pool ref, else `<name>-inference-pool`."""
    return pool_ref_name(spec) or child("-inference-pool")


def tokenizer_enabled(spec: dict[str, Any]) -> bool:
    """isTokenizerEnabled: `scheduler.tokenizer` set, or a plugin that calls the tokenizer."""
    sched = scheduler(spec)
    if sched is None:
        return False
    if sched.get("tokenizer") is not None:
        return True
    text = scheduler_config_text(spec)
    return has_plugin(text, TOKEN_PRODUCER) or has_plugin(text, PRECISE_PREFIX_SCORER)
