"""Bots for every cruiselib game, behind one interface.

A bot has ``choose(state) -> int`` (a legal action id for ``state.current_player``;
``state`` is left unchanged) and ``analyse(state) -> list[Candidate]`` (the moves it
weighed, best first, with visit counts and values where it has them). Every bot is
deterministic for a seed; each documents what it keeps between calls.

==================  ====================================================================
``random``          :class:`RandomBot`: a uniformly random legal move
``greedy``          :class:`GreedyBot`: the best score margin one action ahead
``rules``           :class:`RuleBot`: a sensible beginner's heuristics, per game
``ismcts``          :class:`ISMCTSBot`: information-set Monte Carlo tree search in the core
``cheating_mcts``   :class:`CheatingMCTSBot`: MCTS that sees the hidden cards (analysis only)
``policy``          :class:`PolicyBot`: a trained policy network, played with numpy alone
==================  ====================================================================

>>> import cruiselib
>>> from cruiselib.bots import make_bot
>>> state = cruiselib.make("sirens").new_state(seed=1)
>>> bot = make_bot("ismcts", iterations=300, seed=1)
>>> state.apply(bot.choose(state))
"""

from __future__ import annotations

import inspect
from typing import Any

from cruiselib.errors import InvalidOptionError

from ._types import Bot, Candidate
from .basic import GreedyBot, RandomBot
from .policy import PolicyBot
from .rules import RuleBot
from .search import CheatingMCTSBot, ISMCTSBot, SearchBot

__all__ = [
    "BOTS",
    "Bot",
    "Candidate",
    "CheatingMCTSBot",
    "GreedyBot",
    "ISMCTSBot",
    "PolicyBot",
    "RandomBot",
    "RuleBot",
    "SearchBot",
    "make_bot",
]

BOTS: dict[str, type[Any]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "rules": RuleBot,
    "ismcts": ISMCTSBot,
    "cheating_mcts": CheatingMCTSBot,
    "policy": PolicyBot,
}


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot by name (see :data:`BOTS`) with its options, e.g.
    ``make_bot("ismcts", iterations=2000, uct_c=1.0, seed=1)``.

    Raises InvalidOptionError for an unknown name or option, naming what is accepted.
    """
    try:
        cls = BOTS[name]
    except (KeyError, TypeError):
        raise InvalidOptionError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}") from None
    accepted = [p for p in inspect.signature(cls).parameters if p != "seed"]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        allowed = ", ".join(accepted) if accepted else "none"
        raise InvalidOptionError(f"bot {name!r} has no option {', '.join(unknown)}; its options: {allowed}")
    bot: Bot = cls(seed=seed, **options)
    return bot
