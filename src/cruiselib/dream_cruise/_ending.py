"""How Dream Cruise is won and why a game of it ended, in players' words (C8, C16, C20):
``DreamCruiseGame.how_to_win``, ``how_it_ends`` and ``end_reason``."""

from __future__ import annotations

from typing import Any

__all__ = ["HOW_IT_ENDS", "HOW_TO_WIN", "end_reason"]

HOW_TO_WIN = (
    "Fill your ship's three cabins with families and send their guests to the activities they want: on "
    "your location card, on activity cards played onto it, on additions built on your ship. A family "
    "whose guests have all had their activity is satisfied and scores its points. Sailing routes score "
    "too: 2 / 3 / 4 / 5+ location cards of one region score 1 / 3 / 6 / 9 (one open-sea card may join a "
    "route). Most points wins. Alone, you play against Jana, who draws a family each round and takes the "
    "location cards you discard: you win only with more points than her."
)

HOW_IT_ENDS = (
    "The round in which the family deck runs out (or no location card is left to draw) is the last: after "
    "it, families, routes and guests still placed (1 point per 2) are counted."
)


def _last_round_began(state: Any) -> Any:
    """The position just after the move that made the finished game's round its last (the
    state itself where its history does not reach that far)."""
    walk = state.clone()
    after = walk.clone()
    while walk.history and walk.view(0).final_round:
        after = walk.clone()
        walk.undo()
    return after


def end_reason(state: Any) -> str | None:
    """Why the finished game ``state`` ended: the family deck had to be refilled from its
    discard pile (C8, C16), or a location card had to be drawn from an empty deck and
    discard pile (C20); that round was the last. None while the game goes on."""
    if not state.is_over:
        return None
    view = state.view(0)
    when = _last_round_began(state).view(0)
    # A location draw that found nothing (C20) leaves the deck and its discard pile empty
    # in the move that made the round the last; a family refill (C8) does not.
    if when.location_deck == 0 and not when.location_discard:
        why = "No location card was left to draw (C20)"
    else:
        why = "The family deck ran out (C8, C16)"
    return f"{why}: round {view.round} was the last, and every seat's families, routes and placed guests were counted."
