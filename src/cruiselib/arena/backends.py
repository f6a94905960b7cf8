"""Where jobs run: the :class:`Backend` protocol, :class:`SerialBackend` (this process) and
:class:`LocalBackend` (a pool of local processes).

A backend runs :func:`cruiselib.arena.play.play_job` on each job and yields ``(job, rows)``
pairs as jobs finish, in any order: the runner writes each job's rows at once and sorts
them at the end, so the results never depend on the backend or the number of workers.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Protocol, runtime_checkable

from cruiselib.errors import InvalidOptionError

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
        with ProcessPoolExecutor(max_workers=min(self.workers, len(jobs)), mp_context=context) as pool:
            try:
                while True:
                    # Two jobs a worker in flight: workers never wait, and an interrupted
                    # run loses little.
                    while len(pending) < 2 * self.workers:
                        job = next(queue, None)
                        if job is None:
                            break
                        pending[pool.submit(play_job, job)] = job
                    if not pending:
                        return
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in sorted(done, key=lambda f: pending[f].index):
                        yield pending.pop(future), future.result()
            finally:
                for future in pending:
                    future.cancel()


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
            made: Backend = ray_backend()
            return made
        raise InvalidOptionError(f"unknown backend {backend!r}; backends: serial, local, ray")
    if not isinstance(backend, Backend):
        raise InvalidOptionError(f"a backend has name and run_jobs(jobs), not {backend!r}")
    return backend
