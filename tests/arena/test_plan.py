"""Specs and their jobs: cruiselib.arena.plan (and the deal offsets of cruiselib.arena.play)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cruiselib
from cruiselib._registry import game_class
from cruiselib.arena.plan import BotSpec, Study, Tournament, cell_base, deal_seed, dump_spec, expand, load_spec
from cruiselib.arena.play import make_player, play_job, playout_seed_for
from cruiselib.errors import InvalidOptionError

GAMES = cruiselib.games()


def two_seat_game() -> tuple[str, int]:
    """A registered game and its smallest seat count of at least two."""
    name = GAMES[0]
    return name, next(n for n in game_class(name).player_counts if n >= 2)


def tournament(**fields: Any) -> Tournament:
    name, players = two_seat_game()
    base: dict[str, Any] = {
        "game": name,
        "players": players,
        "participants": (BotSpec("random"), BotSpec("greedy")),
        "games": players * 2,
    }
    return Tournament(**(base | fields))


def test_expand_is_deterministic_and_covers_the_games() -> None:
    spec = tournament(participants=(BotSpec("random"), BotSpec("greedy"), BotSpec("rules")), shard=1)
    jobs = expand(spec)
    assert jobs == expand(spec)
    assert [job.index for job in jobs] == list(range(len(jobs)))
    # Three pairings, two deals each, a job per deal.
    assert len(jobs) == 6
    assert sum(job.games for job in jobs) == 3 * spec.games


def test_mirror_seats_every_participant_in_every_seat_of_a_deal() -> None:
    name = next(g for g in GAMES if 3 in game_class(g).player_counts)
    spec = Tournament(game=name, players=3, participants=(BotSpec("random"), BotSpec("greedy")), games=3)
    (job,) = expand(spec)
    for bot in (BotSpec("random"), BotSpec("greedy")):
        assert sorted(seating.index(bot) for seating in job.seatings) == [0, 1, 2]
    # The filler shares a participant's name: it gets a label of its own.
    assert [bot.display for bot in job.seatings[0]] == ["random", "greedy", "filler:random"]
    assert job.deals == 1 and job.games == 3


def test_without_mirror_each_deal_is_played_once_and_seats_still_rotate() -> None:
    spec = tournament(mirror=False, games=4)
    (job,) = expand(spec)
    assert job.deals == 4 and job.games == 4 and not job.per_deal
    rows = play_job(job)
    assert rows.deal.tolist() == [0, 1, 2, 3]
    assert rows.seating.tolist() == [g % spec.players for g in range(4)]  # type: ignore[operator]


def test_deals_are_the_playouts_deals_of_the_spec_seed() -> None:
    name, _ = two_seat_game()
    game = cruiselib.make(name)
    base = cell_base(11, None)
    assert [deal_seed(base, g) for g in range(5)] == [game.playout_seed_state(11, g) for g in range(5)]


def test_an_unpaired_study_deals_each_cell_its_own_games() -> None:
    name = next(g for g in GAMES if len(game_class(g).player_counts) > 1)
    counts = game_class(name).player_counts[:2]
    paired = expand(Study(game=name, players=counts, games=10))
    unpaired = expand(Study(game=name, players=counts, games=10, paired=False))
    assert paired[0].base == paired[1].base
    assert unpaired[0].base != unpaired[1].base


def test_playouts_in_shards_are_the_games_of_one_batch() -> None:
    name, _ = two_seat_game()
    game = cruiselib.make(name)
    whole = game.playouts(30, 5)
    base = cell_base(5, None)
    parts = [game.playouts(10, playout_seed_for(game, base, first)) for first in (0, 10, 20)]
    assert np.array_equal(np.concatenate([p.scores for p in parts]), whole.scores)
    assert np.array_equal(np.concatenate([p.lengths for p in parts]), whole.lengths)


def test_study_cells_are_the_grid_times_the_player_counts() -> None:
    name = next(g for g in GAMES if len(game_class(g).player_counts) > 1)
    counts = game_class(name).player_counts[:2]
    jobs = expand(Study(game=name, players=counts, games=25, shard=10))
    assert [(job.cell, job.players, job.first, job.deals) for job in jobs] == [
        (0, counts[0], 0, 10),
        (0, counts[0], 10, 10),
        (0, counts[0], 20, 5),
        (1, counts[1], 0, 10),
        (1, counts[1], 10, 10),
        (1, counts[1], 20, 5),
    ]
    assert all(not job.seatings for job in jobs)  # random bots: the games run in the core


def test_a_study_with_one_bot_seats_it_everywhere() -> None:
    name, players = two_seat_game()
    (job,) = expand(Study(game=name, players=(players,), bots=(BotSpec("greedy"),), games=2))
    assert job.seatings == ((BotSpec("greedy"),) * players,)


def test_specs_load_from_dicts_json_and_files(tmp_path: Path) -> None:
    spec = tournament()
    text = dump_spec(spec)
    assert load_spec(text.decode()) == spec
    path = tmp_path / "spec.json"
    path.write_bytes(text)
    assert load_spec(path) == spec
    assert load_spec(str(path)) == spec
    assert load_spec(json.loads(text)) == spec
    assert dump_spec(load_spec(json.loads(text))) == text


def test_bots_by_import_path() -> None:
    bot = make_player(BotSpec("cruiselib.bots:RandomBot"), seed=3)
    state = cruiselib.make(GAMES[0]).new_state(seed=1)
    assert bot.choose(state) in state.legal_actions()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"game": "no_such_game"}, "unknown game"),
        ({"participants": (BotSpec("no_such_bot"), BotSpec("random"))}, "unknown bot"),
        ({"participants": (BotSpec("random", {"depth": 3}), BotSpec("greedy"))}, "no option depth"),
        ({"participants": (BotSpec("nowhere.at_all:Bot"), BotSpec("greedy"))}, "cannot import"),
        ({"participants": (BotSpec("random"), BotSpec("random"))}, "distinct labels"),
        ({"participants": (BotSpec("random"),)}, "at least two participants"),
        ({"mode": "ab", "participants": (BotSpec("random"), BotSpec("greedy"), BotSpec("rules"))}, "exactly two"),
        ({"games": 3}, "multiple of players"),
        ({"games": 0}, "at least 1"),
        ({"players": 99}, "players"),
        ({"shard": 0}, "shard"),
        ({"options": {"players": 2}}, "spec's players"),
        ({"options": {"no_such_option": 1}}, "no_such_option"),
    ],
)
def test_bad_tournaments_are_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        expand(tournament(**fields))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"players": (99,)}, "players"),
        ({"grid": {"no_such_option": [1]}}, "no_such_option"),
        ({"grid": {"x": []}}, "no values"),
        ({"games": -1}, "at least 1"),
        ({"bots": (BotSpec("random"), BotSpec("greedy"), BotSpec("rules"), BotSpec("random", label="r2"))}, "per seat"),
    ],
)
def test_bad_studies_are_refused(fields: dict[str, Any], message: str) -> None:
    name = next(g for g in GAMES if len(game_class(g).player_counts) > 1)
    with pytest.raises(InvalidOptionError, match=message):
        expand(Study(**({"game": name} | fields)))


@pytest.mark.parametrize(
    "source",
    [
        {"kind": "league", "game": "x"},
        {"kind": "study"},
        {"kind": "study", "game": "x", "gmaes": 3},
        {"kind": "tournament", "game": "x", "participants": [{"nmae": "random"}]},
        '{"kind": "study", "game": ',
    ],
)
def test_malformed_specs_are_refused(source: Any) -> None:
    with pytest.raises(InvalidOptionError, match="bad spec"):
        load_spec(source)


def test_a_missing_spec_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidOptionError, match="cannot read"):
        load_spec(tmp_path / "missing.json")
