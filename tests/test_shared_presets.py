"""A batch shares its presets: merged specs share objects with them (llmc.resolve.merge), so nothing that
renders one service may change what the next one merges. Each service of a batch renders as it does
alone, and the presets are as they were before the batch."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import gen  # noqa: E402

SERVICES = 24  # every shape four times: with and without router, so both fix-ups (pool selector, EPP account) run


def _render(path: Path) -> list[dict]:
    proc = subprocess.run([sys.executable, "-m", "llmc", "render", "-q", "-f", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return list(yaml.safe_load_all(proc.stdout))


def test_each_service_of_a_batch_renders_as_alone(tmp_path: Path) -> None:
    gen.write(tmp_path / "batch", SERVICES)
    docs = [d for f in sorted((tmp_path / "batch").iterdir()) for d in yaml.safe_load_all(f.read_text())]
    assert len(docs) == SERVICES
    alone = {}
    for i, doc in enumerate(docs):
        path = tmp_path / f"svc-{i}.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False))
        alone[(doc["metadata"]["namespace"], doc["metadata"]["name"])] = _render(path)
    # the batch's stream is the services' objects, services in namespace/name order
    assert _render(tmp_path / "batch") == [obj for key in sorted(alone) for obj in alone[key]]


def test_rendering_leaves_the_presets_as_they_were(tmp_path: Path) -> None:
    from llmc.cli.common import build_request
    from llmc.gitops.krm import RenderConfig
    from llmc.pipeline import admit_request, render_pending

    gen.write(tmp_path, SERVICES)
    admission = admit_request(build_request(RenderConfig(files=(str(tmp_path),)), {}))
    configs = list(admission.resolver.store._by_key.values())
    before = copy.deepcopy([c.spec for c in configs])
    for pending in admission.services:
        output, errors = render_pending(admission, pending)
        assert output is not None and not errors
    assert [c.spec for c in configs] == before
    assert admission.resolver._prefix_cache  # merged preset layers were cached, and reused
    for merged in admission.resolver._prefix_cache.values():
        assert "serviceAccountName" not in ((merged.get("router") or {}).get("scheduler") or {}).get("template", {})


def test_the_fix_ups_copy_what_they_change() -> None:
    from llmc.resolve import router_fixups

    preset = {"router": {"scheduler": {"pool": {"spec": {"targetPorts": [{"number": 8000}], "selector": {}}},
                                       "template": {"containers": []}}}}
    before = copy.deepcopy(preset)
    spec = {"router": preset["router"], "model": {"uri": "hf://a/b"}}  # what a merge shares with a preset
    router_fixups.default_pool_selector(spec, "svc")
    router_fixups.default_scheduler_service_account(spec, "svc")
    assert preset == before
    pool = spec["router"]["scheduler"]["pool"]["spec"]
    assert list(pool) == ["targetPorts", "selector"] and pool["selector"]["matchLabels"]  # in place of the old
    assert spec["router"]["scheduler"]["template"] == {"containers": [], "serviceAccountName": "svc-epp-sa"}
