"""The rule-based bot: a sensible beginner's heuristics, one set per game.

Each game declares its own rule-based bot (``Game.rule_bot``, ``"package.module:Class"``;
cruiselib's games keep theirs in ``cruiselib.<game>.rulebot`` and document it in the
game's docs page, "Rule-based bot"). :class:`RuleBot` plays any game by handing each
position to its game's bot (one per game, made on first use with this bot's seed).
"""

from __future__ import annotations

import importlib
from typing import Any

from cruiselib.errors import InvalidOptionError

from ._types import Candidate

__all__ = ["RuleBot"]


def rule_bot_class(game_class: type[Any]) -> Any:
    """The class ``game_class.rule_bot`` names; InvalidOptionError, naming the game, for a
    game that declares none (or a declaration that names no class)."""
    target = getattr(game_class, "rule_bot", None)
    name = getattr(game_class, "name", game_class.__name__)
    if target is None:
        raise InvalidOptionError(f"the game {name!r} has no rule-based bot (its class declares no rule_bot)")
    module_name, sep, attr = target.partition(":") if isinstance(target, str) else ("", "", "")
    if not sep or not module_name or not attr:
        raise InvalidOptionError(f"the game {name!r} declares rule_bot {target!r}: give 'package.module:Class'")
    try:
        cls = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        cls = exc
    if not isinstance(cls, type):
        raise InvalidOptionError(f"the game {name!r} declares rule_bot {target!r}, which names no class: {cls}")
    return cls


class RuleBot:
    """Plays every game by its game's rule-based bot; decides from the seat's view only.

    State between calls: each game's bot keeps a ``random.Random`` for breaking ties.
    """

    name = "rules"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._bots: dict[str, Any] = {}  # by game name

    def _bot(self, state: Any) -> Any:
        game = state.game
        bot = self._bots.get(game.name)
        if bot is None:
            bot = self._bots[game.name] = rule_bot_class(type(game))(seed=self.seed)
        return bot

    def choose(self, state: Any) -> int:
        return int(self._bot(state).choose(state))

    def analyse(self, state: Any) -> list[Candidate]:
        result: list[Candidate] = self._bot(state).analyse(state)
        return result
