"""The open games of one engine's session (:class:`OpenGames`): their ids, the bounds they
keep (games open, actions held, configurations used) and the opening of a game from a new
state, a snapshot or a record in the cached game object of its configuration.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import cruiselib
from cruiselib.errors import CruiseError, InvalidOptionError, InvalidStateError
from cruiselib.records import decode_snapshot

from . import limits
from .cache import GameCache, GameConfig
from .failures import ReplyError
from .session import Session

__all__ = ["OpenGames"]


class OpenGames(Mapping[str, Session]):
    """The open games of one session by id, within their bounds: at most ``max_games`` open,
    ``max_session_ply`` actions held together (each game at most
    :data:`~cruiselib.protocol.MAX_PLY`) and ``max_configurations`` configurations of
    ``cache`` used besides the games' defaults."""

    def __init__(self, cache: GameCache, max_games: int, max_configurations: int, max_session_ply: int) -> None:
        self.cache = cache
        self.max_games = max_games
        self.max_configurations = max_configurations
        self.max_session_ply = max_session_ply
        self.ply = 0  # actions held by the open games together
        self._by_id: dict[str, Session] = {}
        self._next_id = 1

    def __getitem__(self, game_id: str) -> Session:
        return self._by_id[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)

    def session(self, game_id: str) -> Session:
        """The open game ``game_id``; ReplyError ``unknown_game`` if there is none."""
        try:
            return self._by_id[game_id]
        except KeyError:
            raise ReplyError("unknown_game", f"no open game {game_id!r}") from None

    # ------------------------------------------------------------------ opening and closing

    def open(self, state: Any, config: GameConfig, player: int | None = None) -> Session:
        """A new open game of ``state``, which holds ``config`` (released if it fails),
        played by seat ``player`` (None: the client did not say)."""
        try:
            if player is not None:
                config.game.check_player(player)
            if len(self._by_id) >= self.max_games:
                raise ReplyError("too_many_games", f"{self.max_games} games are open: close some first")
            ply = len(state.history)
            self._check_ply(ply, None)
            if ply == 0 and self.ply >= self.max_session_ply:  # a new game adds none, but the session is full
                self._check_ply(1, None)
        except BaseException:
            self.cache.release(config)
            raise
        game_id = f"g{self._next_id}"
        self._next_id += 1
        session = self._by_id[game_id] = Session(game_id, state, config, ply, player)
        self.ply += ply
        self.cache.hold(config, session)
        return session

    def close(self, game_id: str) -> None:
        """Close the open game ``game_id``; ReplyError ``unknown_game`` if there is none."""
        session = self._by_id.pop(game_id, None)
        if session is None:
            raise ReplyError("unknown_game", f"no open game {game_id!r}")
        self.ply -= session.ply

    def close_all(self) -> None:
        """Close every open game."""
        self._by_id.clear()
        self.ply = 0

    def checkout(
        self, name: str, options: Mapping[str, Any], error: type[CruiseError] = InvalidOptionError
    ) -> GameConfig:
        """The cache's configuration (pinned) within this session's share; an option error
        raised as ``error``."""
        try:
            return self.cache.checkout(name, options, self.quota)
        except InvalidOptionError as exc:
            if error is InvalidOptionError:
                raise
            raise error(f"the options are not valid: {exc}") from None

    def load_snapshot(self, data: str | bytes) -> tuple[Any, GameConfig]:
        """A snapshot's state in the cached game of its configuration (a snapshot of a
        custom card or ship list, which names it only by fingerprint, in a cached game of
        that list if there is one), and that configuration, pinned."""
        name, cls, decoded = decode_snapshot(data)
        try:
            options = cls._options_of_snapshot(decoded)
        except InvalidStateError as exc:
            for config in self.cache.configs(name):
                try:
                    state = config.game.load_state(data)
                except InvalidStateError:
                    continue
                return state, self.cache.adopt(config.game, quota=self.quota, default=config.default)
            raise exc from None
        config = self.checkout(name, options, InvalidStateError)
        try:
            return config.game._load_decoded(decoded), config
        except BaseException:
            self.cache.release(config)
            raise

    def replay(self, data: str | bytes) -> tuple[Any, GameConfig]:
        """A record's final state, replayed in the cached game of its configuration, and
        that configuration, pinned."""
        from cruiselib.records import _as_record

        record = _as_record(data)
        self._check_ply(len(record.actions), None)  # before the replay, which costs per action
        config = self.checkout(record.game, record.options, InvalidStateError)
        try:
            return cruiselib.replay(record, game=config.game), config
        except BaseException:
            self.cache.release(config)
            raise

    # ------------------------------------------------------------------ bounds

    def quota(self, config: GameConfig | None) -> None:
        """Refuse (``too_many_configurations``) a configuration that is new to this
        session's open games (``config``, or None for one not in the cache) once they use
        ``max_configurations`` (the games' defaults not counted). Called by the cache."""
        if config is not None and config.default:
            return
        held = {id(s.config) for s in self._by_id.values() if not s.config.default}
        if config is not None and id(config) in held:
            return
        if len(held) >= self.max_configurations:
            raise ReplyError(
                "too_many_configurations",
                f"this session's open games use {len(held)} game configurations besides the games' defaults"
                f" (the most it may): close some, or use one of theirs or a game's default options",
            )

    def grow(self, session: Session) -> None:
        """Refuse one more action in ``session`` beyond the game's or the session's bound."""
        if session.ply >= limits.MAX_PLY or self.ply >= self.max_session_ply:
            self._check_ply(session.ply + 1, session)

    def played(self, session: Session, count: int) -> None:
        """Count ``count`` actions applied to ``session`` (taken back if negative)."""
        session.ply += count
        self.ply += count

    def _check_ply(self, ply: int, session: Session | None) -> None:
        """Refuse a game of ``ply`` actions: one loaded (``session`` None: ``invalid_state``
        beyond MAX_PLY) or ``session`` grown to it (``game_too_long``), and either beyond the
        session's ``max_session_ply`` (``too_many_actions``)."""
        most = limits.MAX_PLY
        if ply > most:
            if session is None:
                raise InvalidStateError(f"the game holds {ply:,} actions: at most {most:,} are loaded here")
            raise ReplyError(
                "game_too_long", f"the game holds {session.ply:,} actions, the most one game may hold here"
            )
        total = self.ply + ply - (session.ply if session is not None else 0)
        if total > self.max_session_ply:
            raise ReplyError(
                "too_many_actions",
                f"this session's open games would hold {total:,} actions together, more than the"
                f" {self.max_session_ply:,} they may: close some games first",
            )
