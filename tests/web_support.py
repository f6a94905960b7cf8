"""A ``cruiselib web`` server for the web tests: the application under its uvicorn server in
a thread of the test process, on a free loopback port. Imported only by test modules that
have checked for the ``web`` extra."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from cruiselib.web import WebServer, WebState, create_app, create_server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Served:
    """A server running in a thread of the test process."""

    port: int
    state: WebState

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"


@contextlib.contextmanager
def running(server: WebServer) -> Iterator[None]:
    """``server`` running in a thread of the test process until the block ends."""
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the web server did not start")
        time.sleep(0.02)
    try:
        yield
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextlib.contextmanager
def serving(*, request_timeout: float = 5.0, **limits: Any) -> Iterator[Served]:
    """``create_app(**limits)`` under ``create_server`` (uvicorn) on a free loopback port."""
    app = create_app(**limits)
    port = free_port()
    with running(create_server("127.0.0.1", port, app=app, request_timeout=request_timeout)):
        yield Served(port, app.state.web)
