"""Where jobs run: the :class:`Backend` protocol, :class:`SerialBackend` (this process),
:class:`LocalBackend` (a pool of local processes) and :class:`RayBackend` (a local Ray or a
cluster, joined within a time bound: :class:`RayConnectionError` says in one line why not).

A backend runs :func:`cruiselib.arena.play.play_job` on each job and yields ``(job, rows)``
pairs as jobs finish, in any order: the runner writes each job's rows at once and sorts
them at the end, so the results never depend on the backend or the number of workers.
"""

from __future__ import annotations

import ctypes
import functools
import itertools
import logging
import math
import multiprocessing
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import traceback
import uuid
from collections import Counter, deque
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, NoReturn, Protocol, runtime_checkable

import cruiselib
from cruiselib.errors import CruiseError, InvalidOptionError

from .plan import Job
from .play import BotError, JobRows, check_move_time_limit, play_job

__all__ = ["Backend", "LocalBackend", "SerialBackend", "WorkerLostError", "make_backend"]

_LOG = logging.getLogger("cruiselib.arena")


@runtime_checkable
class Backend(Protocol):
    """Runs jobs. ``run_jobs`` yields each job with its rows as it finishes (any order);
    closing the iterator early (an interrupted run) stops what is still pending."""

    name: str

    def run_jobs(self, jobs: Sequence[Job]) -> Iterator[tuple[Job, JobRows]]: ...


class SerialBackend:
    """Every job in this process, one after another, in job order.

    ``move_time_limit``: seconds a bot may take on one move (None: no limit). In this process
    a move over it is stopped only if the bot runs Python code (or returns): a bot blocked in
    C code runs on, as nothing can end it here (the local backend ends its worker)."""

    name = "serial"

    def __init__(self, move_time_limit: float | None = None) -> None:
        self.move_time_limit = check_move_time_limit(move_time_limit)

    def run_jobs(self, jobs: Sequence[Job]) -> Iterator[tuple[Job, JobRows]]:
        for job in jobs:
            yield job, play_job(job, self.move_time_limit)


class WorkerLostError(CruiseError):
    """A job could not be played because the worker processes playing it kept dying (a bot
    that crashes its process, a machine short of memory, workers killed from outside)."""


MAX_WORKER_DEATHS = 2
"""A job whose worker dies this many times stops the run (WorkerLostError); before that
its worker's unfinished jobs are played again on new workers."""
MAX_UNEXPLAINED_BREAKS = 3
"""Pools that break without a worker to blame (every worker ended by the pool itself) before
the run stops."""
EXIT_HARD_STOP = 75
"""The exit status of a worker that ends itself because a bot's move does not stop."""


class LocalBackend:
    """Jobs on ``workers`` local processes (default: the CPU count), started with ``spawn``
    so the pool behaves the same on every platform (each worker imports cruiselib itself).

    Workers end with the process that started them, however it ends (killed, out of
    memory): on Linux the kernel kills them (``PR_SET_PDEATHSIG``), and on every platform
    a thread of theirs waits on the pipe to it and ends them when it closes; multiprocessing's
    resource tracker then ends too. A worker that dies while playing (killed, out of memory,
    a bot crashing it) loses the jobs the pool held: they are played again on new workers,
    with a warning of the ``cruiselib.arena`` logger; a job whose worker dies
    :data:`MAX_WORKER_DEATHS` times stops the run with :class:`WorkerLostError`.
    ``move_time_limit``: seconds a bot may take on one move (None: no limit); a move over it
    stops the run with :class:`~cruiselib.arena.play.BotError`, and a bot that does not stop
    (blocked in C code, or swallowing the stop) has its worker ended.
    """

    name = "local"

    def __init__(self, workers: int | None = None, move_time_limit: float | None = None) -> None:
        if workers is None:
            workers = os.cpu_count() or 1
        if type(workers) is not int or workers < 1:
            raise InvalidOptionError(f"workers must be an int of at least 1, not {workers!r}")
        self.workers = workers
        self.move_time_limit = check_move_time_limit(move_time_limit)

    def run_jobs(self, jobs: Sequence[Job]) -> Iterator[tuple[Job, JobRows]]:
        if not jobs:
            return
        status = Path(tempfile.mkdtemp(prefix="cruiselib-arena-"))
        todo = deque(jobs)  # the jobs not sent yet, in job order (lost ones go first again)
        deaths: Counter[int] = Counter()
        unexplained = 0
        try:
            while todo:
                lost = yield from self._run_pool(todo, status)
                if lost is None:
                    return
                unexplained = self._after_loss(lost, deaths, unexplained)
                todo.extendleft(reversed(lost.jobs))
        finally:
            shutil.rmtree(status, ignore_errors=True)

    def _run_pool(self, todo: deque[Job], status: Path) -> Generator[tuple[Job, JobRows], None, _Lost | None]:
        """Play ``todo`` on a new pool; None when every job is played, else what a broken
        pool lost (its unfinished jobs, and how its workers ended)."""
        context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(
            max_workers=min(self.workers, len(todo)),
            mp_context=context,
            initializer=_worker_init,
            initargs=(os.getpid(),),
        )
        pending: dict[Future[JobRows], Job] = {}
        processes: dict[int, Any] = {}
        finished = False
        broken = False
        try:
            while True:
                # Two jobs a worker in flight: workers never wait, and an interrupted run
                # loses little.
                while len(pending) < 2 * self.workers and todo and not broken:
                    job = todo.popleft()
                    try:
                        pending[pool.submit(_play_local, job, self.move_time_limit, str(status))] = job
                    except BrokenProcessPool:
                        todo.appendleft(job)
                        broken = True
                processes.update(getattr(pool, "_processes", None) or {})
                if not pending and not broken:
                    finished = True
                    return None
                if not broken:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    broken = any(isinstance(f.exception(), BrokenProcessPool) for f in done)
                if broken:
                    ended = _end_broken_pool(pool, processes)
                # What finished before the pool broke is kept.
                for future in sorted(pending, key=lambda f: pending[f].index):
                    if future.done() and not future.cancelled() and future.exception() is None:
                        yield pending.pop(future), future.result()
                    elif future.done() and not broken:
                        future.result()  # a job that raised stops the run
                if broken:
                    lost_jobs = sorted(pending.values(), key=lambda job: job.index)
                    pending.clear()
                    finished = True
                    return _Lost(lost_jobs, ended, status)
        finally:
            # Interrupted (Ctrl-C, a failed job, the caller stopped): return at once, the
            # queued jobs cancelled and the running ones left to end on their own.
            pool.shutdown(wait=finished, cancel_futures=True)

    def _after_loss(self, lost: _Lost, deaths: Counter[int], unexplained: int) -> int:
        """Decide about a broken pool: raise (a bot that did not stop, a job whose workers
        keep dying) or say so and let its jobs be played again. Returns the count of breaks
        with nobody to blame."""
        culprits = lost.culprits()
        for _, _, stop in culprits:
            if stop is not None:
                raise BotError(f"{stop}: its worker process was ended")
        by_index = {job.index: job for job in lost.jobs}
        # A worker that died idle names the job it played last, finished: nobody to blame.
        blamed = [(index, how) for index, how, _ in culprits if index in by_index]
        for index, _ in blamed:
            deaths[index] += 1
        for index, how in blamed:
            if deaths[index] >= MAX_WORKER_DEATHS and index in by_index:
                raise WorkerLostError(
                    f"{_job_text(by_index[index])}: its worker process died {deaths[index]} times "
                    f"(the last {how}); a bot of it may crash its process, or the machine run short of memory"
                )
        if not blamed:
            unexplained += 1
            hows = ", ".join(how for _, how, _ in culprits) or "every one ended by the pool"
            if unexplained >= MAX_UNEXPLAINED_BREAKS:
                raise WorkerLostError(
                    f"the worker processes broke {unexplained} times ({hows}) with jobs {_ids(lost.jobs)} unfinished"
                )
            what = f"a worker process ended ({hows})"
        else:
            what = "; ".join(f"a worker process died ({how}) playing job {index:06d}" for index, how in blamed)
        _LOG.warning("%s: the unfinished jobs are played again on new workers (%s)", what, _ids(lost.jobs))
        return unexplained


class _Lost:
    """What a broken pool lost: its unfinished ``jobs``, how each worker ended (pid ->
    exit code, None still running), and the workers' status files."""

    def __init__(self, jobs: list[Job], ended: dict[int, int | None], status: Path) -> None:
        self.jobs = jobs
        self.ended = ended
        self.status = status

    def culprits(self) -> list[tuple[int | None, str, str | None]]:
        """The workers that died on their own (not ended by the pool with SIGTERM): the job
        each was playing (None unknown), how it ended, and why it ended itself (None: it did not)."""
        found: list[tuple[int | None, str, str | None]] = []
        for pid, code in sorted(self.ended.items()):
            if code is None or code == -signal.SIGTERM:
                continue
            try:
                stop = (self.status / f"{pid}.stop").read_text()
            except OSError:
                stop = None
            try:
                index: int | None = int((self.status / str(pid)).read_text())
            except (OSError, ValueError):  # the worker died before its first job
                index = None
            found.append((index, _exit_text(code), stop))
        return found


def _end_broken_pool(pool: ProcessPoolExecutor, processes: Mapping[int, Any]) -> dict[int, int | None]:
    """End a broken pool and say how each of its workers ended (pid -> exit code): read at
    once, before the SIGTERM the pool sends its other workers lands (mostly), and again once
    they are gone. A worker that ignores SIGTERM (a bot blocked in C code, or one that set
    the signal aside) is killed after two seconds, so the pool's shutdown never waits for it."""
    ended = _how_workers_ended(processes)
    deadline = time.monotonic() + 2.0
    for process in processes.values():
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes.values():
        if process.exitcode is None:
            process.kill()
    pool.shutdown(wait=True, cancel_futures=True)
    for pid, code in _how_workers_ended(processes).items():
        if ended.get(pid) is None:
            ended[pid] = code
    return ended


def _how_workers_ended(processes: Mapping[int, Any]) -> dict[int, int | None]:
    """pid -> exit code of each process (None: still running)."""
    ended: dict[int, int | None] = {}
    for pid, process in processes.items():
        try:
            code = process.exitcode
        except (ValueError, AssertionError):  # a closed Process
            code = None
        ended[pid] = code
    return ended


def _exit_text(code: int) -> str:
    if code == EXIT_HARD_STOP:
        return "ended because a bot's move did not stop"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


def _ids(jobs: Sequence[Job]) -> str:
    ids = [job.id for job in jobs]
    return ", ".join(ids) if len(ids) <= 8 else f"{', '.join(ids[:8])} and {len(ids) - 8} more"


def _job_text(job: Job) -> str:
    return f"job {job.id} ({job.game}, cell {job.cell}, deals {job.first} to {job.first + job.deals - 1})"


# --------------------------------------------------------------------------- in the workers

PR_SET_PDEATHSIG = 1
EXIT_ORPHANED = 70
"""The exit status of a worker that ends because the process that started it is gone."""


def _worker_init(runner_pid: int) -> None:
    """Run in each local worker as it starts: tie its life to the runner's.

    On Linux the kernel sends SIGKILL when the runner dies (``prctl(PR_SET_PDEATHSIG)``, which
    acts even on a worker stuck in C code); as the runner may have died before that call, the
    worker ends at once if its parent is no longer the runner. On every platform a thread
    waits on the pipe from the runner that multiprocessing keeps open (its *sentinel*), which
    the system closes when the runner ends however it ends, and ends the worker then.
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the thread below still ends the worker
            pass
    if os.getppid() != runner_pid:  # the runner died before prctl: nobody waits for this worker
        os._exit(EXIT_ORPHANED)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), name="cruiselib-runner-watch", daemon=True).start()


def _end_with(parent: Any) -> None:
    parent.join()  # returns when the pipe from the runner closes: the runner is gone
    os._exit(EXIT_ORPHANED)


def _play_local(job: Job, move_time_limit: float | None, status: str) -> JobRows:
    """A local worker's task: note the job (read if this worker dies), then play it."""
    os.pwrite(_status_file(status), f"{job.index:>20}\n".encode(), 0)  # one system call, a fixed size
    return play_job(job, move_time_limit, functools.partial(_stop_worker, status))


_STATUS_FILES: dict[str, int] = {}


def _status_file(status: str) -> int:
    """This worker's status file in the directory ``status`` (``<pid>``: the job it plays),
    opened once."""
    fd = _STATUS_FILES.get(status)
    if fd is None:
        fd = _STATUS_FILES[status] = os.open(os.path.join(status, str(os.getpid())), os.O_WRONLY | os.O_CREAT, 0o600)
    return fd


def _stop_worker(status: str, message: str) -> None:
    """A bot's move does not stop: say so in ``<pid>.stop``, and end this worker."""
    try:
        path = os.path.join(status, f"{os.getpid()}.stop")
        with open(path + ".new", "w", encoding="utf-8") as file:
            file.write(message)
        os.replace(path + ".new", path)
    finally:
        os._exit(EXIT_HARD_STOP)


def make_backend(
    backend: str | Backend,
    workers: int | None = None,
    move_time_limit: float | None = None,
    *,
    ray_address: str | None = None,
    ray_timeout: float | None = None,
    notify: Callable[[str], None] | None = None,
) -> Backend:
    """A backend by name (``"serial"``, ``"local"``, ``"ray"``) or the backend given.
    ``move_time_limit``: seconds a bot may take on one move, for a backend made here (a
    backend given has its own). For ``"ray"``: ``ray_address`` (the cluster to join, see
    :class:`RayBackend`), ``ray_timeout`` (seconds to join it or start a local Ray, default
    :data:`RAY_JOIN_TIMEOUT`) and ``notify`` (where its lines go)."""
    if isinstance(backend, str) and backend == "ray":
        # workers sizes a local Ray as it sizes the process pool.
        return RayBackend(
            address=ray_address,
            num_cpus=workers,
            move_time_limit=move_time_limit,
            join_timeout=RAY_JOIN_TIMEOUT if ray_timeout is None else ray_timeout,
            notify=notify,
        )
    if ray_address is not None or ray_timeout is not None:
        raise InvalidOptionError("a Ray address and timeout are for the ray backend (--backend ray)")
    if isinstance(backend, str):
        if backend == "serial":
            return SerialBackend(move_time_limit)
        if backend == "local":
            return LocalBackend(workers, move_time_limit)
        raise InvalidOptionError(f"unknown backend {backend!r}; backends: serial, local, ray")
    if not isinstance(backend, Backend):
        raise InvalidOptionError(f"a backend has name and run_jobs(jobs), not {backend!r}")
    if move_time_limit is not None:
        raise InvalidOptionError("give the move time limit to the backend made, not with it")
    return backend


# --------------------------------------------------------------------------- Ray

__all__ += [
    "MAX_RAY_ATTEMPTS",
    "RAY_JOIN_TIMEOUT",
    "RayBackend",
    "RayConnectionError",
    "ray_address_record",
    "recorded_ray_address",
]

# Jobs per Ray task at most: batching amortises the per-task cost (about half a millisecond
# of scheduling and transfer), a small batch keeps the work lost to an interruption small.
MAX_RAY_BATCH = 16
TASKS_PER_CPU = 8  # the tasks the jobs are split into, a CPU
MAX_RAY_ATTEMPTS = 3
"""Times a Ray task lost to a system failure (its worker or node died, its result was lost)
is sent before the run stops with :class:`WorkerLostError`."""


class _JobFailure:
    """What a Ray task returns for a job that raised: the error and its traceback as text
    (a pickled exception loses its traceback)."""

    def __init__(self, error: BaseException, trace: str) -> None:
        self.error = error
        self.trace = trace

    def reraise(self, job: Job) -> NoReturn:
        """Raise the job's error again in the driver, naming the job; a cruiselib error keeps
        its type (a bad option stays an :class:`InvalidOptionError`)."""
        where = f"job {job.id} (cell {job.cell}, deals {job.first} to {job.first + job.deals - 1})"
        if isinstance(self.error, BotError):  # it names the job itself
            raise BotError(str(self.error)) from self.error
        if isinstance(self.error, CruiseError):
            raise type(self.error)(f"{where} failed: {self.error}") from self.error
        raise RuntimeError(
            f"{where} failed on a Ray worker: {type(self.error).__name__}: {self.error}\n{self.trace}"
        ) from self.error


def _play_batch(
    jobs: Sequence[Job], version: str, move_time_limit: float | None = None, reports: str | None = None
) -> list[JobRows | _JobFailure]:
    """A Ray task: play ``jobs`` in order; stop at the first that raises (the run stops
    there). Refuses a worker whose cruiselib is not the driver's: its games could differ.
    ``reports``: the key prefix under which a bot's move that does not stop is reported (in
    Ray's key-value store, read by the driver) before this worker ends itself."""
    if cruiselib.__version__ != version:
        raise ImportError(
            f"this Ray worker imports cruiselib {cruiselib.__version__} from {cruiselib.__file__}, "
            f"the driver {version}: install the same version on every node"
        )
    results: list[JobRows | _JobFailure] = []
    for job in jobs:
        hard_stop = None if reports is None else functools.partial(_stop_ray_worker, f"{reports}{job.index}")
        try:
            results.append(play_job(job, move_time_limit, hard_stop))
        except Exception as error:
            results.append(_JobFailure(error, traceback.format_exc()))
            break
    return results


REPORTS_NAMESPACE = "cruiselib-arena"
"""The namespace of Ray's key-value store where workers report moves that did not stop."""


def _stop_ray_worker(key: str, message: str) -> None:
    """A bot's move does not stop: report it under ``key`` and end this Ray worker."""
    try:
        from ray.experimental import internal_kv

        internal_kv._internal_kv_put(key, message, namespace=REPORTS_NAMESPACE)
    finally:
        os._exit(EXIT_HARD_STOP)


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ImportError("the ray backend needs Ray: pip install 'cruiselib[ray]'") from None
    return ray


RAY_JOIN_TIMEOUT = 60.0
"""Seconds the Ray backend allows for joining a cluster or starting a local Ray before it
stops with :class:`RayConnectionError` (``--ray-timeout``)."""

RECORD_PROBE_SECONDS = 3.0
"""Seconds to wait for the cluster ``ray start`` recorded on this machine to accept a
connection before it counts as gone."""


class RayConnectionError(CruiseError):
    """Ray could not be joined or started: nothing answers at the cluster's address, the
    cluster refuses this machine's authentication token, or it did not answer within the time
    allowed (:data:`RAY_JOIN_TIMEOUT`). The message is one line saying what to do."""


def ray_address_record() -> Path:
    """The file where ``ray start`` records the address of the cluster it started on this
    machine (``ray stop`` removes it): Ray's ``ray_current_cluster`` in its temporary folder."""
    try:
        from ray._common.utils import get_ray_address_file

        return Path(get_ray_address_file(None))
    except (ImportError, AttributeError, TypeError):  # another Ray: its usual place
        base = os.environ.get("RAY_TMPDIR") or os.environ.get("TMPDIR") or "/tmp"
        return Path(base) / "ray" / "ray_current_cluster"


def recorded_ray_address() -> str | None:
    """The address of the cluster ``ray start`` started on this machine, if one is recorded
    (it may have died since without ``ray stop``)."""
    try:
        text = ray_address_record().read_text().strip()
    except OSError:
        return None
    return text or None


def _host_port(address: str) -> tuple[str, int] | None:
    """``host:port`` (``[v6]:port``) split, None if ``address`` is not of that form."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit():
        return None
    return host.strip("[]"), int(port)


def _refusal(address: str, timeout: float) -> str | None:
    """Why nothing answers at the GCS address ``address`` (a TCP connection is tried), or
    None if something accepts connections there."""
    parsed = _host_port(address)
    if parsed is None:
        return None
    try:
        socket.create_connection(parsed, timeout=max(timeout, 0.01)).close()
    except ConnectionRefusedError:
        return "nothing listens there (connection refused)"
    except TimeoutError:
        return f"no answer within {timeout:g} s"
    except OSError as error:
        return f"it cannot be reached ({error.strerror or error})"
    return None


def _auth_error_in(error: BaseException) -> bool:
    """Whether ``error`` or what caused it is Ray refusing this machine's authentication."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if type(current).__name__ == "AuthenticationError" or "InvalidAuthToken" in str(current):
            return True
        current = current.__cause__ or current.__context__
    return False


def _auth_message(address: str) -> str:
    """What to do when the cluster at ``address`` refuses this machine's authentication."""
    if os.environ.get("RAY_AUTH_MODE", "").lower() != "token":
        return (
            f"the Ray cluster at {address} wants an authentication token (Ray 2.60 turns token authentication on "
            "by default): set RAY_AUTH_MODE=token and give the cluster's token in ~/.ray/auth_token, RAY_AUTH_TOKEN "
            "or RAY_AUTH_TOKEN_PATH (`ray get-auth-token` on its head node prints it)"
        )
    return (
        f"the Ray cluster at {address} refused this machine's authentication token: give the cluster's token "
        "(`ray get-auth-token` on its head node prints it) in RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token"
    )


def _enable_token_auth_as_ray_does() -> None:
    """What ``ray.init`` does before it joins the cluster recorded on this machine: token
    authentication on if ``RAY_AUTH_MODE`` is unset and this machine has a token. Done before
    the checks that come ahead of ``ray.init``, so they connect as it will."""
    if os.environ.get("RAY_AUTH_MODE") is not None:
        return
    try:
        from ray._private.authentication.authentication_token_setup import (
            maybe_enable_token_auth_if_token_available,
        )
    except ImportError:  # a Ray without token authentication
        return
    maybe_enable_token_auth_if_token_available(warn_if_disabled=False)


class RayBackend:
    """Jobs as Ray tasks, on a local Ray or a cluster.

    ``address``: the cluster to join: ``"host:port"`` of its head, ``"auto"`` (the cluster
    ``ray start`` started on this machine), ``"ray://host:10001"`` (Ray Client), or
    ``"local"`` (a new local Ray). With ``None`` the ``RAY_ADDRESS`` environment variable
    names it, as for Ray itself; without that, the cluster ``ray start`` recorded on this
    machine (if it still answers: a recorded cluster that died without ``ray stop`` is said in
    a line and a local Ray started instead), else a new local Ray of ``num_cpus`` CPUs
    (default: all), which :meth:`close` shuts down. A cluster is checked before ``ray.init``
    joins it, within ``join_timeout`` seconds (:data:`RAY_JOIN_TIMEOUT`): if nothing listens
    at its address, if it does not answer in time, or if it refuses this machine's
    authentication token (Ray 2.60 turns token authentication on by default:
    ``RAY_AUTH_MODE=token`` and the cluster's token are needed to join it by address),
    :class:`RayConnectionError` says so in one line. (A local Ray's start is bounded by Ray.)
    Once joined, one line names the cluster, its nodes and CPUs; the lines go to ``notify``
    (None: the ``cruiselib.arena`` logger, the fallback as a warning). ``batch_size``: jobs
    per task (default: about eight tasks a CPU, at most :data:`MAX_RAY_BATCH` jobs each).
    ``runtime_env``: passed to ``ray.init``.

    Results come back in job order, whatever the order the tasks finish in, with at most two
    tasks a CPU in flight. A job that raises stops the run: its error is raised again here,
    naming the job (a cruiselib error keeps its type). The rows are those of every other
    backend: each job's games depend on the job alone. So a task lost to a system failure (its
    worker process or its node died, or its result was lost with a node) is sent again, with a
    warning of the ``cruiselib.arena`` logger, up to :data:`MAX_RAY_ATTEMPTS` times in all
    before :class:`WorkerLostError` stops the run. ``move_time_limit``: seconds a bot may take
    on one move (None: no limit), as for :class:`LocalBackend`; a worker that ends itself
    because a bot's move does not stop reports it (in Ray's key-value store), and the run stops
    with that :class:`~cruiselib.arena.play.BotError` instead of sending the task again.

    Costs measured on two shared CPUs (Ray 2.60): a local Ray starts in 2.5-4 s, its first
    task in about 0.3 s more (a worker process starts) and shuts down in about 1.3 s; a task
    costs 0.7-1 ms when many are in flight, 2-2.4 ms round trip alone. Jobs of about 1 ms
    (two in-core games) take 1.9-2.4 ms each one a task, 0.6-0.9 ms sixteen a task, against
    0.95 ms in this process: batching is what makes small jobs worth sending.

    Workers import cruiselib themselves. The processes of a local Ray this backend starts
    inherit this environment, with the directory of the cruiselib this process imported put
    first on ``PYTHONPATH``, so they run the same code. On a cluster every node needs the same cruiselib version
    (``pip install 'cruiselib[ray]'`` on every node, or a ``runtime_env`` that installs it):
    a worker with another version refuses to play.
    """

    name = "ray"

    def __init__(
        self,
        address: str | None = None,
        num_cpus: int | None = None,
        batch_size: int | None = None,
        runtime_env: Mapping[str, Any] | None = None,
        move_time_limit: float | None = None,
        join_timeout: float = RAY_JOIN_TIMEOUT,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        if address is not None and (not isinstance(address, str) or not address.strip()):
            raise InvalidOptionError(f"address must be a non-empty string or None, not {address!r}")
        for option, value in (("num_cpus", num_cpus), ("batch_size", batch_size)):
            if value is not None and (type(value) is not int or value < 1):
                raise InvalidOptionError(f"{option} must be an int of at least 1 or None, not {value!r}")
        if address is not None and address.strip() != "local" and num_cpus is not None:
            raise InvalidOptionError("num_cpus (--workers) sizes a local Ray: a cluster at an address has its own CPUs")
        if (
            isinstance(join_timeout, bool)
            or not isinstance(join_timeout, (int, float))
            or not math.isfinite(join_timeout)
            or join_timeout <= 0
        ):
            raise InvalidOptionError(f"join_timeout must be a positive number of seconds, not {join_timeout!r}")
        self._ray = _import_ray()
        self.address = None if address is None else address.strip()
        self.num_cpus = num_cpus
        self.batch_size = batch_size
        self.runtime_env = dict(runtime_env or {})
        self.move_time_limit = check_move_time_limit(move_time_limit)
        self.join_timeout = float(join_timeout)
        self.notify = notify
        self._started = False

    def _say(self, line: str, warning: bool = False) -> None:
        if self.notify is not None:
            self.notify(line)
        else:
            _LOG.log(logging.WARNING if warning else logging.INFO, line)

    def _target(self) -> tuple[str | None, str]:
        """The cluster to join (None: start a local Ray) and where its address came from."""
        address, source = self.address, ""
        if address is None:
            address = os.environ.get("RAY_ADDRESS", "").strip() or None
            source = " (from RAY_ADDRESS)"
        if address == "local":
            return None, ""
        if address not in (None, "auto"):
            return address, source
        recorded = recorded_ray_address()
        if recorded is None:
            if address == "auto":
                raise RayConnectionError(
                    f"no Ray cluster to join: 'auto' is the cluster `ray start` started on this machine, and none is "
                    f"recorded ({ray_address_record()}): start one (ray start --head) or give its address"
                )
            return None, ""
        _enable_token_auth_as_ray_does()  # ray.init would, joining the recorded cluster
        why = _refusal(recorded, min(RECORD_PROBE_SECONDS, self.join_timeout))
        if why is None:
            return recorded, " (recorded by `ray start` on this machine)"
        if address == "auto":
            raise RayConnectionError(
                f"could not join the Ray cluster at {recorded} (recorded by `ray start` on this machine): {why}: "
                "is it running? (ray status)"
            )
        self._say(
            f"the Ray cluster recorded at {recorded} by `ray start` ({ray_address_record()}) does not answer ({why}): "
            "starting a local Ray instead (`ray stop --force` forgets the record)",
            warning=True,
        )
        return None, ""

    def connect(self) -> Any:
        """Join or start Ray (once), say which in a line, and return the ``ray`` module.

        :class:`RayConnectionError` if nothing answers at the cluster's address, if it refuses
        this machine's authentication, or if joining or starting takes over ``join_timeout``
        seconds."""
        ray = self._ray
        if ray.is_initialized():
            return ray
        address, source = self._target()
        if address is not None and self.num_cpus is not None:
            raise InvalidOptionError(
                f"num_cpus (--workers) sizes a local Ray: the Ray cluster at {address}{source} has its own CPUs"
            )
        self._join(address)
        self._started = True
        self._say(self._joined(address, source))
        return ray

    def _join(self, address: str | None) -> None:
        """``ray.init`` of ``address`` (None: a new local Ray), its failures as
        :class:`RayConnectionError`. A cluster is checked first on a thread given
        ``join_timeout`` seconds (where ray.init would wait for minutes on a cluster that does
        not answer); ray.init itself runs here, as Ray wants it on the thread that uses it."""
        if address is not None:
            checked: Future[None] = Future()

            def check() -> None:
                try:
                    self._check_cluster(address)
                except BaseException as error:
                    checked.set_exception(error)
                else:
                    checked.set_result(None)

            threading.Thread(target=check, name="cruiselib-ray-check", daemon=True).start()
            try:
                checked.result(timeout=self.join_timeout)
            except FutureTimeout:  # the check's thread is left to its wait: nothing can end it
                raise RayConnectionError(
                    f"could not join the Ray cluster at {address} within {self.join_timeout:g} s: "
                    "is it running? (ray status)"
                ) from None
        try:
            self._init(address)
        except Exception as error:
            if isinstance(error, CruiseError):
                raise
            if address is not None and _auth_error_in(error):
                raise RayConnectionError(_auth_message(address)) from None
            doing = "start a local Ray" if address is None else f"join the Ray cluster at {address}"
            raise RayConnectionError(f"could not {doing}: {type(error).__name__}: {_first_line(error)}") from error

    def _check_cluster(self, address: str) -> None:
        """Before ``ray.init`` joins ``address``: that something listens there (else at once
        a RayConnectionError, where ray.init would wait for minutes), and that it takes this
        machine's authentication (else the error saying what to set, where ray.init would
        retry for 20 s) and answers its GCS's first call."""
        why = _refusal(address.removeprefix("ray://"), self.join_timeout)
        if why is not None:
            raise RayConnectionError(f"could not join the Ray cluster at {address}: {why}: is it running? (ray status)")
        if address.startswith("ray://"):  # Ray Client: its server, not the cluster's GCS
            return
        try:
            from ray._raylet import GcsClient  # type: ignore[attr-defined]  # not in Ray's stubs
        except ImportError:  # another Ray: ray.init says it
            return
        try:
            GcsClient(address=address)
        except Exception as error:
            if _auth_error_in(error):
                raise RayConnectionError(_auth_message(address)) from None
            # ray.init would try again and again for minutes, and fail the same way.
            raise RayConnectionError(
                f"could not join the Ray cluster at {address}: {type(error).__name__}: {_first_line(error)}: "
                "is it running? (ray status)"
            ) from None

    def _init(self, address: str | None) -> None:
        ray = self._ray
        options: dict[str, Any] = {
            "runtime_env": self.runtime_env or None,
            "include_dashboard": False,
            "ignore_reinit_error": True,
            "logging_level": "warning",
        }
        if address is not None:
            ray.init(address=address, **options)
            return
        # The processes of a local Ray inherit this environment: with the directory of the
        # cruiselib this process runs first on PYTHONPATH, the workers import the same code.
        # (A runtime_env's env_vars would do it too, at ~4 s more start-up.)
        package_root = str(Path(cruiselib.__file__).resolve().parent.parent)
        inherited = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, inherited) if p)
        try:
            ray.init(address="local", num_cpus=self.num_cpus, **options)
        finally:
            if inherited is None:
                del os.environ["PYTHONPATH"]
            else:
                os.environ["PYTHONPATH"] = inherited

    def _joined(self, address: str | None, source: str) -> str:
        """The line naming the Ray joined: its address, nodes and CPUs."""
        ray = self._ray
        try:
            nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
            cpus = int(ray.cluster_resources().get("CPU", 0))
        except Exception:  # Ray Client and older Rays may say less
            nodes, cpus = 0, 0
        try:
            at = address if address is not None else str(ray.get_runtime_context().gcs_address)
        except Exception:
            at = address or "this machine"
        size = f"{nodes} node{'s' if nodes != 1 else ''}, {cpus} CPU{'s' if cpus != 1 else ''}"
        if address is None:
            return f"started a local Ray at {at}: {size} (it ends with this run)"
        idle = "; no CPU yet: its tasks wait for one (ray status)" if cpus == 0 else ""
        return f"joined the Ray cluster at {at}{source}: {size}{idle}"

    def close(self) -> None:
        """Shut down the Ray this backend started (a Ray started elsewhere keeps running)."""
        if self._started:
            self._ray.shutdown()
            self._started = False

    def __enter__(self) -> RayBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def tasks_for(self, jobs: int, cpus: int) -> int:
        """Jobs per task for ``jobs`` jobs on ``cpus`` CPUs."""
        if self.batch_size is not None:
            return self.batch_size
        # About eight tasks a CPU: the last round then leaves a CPU idle for a small share of
        # the run (four a CPU measured 1.72x on two CPUs against 1.94x for local processes).
        return max(1, min(MAX_RAY_BATCH, -(-jobs // (TASKS_PER_CPU * cpus))))

    def run_jobs(self, jobs: Sequence[Job]) -> Generator[tuple[Job, JobRows], None, None]:
        """Yield each job with its rows, in job order; closing the generator cancels the
        tasks still in flight."""
        if not jobs:
            return
        ray = self.connect()
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = self.tasks_for(len(jobs), cpus)
        # As many tasks as batches of that size need, their sizes differing by one at most.
        count = -(-len(jobs) // size)
        cuts = [len(jobs) * k // count for k in range(count + 1)]
        batches = iter([list(jobs[lo:hi]) for lo, hi in itertools.pairwise(cuts)])
        # Ray retries nothing itself: a lost task is sent again here, which says so, and first
        # checks whether its worker ended itself because a bot's move did not stop.
        play = ray.remote(num_cpus=1, max_retries=0)(_play_batch)
        reports = f"{uuid.uuid4().hex}:" if self.move_time_limit is not None else None
        lost_errors = _lost_task_errors(ray)

        def send(batch: list[Job]) -> Any:
            return play.remote(batch, cruiselib.__version__, self.move_time_limit, reports)

        pending: deque[tuple[list[Job], Any, int]] = deque()
        try:
            while True:
                while len(pending) < 2 * cpus:
                    batch = next(batches, None)
                    if batch is None:
                        break
                    pending.append((batch, send(batch), 1))
                if not pending:
                    return
                # The oldest task first: rows come back in job order.
                batch, ref, attempt = pending.popleft()
                try:
                    results = ray.get(ref)
                except lost_errors as error:
                    self._check_reports(batch, reports)
                    ids = _ids(batch)
                    cause = f"{type(error).__name__}: {_first_line(error)}"
                    if attempt >= MAX_RAY_ATTEMPTS:
                        raise WorkerLostError(
                            f"the Ray task of jobs {ids} was lost {attempt} times (the last: {cause})"
                        ) from error
                    _LOG.warning(
                        "the Ray task of jobs %s was lost (%s): sending it again (attempt %d of %d)",
                        ids,
                        cause,
                        attempt + 1,
                        MAX_RAY_ATTEMPTS,
                    )
                    pending.appendleft((batch, send(batch), attempt + 1))
                    continue
                except ray.exceptions.RayError as error:
                    ids = ", ".join(job.id for job in batch)
                    raise RuntimeError(f"the Ray task of jobs {ids} failed: {error}") from error
                for job, result in zip(batch, results, strict=False):
                    if isinstance(result, _JobFailure):
                        result.reraise(job)
                    yield job, result
        finally:
            for _, ref, _ in pending:
                ray.cancel(ref)
            if reports is not None:
                self._forget_reports(reports)

    def _check_reports(self, batch: Sequence[Job], reports: str | None) -> None:
        """Raise the BotError a worker reported before ending itself, for a job of ``batch``."""
        if reports is None:
            return
        from ray.experimental import internal_kv

        for job in batch:
            message = internal_kv._internal_kv_get(f"{reports}{job.index}", namespace=REPORTS_NAMESPACE)
            if message:
                raise BotError(f"{message.decode()}: its Ray worker process was ended")

    def _forget_reports(self, reports: str) -> None:
        try:
            from ray.experimental import internal_kv

            internal_kv._internal_kv_del(reports, del_by_prefix=True, namespace=REPORTS_NAMESPACE)
        except Exception:  # Ray already shut down: its store went with it
            pass


def _lost_task_errors(ray: Any) -> tuple[type[BaseException], ...]:
    """The errors of ``ray.get`` for a task lost to a system failure, not to its own code:
    its worker died (killed, out of memory), its node died, or its result was lost with a node."""
    names = ("WorkerCrashedError", "NodeDiedError", "ObjectLostError", "OutOfMemoryError")
    return tuple(error for name in names if isinstance(error := getattr(ray.exceptions, name, None), type))


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else ""
