"""Sirens in Sight: the sizes of card sets (S3, S9, S10) and both cores on every accepted set.

A card set deals each seat a hand of 4 (S3; in the variant each seat picks 4 from its own
emblem set, S9), so it has at least 8 cards; the core holds at most 64 (card ids 0..63 in
the state schema). Every accepted set plays identically on the compiled and the pure core.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import cruiselib
from cruiselib import _core
from cruiselib.sirens import Card, CardSet, SirensGame
from tests.sirens.helpers import SHIPS, small_set


@pytest.mark.parametrize("n", range(1, 8))
def test_S3_a_card_set_smaller_than_two_hands_is_refused(n: int) -> None:
    cards = small_set(8).cards[:n]
    with pytest.raises(cruiselib.InvalidOptionError, match=rf"8\.\.64 cards, not {n}: each of the 2 seats"):
        CardSet(name="tiny", cards=cards, ships=SHIPS)


def test_S3_the_core_refuses_card_tables_smaller_than_two_hands() -> None:
    # The core does not rely on the wrapper: its rules tables refuse such sets too.
    for module in {_core.load("sirens"), _core.pure_module("sirens")}:
        with pytest.raises(ValueError, match="out of range"):
            module.SirensRules([1], [False], [0] * 7, [0, 1] * 3 + [0], list(SHIPS), False, "x")
        with pytest.raises(ValueError, match="out of range"):  # the variant: 4 per emblem set
            module.SirensRules([1], [False], [0] * 9, [0] * 6 + [1] * 3, list(SHIPS), True, "x")


def test_S10_the_largest_card_set_has_64_cards() -> None:
    big = tuple(Card(v % 32 - 10, ("seastar", "shell")[i % 2], v % 32 < 10) for i, v in enumerate(range(64)))
    with pytest.raises(cruiselib.InvalidOptionError, match=r"8\.\.64 cards, not 65"):
        CardSet(name="too big", cards=(*big, Card(1, "shell", False)), ships=SHIPS)
    game = cruiselib.make("sirens", cards=CardSet(name="biggest", cards=big, ships=SHIPS))
    assert isinstance(game, SirensGame) and game.rules.num_cards == 64 and game.rules.num_faces == 32
    _same_in_both_cores(game, games=6)


@pytest.mark.parametrize(
    "cards",
    [small_set(8), small_set(9), small_set(12), small_set(20), small_set(8, value=1), small_set(10, value=6)],
    ids=lambda c: c.name,
)
def test_S10_every_accepted_small_set_plays_identically_in_both_cores(cards: CardSet) -> None:
    _same_in_both_cores(cruiselib.make("sirens", cards=cards), games=8)


def test_S9_the_smallest_variant_set_plays_identically_in_both_cores() -> None:
    _same_in_both_cores(cruiselib.make("sirens", variant="bow_to_rear", cards=small_set(8)), games=8)


def _same_in_both_cores(game: SirensGame, games: int) -> None:
    """Whole playouts, and every state of random games, agree between the two cores."""
    pure = game.pure_twin()
    a, b = game.playouts(50, seed=11), pure.playouts(50, seed=11)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.lengths, b.lengths)
    assert np.array_equal(a.wins, b.wins) and a.actions == b.actions
    for seed in range(games):
        s, t = game.new_state(seed=seed), pure.new_state(seed=seed)
        rnd = random.Random(seed)
        while True:
            assert s.to_json() == t.to_json()
            assert s.legal_actions() == t.legal_actions()
            assert s._fast_legal() == t._fast_legal() == s.legal_actions()  # the playouts' counting path
            assert game.load_state(t.to_json()) == s and pure.load_state(s.to_json()) == t
            if s.is_over:
                break
            action = rnd.choice(s.legal_actions())
            s.apply(action)
            t.apply(action)
