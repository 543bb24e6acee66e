"""References inside the output: every reference from one rendered object to another must resolve.

`kubectl apply` of llmc's output runs without the controller, so a pod that mounts a
Secret nobody creates, a route to an InferencePool of another API group or a binding
to a Role that is not there would leave the service broken. After rendering, every
reference of every object is walked (`references`) and looked up among the objects of
the same output (`Index`).

A reference that does not resolve is one of three things (`classify`):
- the target is an object the service's controller creates (one of its child names,
  `created_names`): the output is incomplete, an error; except where the controller
  itself leaves the reference dangling, reported as the note LLMC206 (a Service whose
  selector `spec.labels` overrode);
- the TLS Secret the controller generates at run time, with no Certificate rendered:
  LLMC206 under `--controller-objects` (and nothing more when cert-manager is absent,
  which LLMC207 already reports);
- anything else (a user's hf-token Secret, ConfigMaps, PVCs, the Gateway, ClusterRoles
  and ClusterIssuers of the install) is a prerequisite, listed by `llmc explain`.

Pure: objects in, lists out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from llmc.k8s.names import child_name
from llmc.core.record import record

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

CORE = ""
RBAC = "rbac.authorization.k8s.io"
CERT_MANAGER = "cert-manager.io"
GATEWAY = "gateway.networking.k8s.io"

# The child names (`kmeta.ChildName(name, suffix)`) of the objects an LLMInferenceService's
# controller creates (llmc/render/*), rendered or not.
CHILD_SUFFIXES = (
    "-kserve", "-kserve-prefill", "-kserve-mn", "-kserve-mn-prefill", "-kserve-workload-svc",
    "-kserve-role", "-kserve-rb", "-kserve-mn-role", "-kserve-mn-rb", "-kserve-route",
    "-kserve-router-scheduler", "-inference-pool", "-epp-sa", "-epp-role", "-epp-rb", "-epp-service",
    "-kserve-hpa", "-kserve-prefill-hpa", "-kserve-keda", "-kserve-prefill-keda", "-managed-dra",
    "-kserve-self-signed-certs", "-kserve-self-signed-issuer", "-tokenizer",
)
TLS_SECRET_SUFFIX = "-kserve-self-signed-certs"
ISVC_CHILD_SUFFIXES = ("-predictor",)  # an InferenceService's (Standard mode) children

_CLUSTER_SCOPED = frozenset({(RBAC, "ClusterRole"), (RBAC, "ClusterRoleBinding"), (CERT_MANAGER, "ClusterIssuer")})


@record(frozen=True, order=True)
class Target:
    """An object by API group, kind, namespace ("" when cluster-scoped) and name."""

    group: str
    kind: str
    namespace: str
    name: str

    def __str__(self) -> str:
        return f"{self.kind} {self.namespace}/{self.name}" if self.namespace else f"{self.kind} {self.name}"

    def qualified(self) -> str:
        """With the API group, which a reference must match too (an InferencePool of each group exists)."""
        return f"{self} (group {self.group or 'core'})"


@record(frozen=True)
class Reference:
    """One reference: the object holding it, the field path in that object, the target."""

    source: Target
    path: str
    target: Target

    @property
    def where(self) -> str:
        """`Kind/name.field.path`: the field, as findings name it."""
        return f"{self.source.kind}/{self.source.name}.{self.path}"


@record(frozen=True)
class Selection:
    """A label selector that must match pods of the output (Service, InferencePool)."""

    source: Target
    path: str
    selector: dict[str, str]

    @property
    def where(self) -> str:
        return f"{self.source.kind}/{self.source.name}.{self.path}"


@record
class Report:
    """What `check` found for one service's objects."""

    errors: list[Reference]
    notes: list[tuple[Reference | Selection, str]]
    prerequisites: list[Reference]
    unmatched: list[Selection]  # selectors matching no pod, not explained by spec.labels: errors


def identity(obj: Mapping[str, Any]) -> Target:
    api = str(obj.get("apiVersion", ""))
    group = api.rsplit("/", 1)[0] if "/" in api else CORE
    kind = str(obj.get("kind", ""))
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    namespace = "" if (group, kind) in _CLUSTER_SCOPED else str(meta.get("namespace") or "")
    return Target(group, kind, namespace, str(meta.get("name", "")))


def _group(api_version: str) -> str:
    return api_version.rsplit("/", 1)[0] if "/" in api_version else CORE


# --------------------------------------------------------------------------- walking


def references(obj: Mapping[str, Any]) -> Iterator[Reference]:
    """Every reference `obj` holds to another object, with its field path."""
    source = identity(obj)
    ns = source.namespace or str((obj.get("metadata") or {}).get("namespace") or "")
    spec = obj.get("spec") or {}
    kind = source.kind

    def ref(path: str, group: str, target_kind: str, name: Any, namespace: str | None = None) -> Iterator[Reference]:
        if isinstance(name, str) and name:
            scoped = "" if (group, target_kind) in _CLUSTER_SCOPED else (namespace or ns)
            yield Reference(source, path, Target(group, target_kind, scoped, name))

    for path, pod in pod_specs(obj):
        yield from _pod_references(pod, path, ref)
    if kind in ("RoleBinding", "ClusterRoleBinding"):
        role = obj.get("roleRef") or {}
        yield from ref("roleRef", role.get("apiGroup", RBAC), role.get("kind", ""), role.get("name"))
        for i, subject in enumerate(obj.get("subjects") or []):
            if subject.get("kind") == "ServiceAccount":
                yield from ref(f"subjects[{i}]", CORE, "ServiceAccount", subject.get("name"), subject.get("namespace"))
    elif kind == "HTTPRoute":
        for i, parent in enumerate(spec.get("parentRefs") or []):
            yield from ref(f"spec.parentRefs[{i}]", parent.get("group", GATEWAY), parent.get("kind", "Gateway"),
                           parent.get("name"), parent.get("namespace"))
        for i, rule in enumerate(spec.get("rules") or []):
            for j, backend in enumerate(rule.get("backendRefs") or []):
                yield from ref(f"spec.rules[{i}].backendRefs[{j}]", backend.get("group", CORE),
                               backend.get("kind", "Service"), backend.get("name"), backend.get("namespace"))
    elif kind == "InferencePool":
        for field in ("endpointPickerRef", "extensionRef"):  # v1, v1alpha2
            picker = spec.get(field)
            if isinstance(picker, dict):
                yield from ref(f"spec.{field}", picker.get("group", CORE), picker.get("kind", "Service"), picker.get("name"))
    elif kind in ("HorizontalPodAutoscaler", "ScaledObject"):
        target = spec.get("scaleTargetRef") or {}
        yield from ref("spec.scaleTargetRef", _group(target.get("apiVersion", "apps/v1")),
                       target.get("kind", "Deployment"), target.get("name"))
    elif kind == "Certificate":
        issuer = spec.get("issuerRef") or {}
        yield from ref("spec.issuerRef", issuer.get("group", CERT_MANAGER), issuer.get("kind", "Issuer"), issuer.get("name"))
    elif kind == "Ingress":
        backends = [("spec.defaultBackend", spec.get("defaultBackend"))]
        for i, rule in enumerate(spec.get("rules") or []):
            for j, item in enumerate((rule.get("http") or {}).get("paths") or []):
                backends.append((f"spec.rules[{i}].http.paths[{j}].backend", item.get("backend")))
        for path, backend in backends:
            service = (backend or {}).get("service") or {}
            yield from ref(f"{path}.service", CORE, "Service", service.get("name"))


def _pod_references(pod: Mapping[str, Any], path: str, ref) -> Iterator[Reference]:
    yield from ref(f"{path}.serviceAccountName", CORE, "ServiceAccount", pod.get("serviceAccountName"))
    for i, secret in enumerate(pod.get("imagePullSecrets") or []):
        yield from ref(f"{path}.imagePullSecrets[{i}]", CORE, "Secret", secret.get("name"))
    for i, volume in enumerate(pod.get("volumes") or []):
        where = f"{path}.volumes[{i}]"
        if (secret := volume.get("secret")) and not secret.get("optional"):
            yield from ref(f"{where}.secret.secretName", CORE, "Secret", secret.get("secretName"))
        if (config := volume.get("configMap")) and not config.get("optional"):
            yield from ref(f"{where}.configMap.name", CORE, "ConfigMap", config.get("name"))
        if claim := volume.get("persistentVolumeClaim"):
            yield from ref(f"{where}.persistentVolumeClaim.claimName", CORE, "PersistentVolumeClaim", claim.get("claimName"))
        for j, projected in enumerate((volume.get("projected") or {}).get("sources") or []):
            for key, target_kind in (("secret", "Secret"), ("configMap", "ConfigMap")):
                if (source := projected.get(key)) and not source.get("optional"):
                    yield from ref(f"{where}.projected.sources[{j}].{key}.name", CORE, target_kind, source.get("name"))
    for i, claim in enumerate(pod.get("resourceClaims") or []):
        where = f"{path}.resourceClaims[{i}]"
        yield from ref(f"{where}.resourceClaimTemplateName", "resource.k8s.io", "ResourceClaimTemplate",
                       claim.get("resourceClaimTemplateName"))
        yield from ref(f"{where}.resourceClaimName", "resource.k8s.io", "ResourceClaim", claim.get("resourceClaimName"))
    for field in ("initContainers", "containers"):
        for i, container in enumerate(pod.get(field) or []):
            where = f"{path}.{field}[{i}]"
            for j, env in enumerate(container.get("env") or []):
                source = env.get("valueFrom") or {}
                for key, target_kind in (("secretKeyRef", "Secret"), ("configMapKeyRef", "ConfigMap")):
                    if (selector := source.get(key)) and not selector.get("optional"):
                        yield from ref(f"{where}.env[{j}].valueFrom.{key}", CORE, target_kind, selector.get("name"))
            for j, env_from in enumerate(container.get("envFrom") or []):
                for key, target_kind in (("secretRef", "Secret"), ("configMapRef", "ConfigMap")):
                    if (selector := env_from.get(key)) and not selector.get("optional"):
                        yield from ref(f"{where}.envFrom[{j}].{key}", CORE, target_kind, selector.get("name"))


def pod_specs(obj: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(field path, pod spec) of each pod template of a workload object."""
    for path, template in pod_templates(obj):
        if isinstance(template.get("spec"), dict):
            yield f"{path}.spec", template["spec"]


def pod_templates(obj: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    spec = obj.get("spec") or {}
    if obj.get("kind") == "LeaderWorkerSet":
        lws = spec.get("leaderWorkerTemplate") or {}
        for key in ("leaderTemplate", "workerTemplate"):
            if isinstance(lws.get(key), dict):
                yield f"spec.leaderWorkerTemplate.{key}", lws[key]
    elif obj.get("kind") in ("Deployment", "StatefulSet", "DaemonSet", "Job", "ReplicaSet"):
        if isinstance(spec.get("template"), dict):
            yield "spec.template", spec["template"]


def selections(obj: Mapping[str, Any]) -> Iterator[Selection]:
    """The pod selectors of Services and InferencePools."""
    spec = obj.get("spec") or {}
    if obj.get("kind") == "Service" and spec.get("selector"):
        yield Selection(identity(obj), "spec.selector", dict(spec["selector"]))
    elif obj.get("kind") == "InferencePool" and isinstance(spec.get("selector"), dict):
        selector = spec["selector"]
        labels = selector.get("matchLabels") if "matchLabels" in selector else selector  # v1, v1alpha2
        if labels:
            path = "spec.selector.matchLabels" if "matchLabels" in selector else "spec.selector"
            yield Selection(identity(obj), path, dict(labels))


# --------------------------------------------------------------------------- resolving


class Index:
    """The objects of an output, and the Secrets its cert-manager Certificates make."""

    def __init__(self, objects: Iterable[Mapping[str, Any]]) -> None:
        self.targets: set[Target] = set()
        self.pods: list[tuple[str, Mapping[str, str]]] = []  # (namespace, pod template labels)
        for obj in objects:
            target = identity(obj)
            self.targets.add(target)
            if target.kind == "Certificate" and (secret := (obj.get("spec") or {}).get("secretName")):
                self.targets.add(Target(CORE, "Secret", target.namespace, secret))
            for _, template in pod_templates(obj):
                self.pods.append((target.namespace, (template.get("metadata") or {}).get("labels") or {}))

    def resolves(self, ref: Reference) -> bool:
        return ref.target in self.targets

    def matches(self, selection: Selection) -> bool:
        return any(ns == selection.source.namespace and all(labels.get(k) == v for k, v in selection.selector.items())
                   for ns, labels in self.pods)


def created_names(name: str, suffixes: Iterable[str] = CHILD_SUFFIXES) -> frozenset[str]:
    """The names of every object the controller may create for service `name`."""
    return frozenset(child_name(name, suffix) for suffix in suffixes)


def check(objects: list[Mapping[str, Any]], service_name: str, *, spec_labels: Mapping[str, str] | None = None,
          controller_objects: bool = False, cert_manager: bool = True,
          suffixes: Iterable[str] = CHILD_SUFFIXES, index: Index | None = None) -> Report:
    """Walk every reference and selector of `objects` (one service's output) against `index` (default: them).

    `spec_labels`: the service's spec.labels, which override the selector labels of its pods;
    `controller_objects`/`cert_manager`: whether the TLS Secret's Certificate is meant to be rendered.
    """
    index = index or Index(objects)
    mine = created_names(service_name, suffixes)
    tls_secret = child_name(service_name, TLS_SECRET_SUFFIX)
    report = Report([], [], [], [])
    for obj in objects:
        for ref in references(obj):
            if index.resolves(ref):
                continue
            if ref.target.name not in mine:
                report.prerequisites.append(ref)
            elif ref.target.kind == "Secret" and ref.target.name == tls_secret and (controller_objects or not cert_manager):
                if controller_objects:
                    report.notes.append((ref, f"{ref.target} is generated by the controller at run time and not in "
                                              "the output; without --controller-objects a cert-manager Certificate creates it"))
            else:
                report.errors.append(ref)
        for selection in selections(obj):
            if index.matches(selection):
                continue
            overridden = sorted(k for k, v in selection.selector.items() if k in (spec_labels or {}) and spec_labels[k] != v)
            if overridden:
                report.notes.append((selection, f"selects no pod: spec.labels overrides {', '.join(overridden)} "
                                                "on the pods but not in this selector, as the controller does"))
            else:
                report.unmatched.append(selection)
    return report


def prerequisites(objects: list[Mapping[str, Any]], service_name: str, suffixes: Iterable[str] = CHILD_SUFFIXES) -> list[Reference]:
    """The objects `objects` refer to that the service does not create: they must exist in the cluster."""
    return check(objects, service_name, suffixes=suffixes).prerequisites
