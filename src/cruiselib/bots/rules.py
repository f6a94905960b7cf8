"""The rule-based bot: a sensible beginner's heuristics, one set per game.

Each game declares its own rule-based bot (``Game.rule_bot``, ``"package.module:Class"``;
cruiselib's games keep theirs in ``cruiselib.<game>.rulebot`` and document it in the
game's docs page, "Rule-based bot"). :class:`RuleBot` plays any game by handing each
position to its game's bot (one per game, made on first use with this bot's seed).
"""

from __future__ import annotations

from typing import Any

from cruiselib.integration import resolve_rule_bot

from ._types import Candidate, with_texts

__all__ = ["RuleBot"]


def rule_bot_class(game_class: type[Any]) -> Any:
    """The class ``game_class.rule_bot`` names; InvalidOptionError, naming the game, for a
    game that declares none (or a declaration that names no class)."""
    return resolve_rule_bot(game_class)


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
        """The game's bot's candidates, best first, with the position's move texts."""
        return with_texts(state, self._ranked(state))

    def _ranked(self, state: Any) -> list[Candidate]:
        """The game's bot's candidates without the texts (for a search's shortlist, which
        reads only the actions)."""
        result: list[Candidate] = self._bot(state).analyse(state)
        return result
