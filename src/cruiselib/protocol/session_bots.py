"""The bots of an open game (``bot`` and ``hint``): made once per seat, name, options and
seed and kept in the game (so a seeded bot plays on deterministically), every search bot
bounded in iterations and in time.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

import msgspec

from cruiselib.bots import BOTS, Bot, SearchBot, make_bot
from cruiselib.errors import CruiseError, InvalidOptionError

from . import limits
from .messages import BotRequest
from .session import Session

__all__ = ["bot_for", "iterations_of"]


def bot_for(session: Session, seat: int, kind: str, request: BotRequest) -> Bot:
    """The bot ``request`` names for ``seat`` of ``session`` (``kind``: the command), made
    once and kept; InvalidOptionError for a bad name, option or budget."""
    name = request.bot
    cls = BOTS.get(name)
    if cls is None:
        raise InvalidOptionError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}")
    options = dict(request.options)
    if "seed" in options:
        raise InvalidOptionError("give the bot's seed as the request's seed, not as an option")
    if issubclass(cls, SearchBot):
        _bound_search(options, request)
    try:
        key = (seat, kind, name, msgspec.json.encode(options, order="sorted"), request.seed)
    except (TypeError, ValueError) as exc:  # pragma: no cover - decoded from JSON
        raise InvalidOptionError(f"bot options: {exc}") from None
    bot = session.bots.get(key)
    if bot is not None:
        session.bots.move_to_end(key)
        return bot
    seed = request.seed if request.seed is not None else secrets.randbits(63)
    try:
        bot = make_bot(name, seed=seed, **options)  # type: ignore[arg-type]
    except CruiseError:
        raise
    except (TypeError, ValueError) as exc:
        raise InvalidOptionError(f"bad options for bot {name!r}: {exc}") from None
    session.bots[key] = bot
    if len(session.bots) > limits.MAX_BOTS_PER_GAME:
        session.bots.popitem(last=False)
    return bot


def iterations_of(bot: Bot) -> int | None:
    """The iterations of a search bot's last search (None for a bot that does not search)."""
    return int(bot.last_iterations) if isinstance(bot, SearchBot) else None


def _bound_search(options: dict[str, Any], request: BotRequest) -> None:
    """A search bot's options with the request's budget, checked, and bounded: in time
    whatever its iterations, in iterations (the tree's memory) whatever its time."""
    if request.iterations is not None:
        options["iterations"] = request.iterations
    if request.seconds is not None:
        options["seconds"] = request.seconds
        options.setdefault("iterations", None)
    _check_budget(options)
    if options.get("iterations", limits.DEFAULT_ITERATIONS) is None:
        options["iterations"] = limits.MAX_ITERATIONS
    if options.get("seconds") is None:
        options["seconds"] = limits.MAX_SECONDS


def _check_budget(options: Mapping[str, Any]) -> None:
    """A search budget within the engine's limits (the bot checks the rest)."""
    iterations, seconds = options.get("iterations", limits.DEFAULT_ITERATIONS), options.get("seconds")
    if iterations is None and seconds is None:
        raise InvalidOptionError("give a search bot a budget: iterations, seconds or both")
    most_iterations, most_seconds = limits.MAX_ITERATIONS, limits.MAX_SECONDS
    if isinstance(iterations, int) and not isinstance(iterations, bool) and iterations > most_iterations:
        raise InvalidOptionError(f"iterations is at most {most_iterations:,} here, not {iterations}")
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and not seconds <= most_seconds:
        raise InvalidOptionError(f"seconds is at most {most_seconds:g} here, not {seconds}")
