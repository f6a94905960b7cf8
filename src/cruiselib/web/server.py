"""``cruiselib web``'s server: the application under uvicorn, with the limits of a server.

- **Requests.** A request (its headers and any body) must arrive within
  ``request_timeout`` seconds of the connection opening or of its first byte on a
  kept-alive connection; else the connection is answered 408 and closed (uvicorn bounds
  only the wait between requests: ``timeout_keep_alive``). At most ``limit_concurrency``
  connections and tasks at once (uvicorn answers an HTTP request beyond it with 503).
- **Frames.** A WebSocket frame longer than :data:`~cruiselib.web.app.WS_MAX_SIZE` closes
  its connection (code 1009) unread; uvicorn pings every WebSocket every 20 s and closes
  one that does not answer within 20 s.
- **Shutdown.** Ctrl-C (SIGINT) or SIGTERM stops every running search at once, gives the
  connections :data:`SHUTDOWN_GRACE` seconds to close, and stops; after Ctrl-C,
  :func:`run` raises KeyboardInterrupt (``cruiselib web`` then exits with status 130).
"""

from __future__ import annotations

import asyncio
import signal
import socket
from collections.abc import Iterable
from types import FrameType
from typing import Any, Final

import h11
import uvicorn
from starlette.applications import Starlette
from uvicorn.protocols.http.h11_impl import H11Protocol

from cruiselib.errors import InvalidOptionError
from cruiselib.protocol import check_limits
from cruiselib.web.app import WS_MAX_SIZE, WebState, create_app

__all__ = ["KEEP_ALIVE", "LIMIT_CONCURRENCY", "REQUEST_TIMEOUT", "SHUTDOWN_GRACE", "WebServer", "create_server", "run"]

REQUEST_TIMEOUT: Final = 5.0
"""Seconds a request's headers (and body) may take to arrive."""
KEEP_ALIVE: Final = 5
"""Seconds an HTTP connection stays open waiting for its next request."""
LIMIT_CONCURRENCY: Final = 256
"""The most connections and tasks at once (uvicorn's ``limit_concurrency``)."""
SHUTDOWN_GRACE: Final = 2
"""Seconds the connections get to close at shutdown before their tasks are cancelled."""
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


class WebServer(uvicorn.Server):
    """uvicorn's server that, at shutdown, first stops every search of the application's
    connections, and remembers whether it was stopped by Ctrl-C (:attr:`interrupted`)."""

    def __init__(self, config: uvicorn.Config, state: WebState) -> None:
        super().__init__(config)
        self.state = state
        self.interrupted = False

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if sig == signal.SIGINT:
            self.interrupted = True
        super().handle_exit(sig, frame)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.state.stop()  # searches end within ~50 ms instead of holding the shutdown
        await super().shutdown(sockets)


def create_server(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    allowed_hosts: Iterable[str] = (),
    app: Starlette | None = None,
    request_timeout: float = REQUEST_TIMEOUT,
    limit_concurrency: int = LIMIT_CONCURRENCY,
) -> WebServer:
    """The server of ``app`` (by default ``create_app`` allowing ``allowed_hosts`` and
    ``host`` itself, unless it is a wildcard address such as 0.0.0.0) on ``host:port``,
    with the limits of the module's docstring. InvalidOptionError for a bad limit."""
    if not isinstance(request_timeout, (int, float)) or not request_timeout > 0:
        raise InvalidOptionError(f"request_timeout must be a number of seconds > 0, not {request_timeout!r}")
    check_limits(limit_concurrency=limit_concurrency)
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
    return WebServer(config, state)


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
