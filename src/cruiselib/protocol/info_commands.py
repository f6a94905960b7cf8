"""The commands that describe the engine rather than a game: ``hello`` (the handshake and
the session's limits), ``ping``, ``games`` (every registered game and its options) and
``bots`` (every bot and its options).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import msgspec

import cruiselib
from cruiselib.bots import BOTS, SearchBot

from . import limits
from .failures import ReplyError
from .messages import (
    BotInfo,
    Bots,
    BotsReply,
    Command,
    GameInfo,
    Games,
    GamesReply,
    Hello,
    HelloReply,
    Limits,
    Ping,
    Reply,
)
from .open_games import OpenGames

__all__ = ["InfoCommands"]


class InfoCommands:
    """``hello``, ``ping``, ``games`` and ``bots`` for the session of ``games`` (its limits
    and its cache); the games' descriptions are made once, at the first ``games``."""

    def __init__(self, games: OpenGames) -> None:
        self._games = games
        self._game_infos: list[GameInfo] | None = None

    def handlers(self) -> dict[type[Command], Callable[[Any], Reply]]:
        """Each command's handler, by request type."""
        return {Hello: self.hello, Ping: self.ping, Games: self.games, Bots: self.bots}

    def hello(self, req: Hello) -> Reply:
        """The handshake: the protocol's versions, the library's, the games, the bots and
        the session's limits."""
        versions = limits.SUPPORTED_VERSIONS
        if req.version is not None and req.version not in versions:
            raise ReplyError(
                "unsupported_version",
                f"this engine speaks {limits.PROTOCOL} version(s) {', '.join(map(str, versions))}, not {req.version}",
            )
        games = self._games
        return HelloReply(
            id=req.id,
            protocol=limits.PROTOCOL,
            version=limits.VERSION,
            versions=list(versions),
            cruiselib=cruiselib.__version__,
            compiled=bool(cruiselib.compiled),
            games=list(cruiselib.games()),
            bots=list(BOTS),
            limits=Limits(
                games=games.max_games,
                configurations=min(games.max_configurations, games.cache.max_configurations),
                ply=limits.MAX_PLY,
                session_ply=games.max_session_ply,
            ),
        )

    def ping(self, req: Ping) -> Reply:
        """An empty reply."""
        return Reply(id=req.id)

    def games(self, req: Games) -> Reply:
        """Every registered game: its title, seats, actions and default options."""
        if self._game_infos is None:
            from cruiselib._registry import game_class

            cache = self._games.cache
            infos = []
            for name in cruiselib.games():
                config = cache.checkout(name, {})
                cache.release(config)
                game = config.game
                params = inspect.signature(game_class(name).__init__).parameters
                defaults = {p.name: p.default for p in params.values() if p.name != "self"}
                infos.append(
                    GameInfo(
                        name=name,
                        title=game.title,
                        num_players=game.num_players,
                        num_actions=game.num_actions,
                        options=msgspec.to_builtins(defaults),
                    )
                )
            self._game_infos = infos
        return GamesReply(id=req.id, games=self._game_infos)

    def bots(self, req: Bots) -> Reply:
        """Every bot: whether it searches, and its options with their defaults."""
        infos = []
        for name, cls in BOTS.items():
            params = inspect.signature(cls).parameters
            defaults = {p.name: p.default for p in params.values() if p.name != "seed"}
            infos.append(BotInfo(name=name, search=issubclass(cls, SearchBot), options=msgspec.to_builtins(defaults)))
        return BotsReply(id=req.id, bots=infos)
