"""Dream Cruise's observation bounds follow the options and the card set: the route table
(C1), the addition spaces (C6, C13), the families in play and Jana's (C9, C21)."""

from __future__ import annotations

from typing import Any

import pytest

import cruiselib
from cruiselib.testing import check_game


def _entry(game: Any, name: str, index: int) -> tuple[Any, Any]:
    """The bounds of entry ``index`` of field ``name`` (of the observer's seat, for per-seat
    parts)."""
    low, high = game.observation_bounds()
    at = game.observation_fields()[name].start + index
    return float(low[at]), float(high[at])


def test_standard_bounds() -> None:
    game = cruiselib.make("dream_cruise", players=4)
    assert _entry(game, "routes", 0) == (0.0, 1.0)  # six shore cards a region
    assert _entry(game, "routes", 6) == (0.0, 3.0)  # 18 sea cards / 6
    assert _entry(game, "routes", 7) == (0.0, 1.0)  # six routes of 9 (C1)
    assert _entry(game, "counts", 2) == (0.0, pytest.approx(72 / 20))  # no hand limit
    assert _entry(game, "counts", 5) == (0.0, pytest.approx(15 / 9))  # 3 activities + 2 additions, 3 colours
    assert _entry(game, "decks", 0) == (0.0, 48 / 64)  # no family goes back to the box with 4 players
    assert _entry(cruiselib.make("dream_cruise", players=2), "decks", 0) == (0.0, 24 / 64)
    assert _entry(game, "jana", 9) == (0.0, 0.0)  # solo only


def test_bounds_follow_the_options() -> None:
    game = cruiselib.make("dream_cruise", players=2, route_points=(0, 0, 0, 99), additions=4, sea_ship_draw=True)
    assert _entry(game, "routes", 7) == (0.0, pytest.approx(6 * 99 / 54))  # six routes of 5+ cards
    assert _entry(game, "counts", 5) == (0.0, 2.0)  # 18 members at most, not 3 × (3 + 4)
    check_game(game, n_games=3, seed=5)


def test_solo_bounds_count_janas_families() -> None:
    game = cruiselib.make("dream_cruise", players=1, difficulty=3)
    assert _entry(game, "jana", 0) == (0.0, pytest.approx((3 + 18) / 20))  # C9
    assert _entry(game, "jana", 1) == (0.0, 1.0)  # her one route: 9 points (C28)
    assert _entry(game, "jana", 9)[1] > 0
    check_game(game, n_games=3, seed=5)
