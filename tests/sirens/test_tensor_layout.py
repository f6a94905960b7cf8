"""Sirens' observation tensor, declared once in the core (``SirensRules._observation_layout``;
every game's fields, bounds and docs table are checked against their layouts in
tests/test_observation_bounds.py and tests/test_tensor_docs.py): the information state is
the observation, and the size and ranges are the ones the docs give."""

from __future__ import annotations

import pytest

from cruiselib.sirens import SirensGame
from cruiselib.sirens.cards import CardSet


@pytest.mark.parametrize("variant", ["standard", "bow_to_rear"])
def test_the_information_state_is_the_observation_of_the_documented_size(variant: str) -> None:
    game = SirensGame(variant=variant)
    layout = game.rules.observation_layout
    assert layout is not None and game.rules.info_state_layout is layout
    assert list(game.observation_fields()) == layout.names()
    assert list(game.information_state_fields()) == layout.names()
    assert game.observation_shape == game.information_state_shape == (layout.size,)
    # 15 entries per card of the set and 95 more: the size the docs give (875 for 52 cards).
    cards = len(CardSet.standard().cards)
    assert layout.size == 15 * cards + 95 == 875
    low, high = game.observation_bounds()
    field = game.observation_fields()["points"]
    assert low[field].tolist() == [0.0, 0.0] and high[field].tolist() == [5.0, 5.0]
