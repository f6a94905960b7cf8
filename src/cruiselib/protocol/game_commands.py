"""The commands that open, show, keep and close games: ``new``, ``list``, ``status``,
``view``, ``render``, ``save``, ``load`` and ``close``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

import msgspec

from cruiselib.errors import InvalidStateError

from .failures import ReplyError
from .messages import (
    Close,
    CloseReply,
    Command,
    GameSummary,
    List,
    ListReply,
    Load,
    New,
    NewReply,
    Render,
    RenderReply,
    Reply,
    Save,
    SaveReply,
    Status,
    StatusReply,
    View,
    ViewReply,
)
from .open_games import OpenGames

__all__ = ["GameCommands"]


class GameCommands:
    """``new``, ``list``, ``status``, ``view``, ``render``, ``save``, ``load`` and ``close``
    on the open games of one session."""

    def __init__(self, games: OpenGames) -> None:
        self._games = games

    def handlers(self) -> dict[type[Command], Callable[[Any], Reply]]:
        """Each command's handler, by request type."""
        return {
            New: self.new,
            List: self.list_games,
            Status: self.status,
            View: self.view,
            Render: self.render,
            Save: self.save,
            Load: self.load,
            Close: self.close,
        }

    def new(self, req: New) -> Reply:
        """A new game of a configuration, dealt from the request's seed (else a random one),
        or set up from a described position (its hidden rest dealt from the seed)."""
        if req.position is not None and req.start_player is not None:
            raise ReplyError("bad_request", "a position says whose turn it is: start_player goes without it")
        games = self._games
        config = games.cache.checkout(req.game, req.options, games.quota)
        seed: int | str = req.seed if req.seed is not None else secrets.randbits(53)
        player = req.player
        try:
            if req.position is not None:
                described = config.game.read_position(req.position)
                if described.seat is not None:  # a seat's view: the game is played for that seat
                    if player is not None and player != described.seat:
                        raise ReplyError(
                            "bad_request",
                            f"the position is seat {described.seat}'s view: player is {described.seat} or left out",
                        )
                    player = described.seat
                state = config.game.from_position(described, seed=seed)
            else:
                state = config.game.new_state(seed=seed, start_player=req.start_player)
        except BaseException:
            games.cache.release(config)
            raise
        session = games.open(state, config, player)
        return NewReply(id=req.id, seed=seed, **session.status_fields())

    def list_games(self, req: List) -> Reply:
        """The open games, each in a line."""
        return ListReply(
            id=req.id,
            games=[
                GameSummary(
                    game_id=s.game_id, game=s.game.name, current_player=s.state.current_player, is_over=s.state.is_over
                )
                for s in self._games.values()
            ],
        )

    def status(self, req: Status) -> Reply:
        """An open game's status."""
        return StatusReply(id=req.id, **self._games.session(req.game_id).status_fields())

    def view(self, req: View) -> Reply:
        """What one seat sees of an open game."""
        session = self._games.session(req.game_id)
        seat = session.game.check_player(req.seat)
        return ViewReply(id=req.id, seat=seat, view=session.state.view(seat, recall=req.recall))

    def render(self, req: Render) -> Reply:
        """An open game drawn as text, for every seat or for one."""
        session = self._games.session(req.game_id)
        seat = None if req.seat is None else session.game.check_player(req.seat)
        return RenderReply(id=req.id, text=session.game.render(session.state, seat, compact=req.compact))

    def save(self, req: Save) -> Reply:
        """An open game's snapshot, its record, or both (a snapshot alone where the game
        does not know its deal)."""
        state = self._games.session(req.game_id).state
        snapshot = msgspec.Raw(state.to_json().encode()) if req.snapshot else None
        record = None
        if req.record:
            try:
                record = msgspec.Raw(state.record().to_json().encode())
            except InvalidStateError:
                if not req.snapshot:
                    raise
        return SaveReply(id=req.id, snapshot=snapshot, record=record)

    def load(self, req: Load) -> Reply:
        """A game opened from a snapshot or a record."""
        games = self._games
        snapshot, record = _raw_value(req.snapshot), _raw_value(req.record)
        if (snapshot is None) == (record is None):
            raise ReplyError("bad_request", "load takes a snapshot or a record, exactly one")
        if record is not None:
            if req.game is not None or req.options:
                raise ReplyError("bad_request", "a record names its game and options itself")
            state, config = games.replay(record)
        elif req.game is not None:
            config = games.cache.checkout(req.game, req.options, games.quota)
            try:
                state = config.game.load_state(snapshot)
            except BaseException:
                games.cache.release(config)
                raise
        else:
            if req.options:
                raise ReplyError("bad_request", "options need the game's name (game)")
            assert snapshot is not None
            state, config = games.load_snapshot(snapshot)
        session = games.open(state, config, req.player)
        return StatusReply(id=req.id, **session.status_fields())

    def close(self, req: Close) -> Reply:
        """An open game closed."""
        self._games.close(req.game_id)
        return CloseReply(id=req.id, game_id=req.game_id)


def _raw_value(raw: msgspec.Raw) -> str | bytes | None:
    """A snapshot or record field: None if absent, the text of a JSON string, else the
    JSON object's bytes."""
    data = bytes(raw)
    if not data:
        return None
    try:
        if data[:1] == b'"':
            text: str = msgspec.json.decode(data, type=str)
            text.encode()  # no lone surrogates
            return text
        data.decode()  # a raw value's strings are not checked by the line's decoder
    except (msgspec.DecodeError, UnicodeError) as exc:
        raise ReplyError(
            "bad_json", f"not a JSON line: invalid UTF-8 or a lone surrogate in a string ({exc})"
        ) from None
    return data
