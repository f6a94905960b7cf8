"""The protocol's messages: the request Structs (a tagged union on ``"cmd"``) and the reply
Structs, which :mod:`cruiselib.client` shares, so both ends agree on one schema; and
:func:`is_search`, a cheap peek at a request line.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Final

import msgspec
from msgspec import Meta

from cruiselib import serialize
from cruiselib.positions import MAX_POSITION_TEXT

from .limits import (
    MAX_CONFIGURATIONS,
    MAX_GAMES,
    MAX_HINTS,
    MAX_ITERATIONS,
    MAX_LINE,
    MAX_PLY,
    MAX_QUEUE_BYTES,
    MAX_SECONDS,
    MAX_SESSION_PLY,
)

__all__ = [
    "COMMANDS",
    "Apply",
    "ApplyReply",
    "BotCommand",
    "BotInfo",
    "BotReply",
    "BotRequest",
    "Bots",
    "BotsReply",
    "Cancel",
    "CancelReply",
    "Close",
    "CloseReply",
    "Command",
    "ErrorInfo",
    "ErrorReply",
    "GameId",
    "GameInfo",
    "GameSummary",
    "Games",
    "GamesReply",
    "Hello",
    "HelloReply",
    "Hint",
    "HintMove",
    "HintReply",
    "Id",
    "Iterations",
    "Legal",
    "LegalReply",
    "Limits",
    "List",
    "ListReply",
    "Load",
    "Name",
    "New",
    "NewReply",
    "Options",
    "Ping",
    "Quit",
    "Render",
    "RenderReply",
    "Reply",
    "Request",
    "Save",
    "SaveReply",
    "Seat",
    "Seconds",
    "Seed",
    "Status",
    "StatusReply",
    "Undo",
    "UndoReply",
    "View",
    "ViewReply",
    "is_search",
]

# --------------------------------------------------------------------------- requests

Id = (
    Annotated[int, Meta(ge=-serialize.JS_SAFE_INT, le=serialize.JS_SAFE_INT)]
    | Annotated[str, Meta(max_length=256)]
    | None
)
GameId = Annotated[str, Meta(max_length=64)]
Seat = Annotated[int, Meta(ge=0, le=7)]
Seed = Annotated[int, Meta(ge=0, le=2**63 - 1)] | Annotated[str, Meta(max_length=256)]
Name = Annotated[str, Meta(max_length=64)]
Options = dict[str, Any]
Iterations = Annotated[int, Meta(ge=1, le=MAX_ITERATIONS)]
Seconds = Annotated[float, Meta(gt=0, le=MAX_SECONDS)]


class Command(msgspec.Struct, tag_field="cmd", forbid_unknown_fields=True, omit_defaults=True, kw_only=True):
    """What every request has: ``cmd`` (the tag) and an optional ``id`` echoed in the reply."""

    id: Id = None


class Hello(Command, tag="hello"):
    version: int | None = None


class Ping(Command, tag="ping"):
    pass


class Games(Command, tag="games"):
    pass


class Bots(Command, tag="bots"):
    pass


class New(Command, tag="new"):
    game: Name
    options: Options = {}
    seed: Seed | None = None
    start_player: Seat | None = None
    player: Seat | None = None
    position: Annotated[str, Meta(max_length=MAX_POSITION_TEXT)] | None = None
    """A described position's compact text (``Game.position_text``): the game starts there
    instead of a deal. A seat's view has its hidden rest dealt from ``seed``, and its seat
    is the game's ``player`` (a different ``player`` is a bad request)."""


class List(Command, tag="list"):
    pass


class Status(Command, tag="status"):
    game_id: GameId


class View(Command, tag="view"):
    game_id: GameId
    seat: Seat
    recall: bool = False


class Legal(Command, tag="legal"):
    game_id: GameId
    seat: Seat | None = None


class Apply(Command, tag="apply"):
    game_id: GameId
    action: Annotated[int, Meta(ge=0, le=2**31 - 1)] | None = None
    move: Annotated[str, Meta(max_length=1000)] | None = None
    seat: Seat | None = None


class BotRequest(Command):
    """The fields of a command that asks a bot (``bot``, ``hint``): which bot, its options
    and seed, its budget, the seat guard."""

    game_id: GameId
    bot: Name = "ismcts"
    options: Options = {}
    seed: Seed | None = None
    iterations: Iterations | None = None
    seconds: Seconds | None = None
    seat: Seat | None = None


class BotCommand(BotRequest, tag="bot"):
    apply: bool = False


class Hint(BotRequest, tag="hint"):
    count: Annotated[int, Meta(ge=1, le=MAX_HINTS)] = 3


class Undo(Command, tag="undo"):
    game_id: GameId
    count: Annotated[int, Meta(ge=1, le=serialize.HISTORY_LIMIT)] = 1


class Render(Command, tag="render"):
    game_id: GameId
    seat: Seat | None = None
    compact: bool = False


class Save(Command, tag="save"):
    game_id: GameId
    snapshot: bool = True
    record: bool = True


class Load(Command, tag="load"):
    snapshot: msgspec.Raw = msgspec.Raw()
    record: msgspec.Raw = msgspec.Raw()
    game: Name | None = None
    options: Options = {}
    player: Seat | None = None


class Close(Command, tag="close"):
    game_id: GameId


class Quit(Command, tag="quit"):
    pass


class Cancel(Command, tag="cancel"):
    """Stop the search of request ``target`` (without it, whatever search is running)."""

    target: Id = None


Request = (
    Hello
    | Ping
    | Games
    | Bots
    | New
    | List
    | Status
    | View
    | Legal
    | Apply
    | BotCommand
    | Hint
    | Undo
    | Render
    | Save
    | Load
    | Close
    | Quit
    | Cancel
)
_COMMAND_TYPES: Final[tuple[type[Command], ...]] = (
    *(Hello, Ping, Games, Bots, New, List, Status, View, Legal),
    *(Apply, BotCommand, Hint, Undo, Render, Save, Load, Close, Quit, Cancel),
)
COMMANDS: Final[dict[str, type[Command]]] = {str(cls.__struct_config__.tag): cls for cls in _COMMAND_TYPES}
"""Every command name and its request Struct."""

# --------------------------------------------------------------------------- replies


class Reply(msgspec.Struct, kw_only=True):
    """What every reply has: the request's ``id`` (null if it had none) and ``ok``. Also
    the whole reply of ``ping`` and ``quit``."""

    id: Id = None
    ok: bool = True


class ErrorInfo(msgspec.Struct, kw_only=True, omit_defaults=True):
    code: str
    message: str
    problems: list[str] | None = None
    """``invalid_position``: every problem of the description, one per entry."""


class ErrorReply(Reply, kw_only=True):
    ok: bool = False
    error: ErrorInfo


class Limits(msgspec.Struct, kw_only=True):
    line_bytes: int = MAX_LINE
    games: int = MAX_GAMES
    iterations: int = MAX_ITERATIONS
    seconds: float = MAX_SECONDS
    hints: int = MAX_HINTS
    configurations: int = MAX_CONFIGURATIONS
    queue_bytes: int = MAX_QUEUE_BYTES
    ply: int = MAX_PLY
    session_ply: int = MAX_SESSION_PLY


class HelloReply(Reply, kw_only=True):
    protocol: str
    version: int
    versions: list[int]
    cruiselib: str
    compiled: bool
    games: list[str]
    bots: list[str]
    limits: Limits


class GameInfo(msgspec.Struct, kw_only=True):
    name: str
    title: str
    num_players: int
    num_actions: int
    options: dict[str, Any]


class GamesReply(Reply, kw_only=True):
    games: list[GameInfo]


class BotInfo(msgspec.Struct, kw_only=True):
    name: str
    search: bool
    options: dict[str, Any]


class BotsReply(Reply, kw_only=True):
    bots: list[BotInfo]


class StatusReply(Reply, kw_only=True):
    """A game's public state (``new``, ``status``, ``load``): scores and winners once it is over."""

    game_id: str
    game: str
    options: dict[str, Any]
    num_players: int
    num_actions: int
    current_player: int
    is_over: bool
    ply: int
    scores: list[int] | None
    winners: list[int] | None
    player: int | None = None
    """The seat the client plays in this game (``new``/``load``'s ``player``), or None."""


class NewReply(StatusReply, kw_only=True):
    seed: int | str


class UndoReply(StatusReply, kw_only=True):
    """``undone``: the actions taken back, most recent first (None for another seat's
    move that hides something from the game's ``player``); ``moves``: their plain texts
    (as records write them), or the text every seat may know of a move that hides
    something from the receiver."""

    undone: list[int | None]
    moves: list[str]


class GameSummary(msgspec.Struct, kw_only=True):
    game_id: str
    game: str
    current_player: int
    is_over: bool


class ListReply(Reply, kw_only=True):
    games: list[GameSummary]


class ViewReply(Reply, kw_only=True):
    seat: int
    view: Any


class LegalReply(Reply, kw_only=True):
    current_player: int
    actions: list[int]
    moves: list[str]


class ApplyReply(Reply, kw_only=True):
    """A move played: ``move`` is its text as ``legal`` lists it (the seat to move made
    it), ``text`` the move said in its position (``state.move_text`` before the move, for
    the seat that made it), the rest the position after it."""

    action: int
    move: str
    text: str = ""
    seat: int
    current_player: int
    is_over: bool
    scores: list[int] | None
    winners: list[int] | None


class BotReply(Reply, kw_only=True):
    """A bot's move, said to the reply's receiver (the game's ``player``, or else every
    seat alike): ``text`` is ``state.move_text`` before the move for that receiver;
    ``move`` the move's text as ``legal`` lists it, unless the move hides something from
    the receiver (a card the bot put away or picked): then ``move`` is ``text`` and,
    in a game with a ``player``, ``action`` is None."""

    action: int | None
    move: str
    text: str = ""
    seat: int
    current_player: int
    is_over: bool
    scores: list[int] | None
    winners: list[int] | None
    bot: str
    iterations: int | None
    applied: bool


class HintMove(msgspec.Struct, kw_only=True):
    """One move of a hint: ``move`` as ``legal`` lists it, ``text`` as the position says
    it to the seat the hint is for (the analysis' ``Candidate.text``)."""

    action: int
    move: str
    text: str = ""
    visits: int
    value: float | None


class HintReply(Reply, kw_only=True):
    seat: int
    bot: str
    iterations: int | None
    hints: list[HintMove]


class RenderReply(Reply, kw_only=True):
    text: str


class SaveReply(Reply, kw_only=True):
    snapshot: Any
    record: Any


class CloseReply(Reply, kw_only=True):
    game_id: str


class CancelReply(Reply, kw_only=True):
    cancelled: bool


# --------------------------------------------------------------------------- peeking

_SEARCH_CMD = re.compile(rb'"cmd"\s*:\s*"(bot|hint)"')


def is_search(line: bytes | bytearray | memoryview | str) -> bool:
    """Whether ``line`` is (most likely) a ``bot`` or ``hint`` request: a cheap peek for a
    server that routes searches to a bounded pool. A short line is decoded; a long one is
    scanned for its ``"cmd"`` (decoded only if it holds escapes that could spell one)."""
    data = line.encode("utf-8", "surrogatepass") if isinstance(line, str) else bytes(line)
    if b"bot" not in data and b"hint" not in data and b"\\u" not in data:
        return False  # neither command is spelled anywhere in it (the hot path of serve)
    if len(data) <= 4096 or b"\\u" in data:
        try:
            peek = _PEEK_DECODER.decode(data)
        except (msgspec.DecodeError, RecursionError, UnicodeError, TypeError, ValueError):
            return _SEARCH_CMD.search(data) is not None
        return peek.cmd in ("bot", "hint")
    return _SEARCH_CMD.search(data) is not None


class _Peek(msgspec.Struct):
    cmd: Any = None


_PEEK_DECODER: Final = msgspec.json.Decoder(_Peek)
