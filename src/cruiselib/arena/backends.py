"""Where jobs run: the :class:`Backend` protocol, :class:`SerialBackend` (this process) and
:class:`LocalBackend` (a pool of local processes).

A backend runs :func:`cruiselib.arena.play.play_job` on each job and yields ``(job, rows)``
pairs as jobs finish, in any order: the runner writes each job's rows at once and sorts
them at the end, so the results never depend on the backend or the number of workers.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import traceback
from collections import deque
from collections.abc import Generator, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, NoReturn, Protocol, runtime_checkable

import cruiselib
from cruiselib.errors import CruiseError, InvalidOptionError

from .plan import Job
from .play import JobRows, play_job

__all__ = ["Backend", "LocalBackend", "SerialBackend", "make_backend"]


@runtime_checkable
class Backend(Protocol):
    """Runs jobs. ``run_jobs`` yields each job with its rows as it finishes (any order);
    closing the iterator early (an interrupted run) stops what is still pending."""

    name: str

    def run_jobs(self, jobs: Sequence[Job]) -> Iterator[tuple[Job, JobRows]]: ...


class SerialBackend:
    """Every job in this process, one after another, in job order."""

    name = "serial"

    def run_jobs(self, jobs: Sequence[Job]) -> Iterator[tuple[Job, JobRows]]:
        for job in jobs:
            yield job, play_job(job)


class LocalBackend:
    """Jobs on ``workers`` local processes (default: the CPU count), started with ``spawn``
    so the pool behaves the same on every platform (each worker imports cruiselib itself)."""

    name = "local"

    def __init__(self, workers: int | None = None) -> None:
        if workers is None:
            workers = os.cpu_count() or 1
        if type(workers) is not int or workers < 1:
            raise InvalidOptionError(f"workers must be an int of at least 1, not {workers!r}")
        self.workers = workers

    def run_jobs(self, jobs: Sequence[Job]) -> Iterator[tuple[Job, JobRows]]:
        if not jobs:
            return
        context = multiprocessing.get_context("spawn")
        queue = iter(jobs)
        pending: dict[Future[JobRows], Job] = {}
        pool = ProcessPoolExecutor(max_workers=min(self.workers, len(jobs)), mp_context=context)
        finished = False
        try:
            while True:
                # Two jobs a worker in flight: workers never wait, and an interrupted run
                # loses little.
                while len(pending) < 2 * self.workers:
                    job = next(queue, None)
                    if job is None:
                        break
                    pending[pool.submit(play_job, job)] = job
                if not pending:
                    finished = True
                    return
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=lambda f: pending[f].index):
                    yield pending.pop(future), future.result()
        finally:
            # Interrupted (Ctrl-C, a failed job, the caller stopped): return at once, the
            # queued jobs cancelled and the running ones left to end on their own.
            pool.shutdown(wait=finished, cancel_futures=True)


def make_backend(backend: str | Backend, workers: int | None = None) -> Backend:
    """A backend by name (``"serial"``, ``"local"``, ``"ray"``) or the backend given."""
    if isinstance(backend, str):
        if backend == "serial":
            return SerialBackend()
        if backend == "local":
            return LocalBackend(workers)
        if backend == "ray":
            ray_backend = globals().get("RayBackend")
            if ray_backend is None:
                raise InvalidOptionError("the ray backend is not available in this version")
            # workers sizes a local Ray as it sizes the process pool.
            made: Backend = ray_backend(num_cpus=workers)
            return made
        raise InvalidOptionError(f"unknown backend {backend!r}; backends: serial, local, ray")
    if not isinstance(backend, Backend):
        raise InvalidOptionError(f"a backend has name and run_jobs(jobs), not {backend!r}")
    return backend


# --------------------------------------------------------------------------- Ray

__all__ += ["RayBackend"]

# Jobs per Ray task at most: batching amortises the per-task cost (about half a millisecond
# of scheduling and transfer), a small batch keeps the work lost to an interruption small.
MAX_RAY_BATCH = 16
TASKS_PER_CPU = 8  # the tasks the jobs are split into, a CPU


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
        if isinstance(self.error, CruiseError):
            raise type(self.error)(f"{where} failed: {self.error}") from self.error
        raise RuntimeError(
            f"{where} failed on a Ray worker: {type(self.error).__name__}: {self.error}\n{self.trace}"
        ) from self.error


def _play_batch(jobs: Sequence[Job], version: str) -> list[JobRows | _JobFailure]:
    """A Ray task: play ``jobs`` in order; stop at the first that raises (the run stops
    there). Refuses a worker whose cruiselib is not the driver's: its games could differ."""
    if cruiselib.__version__ != version:
        raise ImportError(
            f"this Ray worker imports cruiselib {cruiselib.__version__} from {cruiselib.__file__}, "
            f"the driver {version}: install the same version on every node"
        )
    results: list[JobRows | _JobFailure] = []
    for job in jobs:
        try:
            results.append(play_job(job))
        except Exception as error:
            results.append(_JobFailure(error, traceback.format_exc()))
            break
    return results


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ImportError("the ray backend needs Ray: pip install 'cruiselib[ray]'") from None
    return ray


class RayBackend:
    """Jobs as Ray tasks, on a local Ray or a cluster.

    ``address``: the cluster to join (``"auto"``, ``"ray://host:10001"``, ...). With ``None``
    Ray's own rules apply: the Ray this process already runs, else the ``RAY_ADDRESS``
    environment variable, else a cluster started on this machine with ``ray start``, else a new
    local Ray of ``num_cpus`` CPUs (default: all), which :meth:`close` shuts down.
    ``batch_size``: jobs per task (default: about eight tasks a CPU, at most
    :data:`MAX_RAY_BATCH` jobs each). ``runtime_env``: passed to ``ray.init``.

    Results come back in job order, whatever the order the tasks finish in, with at most two
    tasks a CPU in flight. A job that raises stops the run: its error is raised again here,
    naming the job (a cruiselib error keeps its type). The rows are those of every other
    backend: each job's games depend on the job alone.

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
    ) -> None:
        if address is not None and not isinstance(address, str):
            raise InvalidOptionError(f"address must be a string or None, not {address!r}")
        for option, value in (("num_cpus", num_cpus), ("batch_size", batch_size)):
            if value is not None and (type(value) is not int or value < 1):
                raise InvalidOptionError(f"{option} must be an int of at least 1 or None, not {value!r}")
        if address is not None and num_cpus is not None:
            raise InvalidOptionError("num_cpus sizes a local Ray: a cluster at an address has its own CPUs")
        self._ray = _import_ray()
        self.address = address
        self.num_cpus = num_cpus
        self.batch_size = batch_size
        self.runtime_env = dict(runtime_env or {})
        self._started = False

    def connect(self) -> Any:
        """Join or start Ray (once) and return the ``ray`` module."""
        ray = self._ray
        if not ray.is_initialized():
            options: dict[str, Any] = {
                "address": self.address,
                "runtime_env": self.runtime_env or None,
                "include_dashboard": False,
                "ignore_reinit_error": True,
                "logging_level": "warning",
            }
            if self.address is not None:
                ray.init(**options)
            else:
                # The processes of a local Ray inherit this environment: with the directory of
                # the cruiselib this process runs first on PYTHONPATH, the workers import the
                # same code. (A runtime_env's env_vars would do it too, at ~4 s more start-up.)
                package_root = str(Path(cruiselib.__file__).resolve().parent.parent)
                inherited = os.environ.get("PYTHONPATH")
                os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, inherited) if p)
                try:
                    ray.init(num_cpus=self.num_cpus, **options)
                finally:
                    if inherited is None:
                        del os.environ["PYTHONPATH"]
                    else:
                        os.environ["PYTHONPATH"] = inherited
            self._started = True
        return ray

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
        # No retries: a task that dies is reported, not replayed behind the caller's back.
        play = ray.remote(num_cpus=1, max_retries=0)(_play_batch)
        pending: deque[tuple[list[Job], Any]] = deque()
        try:
            while True:
                while len(pending) < 2 * cpus:
                    batch = next(batches, None)
                    if batch is None:
                        break
                    pending.append((batch, play.remote(batch, cruiselib.__version__)))
                if not pending:
                    return
                # The oldest task first: rows come back in job order.
                batch, ref = pending.popleft()
                try:
                    results = ray.get(ref)
                except ray.exceptions.RayError as error:
                    ids = ", ".join(job.id for job in batch)
                    raise RuntimeError(f"the Ray task of jobs {ids} failed: {error}") from error
                for job, result in zip(batch, results, strict=False):
                    if isinstance(result, _JobFailure):
                        result.reraise(job)
                    yield job, result
        finally:
            for _, ref in pending:
                ray.cancel(ref)
