"""The protocol without I/O: :class:`Engine` decodes one request line, hands the request to
its command's handler and encodes the reply. The handlers live beside it, one concern a
module: :mod:`.info_commands`, :mod:`.game_commands` and :mod:`.move_commands`; the open
games of the session in :mod:`.open_games` (each one a :mod:`.session`), their game objects
in a :class:`~.cache.GameCache`, the searches and their cancels in :mod:`.searches`, the
error replies in :mod:`.failures`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from cruiselib.errors import CruiseError, InvalidPositionError, SearchCancelled

from .cache import GameCache
from .failures import ReplyError, error_code_of, internal_error, not_a_request
from .game_commands import GameCommands
from .info_commands import InfoCommands
from .limits import MAX_CONFIGURATIONS, MAX_GAMES, MAX_SESSION_PLY, check_limits
from .messages import Cancel, CancelReply, Command, ErrorInfo, ErrorReply, Quit, Reply, Request
from .move_commands import MoveCommands
from .open_games import OpenGames
from .searches import Searches

__all__ = ["Engine", "GameCache"]


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
        self.cache = games if games is not None else GameCache()
        self.search_slots = search_slots
        self._sessions = OpenGames(self.cache, max_games, max_configurations, max_session_ply)
        self._searches = Searches(search_slots)
        self._decoder = msgspec.json.Decoder(Request)
        self._encoder = msgspec.json.Encoder()
        self._handlers: dict[type[Command], Callable[[Any], Reply]] = {
            **InfoCommands(self._sessions).handlers(),
            **GameCommands(self._sessions).handlers(),
            **MoveCommands(self._sessions, self._searches).handlers(),
            Quit: self._quit,
            Cancel: self._cancel,
        }

    @property
    def max_games(self) -> int:
        """The most games open at once."""
        return self._sessions.max_games

    @property
    def max_configurations(self) -> int:
        """The most configurations (beyond the games' defaults) the open games may use."""
        return self._sessions.max_configurations

    @property
    def max_session_ply(self) -> int:
        """The most actions the open games may hold together."""
        return self._sessions.max_session_ply

    def handle_line(self, line: bytes | bytearray | memoryview | str) -> bytes:
        """The reply line (JSON, no newline) to one request line. Never raises (but
        KeyboardInterrupt and SystemExit pass through)."""
        try:
            request = self._decoder.decode(line)
        except (msgspec.DecodeError, RecursionError, UnicodeError, TypeError) as exc:
            return self._encode(not_a_request(line, exc))
        try:
            reply = self._handlers[type(request)](request)
        except ReplyError as failure:
            reply = ErrorReply(id=request.id, error=ErrorInfo(code=failure.code, message=failure.message))
        except SearchCancelled as exc:
            reply = ErrorReply(id=request.id, error=ErrorInfo(code="cancelled", message=str(exc) or "cancelled"))
        except CruiseError as exc:
            problems = list(exc.problems) if isinstance(exc, InvalidPositionError) else None
            reply = ErrorReply(
                id=request.id, error=ErrorInfo(code=error_code_of(exc), message=str(exc), problems=problems)
            )
        except Exception as exc:
            reply = internal_error(request.id, exc)
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
        self._searches.stop_all(forget_cancels=True)
        self._sessions.close_all()

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
        self._searches.seen(request)
        return True

    def cancel_all(self) -> None:
        """Stop every running search (a disconnect, a shutdown). Thread-safe."""
        self._searches.stop_all()

    def client_gone(self) -> None:
        """Stop every running search and cancel every later one (``serve`` once nobody
        reads its replies: the lines still queued are answered without searching).
        Thread-safe."""
        self._searches.stop_all(refuse_later=True)

    def _encode(self, reply: Reply) -> bytes:
        """A reply's line; a reply the encoder refuses is a bug, answered as one."""
        try:
            return self._encoder.encode(reply)
        except Exception as exc:
            return self._encoder.encode(internal_error(reply.id, exc))

    def _quit(self, req: Quit) -> Reply:
        """``quit``: every game closed, and the server loop told to end."""
        self.finished = True
        self.close()
        return Reply(id=req.id)

    def _cancel(self, req: Cancel) -> Reply:
        """``cancel``'s own reply, in order: whether it stopped a search."""
        return CancelReply(id=req.id, cancelled=self._searches.answer(req))
