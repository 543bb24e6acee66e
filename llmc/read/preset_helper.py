"""Reading and admitting a `--presets` folder in a forked helper while the command imports the renderer.

A cold `llmc render --presets DIR` of KServe's folder spends about 20 ms reading it (libyaml's
events) and admitting it (CRD defaults and checks, the webhook), and about 30 ms importing the
resolver, the renderer and the emitter, which do not depend on the presets. With a second CPU the
two run side by side: `start` forks a helper once the admission's own modules are imported (the
helper inherits them); the helper reads and admits the folder as `pipeline.admit_request` does and
sends back the entries `llmc.read.snapshot` keeps for a built-in set (each preset's document and its
admitted object), which `take` turns into the request's admitted presets as a snapshot's are.

Anything but plain success gives None, and the command reads and admits the folder itself, so
errors, their order and their positions are never the helper's: a file that cannot be read or
loaded, a document admission refuses, a helper that fails or is killed, or options that differ
when `take` asks. No helper is started with one CPU (or a cgroup quota under two), without
`os.fork`, with other threads running, or for a path that is neither a regular file nor a folder (stdin or a pipe can be read
only once). tests/test_preset_helper.py compares the helper's presets with the command's own.
"""

from __future__ import annotations

import marshal
import os
import stat
import sys

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from llmc.resolve.presets import StoredConfig

# cgroup v2's CPU quota ("max 100000", or "150000 100000" for 1.5 CPUs): a container limited to less than
# two CPUs gains nothing from a helper (sched_getaffinity still lists the host's CPUs)
CPU_MAX = "/sys/fs/cgroup/cpu.max"

# the helper started by `start`: ((paths, system namespace), its pid, the read end of its pipe)
_pending: tuple[tuple[tuple[str, ...], str], int, int] | None = None


def start(paths: list[str] | tuple[str, ...], system_namespace: str) -> bool:
    """Fork a helper that reads and admits the preset files of `paths`; False when none was started."""
    global _pending
    discard()
    if not _worthwhile(paths):
        return False
    from llmc.admit.admission import admit_document  # imported here, so that the helper inherits them
    from llmc.read.inputs import read_documents
    from llmc.resolve.presets import CONFIG_KIND

    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return False
    if pid == 0:  # the helper: never returns, never writes to stdout or stderr
        code = 1
        try:
            os.close(read_end)
            sources: dict[str, str] = {}
            docs = read_documents(list(paths), sources)
            files = list(sources.items())
            index = {label: i for i, (label, _) in enumerate(files)}
            entries = []
            for doc in docs:
                obj = admit_document(doc, system_namespace)
                if obj["kind"] == CONFIG_KIND:
                    meta = obj["metadata"]
                    entries.append((index[doc.file], doc.index, doc.item, doc.obj, obj, meta["name"], meta["namespace"]))
            with os.fdopen(write_end, "wb") as out:
                out.write(marshal.dumps((files, entries)))
            code = 0
        except BaseException:  # an error, an interrupt: the command does the work itself
            pass
        finally:
            os._exit(code)
    os.close(write_end)
    _pending = ((tuple(paths), system_namespace), pid, read_end)
    return True


def take(paths: list[str] | tuple[str, ...], system_namespace: str, sources: dict[str, str],
         meanwhile=None) -> list[StoredConfig] | None:
    """The helper's admitted presets for `paths` (their texts go into `sources`), or None: then admit them here.

    `meanwhile`, called first when a helper runs, does work that does not need the presets
    (`pipeline.import_stages`): the renderer's imports take about as long as the helper.
    """
    global _pending
    if _pending is None:
        return None
    key, pid, read_end = _pending
    _pending = None
    if meanwhile is not None:
        try:
            meanwhile()
        except BaseException:
            _stop(pid, read_end)
            raise
    chunks = []
    try:
        while chunk := os.read(read_end, 1 << 20):
            chunks.append(chunk)
    except OSError:
        chunks = []
    finally:
        os.close(read_end)
    _, status = os.waitpid(pid, 0)
    if key != (tuple(paths), system_namespace) or status != 0 or not chunks:
        return None
    from llmc.read.snapshot import stored_configs

    files, entries = marshal.loads(b"".join(chunks))
    sources.update(files)
    return stored_configs([label for label, _ in files], [text for _, text in files], entries, system_namespace)


def discard() -> None:
    """Stop and reap a helper whose presets were not taken (the command failed before asking)."""
    global _pending
    if _pending is None:
        return
    _, pid, read_end = _pending
    _pending = None
    _stop(pid, read_end)


def _stop(pid: int, read_end: int) -> None:
    os.close(read_end)  # the helper's write fails, and it leaves
    os.waitpid(pid, 0)


def _worthwhile(paths: list[str] | tuple[str, ...]) -> bool:
    if not paths or not hasattr(os, "fork") or not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2:
        return False
    if _cpu_quota() < 2:
        return False
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:  # fork copies only the calling thread
        return False
    from llmc.read.appfolder import stat_mode

    for path in paths:
        try:
            mode = stat_mode(path)
        except OSError:
            return False
        if mode is None or not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            return False
    return True


def _cpu_quota() -> float:
    """The CPUs cgroup v2 lets this process use (infinity without a quota or a cgroup file)."""
    try:
        with open(CPU_MAX) as f:
            quota, period = f.read().split()[:2]
        return float("inf") if quota == "max" else int(quota) / int(period)
    except (OSError, ValueError):
        return float("inf")
