"""Dream Cruise: the public conformance suite for 1 to 4 players and each option, the
in-core playouts (replayed move by move through the Python API, from new deals and from a
position, on one thread and on several) and the playouts' random choice.

Compiled core (``slow``): 600 seeded games per configuration. Pure-Python core (the same
sources, CRUISELIB_PURE_PYTHON=1, not ``slow``): 112 games per configuration, 1,120 in all.
Every step already checks the ~16,000 action ids of the mask (check_game's cheap checks), so
the deep checks run on few steps: one deep check costs about as much as 100 cheap steps.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

import cruiselib
from cruiselib import _core
from cruiselib.dream_cruise import Build, DreamCruiseGame, DreamCruiseState
from cruiselib.testing import check_game, check_playouts
from tests.support import MASK64, assert_playout_row, mix64, replay_playout

# Every player count with the default options, then each option (C1, C2, C6, C9) at a
# player count of its own, so that the sweeps cover every count with some option.
CONFIGS: dict[str, dict[str, Any]] = {
    "solo": {"players": 1},
    "2p": {"players": 2},
    "3p": {"players": 3},
    "4p": {"players": 4},
    "sea_ship_draw": {"players": 3, "sea_ship_draw": True},
    "additions=1": {"players": 4, "additions": 1},
    "additions=4": {"players": 2, "additions": 4},
    "route_points": {"players": 4, "route_points": (0, 2, 5, 12)},
    "solo-route_points": {"players": 1, "route_points": (0, 2, 5, 12)},  # Jana's route too (C9)
    "solo-difficulty-3": {"players": 1, "difficulty": 3},
}
NAMES = list(CONFIGS)

N_GAMES = 600  # compiled, per configuration
N_PURE = 64  # pure mode, per configuration (640 in all)
DEEP_EVERY = 250  # a solo game has ~80 steps, a 2-player one ~215, a 4-player one ~320
DEEP_PURE = 1000  # pure mode: the first and the last state of every game


def make(name: str) -> DreamCruiseGame:
    game = cruiselib.make("dream_cruise", **CONFIGS[name])
    assert isinstance(game, DreamCruiseGame)
    return game


def _sweep(name: str, n_games: int, deep_every: int, seed: int) -> None:
    game = make(name)
    report = check_game(game, n_games=n_games, seed=seed, deep_every=deep_every)
    assert report.games == n_games
    assert report.deep_checks >= 2 * n_games
    if game.num_players > 1:  # one winner per game, ties broken (C8)
        assert sum(report.finished_by_seat) == n_games
    else:  # solo: the player wins only by beating Jana (C9, C23)
        assert sum(report.finished_by_seat) <= n_games
    # Every game ends (C8, C16, C20): a few hundred actions at most.
    assert report.longest_game < 150 * game.num_players + 100


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_check_game(name: str) -> None:
    _sweep(name, N_GAMES, DEEP_EVERY, seed=2026)


@pytest.mark.skipif(cruiselib.compiled, reason="the pure-mode sweep; compiled, the slow sweep covers it")
@pytest.mark.parametrize("name", NAMES)
def test_check_game_in_pure_mode(name: str) -> None:
    _sweep(name, N_PURE, DEEP_PURE, seed=2027)


@pytest.mark.parametrize("name", NAMES)
def test_check_game_smoke(name: str) -> None:
    _sweep(name, 3, 9, seed=5)


def test_the_solo_player_wins_only_with_more_points_than_jana() -> None:
    # C9, C23: winners() is [0] exactly when the player has more points than Jana, and the
    # returns say so; at the end of random games Jana (one family a round and every
    # location card the player discards) is far ahead.
    game = make("solo")
    for seed in range(30):
        state = _position(game, seed, 0)
        rnd = random.Random(seed)
        while not state.is_over:
            state.apply(rnd.choice(state.legal_actions()))
        won = state.scores()[0] > state.jana_score()
        assert state.winners() == ([0] if won else [])
        assert state.returns() == [1.0 if won else -1.0]
        view = state.view(0)
        assert view.jana is not None and view.jana.score == state.jana_score()


def test_random_action_is_the_kth_legal_action() -> None:
    # The playouts' choice for a 64-bit value r is the k-th sorted legal action,
    # k = ((r >> 32) * n) >> 32, in every phase (phase 4 decodes builds and captains from
    # counts over the hand, c_legal_at), for every option.
    rnd = random.Random(9)
    for name in NAMES:
        game = make(name)
        for seed in range(2):
            state = game.new_state(seed=seed)
            while not state.is_over:
                legal = state.legal_actions()
                for _ in range(3):
                    r = rnd.getrandbits(64)
                    assert state.random_action(r) == legal[((r >> 32) * len(legal)) >> 32]
                assert state.random_action(0) == legal[0]
                assert state.random_action(MASK64) == legal[-1]
                state.apply(rnd.choice(legal))
            with pytest.raises(cruiselib.IllegalMoveError, match="game is over"):
                state.random_action(1)


def test_random_actions_are_uniform_over_the_legal_moves() -> None:
    # A phase-4 position with builds and captains: every legal move about equally often.
    state = _phase_4_position(make("2p"), 20)
    rnd = random.Random(4)
    legal = state.legal_actions()
    counts = dict.fromkeys(legal, 0)
    draws = 100 * len(legal)
    for _ in range(draws):
        counts[state.random_action(rnd.getrandbits(64))] += 1
    expected = draws / len(legal)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < len(legal) + 6 * (2 * len(legal)) ** 0.5


@pytest.mark.parametrize("name", NAMES)
def test_playouts(name: str) -> None:
    g = make(name)
    n = 200 if cruiselib.compiled else 20
    result = g.playouts(n, seed=5)
    assert result.games == n
    low, high = g.score_bounds
    assert result.scores.min() >= low and result.scores.max() <= high
    if g.num_players > 1:
        assert (result.wins.sum(axis=1) == 1).all()  # ties are broken (C8)
    assert result.actions == int(result.lengths.sum())
    again = g.playouts(n, seed=5)
    assert np.array_equal(again.scores, result.scores) and np.array_equal(again.lengths, result.lengths)
    assert np.array_equal(again.wins, result.wins)


def test_every_seat_wins_sometimes() -> None:
    for players in (2, 3, 4):
        result = make(f"{players}p").playouts(400 if cruiselib.compiled else 60, seed=6)
        assert (result.win_rates > 0.05).all()


def _phase_4_position(game: DreamCruiseGame, at_least: int) -> DreamCruiseState:
    """The first phase-4 position of seeded random play with at least ``at_least`` moves,
    builds among them."""
    for seed in range(100):
        state = game.new_state(seed=seed)
        rnd = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            if state.phase == "set_sail" and len(legal) >= at_least and any(
                isinstance(game.action_to_move(a), Build) for a in legal
            ):
                return state
            state.apply(rnd.choice(legal))
    raise AssertionError("no such position")


@pytest.mark.parametrize("name", NAMES)
def test_playouts_replay_move_by_move_through_the_api(name: str) -> None:
    # Game g of playouts(n, seed) is dealt from playout_seed_state(seed, g) and chooses
    # with random_action along its own stream: the core's batch is the rules' game.
    g = make(name)
    n = 20 if cruiselib.compiled else 4
    result = g.playouts(n, seed=77)
    for k in range(n):
        deal = g.playout_seed_state(77, k)
        assert_playout_row(result, k, replay_playout(g.state_from_seed_state(deal), deal), g.num_players)
    assert result.actions == int(result.lengths.sum())


@pytest.mark.parametrize("name", ["solo", "2p", "4p", "additions=4"])
def test_playouts_on_threads_are_the_batch_of_one_thread(name: str) -> None:
    g = make(name)
    n = 201 if cruiselib.compiled else 15  # not a multiple of the thread count
    one = g.playouts(n, seed=8)
    for threads in (2, 3):
        many = g.playouts(n, seed=8, threads=threads)
        assert np.array_equal(one.scores, many.scores)
        assert np.array_equal(one.lengths, many.lengths)
        assert np.array_equal(one.wins, many.wins)
        assert one.actions == many.actions


def _position(g: DreamCruiseGame, seed: int, steps: int) -> DreamCruiseState:
    state = g.new_state(seed=seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        state.apply(rnd.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", ["solo", "2p", "4p", "sea_ship_draw"])
def test_playouts_from_a_position_replay_from_its_snapshot(name: str) -> None:
    # State.playouts copies the position and reseeds its generator with
    # mix64(seed_state(seed) + g): a snapshot with that generator, loaded and played on
    # with the same stream, is the same game. Positions in phases 2, 3 and 4 and later.
    g = make(name)
    rng = _core.load("rng")
    n = 8 if cruiselib.compiled else 3
    for seed, steps in ((3, 1), (4, 9), (5, 40)):
        state = _position(g, seed, steps)
        before = state.to_json()
        result = state.playouts(n, seed=seed)
        assert state.to_json() == before  # the position itself is left as it was
        base = rng.seed_state(seed)
        for k in range(n):
            deal = int(mix64((base + k) & MASK64))
            data = json.loads(before)
            data["rng"] = f"{deal:016x}"
            assert_playout_row(result, k, replay_playout(g.load_state(json.dumps(data)), deal), g.num_players)
        assert np.array_equal(result.scores, state.playouts(n, seed=seed, threads=2).scores)
        check_playouts(g, state, seed=seed + 1)


def test_playouts_from_a_finished_game_have_nothing_to_play() -> None:
    g = make("2p")
    state = _position(g, 5, 0)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    result = state.playouts(5, seed=1)
    assert (result.lengths == 0).all()
    assert (result.scores == np.array(state.scores())).all()
    assert result.wins.tolist() == [[1 if p in state.winners() else 0 for p in range(2)]] * 5


def test_compiled_and_pure_playouts_agree() -> None:
    if not cruiselib.compiled:
        pytest.skip("compares the compiled core with its pure twin")
    for name in NAMES:
        g = make(name)
        a, b = g.playouts(30, seed=12), g.pure_twin().playouts(30, seed=12)
        assert np.array_equal(a.scores, b.scores) and np.array_equal(a.lengths, b.lengths)
        assert np.array_equal(a.wins, b.wins) and a.actions == b.actions
