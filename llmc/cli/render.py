"""`llmc render` itself, without typer: options in, the YAML/JSON stream on stdout, findings and errors on stderr.

Both entries call `run`: the typer command in `llmc.cli.app`, and `llmc.cli.main`'s fast
path, which parses plain `render` command lines itself so that a one-service
render does not pay for importing typer.
"""

from __future__ import annotations

import sys

from llmc.cli.common import build_request, fail, findings_policy, progress, report_findings, reported
from llmc.options import MAX_OUTPUT_BYTES

SPOOL_BYTES = 8 * 1024 * 1024  # output kept in memory up to this size, then in a temporary file
# A spooled file reaches stdout in pieces this size: a 1 MiB piece, decoded and encoded again on its way,
# raised a 10,000-service run's peak memory by 3 MB; with 64 KiB the copy costs no memory and no time.
COPY_CHARS = 1 << 16
GC_SERVICES = 20  # from this many services on, the admitted data is frozen out of the cyclic collector


def run(**options) -> None:
    """Render the services of the files into stdout (or `output_dir`): `options` are every option of
    llmc.options.RENDER by name, e.g. `output` "yaml" or "json".

    Exits (SystemExit) with 1 or 2 on errors, and with 1 when the findings policy fails the run
    (warnings under `strict`, a `deny`ed code).
    """
    from llmc.core.errors import ErrorList, LlmcError
    from llmc.gitops.krm import render_config
    from llmc.options import RENDER
    from llmc.pipeline import run as run_pipeline

    options = {o.name: o.default for o in RENDER} | options
    output, quiet, verbose, output_dir, show_only, jobs, max_output_bytes = (options[k] for k in (
        "output", "quiet", "verbose", "output_dir", "show_only", "jobs", "max_output_bytes"))

    as_json = output == "json"
    sources: dict[str, str] = {}
    if max_output_bytes < 1:
        fail([LlmcError(f"--max-output-bytes {max_output_bytes}: the budget must be 1 or more", exit_code=2)], sources)
    if jobs < 0:
        fail([LlmcError(f"-j {jobs}: the number of processes must be 0 (one per CPU) or more", exit_code=2)], sources)
    with reported(sources):
        config = render_config(options)
        policy = findings_policy(config)
        skipped: list[tuple[str, str]] = []
        request = build_request(config, sources, skipped=skipped)
    if verbose:
        sys.stderr.write("".join(f"llmc: skipped {path}: {reason}\n" for path, reason in skipped))

    # Every document is admitted first; then services are rendered one by one, in output order,
    # into a spooled file that reaches stdout only when all of them succeeded: bad input gives
    # errors on stderr and nothing on stdout, never half a stream.
    collected: list[dict] = []  # --show-only and --output-dir need every object
    spool = Spool(limit=max_output_bytes)
    writer = _StreamWriter(spool, as_json) if not (show_only or output_dir) else None
    if writer is not None:
        writer.add(request.passthrough_objects())  # the input's other objects, first (llmc.gitops.krm.partition)
    try:
        compiled = run_pipeline(request, emit=writer.emit if writer is not None else list,
                                write=writer.write if writer is not None else collected.extend, jobs=jobs, watch=_watched)
    except ErrorList as errs:
        fail(errs.errors, sources)
    findings = compiled.findings
    if writer is not None:
        writer.add(compiled.isvc.objects)
        writer.close()
    objects = request.passthrough_objects() + collected + compiled.isvc.objects
    if show_only:
        from llmc.cli.outdir import select

        try:
            objects = select(objects, show_only)
        except LlmcError as err:
            fail([err], sources)
    failed = report_findings(findings, policy, quiet)
    if output_dir:
        if failed:  # never replace the previous output with a failed run's
            raise SystemExit(1)
        from llmc.output.emit import to_json, to_yaml
        from llmc.cli.outdir import write_output_dir

        try:
            write_output_dir(objects, output_dir, to_json if as_json else to_yaml, ".json" if as_json else ".yaml")
        except LlmcError as err:
            fail([err], sources)
        return
    if writer is None:
        from llmc.output.emit import to_json, to_yaml

        spool.write((to_json if as_json else to_yaml)(objects))
    if spool.over:
        fail([LlmcError(f"the output is over the budget of {max_output_bytes} bytes (--max-output-bytes); nothing "
                        "was written", hint="raise --max-output-bytes, or look for a template that repeats its "
                        "output (docs/budgets.md)")], sources)
    spool.copy_to(sys.stdout)
    sys.stdout.flush()
    if failed:
        raise SystemExit(1)


class Spool:
    """Text kept in memory up to `max_bytes` (counted in characters), then in a temporary file.

    Like tempfile.SpooledTemporaryFile, without importing tempfile (and random, hashlib, shutil) for
    the small outputs most runs have.
    """

    def __init__(self, max_bytes: int = SPOOL_BYTES, limit: int = MAX_OUTPUT_BYTES) -> None:
        self.max_bytes = max_bytes
        self.limit = limit
        self.parts: list[str] = []
        self.size = 0
        self.total = 0
        self.over = False  # more than `limit` was written: the rest was dropped
        self.file = None

    def write(self, text: str) -> None:
        self.total += len(text)
        if self.total > self.limit:
            self.over = True
            return
        if self.file is not None:
            self.file.write(text)
            return
        self.parts.append(text)
        self.size += len(text)
        if self.size > self.max_bytes:
            import tempfile

            self.file = tempfile.TemporaryFile(mode="w+", encoding="utf-8", newline="")
            self.file.writelines(self.parts)
            self.parts = []

    def copy_to(self, out) -> None:
        """Write everything written so far to `out`, in chunks of COPY_CHARS."""
        if self.file is None:
            out.writelines(self.parts)
            return
        self.file.seek(0)
        while chunk := self.file.read(COPY_CHARS):
            out.write(chunk)


def _watched(stream, count: int):
    """The render stream under a progress bar; from GC_SERVICES services on, with the admitted data
    frozen out of the cyclic collector: it lives until the end and holds no cycles, so the collector
    need not scan it again and again (nor touch the pages forked workers share). A small run is over
    before that pays (llmc.cli.main keeps the collector off for it)."""
    import gc

    batch = count >= GC_SERVICES
    if batch:
        gc.collect()
        gc.freeze()
        gc.enable()
    try:
        yield from progress(stream, count)
    finally:
        if batch:
            gc.unfreeze()


class _StreamWriter:
    """The YAML stream or JSON List on `out`, written service by service (the same text as emit.to_yaml/to_json)."""

    def __init__(self, out, as_json: bool) -> None:
        from llmc.output import emit

        self.out = out
        self.json = as_json
        self.emit = emit.json_items if as_json else emit.to_yaml
        self.count = 0
        if as_json:
            out.write(emit.JSON_HEAD)

    def write(self, payload) -> None:
        if not self.json:
            self.out.write(payload)
            return
        from llmc.output.emit import JSON_FIRST, JSON_NEXT

        for item in payload:
            self.out.write((JSON_NEXT if self.count else JSON_FIRST) + item)
            self.count += 1

    def add(self, objects: list[dict]) -> None:
        if objects:
            self.write(self.emit(objects))

    def close(self) -> None:
        if self.json:
            from llmc.output.emit import json_tail

            self.out.write(json_tail(self.count))
