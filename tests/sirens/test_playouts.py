"""Sirens in Sight: what the core's random playouts give agrees with the rules' end (S8)."""

from __future__ import annotations

import numpy as np

import cruiselib


def test_S8_playout_scores_agree_with_the_end_of_the_game() -> None:
    # Most random games end with a seat at 4 points (S8); a game ends without a winner
    # exactly when the points are equal.
    game = cruiselib.make("sirens")
    result = game.playouts(300, seed=11)
    assert set(np.unique(result.scores)) <= set(range(8))
    finished_by_points = (result.scores.max(axis=1) >= 4).mean()
    assert finished_by_points > 0.5
    wins = result.wins.sum(axis=1)
    assert set(np.unique(wins)) <= {0, 1}
    draws = result.scores[:, 0] == result.scores[:, 1]
    assert np.array_equal(wins == 0, draws)
