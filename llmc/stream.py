"""Render admitted services one at a time, in output order, in this process or in worker processes.

`render_stream` yields one `Rendered` per service of an `Admission`, in its
output order (namespace/name), as soon as it is ready: the caller writes it out
and drops it, so memory does not grow with the number of services. Each service
is turned into its final form (`emit`: YAML text, JSON items, or the objects
themselves) where it was rendered, so with `jobs > 1` serialization runs in the
workers too.

Workers are forked from the admitted process (each inherits the admission, with
its resolver and caches, and builds on it independently); they take services in
batches and return results in order, with a bounded number of batches in flight.
Where `fork` is unavailable, rendering stays in this process. Output does not
depend on `jobs`: every service is rendered by the same code from the same
admitted object, and the caller receives the results in the same order.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator
from itertools import islice

from llmc.core.errors import LlmcError
from llmc.core.findings import Finding
from llmc.k8s.install_order import sort_objects
from llmc.core.record import field, record

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:  # and the driver passes its `render_pending` in: importing it here would be a cycle
    from typing import Any

    from llmc.pipeline import Admission, PendingService, ServiceOutput

    Emit = Callable[[list[dict[str, Any]]], Any]
    Render = Callable[[Admission, PendingService], tuple[ServiceOutput | None, list[LlmcError]]]

BATCH = 8  # services per worker task: small enough to balance, large enough to amortize the round trip
IN_FLIGHT = 4  # batches per worker submitted ahead of the one being written


@record
class Rendered:
    """One service's result: `payload` is `emit` of its objects in kind order; None when it failed."""

    order: int  # the service's input position (PendingService.order)
    payload: Any
    findings: list[Finding] = field(default_factory=list)
    errors: list[LlmcError] = field(default_factory=list)
    identities: list = field(default_factory=list)  # llmc.check.collisions.identities of its objects
    output: ServiceOutput | None = None  # kept only when there is no `emit` (rendered_services)


def rendered_services(render: Render, admission: Admission, emit: Emit | None, jobs: int = 1) -> Iterator[Rendered]:
    """`render_stream`; without `emit`, in this process, each with its whole `output` and no payload."""
    if emit is not None:
        yield from render_stream(render, admission, emit, jobs)
        return
    for pending in admission.services:
        yield _render_one(render, admission, pending, None)


def render_stream(render: Render, admission: Admission, emit: Emit, jobs: int = 1) -> Iterator[Rendered]:
    """Every service of `admission`, rendered by `render`, in output order; `jobs` processes (0: one per CPU)."""
    jobs = jobs or _cpus()
    services = admission.services
    if jobs == 1 or len(services) < 2 or not _can_fork():
        for pending in services:
            yield _render_one(render, admission, pending, emit)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    global _WORK
    _WORK = (render, admission, emit)  # inherited by the forked workers
    batches = (range(start, min(start + BATCH, len(services))) for start in range(0, len(services), BATCH))
    workers = min(jobs, -(-len(services) // BATCH))
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                 initializer=_die_with_parent, initargs=(os.getpid(),)) as pool:
            ahead = deque(pool.submit(_render_batch, batch) for batch in islice(batches, workers * IN_FLIGHT))
            while ahead:
                done = ahead.popleft().result()
                ahead.extend(pool.submit(_render_batch, batch) for batch in islice(batches, 1))
                yield from done
    finally:
        _WORK = None


_WORK: tuple[Render, Admission, Emit] | None = None


def _cpus() -> int:
    """The CPUs this process may run on (a container's cpuset, not the host's count)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _can_fork() -> bool:
    import multiprocessing  # only for -j above 1: it costs several milliseconds to import

    return "fork" in multiprocessing.get_all_start_methods()


def _die_with_parent(parent: int) -> None:
    """In a worker: be killed when the parent dies (SIGTERM, SIGKILL), so no orphan keeps the output pipe open.

    Linux's PR_SET_PDEATHSIG does it; elsewhere a daemon thread watches for the parent to go.
    A parent that died before this ran is caught by comparing the parent's pid.
    """
    import signal

    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        armed = libc.prctl(1, signal.SIGKILL, 0, 0, 0) == 0  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        armed = False
    if os.getppid() != parent:
        os._exit(1)
    if not armed:
        import threading
        import time

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, daemon=True).start()


def _render_batch(indexes: range) -> list[Rendered]:
    assert _WORK is not None, "workers are forked from render_stream"
    render, admission, emit = _WORK
    return [_render_one(render, admission, admission.services[i], emit) for i in indexes]


def _render_one(render: Render, admission: Admission, pending: PendingService, emit: Emit | None) -> Rendered:
    output, errors = render(admission, pending)
    if output is None:
        return Rendered(pending.order, None, errors=errors)
    from llmc.check.collisions import identities

    if emit is None:
        return Rendered(pending.order, None, list(output.resolved.findings.items),
                        identities=identities(output.objects), output=output)
    return Rendered(pending.order, emit(sort_objects(output.objects)), list(output.resolved.findings.items),
                    identities=identities(output.objects))
