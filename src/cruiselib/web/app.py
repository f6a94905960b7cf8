"""The ASGI application of ``cruiselib web`` (see the package's docstring).

What the application trusts and bounds (docs/web.md, "Limits" and "Security"):

- **Host and Origin.** Every request's ``Host`` must name this server: the address the
  connection arrived at, ``localhost``, ``127.0.0.1`` or ``[::1]``, or a name given in
  ``allowed_hosts``, with the port the connection arrived at (a DNS-rebinding name is
  refused with 400). A WebSocket handshake that carries an ``Origin`` (every browser's
  does) must come from such a host too: a page of another site cannot drive the engine
  (refused with 403 before the handshake completes). No ``Origin``: not a browser, allowed.
- **Connections.** At most ``max_connections`` WebSockets at once; one more is refused
  with 503. A WebSocket with no request for ``idle_timeout`` seconds (and none running)
  is closed (code 1001).
- **Frames.** A frame longer than the protocol's line limit (``protocol.MAX_LINE``) is
  answered ``line_too_long`` and skipped; the server (:mod:`cruiselib.web.server`) closes a
  connection whose frame exceeds :data:`WS_MAX_SIZE` (code 1009) without reading it.
- **Work.** A connection's requests are answered in order, one at a time. Searches
  (``bot``, ``hint``) run on a pool of their own and take one of ``max_searches``
  server-wide slots (``busy`` when none frees in time), so cheap requests never queue
  behind them. Frames are read while a request runs, so a ``cancel`` stops a search at
  once; a closed connection cancels its search.
- **Memory.** One game object per configuration, shared by every connection
  (``protocol.GameCache``): each connection may use :data:`CONFIGURATIONS_PER_CONNECTION`
  configurations besides the games' defaults (always available), and the cache holds
  ``max_connections`` times that, so no connection can lock the others out; at most
  ``max_games`` open games per connection, holding at most :data:`ACTIONS_PER_CONNECTION`
  actions together; frames read ahead of the request being answered are bounded
  (:data:`QUEUE_FRAMES`, :data:`QUEUE_BYTES`) and dropped when the connection closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import queue
import threading
import urllib.parse
from collections.abc import Callable, Iterable
from importlib import resources
from typing import Any, Final, TypeVar

import msgspec
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

import cruiselib
from cruiselib._api import Game
from cruiselib._registry import game_class
from cruiselib.errors import InvalidOptionError, InvalidStateError
from cruiselib.integration import WebBoard
from cruiselib.protocol import MAX_LINE, MAX_PLY, Engine, GameCache, check_limits, is_search

__all__ = [
    "ACTIONS_PER_CONNECTION",
    "CHEAP_THREADS",
    "CONFIGURATIONS_PER_CONNECTION",
    "IDLE_TIMEOUT",
    "LOCAL_HOSTS",
    "MAX_CONNECTIONS",
    "MAX_GAMES_PER_CONNECTION",
    "MAX_SEARCHES",
    "QUEUE_BYTES",
    "QUEUE_FRAMES",
    "WS_MAX_SIZE",
    "WebState",
    "catalog",
    "create_app",
    "drawer_url",
    "end_reason",
    "fair_bots",
    "offered_games",
    "styles_file",
]

MAX_CONNECTIONS: Final = 64
"""The most WebSocket connections open at once; one more is refused (HTTP 503)."""
MAX_GAMES_PER_CONNECTION: Final = 100
"""The most games one connection keeps open (``too_many_games`` beyond)."""
CONFIGURATIONS_PER_CONNECTION: Final = 2
"""Game configurations (name and options) one connection's games may use besides the
games' defaults (``too_many_configurations`` beyond): the server's cache holds
``max_connections`` times this many, so that one connection cannot fill it."""
ACTIONS_PER_CONNECTION: Final = 2 * MAX_PLY + 10_000
"""The most actions one connection's open games hold together (``too_many_actions``
beyond): two games of the longest kind and more than a hundred real ones."""
MAX_SEARCHES: Final = max(2, os.cpu_count() or 1)
"""The most searches (``bot``, ``hint``) running at once, server-wide."""
CHEAP_THREADS: Final = 8
"""Threads answering the other requests (each takes milliseconds)."""
IDLE_TIMEOUT: Final = 900.0
"""Seconds a WebSocket may stay without a request (and none running) before it is closed."""
WS_MAX_SIZE: Final = 2 * MAX_LINE
"""The largest frame the server reads (its ``ws_max_size``): a longer one closes the
connection (code 1009); one between ``MAX_LINE`` and this is answered ``line_too_long``."""
QUEUE_FRAMES: Final = 64
"""Frames a connection reads ahead of the request being answered, at most; beyond, the
server stops reading that connection until it catches up."""
QUEUE_BYTES: Final = 2 * MAX_LINE
"""Bytes of frames a connection reads ahead of the request being answered, at most."""
LOCAL_HOSTS: Final = ("localhost", "127.0.0.1", "::1")
"""Host names always allowed (with the server's port)."""

STATIC = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}
DRAWER_TYPE: Final = "text/javascript; charset=utf-8"
"""The media type of a game's drawer script (``/games/{game}.js``)."""
STYLE_TYPE: Final = "text/css; charset=utf-8"
"""The media type of a game's board styles (``/games/{game}.css``)."""
HINT_BOT: Final = "ismcts"
"""The bot that answers the page's Hint button (``/bots``: ``hint``)."""
_DEFAULT_PORTS: Final = {"http": 80, "ws": 80, "https": 443, "wss": 443}
_LINE_TOO_LONG: Final = msgspec.json.encode(
    {
        "id": None,
        "ok": False,
        "error": {"code": "line_too_long", "message": f"the frame is longer than {MAX_LINE} bytes: it was skipped"},
    }
).decode()

_T = TypeVar("_T")
_log = logging.getLogger("cruiselib.web")
_BROKEN: set[tuple[str, type[Any]]] = set()  # (name, class) of each failed catalog logged


@functools.cache
def _static(name: str) -> bytes:
    return resources.files("cruiselib.web").joinpath("static").joinpath(name).read_bytes()


def offered_games() -> tuple[str, ...]:
    """The games the page offers, in the page's order: every registered game that declares
    a :class:`~cruiselib.integration.WebBoard` (``Game.web``), in the registry's order
    (:func:`cruiselib.games`, sorted by name; the first is the page's default choice)."""
    return tuple(name for name in cruiselib.games() if game_class(name).web is not None)


def _web_board(name: str) -> tuple[type[Game[Any]], WebBoard]:
    """The game class registered under ``name`` and its web declaration; InvalidOptionError
    for an unknown game or one the page does not offer (``web`` is None)."""
    cls = game_class(name)
    if cls.web is None:
        raise InvalidOptionError(f"the web page does not offer {name!r} (its game class declares no web board)")
    return cls, cls.web


def catalog(name: str) -> dict[str, Any]:
    """What the page needs for game ``name``, from its game class's declarations: its
    ``title``, the seat counts it allows (``player_counts``, and ``players``: the lowest and
    the highest), the ``options`` offered when a game starts, the URL of its ``drawer``
    script, and its web board's catalog of the default game (the names behind the ids a
    view holds, board values). InvalidOptionError for an unknown game or one the page
    does not offer."""
    cls, _ = _web_board(name)
    return dict(_catalog_of(name, cls))


@functools.cache
def _catalog_of(name: str, cls: type[Game[Any]]) -> dict[str, Any]:
    # Cached per class as well as name: a name registered again (at run time) is asked anew.
    web = cls.web
    assert web is not None  # _web_board checked it
    game: Any = cruiselib.make(name)
    counts = [int(n) for n in cls.player_counts]
    # The board's own data first: the keys the page reads for every game are the page's.
    out: dict[str, Any] = dict(web.catalog(game))
    out |= {
        "game": name,
        "title": game.title,
        # How to win and how the game ends, as the game declares them (the page's "How to
        # win" box; none where the game says nothing).
        "rules": {"goal": cls.how_to_win, "end": cls.how_it_ends} if cls.how_to_win else None,
        "players": [counts[0], counts[-1]],
        "player_counts": counts,
        "options": [option.to_json() for option in web.options],
        "drawer": drawer_url(name),
    }
    # As the page reads it (JSON: lists, not tuples), and a catalog JSON cannot hold fails here.
    decoded: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(out))
    return decoded


def _catalog_failure(name: str) -> Exception | None:
    """The error of game ``name``'s catalog, None when it has one. The first failure of a
    registered class is logged (naming the game and the error), not each request's."""
    try:
        catalog(name)
    except InvalidOptionError:
        raise
    except Exception as exc:
        key = (name, game_class(name))
        if key not in _BROKEN:
            _BROKEN.add(key)
            _log.error("cruiselib web: game %r left out of the page: its catalog failed: %r", name, exc)
        return exc
    return None


def drawer_url(name: str) -> str:
    """The URL of game ``name``'s drawer script."""
    return f"/games/{name}.js"


def styles_file(drawer: tuple[str, str]) -> tuple[str, str]:
    """The package and file of a game's board styles: the drawer script's file name with
    ``.css`` for ``.js``, beside it in its package (``board.js`` → ``board.css``)."""
    package, file = drawer
    stem = file[: -len(".js")] if file.endswith(".js") else file
    return package, stem + ".css"


def fair_bots() -> list[dict[str, Any]]:
    """The bots a person may play against on the page, in the registry's order: every bot
    but those that see hidden cards (a search on the true position, ``determinize`` off),
    each with its name and whether it searches (``search``: the page gives it thinking time)."""
    from cruiselib.bots import BOTS
    from cruiselib.bots.search import SearchBot

    out = []
    for name, cls in BOTS.items():
        search = issubclass(cls, SearchBot)
        if search and not getattr(cls, "determinize", True):
            continue
        out.append({"name": name, "search": search})
    return out


@functools.cache
def _resource(package: str, file: str) -> bytes:
    """A file of a package (a game's drawer script, as its web board names it)."""
    return resources.files(package).joinpath(file).read_bytes()


def _not_found() -> Response:
    return Response("not found", status_code=404, media_type="text/plain")


async def _page(request: Request) -> Response:
    name = request.path_params.get("name", "index.html")
    if name not in STATIC:
        return _not_found()
    return Response(_static(name), media_type=STATIC[name], headers={"Cache-Control": "no-cache"})


async def _games(request: Request) -> Response:
    # The seat counts too: the page's setup form hides the seat and opponent boxes of a
    # configuration with one seat. A game whose catalog fails is left out (and logged):
    # the page could not start it, and must still start the others.
    games = [
        {
            "game": name,
            "title": game_class(name).title,
            "player_counts": [int(n) for n in game_class(name).player_counts],
        }
        for name in offered_games()
        if _catalog_failure(name) is None
    ]
    return JSONResponse({"games": games})


async def _catalog(request: Request) -> Response:
    name = request.path_params["game"]
    try:
        failure = _catalog_failure(name)
        if failure is None:
            return JSONResponse(catalog(name))
    except InvalidOptionError:
        return JSONResponse({"error": f"no game {name!r}"}, status_code=404)
    return JSONResponse({"error": f"game {name!r}: its catalog failed: {failure!r}"}, status_code=500)


async def _drawer(request: Request) -> Response:
    """A game's drawer script, read from its package (``WebBoard.drawer``), or its board
    styles (:func:`styles_file`, beside the script): 404 for a path that is not
    ``/games/{offered game}.js`` or ``.css``, or a game without styles of its own."""
    name, dot, kind = request.path_params["file"].rpartition(".")
    if not dot or kind not in ("js", "css"):
        return _not_found()
    try:
        _, web = _web_board(name)
        body = _resource(*(web.drawer if kind == "js" else styles_file(web.drawer)))
    except (InvalidOptionError, OSError):
        return _not_found()
    media = DRAWER_TYPE if kind == "js" else STYLE_TYPE
    return Response(body, media_type=media, headers={"Cache-Control": "no-cache"})


def end_reason(record: str | bytes) -> str | None:
    """Why the game a record tells ended, as its game says it (``Game.end_reason`` of the
    state the record ends in): the page's last words on a finished game. None for a game
    not over. InvalidStateError for a record that does not replay (a malformed one, one
    of an unknown game); InvalidOptionError for a game the page does not offer."""
    try:
        name = msgspec.json.decode(record, type=dict)["game"]
    except (msgspec.DecodeError, msgspec.ValidationError, KeyError) as exc:
        raise InvalidStateError(f"game record: {exc}") from None
    if not isinstance(name, str):
        raise InvalidStateError("game record: its game is not a name")
    _web_board(name)
    state: Any = cruiselib.replay(record)
    reason: str | None = state.game.end_reason(state)
    return reason


async def _ending(request: Request) -> Response:
    """``POST /ending`` with a game's record (the protocol's ``save``): ``{"reason": ...}``,
    why it ended (:func:`end_reason`); 400 for a record that does not replay, 413 for a
    body longer than the protocol's line limit."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_LINE:
            return JSONResponse({"error": f"a record of at most {MAX_LINE} bytes"}, status_code=413)
    try:
        reason = await run_in_threadpool(end_reason, bytes(body))
    except (InvalidStateError, InvalidOptionError) as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    return JSONResponse({"reason": reason})


async def _bots(request: Request) -> Response:
    # The page names no bot: it offers these, and asks the hint bot for hints.
    return JSONResponse({"bots": fair_bots(), "hint": HINT_BOT})


# --------------------------------------------------------------------------- hosts


def _host_name(name: str) -> str:
    """A host name as compared: lower case, without IPv6 brackets or a final dot."""
    return name.strip().strip("[]").rstrip(".").lower()


def _split_netloc(netloc: str, scheme: str) -> tuple[str, int] | None:
    """(name, port) of a ``Host`` value or an origin's authority (the scheme's default
    port when it names none); None when it is malformed or carries user information."""
    if not netloc or "@" in netloc or any(c in netloc for c in "/?#\\ \t"):
        return None
    try:
        parts = urllib.parse.urlsplit(f"//{netloc}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname:
        return None
    if port is None:
        if netloc.endswith(":") or scheme not in _DEFAULT_PORTS:
            return None
        port = _DEFAULT_PORTS[scheme]
    return _host_name(parts.hostname), port


def _header(scope: Scope, name: bytes) -> str | None:
    """The value of one request header (the first if repeated), or None."""
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


class _HostGuard:
    """ASGI middleware: refuses HTTP requests (400) and WebSocket handshakes (403) whose
    ``Host`` the :class:`WebState` does not allow."""

    def __init__(self, app: ASGIApp, state: WebState) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not self.state.host_allowed(scope):
            if scope["type"] == "http":
                await PlainTextResponse("host not allowed", status_code=400)(scope, receive, send)
            else:
                await _deny(WebSocket(scope, receive, send), 403, "host not allowed", 1008)
            return
        await self.app(scope, receive, send)


async def _deny(websocket: WebSocket, status: int, text: str, code: int) -> None:
    """Refuse a WebSocket handshake: an HTTP response saying why where the server can send
    one, else a close before accepting (which the server answers with 403)."""
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        await websocket.send_denial_response(PlainTextResponse(text, status_code=status))
    else:
        await websocket.close(code=code, reason=text)


# --------------------------------------------------------------------------- threads


class _ThreadPool:
    """Up to ``size`` daemon threads running blocking calls for the event loop.

    Daemon threads, unlike ``concurrent.futures``' (which the interpreter joins at exit):
    once the server has stopped, a request still running cannot hold the process."""

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.size = size
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], asyncio.Future[Any], asyncio.AbstractEventLoop]] = (
            queue.SimpleQueue()
        )
        self._lock = threading.Lock()
        self._threads = 0
        self._idle = 0  # threads waiting for a job
        self._queued = 0  # jobs no thread has taken yet

    def submit(self, fn: Callable[[], _T]) -> asyncio.Future[_T]:
        """Run ``fn()`` on a thread of the pool: a future of the event loop, resolved with
        its result once it returns (cancelling the future does not stop ``fn``)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[_T] = loop.create_future()
        with self._lock:
            self._queued += 1
            start = self._queued > self._idle and self._threads < self.size
            if start:
                self._threads += 1
        self._jobs.put((fn, future, loop))
        if start:
            threading.Thread(target=self._work, name=f"{self.name}-{self._threads}", daemon=True).start()
        return future

    def _work(self) -> None:
        while True:
            with self._lock:
                self._idle += 1
            fn, future, loop = self._jobs.get()
            with self._lock:
                self._idle -= 1
                self._queued -= 1
            try:
                outcome: tuple[bool, Any] = (True, fn())
            except Exception as exc:
                outcome = (False, exc)
            with contextlib.suppress(RuntimeError):  # the loop is closed: no one waits
                loop.call_soon_threadsafe(_settle, future, outcome)


def _settle(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if future.done():
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


# --------------------------------------------------------------------------- the server's state


class WebState:
    """What every connection of one application shares: the host rules, the game objects'
    cache, the search slots and the thread pools, and the engines open now.

    ``allowed_hosts``: names (or ``name:port``) a request's ``Host`` and a WebSocket's
    ``Origin`` may carry besides the local ones (:data:`LOCAL_HOSTS` and the address the
    connection arrived at); a name without a port is allowed with the server's port."""

    def __init__(
        self,
        *,
        allowed_hosts: Iterable[str] = (),
        max_connections: int = MAX_CONNECTIONS,
        max_games: int = MAX_GAMES_PER_CONNECTION,
        max_searches: int = MAX_SEARCHES,
        idle_timeout: float = IDLE_TIMEOUT,
    ) -> None:
        check_limits(max_connections=max_connections, max_games=max_games, max_searches=max_searches)
        if not isinstance(idle_timeout, (int, float)) or not idle_timeout > 0:
            raise InvalidOptionError(f"idle_timeout must be a number of seconds > 0, not {idle_timeout!r}")
        self.names: set[str] = {_host_name(h) for h in LOCAL_HOSTS}
        self.names_with_port: set[tuple[str, int]] = set()
        for entry in allowed_hosts:
            self.allow(entry)
        self.max_connections = max_connections
        self.max_games = max_games
        self.idle_timeout = float(idle_timeout)
        # Every connection's quota fits: no connection can lock the others out of a game.
        self.games = GameCache(max_configurations=max_connections * CONFIGURATIONS_PER_CONNECTION)
        self.search_slots = threading.Semaphore(max_searches)
        # One request at a time per connection: a thread per connection is the most the
        # search pool can need (most of them wait for a slot, cheaply).
        self.search_pool = _ThreadPool("cruiselib-web-search", max_connections)
        self.cheap_pool = _ThreadPool("cruiselib-web-request", CHEAP_THREADS)
        self.engines: set[Engine] = set()
        self.connections = 0
        """WebSocket connections open now."""
        self.stopping = False
        """Set at shutdown: no new request starts."""
        self._searching = 0
        self._lock = threading.Lock()
        self._reapers: set[asyncio.Future[None]] = set()  # engines closing once their thread is done

    def allow(self, entry: str) -> None:
        """Allow one more host: ``name`` (with the server's port) or ``name:port`` (an IPv6
        address in brackets when it has a port). InvalidOptionError for a malformed entry."""
        text = entry.strip()
        if text.count(":") > 1 and not text.startswith("["):  # a bare IPv6 address
            text = f"[{text}]"
        try:
            if not text or any(c in text for c in "/?#@\\ \t") or text.endswith(":"):
                raise ValueError(text)
            parts = urllib.parse.urlsplit(f"//{text}")
            name, port = parts.hostname, parts.port
            if not name:
                raise ValueError(text)
        except ValueError:
            raise InvalidOptionError(f"not a host name or host:port: {entry!r}") from None
        if port is None:
            self.names.add(_host_name(name))
        else:
            self.names_with_port.add((_host_name(name), port))

    @property
    def searching(self) -> int:
        """Searches (``bot``, ``hint`` requests) running or waiting for a slot now."""
        with self._lock:
            return self._searching

    def _allowed(self, name: str, port: int, scope: Scope) -> bool:
        server = scope.get("server")
        server_port = server[1] if server and len(server) > 1 else None
        if (name, port) in self.names_with_port:
            return True
        if port != server_port:
            return False
        return name in self.names or (server is not None and name == _host_name(str(server[0])))

    def host_allowed(self, scope: Scope) -> bool:
        """Whether the request's ``Host`` names this server (or is absent: not a browser,
        which always sends one; HTTP/1.1 servers refuse such requests anyway)."""
        host = _header(scope, b"host")
        if host is None:
            return True
        scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        split = _split_netloc(host, scheme)
        return split is not None and self._allowed(*split, scope)

    def origin_allowed(self, scope: Scope) -> bool:
        """Whether a WebSocket handshake's ``Origin`` is this server's (or absent: not a
        browser, whose pages cannot leave it out)."""
        origin = _header(scope, b"origin")
        if origin is None:
            return True
        try:
            parts = urllib.parse.urlsplit(origin.strip())
        except ValueError:
            return False
        if parts.scheme not in ("http", "https") or parts.path or parts.query or parts.fragment:
            return False
        split = _split_netloc(parts.netloc, parts.scheme)
        return split is not None and self._allowed(*split, scope)

    def stop(self) -> None:
        """At shutdown: stop every running search and start no new request."""
        self.stopping = True
        for engine in list(self.engines):
            engine.cancel_all()

    def retire(self, engine: Engine, job: asyncio.Future[bytes] | None) -> None:
        """Close the engine of a connection that has ended: stop its search in hand (``job``)
        and close it once its thread is done with it."""
        engine.cancel_all()
        if job is None or job.done():
            engine.close()
            return
        reaper = asyncio.ensure_future(self._reap(engine, job))
        self._reapers.add(reaper)
        reaper.add_done_callback(self._reapers.discard)

    async def _reap(self, engine: Engine, job: asyncio.Future[bytes]) -> None:
        while not job.done():
            engine.cancel_all()  # again each turn: the search may have started only now
            await asyncio.wait({job}, timeout=0.05)
        engine.close()

    def search(self, engine: Engine, line: str | bytes) -> bytes:
        """Answer a search request (on a search pool's thread), counted in :attr:`searching`."""
        with self._lock:
            self._searching += 1
        try:
            return engine.handle_line(line)
        finally:
            with self._lock:
                self._searching -= 1

    async def serve_socket(self, websocket: WebSocket) -> None:
        """The engine protocol over one WebSocket: each text (or binary) frame is one
        request, answered by one text frame, in order; ``quit`` closes the connection
        after its reply."""
        if not self.origin_allowed(websocket.scope):
            await _deny(websocket, 403, "origin not allowed", 1008)
            return
        if self.connections >= self.max_connections or self.stopping:
            await _deny(websocket, 503, f"too many connections (at most {self.max_connections})", 1013)
            return
        self.connections += 1
        try:
            await websocket.accept()
            await _Connection(self, websocket).run()
        finally:
            self.connections -= 1


class _TooLong:
    """A frame over the line limit, queued so that its ``line_too_long`` reply comes in order."""


_TOO_LONG: Final = _TooLong()


class _Connection:
    """One WebSocket: a reader that takes every frame as it arrives (a ``cancel`` acts at
    once, through ``Engine.interrupt``) and queues it, and a worker that answers the queue
    in order on the thread pools."""

    def __init__(self, state: WebState, websocket: WebSocket) -> None:
        self.state = state
        self.websocket = websocket
        self.engine = Engine(
            max_games=state.max_games,
            games=state.games,
            search_slots=state.search_slots,
            max_configurations=CONFIGURATIONS_PER_CONNECTION,
            max_session_ply=ACTIONS_PER_CONNECTION,
        )
        self.queue: asyncio.Queue[tuple[str | bytes | _TooLong, int]] = asyncio.Queue(maxsize=QUEUE_FRAMES)
        self.queued_bytes = 0
        self.room = asyncio.Event()
        self.job: asyncio.Future[bytes] | None = None  # the request being answered

    async def run(self) -> None:
        self.state.engines.add(self.engine)
        worker = asyncio.ensure_future(self._answer())
        worker.add_done_callback(_consume)  # a client gone mid-reply is no error
        try:
            await self._read(worker)
        finally:
            # No await here: this runs even when the server cancels the connection's task.
            worker.cancel()
            self._drop_queued()
            self.state.engines.discard(self.engine)
            self.state.retire(self.engine, self.job)

    async def _read(self, worker: asyncio.Future[None]) -> None:
        """Read frames until the client leaves, the worker ends (``quit``, a failed send) or
        the connection stays idle too long."""
        while True:
            receive: asyncio.Future[Any] = asyncio.ensure_future(self.websocket.receive())
            waiting: set[asyncio.Future[Any]] = {receive, worker}
            try:
                done, _ = await asyncio.wait(
                    waiting, timeout=self.state.idle_timeout, return_when=asyncio.FIRST_COMPLETED
                )
            finally:
                if not receive.done():  # idle, the worker ended, or the connection's task cancelled
                    receive.cancel()
            if receive not in done:
                if worker in done:
                    return
                if self.job is None and self.queue.empty():
                    await self.websocket.close(code=1001, reason="idle")
                    return
                continue
            message = receive.result()
            if message["type"] == "websocket.disconnect":
                return
            data: str | bytes | None = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            size = len(data.encode("utf-8", "surrogatepass")) if isinstance(data, str) else len(data)
            item: str | bytes | _TooLong = data
            if size > MAX_LINE:
                item, size = _TOO_LONG, 0
            else:
                self.engine.interrupt(data)  # a cancel stops its search now, not in its turn
            # Read ahead within bounds; beyond, wait for the worker (or its end: a client
            # that went away while it was sending).
            while self.queue.full() or (self.queued_bytes + size > QUEUE_BYTES and not self.queue.empty()):
                self.room.clear()
                room: asyncio.Future[Any] = asyncio.ensure_future(self.room.wait())
                try:
                    await asyncio.wait({room, worker}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    room.cancel()
                if worker.done():
                    return
            self.queued_bytes += size
            self.queue.put_nowait((item, size))

    def _drop_queued(self) -> None:
        """Forget the frames read and not yet answered: nobody waits for their replies."""
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued_bytes = 0

    async def _answer(self) -> None:
        """Answer the queued frames in order: searches on the search pool, the rest on the
        other, so that cheap requests never wait behind a search."""
        while not self.state.stopping:
            item, size = await self.queue.get()
            self.queued_bytes -= size
            self.room.set()
            if isinstance(item, _TooLong):
                await self.websocket.send_text(_LINE_TOO_LONG)
                continue
            line = item
            if is_search(line):
                self.job = self.state.search_pool.submit(functools.partial(self.state.search, self.engine, line))
            else:
                self.job = self.state.cheap_pool.submit(functools.partial(self.engine.handle_line, line))
            try:
                reply = await asyncio.shield(self.job)
            finally:
                self.job = None
            await self.websocket.send_text(reply.decode())
            if self.engine.finished:
                await self.websocket.close()
                return


def _consume(task: asyncio.Future[Any]) -> None:
    """Retrieve a finished task's exception (so that asyncio does not log it)."""
    if not task.cancelled():
        task.exception()


def create_app(
    *,
    allowed_hosts: Iterable[str] = (),
    max_connections: int = MAX_CONNECTIONS,
    max_games: int = MAX_GAMES_PER_CONNECTION,
    max_searches: int = MAX_SEARCHES,
    idle_timeout: float = IDLE_TIMEOUT,
) -> Starlette:
    """The application: the page at ``/``, the protocol at ``/ws``, the games the page
    offers at ``/games``, each one's catalog at ``/catalog/{game}``, its drawer script at
    ``/games/{game}.js`` and its board styles at ``/games/{game}.css``, the bots a person
    may face (and the hint bot) at ``/bots``, why a finished game ended at ``/ending``
    (POST its record). Its :class:`WebState` (the limits: see the module's docstring) is
    ``app.state.web``. InvalidOptionError for a bad limit or host name."""
    state = WebState(
        allowed_hosts=allowed_hosts,
        max_connections=max_connections,
        max_games=max_games,
        max_searches=max_searches,
        idle_timeout=idle_timeout,
    )
    app = Starlette(
        routes=[
            Route("/", _page),
            Route("/static/{name}", _page),
            Route("/games", _games),
            Route("/bots", _bots),
            Route("/games/{file}", _drawer),
            Route("/catalog/{game}", _catalog),
            Route("/ending", _ending, methods=["POST"]),
            WebSocketRoute("/ws", state.serve_socket),
        ],
        middleware=[Middleware(_HostGuard, state=state)],
    )
    app.state.web = state
    return app
