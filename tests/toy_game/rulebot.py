"""Toy Duel's rule-based bot: take a trick with the lowest card that does it; lead and
throw away the lowest card. It decides from the seat's view only."""

from __future__ import annotations

import random
from typing import Any

from cruiselib.bots import Candidate

__all__ = ["RuleBot"]


class RuleBot:
    """A beginner's heuristics for Toy Duel (values: higher is better)."""

    name = "rules"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def _ranked(self, state: Any) -> list[tuple[int, float]]:
        view = state.view(state.current_player)
        scored: list[tuple[int, float]] = []
        for a in view.legal_actions:
            # Taking the trick: the cheaper card the better; leading or losing: keep the high cards.
            value = 20.0 - a if view.led >= 0 and a > view.led else -float(a)
            scored.append((a, value + self.rng.random() * 1e-3))
        scored.sort(key=lambda item: -item[1])
        return scored

    def choose(self, state: Any) -> int:
        return self._ranked(state)[0][0]

    def analyse(self, state: Any) -> list[Candidate]:
        game = state.game
        return [Candidate(action=a, move=str(game.action_to_move(a)), value=v) for a, v in self._ranked(state)]
