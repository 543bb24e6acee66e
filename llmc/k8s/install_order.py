"""Install order of object kinds: the order in which llmc writes objects.

The base is helm's ``InstallOrder`` (``kind_sorter.go``, identical in helm v4's
``pkg/release/util`` and ``internal/release/v2/util``): cluster policy first, then
identities and configuration, storage, RBAC, Services, workloads, autoscalers,
jobs, ingress, API services and webhooks. Objects applied in this order find what
they reference already present, so ``kubectl apply -f`` of the stream converges
in one pass and admission never sees a dangling reference it could reject.

Kinds llmc emits that helm's table does not know get a fixed place chosen by the
same rule, "whatever is referenced comes first":

- ``ResourceClaimTemplate`` right after ``PersistentVolumeClaim``: like a PVC it is
  named by pod specs (``resourceClaims[].resourceClaimTemplateName``); pods whose
  template is missing cannot get their claims and stay pending.
- ``LeaderWorkerSet`` right after ``StatefulSet``: it is a workload (it creates
  StatefulSets) and references ServiceAccounts, RBAC and claim templates, all
  earlier.
- ``ScaledObject`` right after ``LeaderWorkerSet``, i.e. after every kind it can
  target (Deployment, StatefulSet, LeaderWorkerSet): KEDA looks the target up
  (its admission webhook checks the target's containers for cpu/memory
  triggers, its operator builds an HPA on it) and reports errors until the
  target exists.
- ``InferencePool`` then ``HTTPRoute`` right after ``Ingress``, the traffic layer,
  after the workloads and the Services they route to (the EPP Service named by the
  pool). The HTTPRoute's ``backendRefs`` name the InferencePool; a route applied
  before its pool has unresolved references until the pool appears.

Any other kind is "unknown" and goes after all known kinds, ordered by kind name,
as helm does. Within a kind, objects are ordered by namespace, name and finally
apiVersion: the controller creates an ``InferencePool`` twice with the same name,
in ``inference.networking.k8s.io/v1`` and ``inference.networking.x-k8s.io/v1alpha2``,
and the last key makes their order independent of the renderer (v1 sorts first,
the controller's own order). The sort is stable, so exact duplicates keep their
input order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any, TypeVar

if TYPE_CHECKING:
    Obj = TypeVar("Obj", bound=Mapping[str, Any])

INSTALL_ORDER: tuple[str, ...] = (
    "PriorityClass",
    "Namespace",
    "NetworkPolicy",
    "ResourceQuota",
    "LimitRange",
    "PodSecurityPolicy",
    "PodDisruptionBudget",
    "ServiceAccount",
    "Issuer",  # llmc: cert-manager, before the Certificate that names it
    "Certificate",  # llmc: creates the Secret the pods mount
    "Secret",
    "SecretList",
    "ConfigMap",
    "StorageClass",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "ResourceClaimTemplate",  # llmc
    "CustomResourceDefinition",
    "ClusterRole",
    "ClusterRoleList",
    "ClusterRoleBinding",
    "ClusterRoleBindingList",
    "Role",
    "RoleList",
    "RoleBinding",
    "RoleBindingList",
    "Service",
    "DaemonSet",
    "Pod",
    "ReplicationController",
    "ReplicaSet",
    "Deployment",
    "HorizontalPodAutoscaler",
    "StatefulSet",
    "LeaderWorkerSet",  # llmc
    "ScaledObject",  # llmc
    "Job",
    "CronJob",
    "IngressClass",
    "Ingress",
    "InferencePool",  # llmc
    "HTTPRoute",  # llmc
    "APIService",
    "MutatingWebhookConfiguration",
    "ValidatingWebhookConfiguration",
)

_RANK: dict[str, int] = {kind: rank for rank, kind in enumerate(INSTALL_ORDER)}
UNKNOWN_RANK = len(INSTALL_ORDER)


def kind_rank(kind: str) -> int:
    """Position of ``kind`` in the install order; every unknown kind shares the last rank."""
    return _RANK.get(kind, UNKNOWN_RANK)


def sort_key(obj: Mapping[str, Any]) -> tuple[int, str, str, str, str]:
    """An object's place in the install order (`sort_objects`)."""
    kind = obj.get("kind") or ""
    meta = obj.get("metadata") or {}
    return (
        kind_rank(kind),
        kind,
        meta.get("namespace") or "",
        meta.get("name") or "",
        obj.get("apiVersion") or "",
    )


def sort_objects(objs: Iterable[Obj]) -> list[Obj]:
    """Objects in install order: (kind rank, kind, namespace, name, apiVersion), stable.

    A missing namespace (cluster-scoped object) sorts as the empty string.
    """
    return sorted(objs, key=sort_key)
