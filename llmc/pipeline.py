"""The pure pipeline: loaded documents in, rendered objects and findings out.

Every input error of every document is collected before anything is rendered,
so the user sees them all at once and stdout stays empty.
"""

from __future__ import annotations

import marshal

from llmc.admit.admission import SERVICE_KIND
from llmc.core.errors import ErrorList, LlmcError
from llmc.core.findings import Finding
from llmc.load.documents import Document, relocate
from llmc.resolve.presets import CONFIG_KIND, ConfigStore, StoredConfig
from llmc.core.record import field, record
from llmc.render.context import RenderOptions
from llmc.resolve.resolver import Behaviour, Resolved, Resolver
from llmc.kserve.settings import Settings

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

    from llmc.core.errors import Location


@record(frozen=True)
class Request:
    """Everything one run needs; built by the CLI from flags and files."""

    inputs: list[Document]
    presets: list[Document]
    settings: Settings = field(default_factory=Settings)
    options: RenderOptions = field(default_factory=RenderOptions)
    namespace: str = "default"
    kserve_version: str = "master"  # whose controller behaviour to reproduce: master or v0.20
    isvc_config: Any = None  # llmc.isvc.IsvcConfig for InferenceService inputs (None: KServe's shipped values)
    runtimes: list[Document] = field(default_factory=list)  # ServingRuntimes etc. for InferenceServices
    # A built-in set's configs as admission stores them (llmc.read.snapshot), admitted before `presets`
    admitted_presets: list[StoredConfig] = field(default_factory=list)
    # an input without any LLMInferenceService or InferenceService is an error (the CLI's default; --allow-empty)
    require_services: bool = False
    # the input's documents llmc does not render away (krm.partition), in kind order: the commands write
    # them unchanged before the rendered objects (`passthrough_objects`); `run` checks none is defined
    # twice or rendered too
    passthrough: list[Document] = field(default_factory=list)

    def passthrough_objects(self) -> list[dict[str, Any]]:
        return [d.obj for d in self.passthrough]


@record
class ServiceOutput:
    """One service: how it was resolved and the objects it yields."""

    resolved: Resolved
    objects: list[dict[str, Any]]

    @property
    def key(self) -> str:
        meta = self.resolved.service["metadata"]
        return f"{meta['namespace']}/{meta['name']}"


@record
class IsvcOutput:
    """The InferenceService path: objects in output order, and findings."""

    objects: list[dict[str, Any]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    services: int = 0  # how many InferenceServices were rendered


def compile_isvc(request: Request, docs: list[Document]) -> IsvcOutput:
    """Render the request's InferenceServices (llmc.isvc), if any; `docs`: its isvc documents (`isvc_inputs`)."""
    if not any(d.kind == "InferenceService" for d in docs):
        return IsvcOutput()
    from llmc.isvc.compile import compile

    objects, notes = compile(docs, request.runtimes, request.isvc_config, request.options,
                                  namespace=request.namespace)
    from llmc.check.api_rules import check

    from llmc.check.blame import isvc_placer

    _check_predictor_pods(objects, docs)
    check(objects, request.options.schema_version, place=isvc_placer(docs))
    _check_isvc_references(objects, docs)
    return IsvcOutput(objects, notes, sum(d.kind == "InferenceService" for d in docs))


ISVC_CHILD_SUFFIXES = ("", "-predictor")  # the names the InferenceService controller gives its objects


def _dangling(ref, location=None) -> LlmcError:
    """The error for a reference of the output that resolves to nothing in it (llmc.check.references)."""
    return LlmcError(f"{ref.source} {ref.path} refers to {ref.target.qualified()}, which is not in the output", location,
                     hint="the output would not work without the controller; please report this llmc bug")


def _check_isvc_references(objects: list[dict[str, Any]], docs: list[Document]) -> None:
    """Every reference among an InferenceService's objects resolves (llmc.check.references), as for LLMInferenceServices."""
    from llmc.check.references import Index, check

    index = Index(objects)
    errors = [_dangling(ref, doc.locate(("metadata", "name")))
              for doc in docs if doc.kind == "InferenceService"
              for ref in check(objects, doc.name, suffixes=ISVC_CHILD_SUFFIXES, index=index).errors]
    if errors:
        raise ErrorList(errors)


def _check_predictor_pods(objects: list[dict[str, Any]], docs: list[Document]) -> None:
    """The predictor's pod fields went through no CRD schema: check the Deployments' pod specs,
    and report each error at the InferenceService it came from."""
    from llmc.admit.schema import check_pod_spec

    services = {(d.namespace or "", d.name): d for d in docs if d.kind == "InferenceService"}
    errors: list[LlmcError] = []
    for obj in objects:
        if obj.get("kind") != "Deployment":
            continue
        meta = obj["metadata"]
        owner = (meta.get("labels") or {}).get("serving.kserve.io/inferenceservice", "")
        doc = services.get((meta.get("namespace", ""), owner)) or next(
            (d for (_, name), d in services.items() if name == owner), None)
        pod = ((obj.get("spec") or {}).get("template") or {}).get("spec") or {}
        for problem in check_pod_spec(pod, ("spec", "template", "spec")):
            location = doc.locate(("spec", "predictor")) if doc is not None else None
            errors.append(LlmcError(f"Deployment {meta.get('namespace')}/{meta['name']}: {problem}", location,
                                    hint="the predictor's container and pod fields must be valid core/v1 fields"))
    if errors:
        raise ErrorList(errors)


@record
class Compiled:
    """What one run of the pipeline made: every service's output, in output order, the
    InferenceServices' objects, and every finding, sorted.

    `outputs` is empty when the services were rendered by `run` into `write` instead.
    """

    outputs: list[ServiceOutput] = field(default_factory=list)
    isvc: IsvcOutput = field(default_factory=IsvcOutput)
    findings: list[Finding] = field(default_factory=list)

    def objects(self) -> list[dict[str, Any]]:
        """The output stream: the services' objects (`ordered_objects`), then the InferenceServices'."""
        return ordered_objects(self.outputs) + self.isvc.objects


def run(request: Request, *, emit=None, write=None, jobs: int = 1, watch=None) -> Compiled:
    """The one driver: admit, resolve and render every LLMInferenceService and InferenceService of the
    request, check the output for collisions; raise ErrorList with every input error, in input order.

    Without `emit`, each service's output is kept (`Compiled.outputs`). With `emit` (llmc.stream), each
    is turned into its final form where it is rendered (`jobs` processes) and handed to `write` in
    output order, until the first error; nothing is kept. `watch` wraps the stream (a progress bar).
    """
    from llmc.check.collisions import Owners
    from llmc.stream import rendered_services

    errors: list[LlmcError] = []
    compiled = Compiled()
    isvc_docs = isvc_inputs(request)  # before admission, which releases the services' documents
    try:
        admission = admit_request(request)
    except ErrorList as errs:
        errors += errs.errors
    else:
        failed = []
        owners = Owners()  # two services rendering one object: an error (llmc.check.collisions)
        errors += owners.give(request.passthrough)
        by_order = {p.order: p for p in admission.services}
        stream = rendered_services(render_pending, admission, emit, jobs)
        for rendered in (watch(stream, len(admission.services)) if watch is not None else stream):
            pending = by_order[rendered.order]
            rendered.errors += owners.add(pending.key, pending.where, rendered.identities)
            if rendered.errors:
                failed.append(rendered)
            elif not failed:
                if write is not None:
                    write(rendered.payload)
                if rendered.output is not None:
                    compiled.outputs.append(rendered.output)
            compiled.findings += rendered.findings
        errors += [e for r in sorted(failed, key=lambda r: r.order) for e in r.errors]
    try:
        compiled.isvc = compile_isvc(request, isvc_docs)
    except ErrorList as errs:
        errors += errs.errors
    if errors:
        raise ErrorList(sorted(errors, key=error_order))
    compiled.findings = sorted(compiled.findings + compiled.isvc.findings)
    return compiled


@record(frozen=True)
class PendingService:
    """An admitted service waiting to be rendered."""

    order: int  # its place among the request's services: errors are reported in input order
    key: str  # "namespace/name": the output order
    doc: Document
    packed: bytes  # the admitted object, marshalled: a fraction of its size as Python objects

    def obj(self) -> dict[str, Any]:
        return marshal.loads(self.packed)

    def where(self) -> Location:
        """Where the service's name is written: a collision with another service's objects is reported there."""
        return self.doc.locate(("metadata", "name"))


@record
class Admission:
    """A request after admission (`admit_request`): what rendering needs, services in output order."""

    request: Request
    resolver: Resolver
    cluster: Any  # render.router.Cluster, or None when no cluster state was given
    services: list[PendingService]  # by key, then input order (`ordered_objects`' order)


# the modules of the stages after admission that a render imports lazily (see `import_stages`)
LATER_STAGES = (
    "llmc.resolve.merge", "llmc.resolve.splice", "llmc.resolve.stopped", "llmc.resolve.templatedata", "llmc.kserve.gotypes",
    "llmc.render.service", "llmc.render.certificate", "llmc.render.kvcache", "llmc.render.lora", "llmc.render.multinode",
    "llmc.render.parallelism", "llmc.render.router", "llmc.render.scaling", "llmc.render.storage", "llmc.render.tracing",
    "llmc.check.blame", "llmc.check.collisions", "llmc.check.references", "llmc.output.emit", "llmc.stream",
)


def import_stages() -> None:
    """Import the stages after admission (resolve, render, check, emit), which a render imports lazily.

    `llmc render --presets` calls it while llmc.read.preset_helper's helper admits the presets:
    these imports then cost no wall time. tests/test_preset_helper.py checks that a render
    imports nothing more after them.
    """
    for name in LATER_STAGES:
        __import__(name)


def isvc_inputs(request: Request) -> list[Document]:
    """The request's InferenceServices and what they need (llmc.isvc), for `compile_isvc`."""
    from llmc.kserve.isvc_kinds import INPUT_KINDS

    return [d for d in request.inputs if (d.api_version, d.kind) in INPUT_KINDS]


def admit_request(request: Request) -> Admission:
    """Admit every document as the API server would; raise ErrorList with every error, sorted by position.

    An admitted service's Document is released (`Document.release`): rendering reads the admitted
    object (`PendingService.packed`), and only an error reads the document's data again.
    """
    from llmc.admit.admission import admit_document
    from llmc.kserve.isvc_kinds import INPUT_KINDS as ISVC_KINDS

    errors: list[LlmcError] = []
    services: list[PendingService] = []
    configs: list[StoredConfig] = list(request.admitted_presets)
    configmaps: dict[tuple[str, str], dict[str, Any]] = {}
    cluster_state: dict[str, dict[tuple[str, str], dict[str, Any]]] = {}

    def admit(doc: Document, default_ns: str) -> dict[str, Any] | None:
        try:
            return admit_document(doc, default_ns)
        except ErrorList as errs:
            errors.extend(relocate(e, doc) for e in errs.errors)
        except LlmcError as err:
            errors.append(relocate(err, doc))
        return None

    errors += duplicate_inputs(request.inputs, request.namespace)
    # no service at all is an error, unless a document that is not read explains it (a misspelt kind)
    if request.require_services and not any(d.kind in (SERVICE_KIND, "InferenceService") for d in request.inputs) \
            and not any(_unread(d) for d in request.inputs):
        errors.append(LlmcError(
            "the input holds no LLMInferenceService or InferenceService: nothing to render",
            hint="check the files given; --allow-empty (allowEmpty, LLMC_ALLOW_EMPTY) renders nothing without an error",
        ))
    for doc in request.presets:
        obj = admit(doc, request.settings.system_namespace)
        if obj is not None and obj["kind"] == CONFIG_KIND:
            configs.append(_stored(obj, doc))
    for doc in request.inputs:
        if (doc.api_version, doc.kind) in ISVC_KINDS:
            continue  # compile_isvc
        obj = admit(doc, request.namespace)
        if obj is None:
            continue
        if obj["kind"] == SERVICE_KIND:
            meta = obj["metadata"]
            services.append(PendingService(len(services), f"{meta['namespace']}/{meta['name']}", doc, marshal.dumps(obj)))
            doc.release()
        elif obj["kind"] == CONFIG_KIND:
            configs.append(_stored(obj, doc))
        elif obj["kind"] == "ConfigMap":
            meta = obj["metadata"]
            configmaps[(meta["namespace"], meta["name"])] = obj
        else:
            meta = obj["metadata"]
            cluster_state.setdefault(obj["kind"], {})[(meta["namespace"], meta["name"])] = obj
    try:
        store = ConfigStore(configs)
    except LlmcError as err:
        errors.append(err)
        store = ConfigStore()
    if errors:
        raise ErrorList(sorted(errors, key=error_order))
    resolver = Resolver(store, request.settings, configmaps, Behaviour.for_version(request.kserve_version))
    services.sort(key=lambda p: p.key)
    return Admission(request, resolver, _cluster(cluster_state), services)


def render_pending(admission: Admission, pending: PendingService) -> tuple[ServiceOutput | None, list[LlmcError]]:
    """Resolve and render one admitted service: its output, or its errors placed in its document."""
    doc = pending.doc
    try:
        resolved = admission.resolver.resolve(pending.obj(), doc.locate)
        return ServiceOutput(resolved, _render(resolved, admission.request, admission.cluster, doc)), []
    except ErrorList as errs:
        failures = errs.errors
    except LlmcError as err:
        failures = [err]
    from llmc.resolve.stopped import stopped_unresolved

    stopped = stopped_unresolved(pending.obj(), failures)
    if stopped is not None:
        return ServiceOutput(stopped, []), []
    return None, [relocate(e, doc) for e in failures]


def ordered_objects(outputs: list[ServiceOutput]) -> list[dict[str, Any]]:
    """The output order: services by namespace/name, each one's objects in apply-safe kind order.

    Deterministic, independent of input order, and streamable service by service.
    """
    from llmc.k8s.install_order import sort_objects

    return [obj for out in sorted(outputs, key=lambda o: o.key) for obj in sort_objects(out.objects)]


def _cluster(state: dict[str, dict[tuple[str, str], dict[str, Any]]]):
    """What the input's Gateways, HTTPRoutes and Services tell about the cluster: they exist, next to
    others llmc cannot know of (not `complete`); None (nothing can be checked) when none was given."""
    if not state:
        return None
    from llmc.render.router import Cluster

    return Cluster(state.get("Gateway", {}), state.get("HTTPRoute", {}), state.get("Service", {}), complete=False)


DEFINED_ONCE = frozenset({SERVICE_KIND, CONFIG_KIND, "InferenceService"})


def duplicate_inputs(docs: list[Document], namespace: str) -> list[LlmcError]:
    """Two inputs defining the same service or config (kind, namespace, name): one would silently
    replace the other. The same file given twice (`-f dir -f dir/file.yaml`) is caught the same way."""
    from llmc.check.collisions import defined_twice

    seen: dict[tuple[str, str, str], Document] = {}
    errors: list[LlmcError] = []
    for doc in docs:
        meta = doc.obj.get("metadata")
        if doc.kind not in DEFINED_ONCE or not isinstance(meta, dict) or not isinstance(meta.get("name"), str):
            continue
        key = (doc.kind, str(meta.get("namespace") or namespace), meta["name"])
        first = seen.setdefault(key, doc)
        if first is not doc:
            errors.append(defined_twice(f"{key[0]} {key[1]}/{key[2]}", first, doc,
                                        "each object may be defined once; remove one, or give it another name or namespace"))
    return errors


def _render(resolved: Resolved, request: Request, cluster=None, source: Document | None = None) -> list[dict[str, Any]]:
    """The service's objects, checked; `source`: the service's document, where errors are placed."""
    from llmc.render.context import RenderContext
    from llmc.render.service import render_service

    ctx = RenderContext(
        service=resolved.service,
        spec=resolved.spec,
        settings=request.settings,
        options=request.options,
        findings=resolved.findings,
        lora_adapters=resolved.lora_adapters,
        cluster=cluster,
    )
    objects = render_service(ctx)
    from llmc.check.api_rules import check

    # never emit what the API server would refuse (e.g. a child name that is no DNS-1035 label)
    from llmc.check.blame import placer

    check(objects, request.options.schema_version, place=placer(source) if source is not None else None)
    _check_references(ctx, objects)
    return objects


def _check_references(ctx, objects: list[dict[str, Any]]) -> None:
    """Every reference between the service's objects resolves (llmc.check.references): the output must work on its own."""
    from llmc.check.references import check
    from llmc.render.certificate import API as CERT_MANAGER_API

    report = check(objects, ctx.name, spec_labels=ctx.spec.get("labels") or {},
                   controller_objects=ctx.options.controller_objects,
                   cert_manager=ctx.options.capabilities.has(CERT_MANAGER_API, "Certificate"))
    for item, message in report.notes:
        ctx.findings.add("LLMC206", item.where, message)
    errors = [_dangling(ref) for ref in report.errors]
    errors += [LlmcError(f"{sel.source} {sel.path} selects no pod of the output", hint="please report this llmc bug")
               for sel in report.unmatched]
    if errors:
        raise ErrorList(errors)


def _unread(doc: Document) -> bool:
    """A document llmc refuses to read (llmc.load.documents.check_kind)."""
    from llmc.load.documents import check_kind

    try:
        check_kind(doc)
    except LlmcError:
        return True
    return False


def _stored(obj: dict[str, Any], doc: Document) -> StoredConfig:
    meta = obj["metadata"]
    return StoredConfig(meta["name"], meta["namespace"], obj, doc)


def error_order(err: LlmcError) -> tuple:
    """Errors are reported by file, line and column."""
    loc = err.location
    if loc is None:
        return ("", 0, 0)
    return (loc.file, loc.line or 0, loc.col or 0)
