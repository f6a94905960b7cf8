"""The two simplest bots, for every game: uniformly random and one-ply greedy.

Both are deterministic given their seed; their only state between calls is their
``random.Random``.
"""

from __future__ import annotations

import random
from typing import Any

from ._types import Candidate, with_texts

__all__ = ["GreedyBot", "RandomBot"]


class RandomBot:
    """Picks a legal action uniformly at random."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rnd = random.Random(seed)

    def choose(self, state: Any) -> int:
        return int(self._rnd.choice(state.legal_actions()))

    def analyse(self, state: Any) -> list[Candidate]:
        """Every legal move, in action order, with no value (all are equally likely)."""
        game = state.game
        return with_texts(state, [Candidate(action=a, move=str(game.action_to_move(a))) for a in state.legal_actions()])


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

    def _values(self, state: Any) -> list[tuple[int, float]]:
        seat = state.current_player
        out = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            out.append((action, self._value(child, seat)))
        return out

    def choose(self, state: Any) -> int:
        values = self._values(state)
        best_value = max(v for _, v in values)
        return int(self._rnd.choice([a for a, v in values if v == best_value]))

    def analyse(self, state: Any) -> list[Candidate]:
        """Every legal move with its one-ply value (the score margin after it), best first."""
        game = state.game
        rows = sorted(self._values(state), key=lambda row: (-row[1], row[0]))
        return with_texts(state, [Candidate(action=a, move=str(game.action_to_move(a)), value=v) for a, v in rows])
