"""The protocol without I/O: :class:`Engine` answers one request at a time for a session
of many games (:class:`_Session`), whose game objects a :class:`GameCache` keeps, one per
configuration, shared by the games of one engine or of many (a server's).
"""

from __future__ import annotations

import bisect
import difflib
import inspect
import secrets
import sys
import threading
import time
import traceback
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import msgspec

import cruiselib
from cruiselib.bots import BOTS, Bot, Candidate, SearchBot, make_bot
from cruiselib.errors import CruiseError, IllegalMoveError, InvalidOptionError, InvalidStateError, SearchCancelled
from cruiselib.records import decode_snapshot

from .limits import (
    _MAX_ALIASES,
    _MAX_PENDING_CANCELS,
    DEFAULT_ITERATIONS,
    MAX_BOTS_PER_GAME,
    MAX_CONFIGURATIONS,
    MAX_GAMES,
    MAX_ITERATIONS,
    MAX_PLY,
    MAX_SECONDS,
    MAX_SESSION_PLY,
    PROTOCOL,
    SEARCH_SLOT_WAIT,
    SUPPORTED_VERSIONS,
    VERSION,
    check_limits,
)
from .messages import (
    COMMANDS,
    Apply,
    ApplyReply,
    BotCommand,
    BotInfo,
    BotReply,
    BotRequest,
    Bots,
    BotsReply,
    Cancel,
    CancelReply,
    Close,
    CloseReply,
    Command,
    ErrorInfo,
    ErrorReply,
    GameInfo,
    Games,
    GamesReply,
    GameSummary,
    Hello,
    HelloReply,
    Hint,
    HintMove,
    HintReply,
    Id,
    Legal,
    LegalReply,
    Limits,
    List,
    ListReply,
    Load,
    New,
    NewReply,
    Ping,
    Quit,
    Render,
    RenderReply,
    Reply,
    Request,
    Save,
    SaveReply,
    Status,
    StatusReply,
    Undo,
    UndoReply,
    View,
    ViewReply,
)

__all__ = ["Engine", "GameCache"]


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
    what records store), computed once per action id. (A game that declares
    ``annotated_moves`` shows texts that depend on the position: those are made anew each
    time.)"""

    __slots__ = ("plain",)

    def __init__(self) -> None:
        self.plain: dict[int, str] = {}


class _Session:
    """One open game: its state, its bots (per seat and configuration), its move texts and
    the seat its client plays (``player``, None if the client did not say)."""

    __slots__ = ("__weakref__", "annotated", "bots", "config", "game", "game_id", "player", "ply", "state", "texts")

    def __init__(self, game_id: str, state: Any, config: _Config, ply: int, player: int | None = None) -> None:
        self.game_id = game_id
        self.state = state
        self.ply = ply  # len(state.history), kept here: the history is copied when asked
        self.game: Any = state.game
        self.config = config  # held: the cache keeps a configuration while a game uses it
        self.texts = config.texts
        # Whether the game's legal moves name what the position shows (its declaration),
        # else every move is shown as its plain text.
        self.annotated: bool = type(state.game).annotated_moves
        self.bots: OrderedDict[tuple[Any, ...], Bot] = OrderedDict()
        self.player = player

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
        """The text of ``action`` as ``legal`` lists it (its plain text if not legal)."""
        if self.annotated:
            actions, texts = self.legal()
            i = bisect.bisect_left(actions, action)
            if i < len(actions) and actions[i] == action:
                return texts[i]
        return self.plain(action)

    def said(self, action: int, receiver: int | None) -> tuple[int | None, str, str]:
        """The legal ``action`` as ``receiver`` (a seat, or None: every seat alike) may know
        it, before it is played: (its id, its text as ``legal`` lists it, its text in this
        position). A move that hides something from the receiver (its text for the seat
        making it names more than its text for everyone: a card put away or picked) is
        said by its public text, and its id, which names it whole, is None when the
        receiver is a seat; ``receiver`` None is the trusted client, which keeps it."""
        state = self.state
        mover: int = state.current_player
        if receiver == mover:
            return action, self.shown(action), state.move_text(action, player=mover)
        public: str = state.move_text(action)
        if public != state.move_text(action, player=mover):
            return (None if receiver is not None else action), public, public
        return action, self.shown(action), public


class _Config:
    """One game configuration of a :class:`GameCache`: the game object, its move texts, the
    open games that use it (weakly: a game dropped without ``close`` frees it too) and the
    checkouts not yet handed to a game."""

    __slots__ = ("default", "game", "keys", "pins", "texts", "users")

    def __init__(self, game: Any, default: bool = False) -> None:
        self.game = game
        self.default = default  # a game's configuration without options: always kept, not counted
        self.texts = _Texts()
        self.users: weakref.WeakSet[_Session] = weakref.WeakSet()
        self.pins = 0
        self.keys: list[tuple[str, bytes]] = []

    def in_use(self) -> bool:
        return self.pins > 0 or len(self.users) > 0


def _options_key(name: str, options: Mapping[str, Any]) -> tuple[str, bytes]:
    try:
        return name, msgspec.json.encode(dict(options), order="sorted")
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:
        raise InvalidOptionError(f"options: {exc}") from None


class GameCache:
    """The game objects of many games, one per configuration (name and options), with their
    move texts: thread-safe, shareable by many engines (a server makes one and gives it to
    every connection's :class:`Engine`).

    A game object is costly to make (up to tens of milliseconds) and to keep (a game with its
    own component set may be about a megabyte), so every game of one configuration
    shares one, and at most ``max_configurations`` distinct configurations are alive: when a
    new one would exceed the cap, the least recently used configuration no open game uses
    is dropped; if every one is in use, the new one is refused with ``too_many_configurations``.

    A game's default configuration (asked for with no options) is kept apart: always
    available, never dropped and not counted against the cap (one per game), so that no
    client can lock another out of the default games. ``quota``, which an engine passes to
    :meth:`checkout` and :meth:`adopt`, refuses a configuration new to that engine beyond
    its own share, before the costly make.
    """

    def __init__(self, max_configurations: int = MAX_CONFIGURATIONS) -> None:
        check_limits(max_configurations=max_configurations)
        self.max_configurations = max_configurations
        self._lock = threading.Lock()
        self._by_key: dict[tuple[str, bytes], _Config] = {}
        self._configs: OrderedDict[int, _Config] = OrderedDict()  # by id(), least recently used first

    def __len__(self) -> int:
        """The number of distinct configurations alive that count against the cap (the
        games' default configurations do not)."""
        with self._lock:
            return self._counted()

    def checkout(
        self, name: str, options: Mapping[str, Any], quota: Callable[[_Config | None], None] | None = None
    ) -> _Config:
        """The configuration of this game name and options, pinned until :meth:`release`
        (or until a game holds it: :meth:`Engine._open`). InvalidOptionError for a bad
        name or options; ``too_many_configurations`` when the cap is reached, or when
        ``quota`` (called with the configuration found, or None for a new one) refuses."""
        from cruiselib._registry import make
        from cruiselib.records import _options

        key = _options_key(name, options)
        default = not options
        with self._lock:
            config = self._by_key.get(key)
        if config is None and not default:
            # Options that spell out the defaults name the default configuration.
            base = self.checkout(name, {})
            self.release(base)
            own = msgspec.to_builtins(base.game.options)
            if all(k in own and type(own[k]) is type(v) and own[k] == v for k, v in options.items()):
                return self.adopt(base.game, key, default=True)
        with self._lock:
            config = self._by_key.get(key)
            if config is not None:
                if quota is not None:
                    quota(config)
                self._touch(config)
                config.pins += 1
                return config
            if not default:  # refuse before the costly make
                if quota is not None:
                    quota(None)
                self._make_room()
        try:
            game = make(name, **_options(name, dict(options)))
        except CruiseError:
            raise
        except (TypeError, ValueError, OverflowError, RecursionError, msgspec.ValidationError) as exc:
            raise InvalidOptionError(f"bad options for {name!r}: {exc}") from None
        return self.adopt(game, key, quota, default=default)

    def adopt(
        self,
        game: Any,
        key: tuple[str, bytes] | None = None,
        quota: Callable[[_Config | None], None] | None = None,
        *,
        default: bool = False,
    ) -> _Config:
        """The configuration of ``game`` (kept under its own options and under ``key``, the
        options it was asked for), pinned as :meth:`checkout` pins it: an equal game already
        kept is shared and ``game`` dropped. ``default``: ``game`` is its game's default
        configuration (kept apart, not counted)."""
        own = _options_key(game.name, msgspec.to_builtins(game.options))
        with self._lock:
            config = self._by_key.get(own)
            if config is None or config.game != game:
                if not default:
                    if quota is not None:
                        quota(None)
                    self._make_room()
                config = _Config(game, default)
                self._configs[id(config)] = config
            elif quota is not None:
                quota(config)
            for k in (own, key or own):
                if self._by_key.get(k) is not config:
                    old = self._by_key.get(k)
                    if old is not None:
                        old.keys.remove(k)
                    self._by_key[k] = config
                    config.keys.append(k)
            while len(config.keys) > _MAX_ALIASES:  # bound the spellings kept of one configuration
                alias = next(k for k in config.keys if k != own)
                config.keys.remove(alias)
                del self._by_key[alias]
            self._touch(config)
            config.pins += 1
            return config

    def release(self, config: _Config) -> None:
        """Undo one :meth:`checkout` (or :meth:`adopt`)."""
        with self._lock:
            config.pins -= 1

    def hold(self, config: _Config, session: _Session) -> None:
        """Mark ``config`` used by ``session`` for as long as the session lives, and release
        the pin of its checkout."""
        with self._lock:
            config.users.add(session)
            config.pins -= 1

    def configs(self, name: str) -> list[_Config]:
        """The configurations of game ``name`` alive, most recently used first."""
        with self._lock:
            return [c for c in reversed(self._configs.values()) if c.game.name == name]

    def _touch(self, config: _Config) -> None:
        if id(config) in self._configs:
            self._configs.move_to_end(id(config))

    def _counted(self) -> int:
        """Configurations alive that count against the cap. Called with the lock held."""
        return sum(not c.default for c in self._configs.values())

    def _make_room(self) -> None:
        """Drop unused configurations, least recently used first, until one more fits;
        ``too_many_configurations`` if all are in use. Called with the lock held."""
        while (counted := self._counted()) >= self.max_configurations:
            victim = next((c for c in self._configs.values() if not c.default and not c.in_use()), None)
            if victim is None:
                raise _Fail(
                    "too_many_configurations",
                    f"the server's {counted} game configurations are all in use by open games (the most kept at"
                    " once): use the game's default options, or try again later",
                )
            del self._configs[id(victim)]
            for k in victim.keys:
                del self._by_key[k]
            victim.keys.clear()


class Engine:
    """The protocol without I/O: one session of many games, answered request by request.

    >>> engine = Engine()
    >>> engine.handle({"cmd": "new", "game": "sirens", "seed": 7, "id": 1})["game_id"]
    'g1'
    >>> engine.handle({"cmd": "apply", "game_id": "g1", "action": -1})["error"]["code"]
    'bad_request'

    ``max_games``: the most games open at once. ``games``: the game objects' cache (a server
    shares one among its engines; by default the engine has its own). ``search_slots``: a
    server-wide bound on concurrent searches, acquired around each one (``busy`` when none
    frees within :data:`SEARCH_SLOT_WAIT` seconds). ``max_configurations``: the most distinct
    configurations (beyond the games' defaults) this engine's open games may use, its share
    of a shared cache (``too_many_configurations`` beyond). ``max_session_ply``: the most
    actions its open games hold together (``too_many_actions`` beyond; each game holds at
    most :data:`MAX_PLY`).

    Threads: ``handle_line`` answers one request at a time; :meth:`interrupt`,
    :meth:`cancel_all` and :meth:`close`'s cancelling may be called from any thread while it
    runs (a server's reader calls ``interrupt`` for every line as it arrives).
    """

    def __init__(
        self,
        *,
        max_games: int = MAX_GAMES,
        games: GameCache | None = None,
        search_slots: threading.Semaphore | None = None,
        max_configurations: int = MAX_CONFIGURATIONS,
        max_session_ply: int = MAX_SESSION_PLY,
    ) -> None:
        check_limits(max_games=max_games, max_configurations=max_configurations, max_session_ply=max_session_ply)
        self.finished = False
        """True once ``quit`` was answered: the server loop then ends."""
        self.max_games = max_games
        self.max_configurations = max_configurations
        self.max_session_ply = max_session_ply
        self._ply = 0  # actions held by the open games together
        self.cache = games if games is not None else GameCache()
        self.search_slots = search_slots
        self._sessions: dict[str, _Session] = {}
        self._next_id = 1
        # Searches running now and cancels seen by ``interrupt`` and not yet answered,
        # guarded by one lock (``interrupt`` runs in the server's reader thread).
        self._lock = threading.Lock()
        self._running: list[_Search] = []
        self._cancels: deque[_PendingCancel] = deque()
        self._refuse_searches = False  # set once the client is gone: every later search is cancelled
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
            Cancel: self._cancel,
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
        except SearchCancelled as exc:
            reply = ErrorReply(id=request.id, error=ErrorInfo(code="cancelled", message=str(exc) or "cancelled"))
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
        """Stop any running search, forget the cancels not yet answered, then close every
        game (the engine stays usable)."""
        self.cancel_all()
        with self._lock:
            self._cancels.clear()
        self._sessions.clear()
        self._ply = 0

    def interrupt(self, line: bytes | bytearray | memoryview | str) -> bool:
        """Whether ``line`` is a ``cancel`` request; if it is, stop the search it names at
        once (or the next one to start, if it has not started yet: the cancel applies to
        searches requested before it, until the cancel itself is answered).

        Thread-safe and cheap: a server calls it for every line as it arrives, before
        queueing the line for :meth:`handle_line` (which answers the cancel in order). A
        server must then answer every cancel it passed here: one seen and never answered
        stays pending (the most recent 4,096 are kept) and would stop the next search it
        matches, until :meth:`close`."""
        # A line that neither spells "cancel" nor holds an escape (which may spell it) is
        # no cancel: the most lines are told apart without decoding.
        if isinstance(line, str):
            if "cancel" not in line and "\\u" not in line:
                return False
        elif b"cancel" not in line and b"\\u" not in line:
            return False
        try:
            request = self._decoder.decode(line)
        except (msgspec.DecodeError, RecursionError, UnicodeError, TypeError, ValueError):
            return False
        if not isinstance(request, Cancel):
            return False
        pending = _PendingCancel(_cancel_key(request), request.target)
        with self._lock:
            for search in self._running:
                if pending.matches(search):
                    pending.hit = search
                    search.event.set()
                    break
            self._cancels.append(pending)
            if len(self._cancels) > _MAX_PENDING_CANCELS:
                self._cancels.popleft()
        return True

    def cancel_all(self) -> None:
        """Stop every running search (a disconnect, a shutdown). Thread-safe."""
        with self._lock:
            for search in self._running:
                search.event.set()

    def client_gone(self) -> None:
        """Stop every running search and cancel every later one (``serve`` once nobody
        reads its replies: the lines still queued are answered without searching).
        Thread-safe."""
        with self._lock:
            self._refuse_searches = True
            for search in self._running:
                search.event.set()

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

    def _load_snapshot(self, data: str | bytes) -> tuple[Any, _Config]:
        """A snapshot's state in the cached game of its configuration (a snapshot of a
        custom card or ship list, which names it only by fingerprint, in a cached game of
        that list if there is one)."""
        name, cls, decoded = decode_snapshot(data)
        try:
            options = cls._options_of_snapshot(decoded)
        except InvalidStateError as exc:
            for config in self.cache.configs(name):
                try:
                    return config.game.load_state(data), self._pinned(config)
                except InvalidStateError:
                    continue
            raise exc from None
        config = self._checkout(name, options, InvalidStateError)
        try:
            return config.game._load_decoded(decoded), config
        except BaseException:
            self.cache.release(config)
            raise

    def _pinned(self, config: _Config) -> _Config:
        """``config`` pinned as a checkout pins it (found by :meth:`GameCache.configs`)."""
        return self.cache.adopt(config.game, quota=self._quota, default=config.default)

    def _quota(self, config: _Config | None) -> None:
        """Refuse (``too_many_configurations``) a configuration that is new to this engine's
        open games (``config``, or None for one not in the cache) once they use
        ``max_configurations`` (the games' defaults not counted). Called by the cache."""
        if config is not None and config.default:
            return
        held = {id(s.config) for s in self._sessions.values() if not s.config.default}
        if config is not None and id(config) in held:
            return
        if len(held) >= self.max_configurations:
            raise _Fail(
                "too_many_configurations",
                f"this session's open games use {len(held)} game configurations besides the games' defaults"
                f" (the most it may): close some, or use one of theirs or a game's default options",
            )

    def _checkout(
        self, name: str, options: Mapping[str, Any], error: type[CruiseError] = InvalidOptionError
    ) -> _Config:
        """The cache's configuration (pinned), an option error raised as ``error``."""
        try:
            return self.cache.checkout(name, options, self._quota)
        except InvalidOptionError as exc:
            if error is InvalidOptionError:
                raise
            raise error(f"the options are not valid: {exc}") from None

    def _replay(self, data: str | bytes) -> tuple[Any, _Config]:
        """A record's final state, replayed in the cached game of its configuration."""
        from cruiselib.records import _as_record

        record = _as_record(data)
        self._check_ply(len(record.actions), None)  # before the replay, which costs per action
        config = self._checkout(record.game, record.options, InvalidStateError)
        try:
            return cruiselib.replay(record, game=config.game), config
        except BaseException:
            self.cache.release(config)
            raise

    def _check_ply(self, ply: int, session: _Session | None) -> None:
        """Refuse a game of ``ply`` actions: one loaded (``session`` None: ``invalid_state``
        beyond MAX_PLY) or ``session`` grown to it (``game_too_long``), and either beyond the
        session's ``max_session_ply`` (``too_many_actions``)."""
        if ply > MAX_PLY:
            if session is None:
                raise InvalidStateError(f"the game holds {ply:,} actions: at most {MAX_PLY:,} are loaded here")
            raise _Fail("game_too_long", f"the game holds {session.ply:,} actions, the most one game may hold here")
        total = self._ply + ply - (session.ply if session is not None else 0)
        if total > self.max_session_ply:
            raise _Fail(
                "too_many_actions",
                f"this session's open games would hold {total:,} actions together, more than the"
                f" {self.max_session_ply:,} they may: close some games first",
            )

    def _open(self, state: Any, config: _Config, player: int | None = None) -> _Session:
        """A new open game of ``state``, which holds ``config`` (released if it fails),
        played by seat ``player`` (None: the client did not say)."""
        try:
            if player is not None:
                config.game.check_player(player)
            if len(self._sessions) >= self.max_games:
                raise _Fail("too_many_games", f"{self.max_games} games are open: close some first")
            ply = len(state.history)
            self._check_ply(ply, None)
            if ply == 0 and self._ply >= self.max_session_ply:  # a new game adds none, but the session is full
                self._check_ply(1, None)
        except BaseException:
            self.cache.release(config)
            raise
        game_id = f"g{self._next_id}"
        self._next_id += 1
        session = self._sessions[game_id] = _Session(game_id, state, config, ply, player)
        self._ply += ply
        self.cache.hold(config, session)
        return session

    def _grow(self, session: _Session) -> None:
        """Refuse one more action in ``session`` beyond the game's or the session's bound."""
        if session.ply >= MAX_PLY or self._ply >= self.max_session_ply:
            self._check_ply(session.ply + 1, session)

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
            "ply": session.ply,
            "scores": state.scores() if over else None,
            "winners": state.winners() if over else None,
            "player": session.player,
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

    @classmethod
    def _own_turn(cls, session: _Session, seat: int | None) -> int:
        """:meth:`_guard` for a request the client makes as the seat to move (``apply``,
        ``hint``): in a game with a ``player``, only on that seat's turns (a hint or a
        move's error would name that seat's hidden cards)."""
        player = session.player
        if player is not None:
            if seat is not None and seat != player:
                session.game.check_player(seat)
                raise _Fail("wrong_seat", f"this game's client plays seat {player}, not seat {seat}")
            seat = player
        return cls._guard(session, seat)

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
            # Every search is bounded: in time whatever its iterations, in iterations (the
            # tree's memory) whatever its time.
            if options.get("iterations", DEFAULT_ITERATIONS) is None:
                options["iterations"] = MAX_ITERATIONS
            if options.get("seconds") is None:
                options["seconds"] = MAX_SECONDS
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
            limits=Limits(
                games=self.max_games,
                configurations=min(self.max_configurations, self.cache.max_configurations),
                ply=MAX_PLY,
                session_ply=self.max_session_ply,
            ),
        )

    def _ping(self, req: Ping) -> Reply:
        return Reply(id=req.id)

    def _games_info(self, req: Games) -> Reply:
        if self._game_infos is None:
            from cruiselib._registry import game_class

            infos = []
            for name in cruiselib.games():
                config = self.cache.checkout(name, {})
                self.cache.release(config)
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

    def _bots_info(self, req: Bots) -> Reply:
        infos = []
        for name, cls in BOTS.items():
            params = inspect.signature(cls).parameters
            defaults = {p.name: p.default for p in params.values() if p.name != "seed"}
            infos.append(BotInfo(name=name, search=issubclass(cls, SearchBot), options=msgspec.to_builtins(defaults)))
        return BotsReply(id=req.id, bots=infos)

    def _new(self, req: New) -> Reply:
        config = self.cache.checkout(req.game, req.options, self._quota)
        seed: int | str = req.seed if req.seed is not None else secrets.randbits(53)
        try:
            state = config.game.new_state(seed=seed, start_player=req.start_player)
        except BaseException:
            self.cache.release(config)
            raise
        session = self._open(state, config, req.player)
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

    def _apply(self, req: Apply) -> Reply:
        session = self._session(req.game_id)
        if (req.action is None) == (req.move is None):
            raise _Fail("bad_request", "apply takes an action (an id) or a move (its text), exactly one")
        seat = self._own_turn(session, req.seat)
        action = req.action if req.action is not None else self._parse_move(session, req.move or "")
        self._grow(session)
        state = session.state
        if not state.is_legal(action):
            state.apply(action, seat)  # refused: IllegalMoveError says why, the state is unchanged
        _, move, text = session.said(action, seat)  # said before the move, to the seat making it
        state.apply(action, seat)
        session.ply += 1
        self._ply += 1
        return ApplyReply(id=req.id, action=action, move=move, text=text, seat=seat, **_outcome(session.state))

    def _bot(self, req: BotCommand) -> Reply:
        session = self._session(req.game_id)
        seat = self._guard(session, req.seat)
        bot = self._bot_for(session, seat, "bot", req)
        if req.apply:
            self._grow(session)  # before the search, not after it
        state = session.state
        if isinstance(bot, SearchBot):
            action = int(self._search(req.id, lambda cancel: bot.choose(state, cancel=cancel)))
        else:
            action = int(bot.choose(state))
        # Said before the move, to the game's player (else every seat alike): the page of
        # a person facing the bot must not learn the card the bot put away.
        shown_action, move, text = session.said(action, session.player)
        if req.apply:
            session.state.apply(action, seat)
            session.ply += 1
            self._ply += 1
        return BotReply(
            id=req.id,
            action=shown_action,
            move=move,
            text=text,
            seat=seat,
            **_outcome(session.state),
            bot=req.bot,
            iterations=_iterations(bot),
            applied=req.apply,
        )

    def _hint(self, req: Hint) -> Reply:
        session = self._session(req.game_id)
        seat = self._own_turn(session, req.seat)
        bot = self._bot_for(session, seat, "hint", req)
        state = session.state
        if isinstance(bot, SearchBot):
            analysis = self._search(req.id, lambda cancel: bot.analyse(state, cancel=cancel))
        else:
            analysis = bot.analyse(state)
        candidates: list[Candidate] = analysis[: req.count]
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
                    # The analysis says its moves to the seat it is for (the seat to move).
                    text=c.text if c.text is not None else state.move_text(c.action, player=seat),
                    visits=c.visits,
                    value=None if c.value is None or c.value != c.value else float(c.value),
                )
                for c in candidates
            ],
        )

    def _undo(self, req: Undo) -> Reply:
        session = self._session(req.game_id)
        played = session.ply
        if req.count > played:
            raise _Fail(
                "nothing_to_undo",
                f"cannot undo {req.count} action(s): the history holds {played}",
            )
        # One replay for all of them (a failure leaves the game as it was).
        undone = [int(a) for a in session.state.take_back(req.count)]
        session.ply -= req.count
        self._ply -= req.count
        ids, moves = _undone_as_known(session, undone)
        return UndoReply(id=req.id, undone=ids, moves=moves, **self._status_fields(session))

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
            state, config = self._replay(record)
        elif req.game is not None:
            config = self.cache.checkout(req.game, req.options, self._quota)
            try:
                state = config.game.load_state(snapshot)
            except BaseException:
                self.cache.release(config)
                raise
        else:
            if req.options:
                raise _Fail("bad_request", "options need the game's name (game)")
            assert snapshot is not None
            state, config = self._load_snapshot(snapshot)
        session = self._open(state, config, req.player)
        return StatusReply(id=req.id, **self._status_fields(session))

    def _close(self, req: Close) -> Reply:
        session = self._sessions.pop(req.game_id, None)
        if session is None:
            raise _Fail("unknown_game", f"no open game {req.game_id!r}")
        self._ply -= session.ply
        return CloseReply(id=req.id, game_id=req.game_id)

    def _quit(self, req: Quit) -> Reply:
        self.finished = True
        self.close()
        return Reply(id=req.id)

    def _cancel(self, req: Cancel) -> Reply:
        """The cancel's own reply, in order: whether it stopped a search. A cancel that
        :meth:`interrupt` saw already acted then; one it did not see (an engine driven
        without a reader) stops a matching search still running, if any."""
        key = _cancel_key(req)
        with self._lock:
            pending = next((c for c in self._cancels if c.key == key), None)
            if pending is not None:
                self._cancels.remove(pending)
            else:
                pending = _PendingCancel(key, req.target)
                for search in self._running:
                    if pending.matches(search):
                        pending.hit = search
                        search.event.set()
                        break
        hit = pending.hit
        return CancelReply(id=req.id, cancelled=hit is not None and hit.stopped is not False)

    # ----------------------------------------------------------------- searches

    def _search(self, request_id: Any, run: Callable[[threading.Event], _T]) -> _T:
        """``run(cancel)`` as the search of request ``request_id``: stopped by a matching
        cancel (SearchCancelled: ``cancelled``), run in a search slot if the server bounds
        them (``busy`` if none frees in time)."""
        search = _Search(request_id)
        with self._lock:
            if self._refuse_searches:
                search.event.set()
            for pending in self._cancels:  # a cancel that came before the search started
                if pending.hit is None and pending.matches(search):
                    pending.hit = search
                    search.event.set()
                    break
            self._running.append(search)
        try:
            slots = self.search_slots
            if slots is not None:
                deadline = time.monotonic() + SEARCH_SLOT_WAIT
                while not slots.acquire(timeout=0.05):
                    if search.event.is_set():
                        raise SearchCancelled("the search was cancelled before it started")
                    if time.monotonic() >= deadline:
                        search.stopped = False
                        raise _Fail("busy", f"no search slot freed within {SEARCH_SLOT_WAIT:g} s: try again later")
            try:
                if search.event.is_set():
                    raise SearchCancelled("the search was cancelled before it started")
                result = run(search.event)
            finally:
                if slots is not None:
                    slots.release()
        except SearchCancelled:
            search.stopped = True
            raise SearchCancelled("the search was cancelled: the game is unchanged") from None
        except BaseException:
            search.stopped = False
            raise
        finally:
            with self._lock:
                self._running.remove(search)
        search.stopped = False
        return result


_T = TypeVar("_T")


class _Search:
    """A running search: the request's id, its cancel event and, once over, whether it was
    stopped (None while it runs)."""

    __slots__ = ("event", "request_id", "stopped")

    def __init__(self, request_id: Any) -> None:
        self.request_id = request_id
        self.event = threading.Event()
        self.stopped: bool | None = None


class _PendingCancel:
    """A cancel request seen as it arrived (``Engine.interrupt``) and not yet answered: the
    search it stopped (``hit``), if any."""

    __slots__ = ("hit", "key", "target")

    def __init__(self, key: tuple[Any, ...], target: Any) -> None:
        self.key = key
        self.target = target
        self.hit: _Search | None = None

    def matches(self, search: _Search) -> bool:
        """Whether this cancel stops ``search``: any search without a target, else the one
        whose request id is the target (1 and 1.0, or "1" and 1, are not the same id)."""
        if self.target is None:
            return True
        target, rid = self.target, search.request_id
        return type(target) is type(rid) and bool(target == rid)


def _cancel_key(request: Cancel) -> tuple[Any, ...]:
    """What matches a cancel seen by ``interrupt`` with its answer: its id and target (each
    with its type: 1 and "1" differ)."""
    return (type(request.id), request.id, type(request.target), request.target)


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


def _undone_as_known(session: _Session, undone: list[int]) -> tuple[list[int | None], list[str]]:
    """The actions just taken back (most recent first) as the game's player (else the
    trusted client) may know them: each with its plain text, unless it hides something
    from that receiver (told by its texts in the position it was played in, replayed
    from the position the undo went back to): then its public text, and no id for a
    player."""
    receiver = session.player
    state = session.state.clone()
    said: list[tuple[int | None, str]] = []
    for action in reversed(undone):
        mover: int = state.current_player
        public: str = state.move_text(action)
        if receiver != mover and public != state.move_text(action, player=mover):
            said.append((None if receiver is not None else action, public))
        else:
            said.append((action, session.plain(action)))
        state.apply(action)
    said.reverse()
    return [a for a, _ in said], [m for _, m in said]


def _iterations(bot: Bot) -> int | None:
    return int(bot.last_iterations) if isinstance(bot, SearchBot) else None


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
        raise _Fail("bad_json", f"not a JSON line: invalid UTF-8 or a lone surrogate in a string ({exc})") from None
    return data


def _json_type(value: Any) -> str:
    names: dict[type, str] = {list: "an array", str: "a string", int: "a number", float: "a number", bool: "a boolean"}
    return "null" if value is None else names.get(type(value), type(value).__name__)
