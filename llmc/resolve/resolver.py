"""Resolve one LLMInferenceService into its merged, rendered spec, as the controller does.

Steps (`combineBaseRefsConfig`, llmisvc/config_merge.go): first pass over baseRefs (feature detection, model-name
copy), preset selection and order, namespace lookup, the strategic-merge fold,
pre-template defaults, Go-template evaluation on the JSON text, post-template
steps (managed DRA, route rewrites, scheduler config ref, EPP port, LoRA), and
validation of the merged result.
"""

from __future__ import annotations


from llmc.core.errors import ErrorList, LlmcError
from llmc.core.findings import Findings
from llmc.core.record import field, record
from llmc.k8s.names import child_name
from llmc.kserve import scheduler_spec
from llmc.kserve.settings import Settings
from llmc.load.documents import Path
from llmc.resolve import baseref, dra_claims, lora_adapters, router_fixups
from llmc.resolve.presets import ConfigStore, PREFIX, StoredConfig

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any


@record(frozen=True)
class Behaviour:
    """Controller version differences that change resolution (kserve v0.20.0 vs master, llmisvc/config_merge.go)."""

    tokenizer_preset: bool = True  # HEAD selects kserve-config-llm-tokenizer
    latency_from_config_text: bool = True  # HEAD also reads --config-text for detection

    @classmethod
    def for_version(cls, version: str) -> "Behaviour":
        if version == "v0.20":
            return cls(tokenizer_preset=False, latency_from_config_text=False)
        return cls()


@record
class Resolved:
    """The outcome of resolution for one service."""

    service: dict[str, Any]  # as stored: CRD + webhook defaults, model name patched
    spec: dict[str, Any]  # merged, rendered, post-processed
    applied_configs: list[dict[str, str]]
    findings: Findings
    lora_adapters: list[dict[str, Any]] = field(default_factory=list)
    # merge layers, lowest precedence first: ("Preset:kserve/kserve-config-llm-template", projected spec), ...,
    # ("Service", own spec); for provenance in `llmc explain`
    layers: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


@record
class Resolver:
    """Resolves services against one config store and one set of cluster settings.

    Merges of the same preset sequence are cached: in a batch most services share them.
    """

    store: ConfigStore
    settings: Settings
    configmaps: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    behaviour: Behaviour = field(default_factory=Behaviour)
    _prefix_cache: dict[tuple[tuple[str, str], ...], dict[str, Any]] = field(default_factory=dict)

    def resolve(self, service: dict[str, Any], locate=lambda path: None) -> Resolved:
        from llmc.kserve.gotypes import project
        from llmc.core.jsoncopy import copy_json
        from llmc.resolve.merge import merge_specs

        meta = service["metadata"]
        name, namespace = meta["name"], meta["namespace"]
        findings = Findings(f"{namespace}/{name}")
        own = project(service.get("spec") or {}, overlay=True)

        # First pass: the service with its baseRefs on top (baseRefs win here).
        baserefs = [
            (i, ref.get("name") or "") for i, ref in enumerate((service.get("spec") or {}).get("baseRefs") or [])
        ]
        base_configs = [self._lookup(ref, namespace, locate, ("spec", "baseRefs", i, "name")) for i, ref in baserefs]
        first = merge_specs(own, *[c.spec for c in base_configs], projected=True) if base_configs else own
        self._copy_model_name(service, own, first, findings)

        # Presets in the controller's fixed order, then the baseRefs.
        refs: list[tuple[str, str, Path]] = [(n, "Preset", ("spec",)) for n in self._preset_names(first)]
        refs += [(ref, "UserRef", ("spec", "baseRefs", i, "name")) for i, ref in baserefs]
        layers: list[StoredConfig] = []
        applied: list[dict[str, str]] = []
        for ref, source, where in refs:
            config = self._lookup(ref, namespace, locate, where)
            layers.append(config)
            applied.append({"name": ref, "namespace": config.namespace, "source": source})

        try:
            merged = merge_specs(self._merged_layers(layers), own, projected=True) if layers else copy_json(own)
        except LlmcError as exc:  # the controller wraps the second pass's merge error once more
            exc.message = f"failed to merge specs: {exc.message}"
            raise


        router_fixups.default_pool_selector(merged, name)
        router_fixups.default_scheduler_service_account(merged, name)
        stored = {key: None if key == "spec" else copy_json(value) for key, value in service.items()}
        stored["spec"] = own
        from llmc.resolve.splice import splice_findings

        splice_findings({"metadata": stored["metadata"], "spec": merged}, stored, findings)
        try:
            merged = self._render_templates(stored, merged, namespace, name)
        except LlmcError as exc:
            _place_template_error(exc, own, layers, locate)
            raise

        if dra_claims.DEVICE_CLASS in (meta.get("annotations") or {}):
            dra_claims.inject(merged, name, dra_claims.parse_annotations(meta["annotations"]))
        router_fixups.apply_gateway_refs(merged)
        router_fixups.rewrite_default_backend_refs(merged, name)
        router_fixups.resolve_scheduler_config_ref(
            merged, namespace, self.settings.system_namespace, self.configmaps, findings
        )
        router_fixups.default_epp_port(merged)


        adapters = lora_adapters.enumerate_adapters(merged, stored)
        for path in baseref.baseref_invisible_fields(own, merged):
            findings.add(
                "LLMC002",
                f"spec.{path}",
                "comes from a preset or baseRef; the preset templates read only the service's own spec, "
                "so vLLM flags built from it (tensor/data parallel, kv-transfer, shutdown timeout) ignore it",
            )
        _scan_template_actions(service, findings)
        self._validate_merged(stored, merged, applied, locate)
        layer_specs = [(f"{a['source']}:{a['namespace']}/{a['name']}", c.spec) for a, c in zip(applied, layers)]
        layer_specs.append(("Service", own))
        return Resolved(stored, merged, applied, findings, adapters, layers=layer_specs)

    # -- steps -------------------------------------------------------------------------------

    def _lookup(self, name: str, namespace: str, locate, where: Path) -> StoredConfig:
        """The config `name` refers to; `locate(where)` places the error when there is none."""
        config = self.store.find(name, namespace, self.settings.system_namespace)
        if config is None:
            raise self.store.not_found(name, namespace, self.settings.system_namespace, locate(where))
        return config

    def _merged_layers(self, layers: list[StoredConfig]) -> dict[str, Any]:
        """merge_specs over the config layers, cached by their identity (never mutated by callers)."""
        from llmc.resolve.merge import merge_specs

        key = tuple((c.namespace, c.name) for c in layers)
        cached = self._prefix_cache.get(key)
        if cached is None:
            cached = merge_specs(*[c.spec for c in layers], projected=True) if len(layers) > 1 else layers[0].spec
            self._prefix_cache[key] = cached
        return cached

    @staticmethod
    def _copy_model_name(service: dict, own: dict, first: dict, findings: Findings) -> None:
        """The first pass's model.name is written back into the service (`combineBaseRefsConfig`, llmisvc/config_merge.go)."""
        first_name = (first.get("model") or {}).get("name")
        if first_name is None:
            return
        own_name = (own.get("model") or {}).get("name")
        if own_name != first_name:
            findings.add(
                "LLMC001",
                "spec.model.name",
                f"a baseRef sets model.name {first_name!r}, which replaces the service's {own_name!r}",
            )
        own.setdefault("model", {"uri": ""})["name"] = first_name

    def _preset_names(self, spec: dict[str, Any]) -> list[str]:
        """Which presets apply, in the controller's order (`combineBaseRefsConfig`, llmisvc/config_merge.go)."""

        names: list[str] = []
        router = spec.get("router")
        scheduler = (router or {}).get("scheduler") if router is not None else None
        if scheduler is not None and not scheduler_spec.has_pool_ref(spec):
            names.append("config-llm-scheduler")
        if scheduler is not None and self.behaviour.tokenizer_preset and scheduler_spec.tokenizer_enabled(spec):
            names.append("config-llm-tokenizer")
        if scheduler_spec.latency_predictor_enabled(spec, self.behaviour.latency_from_config_text):
            names.append("config-llm-scheduler-latency-predictor")
        route = (router or {}).get("route") if router is not None else None
        if route is not None and not ((route.get("http") or {}).get("refs")):
            names.append("config-llm-router-route")
        if spec.get("tracing") is not None:
            names.append("config-llm-tracing")
        prefill = spec.get("prefill")
        if prefill is not None:
            names += _workload_preset(prefill, "prefill-")
            names += _workload_preset(spec, "decode-")
        else:
            names += _workload_preset(spec, "")
        return [PREFIX + n for n in names]

    def _render_templates(self, stored: dict, merged: dict, namespace: str, name: str) -> dict[str, Any]:
        from llmc.kserve.gotypes import project
        from llmc.resolve.templatedata import render_config

        gw_ns, gw_name = self.settings.ingress_gateway
        pool = scheduler_spec.inference_pool_name(merged, lambda suffix: child_name(name, suffix))
        global_config = {
            "SystemNamespace": self.settings.system_namespace,
            "IngressGatewayName": gw_name,
            "IngressGatewayNamespace": gw_ns,
            "EnableTLS": self.settings.enable_tls,
            "ModelBasedRoutingHeaderName": self.settings.model_routing_header,
            "InferencePoolNamespacedName": f"{namespace}/{pool}" if namespace else pool,
        }
        # render_config copies what it returns, and an error without a location is placed at the
        # service's document by pipeline.render_pending (load.relocate)
        rendered = render_config({"metadata": stored["metadata"], "spec": merged}, stored, global_config,
                                 spec_projected=True)
        return project(rendered.get("spec") or {})

    def _validate_merged(self, stored: dict, merged: dict, applied: list[dict[str, str]], locate) -> None:
        """The controller dry-runs the merged spec through the API server (CRD schema, CEL, webhook)."""
        from llmc.load.documents import Document
        from llmc.admit.schema import validate
        from llmc.admit.webhook import default_service, validate_service

        probe = {
            "apiVersion": "serving.kserve.io/v1alpha2",
            "kind": "LLMInferenceService",
            "metadata": {"name": stored["metadata"]["name"], "namespace": stored["metadata"]["namespace"]},
            "spec": merged,
        }
        try:
            probe = default_service(probe)
            validate(Document(obj=probe, file="<merged spec>", index=0, positions={}))
            validate_service(probe)
        except ErrorList as errs:
            refs = ", ".join(f"{a['source']}:{a['namespace']}/{a['name']}" for a in applied)
            causes = "; ".join(e.message for e in errs.errors)
            raise LlmcError(
                f"dry-run validation failed after merging configs [{refs}]: {causes}",
                locate(("spec",)),
                hint="the merged spec is invalid although the service alone is valid: check the baseRefs and presets",
            ) from None


def _place_template_error(exc: LlmcError, own: dict, layers: list[StoredConfig], locate) -> None:
    """Put a template error at the line of the string that holds the failing action (see
    templatedata._at_source): the service's own field, else the highest-precedence config that
    has it (same path first, then the same text anywhere, as a merge moves list items)."""
    source = getattr(exc, "template_source", None)
    if source is None or (exc.location is not None and exc.location.line is not None):
        return
    path, value = source
    if path[:1] == ("metadata",) or _at(own, path[1:]) == value:
        exc.location = locate(path)
        return
    candidates = [(own, locate)] + [(c.spec, c.doc.locate) for c in reversed(layers) if c.doc is not None]
    for spec, where in candidates:
        found = path[1:] if _at(spec, path[1:]) == value else _find_string(spec, value)
        if found is not None:
            exc.location = where(("spec", *found))
            return


def _at(node: Any, path: tuple) -> Any:
    for step in path:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _find_string(node: Any, value: str, path: tuple = ()) -> tuple | None:
    if node == value:
        return path
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, item in items:
        found = _find_string(item, value, (*path, key))
        if found is not None:
            return found
    return None


def _workload_preset(workload: dict[str, Any], role: str) -> list[str]:
    """single-node template, DP worker, or the (unshipped) PP worker preset for one workload."""
    if workload.get("worker") is None:
        return [f"config-llm-{role}template"]
    par = workload.get("parallelism") or {}
    if (par.get("data") or 0) > 0 or (par.get("dataLocal") or 0) > 0:
        return [f"config-llm-{role}worker-data-parallel"]
    if (par.get("pipeline") or 0) > 0:
        return [f"config-llm-{role}worker-pipeline-parallel"]
    return []


def _scan_template_actions(service: dict[str, Any], findings: Findings) -> None:
    """The controller evaluates `{{` in every string of the service, user-written ones included."""

    def walk(node: Any, path: str) -> None:
        if isinstance(node, str):
            if "{{" in node:
                findings.add("LLMC003", path, "contains a template action; the controller evaluates it (--allow LLMC003 if that is intended)")
        elif isinstance(node, dict):
            for k, v in node.items():
                walk(v, f"{path}.{k}" if path else str(k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{path}[{i}]")

    walk(service.get("metadata", {}).get("labels") or {}, "metadata.labels")
    walk(service.get("metadata", {}).get("annotations") or {}, "metadata.annotations")
    walk(service.get("spec") or {}, "spec")
