"""`compile`: InferenceServices and runtimes in, the objects of the Standard-mode controller out.

Per InferenceService, in the controller's order: the webhooks' defaults and checks
(`admission`), the deployment mode, the runtime (`runtimes.select_runtime`), the
storage annotations and URI check, the pod spec (`podspec`), the predictor's object
metadata, then the raw reconcilers' Service, Deployment and HPA (`workload`), the
Ingress (`ingress`), and last the pod webhook's storage initializer in the
Deployment's pod template (`storage`). A stopped InferenceService yields no objects.
"""

from __future__ import annotations

from typing import Any

from llmc.core.errors import ErrorList, LlmcError, Location
from llmc.k8s.install_order import sort_objects
from llmc.load.documents import Document, relocate
from llmc.render.context import RenderOptions
from llmc.isvc import admission, ingress, shape, storage, workload
from llmc.isvc.config import IsvcConfig
from llmc.core.findings import Finding as Note
from llmc.isvc.podspec import build_pod_spec
from llmc.kserve.isvc_kinds import INPUT_KINDS, ISVC_API_VERSION, ISVC_KIND, STORAGE_CONTAINER_KIND
from llmc.isvc.runtimes import Runtime, runtime_from, select_runtime

STORAGE_SECRET_ANNOTATION = "serving.kserve.io/storageSecretName"
_SERVER_DEFAULTS = ("mlserver", "tritonserver", "torchserve")  # SetRuntimeDefaults changes these, llmc does not


class Cluster:
    """The runtimes and storage containers the controller would find: `runtimes` documents first
    (built-in or --runtimes), then the input's own; a later object of the same kind, namespace
    and name replaces an earlier one, as `kubectl apply` would."""

    def __init__(self, docs: list[Document], namespace: str) -> None:
        runtimes: dict[tuple[str, str | None, str], Runtime] = {}
        containers: dict[str, storage.StorageContainer] = {}
        errors: list[LlmcError] = []
        for doc in docs:
            try:
                if doc.kind == STORAGE_CONTAINER_KIND:
                    sc = storage.storage_container_from(doc)
                    containers[sc.name] = sc
                else:
                    rt = runtime_from(doc, namespace)
                    runtimes[(rt.kind, rt.namespace, rt.name)] = rt
            except LlmcError as err:
                errors.append(relocate(err, doc))
        if errors:
            raise ErrorList(errors)
        self.runtimes = list(runtimes.values())
        self.storage_containers = list(containers.values())


def compile(documents: list[Document], runtimes: list[Document], settings: IsvcConfig | None = None,
            options: RenderOptions | None = None, *, namespace: str = "default") -> tuple[list[dict[str, Any]], list[Note]]:
    """Render every InferenceService of `documents`; `runtimes` are the cluster's runtimes and storage containers.

    `documents` may also hold ServingRuntimes, ClusterServingRuntimes and ClusterStorageContainers;
    they take precedence over `runtimes`. Objects come by service (namespace/name), each service's
    in apply-safe kind order; findings sorted. Raises ErrorList with every located error.
    """
    settings = settings or IsvcConfig()
    options = options or RenderOptions()
    errors: list[LlmcError] = []
    services: list[Document] = []
    cluster_docs = list(runtimes)
    for doc in documents:
        if (doc.api_version, doc.kind) == (ISVC_API_VERSION, ISVC_KIND):
            services.append(doc)
        elif (doc.api_version, doc.kind) in INPUT_KINDS:
            cluster_docs.append(doc)
        else:
            errors.append(LlmcError(f"llmc.isvc does not read {doc.kind} objects of apiVersion {doc.api_version}",
                                    doc.locate(("kind",))))
    try:
        cluster = Cluster(cluster_docs, namespace)
    except ErrorList as errs:
        errors += errs.errors
        cluster = Cluster([], namespace)
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    notes: list[Note] = []
    seen: dict[tuple[str, str], Document] = {}
    for doc in services:
        try:
            shape.check(doc.obj, shape.INFERENCE_SERVICE)
            isvc = admission.default_isvc(doc.obj, namespace, settings)
            key = (isvc["metadata"]["namespace"], isvc["metadata"]["name"])
            if key in seen:
                raise LlmcError(f"InferenceService {key[0]}/{key[1]} is defined twice",
                                doc.locate(("metadata", "name")), hint=f"the first is in {seen[key].locate(())}")
            seen[key] = doc
            rendered, found = render(isvc, cluster, settings, options)
            groups[key] = sort_objects(rendered)
            notes += found
        except ErrorList as errs:
            errors += [relocate(e, doc) for e in errs.errors]
        except LlmcError as err:
            errors.append(relocate(err, doc))
    if errors:
        raise ErrorList(errors)
    return [obj for key in sorted(groups) for obj in groups[key]], sorted(notes)


def render(isvc: dict[str, Any], cluster: Cluster, config: IsvcConfig, options: RenderOptions) -> tuple[list[dict[str, Any]], list[Note]]:
    """The objects of one defaulted InferenceService."""
    admission.validate_isvc(isvc)
    admission.require_standard(isvc, config)
    meta = isvc["metadata"]
    service_key = f"{meta['namespace']}/{meta['name']}"
    notes: list[Note] = []
    if admission.stopped(isvc):
        notes.append(Note(service_key, "LLMC405", "metadata.annotations", f"{admission.STOP_ANNOTATION} is true"))
        return [], notes
    predictor = isvc["spec"]["predictor"]
    model = predictor["model"]
    where = Location(path="spec.predictor.model.runtime" if model.get("runtime") else "spec.predictor.model.modelFormat")
    runtime = select_runtime(model, cluster.runtimes, meta["namespace"], where).runtime
    if runtime.server_type() in _SERVER_DEFAULTS:
        raise LlmcError(f"llmc does not apply the {runtime.server_type()} runtime defaults (SetRuntimeDefaults)", where,
                        hint="llmc renders runtimes such as kserve-huggingfaceserver")

    annotations = workload.allowed(meta.get("annotations"), config)
    uri = model.get("storageUri")
    if uri is not None:
        annotations[storage.SOURCE_URI_ANNOTATION] = uri
        try:
            storage.validate_storage_uri(uri, cluster.storage_containers)
        except LlmcError as err:
            raise LlmcError(err.message, Location(path="spec.predictor.model.storageUri")) from None
    if predictor.get("storageContainerName"):
        annotations[storage.STORAGE_CONTAINER_NAME_ANNOTATION] = predictor["storageContainerName"]

    pod = build_pod_spec(isvc, runtime)
    child = workload.object_meta(isvc, runtime.spec, annotations, config)
    if len(child["name"]) > 63:
        raise LlmcError(f'Service "{child["name"]}" is invalid: metadata.name: Invalid value: "{child["name"]}": '
                        "must be no more than 63 characters", Location(path="metadata.name"),
                        hint="the predictor's Service is named <name>-predictor: shorten the InferenceService's name")
    owner = owner_reference(isvc) if options.owner_references else None

    objects = [workload.service(child, pod, config, owner)]
    deployment = workload.deployment(child, predictor, pod, config, owner)
    objects.append(deployment)
    if workload.creates_hpa(child):
        objects.append(workload.hpa(child, predictor, owner))
    if ingress.creates_ingress(isvc, config.ingress):
        if config.ingress.enable_gateway_api:
            notes.append(Note(service_key, "LLMC403", "spec", "ingress.enableGatewayApi is true: the controller "
                              "creates an HTTPRoute, which llmc does not render"))
        else:
            objects.append(ingress.ingress(isvc, config.ingress, owner))

    template = deployment["spec"]["template"]
    try:
        injection = storage.inject(template["metadata"], template["spec"], config.storage_initializer,
                                   cluster.storage_containers, meta["namespace"])
    except LlmcError as err:
        raise LlmcError(f"the pod webhook would refuse the pods: {err.message}",
                        Location(path="spec.predictor.model.storageUri")) from None
    template["spec"] = workload.go_pod_spec(template["spec"])
    if uri is not None:
        notes.append(Note(service_key, "LLMC401", "spec.predictor.model.storageUri",
                          "the model download/mount that KServe's pod webhook adds to each pod is written into "
                          f"Deployment/{child['name']}'s pod template"))
    if injection.init_container:
        notes += _download_notes(service_key, isvc, config)
    return objects, notes


def _download_notes(service_key: str, isvc: dict[str, Any], config: IsvcConfig) -> list[Note]:
    notes = []
    predictor = isvc["spec"]["predictor"]
    account = predictor.get("serviceAccountName")
    secret = (isvc["metadata"].get("annotations") or {}).get(STORAGE_SECRET_ANNOTATION)
    if account or secret:
        source = f"ServiceAccount {account}" if account else f"Secret {secret}"
        notes.append(Note(service_key, "LLMC402", "spec.predictor.serviceAccountName" if account else "metadata.annotations",
                          f"the pod webhook adds credentials from {source} to the storage-initializer; llmc does not"))
    ca = config.storage_initializer.ca_bundle_configmap_name
    if ca and isvc["metadata"]["namespace"] != storage.KSERVE_NAMESPACE:
        notes.append(Note(service_key, "LLMC404", "metadata.namespace",
                          f"the controller copies ConfigMap kserve/{ca} into ConfigMap {storage.GLOBAL_CA_BUNDLE} "
                          "of this namespace; llmc does not render it"))
    return notes


def owner_reference(isvc: dict[str, Any]) -> dict[str, Any]:
    """controllerutil.SetControllerReference with the InferenceService as owner; the API server
    rejects an ownerReference without a uid, so one is required (as for LLMInferenceServices)."""
    uid = isvc["metadata"].get("uid")
    if not uid:
        raise LlmcError(
            "--owner-references needs metadata.uid: the API server rejects an ownerReference without a uid",
            Location(path="metadata"),
            hint="copy the uid from `kubectl get inferenceservice NAME -o jsonpath={.metadata.uid}`, "
                 "or render without --owner-references",
            exit_code=2,
        )
    return {"apiVersion": ISVC_API_VERSION, "kind": ISVC_KIND, "name": isvc["metadata"]["name"], "uid": uid,
            "controller": True, "blockOwnerDeletion": True}

