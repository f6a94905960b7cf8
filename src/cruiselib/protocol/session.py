"""One open game of an engine's session (:class:`Session`): its state, its bots, the seat
its client plays, and what it tells that client: the texts of its moves (as ``legal`` lists
them, as each seat may know them), the seat to move as a request may act for it, and the
fields of its status.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from typing import Any

from cruiselib.bots import Bot

from .cache import GameConfig
from .failures import ReplyError

__all__ = ["Session", "outcome_fields"]


class Session:
    """One open game: its state, its bots (per seat and configuration), the plain texts of
    its configuration's moves and the seat its client plays (``player``, None if the client
    did not say)."""

    __slots__ = (
        "__weakref__",
        "annotated",
        "bots",
        "config",
        "game",
        "game_id",
        "plain_texts",
        "player",
        "ply",
        "state",
    )

    def __init__(self, game_id: str, state: Any, config: GameConfig, ply: int, player: int | None = None) -> None:
        self.game_id = game_id
        self.state = state
        self.ply = ply  # len(state.history), kept here: the history is copied when asked
        self.game: Any = state.game
        self.config = config  # held: the cache keeps a configuration while a game uses it
        self.plain_texts = config.plain_texts
        # Whether the game's legal moves name what the position shows (its declaration),
        # else every move is listed by its plain text.
        self.annotated: bool = type(state.game).annotated_moves
        self.bots: OrderedDict[tuple[Any, ...], Bot] = OrderedDict()
        self.player = player

    # ------------------------------------------------------------------ move texts

    def plain_text(self, action: int) -> str:
        """The plain text of an action (as records store it)."""
        texts = self.plain_texts
        text = texts.get(action)
        if text is None:
            text = texts[action] = str(self.game.action_to_move(action))
        return text

    def legal(self) -> tuple[list[int], list[str]]:
        """The legal actions and their texts as ``str()`` of ``state.legal_moves()``."""
        state = self.state
        actions: list[int] = state.legal_actions()
        if not self.annotated:
            try:
                return actions, list(map(self.plain_texts.__getitem__, actions))
            except KeyError:
                return actions, [self.plain_text(a) for a in actions]
        return actions, [str(move) for move in state.legal_moves()]

    def listed_text(self, action: int) -> str:
        """The text of ``action`` as :meth:`legal` lists it (its plain text if not legal)."""
        if self.annotated:
            actions, texts = self.legal()
            i = bisect.bisect_left(actions, action)
            if i < len(actions) and actions[i] == action:
                return texts[i]
        return self.plain_text(action)

    def move_as_known(self, action: int, receiver: int | None) -> tuple[int | None, str, str]:
        """The legal ``action`` as ``receiver`` (a seat, or None: every seat alike) may know
        it, before it is played: (its id, its text as ``legal`` lists it, its text in this
        position). A move that hides something from the receiver (its text for the seat
        making it names more than its text for everyone: a card put away or picked) is
        told by its public text, and its id, which names it whole, is None when the
        receiver is a seat; ``receiver`` None is the trusted client, which keeps it."""
        state = self.state
        mover: int = state.current_player
        if receiver == mover:
            return action, self.listed_text(action), state.move_text(action, player=mover)
        public: str = state.move_text(action)
        if public != state.move_text(action, player=mover):
            return (None if receiver is not None else action), public, public
        return action, self.listed_text(action), public

    def undone_as_known(self, undone: list[int]) -> tuple[list[int | None], list[str]]:
        """The actions just taken back (``undone``, most recent first) as the game's player
        (else the trusted client) may know them: each with its plain text, unless it hides
        something from that receiver (told by its texts in the position it was played in,
        replayed from the position the undo went back to): then its public text, and no
        id for a player."""
        receiver = self.player
        state = self.state.clone()
        known: list[tuple[int | None, str]] = []
        for action in reversed(undone):
            mover: int = state.current_player
            public: str = state.move_text(action)
            if receiver != mover and public != state.move_text(action, player=mover):
                known.append((None if receiver is not None else action, public))
            else:
                known.append((action, self.plain_text(action)))
            state.apply(action)
        known.reverse()
        return [a for a, _ in known], [m for _, m in known]

    def parse_move(self, text: str) -> int:
        """The action of the legal move a text names (``state.parse_move``: case, spacing
        and left-out annotations do not matter; IllegalMoveError names close matches)."""
        action: int = self.game.move_to_action(self.state.parse_move(text))
        return action

    # ------------------------------------------------------------------ seats

    def seat_to_move(self, seat: int | None) -> int:
        """The seat to move; ReplyError if the game is over (``game_over``) or ``seat`` is
        given and not to move (``wrong_seat``)."""
        current: int = self.state.current_player
        if seat is not None:
            self.game.check_player(seat)
        if current < 0:
            raise ReplyError("game_over", "the game is over")
        if seat is not None and seat != current:
            raise ReplyError("wrong_seat", f"seat {seat} is not to move: seat {current} is")
        return current

    def own_turn(self, seat: int | None) -> int:
        """:meth:`seat_to_move` for a request the client makes as the seat to move
        (``apply``, ``hint``): in a game with a ``player``, only on that seat's turns (a
        hint or a move's error would name that seat's hidden cards)."""
        player = self.player
        if player is not None:
            if seat is not None and seat != player:
                self.game.check_player(seat)
                raise ReplyError("wrong_seat", f"this game's client plays seat {player}, not seat {seat}")
            seat = player
        return self.seat_to_move(seat)

    # ------------------------------------------------------------------ replies

    def status_fields(self) -> dict[str, Any]:
        """The fields of a status reply (``status``, ``new``, ``load``, ``undo``)."""
        state, game = self.state, self.game
        over = bool(state.is_over)
        return {
            "game_id": self.game_id,
            "game": game.name,
            "options": game.options,
            "num_players": game.num_players,
            "num_actions": game.num_actions,
            "current_player": state.current_player,
            "is_over": over,
            "ply": self.ply,
            "scores": state.scores() if over else None,
            "winners": state.winners() if over else None,
            "player": self.player,
        }


def outcome_fields(state: Any) -> dict[str, Any]:
    """The fields of a move's reply that the position after it gives."""
    over = bool(state.is_over)
    return {
        "current_player": state.current_player,
        "is_over": over,
        "scores": state.scores() if over else None,
        "winners": state.winners() if over else None,
    }
