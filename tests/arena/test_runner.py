"""Running specs: cruiselib.arena.runner, results, summary, backends and the commands."""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import cruiselib
from cruiselib._registry import game_class
from cruiselib.arena import results
from cruiselib.arena.backends import Backend, LocalBackend, SerialBackend, make_backend
from cruiselib.arena.cli import arena_main, study_main
from cruiselib.arena.plan import BotSpec, Job, Study, Tournament, expand
from cruiselib.arena.play import JobRows
from cruiselib.arena.results import GameRow, Games, Rows, games_to_lists, read_rows, write_rows
from cruiselib.arena.runner import run
from cruiselib.errors import InvalidOptionError

GAMES = cruiselib.games()


def smallest_table(name: str) -> int:
    return next(n for n in game_class(name).player_counts if n >= 2)


def small_tournament(name: str | None = None, **fields: Any) -> Tournament:
    name = name or GAMES[0]
    players = smallest_table(name)
    base: dict[str, Any] = {
        "game": name,
        "players": players,
        "participants": (BotSpec("random"), BotSpec("greedy"), BotSpec("rules")),
        "games": players * 2,
        "shard": 1,
        "seed": 4,
    }
    return Tournament(**(base | fields))


def small_study(name: str | None = None, **fields: Any) -> Study:
    name = name or next(g for g in GAMES if len(game_class(g).player_counts) > 1)
    base: dict[str, Any] = {"game": name, "games": 40, "shard": 15, "seed": 2}
    return Study(**(base | fields))


def without_seconds(rows: Games) -> Rows:
    """Every column but wall time, as lists."""
    return {name: values for name, values in games_to_lists(rows).items() if name != "seconds"}


class Interrupted(Exception):
    pass


class StopsHalfway:
    """A backend that plays the first ``limit`` jobs and then fails, as a killed run does."""

    name = "stops-halfway"

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.played: list[int] = []

    def run_jobs(self, jobs: Sequence[Job]) -> Iterator[tuple[Job, JobRows]]:
        for job, rows in SerialBackend().run_jobs(jobs):
            if len(self.played) == self.limit:
                raise Interrupted
            self.played.append(job.index)
            yield job, rows


@pytest.mark.parametrize("spec", [small_tournament(), small_study()], ids=["tournament", "study"])
def test_results_are_the_same_on_every_backend_and_worker_count(spec: Tournament | Study) -> None:
    serial = run(spec, backend="serial", progress=False)
    one = run(spec, backend=LocalBackend(1), progress=False)
    two = run(spec, backend="local", workers=2, progress=False)
    assert without_seconds(serial.rows) == without_seconds(one.rows) == without_seconds(two.rows)
    assert serial.summary == one.summary == two.summary
    jobs = games_to_lists(serial.rows)["job"]
    assert jobs == sorted(jobs)


def test_shard_size_does_not_change_the_games() -> None:
    coarse = games_to_lists(run(small_study(shard=1000), backend="serial", progress=False).rows)
    fine = games_to_lists(run(small_study(shard=7), backend="serial", progress=False).rows)
    for column in ("cell", "deal", "deal_seed", "start_player", "scores", "winners", "length"):
        assert coarse[column] == fine[column]


def test_an_interrupted_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    spec = small_tournament()
    jobs = expand(spec)
    halfway = StopsHalfway(len(jobs) // 2)
    with pytest.raises(Interrupted):
        run(spec, tmp_path, backend=halfway, progress=False)
    assert len(list((tmp_path / "jobs").iterdir())) == len(jobs) // 2
    assert not (tmp_path / "summary.json").exists()
    resumed = run(spec, tmp_path, backend="serial", progress=False)
    assert (resumed.resumed, resumed.played) == (len(jobs) // 2, len(jobs) - len(jobs) // 2)
    fresh = run(spec, backend="serial", progress=False)
    assert without_seconds(resumed.rows) == without_seconds(fresh.rows)
    assert json.loads((tmp_path / "summary.json").read_text()) == json.loads(json.dumps(fresh.summary))
    on_disk = read_rows(tmp_path / "games.parquet")
    assert without_seconds(on_disk) == without_seconds(fresh.rows)


def test_a_finished_run_is_not_played_again(tmp_path: Path) -> None:
    spec = small_study()
    run(spec, tmp_path, backend="serial", progress=False)
    again = run(spec, tmp_path, backend=StopsHalfway(0), progress=False)
    assert again.played == 0 and again.resumed == len(expand(spec))


def test_a_resume_with_another_spec_is_refused_and_no_resume_replaces(tmp_path: Path) -> None:
    run(small_study(), tmp_path, backend="serial", progress=False)
    other = small_study(seed=3)
    with pytest.raises(InvalidOptionError, match="another spec"):
        run(other, tmp_path, backend="serial", progress=False)
    replaced = run(other, tmp_path, backend="serial", resume=False, progress=False)
    assert replaced.resumed == 0
    assert without_seconds(replaced.rows) == without_seconds(run(other, backend="serial", progress=False).rows)


def test_bad_backends_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="unknown backend"):
        make_backend("carrier-pigeon")
    with pytest.raises(InvalidOptionError, match="run_jobs"):
        make_backend(object())  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="workers"):
        LocalBackend(0)
    assert isinstance(make_backend("serial"), Backend)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_runs_a_study_and_a_tournament(name: str) -> None:
    study = run(Study(game=name, games=12, shard=5), backend="serial", progress=False)
    counts = game_class(name).player_counts
    assert sorted({cell["players"] for cell in study.summary["cells"]}) == list(counts)
    assert study.game_count == 12 * len(counts)
    tournament = run(small_tournament(name), backend="serial", progress=False)
    players = smallest_table(name)
    assert tournament.game_count == 3 * 2 * players
    for outcome in (study, tournament):
        check_rows(outcome.games())
        check_shares(outcome.summary)


def check_rows(games: list[GameRow]) -> None:
    """Each row replays: its deal gives its start player, its seats and scores fit."""
    for row in games:
        game = cruiselib.make(row.game, **json.loads(row.options_json))
        assert game.state_from_seed_state(row.deal_seed).current_player == row.start_player
        assert len(row.seats) == len(row.scores) == row.players
        assert all(0 <= seat < row.players for seat in row.winners)


def check_shares(summary: dict[str, Any]) -> None:
    """Win shares never sum past 100%: per cell over the seats, and over all the bots."""
    for cell in summary["cells"]:
        assert sum(seat["wins"] for seat in cell["seats"]) <= cell["games"] + 1e-9
        assert sum(seat["wins"] for seat in cell["start_players"]) <= cell["games"] + 1e-9
        assert sum(seat["games"] for seat in cell["start_players"]) == cell["games"]
    if "bots" in summary:
        # Every game seats each participant of its pairing once.
        assert sum(bot["wins"] for bot in summary["bots"]) <= summary["games"] + 1e-9
        for bot in summary["bots"]:
            assert 0 <= bot["low"] <= bot["share"] <= bot["high"] <= 1


def test_shared_wins_split_and_draws_give_nothing() -> None:
    from cruiselib.arena.summary import summarize

    spec = Study(game=GAMES[0], players=(smallest_table(GAMES[0]),), games=3)
    players = spec.players[0]
    rows: Rows = {name: [] for name in results.COLUMNS}
    for index, winners in enumerate([[0, 1], [], [1]]):
        values = {
            "study": "s", "job": 0, "index": index, "cell": 0, "game": spec.game, "options_json": "{}",
            "players": players, "deal": index, "deal_seed": 0, "mirror": 0, "seats": ["random"] * players,
            "start_player": 0, "scores": [0] * players, "winners": winners, "length": 1, "seconds": 0.0,
        }  # fmt: skip
        for name, value in values.items():
            rows[name].append(value)
    (cell,) = summarize(spec, rows)["cells"]
    assert [seat["wins"] for seat in cell["seats"]][:2] == [0.5, 1.5]
    assert cell["draws"] == pytest.approx(1 / 3)


def test_each_player_count_is_its_own_baseline() -> None:
    name = next(g for g in GAMES if len(game_class(g).player_counts) > 1)
    counts = game_class(name).player_counts[:2]
    assert run(small_study(name, players=counts), backend="serial", progress=False).summary["variants"] == []


def test_a_paired_study_compares_variants_on_the_same_deals() -> None:
    name, key, choices = varied_option()
    players = (smallest_table(name),)
    study = run(small_study(name, players=players, grid={key: choices}), backend="serial", progress=False)
    variants = study.summary["variants"]
    assert {v["metric"] for v in variants} == {"seat 0 win share", "start player win share", "length"}
    assert all(v["low"] <= v["difference"] <= v["high"] for v in variants)
    assert {v["baseline"] for v in variants} == {study.summary["cells"][0]["name"]}
    unpaired = run(
        small_study(name, players=players, grid={key: choices}, paired=False), backend="serial", progress=False
    )
    assert unpaired.summary["variants"] == []


def varied_option() -> tuple[str, str, list[Any]]:
    """A game and an option of it with two values: its default and another of its example
    configurations."""
    for name in GAMES:
        defaults = cruiselib.make(name).options
        for options in game_class(name).example_configurations:
            for key, value in options.items():
                if key != "players" and value != defaults.get(key):
                    return name, key, [defaults[key], value]
    pytest.skip("no game has an example configuration that changes an option")


def test_rows_round_trip_through_csv_without_pyarrow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = games_to_lists(run(small_tournament(), backend="serial", progress=False).rows)
    monkeypatch.setattr(results, "HAVE_PYARROW", False)
    path = write_rows(rows, tmp_path / "games")
    assert path.suffix == ".csv"
    assert read_rows(path) == rows


def test_a_run_without_pyarrow_writes_csv_and_resumes_from_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(results, "HAVE_PYARROW", False)
    spec = small_study()
    first = run(spec, tmp_path, backend="serial", progress=False)
    assert (tmp_path / "games.csv").exists() and not (tmp_path / "games.parquet").exists()
    again = run(spec, tmp_path, backend="serial", progress=False)
    assert again.played == 0
    assert without_seconds(again.rows) == without_seconds(first.rows)


def test_the_commands_run_and_refuse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name = GAMES[0]
    players = smallest_table(name)
    argv = [name, "--bot", "random", "--bot", "greedy,label=g", "--games", str(players), "--players", str(players)]
    assert arena_main([*argv, "--backend", "serial", "--out", str(tmp_path / "t"), "--no-progress", "--no-report"]) == 0
    out = capsys.readouterr().out
    assert "g " in out and f"{players} games" in out
    summary = json.loads((tmp_path / "t" / "summary.json").read_text())
    assert [bot["label"] for bot in summary["bots"]] == ["random", "g"]
    spec_file = str(tmp_path / "t" / "spec.json")
    assert arena_main(["--spec", spec_file, "--games", "4", "--backend", "serial"]) == 2
    assert "drop games" in capsys.readouterr().err
    assert study_main(["--spec", spec_file, "--backend", "serial"]) == 2
    assert "not a study" in capsys.readouterr().err
    assert arena_main(["--spec", spec_file, "--backend", "serial", "--no-progress"]) == 0
    assert study_main([name, "--games", "10", "--backend", "serial", "--no-progress"]) == 0
    assert "10 games" in capsys.readouterr().out
    assert arena_main([name, "--bot", "random", "--backend", "serial"]) == 2
    assert "at least two participants" in capsys.readouterr().err


def test_rows_name_every_winner_of_a_shared_win() -> None:
    import numpy as np

    (job,) = expand(small_study(games=4, shard=10, players=(3,)))
    wins = np.array([[1, 1, 0], [0, 0, 0], [0, 0, 1], [1, 1, 1]], dtype=np.int8)
    rows = JobRows(
        job=0,
        deal=np.arange(4, dtype=np.int64),
        deal_seed=np.zeros(4, dtype=np.uint64),
        seating=np.full(4, -1, dtype=np.int16),
        start_player=np.zeros(4, dtype=np.int16),
        scores=np.zeros((4, 3), dtype=np.int32),
        wins=wins,
        length=np.ones(4, dtype=np.int32),
        seconds=np.zeros(4),
    )
    assert results.job_rows(job, rows)["winners"] == [[0, 1], [], [2], [0, 1, 2]]
    assert results.job_table(job, rows).column("winners").to_pylist() == [[0, 1], [], [2], [0, 1, 2]]
    assert results.job_rows(job, rows) == results.job_table(job, rows).to_pydict()


def test_in_core_games_are_dealt_as_playouts_deals_them() -> None:
    spec = small_study()
    rows = games_to_lists(run(spec, backend="serial", progress=False).rows)
    game = cruiselib.make(spec.game, **json.loads(rows["options_json"][0]))
    assert rows["deal_seed"][:20] == [game.playout_seed_state(spec.seed, g) for g in rows["deal"][:20]]
    batch = game.playouts(rows["cell"].count(0), spec.seed)  # the first cell, in one batch
    assert rows["length"][: batch.games] == batch.lengths.tolist()
    assert rows["start_player"][: batch.games] == batch.first_seats.tolist()


@pytest.mark.parametrize("spec", [small_tournament(), small_study()], ids=["tournament", "study"])
def test_the_summary_of_a_table_is_the_summary_of_its_lists(spec: Tournament | Study) -> None:
    from cruiselib.arena.summary import summarize

    table = run(spec, backend="serial", progress=False).table()
    assert summarize(spec, table) == summarize(spec, games_to_lists(table))


def test_the_commands_write_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    name = GAMES[0]
    argv = [name, "--games", "30", "--backend", "serial", "--out", str(tmp_path)]
    assert study_main(argv) == 0
    assert "games" in capsys.readouterr().out
    report = (tmp_path / "report.html").read_text()
    assert report.startswith("<!DOCTYPE html>") and "<svg" in report
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "games.parquet",
        "jobs",
        "report.html",
        "spec.json",
        "summary.json",
    ]


def test_the_local_backend_stops_when_the_caller_stops() -> None:
    jobs = expand(small_study(games=40, shard=2))
    stream = LocalBackend(2).run_jobs(jobs)
    assert isinstance(stream, Generator)
    job, rows = next(stream)
    assert rows.games == job.games
    stream.close()  # what an interrupted run does: no more jobs are started
    with pytest.raises(StopIteration):
        next(stream)


def test_a_study_of_bots_one_per_seat() -> None:
    name = next(g for g in GAMES if 2 in game_class(g).player_counts)
    spec = Study(game=name, players=(2,), bots=(BotSpec("greedy"), BotSpec("random")), games=3)
    rows = games_to_lists(run(spec, backend="serial", progress=False).rows)
    assert rows["seats"] == [["greedy", "random"]] * 3
    assert rows["deal"] == [0, 1, 2]


def test_a_tournament_of_more_than_two_seats_rates_every_bot_by_plackett_luce() -> None:
    name = next(g for g in GAMES if 3 in game_class(g).player_counts)
    result = run(small_tournament(name, players=3, games=3), backend="serial", progress=False)
    ratings = result.summary["ratings"]
    assert ratings["method"].startswith("Plackett-Luce")
    assert sorted(ratings["names"]) == ["filler:random", "greedy", "random", "rules"]
    two_seats = run(small_tournament(name, players=2, games=2), backend="serial", progress=False)
    assert two_seats.summary["ratings"]["method"].startswith("Bradley-Terry")
    assert two_seats.summary["ratings"]["names"] == ["random", "greedy", "rules"]


def test_a_backend_made_by_name_is_closed_and_one_given_is_not(monkeypatch: pytest.MonkeyPatch) -> None:
    from cruiselib.arena import runner

    class Closable(SerialBackend):
        closed = 0

        def close(self) -> None:
            Closable.closed += 1

    monkeypatch.setattr(runner, "make_backend", lambda backend, workers: Closable() if backend == "serial" else backend)
    run(small_study(games=2), backend="serial", progress=False)
    assert Closable.closed == 1
    run(small_study(games=2), backend=Closable(), progress=False)
    assert Closable.closed == 1
