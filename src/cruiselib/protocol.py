"""The engine protocol: JSON lines on stdin/stdout, one engine serving many games.

``cruiselib serve`` (or ``python -m cruiselib serve``) reads one JSON request object a
line and writes one JSON reply a line, in order. The protocol is specified in
docs/protocol.md; this module is its implementation:

- :class:`Engine`: the protocol without any I/O. ``handle_line(bytes) -> bytes`` answers
  one request line (what the server loop calls); ``handle(dict) -> dict`` does the same
  for Python objects. Nothing a client sends makes it raise: every failure is an error
  reply (``{"ok": false, "error": {"code": ..., "message": ...}}``) and the session goes on.
- :func:`serve`: the stdin/stdout loop, with the line-length cap read in bounded memory.
- The request Structs (a tagged union on ``"cmd"``) and the reply Structs, which
  :mod:`cruiselib.client` shares, so both ends agree on one schema.
"""

from __future__ import annotations

import bisect
import difflib
import inspect
import os
import secrets
import select
import stat
import sys
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import IO, Annotated, Any, Final

import msgspec
from msgspec import Meta

import cruiselib
from cruiselib import serialize
from cruiselib.bots import BOTS, Bot, Candidate, SearchBot, make_bot
from cruiselib.errors import CruiseError, IllegalMoveError, InvalidOptionError, InvalidStateError

__all__ = [
    "COMMANDS",
    "ERROR_CODES",
    "MAX_BOTS_PER_GAME",
    "MAX_GAMES",
    "MAX_HINTS",
    "MAX_ITERATIONS",
    "MAX_LINE",
    "MAX_SECONDS",
    "PROTOCOL",
    "VERSION",
    "Engine",
    "serve",
]

PROTOCOL: Final = "cruiselib-engine"
VERSION: Final = 1
"""The protocol version: raised for any change an existing client could notice."""
SUPPORTED_VERSIONS: Final = (1,)

MAX_LINE: Final = 1 << 20
"""The longest request line, in bytes without its newline (1 MiB)."""
MAX_GAMES: Final = 1000
"""The most games one session keeps open at once."""
MAX_ITERATIONS: Final = 1_000_000
"""The largest iteration budget of one search (``bot`` and ``hint``)."""
MAX_SECONDS: Final = 60.0
"""The largest time budget of one search, in seconds."""
MAX_HINTS: Final = 100
"""The most moves one ``hint`` lists."""
MAX_BOTS_PER_GAME: Final = 16
"""Bots kept per game (the least recently used beyond these is dropped)."""
DEFAULT_ITERATIONS: Final = 2000
"""A search bot's iteration budget when a request gives none (the library's default)."""
_GAME_CACHE: Final = 32  # game configurations (and their move texts) kept by an engine

ERROR_CODES: Final = {
    "bad_json": "the line is not JSON (or not UTF-8)",
    "bad_request": "valid JSON, but not a request: not an object, no or an ill-typed cmd, "
    "a field missing, ill-typed, out of range or unknown",
    "unknown_command": "cmd names no command of this protocol version",
    "line_too_long": f"the line is longer than {MAX_LINE} bytes; it was skipped",
    "unsupported_version": "hello asked for a protocol version this engine does not speak",
    "unknown_game": "no open game has this game_id",
    "too_many_games": f"the session already has {MAX_GAMES} open games",
    "bad_option": "a game name, game option, seat, bot name, bot option or budget that is unknown or out of range",
    "illegal_move": "the action or move text is not legal in this position",
    "wrong_seat": "the seat guard: the request names a seat that is not to move",
    "game_over": "the game is over: there is no move to make, choose or hint",
    "nothing_to_undo": "undo went back further than the game's history",
    "invalid_state": "a snapshot or record that cannot be loaded, or a record asked of a "
    "game that does not know its deal",
    "internal": "a bug in the engine: the request failed, the session goes on",
}
"""Every error code a reply may carry, with what it means."""

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


class Close(Command, tag="close"):
    game_id: GameId


class Quit(Command, tag="quit"):
    pass


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
)
_COMMAND_TYPES: Final[tuple[type[Command], ...]] = (
    *(Hello, Ping, Games, Bots, New, List, Status, View, Legal),
    *(Apply, BotCommand, Hint, Undo, Render, Save, Load, Close, Quit),
)
COMMANDS: Final[dict[str, type[Command]]] = {str(cls.__struct_config__.tag): cls for cls in _COMMAND_TYPES}
"""Every command name and its request Struct."""

# --------------------------------------------------------------------------- replies


class Reply(msgspec.Struct, kw_only=True):
    """What every reply has: the request's ``id`` (null if it had none) and ``ok``. Also
    the whole reply of ``ping`` and ``quit``."""

    id: Id = None
    ok: bool = True


class ErrorInfo(msgspec.Struct, kw_only=True):
    code: str
    message: str


class ErrorReply(Reply, kw_only=True):
    ok: bool = False
    error: ErrorInfo


class Limits(msgspec.Struct, kw_only=True):
    line_bytes: int = MAX_LINE
    games: int = MAX_GAMES
    iterations: int = MAX_ITERATIONS
    seconds: float = MAX_SECONDS
    hints: int = MAX_HINTS


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


class NewReply(StatusReply, kw_only=True):
    seed: int | str


class UndoReply(StatusReply, kw_only=True):
    undone: list[int]
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
    action: int
    move: str
    seat: int
    current_player: int
    is_over: bool
    scores: list[int] | None
    winners: list[int] | None


class BotReply(ApplyReply, kw_only=True):
    bot: str
    iterations: int | None
    applied: bool


class HintMove(msgspec.Struct, kw_only=True):
    action: int
    move: str
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


# --------------------------------------------------------------------------- the engine


class _Fail(Exception):
    """An error reply: raised anywhere below a handler."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _error_code(exc: CruiseError) -> str:
    if isinstance(exc, IllegalMoveError):
        return "illegal_move"
    if isinstance(exc, InvalidStateError):
        return "invalid_state"
    return "bad_option"


class _Texts:
    """The plain move texts of one game configuration (``str(game.action_to_move(a))``,
    what records store), computed once per action id. (The texts Atlantic Star and Dream
    Cruise show depend on the position: those are made anew each time.)"""

    __slots__ = ("plain",)

    def __init__(self) -> None:
        self.plain: dict[int, str] = {}


class _Session:
    """One open game: its state, its bots (per seat and configuration) and its move texts."""

    __slots__ = ("annotated", "bots", "game", "game_id", "state", "texts")

    def __init__(self, game_id: str, state: Any, texts: _Texts) -> None:
        self.game_id = game_id
        self.state = state
        self.game: Any = state.game
        self.texts = texts
        # Sirens and Dream Islands show every move as its plain text; Atlantic Star and
        # Dream Cruise name what the position shows (ships, cabins, activities).
        self.annotated = type(state).legal_moves is not cruiselib.State.legal_moves
        self.bots: OrderedDict[tuple[Any, ...], Bot] = OrderedDict()

    def plain(self, action: int) -> str:
        """The plain text of an action (as records store it)."""
        plain = self.texts.plain
        text = plain.get(action)
        if text is None:
            text = plain[action] = str(self.game.action_to_move(action))
        return text

    def legal(self) -> tuple[list[int], list[str]]:
        """The legal actions and their texts as ``str()`` of ``state.legal_moves()``."""
        state = self.state
        actions: list[int] = state.legal_actions()
        if not self.annotated:
            try:
                return actions, list(map(self.texts.plain.__getitem__, actions))
            except KeyError:
                return actions, [self.plain(a) for a in actions]
        return actions, [str(move) for move in state.legal_moves()]

    def shown(self, action: int) -> str:
        """The text of ``action`` as this position shows it (its plain text if not legal)."""
        if self.annotated:
            actions, texts = self.legal()
            i = bisect.bisect_left(actions, action)
            if i < len(actions) and actions[i] == action:
                return texts[i]
        return self.plain(action)


class Engine:
    """The protocol without I/O: one session of many games, answered request by request.

    >>> engine = Engine()
    >>> engine.handle({"cmd": "new", "game": "sirens", "seed": 7, "id": 1})["game_id"]
    'g1'
    >>> engine.handle({"cmd": "apply", "game_id": "g1", "action": -1})["error"]["code"]
    'bad_request'
    """

    def __init__(self) -> None:
        self.finished = False
        """True once ``quit`` was answered: the server loop then ends."""
        self._sessions: dict[str, _Session] = {}
        self._next_id = 1
        self._games: OrderedDict[tuple[str, bytes], tuple[Any, _Texts]] = OrderedDict()
        self._decoder = msgspec.json.Decoder(Request)
        self._encoder = msgspec.json.Encoder()
        self._handlers: dict[type[Command], Callable[[Any], Reply]] = {
            Hello: self._hello,
            Ping: self._ping,
            Games: self._games_info,
            Bots: self._bots_info,
            New: self._new,
            List: self._list,
            Status: self._status,
            View: self._view,
            Legal: self._legal,
            Apply: self._apply,
            BotCommand: self._bot,
            Hint: self._hint,
            Undo: self._undo,
            Render: self._render,
            Save: self._save,
            Load: self._load,
            Close: self._close,
            Quit: self._quit,
        }
        self._game_infos: list[GameInfo] | None = None

    # ----------------------------------------------------------------- entry points

    def handle_line(self, line: bytes | bytearray | memoryview | str) -> bytes:
        """The reply line (JSON, no newline) to one request line. Never raises (but
        KeyboardInterrupt and SystemExit pass through)."""
        try:
            request = self._decoder.decode(line)
        except (msgspec.DecodeError, RecursionError, UnicodeError, TypeError) as exc:
            return self._encode(self._refusal(line, exc))
        try:
            reply = self._handlers[type(request)](request)
        except _Fail as fail:
            reply = ErrorReply(id=request.id, error=ErrorInfo(code=fail.code, message=fail.message))
        except CruiseError as exc:
            reply = ErrorReply(id=request.id, error=ErrorInfo(code=_error_code(exc), message=str(exc)))
        except Exception as exc:
            reply = self._internal(request.id, exc)
        return self._encode(reply)

    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """The reply to one request given as a mapping (what ``handle_line`` answers to its
        JSON), as a dict."""
        try:
            line = self._encoder.encode(request)
        except (TypeError, ValueError, OverflowError, RecursionError) as exc:
            reply = ErrorReply(error=ErrorInfo(code="bad_request", message=f"not JSON-encodable: {exc}"))
            return msgspec.to_builtins(reply)  # type: ignore[no-any-return]
        decoded: dict[str, Any] = msgspec.json.decode(self.handle_line(line))
        return decoded

    def close(self) -> None:
        """Close every game (the engine stays usable)."""
        self._sessions.clear()

    # ----------------------------------------------------------------- framing errors

    def _encode(self, reply: Reply) -> bytes:
        try:
            return self._encoder.encode(reply)
        except Exception as exc:  # a reply the encoder refuses: a bug, reported as one
            return self._encoder.encode(self._internal(reply.id, exc))

    def _internal(self, request_id: Any, exc: BaseException) -> ErrorReply:
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
        message = f"internal error ({type(exc).__name__}: {exc}); the session goes on"
        return ErrorReply(id=request_id, error=ErrorInfo(code="internal", message=message[:2000]))

    def _refusal(self, line: Any, exc: Exception) -> ErrorReply:
        """The error reply to a line that is not a valid request, with its id if it has one."""
        try:
            tree = msgspec.json.decode(line)
        except (msgspec.DecodeError, RecursionError, UnicodeError, TypeError) as bad:
            what = "JSON nested too deeply" if isinstance(bad, RecursionError) else str(bad)
            return ErrorReply(error=ErrorInfo(code="bad_json", message=f"not a JSON line: {what}"))
        if not isinstance(tree, dict):
            return ErrorReply(
                error=ErrorInfo(code="bad_request", message=f"a request is a JSON object, not {_json_type(tree)}")
            )
        request_id = tree.get("id")
        try:
            request_id = msgspec.convert(request_id, Id)
        except msgspec.ValidationError:
            request_id = None
        cmd = tree.get("cmd")
        if not isinstance(cmd, str):
            code, message = "bad_request", "a request needs a cmd: the command's name, a string"
        elif cmd not in COMMANDS:
            close = difflib.get_close_matches(cmd, COMMANDS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            code, message = "unknown_command", f"unknown command {cmd[:64]!r}{hint} (commands: {', '.join(COMMANDS)})"
        else:
            code, message = "bad_request", f"bad {cmd} request: {exc}"
        return ErrorReply(id=request_id, error=ErrorInfo(code=code, message=message))

    # ----------------------------------------------------------------- helpers

    def _session(self, game_id: str) -> _Session:
        try:
            return self._sessions[game_id]
        except KeyError:
            raise _Fail("unknown_game", f"no open game {game_id!r}") from None

    def _make_game(self, name: str, options: Mapping[str, Any]) -> tuple[Any, _Texts]:
        """The game of this name and options with its move texts: one object per
        configuration, kept for the next game of it (making one takes up to tens of
        milliseconds and, for Dream Cruise, a table of 15,975 moves). InvalidOptionError
        for a bad name or options."""
        from cruiselib._registry import make
        from cruiselib.records import _options

        try:
            key = (name, msgspec.json.encode(dict(options), order="sorted"))
        except (TypeError, ValueError, RecursionError) as exc:  # pragma: no cover - decoded from JSON
            raise InvalidOptionError(f"options: {exc}") from None
        entry = self._games.get(key)
        if entry is not None:
            self._games.move_to_end(key)
            return entry
        try:
            game = make(name, **_options(name, dict(options)))
        except CruiseError:
            raise
        except (TypeError, ValueError, msgspec.ValidationError) as exc:
            raise InvalidOptionError(f"bad options for {name!r}: {exc}") from None
        return self._keep(game, key)

    def _keep(self, game: Any, key: tuple[str, bytes] | None = None) -> tuple[Any, _Texts]:
        """Cache ``game`` under ``key`` (the options asked for) and under its own options
        (so that equal configurations asked for differently share one game)."""
        own = (game.name, msgspec.json.encode(msgspec.to_builtins(game.options), order="sorted"))
        entry = self._games.get(own)
        if entry is None or entry[0] != game:
            entry = (game, _Texts())
        for k in {own, key or own}:
            self._games[k] = entry
            self._games.move_to_end(k)
        while len(self._games) > _GAME_CACHE:
            self._games.popitem(last=False)
        return entry

    def _load_snapshot(self, data: str | bytes) -> tuple[Any, _Texts]:
        """A snapshot's state in a kept game of its configuration where there is one (a
        snapshot refuses to load into a game of other options), else in its own game."""
        name = serialize.peek_game(data)
        tried = set()
        for key, (game, texts) in reversed(self._games.items()):
            if key[0] != name or id(game) in tried:
                continue
            tried.add(id(game))
            try:
                return game.load_state(data), texts
            except InvalidStateError:
                continue
        state = cruiselib.load_state(data)
        return state, self._keep(state.game)[1]

    def _replay(self, data: str | bytes) -> tuple[Any, _Texts]:
        """A record's final state, replayed in the kept game of its configuration."""
        from cruiselib.records import _as_record

        record = _as_record(data)
        try:
            game, texts = self._make_game(record.game, record.options)
        except InvalidOptionError as exc:
            raise InvalidStateError(f"game record: {exc}") from None
        return cruiselib.replay(record, game=game), texts

    def _open(self, state: Any, texts: _Texts) -> _Session:
        if len(self._sessions) >= MAX_GAMES:
            raise _Fail("too_many_games", f"{MAX_GAMES} games are open: close some first")
        game_id = f"g{self._next_id}"
        self._next_id += 1
        session = self._sessions[game_id] = _Session(game_id, state, texts)
        return session

    @staticmethod
    def _status_fields(session: _Session) -> dict[str, Any]:
        state, game = session.state, session.game
        over = bool(state.is_over)
        return {
            "game_id": session.game_id,
            "game": game.name,
            "options": game.options,
            "num_players": game.num_players,
            "num_actions": game.num_actions,
            "current_player": state.current_player,
            "is_over": over,
            "ply": len(state.history),
            "scores": state.scores() if over else None,
            "winners": state.winners() if over else None,
        }

    @staticmethod
    def _guard(session: _Session, seat: int | None) -> int:
        """The seat to move; _Fail if the game is over or ``seat`` is given and not to move."""
        state = session.state
        current: int = state.current_player
        if seat is not None:
            session.game.check_player(seat)
        if current < 0:
            raise _Fail("game_over", "the game is over")
        if seat is not None and seat != current:
            raise _Fail("wrong_seat", f"seat {seat} is not to move: seat {current} is")
        return current

    @staticmethod
    def _parse_move(session: _Session, text: str) -> int:
        """The action of the legal move a text names (``state.parse_move``: case, spacing
        and left-out annotations do not matter; IllegalMoveError names close matches)."""
        action: int = session.game.move_to_action(session.state.parse_move(text))
        return action

    def _bot_for(self, session: _Session, seat: int, kind: str, request: BotRequest) -> Bot:
        """The bot of this configuration for this seat, made once and kept (so a seeded bot
        plays on deterministically); InvalidOptionError for a bad name or option."""
        name = request.bot
        cls = BOTS.get(name)
        if cls is None:
            raise InvalidOptionError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}")
        options = dict(request.options)
        if "seed" in options:
            raise InvalidOptionError("give the bot's seed as the request's seed, not as an option")
        search = issubclass(cls, SearchBot)
        if search:
            if request.iterations is not None:
                options["iterations"] = request.iterations
            if request.seconds is not None:
                options["seconds"] = request.seconds
                options.setdefault("iterations", None)
            _check_budget(options)
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
        if len(session.bots) > MAX_BOTS_PER_GAME:
            session.bots.popitem(last=False)
        return bot

    # ----------------------------------------------------------------- commands

    def _hello(self, req: Hello) -> Reply:
        if req.version is not None and req.version not in SUPPORTED_VERSIONS:
            raise _Fail(
                "unsupported_version",
                f"this engine speaks {PROTOCOL} version(s) {', '.join(map(str, SUPPORTED_VERSIONS))},"
                f" not {req.version}",
            )
        return HelloReply(
            id=req.id,
            protocol=PROTOCOL,
            version=VERSION,
            versions=list(SUPPORTED_VERSIONS),
            cruiselib=cruiselib.__version__,
            compiled=bool(cruiselib.compiled),
            games=list(cruiselib.games()),
            bots=list(BOTS),
            limits=Limits(),
        )

    def _ping(self, req: Ping) -> Reply:
        return Reply(id=req.id)

    def _games_info(self, req: Games) -> Reply:
        if self._game_infos is None:
            from cruiselib._registry import game_class

            infos = []
            for name in cruiselib.games():
                game, _ = self._make_game(name, {})
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

    def _bots_info(self, req: Bots) -> Reply:
        infos = []
        for name, cls in BOTS.items():
            params = inspect.signature(cls).parameters
            defaults = {p.name: p.default for p in params.values() if p.name != "seed"}
            infos.append(BotInfo(name=name, search=issubclass(cls, SearchBot), options=msgspec.to_builtins(defaults)))
        return BotsReply(id=req.id, bots=infos)

    def _new(self, req: New) -> Reply:
        game, texts = self._make_game(req.game, req.options)
        seed: int | str = req.seed if req.seed is not None else secrets.randbits(53)
        state = game.new_state(seed=seed, start_player=req.start_player)
        session = self._open(state, texts)
        return NewReply(id=req.id, seed=seed, **self._status_fields(session))

    def _list(self, req: List) -> Reply:
        return ListReply(
            id=req.id,
            games=[
                GameSummary(
                    game_id=s.game_id, game=s.game.name, current_player=s.state.current_player, is_over=s.state.is_over
                )
                for s in self._sessions.values()
            ],
        )

    def _status(self, req: Status) -> Reply:
        return StatusReply(id=req.id, **self._status_fields(self._session(req.game_id)))

    def _view(self, req: View) -> Reply:
        session = self._session(req.game_id)
        seat = session.game.check_player(req.seat)
        return ViewReply(id=req.id, seat=seat, view=session.state.view(seat, recall=req.recall))

    def _legal(self, req: Legal) -> Reply:
        session = self._session(req.game_id)
        state = session.state
        current: int = state.current_player
        if req.seat is not None and req.seat != current:
            session.game.check_player(req.seat)
            return LegalReply(id=req.id, current_player=current, actions=[], moves=[])
        actions, moves = session.legal()
        return LegalReply(id=req.id, current_player=current, actions=actions, moves=moves)

    def _apply(self, req: Apply) -> Reply:
        session = self._session(req.game_id)
        if (req.action is None) == (req.move is None):
            raise _Fail("bad_request", "apply takes an action (an id) or a move (its text), exactly one")
        seat = self._guard(session, req.seat)
        action = req.action if req.action is not None else self._parse_move(session, req.move or "")
        text = session.shown(action)
        session.state.apply(action, seat)
        return ApplyReply(id=req.id, action=action, move=text, seat=seat, **_outcome(session.state))

    def _bot(self, req: BotCommand) -> Reply:
        session = self._session(req.game_id)
        seat = self._guard(session, req.seat)
        bot = self._bot_for(session, seat, "bot", req)
        action = int(bot.choose(session.state))
        text = session.shown(action)
        if req.apply:
            session.state.apply(action, seat)
        return BotReply(
            id=req.id,
            action=action,
            move=text,
            seat=seat,
            **_outcome(session.state),
            bot=req.bot,
            iterations=_iterations(bot),
            applied=req.apply,
        )

    def _hint(self, req: Hint) -> Reply:
        session = self._session(req.game_id)
        seat = self._guard(session, req.seat)
        bot = self._bot_for(session, seat, "hint", req)
        candidates: list[Candidate] = bot.analyse(session.state)[: req.count]
        shown = dict(zip(*session.legal(), strict=True))
        return HintReply(
            id=req.id,
            seat=seat,
            bot=req.bot,
            iterations=_iterations(bot),
            hints=[
                HintMove(
                    action=c.action,
                    move=shown.get(c.action, c.move),
                    visits=c.visits,
                    value=None if c.value is None or c.value != c.value else float(c.value),
                )
                for c in candidates
            ],
        )

    def _undo(self, req: Undo) -> Reply:
        session = self._session(req.game_id)
        played = len(session.state.history)
        if req.count > played:
            raise _Fail(
                "nothing_to_undo",
                f"cannot undo {req.count} action(s): the history holds {played}",
            )
        work = session.state.clone()  # undone on a copy: a failure leaves the game as it was
        undone = [int(work.undo()) for _ in range(req.count)]
        session.state = work
        return UndoReply(
            id=req.id,
            undone=undone,
            moves=[session.plain(a) for a in undone],
            **self._status_fields(session),
        )

    def _render(self, req: Render) -> Reply:
        session = self._session(req.game_id)
        seat = None if req.seat is None else session.game.check_player(req.seat)
        return RenderReply(id=req.id, text=session.game.render(session.state, seat, compact=req.compact))

    def _save(self, req: Save) -> Reply:
        session = self._session(req.game_id)
        state = session.state
        snapshot = msgspec.Raw(state.to_json().encode()) if req.snapshot else None
        record = None
        if req.record:
            try:
                record = msgspec.Raw(state.record().to_json().encode())
            except InvalidStateError:
                if not req.snapshot:
                    raise
        return SaveReply(id=req.id, snapshot=snapshot, record=record)

    def _load(self, req: Load) -> Reply:
        snapshot, record = _raw_value(req.snapshot), _raw_value(req.record)
        if (snapshot is None) == (record is None):
            raise _Fail("bad_request", "load takes a snapshot or a record, exactly one")
        if record is not None:
            if req.game is not None or req.options:
                raise _Fail("bad_request", "a record names its game and options itself")
            state, texts = self._replay(record)
        elif req.game is not None:
            game, texts = self._make_game(req.game, req.options)
            state = game.load_state(snapshot)
        else:
            if req.options:
                raise _Fail("bad_request", "options need the game's name (game)")
            assert snapshot is not None
            state, texts = self._load_snapshot(snapshot)
        session = self._open(state, texts)
        return StatusReply(id=req.id, **self._status_fields(session))

    def _close(self, req: Close) -> Reply:
        if self._sessions.pop(req.game_id, None) is None:
            raise _Fail("unknown_game", f"no open game {req.game_id!r}")
        return CloseReply(id=req.id, game_id=req.game_id)

    def _quit(self, req: Quit) -> Reply:
        self.finished = True
        self.close()
        return Reply(id=req.id)


def _check_budget(options: Mapping[str, Any]) -> None:
    """A search budget within the engine's limits (the bot checks the rest)."""
    iterations, seconds = options.get("iterations", DEFAULT_ITERATIONS), options.get("seconds")
    if iterations is None and seconds is None:
        raise InvalidOptionError("give a search bot a budget: iterations, seconds or both")
    if isinstance(iterations, int) and not isinstance(iterations, bool) and iterations > MAX_ITERATIONS:
        raise InvalidOptionError(f"iterations is at most {MAX_ITERATIONS:,} here, not {iterations}")
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and not seconds <= MAX_SECONDS:
        raise InvalidOptionError(f"seconds is at most {MAX_SECONDS:g} here, not {seconds}")


def _outcome(state: Any) -> dict[str, Any]:
    """The fields of a move's reply that the position after it gives."""
    over = bool(state.is_over)
    return {
        "current_player": state.current_player,
        "is_over": over,
        "scores": state.scores() if over else None,
        "winners": state.winners() if over else None,
    }


def _iterations(bot: Bot) -> int | None:
    return int(bot.last_iterations) if isinstance(bot, SearchBot) else None


def _raw_value(raw: msgspec.Raw) -> str | bytes | None:
    """A snapshot or record field: None if absent, the text of a JSON string, else the
    JSON object's bytes."""
    data = bytes(raw)
    if not data:
        return None
    if data[:1] == b'"':
        text: str = msgspec.json.decode(data, type=str)
        return text
    return data


def _json_type(value: Any) -> str:
    names: dict[type, str] = {list: "an array", str: "a string", int: "a number", float: "a number", bool: "a boolean"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


# --------------------------------------------------------------------------- the loop

_DRAIN = 1 << 16


def _line_too_long() -> bytes:
    return msgspec.json.encode(
        ErrorReply(
            error=ErrorInfo(
                code="line_too_long", message=f"the line is longer than {MAX_LINE} bytes: it was skipped, unread"
            )
        )
    )


#: How long a side waiting on the protocol's pipe polls it before it sleeps, in seconds.
#: Most of a round trip through a pipe is the sleeping process's wake-up; a reply, or the
#: next request, that comes within the poll is read without one (docs/protocol.md,
#: "Latency"). ``cruiselib serve --poll-us N`` and ``EngineClient.spawn(poll=...)`` set it;
#: 0 sleeps at once. Only POSIX pipes and sockets are polled.
POLL_SECONDS: Final = 200e-6

_TOO_LONG: Final = b"\n"  # what a reader returns for a skipped long line (never a line itself)


class _StreamLines:
    """Request lines from any binary stream (``readline`` with the length cap)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream

    def readline(self) -> bytes | None:
        """The next line without its end; None at end of input; ``_TOO_LONG`` for a line
        longer than MAX_LINE, skipped to its end without keeping it."""
        line = self.stream.readline(MAX_LINE + 1)
        if not line:
            return None
        if line.endswith(b"\n"):
            return line[:-1]
        if len(line) > MAX_LINE:
            while True:
                rest = self.stream.readline(_DRAIN)
                if not rest or rest.endswith(b"\n"):
                    return _TOO_LONG
        return line  # the last line, without an end

    def close(self) -> None:
        pass


class _PolledLines:
    """Request lines from a POSIX pipe or socket, read through a buffer of their own: the
    descriptor is made non-blocking (restored by ``close``) and polled for up to ``poll``
    seconds before the reader sleeps in ``select``. The buffer never holds more than
    MAX_LINE + _DRAIN bytes: a longer line is dropped as it comes."""

    def __init__(self, fd: int, poll: float) -> None:
        self.fd = fd
        self.poll = poll
        self.buffer = bytearray()
        self.skipping = False  # inside a line longer than MAX_LINE
        self.was_blocking = os.get_blocking(fd)
        os.set_blocking(fd, False)

    def close(self) -> None:
        os.set_blocking(self.fd, self.was_blocking)  # the descriptor may be shared

    def _chunk(self) -> bytes:
        deadline = 0.0
        while True:
            try:
                return os.read(self.fd, _DRAIN)
            except BlockingIOError:
                pass
            now = time.perf_counter()
            if not deadline:
                deadline = now + self.poll
            elif now >= deadline:
                select.select([self.fd], [], [])

    def readline(self) -> bytes | None:
        """As :meth:`_StreamLines.readline`."""
        buffer = self.buffer
        searched = 0
        while True:
            end = buffer.find(b"\n", searched)
            if end >= 0:
                line = bytes(buffer[:end])
                del buffer[: end + 1]
                if self.skipping or len(line) > MAX_LINE:
                    self.skipping = False
                    return _TOO_LONG
                return line
            if len(buffer) > MAX_LINE:  # too long already: keep none of it
                self.skipping = True
                buffer.clear()
            searched = len(buffer)
            chunk = self._chunk()
            if not chunk:  # end of input: a last line without an end, if any
                line, skipped = bytes(buffer), self.skipping
                buffer.clear()
                self.skipping = False
                return _TOO_LONG if skipped else line or None
            buffer += chunk


def _reader(stdin: IO[bytes] | None, poll: float) -> _StreamLines | _PolledLines:
    """The polled reader for the process's own stdin when it is a pipe or a socket (POSIX),
    else the stream's readline."""
    if stdin is None:
        if poll > 0 and os.name == "posix":
            try:
                fd = sys.stdin.fileno()
                mode = os.fstat(fd).st_mode
            except (AttributeError, OSError, ValueError):  # no real stdin (replaced, closed)
                pass
            else:
                if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
                    return _PolledLines(fd, poll)
        return _StreamLines(sys.stdin.buffer)
    return _StreamLines(stdin)


def serve(
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    engine: Engine | None = None,
    *,
    poll: float = POLL_SECONDS,
) -> int:
    """Answer request lines from ``stdin`` (default: the process's) on ``stdout`` until
    ``quit`` or end of input; returns the exit status (0).

    While it runs, ``sys.stdout`` points at stderr, so that nothing but replies reaches
    the real stdout. A line longer than :data:`MAX_LINE` bytes is skipped in bounded
    memory and answered with ``line_too_long``; blank lines are ignored. Ctrl-C
    (KeyboardInterrupt) passes to the caller. ``poll``: seconds to poll the process's
    stdin for the next request before sleeping, when it is a pipe (:data:`POLL_SECONDS`).
    """
    out = stdout if stdout is not None else sys.stdout.buffer
    engine = engine if engine is not None else Engine()
    lines = _reader(stdin, poll)
    saved = sys.stdout
    if stdout is None:
        sys.stdout = sys.stderr
    try:
        while not engine.finished:
            line = lines.readline()
            if line is None:
                return 0
            if line is _TOO_LONG:
                out.write(_line_too_long() + b"\n")
                out.flush()
                continue
            if line.endswith(b"\r"):
                line = line[:-1]
            if not line.strip():
                continue
            out.write(engine.handle_line(line) + b"\n")
            out.flush()
        return 0
    finally:
        sys.stdout = saved
        lines.close()


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - ``cruiselib serve`` is the entry point
    return serve()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
