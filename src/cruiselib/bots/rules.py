"""The rule-based bot: a sensible beginner's heuristics, one set per game.

Each game's heuristics live in ``cruiselib.<game>.rulebot`` and are documented in the
game's docs page ("Rule-based bot"). :class:`RuleBot` plays any game by handing each
position to its game's bot (one per game, made on first use with this bot's seed).
"""

from __future__ import annotations

import importlib
from typing import Any

from ._types import Candidate

__all__ = ["RuleBot"]


class RuleBot:
    """Plays every game by its game's rule-based bot; decides from the seat's view only.

    State between calls: each game's bot keeps a ``random.Random`` for breaking ties.
    """

    name = "rules"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._bots: dict[str, Any] = {}

    def _bot(self, state: Any) -> Any:
        name = state.game.name
        bot = self._bots.get(name)
        if bot is None:
            module = importlib.import_module(f"cruiselib.{name}.rulebot")
            bot = self._bots[name] = module.RuleBot(seed=self.seed)
        return bot

    def choose(self, state: Any) -> int:
        return int(self._bot(state).choose(state))

    def analyse(self, state: Any) -> list[Candidate]:
        result: list[Candidate] = self._bot(state).analyse(state)
        return result
