"""The Kubernetes Ingress of a Standard-mode InferenceService (Gateway API disabled).

Facts from reconcilers/ingress/kube_ingress_reconciler.go (`RawIngressReconciler`,
`createRawIngress`, `generateRule`) and domain.go (`GenerateDomainName`): the Ingress is
named after the InferenceService, carries its annotations (unfiltered) and no labels,
uses the ConfigMap's `ingressClassName`, and routes `/` (Prefix) on two hosts, the
top-level `<name>-<namespace>.<domain>` and the predictor's
`<name>-predictor-<namespace>.<domain>`, to the predictor Service on port 80. No
Ingress exists for cluster-local services (label `networking.kserve.io/visibility:
cluster-local`, or the ingress domain `svc.cluster.local`) or when
`disableIngressCreation` is set. The controller creates it once the predictor is Ready.
"""

from __future__ import annotations

import re
from typing import Any

from llmc.core.errors import LlmcError, Location
from llmc.go.template.template import parse
from llmc.go.reflect import STRING, GoField, GoType, Value, map_of
from llmc.isvc.config import IngressConfig
from llmc.isvc.workload import HTTP_PORT, predictor_name

VISIBILITY_LABEL = "networking.kserve.io/visibility"
CLUSTER_LOCAL = "cluster-local"
CLUSTER_LOCAL_DOMAIN = "svc.cluster.local"

_VALUES = GoType("ingress.DomainTemplateValues", "struct", fields=[
    GoField("Name", "Name", STRING),
    GoField("Namespace", "Namespace", STRING),
    GoField("IngressDomain", "IngressDomain", STRING),
    GoField("Annotations", "Annotations", map_of(STRING, STRING)),
    GoField("Labels", "Labels", map_of(STRING, STRING)),
])
_DNS1123_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")


def creates_ingress(isvc: dict[str, Any], config: IngressConfig) -> bool:
    """RawIngressReconciler: not for cluster-local services, not when creation is disabled."""
    internal = ((isvc["metadata"].get("labels") or {}).get(VISIBILITY_LABEL) == CLUSTER_LOCAL
                or config.ingress_domain == CLUSTER_LOCAL_DOMAIN)
    return not internal and not config.disable_ingress_creation


def domain_name(name: str, meta: dict[str, Any], config: IngressConfig) -> str:
    """GenerateDomainName: the domain template executed on name, namespace, domain, annotations and labels."""
    values = {"Name": name, "Namespace": meta.get("namespace", ""), "IngressDomain": config.ingress_domain,
              "Annotations": meta.get("annotations"), "Labels": meta.get("labels")}
    where = Location(path="data.ingress.domainTemplate")
    try:
        host = parse("domain-template", config.domain_template).execute(Value(_VALUES, values))
    except LlmcError as err:
        raise LlmcError(f"failed creating host name: {err.message}", where) from None
    problem = _fqdn_problem(host)
    if problem:
        raise LlmcError(f'failed creating host name: invalid domain name "{host}": url: {problem}', where,
                        hint="check the ingress domainTemplate and ingressDomain of the inferenceservice-config")
    return host


def _fqdn_problem(host: str) -> str:
    """validation.IsFullyQualifiedDomainName, reduced to its first message."""
    if not host:
        return "Required value"
    name = host[:-1] if host.endswith(".") else host
    if len(name) > 253 or not all(_DNS1123_LABEL.fullmatch(part) for part in name.split(".")):
        return f'Invalid value: "{name}": a lowercase RFC 1123 subdomain is required'
    if len(name.split(".")) < 2:
        return f'Invalid value: "{name}": should be a domain with at least two segments separated by dots'
    if any(len(part) > 63 for part in name.split(".")):
        return f'Invalid value: "{name}": a DNS-1123 label must be no more than 63 characters'
    return ""


def ingress(isvc: dict[str, Any], config: IngressConfig, owner: dict[str, Any] | None) -> dict[str, Any]:
    """createRawIngress for a predictor-only InferenceService."""
    meta = isvc["metadata"]
    service = predictor_name(meta["name"])
    rules = [_rule(domain_name(meta["name"], meta, config), service),
             _rule(domain_name(service, meta, config), service)]
    metadata: dict[str, Any] = {"name": meta["name"], "namespace": meta["namespace"]}
    if meta.get("annotations"):
        metadata["annotations"] = dict(meta["annotations"])
    if owner is not None:
        metadata["ownerReferences"] = [owner]
    spec: dict[str, Any] = {}
    if config.ingress_class_name is not None:
        spec["ingressClassName"] = config.ingress_class_name
    spec["rules"] = rules
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": metadata, "spec": spec}


def _rule(host: str, service: str) -> dict[str, Any]:
    return {"host": host, "http": {"paths": [{"path": "/", "pathType": "Prefix", "backend": {
        "service": {"name": service, "port": {"number": HTTP_PORT}}}}]}}
