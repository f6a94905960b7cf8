"""Dream Cruise's how to win and end reasons (C8, C20): the game's declarations."""

from __future__ import annotations

import cruiselib
from tests.support import finished_game


def test_how_to_win_names_families_routes_and_jana() -> None:
    game = cruiselib.make("dream_cruise")
    assert "families" in game.how_to_win and "Jana" in game.how_to_win
    assert "family deck runs out" in game.how_it_ends


def test_four_seats_run_out_of_location_cards_c20() -> None:
    game = cruiselib.make("dream_cruise", players=4)
    state = finished_game(game, 0)
    reason = game.end_reason(state)
    assert reason == (
        f"No location card was left to draw (C20): round {state.view(0).round} was the last, "
        "and every seat's families, routes and placed guests were counted."
    )


def test_two_seats_and_solo_run_out_of_families_c8() -> None:
    for players in (1, 2):
        game = cruiselib.make("dream_cruise", players=players)
        for seed in range(3):
            reason = game.end_reason(finished_game(game, seed))
            assert reason is not None and reason.startswith("The family deck ran out (C8, C16): round ")


def test_end_reason_leaves_the_state_as_it_was() -> None:
    # The last round's cause is read where that round began, on a copy of the state.
    game = cruiselib.make("dream_cruise", players=2)
    state = finished_game(game, 1)
    history = list(state.history)
    assert game.end_reason(state) is not None
    assert list(state.history) == history and state.is_over
    assert game.end_reason(game.new_state(seed=1)) is None
