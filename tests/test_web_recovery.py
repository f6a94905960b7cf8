"""``cruiselib web`` keeps serving the page through what could stop it (docs/web.md,
"Limits"): connections that stall their requests until the process has no descriptor left
(the server caps its open connections below the descriptor limit, serves the page during
such an attack once the request deadline frees places, and at once after it), and a
registered game whose catalog fails (left out of the page's games, the others offered).
Runs on 127.0.0.1 only, in a few seconds.
"""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="needs the 'web' extra: pip install 'cruiselib[web]'")
pytest.importorskip("uvicorn", reason="needs the 'web' extra: pip install 'cruiselib[web]'")

import cruiselib
from cruiselib import _registry
from cruiselib.errors import InvalidOptionError
from cruiselib.integration import WebBoard
from cruiselib.web import create_app, create_server
from cruiselib.web.server import DESCRIPTOR_RESERVE, MAX_OPEN, open_cap

from .toy_game import ToyDuelGame
from .web_support import free_port, running

# Starlette's TestClient on httpx (rather than its successor httpx2) warns; both work.
# A surface over the public API: the README's pure-Python run leaves it out (-m "not surface").
pytestmark = [pytest.mark.surface, pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")]

LIMIT = 256
"""The server process's descriptor limit (soft and hard) in the attack."""
ATTACK = 300
"""Stalled connections of the attack: more than the process has descriptors."""
# The server of the attack: its request deadline short, so that the test is.
SERVER = (
    "import sys; from cruiselib.web import create_server; "
    "create_server('127.0.0.1', int(sys.argv[1]), request_timeout=1.0).run()"
)


def get(port: int, timeout: float) -> int:
    """The status of ``GET /`` (an OSError, such as a timeout, when unanswered)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.settimeout(timeout)
        s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return int(data.split(b" ", 2)[1])


def served_within(port: int, seconds: float) -> int:
    """The status of the first ``GET /`` answered within ``seconds``; fails after them."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return get(port, min(2.0, max(0.1, deadline - time.monotonic())))
        except OSError as exc:
            if time.monotonic() > deadline:
                pytest.fail(f"GET / not answered within {seconds} s ({exc!r})")
            time.sleep(0.05)


def stall(port: int) -> socket.socket:
    """A connection that sends half a request and nothing more."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
    return s


def test_open_cap_leaves_descriptors_to_the_process() -> None:
    assert open_cap(MAX_OPEN, None) == MAX_OPEN
    assert open_cap(MAX_OPEN, 1_000_000) == MAX_OPEN
    assert open_cap(MAX_OPEN, 1024) == 1024 - DESCRIPTOR_RESERVE
    assert open_cap(MAX_OPEN, 256) == 256 - DESCRIPTOR_RESERVE
    assert open_cap(MAX_OPEN, 64) == 48  # a quarter of a low limit kept
    assert open_cap(10, 1024) == 10
    assert open_cap(MAX_OPEN, 4) == 3
    with pytest.raises(InvalidOptionError, match="max_open"):
        create_server(max_open=0)


def test_at_the_cap_a_connection_waits_for_one_to_close() -> None:
    port = free_port()
    server = create_server("127.0.0.1", port, app=create_app(), request_timeout=30, max_open=4)
    with running(server):
        held = [stall(port) for _ in range(4)]
        try:
            gate = server.gate
            assert gate is not None
            deadline = time.monotonic() + 5
            while gate.open < 4:
                assert time.monotonic() < deadline, "the 4 connections were not accepted"
                time.sleep(0.01)
            answered: list[int] = []
            waiting = threading.Thread(target=lambda: answered.append(get(port, 10)), daemon=True)
            waiting.start()
            time.sleep(0.3)
            assert not answered and gate.open == 4  # the fifth waits in the backlog, unaccepted
            held.pop().close()  # a place frees: the fifth is accepted and answered
            waiting.join(10)
            assert answered == [200]
        finally:
            for s in held:
                s.close()


@pytest.mark.skipif(sys.platform == "win32", reason="descriptor limits are POSIX")
def test_the_page_is_served_during_and_after_a_descriptor_exhaustion_attack() -> None:
    import resource

    # This process holds the attack's connections: it needs the descriptors for them.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < ATTACK + 200:
        if hard != resource.RLIM_INFINITY and hard < ATTACK + 200:
            pytest.skip(f"needs {ATTACK + 200} descriptors (ulimit -n is {hard})")
        resource.setrlimit(resource.RLIMIT_NOFILE, (ATTACK + 200, hard))

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, LIMIT))

    port = free_port()
    # Its log goes to a pipe read only at the end, as a service's log read slowly: the
    # server must not block writing it.
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=low_limit,
    )
    fds = Path(f"/proc/{proc.pid}/fd")
    held: list[socket.socket] = []
    try:
        assert served_within(port, 20) == 200  # started
        held = [stall(port) for _ in range(ATTACK)]
        time.sleep(0.2)  # the server accepts what it will
        if fds.is_dir():
            assert len(os.listdir(fds)) < LIMIT, "the server used up its descriptors"
        # During the attack: answered once the request deadline (1 s) frees places.
        assert get(port, 10) == 200
        for s in held:
            s.close()
        held = []
        assert served_within(port, 10) == 200  # after it
    finally:
        for s in held:
            s.close()
        proc.terminate()
        try:
            err = proc.communicate(timeout=10)[1]
        except subprocess.TimeoutExpired:
            proc.kill()
            err = proc.communicate()[1]
    assert b"Too many open files" not in err and b"Traceback" not in err, err[-2000:].decode(errors="replace")
    assert b"connections open, the most allowed" in err  # the cap was reached, and said so


# --------------------------------------------------------------------------- a broken game


def _failing_catalog(game: Any) -> Mapping[str, Any]:
    raise RuntimeError("no card table")


class BrokenDuel(ToyDuelGame):
    """Toy Duel under another name, whose web catalog fails."""

    name = "toy_broken"
    title = "Broken Duel"
    web = WebBoard(drawer=("tests.toy_game", "board.js"), catalog=_failing_catalog)


def test_a_game_whose_catalog_fails_is_left_out_of_the_page(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from starlette.testclient import TestClient

    monkeypatch.setattr(_registry, "_REGISTRY", dict(_registry._REGISTRY))  # put back afterwards
    cruiselib.register(BrokenDuel)  # accepted: the catalog is the page's, asked when served
    cruiselib.register(ToyDuelGame)
    caplog.set_level(logging.WARNING, logger="cruiselib.web")
    with TestClient(create_app()) as client:
        for _ in range(2):
            offered = [entry["game"] for entry in client.get("/games").json()["games"]]
            assert BrokenDuel.name not in offered
            assert ToyDuelGame.name in offered and len(offered) > 1  # the others are offered
        reply = client.get(f"/catalog/{BrokenDuel.name}")
        assert reply.status_code == 500
        assert "toy_broken" in reply.json()["error"] and "no card table" in reply.json()["error"]
        assert client.get(f"/catalog/{ToyDuelGame.name}").json()["game"] == ToyDuelGame.name
        assert client.get("/").status_code == 200
    logged = [r.getMessage() for r in caplog.records if r.name == "cruiselib.web"]
    assert len(logged) == 1, logged  # once, not at each request
    assert "'toy_broken'" in logged[0] and "RuntimeError('no card table')" in logged[0]
