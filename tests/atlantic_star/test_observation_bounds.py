"""Atlantic Star's observation bounds follow the player count and the board table: money
from the starting capital and the loans a seat can take (A9), victory points from a seat's
best fields (A2, A7)."""

from __future__ import annotations

from typing import Any

import pytest

import cruiselib
from cruiselib.testing import check_game


def _entry(game: Any, name: str, index: int = 0) -> tuple[Any, Any]:
    low, high = game.observation_bounds()
    at = game.observation_fields()[name].start + index
    return float(low[at]), float(high[at])


@pytest.mark.parametrize(
    ("players", "money", "points"),
    [
        (2, 76, 30 + 20 + 26 + 18 + 22 + 16 + 18 + 14),  # two voyages a sea: each class's top two
        (3, 76, 164),
        (4, 18 + 30, 30 + 26 + 22 + 18),  # three loans (A9); one voyage a sea: each class's top
        (6, 48, 96),
    ],
)
def test_standard_bounds(players: int, money: int, points: int) -> None:
    game = cruiselib.make("atlantic_star", players=players)
    assert _entry(game, "money") == (0.0, pytest.approx(money / 76))
    assert _entry(game, "scores") == (0.0, pytest.approx(points / 100))
    assert _entry(game, "deck_size") == (0.0, pytest.approx(128 / 132))  # four turned up


def test_scores_follow_the_board_table() -> None:
    board = [[99, 98, 0, 0, 0, 0], [50] * 6, [1] * 6, [2] * 6, [0] * 6]
    game = cruiselib.make("atlantic_star", players=2, board=board)
    assert _entry(game, "scores") == (0.0, pytest.approx((99 + 98 + 100 + 4 + 2) / 100))
    check_game(game, n_games=2, seed=9)
