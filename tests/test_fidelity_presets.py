"""llmc's own preset sets render the same objects as KServe's presets, except the script text.

Every golden and example service is rendered twice — with the built-in set and with
`--presets ../shared/upstream/kserve/presets/<version>` — and the object streams must be
equal once the bash script element of each `command` is set aside.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from llmc.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
SETS = [("kserve-master", "master", "master"), ("kserve-v0.20", "v0.20.0", "v0.20")]
INPUTS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs" / "examples").glob("*.yaml"))
INPUTS += [
    "golden/long-name/input.yaml",
    "golden/pipeline-parallel-single-node/input.yaml",
    "golden/storage-s3/input.yaml",
]
UPSTREAM_SAMPLES = ROOT.parent / "shared" / "upstream" / "kserve" / "samples"
# every KServe sample with a service (none without ../shared: the upstream fixture skips then)
SAMPLES = sorted(str(p.relative_to(UPSTREAM_SAMPLES)) for p in UPSTREAM_SAMPLES.rglob("*.yaml")
                 if "kind: LLMInferenceService\n" in p.read_text(encoding="utf-8")) if UPSTREAM_SAMPLES.is_dir() else []


def scripts_removed(stream: str) -> list[dict]:
    objs = list(yaml.safe_load_all(stream))

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "command" and isinstance(value, list) and value[:2] == ["/bin/bash", "-c"]:
                    node[key] = value[:2] + ["<script>"] + value[3:]
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(objs)
    return objs


def render(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["render", "-q", *args])
    assert result.exit_code in (0, 1), result.stderr
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("builtin,upstream_dir,version", SETS)
@pytest.mark.parametrize("source", INPUTS + [f"samples/{s}" for s in SAMPLES])
def test_builtin_set_matches_kserve_presets(upstream, monkeypatch, builtin, upstream_dir, version, source):
    monkeypatch.chdir(ROOT)
    path = str(upstream / "kserve" / source) if source.startswith("samples/") else source
    code, ours, our_errors = render("--preset-set", builtin, "-f", path)
    their_code, theirs, their_errors = render("--presets", str(upstream / "kserve" / "presets" / upstream_dir),
                                              "--kserve-version", version, "-f", path)
    assert (code, our_errors) == (their_code, their_errors)  # a sample both sets reject, with the same errors
    assert scripts_removed(ours) == scripts_removed(theirs)
    if "- /bin/bash" in theirs:
        assert ours != theirs  # the scripts themselves are ours
