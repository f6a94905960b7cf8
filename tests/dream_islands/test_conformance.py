"""Dream Islands: the public conformance suite for 2, 3 and 4 players, the fast random
path of the in-core playouts, and the playouts themselves.

Compiled core: 2,000 seeded games per player count. Pure-Python core (the same sources,
CRUISELIB_PURE_PYTHON=1): 500 games per player count, to keep CI within its time.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import cruiselib
from cruiselib.testing import check_game
from tests.dream_islands.helpers import game

N_GAMES = 2000  # in compiled and in pure mode
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
