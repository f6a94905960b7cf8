"""The commands that list, make, choose and take back moves: ``legal``, ``apply``, ``bot``,
``hint`` and ``undo``; each tells a move's texts only as the receiver may know them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cruiselib.bots import Candidate, SearchBot

from .failures import ReplyError
from .messages import (
    Apply,
    ApplyReply,
    BotCommand,
    BotReply,
    Command,
    Hint,
    HintMove,
    HintReply,
    Legal,
    LegalReply,
    Reply,
    Undo,
    UndoReply,
)
from .open_games import OpenGames
from .searches import Searches
from .session import outcome_fields
from .session_bots import bot_for, iterations_of

__all__ = ["MoveCommands"]


class MoveCommands:
    """``legal``, ``apply``, ``bot``, ``hint`` and ``undo`` on the open games of one
    session, the searches run among ``searches``."""

    def __init__(self, games: OpenGames, searches: Searches) -> None:
        self._games = games
        self._searches = searches

    def handlers(self) -> dict[type[Command], Callable[[Any], Reply]]:
        """Each command's handler, by request type."""
        return {Legal: self.legal, Apply: self.apply, BotCommand: self.bot, Hint: self.hint, Undo: self.undo}

    def legal(self, req: Legal) -> Reply:
        """The legal moves (ids and texts), for the seat to move only."""
        session = self._games.session(req.game_id)
        current: int = session.state.current_player
        # The lists are the seat to move's (they name its own cards): empty for another
        # seat, and in a game with a ``player`` for every seat but that one.
        player = session.player
        seat = req.seat if req.seat is not None else player
        if seat is not None:
            session.game.check_player(seat)
        if (seat is not None and seat != current) or (player is not None and seat != player):
            return LegalReply(id=req.id, current_player=current, actions=[], moves=[])
        actions, moves = session.legal()
        return LegalReply(id=req.id, current_player=current, actions=actions, moves=moves)

    def apply(self, req: Apply) -> Reply:
        """A legal move made, given by id or by text."""
        games = self._games
        session = games.session(req.game_id)
        if (req.action is None) == (req.move is None):
            raise ReplyError("bad_request", "apply takes an action (an id) or a move (its text), exactly one")
        seat = session.own_turn(req.seat)
        action = req.action if req.action is not None else session.parse_move(req.move or "")
        games.grow(session)
        state = session.state
        if not state.is_legal(action):
            state.apply(action, seat)  # refused: IllegalMoveError says why, the state is unchanged
        _, move, text = session.move_as_known(action, seat)  # before the move, to the seat making it
        state.apply(action, seat)
        games.played(session, 1)
        return ApplyReply(id=req.id, action=action, move=move, text=text, seat=seat, **outcome_fields(state))

    def bot(self, req: BotCommand) -> Reply:
        """A bot's move for the seat to move, made if the request says so."""
        games = self._games
        session = games.session(req.game_id)
        seat = session.seat_to_move(req.seat)
        bot = bot_for(session, seat, "bot", req)
        if req.apply:
            games.grow(session)  # before the search, not after it
        state = session.state
        if isinstance(bot, SearchBot):
            action = int(self._searches.run(req.id, lambda cancel: bot.choose(state, cancel=cancel)))
        else:
            action = int(bot.choose(state))
        # Told before the move, to the game's player (else every seat alike): the page of
        # a person facing the bot must not learn the card the bot put away.
        known_action, move, text = session.move_as_known(action, session.player)
        if req.apply:
            state.apply(action, seat)
            games.played(session, 1)
        return BotReply(
            id=req.id,
            action=known_action,
            move=move,
            text=text,
            seat=seat,
            **outcome_fields(state),
            bot=req.bot,
            iterations=iterations_of(bot),
            applied=req.apply,
        )

    def hint(self, req: Hint) -> Reply:
        """A bot's best moves for the seat to move, with their visits and values."""
        session = self._games.session(req.game_id)
        seat = session.own_turn(req.seat)
        bot = bot_for(session, seat, "hint", req)
        state = session.state
        if isinstance(bot, SearchBot):
            analysis = self._searches.run(req.id, lambda cancel: bot.analyse(state, cancel=cancel))
        else:
            analysis = bot.analyse(state)
        candidates: list[Candidate] = analysis[: req.count]
        listed = dict(zip(*session.legal(), strict=True))
        return HintReply(
            id=req.id,
            seat=seat,
            bot=req.bot,
            iterations=iterations_of(bot),
            hints=[
                HintMove(
                    action=c.action,
                    move=listed.get(c.action, c.move),
                    # The analysis tells its moves to the seat it is for (the seat to move).
                    text=c.text if c.text is not None else state.move_text(c.action, player=seat),
                    visits=c.visits,
                    value=None if c.value is None or c.value != c.value else float(c.value),
                )
                for c in candidates
            ],
        )

    def undo(self, req: Undo) -> Reply:
        """The last ``count`` actions taken back, in one replay (a failure leaves the game
        as it was)."""
        session = self._games.session(req.game_id)
        played = session.ply
        if req.count > played:
            raise ReplyError(
                "nothing_to_undo",
                f"cannot undo {req.count} action(s): the history holds {played}",
            )
        undone = [int(a) for a in session.state.take_back(req.count)]
        self._games.played(session, -req.count)
        ids, moves = session.undone_as_known(undone)
        return UndoReply(id=req.id, undone=ids, moves=moves, **session.status_fields())
