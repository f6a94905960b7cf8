"""Dream Islands: the public conformance suite for 2, 3 and 4 players, the fast random
path of the in-core playouts, and the playouts themselves (replayed move by move through
the Python API, from new deals and from a position, on one thread and on several).

Compiled core: 600 seeded games per player count. Pure-Python core (the same sources,
CRUISELIB_PURE_PYTHON=1): 500 games per player count, to keep CI within its time.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import cruiselib
from cruiselib import _core
from cruiselib.dream_islands import DreamIslandsGame, DreamIslandsState
from cruiselib.testing import check_game
from tests.dream_islands.helpers import game
from tests.support import MASK64, assert_playout_row, mix64, replay_playout

N_GAMES = 600  # per player count (slow: the compiled run)
# Deep checks (round-trips, resampling every seat) on every 17th step compiled; every 41st
# in pure mode, where they dominate the run time.
DEEP_EVERY = 17 if cruiselib.compiled else 41


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_check_game(players: int) -> None:
    report = check_game(game(players), n_games=N_GAMES, seed=2026, deep_every=DEEP_EVERY)
    assert report.games == N_GAMES
    assert report.deep_checks >= N_GAMES * 2
    assert sum(report.finished_by_seat) >= N_GAMES  # every game has a winner (or several)


def test_check_game_with_a_round_limit() -> None:
    report = check_game(cruiselib.make("dream_islands", players=3, max_rounds=4), n_games=20, seed=3)
    assert report.games == 20 and report.longest_game <= 4 * 3 * 4


def test_random_action_of_the_core_is_uniform_over_the_legal_moves() -> None:
    # The playouts draw moves by rejection sampling with a fallback to the full list;
    # every draw must be legal and, over many draws, each legal move about equally often.
    state = game(2).new_state(seed=1)
    rnd = random.Random(1)
    for _ in range(6):
        state.apply(rnd.choice(state.legal_actions()))
    while state.phase_name != "move":
        state.apply(rnd.choice(state.legal_actions()))
    legal = state.legal_actions()
    counts = dict.fromkeys(legal, 0)
    draws = 200 * len(legal)
    for a in state._random_actions(draws, 7):
        counts[a] += 1
    expected = draws / len(legal)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < len(legal) + 6 * (2 * len(legal)) ** 0.5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playouts(players: int) -> None:
    g = game(players)
    result = g.playouts(300, seed=5)
    assert result.games == 300
    assert result.scores.min() >= 0 and result.scores.max() <= 45
    assert (result.wins.sum(axis=1) >= 1).all()  # ties share the win (I7)
    assert result.actions == int(result.lengths.sum())
    again = g.playouts(300, seed=5)
    assert np.array_equal(again.scores, result.scores) and np.array_equal(again.lengths, result.lengths)
    # Every seat wins sometimes; nobody wins every game.
    assert (result.win_rates > 0.1).all()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playouts_replay_move_by_move_through_the_api(players: int) -> None:
    # Game g of playouts(n, seed) is dealt from playout_seed_state(seed, g) and chooses
    # with random_action along its own stream: the core's batch is the rules' game.
    g = game(players)
    n = 40 if cruiselib.compiled else 12
    result = g.playouts(n, seed=77)
    for k in range(n):
        deal = g.playout_seed_state(77, k)
        assert_playout_row(result, k, replay_playout(g.state_from_seed_state(deal), deal), players)
    assert result.actions == int(result.lengths.sum())


@pytest.mark.parametrize("players", [2, 4])
def test_playouts_on_threads_are_the_batch_of_one_thread(players: int) -> None:
    g = game(players)
    n = 301 if cruiselib.compiled else 23  # not a multiple of the thread count
    one = g.playouts(n, seed=8)
    for threads in (2, 3):
        many = g.playouts(n, seed=8, threads=threads)
        assert np.array_equal(one.scores, many.scores)
        assert np.array_equal(one.lengths, many.lengths)
        assert np.array_equal(one.wins, many.wins)
        assert one.actions == many.actions


def _position(g: DreamIslandsGame, seed: int, steps: int) -> DreamIslandsState:
    state = g.new_state(seed=seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        state.apply(rnd.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("players", [2, 4])
def test_playouts_from_a_position_replay_from_its_snapshot(players: int) -> None:
    # State.playouts copies the position (c_copy_into) and reseeds its generator with
    # mix64(seed_state(seed) + g): a snapshot with that generator, loaded and played on
    # with the same stream, is the same game. The exchange phase and a late position.
    g = game(players)
    rng = _core.load("rng")
    n = 12 if cruiselib.compiled else 4
    for seed, steps in ((3, 7), (4, 40)):
        state = _position(g, seed, steps)
        before = state.to_json()
        result = state.playouts(n, seed=seed)
        assert state.to_json() == before  # the position itself is left as it was
        base = rng.seed_state(seed)
        for k in range(n):
            deal = int(mix64((base + k) & MASK64))
            data = json.loads(before)
            data["rng"] = f"{deal:016x}"
            assert_playout_row(result, k, replay_playout(g.load_state(json.dumps(data)), deal), players)
        assert np.array_equal(result.scores, state.playouts(n, seed=seed, threads=2).scores)


def test_playouts_from_a_finished_game_have_nothing_to_play() -> None:
    g = game(2, max_rounds=1)
    state = _position(g, 5, 0)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    result = state.playouts(5, seed=1)
    assert (result.lengths == 0).all()
    assert (result.scores == np.array(state.scores())).all()
    assert result.wins.tolist() == [[1 if p in state.winners() else 0 for p in range(2)]] * 5
