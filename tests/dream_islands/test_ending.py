"""Dream Islands' how to win and end reasons (I7, I9): the game's declarations."""

from __future__ import annotations

from typing import Any

import cruiselib
from tests.support import finished_game


def test_how_to_win_names_the_missions_and_the_end() -> None:
    game = cruiselib.make("dream_islands")
    assert "mission" in game.how_to_win
    assert "16 missions" in game.how_it_ends and "middle" in game.how_it_ends


def test_end_reason_of_seeded_games_says_the_pieces_in_the_middle() -> None:
    game = cruiselib.make("dream_islands")
    for seed in range(10):
        state = finished_game(game, seed)
        middle = sum(seat.middle for seat in state.view(0).seats)
        assert middle >= 6
        assert (
            game.end_reason(state) == f"{middle} pieces stand in the middle: the round was played out and scored (I7)."
        )


def test_end_reason_of_a_round_limit_names_it() -> None:
    game = cruiselib.make("dream_islands", max_rounds=2)
    assert game.end_reason(finished_game(game, 3)) == "The game's 2 rounds were played: it was scored (I9)."
    assert game.end_reason(game.new_state(seed=3)) is None


def test_end_reason_of_all_missions_and_of_the_round_cap() -> None:
    # Random play ends with pieces in the middle: the other branches read from finished views.
    from types import SimpleNamespace

    from cruiselib.dream_islands._ending import end_reason

    def over(seats: list[Any], max_rounds: int | None = None, rounds: int = 9) -> Any:
        view = SimpleNamespace(seats=seats, max_rounds=max_rounds, rounds=rounds)
        return SimpleNamespace(is_over=True, view=lambda player: view)

    all_done = [
        SimpleNamespace(seat=0, completed=[1], middle=1),
        SimpleNamespace(seat=1, completed=list(range(16)), middle=2),
    ]
    assert end_reason(over(all_done)) == "Seat 1 completed all 16 missions: the round was played out and scored (I7)."
    few = [SimpleNamespace(seat=0, completed=[], middle=1)]
    capped = end_reason(over(few, rounds=2_147_483_647))
    assert capped is not None and capped.endswith("after 2147483647 rounds: the game was scored (I15).")
