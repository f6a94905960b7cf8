"""Sirens in Sight's observation bounds follow the rules and the card set: side sums from the
set's five most extreme values (S5), thresholds from its ship values and the two rum mugs
(S3, S6), pile sizes from the variant (S9, S16)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cruiselib
from cruiselib.sirens import Card, CardSet
from cruiselib.testing import check_game

# Six values, each a seastar and a shell card, so the set has two identical emblem sets (S9).
_VALUES = (99, -99, 5, -3, 1, 0)
EXTREME = CardSet(
    name="extreme",
    cards=tuple(Card(v, emblem, v <= 0) for v in _VALUES for emblem in ("seastar", "shell")),
    ships=(1, 2, 3, 4, 999),
)


def _field(game: Any, name: str) -> tuple[list[Any], list[Any]]:
    low, high = game.observation_bounds()
    part = game.observation_fields()[name]
    return low[part].tolist(), high[part].tolist()


def test_standard_bounds() -> None:
    game = cruiselib.make("sirens")
    assert _field(game, "side_totals") == ([pytest.approx(-1.6)] * 10, [pytest.approx(4.9)] * 10)  # S1, S5
    assert _field(game, "thresholds") == (
        [pytest.approx(v / 10) for v in (28, 30, 32, 34, 36)],
        [pytest.approx(v / 10) for v in (34, 36, 38, 40, 42)],
    )
    assert _field(game, "pile_sizes")[1] == [pytest.approx(44 / 52)] * 2  # 52 less two hands (S16)
    assert _field(game, "points") == ([0.0] * 2, [5.0] * 2)
    assert _field(game, "picks")[1] == [0.0] * 2 and _field(game, "own_pile")[1] == [0.0] * 52
    variant = cruiselib.make("sirens", variant="bow_to_rear")
    assert _field(variant, "pile_sizes")[1] == [0.5] * 2  # a seat's whole set while it picks (S9)
    assert _field(variant, "picks")[1] == [4.0] * 2


@pytest.mark.parametrize("variant", ["standard", "bow_to_rear"])
def test_bounds_follow_the_card_set(variant: str) -> None:
    game = cruiselib.make("sirens", variant=variant, cards=EXTREME)
    # Five lowest: -99 -99 -3 -3 (0 adds nothing); five highest: 99 99 5 5 1.
    assert _field(game, "side_totals") == ([pytest.approx(-20.4)] * 10, [pytest.approx(20.9)] * 10)
    assert _field(game, "thresholds") == (
        [pytest.approx(v / 10) for v in (1, 2, 3, 4, 999)],
        [pytest.approx(v / 10) for v in (7, 8, 9, 10, 1005)],
    )
    assert np.isfinite(game.observation_bounds()[0]).all()
    check_game(game, n_games=6, seed=3)  # every tensor of every step within them
