"""The runner's whole-array paths give what the per-game ones give: job checkpoints, the rows
Table of many jobs, list columns of a slice, counted percentiles, cells out of order."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

import cruiselib
from cruiselib._registry import game_class
from cruiselib.arena import results
from cruiselib.arena.plan import BotSpec, Study, Tournament, expand
from cruiselib.arena.play import JobRows, play_job
from cruiselib.arena.runner import run
from cruiselib.arena.summary import _percentiles, summarize

pa = pytest.importorskip("pyarrow")

MANY_COUNTS = next(name for name in cruiselib.games() if len(game_class(name).player_counts) > 1)
"""A game with more than one player count: jobs of several row widths."""


def two_seat_game() -> tuple[str, int]:
    name = cruiselib.games()[0]
    return name, next(n for n in game_class(name).player_counts if n >= 2)


def mixed_jobs() -> tuple[list, list[JobRows]]:  # type: ignore[type-arg]
    """Jobs of in-core games at several player counts and of bot games, with their rows."""
    study = Study(game=MANY_COUNTS, games=7, shard=3, seed=5)
    name, players = two_seat_game()
    tournament = Tournament(
        game=name, players=players, participants=(BotSpec("random"), BotSpec("greedy", label="g")), games=2 * players
    )
    jobs = expand(study) + expand(tournament)
    return jobs, [play_job(job) for job in jobs]


def test_job_arrays_round_trip_through_their_checkpoint(tmp_path: Path) -> None:
    jobs, parts = mixed_jobs()
    for job, part in zip(jobs, parts, strict=True):
        path = results.write_job_rows(part, tmp_path / job.id)
        assert path.suffix == ".npz" and not list(tmp_path.glob("*.partial"))
        back = results.read_job_rows(path)
        assert back.job == part.job
        for name in results.JOB_ARRAYS:
            assert np.array_equal(getattr(back, name), getattr(part, name)), name
            assert getattr(back, name).dtype == getattr(part, name).dtype


def test_the_table_of_many_jobs_is_the_rows_of_each_job() -> None:
    jobs, parts = mixed_jobs()
    assert len({job.players for job in jobs}) > 1 and any(job.seatings for job in jobs)
    expected = results.concat_rows(results.job_rows(job, part) for job, part in zip(jobs, parts, strict=True))
    table = results.jobs_table(jobs, parts)
    assert table.schema == results._schema()
    assert table.to_pydict() == expected
    assert results.jobs_table([], []).num_rows == 0


def test_list_columns_of_a_slice_start_at_the_slice() -> None:
    jobs, parts = mixed_jobs()
    table = results.jobs_table(jobs, parts).slice(5, 9)
    for name in ("scores", "winners", "seats"):
        values, offsets = results.list_column(table, name)
        lists = table.column(name).to_pylist()
        assert offsets[0] == 0 and len(offsets) == len(lists) + 1
        assert [values[a:b].tolist() for a, b in itertools.pairwise(offsets)] == lists


def test_counted_percentiles_are_numpys() -> None:
    rng = np.random.default_rng(3)
    quantiles = [0, 10, 50, 90, 100, 37.5]
    for _ in range(300):
        values = rng.integers(-40, int(rng.integers(1, 300)), int(rng.integers(1, 200))).astype(np.int32)
        assert _percentiles(values, quantiles) == [float(v) for v in np.percentile(values, quantiles)]
    wide = np.array([0, 10**9], dtype=np.int64)  # a range too wide to count: numpy's own
    floats = rng.normal(size=50)
    assert _percentiles(wide, [50]) == [float(np.percentile(wide, 50))]
    assert _percentiles(floats, [10, 90]) == [float(v) for v in np.percentile(floats, [10, 90])]


def test_the_summary_of_cells_out_of_order_is_the_same() -> None:
    name = MANY_COUNTS
    spec = Study(game=name, games=30, shard=7, seed=1)
    table = run(spec, backend="serial", progress=False).table()
    cells = table.column("cell").to_numpy()
    # The rows of every cell interleaved, each cell's own rows in their order.
    rank = np.zeros(len(cells), dtype=np.int64)
    for cell in np.unique(cells):
        where = np.flatnonzero(cells == cell)
        rank[where] = np.arange(len(where))
    shuffled = table.take(pa.array(np.lexsort((cells, rank))))
    assert not np.all(np.diff(shuffled.column("cell").to_numpy()) >= 0)
    assert summarize(spec, shuffled) == summarize(spec, table)


def test_make_backend_sizes_a_local_ray_by_workers() -> None:
    pytest.importorskip("ray")
    from cruiselib.arena.backends import RayBackend, make_backend

    made = make_backend("ray", 3)
    assert isinstance(made, RayBackend) and made.num_cpus == 3
    assert make_backend("ray").num_cpus is None  # type: ignore[attr-defined]


def test_in_core_jobs_of_a_configuration_share_one_game() -> None:
    from cruiselib.arena.play import _playout_game

    jobs = expand(Study(game=MANY_COUNTS, games=6, shard=3, seed=2, players=(2,)))
    assert _playout_game(jobs[0].game, jobs[0].options_json) is _playout_game(jobs[1].game, jobs[1].options_json)
    again = [play_job(job) for job in jobs]
    first = [play_job(job) for job in jobs]
    for a, b in zip(first, again, strict=True):
        assert np.array_equal(a.scores, b.scores) and np.array_equal(a.deal_seed, b.deal_seed)


def test_a_chunk_with_too_much_text_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from cruiselib.errors import InvalidOptionError

    jobs, parts = mixed_jobs()
    monkeypatch.setattr(results, "MAX_TEXT_BYTES", 10)
    with pytest.raises(InvalidOptionError, match="smaller shard"):
        results.jobs_table(jobs, parts)
