"""How Sirens in Sight is won and why a game of it ended, in players' words (S4, S6, S8):
``SirensGame.how_to_win``, ``how_it_ends`` and ``end_reason``."""

from __future__ import annotations

from typing import Any

__all__ = ["HOW_IT_ENDS", "HOW_TO_WIN", "end_reason"]

HOW_TO_WIN = (
    "Play cards beside the five ship cards, on your side or your opponent's. A side whose cards add up "
    "to the ship's number (plus 3 for each rum mug on it) takes the ship card: 1 point, and 1 more for "
    "each crew token (captain, mate) on it. With five cards on both sides and neither at the number, the "
    "higher total takes it; equal totals remove it. First to 4 points wins."
)

HOW_IT_ENDS = (
    "At once when a seat reaches 4 points, or when no ship card is left in play (then the most points "
    "wins; equal points is a draw), or after two passes in a row."
)


def end_reason(state: Any) -> str | None:
    """Why the finished game ``state`` ended (S8: 4 points or no ship card left; S4: two
    passes in a row); None while it goes on."""
    if not state.is_over:
        return None
    view = state.view(0)
    points = list(view.points)
    top = max(points)
    if top >= 4:
        return f"Seat {points.index(top)} reached {top} points: 4 points win at once (S8)."
    if not any(ship.in_play for ship in view.ships):
        return "No ship card is left in play: the seat with more points wins, equal points are a draw (S8)."
    return "Two passes in a row ended the game: the seat with more points wins, equal points are a draw (S4)."
