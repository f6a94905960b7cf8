"""``cruiselib web`` under attack: a real uvicorn server on a free loopback port, driven by
hostile clients (docs/web.md, "Limits" and "Security").

Pages of other sites and DNS-rebinding names are refused, traversal paths find nothing,
oversized frames are refused, a closed connection stops its search, cheap requests are
answered at once while many searches run, connections that trickle their headers are
timed out, connections are capped, idle ones closed, and Ctrl-C stops the command at once
with status 130. Everything runs on 127.0.0.1 only and takes a few seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="needs the 'web' extra: pip install 'cruiselib[web]'")
pytest.importorskip("uvicorn", reason="needs the 'web' extra: pip install 'cruiselib[web]'")
pytest.importorskip("websockets", reason="needs the 'web' extra: pip install 'cruiselib[web]'")

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from cruiselib.errors import InvalidOptionError
from cruiselib.protocol import MAX_LINE
from cruiselib.web import create_app
from cruiselib.web.app import (
    CONFIGURATIONS_PER_CONNECTION,
    MAX_GAMES_PER_CONNECTION,
    QUEUE_FRAMES,
    WS_MAX_SIZE,
    drawer_url,
    offered_games,
)

from .support import ANY_GAME, other_configurations, unbounded_game
from .web_support import Served, free_port, serving

# Starlette's TestClient on httpx (rather than its successor httpx2) warns; both work.
# A surface over the public API: the README's pure-Python run leaves it out (-m "not surface").
pytestmark = [pytest.mark.surface, pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")]


def open_socket(served: Served, origin: str | None = None, **headers: str) -> Any:
    """A WebSocket client connection (an async context manager)."""
    return connect(
        served.ws,
        origin=origin,  # type: ignore[arg-type]
        additional_headers=headers or None,
        proxy=None,
        compression=None,
        max_size=None,
        open_timeout=5,
    )


async def ask(ws: ClientConnection, request: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
    await ws.send(json.dumps(request))
    reply: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
    return reply


def http_get(port: int, path: str, host: str | None = None) -> tuple[int, bytes]:
    """(status, body) of one GET sent as raw bytes: the path exactly as given."""
    host = host if host is not None else f"127.0.0.1:{port}"
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode("latin-1"))
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def raw_handshake(port: int, host: str, origin: str) -> int:
    """The HTTP status answering a WebSocket handshake sent as raw bytes (any Host)."""
    request = (
        f"GET /ws HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request.encode("latin-1"))
        head = b""
        while b"\r\n\r\n" not in head and (chunk := s.recv(4096)):
            head += chunk
    return int(head.split(b" ", 2)[1])


def answering_threads() -> int:
    """Threads of this process answering a protocol request now (in ``Engine.handle_line``,
    of the protocol module or of a module of the protocol package): the server runs in this
    process, so its searches show here."""
    count = 0
    for frame in sys._current_frames().values():
        walk: Any = frame
        while walk is not None:
            code = walk.f_code
            where = Path(code.co_filename)
            if code.co_name == "handle_line" and "protocol" in (where.stem, where.parent.name):
                count += 1
                break
            walk = walk.f_back
    return count


def wait_for(predicate: Any, timeout: float, what: str) -> float:
    """Poll until ``predicate()``; the seconds it took. Fails after ``timeout``."""
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            pytest.fail(f"{what}: not within {timeout} s")
        time.sleep(0.02)
    return time.monotonic() - start


# --------------------------------------------------------------------------- Origin and Host


def test_foreign_origin_and_host_are_refused() -> None:
    async def handshake(served: Served, origin: str | None = None, **headers: str) -> int:
        """101 when the WebSocket opens (and answers a ping), else the HTTP status."""
        try:
            async with open_socket(served, origin, **headers) as ws:
                assert (await ask(ws, {"cmd": "ping", "id": 1}))["ok"]
                return 101
        except InvalidStatus as exc:
            return exc.response.status_code

    with serving(allowed_hosts=["game.lan", "proxy.example:443"]) as served:
        port = served.port

        async def main() -> None:
            # A page of another site (cross-site WebSocket), or on another port of this host.
            for origin in (
                "http://evil.example",
                f"http://evil.example:{port}",
                "http://localhost:9",
                f"https://127.0.0.1.evil.example:{port}",
                "null",
                f"file://localhost:{port}",
            ):
                assert await handshake(served, origin) == 403, origin
            # This server's own pages, and clients that are not browsers (no Origin).
            allowed: tuple[str | None, ...] = (
                None,
                f"http://localhost:{port}",
                f"http://127.0.0.1:{port}",
                f"http://[::1]:{port}",
                f"http://GAME.lan:{port}",
                "https://proxy.example",
            )
            for own in allowed:
                assert await handshake(served, own) == 101, own

        asyncio.run(main())
        assert http_get(port, "/")[0] == 200
        assert http_get(port, "/", host=f"localhost:{port}")[0] == 200
        assert http_get(port, "/", host=f"game.lan:{port}")[0] == 200
        for host in (f"rebind.example:{port}", "localhost", "localhost:9", f"game.lan.evil:{port}", "a@localhost"):
            status, body = http_get(port, "/", host=host)
            assert status == 400 and b"host not allowed" in body, host
        assert http_get(port, f"/catalog/{ANY_GAME}", host=f"rebind.example:{port}")[0] == 400
        assert http_get(port, "/ending", host=f"rebind.example:{port}")[0] == 400
        assert http_get(port, "/games", host=f"rebind.example:{port}")[0] == 400
        assert http_get(port, drawer_url(offered_games()[0]), host=f"rebind.example:{port}")[0] == 400
        # A DNS-rebinding name: the page's own origin, but a Host that is not this server.
        rebound = f"rebind.example:{port}"
        assert raw_handshake(port, rebound, f"http://{rebound}") == 403
        assert raw_handshake(port, f"localhost:{port}", f"http://localhost:{port}") == 101


def test_host_names_are_checked() -> None:
    for bad in ("", "a/b", "x@y", "name:", "name:port", "name:99999"):
        with pytest.raises(InvalidOptionError):
            create_app(allowed_hosts=[bad])
    state = create_app(allowed_hosts=["Game.LAN.", "::2", "[::3]:8443"]).state.web
    assert {"game.lan", "::2"} <= state.names and ("::3", 8443) in state.names_with_port
    with pytest.raises(InvalidOptionError):
        create_app(max_connections=0)


# --------------------------------------------------------------------------- paths


def test_traversal_paths_find_nothing() -> None:
    with serving() as served:
        for path in (
            "/static/../app.py",
            "/static/%2e%2e/app.py",
            "/static/..%2fapp.py",
            "/static/%2e%2e%2fapp.py",
            "/static/%2E%2E%2F%2E%2E%2Fcli.py",
            "/static/..%5capp.py",
            "/static/%252e%252e%252fapp.py",
            "/static/....//app.py",
            "/static//etc/passwd",
            "/static/%00app.js",
            "/catalog/..%2f..%2fapp",
            "/games/..%2fweb%2fapp.js",
            "/games/%2e%2e%2f%2e%2e%2fapp.js",
            "/games/..%5capp.js",
            f"/games/../{ANY_GAME}/board.js",
            f"/games/{ANY_GAME}/board.js",
            f"/games/%00{ANY_GAME}.js",
            "/../../src/cruiselib/web/app.py",
        ):
            status, body = http_get(served.port, path)
            assert status in (400, 404), path
            assert b"import" not in body and b"root:" not in body, path
        assert http_get(served.port, "/static/app.js")[0] == 200
        assert http_get(served.port, drawer_url(offered_games()[0]))[0] == 200


# --------------------------------------------------------------------------- frames


def test_oversized_frames_are_refused() -> None:
    with serving() as served:

        async def main() -> None:
            async with open_socket(served) as ws:
                # Over the protocol's line limit, under the server's frame limit: answered
                # line_too_long in its turn, and the connection goes on.
                padded = {"cmd": "ping", "id": 1, "pad": "x" * MAX_LINE}
                await ws.send(json.dumps(padded))
                await ws.send(json.dumps({"cmd": "ping", "id": 2}))
                too_long = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert too_long["error"]["code"] == "line_too_long" and too_long["id"] is None
                assert json.loads(await asyncio.wait_for(ws.recv(), 10)) == {"id": 2, "ok": True}
                # In UTF-8 bytes, not characters.
                await ws.send(json.dumps({"cmd": "ping", "id": 3, "pad": "é" * (MAX_LINE // 2)}, ensure_ascii=False))
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["error"]["code"] == "line_too_long"
                assert (await ask(ws, {"cmd": "ping", "id": 4}))["ok"]
            async with open_socket(served) as ws:
                # Over the server's frame limit: the connection is closed, the frame unread.
                with contextlib.suppress(ConnectionClosed):  # closed while still sending
                    await ws.send(b"[" + b" " * WS_MAX_SIZE + b"]")
                with pytest.raises(ConnectionClosed) as closed:
                    await asyncio.wait_for(ws.recv(), 10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            async with open_socket(served) as ws:  # the server is fine
                assert (await ask(ws, {"cmd": "ping", "id": 5}))["ok"]

        asyncio.run(main())


# --------------------------------------------------------------------------- searches


def test_a_closed_connection_cancels_its_search() -> None:
    with serving() as served:

        async def main() -> None:
            async with open_socket(served) as ws:
                assert (await ask(ws, {"cmd": "new", "game": ANY_GAME, "seed": 3, "id": 1}))["ok"]
                await ws.send(json.dumps({"cmd": "hint", "game_id": "g1", "seconds": 30, "id": 2}))
                await asyncio.to_thread(wait_for, lambda: answering_threads() == 1, 5, "the search starts")
            # The client is gone: its search's thread ends at once, not after 30 s.
            took = await asyncio.to_thread(wait_for, lambda: answering_threads() == 0, 3, "the search ends")
            print(f"search thread ended {took:.3f} s after the disconnect")
            assert served.state.searching == 0 and not served.state.engines

        asyncio.run(main())


def test_a_client_cancels_its_own_search() -> None:
    with serving() as served:

        async def main() -> None:
            async with open_socket(served) as ws:
                await ask(ws, {"cmd": "new", "game": ANY_GAME, "seed": 4, "id": 1})
                await ws.send(json.dumps({"cmd": "hint", "game_id": "g1", "seconds": 30, "id": 2}))
                await asyncio.to_thread(wait_for, lambda: answering_threads() == 1, 5, "the search starts")
                await ws.send(json.dumps({"cmd": "ping", "id": 3}))
                await ws.send(json.dumps({"cmd": "cancel", "id": 4}))
                # In order: the hint, stopped; the ping; the cancel's own reply.
                replies = [json.loads(await asyncio.wait_for(ws.recv(), 5)) for _ in range(3)]
                assert [r["id"] for r in replies] == [2, 3, 4]
                assert replies[0]["error"]["code"] == "cancelled"
                assert replies[2] == {"id": 4, "ok": True, "cancelled": True}
                assert (await ask(ws, {"cmd": "status", "game_id": "g1", "id": 5}))["ply"] == 0

        asyncio.run(main())


def test_frames_read_ahead_of_a_search_are_answered_in_order() -> None:
    """More frames behind a search than the server reads ahead: it stops reading, then
    catches up; every frame is answered, in order."""
    with serving() as served:

        async def main() -> None:
            async with open_socket(served) as ws:
                await ask(ws, {"cmd": "new", "game": ANY_GAME, "seed": 9, "id": 0})
                await ws.send(json.dumps({"cmd": "hint", "game_id": "g1", "seconds": 0.5, "id": "hint"}))
                for n in range(QUEUE_FRAMES * 3):
                    await ws.send(json.dumps({"cmd": "ping", "id": n}))
                first = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert first["id"] == "hint" and first["ok"]
                ids = [json.loads(await asyncio.wait_for(ws.recv(), 10))["id"] for _ in range(QUEUE_FRAMES * 3)]
                assert ids == list(range(QUEUE_FRAMES * 3))

        asyncio.run(main())


def test_pings_are_answered_while_many_connections_search(record_property: Any) -> None:
    """More searching connections than a shared 40-thread pool has threads: a ping on
    another connection is still answered at once (it waited for a search to end before)."""
    searchers = 44
    with serving() as served:

        async def main() -> float:
            sockets = [await open_socket(served) for _ in range(searchers)]
            try:
                for ws in sockets:
                    await ask(ws, {"cmd": "new", "game": ANY_GAME, "seed": 5, "id": 1})
                for ws in sockets:
                    await ws.send(json.dumps({"cmd": "hint", "game_id": "g1", "seconds": 20, "id": 2}))
                # Searches in hand (searching or waiting for a slot): at least as many as the
                # threads of a 40-thread pool.
                await asyncio.to_thread(wait_for, lambda: answering_threads() >= 40, 10, "the searches start")
                async with open_socket(served) as other:
                    start = time.monotonic()
                    assert (await ask(other, {"cmd": "ping", "id": 3}, timeout=8)) == {"id": 3, "ok": True}
                    latency = time.monotonic() - start
                # Every one of them is searching or waiting for a slot, none queued behind another.
                await asyncio.to_thread(wait_for, lambda: served.state.searching == searchers, 5, "all in hand")
                return latency
            finally:
                for ws in sockets:
                    await ws.close()

        latency = asyncio.run(main())
        record_property("ping_latency_s", latency)
        print(f"ping answered in {latency:.3f} s while {searchers} connections searched")
        assert latency < 2.0
        # Every search stopped with its connection.
        wait_for(lambda: answering_threads() == 0, 5, "the searches end")


def test_games_per_connection_are_capped_and_game_objects_shared() -> None:
    from starlette.testclient import TestClient

    app = create_app()
    state = app.state.web
    with TestClient(app) as client, client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as ws2:
        for n in range(MAX_GAMES_PER_CONNECTION):
            ws.send_text(json.dumps({"cmd": "new", "game": ANY_GAME, "seed": n, "id": n}))
            assert json.loads(ws.receive_text())["ok"]
        ws.send_text(json.dumps({"cmd": "new", "game": ANY_GAME, "id": "one more"}))
        assert json.loads(ws.receive_text())["error"]["code"] == "too_many_games"
        ws2.send_text(json.dumps({"cmd": "new", "game": ANY_GAME, "id": 1}))
        assert json.loads(ws2.receive_text())["ok"]
        # Both connections' engines share the server's one game object of this configuration.
        assert len(state.engines) == 2 and all(engine.cache is state.games for engine in state.engines)
        assert len({id(s.game) for engine in state.engines for s in engine._sessions.values()}) == 1


def test_one_connection_cannot_lock_the_others_out_of_new_games() -> None:
    """A connection may use CONFIGURATIONS_PER_CONNECTION configurations besides the games'
    defaults, and the server's cache fits every connection's share: one connection that asks
    for many configurations blocks nobody's games, defaults or not."""
    from starlette.testclient import TestClient

    import cruiselib

    app = create_app(max_connections=2)
    state = app.state.web
    assert state.games.max_configurations == 2 * CONFIGURATIONS_PER_CONNECTION

    configurations = other_configurations()  # none of them a game's default

    def new(ws: Any, i: int, name: str, options: dict[str, Any]) -> dict[str, Any]:
        ws.send_text(json.dumps({"cmd": "new", "game": name, "options": options, "seed": 1, "id": i}))
        reply: dict[str, Any] = json.loads(ws.receive_text())
        return reply

    with TestClient(app) as client, client.websocket_connect("/ws") as hog, client.websocket_connect("/ws") as other:
        codes = [new(hog, i, *c).get("error", {}).get("code") for i, c in enumerate(configurations)]
        assert codes[:CONFIGURATIONS_PER_CONNECTION] == [None] * CONFIGURATIONS_PER_CONNECTION
        assert set(codes[CONFIGURATIONS_PER_CONNECTION:]) == {"too_many_configurations"}
        theirs = configurations[CONFIGURATIONS_PER_CONNECTION:]
        for i, (name, options) in enumerate(theirs[:CONFIGURATIONS_PER_CONNECTION]):
            assert new(other, i, name, options)["ok"]
        name = theirs[0][0]
        seats = {"players": cruiselib.make(name).num_players}
        assert new(other, 99, name, {})["ok"] and new(other, 98, name, seats)["ok"]  # the defaults are always there
        refused = new(other, 97, *theirs[CONFIGURATIONS_PER_CONNECTION])
        assert refused["error"]["code"] == "too_many_configurations"  # not a default
        other.send_text(json.dumps({"cmd": "games", "id": "g"}))
        assert json.loads(other.receive_text())["ok"]


def _long_record(actions: int) -> dict[str, Any]:
    """The record of a game of ``actions`` actions (the last legal one each time, in a game
    without a length bound)."""
    import cruiselib

    name, options = unbounded_game()
    state = cruiselib.make(name, **options).new_state(seed=1)
    for _ in range(actions):
        state.apply(state.legal_actions()[-1])
    record: dict[str, Any] = json.loads(state.record().to_json())
    record.pop("moves", None)
    return record


def test_clients_that_leave_amid_long_requests_do_not_hold_the_request_threads() -> None:
    """Eight clients each load a game of the longest length a game may have, ask to undo
    300 of its actions and leave at once: a new client's ping is answered within seconds
    (an undo replays the game once, not once per action undone)."""
    from cruiselib.protocol import MAX_PLY

    load = {"cmd": "load", "record": _long_record(MAX_PLY), "id": 1}
    with serving() as served:

        async def attack() -> None:
            async with open_socket(served) as ws:
                assert (await ask(ws, load, timeout=30))["ok"]
                await ws.send(json.dumps({"cmd": "undo", "game_id": "g1", "count": 300, "id": 2}))
                await asyncio.sleep(0.2)

        async def main() -> None:
            await asyncio.gather(*(attack() for _ in range(8)))
            async with open_socket(served) as ws:
                for i in range(3):
                    began = time.perf_counter()
                    assert await ask(ws, {"cmd": "ping", "id": i}, timeout=10) == {"id": i, "ok": True}
                    print(f"ping after the attack: {1000 * (time.perf_counter() - began):.0f} ms")
            await asyncio.to_thread(wait_for, lambda: answering_threads() == 0, 10, "the requests end")

        asyncio.run(main())


# --------------------------------------------------------------------------- connections


def test_slow_headers_time_out_and_others_are_served() -> None:
    slow_count, silent_count = 40, 10
    with serving(request_timeout=1.0) as served:
        port = served.port
        slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(slow_count)]
        silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(silent_count)]
        for s in slow:
            s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
            s.setblocking(False)
        for s in silent:
            s.setblocking(False)
        start = time.monotonic()
        assert http_get(port, "/")[0] == 200  # served while they hang on
        open_ = set(range(slow_count + silent_count))
        answers: dict[int, bytes] = {}
        everyone = slow + silent
        # Trickle a header byte to each slow socket every 0.2 s until the server drops it.
        while open_ and time.monotonic() - start < 6:
            for i in list(open_):
                s = everyone[i]
                try:
                    data = s.recv(4096)
                    answers[i] = answers.get(i, b"") + data
                    if not data:
                        open_.discard(i)
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    open_.discard(i)
                    continue
                if i < slow_count:
                    try:
                        s.send(b"X")
                    except OSError:
                        open_.discard(i)
            time.sleep(0.2)
        took = time.monotonic() - start
        for s in everyone:
            s.close()
        assert not open_, f"{len(open_)} connections still open after {took:.1f} s"
        assert all(a.startswith(b"HTTP/1.1 408") for a in answers.values() if a)
        print(f"{len(everyone)} stalled connections dropped within {took:.2f} s")
        assert http_get(port, "/")[0] == 200


def test_connections_are_capped_and_idle_ones_closed() -> None:
    with serving(max_connections=3, idle_timeout=0.5) as served:

        async def main() -> None:
            held = [await open_socket(served) for _ in range(2)]
            busy = await open_socket(served)
            with pytest.raises(InvalidStatus) as refused:
                await open_socket(served)
            assert refused.value.response.status_code == 503
            # A connection thinking longer than the idle timeout is not idle.
            await ask(busy, {"cmd": "new", "game": ANY_GAME, "seed": 6, "id": 1})
            reply = await ask(busy, {"cmd": "hint", "game_id": "g1", "seconds": 1.2, "id": 2})
            assert reply["ok"] and reply["hints"]
            # The two silent ones were closed (1001), which freed their places.
            for ws in held:
                with pytest.raises(ConnectionClosed) as closed:
                    await asyncio.wait_for(ws.recv(), 5)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
            async with open_socket(served) as again:
                assert (await ask(again, {"cmd": "ping", "id": 3}))["ok"]
            await busy.close()

        asyncio.run(main())


# --------------------------------------------------------------------------- Ctrl-C


def test_ctrl_c_stops_a_searching_server_at_once() -> None:
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "cruiselib", "web", "--port", str(port), "--allow-host", "game.lan"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                status = http_get(port, "/", host=f"game.lan:{port}")[0]
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    pytest.fail("cruiselib web did not start")
                time.sleep(0.05)
        assert status == 200
        assert http_get(port, "/", host=f"other.lan:{port}")[0] == 400

        async def interrupt_while_searching() -> float:
            async with connect(f"ws://127.0.0.1:{port}/ws", proxy=None, open_timeout=5) as ws:
                await ask(ws, {"cmd": "new", "game": ANY_GAME, "seed": 8, "id": 1})
                await ws.send(json.dumps({"cmd": "hint", "game_id": "g1", "seconds": 30, "id": 2}))
                await asyncio.sleep(0.5)  # the search is running, its connection open
                start = time.monotonic()
                proc.send_signal(signal.SIGINT)
                try:
                    await asyncio.to_thread(proc.wait, 5)
                except subprocess.TimeoutExpired:
                    pytest.fail("cruiselib web still running 5 s after Ctrl-C")
                return time.monotonic() - start

        took = asyncio.run(interrupt_while_searching())
        err = proc.communicate()[1]
        print(f"stopped {took:.2f} s after Ctrl-C")
        assert proc.returncode == 130, err.decode()
        assert b"interrupted" in err and b"Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
