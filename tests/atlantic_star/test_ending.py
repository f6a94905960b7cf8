"""Atlantic Star's how to win and end reason (A8): the game's declarations."""

from __future__ import annotations

import cruiselib
from tests.support import finished_game


def test_how_to_win_names_the_voyages_and_the_end() -> None:
    game = cruiselib.make("atlantic_star")
    assert "voyage" in game.how_to_win and "Most points wins" in game.how_to_win
    assert "six plaques" in game.how_it_ends


def test_end_reason_of_seeded_games_names_a8() -> None:
    game = cruiselib.make("atlantic_star", players=3)
    for seed in range(3):
        assert game.end_reason(game.new_state(seed=seed)) is None
        reason = game.end_reason(finished_game(game, seed))
        assert reason is not None and reason.startswith("Every sea holds its six plaques") and reason.endswith("(A8).")
