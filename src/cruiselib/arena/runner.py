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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgspec

from cruiselib.errors import InvalidOptionError

from .backends import Backend, make_backend
from .plan import Job, Spec, dump_spec, expand, load_spec
from .play import JobRows
from .results import (
    GameRow,
    Games,
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
    try:
        with _Progress(progress, sum(job.games for job in jobs), sum(job.games for job in pending)) as bar:
            for job, job_rows in chosen.run_jobs(pending):
                if jobs_dir is not None:
                    write_job_rows(job_rows, jobs_dir / job.id)
                parts[job.index] = job_rows
                bar.advance(job.games)
    finally:
        close = getattr(chosen, "close", None)
        if isinstance(backend, str) and callable(close):  # a backend made here is ended here
            close()
    # The rows are built once, from every job's arrays, in job order.
    rows = jobs_games(jobs, [parts[job.index] for job in jobs])
    del parts
    if out_dir is None:
        summary = summarize(spec, rows)
    else:
        # The games file is written (in pyarrow, without the GIL) while the summary is computed.
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="arena-write") as writer:
            written = writer.submit(write_rows, rows, out_dir / "games")
            summary = summarize(spec, rows)
            written.result()
        (out_dir / "summary.json").write_text(json.dumps(_finite(summary), indent=2, allow_nan=False) + "\n")
    return RunResult(
        spec=spec, rows=rows, summary=summary, out_dir=out_dir, played=len(jobs) - resumed, resumed=resumed
    )


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
