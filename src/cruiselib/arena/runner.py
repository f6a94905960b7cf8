"""Running a spec: :func:`run` plays its jobs on a backend, keeps each finished job's rows on
disk at once (so an interrupted run restarts where it stopped), and writes the games file and
``summary.json``.

``out_dir`` holds::

    spec.json             the spec (a resumed run with another spec is refused)
    jobs/<job>.npz        the arrays of each finished job (numpy's uncompressed .npz)
    games.parquet         every row, sorted by (job, index) (.csv without pyarrow)
    summary.json          see cruiselib.arena.summary

>>> result = run({"kind": "study", "game": "sirens", "games": 100}, backend="serial", progress=False)
>>> result.summary["games"]
100
"""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgspec

from cruiselib.errors import InvalidOptionError

from . import results
from .backends import Backend, make_backend
from .plan import Job, Spec, dump_spec, expand, load_spec
from .play import JobRows
from .results import (
    GameRow,
    Games,
    TableWriter,
    game_count,
    jobs_games,
    read_job_rows,
    rows_to_games,
    to_table,
    write_job_rows,
    write_rows,
)
from .summary import summarize

__all__ = ["RunResult", "run"]


class RunResult(msgspec.Struct):
    """What :func:`run` returns: ``rows``, the games sorted by job and index (a pyarrow Table
    with pyarrow, else columns of Python lists: :data:`~cruiselib.arena.results.Games`), the
    ``summary`` dict, the output directory (None for a run in memory), and how many jobs
    this call played and how many it found finished on disk."""

    spec: Spec
    rows: Games
    summary: dict[str, Any]
    out_dir: Path | None
    played: int
    resumed: int

    def games(self) -> list[GameRow]:
        """The rows as :class:`~cruiselib.arena.results.GameRow` objects."""
        return rows_to_games(self.rows)

    def table(self) -> Any:
        """The rows as a pyarrow Table (needs pyarrow)."""
        return to_table(self.rows) if isinstance(self.rows, dict) else self.rows

    @property
    def game_count(self) -> int:
        return game_count(self.rows)


def _job_file(jobs_dir: Path, job: Job) -> Path | None:
    path = jobs_dir / f"{job.id}.npz"
    return path if path.exists() else None


def _prepare(out_dir: Path, spec: Spec, resume: bool) -> None:
    """Make ``out_dir`` ready: refuse a resume over another spec; start afresh without resume."""
    out_dir.mkdir(parents=True, exist_ok=True)
    spec_file = out_dir / "spec.json"
    text = dump_spec(spec)
    if spec_file.exists():
        if resume and spec_file.read_bytes() != text:
            raise InvalidOptionError(
                f"{out_dir} holds a run of another spec: give another directory, or resume=False to replace it"
            )
        if not resume:
            shutil.rmtree(out_dir / "jobs", ignore_errors=True)
            for name in ("games.parquet", "games.csv", "summary.json"):
                (out_dir / name).unlink(missing_ok=True)
    spec_file.write_bytes(text)
    (out_dir / "jobs").mkdir(exist_ok=True)


def run(
    spec: Spec | Mapping[str, Any] | str | Path,
    out_dir: str | Path | None = None,
    backend: str | Backend = "local",
    workers: int | None = None,
    resume: bool = True,
    progress: bool = True,
) -> RunResult:
    """Play every game of ``spec`` and summarise them.

    ``spec``: a :class:`~cruiselib.arena.plan.Tournament` or :class:`~cruiselib.arena.plan.Study`,
    or what :func:`~cruiselib.arena.plan.load_spec` reads. ``backend``: ``"local"`` (processes),
    ``"serial"`` (this process), ``"ray"`` or a :class:`~cruiselib.arena.backends.Backend`.
    ``workers``: processes of the local backend (default: the CPU count). ``resume``: keep the
    finished jobs found in ``out_dir`` (False: start afresh). ``progress``: a rich progress bar.
    The rows and the summary are the same for every backend and worker count (but for the
    ``seconds`` column, wall time).
    """
    spec = load_spec(spec)
    jobs = expand(spec)
    chosen = make_backend(backend, workers)
    parts: dict[int, JobRows] = {}
    jobs_dir: Path | None = None
    pending = jobs
    if out_dir is not None:
        out_dir = Path(out_dir)
        _prepare(out_dir, spec, resume)
        jobs_dir = out_dir / "jobs"
        pending = []
        for job in jobs:
            found = _job_file(jobs_dir, job)
            if found is None:
                pending.append(job)
            else:
                parts[job.index] = read_job_rows(found)
    resumed = len(parts)
    rows_out = _Rows(jobs, None if out_dir is None else out_dir / "games")
    try:
        rows_out.add(parts)
        with _Progress(progress, sum(job.games for job in jobs), sum(job.games for job in pending)) as bar:
            for job, job_rows in chosen.run_jobs(pending):
                if jobs_dir is not None:
                    rows_out.checkpoint(job_rows, jobs_dir / job.id)
                rows_out.add({job.index: job_rows})
                bar.advance(job.games)
        rows = rows_out.finish()
    except BaseException:
        rows_out.abort()
        raise
    finally:
        close = getattr(chosen, "close", None)
        if isinstance(backend, str) and callable(close):  # a backend made here is ended here
            close()
    summary = summarize(spec, rows)
    if out_dir is not None:
        (out_dir / "summary.json").write_text(json.dumps(_finite(summary), indent=2, allow_nan=False) + "\n")
    return RunResult(
        spec=spec, rows=rows, summary=summary, out_dir=out_dir, played=len(jobs) - resumed, resumed=resumed
    )


CHUNK_ROWS = 65_536
"""Rows at least in a chunk of the rows Table (a row group of games.parquet), but the last."""


class _Rows:
    """The rows of a run, made while its jobs play: the jobs' arrays are taken in job order
    (whatever order they finish in), and each chunk of at least :data:`CHUNK_ROWS` rows is
    turned into a Table (and written to ``path`` as a row group) on a thread of its own,
    overlapping the games still playing. Without pyarrow the rows are made (and written as
    CSV) at the end."""

    def __init__(self, jobs: list[Job], path: Path | None) -> None:
        self.jobs = jobs
        self.path = path
        self._parts: dict[int, JobRows] = {}
        self._next = 0  # the first job not yet in a chunk
        self._batch: list[Job] = []
        self._batch_rows = 0
        self._writer = TableWriter(path) if results.HAVE_PYARROW else None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="arena-rows")
        self._done: list[Future[None]] = []
        self._checkpoints = ThreadPoolExecutor(max_workers=1, thread_name_prefix="arena-checkpoints")
        self._saved: list[Future[Path]] = []

    def checkpoint(self, rows: JobRows, path: Path) -> None:
        """Save a finished job's arrays to ``path`` (on a thread: the games go on meanwhile;
        a run stopped before a save replays that job when resumed)."""
        self._saved.append(self._checkpoints.submit(write_job_rows, rows, path))
        while self._saved and self._saved[0].done():  # a failed save stops the run now
            self._saved.pop(0).result()

    def add(self, parts: Mapping[int, JobRows]) -> None:
        """Take finished jobs' arrays (job index -> rows); chunk those now next in order."""
        self._parts.update(parts)
        while self._next < len(self.jobs) and self.jobs[self._next].index in self._parts:
            job = self.jobs[self._next]
            self._batch.append(job)
            self._batch_rows += self._parts[job.index].games
            self._next += 1
            if self._batch_rows >= CHUNK_ROWS:
                self._flush()

    def _flush(self) -> None:
        if self._writer is None or not self._batch:
            return
        batch_parts = [self._parts.pop(job.index) for job in self._batch]
        self._done.append(self._thread.submit(self._writer.add, self._batch, batch_parts))
        self._batch, self._batch_rows = [], 0
        if self._done[0].done():  # a failed chunk stops the run now, not at the end
            self._done.pop(0).result()

    def finish(self) -> Games:
        """Every row, in job order (the games file and every checkpoint written)."""
        self._checkpoints.shutdown(wait=True)
        for saved in self._saved:
            saved.result()
        if self._writer is None:
            rows = jobs_games(self.jobs, [self._parts[job.index] for job in self.jobs])
            if self.path is not None:
                write_rows(rows, self.path)
            return rows
        self._flush()
        self._thread.shutdown(wait=True)
        for future in self._done:
            future.result()
        return self._writer.finish()

    def abort(self) -> None:
        """Stop: the checkpoints of finished jobs saved, chunks not begun dropped, the
        partial games file removed."""
        self._checkpoints.shutdown(wait=True)
        self._thread.shutdown(wait=True, cancel_futures=True)
        if self._writer is not None:
            self._writer.abort()


def _finite(value: Any) -> Any:
    """``value`` with every NaN or infinity as None (JSON has neither)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value


class _Progress:
    """A rich progress bar of games played, or nothing (``enabled`` False or no rich)."""

    def __init__(self, enabled: bool, total: int, pending: int) -> None:
        self._bar: Any = None
        self._task: Any = None
        if not enabled:
            return
        try:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
        except ImportError:
            return
        self._bar = Progress("games", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), transient=False)
        self._task = self._bar.add_task("games", total=total, completed=total - pending)

    def __enter__(self) -> _Progress:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()

    def advance(self, games: int) -> None:
        if self._bar is not None:
            self._bar.advance(self._task, games)
