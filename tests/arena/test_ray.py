"""The Ray backend: the same rows as the serial backend, in job order, errors naming the job."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.arena.backends import (
    MAX_RAY_ATTEMPTS,
    RayBackend,
    SerialBackend,
    WorkerLostError,
    _JobFailure,
    _play_batch,
    make_backend,
)
from cruiselib.arena.plan import BotSpec, Study, Tournament, expand
from cruiselib.arena.play import BotError
from cruiselib.arena.results import GameRow
from cruiselib.arena.runner import RunResult, run
from cruiselib.errors import InvalidOptionError
from tests.support import ANY_GAME

TOURNAMENT = Tournament(
    game=ANY_GAME, participants=(BotSpec("random"), BotSpec("greedy"), BotSpec("rules")), games=4, seed=3, shard=2
)


def test_without_ray_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(ImportError, match=r"pip install 'cruiselib\[ray\]'"):
        RayBackend()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_cpus": 0}, "num_cpus must be an int"),
        ({"batch_size": "4"}, "batch_size must be an int"),
        ({"address": 6379}, "address must be a non-empty string"),
        ({"address": "auto", "num_cpus": 2}, r"num_cpus \(--workers\) sizes a local Ray"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    pytest.importorskip("ray")
    with pytest.raises(InvalidOptionError, match=message):
        RayBackend(**options)


def test_jobs_are_batched_about_four_tasks_a_cpu() -> None:
    pytest.importorskip("ray")
    backend = RayBackend()
    assert backend.tasks_for(jobs=8, cpus=2) == 1
    assert backend.tasks_for(jobs=80, cpus=2) == 5
    assert backend.tasks_for(jobs=10_000, cpus=2) == 16  # capped: little work lost to an interruption
    assert RayBackend(batch_size=3).tasks_for(jobs=10_000, cpus=2) == 3


def test_a_worker_with_another_cruiselib_refuses_to_play() -> None:
    with pytest.raises(ImportError, match="install the same version on every node"):
        _play_batch(expand(TOURNAMENT)[:1], "0.0.0-elsewhere")


def test_a_batch_stops_at_the_first_failing_job() -> None:
    jobs = expand(TOURNAMENT)[:3]
    broken = msgspec.structs.replace(jobs[1], game="no_such_game")
    results = _play_batch([jobs[0], broken, jobs[2]], cruiselib.__version__)
    assert len(results) == 2
    assert not isinstance(results[0], _JobFailure)
    assert isinstance(results[1], _JobFailure)


def test_a_failure_other_than_a_cruiselib_error_is_raised_with_its_remote_traceback() -> None:
    job = expand(TOURNAMENT)[2]
    failure = _JobFailure(ZeroDivisionError("division by zero"), "Traceback: in play_job")
    with pytest.raises(
        RuntimeError, match=r"(?s)job 000002 \(cell \d+, deals 0 to 1\) .*ZeroDivisionError.*Traceback: in play_job"
    ):
        failure.reraise(job)


# --- on a local Ray ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def backend() -> Iterator[RayBackend]:
    """One local Ray of two CPUs for the module, started by the backend and shut down after."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("a Ray is already running in this process")
    with pytest.MonkeyPatch.context() as patch:
        # Without PYTHONPATH the workers could import another cruiselib (an installed one):
        # the backend must point them at this process's.
        patch.delenv("PYTHONPATH", raising=False)
        # A local Ray of its own, whatever cluster `ray start` left recorded on this machine.
        started = RayBackend(address="local", num_cpus=2)
        started.connect()
    yield started
    started.close()
    assert not ray.is_initialized()


def _without_seconds(result: RunResult) -> list[GameRow]:
    """The games of a run but for their wall time, the one column that differs between runs."""
    return [msgspec.structs.replace(game, seconds=0.0) for game in result.games()]


def test_workers_import_the_drivers_cruiselib(backend: RayBackend) -> None:
    ray = backend.connect()

    def where() -> str:
        import cruiselib

        return cruiselib.__file__ or ""

    assert ray.get(ray.remote(where).remote()) == cruiselib.__file__


def test_tournament_rows_match_the_serial_backend(backend: RayBackend) -> None:
    on_ray = run(TOURNAMENT, backend=backend, progress=False)
    serial = run(TOURNAMENT, backend="serial", progress=False)
    assert _without_seconds(on_ray) == _without_seconds(serial)
    assert on_ray.summary == serial.summary


def test_study_rows_match_the_serial_backend_whatever_the_batch(backend: RayBackend) -> None:
    study = Study(game=ANY_GAME, games=600, shard=50, seed=5, players=(2,))
    serial = run(study, backend="serial", progress=False)
    for batch_size in (1, 5):
        backend.batch_size = batch_size
        try:
            on_ray = run(study, backend=backend, progress=False)
        finally:
            backend.batch_size = None
        assert _without_seconds(on_ray) == _without_seconds(serial)


def test_jobs_come_back_in_job_order(backend: RayBackend) -> None:
    jobs = expand(Study(game=ANY_GAME, games=300, shard=10, seed=2, players=(2,)))
    backend.batch_size = 2
    try:
        finished = list(backend.run_jobs(jobs))
    finally:
        backend.batch_size = None
    assert [job.index for job, _ in finished] == [job.index for job in jobs]
    for (job, rows), (_, expected) in zip(finished, SerialBackend().run_jobs(jobs), strict=True):
        assert rows.job == job.index
        assert rows.scores.tolist() == expected.scores.tolist()


def test_a_failing_job_is_named_and_keeps_its_error_type(backend: RayBackend) -> None:
    jobs = expand(TOURNAMENT)
    jobs[2] = msgspec.structs.replace(jobs[2], seatings=((BotSpec("cruiselib.no_such_module:bot"), BotSpec("random")),))
    with pytest.raises(InvalidOptionError, match=r"job 000002 \(cell 2, deals .*\) failed: cannot import the bot"):
        list(backend.run_jobs(jobs))


def test_an_interrupted_run_leaves_the_backend_usable(backend: RayBackend) -> None:
    jobs = expand(Study(game=ANY_GAME, games=400, shard=10, seed=4, players=(2,)))
    stream = backend.run_jobs(jobs)
    first = next(stream)
    stream.close()  # cancels the tasks still in flight
    assert first[0].index == 0
    assert len(list(backend.run_jobs(jobs[:3]))) == 3


def test_make_backend_knows_ray(backend: RayBackend) -> None:
    made = make_backend("ray")
    assert isinstance(made, RayBackend)
    assert made.name == "ray"


# --- workers lost mid-run ------------------------------------------------------------------


@pytest.fixture
def hostile(backend: RayBackend) -> str:
    """The module of the misbehaving bots, if the Ray workers import it as this process does
    (they have this process's working directory on their path)."""
    from tests.arena import hostile_bots

    ray = backend.connect()

    def imports() -> bool:
        try:
            import tests.arena.hostile_bots  # noqa: F401
        except ImportError:
            return False
        return True

    if not ray.get(ray.remote(imports).remote()):
        pytest.skip("the Ray workers do not import the tests (run pytest from the repository)")
    return hostile_bots.HERE


def _against_random(bot: BotSpec, games: int = 8) -> Tournament:
    return Tournament(game=ANY_GAME, players=2, participants=(BotSpec("random"), bot), games=games, shard=1, seed=7)


def test_a_task_whose_worker_is_killed_is_sent_again_with_the_same_rows(
    backend: RayBackend, hostile: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # The first of the bot's moves to come, in whichever Ray worker, kills that worker with
    # SIGKILL (os.kill of its own pid, written to the marker); after that it plays as random.
    marker = tmp_path / "died"
    spec = _against_random(BotSpec(f"{hostile}:DiesOnce", {"marker": str(marker), "at": 2}, label="bot"))
    with caplog.at_level(logging.WARNING, logger="cruiselib.arena"):
        on_ray = run(spec, backend=backend, progress=False)
    assert int(marker.read_text()) != os.getpid()  # a Ray worker died
    assert "was lost (WorkerCrashedError" in caplog.text
    assert f"sending it again (attempt 2 of {MAX_RAY_ATTEMPTS})" in caplog.text
    retries = [record.getMessage() for record in caplog.records if "sending it again" in record.getMessage()]
    assert len(retries) == 1 and "\n" not in retries[0]  # one line a retry
    assert _without_seconds(on_ray) == _without_seconds(run(spec, backend="serial", progress=False))


def test_a_task_whose_workers_keep_dying_stops_the_run(backend: RayBackend, hostile: str) -> None:
    spec = _against_random(BotSpec(f"{hostile}:Dies", {"at": 1}), games=2)
    with pytest.raises(WorkerLostError, match=rf"the Ray task of jobs 000000 was lost {MAX_RAY_ATTEMPTS} times"):
        run(spec, backend=backend, progress=False)


def test_a_bot_that_does_not_stop_ends_its_ray_worker_and_is_named(backend: RayBackend, hostile: str) -> None:
    spec = _against_random(BotSpec(f"{hostile}:Sleeps", {"at": 1}), games=2)
    backend.move_time_limit = 0.3
    try:
        with pytest.raises(
            BotError,
            match=r"the bot .*Sleeps.* in seat 1, at move \d+ of deal 0 .*took longer than the move time limit of "
            r"0.3 s and did not stop after .* s: its Ray worker process was ended$",
        ):
            run(spec, backend=backend, progress=False)
    finally:
        backend.move_time_limit = None
