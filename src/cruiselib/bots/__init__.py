"""Bots that play any cruiselib game: uniformly random and one-ply greedy.

A bot is any object with ``choose(state) -> int`` returning a legal action id for
``state.current_player``. Both bots here are deterministic given their seed.

>>> import cruiselib
>>> from cruiselib.bots import GreedyBot, RandomBot
>>> state = cruiselib.make("sirens").new_state(seed=1)
>>> state.apply(GreedyBot(seed=1).choose(state))
"""

from __future__ import annotations

import random
from typing import Any, Protocol

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot"]


class Bot(Protocol):
    """Anything that picks a legal action for the seat to move."""

    def choose(self, state: Any) -> int: ...


class RandomBot:
    """Picks a legal action uniformly at random."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rnd = random.Random(seed)

    def choose(self, state: Any) -> int:
        return int(self._rnd.choice(state.legal_actions()))


class GreedyBot:
    """Looks one action ahead and keeps the best score margin for the seat to move.

    The margin is the seat's score minus the best other score, after the action; a won
    game counts far above any margin. Ties are broken at random. Cheap enough for
    simulations of many thousands of games.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._rnd = random.Random(seed)

    @staticmethod
    def _value(state: Any, seat: int) -> float:
        scores = state.scores()
        others = max((s for p, s in enumerate(scores) if p != seat), default=0)
        value = float(scores[seat] - others)
        if state.is_over:
            winners = state.winners()
            value += 1000.0 if seat in winners else (-1000.0 if winners else 0.0)
        return value

    def choose(self, state: Any) -> int:
        seat = state.current_player
        best: list[int] = []
        best_value = float("-inf")
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            value = self._value(child, seat)
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return int(self._rnd.choice(best))


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name ("random" or "greedy")."""
    from cruiselib.errors import InvalidOptionError

    try:
        return BOTS[name](seed)
    except KeyError:
        raise InvalidOptionError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}") from None
