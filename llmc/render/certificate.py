"""The workload's TLS Secret as a cert-manager Certificate (and its self-signed Issuer).

Every workload pod (and the scheduler) mounts `<name>-kserve-self-signed-certs`. The controller
generates that Secret at run time (reconcileSelfSignedCertsSecret, workload_tls_self_signed.go):
an RSA-4096 key in PKCS#8, a self-signed certificate for organisation "Kserve Self Signed", with
the DNS names of collectDNSNames and the IPs of the service's live pods and Services, valid for
ten years plus a fifth, renewed two years before that. Offline there is no controller to do it,
so llmc asks cert-manager (which KServe's install requires) for the same Secret: same name, same
labels, the same keys (`tls.crt`, `tls.key`, `ca.crt`), the same DNS names. Pod and Service IPs
exist only at run time; the certificate carries the loopback address the controller always adds.
"""

from __future__ import annotations


from llmc.kserve import scheduler_spec
from llmc.render import meta, tokenizer
from llmc.render.context import RenderContext

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

API = "cert-manager.io/v1"
SECRET_SUFFIX = "-kserve-self-signed-certs"
ISSUER_SUFFIX = "-kserve-self-signed-issuer"
ORGANIZATION = "Kserve Self Signed"
# certificateDuration (10 years) + certificateExpirationRenewBufferDuration (a fifth of it) is the
# certificate's NotAfter; the controller recreates it at duration - buffer, i.e. 4 years before.
DURATION = f"{24 * 365 * 12}h"
RENEW_BEFORE = f"{24 * 365 * 4}h"


def secret_name(ctx: RenderContext) -> str:
    return ctx.child(SECRET_SUFFIX)


def dns_names(ctx: RenderContext) -> list[str]:
    """collectDNSNames: localhost, the workload Service, the EPP Service of a managed pool and the
    tokenizer Service, each as `name.ns.svc.cluster.local` and `name.ns.svc`; sorted."""
    names = ["localhost"]

    def service(name: str) -> None:
        names.extend((f"{name}.{ctx.namespace}.svc.{tokenizer.CLUSTER_DOMAIN}", f"{name}.{ctx.namespace}.svc"))

    service(ctx.child("-kserve-workload-svc"))
    sched = scheduler_spec.scheduler(ctx.spec)
    pool = (sched or {}).get("pool")
    if pool is not None and not scheduler_spec.has_pool_ref(ctx.spec):
        picker = ((pool.get("spec") or {}).get("endpointPickerRef") or {}).get("name")
        if picker:
            service(str(picker))
    if scheduler_spec.tokenizer_enabled(ctx.spec):
        service(ctx.child("-tokenizer"))
    return sorted(names)


def objects(ctx: RenderContext) -> list[dict[str, Any]]:
    """The Issuer (unless `--cert-issuer` names an existing one) and the Certificate."""
    labels = meta.base_labels(ctx, meta.WORKLOAD)
    issuer = ctx.options.cert_issuer
    out: list[dict[str, Any]] = []
    if issuer is None:
        issuer = ("Issuer", ctx.child(ISSUER_SUFFIX))
        out.append({
            "apiVersion": API,
            "kind": "Issuer",
            "metadata": ctx.metadata(issuer[1], labels),
            "spec": {"selfSigned": {}},
        })
    kind, name = issuer
    out.append({
        "apiVersion": API,
        "kind": "Certificate",
        "metadata": ctx.metadata(secret_name(ctx), labels),
        "spec": {
            "secretName": secret_name(ctx),
            "secretTemplate": {"labels": dict(labels)},
            "issuerRef": {"group": "cert-manager.io", "kind": kind, "name": name},
            "subject": {"organizations": [ORGANIZATION]},
            "dnsNames": dns_names(ctx),
            "ipAddresses": ["127.0.0.1"],
            "duration": DURATION,
            "renewBefore": RENEW_BEFORE,
            "privateKey": {"algorithm": "RSA", "size": 4096, "encoding": "PKCS8", "rotationPolicy": "Always"},
            "usages": ["key encipherment", "digital signature", "server auth"],
        },
    })
    return out
