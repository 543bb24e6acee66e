"""The target cluster's capabilities from `--api-versions`, `--kube-version` and `--dra-api`, as helm reads them.

`--api-versions` adds to the default set (helm's `--api-versions` does the same); a value with a
leading `-` removes one, so a cluster without, say, KEDA is `--api-versions -keda.sh/v1alpha1`.
Argo CD's `KUBE_API_VERSIONS` is the live cluster's complete list and replaces the set (`complete`).

The DRA API follows the cluster: `resource.k8s.io/v1` from Kubernetes 1.34 on; older clusters, or
sets without v1, get the newest beta the cluster has, in its own shape. When the flags name no
`resource.k8s.io` version, the kube version decides (1.33: v1beta2, 1.32: v1beta1, older: none).
`--dra-api` overrides the choice.
"""

from __future__ import annotations

import re

from llmc.core.errors import LlmcError
from llmc.core.record import record

@record(frozen=True)
class Capabilities:
    """The cluster APIs llmc may assume (like helm's --api-versions / --kube-version)."""

    api_versions: frozenset[str] = frozenset(
        {
            "gateway.networking.k8s.io/v1",
            "inference.networking.k8s.io/v1",
            "leaderworkerset.x-k8s.io/v1",
            "resource.k8s.io/v1",
            "keda.sh/v1alpha1",
            "cert-manager.io/v1",
        }
    )
    kube_version: str = "1.34.0"

    def has(self, group_version: str, kind: str | None = None) -> bool:
        if kind is not None and f"{group_version}/{kind}" in self.api_versions:
            return True
        return group_version in self.api_versions



DRA_APIS = ("resource.k8s.io/v1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1beta1")
# The minor version that first serves each DRA API.
_DRA_SINCE = {"resource.k8s.io/v1": 34, "resource.k8s.io/v1beta2": 33, "resource.k8s.io/v1beta1": 32}
# What clusters report: 1.34, v1.34.1, 1.33.5-gke.1000, v1.31.2+k3s1.
_KUBE_VERSION = re.compile(r"v?(?P<major>0|[1-9][0-9]{0,3})\.(?P<minor>0|[1-9][0-9]{0,3})(?:\.(?P<patch>0|[1-9][0-9]{0,5}))?(?:[-+][0-9A-Za-z.+-]*)?")
_GROUP_VERSION = re.compile(r"(?:[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?v[0-9]+(?:(?:alpha|beta)[0-9]+)?(?:/[A-Za-z][A-Za-z0-9]*)?")


def kube_version(text: str, flag: str = "--kube-version") -> str:
    """`MAJOR.MINOR.PATCH` of a version as clusters report it; a usage error for anything else."""
    match = _KUBE_VERSION.fullmatch(text.strip())
    if match is None or match["major"] != "1":
        raise LlmcError(
            f"{flag} {text!r} is not a Kubernetes version",
            hint="use MAJOR.MINOR[.PATCH], e.g. 1.34, v1.34.1, 1.33.5-gke.1000 or v1.31.2+k3s1",
            exit_code=2,
        )
    return f"{match['major']}.{match['minor']}.{match['patch'] or 0}"


def _minor(version: str) -> int:
    return int(version.split(".")[1])


def capabilities(api_versions: list[str] | None, version: str | None, complete: bool = False,
                 flag: str = "--api-versions") -> Capabilities:
    """The Capabilities for the given flags: defaults plus/minus `api_versions`, or exactly them when `complete`."""
    default = Capabilities()
    normalized = kube_version(version) if version else default.kube_version
    apis = set() if complete else set(default.api_versions)
    if not complete and _minor(normalized) < _DRA_SINCE["resource.k8s.io/v1"]:
        apis.discard("resource.k8s.io/v1")
        if not any(a.startswith("resource.k8s.io/") for a in api_versions or ()):
            apis.update(api for api, since in _DRA_SINCE.items() if since <= _minor(normalized))
    for value in api_versions or ():
        remove = value.startswith("-") and not complete
        name = value[1:] if remove else value
        if not _GROUP_VERSION.fullmatch(name):
            raise LlmcError(f"{flag} {value!r} is not GROUP/VERSION[/KIND]",
                            hint="e.g. keda.sh/v1alpha1, or -keda.sh/v1alpha1 to remove a default", exit_code=2)
        if remove:
            apis.discard(name)
        else:
            apis.add(name)
    return Capabilities(api_versions=frozenset(apis), kube_version=normalized)


def dra_api(caps: Capabilities, explicit: str | None) -> str | None:
    """The ResourceClaimTemplate's API: `--dra-api` when given (the user says the cluster serves it), else the
    newest one the cluster serves; None when it serves none (a service with managed DRA is then an error)."""
    if explicit is not None:
        if explicit not in DRA_APIS:
            raise LlmcError(f"unsupported --dra-api {explicit!r}", hint="use resource.k8s.io/v1, v1beta2 or v1beta1", exit_code=2)
        return explicit
    served = [api for api in DRA_APIS if caps.has(api) and _minor(caps.kube_version) >= _DRA_SINCE[api]]
    return served[0] if served else None
