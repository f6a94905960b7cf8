"""Running a spec: :func:`run` plays its jobs on a backend, keeps each finished job's rows on
disk at once (so an interrupted run restarts where it stopped), and writes the games file and
``summary.json``.

``out_dir`` holds::

    run.lock              the lock of the run using the directory (who holds it, while it runs)
    spec.json             the spec (a resumed run with another spec is refused)
    jobs/<job>.npz        the arrays of each finished job (numpy's uncompressed .npz)
    games.parquet         every row, sorted by (job, index) (.csv without pyarrow)
    summary.json          see cruiselib.arena.summary

One run at a time uses a directory: a run holds an OS lock on ``run.lock`` (``fcntl.flock``;
``msvcrt.locking`` on Windows) from before it touches anything until its summary is
written, and a second run is refused with :class:`OutDirInUseError`. The lock dies with
its process, so the lock of a killed run is taken over. A resumed run checks each
checkpoint against its job and plays again the job of one it refuses, saying why (a
warning of the ``cruiselib.arena`` logger).

>>> result = run({"kind": "study", "game": "sirens", "games": 100}, backend="serial", progress=False)
>>> result.summary["games"]
100
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import shutil
import socket
import stat
import sys
import time
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgspec

from cruiselib.errors import CruiseError, InvalidOptionError, InvalidStateError

from . import results
from .backends import Backend, make_backend
from .plan import Job, Spec, dump_spec, expand, load_spec
from .play import JobRows
from .results import (
    CheckpointError,
    GameRow,
    Games,
    TableWriter,
    game_count,
    jobs_games,
    partial_path,
    read_games,
    read_job_rows,
    rows_to_games,
    spec_digest,
    to_table,
    write_job_rows,
    write_rows,
)
from .schema import read_summary
from .summary import summarize

__all__ = ["LOCK_NAME", "OutDirInUseError", "RunResult", "load_run", "run"]

logger = logging.getLogger("cruiselib.arena")


class RunResult(msgspec.Struct):
    """What :func:`run` returns: ``rows``, the games sorted by job and index (a pyarrow Table
    with pyarrow, else columns of Python lists: :data:`~cruiselib.arena.results.Games`), the
    ``summary`` dict, the output directory (None for a run in memory), how many jobs this
    call played and how many it found finished on disk, and how many of those it played
    were played again because their checkpoint was refused (``replayed``, part of
    ``played``)."""

    spec: Spec
    rows: Games
    summary: dict[str, Any]
    out_dir: Path | None
    played: int
    resumed: int
    replayed: int = 0

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


LOCK_NAME = "run.lock"
"""The lock file of an output directory (kept: it is only a lock while a run holds it)."""

_LOCK_OFFSET = 1 << 20  # Windows locks a byte far past the record, which stays readable
_MAX_RECORD = 4096


class OutDirInUseError(CruiseError):
    """Another run is using the output directory (it holds its lock): two runs writing one
    directory would mix their files. The message names the directory and the run holding it
    (its pid, host and start time)."""


def _lock(fd: int) -> bool:
    """Take the lock of the open lock file ``fd`` without waiting: False if another holds it.
    OSError where the file system has no locks."""
    if sys.platform == "win32":  # pragma: no cover - tested on POSIX
        import msvcrt

        os.lseek(fd, _LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:  # EACCES: another handle holds it
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _unlock(fd: int) -> None:
    if sys.platform == "win32":  # pragma: no cover - tested on POSIX
        import msvcrt

        os.lseek(fd, _LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_UN)


def _read_record(fd: int) -> dict[str, Any] | None:
    """The holder's record in the lock file (None if empty or unreadable: a record being
    written is waited for a moment)."""
    for _ in range(10):
        os.lseek(fd, 0, os.SEEK_SET)
        data = os.read(fd, _MAX_RECORD)
        if not data:
            return None
        try:
            record = json.loads(data)
        except ValueError:
            time.sleep(0.02)
            continue
        return record if isinstance(record, dict) else None
    return None


def _describe(record: dict[str, Any] | None) -> str:
    """The run a lock record names, as text: ``pid 123 on host h, started 2025-...``."""
    if record is None:
        return "a run whose record is unreadable"
    pid, host, started = (str(record.get(key, "?"))[:100] for key in ("pid", "host", "started"))
    return f"pid {pid} on host {host}, started {started}"


class _DirLock:
    """The lock of an output directory, held from :meth:`acquire` to :meth:`release`: an
    OS lock on ``run.lock`` (which dies with the process holding it), the file holding that
    run's pid, host and start time for the message of a run refused. A run that ends
    removes the file; one killed leaves it, and the next run takes it over."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.path = out_dir / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or raise :class:`OutDirInUseError` naming the run holding it."""
        for _ in range(10):
            fd = self._open()
            try:
                if self._take(fd):
                    self._fd = fd
                    return
            except BaseException:
                os.close(fd)
                raise
            os.close(fd)  # the file was removed (its run ended) while this one took it: again
        raise OutDirInUseError(f"{self.out_dir} is in use: its lock file changes hands again and again")

    def _open(self) -> int:
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        try:
            fd = os.open(self.path, flags | getattr(os, "O_NONBLOCK", 0), 0o644)
        except OSError as exc:
            raise InvalidOptionError(f"cannot open the lock file {self.path}: {exc.strerror}") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise InvalidOptionError(f"{self.path} is not a regular file: remove it")
        return fd

    def _take(self, fd: int) -> bool:
        """Lock the open lock file ``fd`` and write this run's record in it; False if the
        file is no longer ``run.lock`` once locked."""
        try:
            locked = _lock(fd)
        except OSError as exc:  # a file system without locks
            logger.warning(
                "%s: cannot lock it (%s): nothing stops a second run using this directory at once",
                self.path,
                exc.strerror,
            )
            locked = True
        if not locked:
            raise OutDirInUseError(
                f"{self.out_dir} is in use by another run ({_describe(_read_record(fd))}): "
                "wait for it to end, or give another directory"
            )
        try:
            now = os.stat(self.path, follow_symlinks=False)
        except FileNotFoundError:
            return False
        mine = os.fstat(fd)
        if (now.st_dev, now.st_ino) != (mine.st_dev, mine.st_ino):
            return False
        previous = _read_record(fd)
        host = socket.gethostname()
        if previous is not None and previous.get("host") != host:
            logger.warning(
                "%s: the last run in it (%s) did not release its lock; if it is still running, "
                "this file system does not share locks between hosts: stop one of the two runs",
                self.out_dir,
                _describe(previous),
            )
        elif previous is not None:
            logger.info(
                "%s: taking over the lock of %s, which ended without releasing it", self.path, _describe(previous)
            )
        record = {"pid": os.getpid(), "host": host, "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
        data = json.dumps(record).encode()
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, data)
        os.ftruncate(fd, len(data))
        return True

    def release(self) -> None:
        """Let the lock go and remove the lock file (a file still in it is an ended run's)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if sys.platform == "win32":  # pragma: no cover - tested on POSIX
            # An open file cannot be removed here: empty it, let it go, then remove it unless
            # another run has opened it meanwhile.
            try:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, 0)
                    _unlock(fd)
            finally:
                os.close(fd)
            with contextlib.suppress(OSError):
                self.path.unlink(missing_ok=True)
            return
        try:
            self.path.unlink(missing_ok=True)  # still locked: a run that opened it sees it gone
        except OSError:  # pragma: no cover - closing lets the lock go anyway
            pass
        finally:
            os.close(fd)


def _prepare(out_dir: Path, spec: Spec, resume: bool) -> None:
    """Make ``out_dir`` ready (its lock held): refuse a resume over another spec; start
    afresh without resume; remove the partial files a stopped run left."""
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
    for partial in [*out_dir.glob("*.partial"), *out_dir.glob("jobs/*.partial")]:
        partial.unlink(missing_ok=True)
    spec_file.write_bytes(text)
    (out_dir / "jobs").mkdir(exist_ok=True)


def _finished_jobs(jobs_dir: Path, jobs: list[Job], spec: str) -> tuple[dict[int, JobRows], list[Job], int]:
    """The rows of each job whose checkpoint is in ``jobs_dir`` and is that job's, the jobs
    left to play, and how many of those had a checkpoint refused (each said in a warning)."""
    parts: dict[int, JobRows] = {}
    pending: list[Job] = []
    refused = 0
    for job in jobs:
        found = _job_file(jobs_dir, job)
        if found is None:
            pending.append(job)
            continue
        try:
            parts[job.index] = read_job_rows(found, job, spec)
        except CheckpointError as exc:
            logger.warning("%s: playing job %s again", exc, job.id)
            pending.append(job)
            refused += 1
    return parts, pending, refused


def run(
    spec: Spec | Mapping[str, Any] | str | Path,
    out_dir: str | Path | None = None,
    backend: str | Backend = "local",
    workers: int | None = None,
    resume: bool = True,
    progress: bool = True,
    command: str | None = None,
) -> RunResult:
    """Play every game of ``spec`` and summarise them.

    ``spec``: a :class:`~cruiselib.arena.plan.Tournament` or :class:`~cruiselib.arena.plan.Study`,
    or what :func:`~cruiselib.arena.plan.load_spec` reads. ``backend``: ``"local"`` (processes),
    ``"serial"`` (this process), ``"ray"`` or a :class:`~cruiselib.arena.backends.Backend`.
    ``workers``: processes of the local backend (default: the CPU count). ``resume``: keep the
    finished jobs found in ``out_dir`` (False: start afresh). ``progress``: a rich progress bar.
    ``command``: the command line that asked for the run, named in the summary's headline.
    The rows and the summary are the same for every backend and worker count (but for the
    ``seconds`` column, wall time).
    """
    spec = load_spec(spec)
    jobs = expand(spec)
    lock: _DirLock | None = None
    chosen: Backend | None = None
    try:
        if out_dir is not None:
            out_dir = Path(out_dir)
            out_dir.mkdir(parents=True, exist_ok=True)
            lock = _DirLock(out_dir)
            lock.acquire()  # before anything in out_dir is touched (or a Ray started)
        chosen = make_backend(backend, workers)
        return _run(spec, jobs, chosen, out_dir, resume, progress, command)
    finally:
        close = getattr(chosen, "close", None)
        if isinstance(backend, str) and callable(close):  # a backend made here is ended here
            close()
        if lock is not None:
            lock.release()


def _run(
    spec: Spec,
    jobs: list[Job],
    backend: Backend,
    out_dir: Path | None,
    resume: bool,
    progress: bool,
    command: str | None = None,
) -> RunResult:
    """:func:`run` once the backend is made and ``out_dir`` locked."""
    parts: dict[int, JobRows] = {}
    jobs_dir: Path | None = None
    pending = jobs
    replayed = 0
    digest = spec_digest(dump_spec(spec))
    if out_dir is not None:
        _prepare(out_dir, spec, resume)
        jobs_dir = out_dir / "jobs"
        parts, pending, replayed = _finished_jobs(jobs_dir, jobs, digest)
    resumed = len(parts)
    rows_out = _Rows(jobs, None if out_dir is None else out_dir / "games", digest)
    try:
        rows_out.add(parts)
        with _Progress(progress, sum(job.games for job in jobs), sum(job.games for job in pending)) as bar:
            for job, job_rows in backend.run_jobs(pending):
                if jobs_dir is not None:
                    rows_out.checkpoint(job, job_rows, jobs_dir / job.id)
                rows_out.add({job.index: job_rows})
                bar.advance(job.games)
        rows = rows_out.finish()
        summary = summarize(spec, rows, command)  # while the last rows are written
        rows_out.close()
    except BaseException:
        rows_out.abort()
        raise
    if out_dir is not None:
        summary_file = out_dir / "summary.json"
        partial = partial_path(summary_file)
        partial.write_text(json.dumps(_finite(summary), indent=2, allow_nan=False) + "\n")
        os.replace(partial, summary_file)
    return RunResult(
        spec=spec,
        rows=rows,
        summary=summary,
        out_dir=out_dir,
        played=len(jobs) - resumed,
        resumed=resumed,
        replayed=replayed,
    )


def load_run(out_dir: str | os.PathLike[str]) -> RunResult:
    """A finished run read back from its output folder: its spec, rows and summary, as
    :func:`run` returned them (``played`` 0, every job ``resumed``). ``load_run(DIR).games()``
    gives the rows as :class:`~cruiselib.arena.results.GameRow` objects.

    The folder is read as untrusted: a folder with no finished run (no ``summary.json``, or
    no rows), files that do not parse, or a summary not of the published shape
    (:func:`cruiselib.arena.schema.read_summary`) raise :class:`cruiselib.InvalidStateError`
    naming the file. It reads what the run wrote; it does not check the rows against the
    spec. ``summary`` stays the dict; ``read_summary(run.summary)`` gives it typed."""
    folder = Path(out_dir)
    summary_file = folder / "summary.json"
    if not summary_file.is_file():
        raise InvalidStateError(
            f"{folder} holds no finished run (no summary.json): give the --out folder of a run that "
            "ended, or run its command again to finish it"
        )
    rows_file = next((folder / name for name in ("games.parquet", "games.csv") if (folder / name).is_file()), None)
    if rows_file is None:
        raise InvalidStateError(f"{folder} has a summary.json but no games.parquet or games.csv")
    try:
        spec = load_spec(folder / "spec.json")
    except (CruiseError, OSError) as exc:
        raise InvalidStateError(f"{folder / 'spec.json'} cannot be read as a spec: {exc}") from None
    try:
        summary = msgspec.json.decode(summary_file.read_bytes(), type=dict[str, Any])
    except (msgspec.DecodeError, OSError) as exc:
        raise InvalidStateError(f"{summary_file} is not a summary: {exc}") from None
    try:
        read_summary(summary)  # every field checked against the published shape
    except InvalidStateError as exc:
        raise InvalidStateError(f"{summary_file} is not a summary: {exc}") from None
    try:
        rows = read_games(rows_file)
    except Exception as exc:  # pyarrow's and csv's errors are many: say which file failed
        raise InvalidStateError(f"{rows_file} cannot be read as rows: {type(exc).__name__}: {exc}") from None
    jobs = len(expand(spec))
    return RunResult(spec=spec, rows=rows, summary=summary, out_dir=folder, played=0, resumed=jobs)


CHUNK_ROWS = 65_536
"""Rows at least in a chunk of the rows Table (a row group of games.parquet), but the last."""


class _Rows:
    """The rows of a run, made while its jobs play: the jobs' arrays are taken in job order
    (whatever order they finish in), and each chunk of at least :data:`CHUNK_ROWS` rows is
    turned into a Table and written to ``path`` as a row group on a thread of its own,
    overlapping the games still playing; each finished job's checkpoint is saved on another.
    :meth:`finish` gives every row at once (the last chunk made on the caller's thread) while
    the last row groups may still be written: the caller summarises meanwhile, then
    :meth:`close` makes the file whole. Without pyarrow the rows are made (and written as CSV)
    at the end."""

    def __init__(self, jobs: list[Job], path: Path | None, spec: str | None = None) -> None:
        self.jobs = jobs
        self.path = path
        self.spec = spec
        self._parts: dict[int, JobRows] = {}
        self._next = 0  # the first job not yet in a chunk
        self._batch: list[Job] = []
        self._batch_rows = 0
        self._writer = TableWriter(path) if results.HAVE_PYARROW else None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="arena-rows")
        self._tables: list[Future[Any]] = []  # each chunk's Table, in row order
        self._done: list[Future[None]] = []  # each chunk made and written
        self._checkpoints = ThreadPoolExecutor(max_workers=1, thread_name_prefix="arena-checkpoints")
        self._saved: list[Future[Path]] = []

    def checkpoint(self, job: Job, rows: JobRows, path: Path) -> None:
        """Save a finished job's arrays to ``path`` with the job's identity (on a thread: the
        games go on meanwhile; a run stopped before a save replays that job when resumed)."""
        self._saved.append(self._checkpoints.submit(write_job_rows, rows, path, job, self.spec))
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

    def _take_batch(self) -> tuple[list[Job], list[JobRows]]:
        jobs, self._batch, self._batch_rows = self._batch, [], 0
        return jobs, [self._parts.pop(job.index) for job in jobs]

    def _flush(self) -> None:
        if self._writer is None or not self._batch:
            return
        jobs, parts = self._take_batch()
        table: Future[Any] = Future()
        self._tables.append(table)
        self._done.append(self._thread.submit(self._chunk, jobs, parts, table))
        if self._done[0].done():  # a failed chunk stops the run now, not at the end
            self._done.pop(0).result()

    def _chunk(self, jobs: list[Job], parts: list[JobRows], table: Future[Any]) -> None:
        """On the rows thread: make a chunk's Table (given to ``table`` at once), then write it."""
        assert self._writer is not None
        try:
            made, written = self._writer.build(jobs, parts)
        except BaseException as exc:
            table.set_exception(exc)
            raise
        table.set_result(made)
        self._writer.write(written)

    def finish(self) -> Games:
        """Every row, in job order (every checkpoint written; the games file once
        :meth:`close` returns)."""
        self._checkpoints.shutdown(wait=True)
        for saved in self._saved:
            saved.result()
        if self._writer is None:
            rows = jobs_games(self.jobs, [self._parts[job.index] for job in self.jobs])
            if self.path is not None:
                write_rows(rows, self.path)
            return rows
        last: list[Any] = []
        if self._batch:  # made here, as the rows thread may still be writing; written there
            jobs, parts = self._take_batch()
            made, written = self._writer.build(jobs, parts)
            last.append(made)
            self._done.append(self._thread.submit(self._writer.write, written))
        return results.concat_tables([table.result() for table in self._tables] + last)

    def close(self) -> None:
        """Wait for the last chunks to be written and make the games file whole."""
        self._thread.shutdown(wait=True)
        for future in self._done:
            future.result()
        if self._writer is not None:
            self._writer.close()

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
