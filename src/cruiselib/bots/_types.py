"""What every bot shares: the protocol, and the candidate moves of an analysis."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import msgspec

__all__ = ["Bot", "Candidate", "with_texts"]


class Candidate(msgspec.Struct, frozen=True):
    """One move a bot considered for the seat to move.

    ``value`` is the bot's estimate of the move for that seat: for search bots the mean
    return in [-1, 1] (+1 a win, -1 a loss), for the rule-based bot its heuristic score
    (higher is better; documented per game). ``visits`` is how often search tried the move
    (0 for bots that do not search).

    ``move`` is the move's plain text (what ``state.parse_move`` reads back); ``text`` is
    the move as this position says it, naming what it acts on (``state.move_text`` for
    the seat to move, which may name that seat's own hidden cards). Every built-in bot
    fills ``text``; None from a bot that does not.
    """

    action: int
    move: str
    visits: int = 0
    value: float | None = None
    text: str | None = None


def with_texts(state: Any, candidates: list[Candidate]) -> list[Candidate]:
    """``candidates`` with ``text``: each move as ``state.move_text`` says it to the seat
    to move (the seat the analysis is for)."""
    seat = state.current_player
    return [msgspec.structs.replace(c, text=state.move_text(c.action, player=seat)) for c in candidates]


@runtime_checkable
class Bot(Protocol):
    """Anything that picks a legal action for ``state.current_player``.

    ``choose`` returns an action id (legal in ``state``) and never changes ``state``;
    ``analyse`` returns the candidate moves it weighed, best first.
    """

    name: str

    def choose(self, state: Any) -> int: ...

    def analyse(self, state: Any) -> list[Candidate]: ...
