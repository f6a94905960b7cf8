"""``cruiselib web``'s server: the application under uvicorn, with the limits of a server.

- **Requests.** A request (its headers and any body) must arrive within
  ``request_timeout`` seconds of the connection opening or of its first byte on a
  kept-alive connection; else the connection is answered 408 and closed (uvicorn bounds
  only the wait between requests: ``timeout_keep_alive``). At most ``limit_concurrency``
  connections and tasks at once (uvicorn answers an HTTP request beyond it with 503).
- **Descriptors.** At start the process's soft descriptor limit (RLIMIT_NOFILE) is raised
  toward what ``max_open`` connections need (never beyond the hard limit). The server
  accepts connections itself, at most ``max_open`` open at once, fewer when the descriptor
  limit is lower (the limit less a reserve for the process's own files): at the cap it
  stops accepting, new connections wait in the kernel's backlog, and it accepts again as
  soon as one closes (the request deadline closes the stalled ones). It never runs out of
  descriptors, so it never enters asyncio's retry loop, which logs a traceback for every
  failed ``accept`` (thousands a second: enough to block the server for good on a
  stderr pipe that is not read fast enough).
- **Frames.** A WebSocket frame longer than :data:`~cruiselib.web.app.WS_MAX_SIZE` closes
  its connection (code 1009) unread; uvicorn pings every WebSocket every 20 s and closes
  one that does not answer within 20 s.
- **Shutdown.** Ctrl-C (SIGINT) or SIGTERM stops every running search at once, gives the
  connections :data:`SHUTDOWN_GRACE` seconds to close, and stops; after Ctrl-C,
  :func:`run` raises KeyboardInterrupt (``cruiselib web`` then exits with status 130).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import signal
import socket
import sys
import time
from collections.abc import Callable, Iterable
from types import FrameType
from typing import Any, Final

import h11
import uvicorn
from starlette.applications import Starlette
from uvicorn.protocols.http.h11_impl import H11Protocol

from cruiselib.errors import InvalidOptionError
from cruiselib.protocol import check_limits
from cruiselib.web.app import WS_MAX_SIZE, WebState, create_app

try:
    import resource
except ImportError:  # Windows: no descriptor limit to read or raise
    resource = None  # type: ignore[assignment]

__all__ = [
    "DESCRIPTOR_RESERVE",
    "KEEP_ALIVE",
    "LIMIT_CONCURRENCY",
    "MAX_OPEN",
    "REQUEST_TIMEOUT",
    "SHUTDOWN_GRACE",
    "WebServer",
    "create_server",
    "open_cap",
    "run",
]

REQUEST_TIMEOUT: Final = 5.0
"""Seconds a request's headers (and body) may take to arrive."""
KEEP_ALIVE: Final = 5
"""Seconds an HTTP connection stays open waiting for its next request."""
LIMIT_CONCURRENCY: Final = 256
"""The most connections and tasks at once (uvicorn's ``limit_concurrency``)."""
SHUTDOWN_GRACE: Final = 2
"""Seconds the connections get to close at shutdown before their tasks are cancelled."""
MAX_OPEN: Final = 4096
"""The most connections open at once, of any kind (fewer under a low descriptor limit:
:func:`open_cap`)."""
DESCRIPTOR_RESERVE: Final = 64
"""Descriptors kept for the process's own use (standard streams, the event loop, the
listening sockets, files read while answering), a quarter of the limit when it is lower
than 256."""
_ACCEPT_BATCH: Final = 128  # connections accepted per wake-up: a flood does not starve the loop
_ACCEPT_RETRY: Final = 0.5  # seconds before accepting again after running out of descriptors
_WARN_EVERY: Final = 60.0  # seconds between two warnings of the same kind
_STARTUP_FAILURE: Final = 3  # uvicorn's exit status when it cannot listen
_log = logging.getLogger("cruiselib.web")
_WILDCARDS: Final = ("", "0.0.0.0", "::", "[::]")
_REQUEST_TIMEOUT_REPLY: Final = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 16\r\nconnection: close\r\n\r\nrequest timeout\n"
)


class _DeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on each request's arrival (see the module's
    docstring): a connection that trickles its headers a byte at a time is held
    ``request_timeout`` seconds, not forever."""

    request_timeout: float = REQUEST_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.get_protocol() is not self or self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            self._disarm()  # upgraded to a WebSocket, or the request is in: the app has it
        else:
            self._arm()  # part of a request: it must be complete in time

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.request_timeout, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return
        if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            return
        if self.conn.our_state is h11.IDLE:  # no response begun: say why before closing
            self.transport.write(_REQUEST_TIMEOUT_REPLY)
        self.transport.close()


def _http_protocol(request_timeout: float) -> type[H11Protocol]:
    """The h11 protocol class with this request deadline."""
    return type("DeadlineH11Protocol", (_DeadlineH11Protocol,), {"request_timeout": float(request_timeout)})


def _descriptor_limit(wanted: int) -> int | None:
    """The process's soft limit on open descriptors (RLIMIT_NOFILE), first raised to
    ``wanted`` if lower (up to the hard limit, as far as the system lets); None where
    there is no such limit (Windows, or unlimited)."""
    if resource is None:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):  # e.g. macOS caps it below an unlimited hard limit
            pass
    return None if soft == resource.RLIM_INFINITY else int(soft)


def open_cap(max_open: int, limit: int | None) -> int:
    """The most connections open at once under a descriptor ``limit`` (None: no limit):
    ``max_open``, or fewer to leave :data:`DESCRIPTOR_RESERVE` descriptors (a quarter of a
    limit under 256) to the process itself."""
    if limit is None:
        return max_open
    return max(1, min(max_open, limit - min(DESCRIPTOR_RESERVE, limit // 4)))


class _CountedSocket(socket.socket):
    """An accepted connection's socket that reports its closing (once), so that the
    :class:`_AcceptGate` knows how many descriptors its connections hold."""

    __slots__ = ("on_close",)
    on_close: Callable[[], None] | None

    def close(self) -> None:
        was_open = self.fileno() != -1
        super().close()
        on_close: Callable[[], None] | None = getattr(self, "on_close", None)
        if was_open and self.fileno() == -1 and on_close is not None:
            self.on_close = None
            on_close()


class _AcceptGate:
    """Accepts the listening sockets' connections in place of asyncio's accept loop, with
    at most ``cap`` of them open at once: at the cap it stops reading the listening
    sockets (new connections wait in the kernel's backlog) and reads them again when one
    of its connections closes. asyncio's own loop accepts until the process runs out of
    descriptors, then logs a traceback for each failed ``accept`` (up to the backlog, 2048
    with uvicorn, per wake-up) and keeps retrying; here the cap keeps that from happening,
    and should the descriptors run out all the same (files the application opens), one
    warning is logged and accepting resumes after a short pause."""

    def __init__(self, loop: asyncio.AbstractEventLoop, factory: Callable[[], asyncio.Protocol], cap: int) -> None:
        self.loop = loop
        self.factory = factory
        self.cap = cap
        self.open = 0
        self.sockets: list[socket.socket] = []
        self._reading = False
        self._closed = False
        self._retry: asyncio.TimerHandle | None = None
        self._warned: dict[str, float] = {}

    def start(self, sockets: list[socket.socket]) -> None:
        """Accept the connections of ``sockets`` (listening, non-blocking).
        NotImplementedError where the loop cannot watch a socket (Windows' proactor)."""
        self.sockets = sockets
        self._resume()

    def close(self) -> None:
        """Stop accepting and close the listening sockets (the connections stay open)."""
        self._pause()
        self._closed = True
        if self._retry is not None:
            self._retry.cancel()
        for sock in self.sockets:
            sock.close()

    def _resume(self) -> None:
        self._retry = None
        if self._reading or self._closed or self.open >= self.cap:
            return
        for sock in self.sockets:
            self.loop.add_reader(sock.fileno(), self._accept, sock)
        self._reading = True

    def _pause(self) -> None:
        if self._reading:
            for sock in self.sockets:
                self.loop.remove_reader(sock.fileno())
            self._reading = False

    def _warn(self, kind: str, message: str, *args: object) -> None:
        now = time.monotonic()
        if now - self._warned.get(kind, -_WARN_EVERY) >= _WARN_EVERY:
            self._warned[kind] = now
            _log.warning(message, *args)

    def _accept(self, sock: socket.socket) -> None:
        for _ in range(_ACCEPT_BATCH):
            if self.open >= self.cap:
                self._warn("cap", "cruiselib web: %d connections open, the most allowed: new ones wait", self.cap)
                self._pause()
                return
            try:
                conn, _ = sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue
            except OSError as exc:
                if exc.errno not in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    raise  # the loop logs it and goes on
                self._warn("descriptors", "cruiselib web: cannot accept a connection (%s): retrying", exc)
                self._pause()
                if self._retry is None:
                    self._retry = self.loop.call_later(_ACCEPT_RETRY, self._resume)
                return
            counted = _CountedSocket(conn.family, conn.type, conn.proto, fileno=conn.detach())
            counted.on_close = self._closed_one
            counted.setblocking(False)
            self.open += 1
            self.loop.create_task(self._connect(counted))

    async def _connect(self, conn: _CountedSocket) -> None:
        try:
            await self.loop.connect_accepted_socket(self.factory, conn)
        except Exception:
            conn.close()
            _log.exception("cruiselib web: a connection could not be set up")

    def _closed_one(self) -> None:
        self.open -= 1
        if self._retry is not None:  # a descriptor was freed: no need to wait
            self._retry.cancel()
        self._resume()


def _listen(host: str, port: int, backlog: int) -> list[socket.socket]:
    """Listening sockets on every address of ``host`` (as asyncio's ``create_server``
    binds them: all addresses for a wildcard or a name), non-blocking."""
    infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    sockets: list[socket.socket] = []
    try:
        for family, _, _, _, address in dict.fromkeys(infos):  # each address once
            sock = socket.create_server(address, family=family, backlog=backlog)
            sock.setblocking(False)
            sockets.append(sock)
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


class WebServer(uvicorn.Server):
    """uvicorn's server that accepts its connections itself (see the module's docstring,
    "Descriptors"), at shutdown first stops every search of the application's connections,
    and remembers whether it was stopped by Ctrl-C (:attr:`interrupted`)."""

    def __init__(self, config: uvicorn.Config, state: WebState, max_open: int = MAX_OPEN) -> None:
        super().__init__(config)
        self.state = state
        self.interrupted = False
        self.max_open = max_open
        self.gate: _AcceptGate | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        limit = _descriptor_limit(self.max_open + DESCRIPTOR_RESERVE)
        if sockets is None:
            try:
                sockets = _listen(self.config.host, self.config.port, self.config.backlog)
            except OSError as exc:
                logging.getLogger("uvicorn.error").error(exc)
                sys.exit(_STARTUP_FAILURE)
        else:
            for sock in sockets:
                sock.listen(self.config.backlog)
                sock.setblocking(False)
        # uvicorn's own startup (the lifespan), with no socket to serve: the gate serves them.
        try:
            await super().startup(sockets=[])
        except BaseException:
            for sock in sockets:
                sock.close()
            raise
        config = self.config

        def protocol() -> asyncio.Protocol:
            return config.http_protocol_class(  # type: ignore[call-arg]
                config=config, server_state=self.server_state, app_state=self.lifespan.state
            )

        loop = asyncio.get_running_loop()
        gate = _AcceptGate(loop, protocol, open_cap(self.max_open, limit))
        try:
            gate.start(sockets)
            self.gate = gate
        except NotImplementedError:  # a loop that cannot watch sockets: asyncio accepts them
            for sock in sockets:
                self.servers.append(await loop.create_server(protocol, sock=sock, backlog=config.backlog))

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self.gate is not None:
            self.gate.close()
        self.state.stop()  # searches end within ~50 ms instead of holding the shutdown
        await super().shutdown(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if sig == signal.SIGINT:
            self.interrupted = True
        super().handle_exit(sig, frame)


def create_server(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    allowed_hosts: Iterable[str] = (),
    app: Starlette | None = None,
    request_timeout: float = REQUEST_TIMEOUT,
    limit_concurrency: int = LIMIT_CONCURRENCY,
    max_open: int = MAX_OPEN,
) -> WebServer:
    """The server of ``app`` (by default ``create_app`` allowing ``allowed_hosts`` and
    ``host`` itself, unless it is a wildcard address such as 0.0.0.0) on ``host:port``,
    with the limits of the module's docstring. InvalidOptionError for a bad limit."""
    if not isinstance(request_timeout, (int, float)) or not request_timeout > 0:
        raise InvalidOptionError(f"request_timeout must be a number of seconds > 0, not {request_timeout!r}")
    check_limits(limit_concurrency=limit_concurrency, max_open=max_open)
    if app is None:
        names = list(allowed_hosts)
        if host not in _WILDCARDS:
            names.append(host)
        app = create_app(allowed_hosts=names)
    state: WebState = app.state.web
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=_http_protocol(request_timeout),
        ws="auto",
        ws_max_size=WS_MAX_SIZE,
        limit_concurrency=limit_concurrency,
        timeout_keep_alive=KEEP_ALIVE,
        timeout_graceful_shutdown=SHUTDOWN_GRACE,
        log_level="warning",
    )
    return WebServer(config, state, max_open)


def run(host: str = "127.0.0.1", port: int = 8000, allowed_hosts: Iterable[str] = ()) -> int:
    """Serve the page until stopped (0); after Ctrl-C, raise KeyboardInterrupt once the
    server has stopped."""
    server = create_server(host, port, allowed_hosts=allowed_hosts)
    print(f"cruiselib web: http://{host}:{port}/ (Ctrl-C to stop)", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        # Some uvicorn versions raise the captured Ctrl-C again once stopped; others
        # swallow it. Either way, whether it was Ctrl-C is known from the server.
        server.interrupted = True
    if server.interrupted:
        raise KeyboardInterrupt
    return 0
