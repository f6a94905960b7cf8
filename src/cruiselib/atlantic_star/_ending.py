"""How Atlantic Star is won and why a game of it ended, in players' words (A8):
``AtlanticStarGame.how_to_win``, ``how_it_ends`` and ``end_reason``."""

from __future__ import annotations

from typing import Any

__all__ = ["HOW_IT_ENDS", "HOW_TO_WIN", "end_reason"]

HOW_TO_WIN = (
    "Charter ships at the agency and stage voyages with them: a voyage in a sea needs as many ships as "
    "the sea has legs, and each suited ship adds its value (all legs suited: a bonus). The voyage's "
    "plaque takes the sea's field for its value; each field's board value is your victory points. A loan "
    "brings money against a staged voyage but lowers its value. Most points wins; a tie goes to the most "
    "money."
)

HOW_IT_ENDS = "When every sea holds its six plaques: every voyage has been staged."


def end_reason(state: Any) -> str | None:
    """Why the finished game ``state`` ended (A8: every plaque on the board, the game's one
    end); None while it goes on."""
    if not state.is_over:
        return None
    return "Every sea holds its six plaques: each seat scores the board values of its plaques' fields (A8)."
