"""Sirens in Sight's how to win and end reasons (S4, S8): the game's declarations."""

from __future__ import annotations

import re

import cruiselib
from tests.support import finished_game


def test_how_to_win_names_the_goal_and_the_end() -> None:
    game = cruiselib.make("sirens")
    assert "4 points" in game.how_to_win
    assert "two passes in a row" in game.how_it_ends


def test_end_reason_names_the_rule_that_ended_each_seeded_game() -> None:
    game = cruiselib.make("sirens")
    said = set()
    for seed in range(30):
        state = finished_game(game, seed)
        reason = game.end_reason(state)
        assert reason is not None
        points = list(state.scores())
        top = max(points)
        if top >= 4:
            assert reason == f"Seat {points.index(top)} reached {top} points: 4 points win at once (S8)."
        else:
            assert reason.startswith("No ship card is left in play") and reason.endswith("(S8).")
        said.add(re.sub(r"\d", "#", reason))
    assert len(said) == 2  # both ends by S8 occur in these seeds


def test_end_reason_is_none_while_the_game_goes_on() -> None:
    game = cruiselib.make("sirens")
    assert game.end_reason(game.new_state(seed=1)) is None


def test_end_reason_of_two_passes_names_s4() -> None:
    # Random play from the seeds never passes twice: the branch read from a finished view.
    from types import SimpleNamespace

    from cruiselib.sirens._ending import end_reason

    view = SimpleNamespace(points=[2, 1], ships=[SimpleNamespace(in_play=True)], passes=2)
    state = SimpleNamespace(is_over=True, view=lambda player: view)
    assert end_reason(state) == (
        "Two passes in a row ended the game: the seat with more points wins, equal points are a draw (S4)."
    )
