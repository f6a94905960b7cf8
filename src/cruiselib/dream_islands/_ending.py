"""How Dream Islands is won and why a game of it ended, in players' words (I7, I9, I15):
``DreamIslandsGame.how_to_win``, ``how_it_ends`` and ``end_reason``."""

from __future__ import annotations

from typing import Any

__all__ = ["HOW_IT_ENDS", "HOW_TO_WIN", "end_reason"]

MISSIONS = 16  # the mission cards of a colour (I4)
MIDDLE = 6  # pieces in the middle that end the game (I7)

HOW_TO_WIN = (
    "Each turn cover a number on your board (2, 3, 4 or 5) and move your six pieces that many steps in "
    "total, from the airplane round the ring of eight islands and into the middle. Completing a mission "
    "card scores 2 points; the middle islands score their points, and all 16 missions 3 more. Most "
    "points wins; a tie goes to the most missions, then the win is shared."
)

HOW_IT_ENDS = (
    "When a player completes the last of the 16 missions, or six pieces stand in the middle, the round "
    "is played out to its last seat and then scored."
)


def end_reason(state: Any) -> str | None:
    """Why the finished game ``state`` ended (I7: all 16 missions or six pieces in the
    middle; I9: the game's round limit; I15: the round counter's cap); None while it goes
    on."""
    if not state.is_over:
        return None
    view = state.view(0)
    done = next((seat for seat in view.seats if len(seat.completed) >= MISSIONS), None)
    if done is not None:
        return f"Seat {done.seat} completed all {MISSIONS} missions: the round was played out and scored (I7)."
    middle = sum(seat.middle for seat in view.seats)
    if middle >= MIDDLE:
        return f"{middle} pieces stand in the middle: the round was played out and scored (I7)."
    if view.max_rounds:
        return f"The game's {view.max_rounds} rounds were played: it was scored (I9)."
    return f"The round counter reached its cap after {view.rounds} rounds: the game was scored (I15)."
