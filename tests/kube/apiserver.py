"""A real kube-apiserver for the tests: `kapi start/stop` (../shared/kube) and server-side dry-run over HTTP.

kubectl costs about 0.35 s per call, the server about 4 ms per object, so objects are sent
one by one as server-side apply PATCHes with `dryRun=All` and `fieldValidation=Strict`, the
request `kubectl apply --server-side --dry-run=server` makes. That also gives each object its own
verdict, where one batched kubectl call would mix them on stderr.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import ssl
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import yaml

FIELD_MANAGER = "llmc-tests"


def missing_tools(kapi: Path) -> list[str]:
    """What `kapi start` needs that this machine lacks, in words."""
    missing = []
    if not (kapi / "kapi").is_file() or not (kapi / "kube-apiserver.xz").is_file():
        missing.append(f"the kube-apiserver binary and kapi script at {kapi}")
    if shutil.which("etcd") is None:
        missing.append("etcd (apt-get install -y etcd-server)")
    for tool in ("kubectl", "openssl", "curl", "xz"):
        if shutil.which(tool) is None:
            missing.append(tool)
    return missing


def _free_port(offset: int = 0) -> int:
    """A free 127.0.0.1 port whose `port + offset` is free too (etcd's peer port is the client port + 10)."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port + offset < 65536 and _is_free(port + offset):
            return port
    raise RuntimeError("no free port pair on 127.0.0.1")


def _is_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@dataclass
class Kapi:
    """One `kapi` run: its own run dir and ports, so parallel sessions on one machine do not meet."""

    script: Path
    run: Path
    env: dict[str, str] = field(default_factory=dict)

    @classmethod
    def new(cls, kapi: Path, run: Path) -> Kapi:
        env = {"KAPI_RUN": str(run), "KAPI_API_PORT": str(_free_port()), "KAPI_ETCD_PORT": str(_free_port(10))}
        return cls(kapi / "kapi", run, env)

    def _kapi(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.script), *args], env={**os.environ, **self.env},
                              capture_output=True, text=True, timeout=300)

    def start(self, *crds: Path) -> Path:
        """Start the server, install `crds` (files or folders), wait until Established; the kubeconfig."""
        done = self._kapi("start", *map(str, crds))
        if done.returncode:
            raise RuntimeError(f"kapi start failed ({done.returncode}):\n{done.stderr[-3000:]}")
        return Path(done.stdout.strip().splitlines()[-1])

    def stop(self) -> None:
        """Stop what this run dir started (kapi stop checks each pid is its own process)."""
        self._kapi("stop")


@dataclass(frozen=True)
class Verdict:
    """The API server's answer to one object."""

    what: str  # Kind namespace/name
    error: str | None  # the Status message; None when accepted
    warnings: tuple[str, ...] = ()


class ApiServer:
    """Server-side dry-run of plain objects against the server of a kubeconfig."""

    def __init__(self, kubeconfig: Path):
        config = yaml.safe_load(kubeconfig.read_text())
        server = urlsplit(config["clusters"][0]["cluster"]["server"])
        self._token = config["users"][0]["user"]["token"]
        self._conn = http.client.HTTPSConnection(server.hostname, server.port, timeout=60,
                                                 context=ssl._create_unverified_context())  # kapi's self-signed serving cert
        self._resources: dict[str, dict[str, tuple[str, bool]]] = {}
        self._namespaces: set[str] = set()

    def close(self) -> None:
        self._conn.close()

    def request(self, method: str, path: str, body: Any = None, content_type: str = "application/json") -> tuple[int, Any, list[str]]:
        """(status, decoded JSON body, Warning headers)."""
        headers = {"Authorization": f"Bearer {self._token}", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = content_type
        self._conn.request(method, path, body=data, headers=headers)
        response = self._conn.getresponse()
        raw = response.read()
        warnings = response.headers.get_all("Warning") or []
        try:
            decoded = json.loads(raw) if raw else None
        except ValueError:
            decoded = raw.decode(errors="replace")
        return response.status, decoded, warnings

    def _resource(self, api_version: str, kind: str) -> tuple[str, bool] | None:
        """(plural, namespaced) of a kind the server serves, from discovery; None when it serves no such kind."""
        if api_version not in self._resources:
            base = "/api/v1" if api_version == "v1" else f"/apis/{api_version}"
            status, body, _ = self.request("GET", base)
            found = {}
            if status == 200:
                for res in body.get("resources", []):
                    if "/" not in res["name"]:
                        found[res["kind"]] = (res["name"], res["namespaced"])
            self._resources[api_version] = found
        return self._resources[api_version].get(kind)

    def ensure_namespace(self, name: str) -> None:
        """Create namespace `name` for real (a namespaced dry-run needs its namespace to exist)."""
        if name in self._namespaces:
            return
        status, body, _ = self.request("POST", "/api/v1/namespaces",
                                       {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
        if status not in (201, 409):
            raise RuntimeError(f"creating namespace {name}: {status} {body}")
        self._namespaces.add(name)

    def dry_run(self, obj: dict[str, Any]) -> Verdict:
        """`kubectl apply --server-side --dry-run=server` of one object."""
        api_version, kind = obj.get("apiVersion", ""), obj.get("kind", "")
        meta = obj.get("metadata") or {}
        name = meta.get("name", "")
        what = f"{kind} {meta['namespace']}/{name}" if meta.get("namespace") else f"{kind} {name}"
        resource = self._resource(api_version, kind)
        if resource is None:
            return Verdict(what, f"the server does not serve {kind} in {api_version}")
        plural, namespaced = resource
        base = "/api/v1" if api_version == "v1" else f"/apis/{api_version}"
        if namespaced:
            namespace = meta.get("namespace") or "default"
            self.ensure_namespace(namespace)
            base += f"/namespaces/{quote(namespace, safe='')}"
        path = (f"{base}/{plural}/{quote(name, safe='')}"
                f"?dryRun=All&fieldManager={FIELD_MANAGER}&fieldValidation=Strict&force=true")
        status, body, warnings = self.request("PATCH", path, obj, "application/apply-patch+yaml")
        if 200 <= status < 300:
            return Verdict(what, None, tuple(warnings))
        message = body.get("message") if isinstance(body, dict) else body
        return Verdict(what, f"{status} {message}", tuple(warnings))


def lws_pods_as_deployments(lws: dict[str, Any]) -> list[dict[str, Any]]:
    """The leader and worker pod templates of a LeaderWorkerSet, each as a Deployment.

    The LWS CRD's schema does not run core pod validation (../shared/kube/README.md, "What it does
    not check"); a Deployment with the same template does. Its selector is the template's labels.
    """
    meta = lws.get("metadata") or {}
    spec = (lws.get("spec") or {}).get("leaderWorkerTemplate") or {}
    out = []
    for part in ("leaderTemplate", "workerTemplate"):
        template = spec.get(part)
        if not isinstance(template, dict):
            continue
        labels = dict((template.get("metadata") or {}).get("labels") or {"llmc-test/lws-part": part})
        template = {**template, "metadata": {**(template.get("metadata") or {}), "labels": labels}}
        out.append({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": f"{meta.get('name')}-{part.lower()}", "namespace": meta.get("namespace")},
            "spec": {"selector": {"matchLabels": labels}, "template": template},
        })
    return out


def checked_objects(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`objects` plus, for each LeaderWorkerSet, its pod templates as Deployments."""
    out = list(objects)
    for obj in objects:
        if obj.get("kind") == "LeaderWorkerSet":
            out += lws_pods_as_deployments(obj)
    return out
