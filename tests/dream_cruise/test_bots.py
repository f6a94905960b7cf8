"""The search bots on Dream Cruise: forced moves, and the solo game against Jana as the search
sees it (tests/test_bots.py holds what every game shares)."""

from __future__ import annotations

import pytest

import cruiselib
from cruiselib.bots import (
    ISMCTSBot,
)
from tests.support import positions
from tests.test_bots import search


def test_forced_moves_are_not_searched() -> None:
    game = cruiselib.make("dream_cruise", players=2)
    for state in positions(game, 3, 19):
        if len(state.legal_actions()) == 1:
            bot = ISMCTSBot(iterations=50, seed=1)
            assert bot.choose(state) == state.legal_actions()[0] and bot.last_iterations == 0
            return
    pytest.skip("no forced move reached")


def test_solo_loss_is_a_minus_one() -> None:
    """Dream Cruise alone against Jana: a game with no winner is a loss (C9), so the search
    sees -1, as returns() does."""
    game = cruiselib.make("dream_cruise", players=1)
    state = game.new_state(seed=1)
    tree = search(state, 200)
    results = {round(mean, 6) for _, _, _, mean in tree.children()}
    assert min(results) < 0  # random solo play loses to Jana (its mean return is negative)
