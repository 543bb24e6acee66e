"""Generate llmc's JSON Schemas from the upstream CRDs.

Usage: python schemas/generate.py [UPSTREAM_DIR]   (default: ../shared/upstream)

Each CRD version's openAPIV3Schema becomes one JSON Schema file named
`<kind-lowercase>-<group>-<version>.json`. Descriptions are dropped (they are
upstream prose, and llmc needs the structure only); the Kubernetes extensions
(`x-kubernetes-*`) and defaults are kept because llmc applies CRD defaults and
checks CEL-free structural rules. The output is deterministic (sorted keys).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent

# (file under the upstream dir, versions to keep)
SOURCES = [
    ("kserve/crds/serving.kserve.io_llminferenceservices.yaml", ["v1alpha1", "v1alpha2"]),
    ("kserve/crds/serving.kserve.io_llminferenceserviceconfigs.yaml", ["v1alpha1", "v1alpha2"]),
    ("kserve/crds/gateway-inference-extension.yaml", None),
    ("gateway-api/gateway.networking.k8s.io_httproutes.yaml", ["v1"]),
    ("lws/leaderworkerset.x-k8s.io_leaderworkersets.yaml", ["v1"]),
]

# cert-manager is not in ../shared/upstream: its two CRDs llmc emits objects of
# (Certificate, Issuer) are kept in schemas/sources/, see the README there.
LOCAL_SOURCES = [
    ("cert-manager/cert-manager.io_certificates.yaml", ["v1"]),
    ("cert-manager/cert-manager.io_issuers.yaml", ["v1"]),
]


def strip(node):
    """Drop prose from a schema tree, keep everything structural."""
    if isinstance(node, dict):
        return {k: strip(v) for k, v in node.items() if k != "description"}
    if isinstance(node, list):
        return [strip(v) for v in node]
    return node


def schemas_from(path: Path, versions: list[str] | None):
    for crd in yaml.safe_load_all(path.read_text()):
        if not crd or crd.get("kind") != "CustomResourceDefinition":
            continue
        spec = crd["spec"]
        for version in spec["versions"]:
            if versions is not None and version["name"] not in versions:
                continue
            schema = strip(version["schema"]["openAPIV3Schema"])
            schema["$schema"] = "http://json-schema.org/draft-07/schema#"
            # kubeconform-style name: <kind>-<group>-<version>
            name = f"{spec['names']['kind'].lower()}-{spec['group']}-{version['name']}.json"
            yield name, schema


def main(argv: list[str]) -> int:
    upstream = Path(argv[1]) if len(argv) > 1 else HERE.parent.parent / "shared" / "upstream"
    out = HERE / "crd"
    out.mkdir(exist_ok=True)
    written = []
    sources = [(upstream / rel, v) for rel, v in SOURCES] + [(HERE / "sources" / rel, v) for rel, v in LOCAL_SOURCES]
    for path, versions in sources:
        for name, schema in schemas_from(path, versions):
            (out / name).write_text(json.dumps(schema, sort_keys=True, separators=(",", ":")) + "\n")
            written.append(name)
    for name in sorted(written):
        print(f"schemas/crd/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
