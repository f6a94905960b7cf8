"""The ASGI application of ``cruiselib web`` (see the package's docstring)."""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

import cruiselib
from cruiselib.protocol import Engine

__all__ = ["catalog", "create_app", "run"]

# Seats each game allows (its page in docs/): the page's choice of players.
PLAYERS: dict[str, tuple[int, int]] = {
    "sirens": (2, 2),
    "dream_islands": (2, 4),
    "atlantic_star": (2, 6),
    "dream_cruise": (1, 4),
}
STATIC = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}


@functools.cache
def _static(name: str) -> bytes:
    return resources.files("cruiselib.web").joinpath("static").joinpath(name).read_bytes()


@functools.cache
def catalog(name: str) -> dict[str, Any]:
    """What the page needs to name what a view of game ``name`` holds by id (its default
    card set), and the seat counts it allows. KeyError for an unknown game."""
    if name not in PLAYERS:
        raise KeyError(name)
    game: Any = cruiselib.make(name)
    low, high = PLAYERS[name]
    out: dict[str, Any] = {"game": name, "title": game.title, "players": [low, high]}
    if name == "dream_islands":
        from cruiselib.dream_islands import MISSIONS

        out["missions"] = list(MISSIONS)
    elif name == "dream_cruise":
        cards = msgspec.to_builtins(game.cards)
        out.update(families=cards["families"], locations=cards["locations"], ships=cards["ships"])
    return out


async def _page(request: Request) -> Response:
    name = request.path_params.get("name", "index.html")
    if name not in STATIC:
        return Response("not found", status_code=404, media_type="text/plain")
    return Response(_static(name), media_type=STATIC[name], headers={"Cache-Control": "no-cache"})


async def _catalog(request: Request) -> Response:
    try:
        return JSONResponse(catalog(request.path_params["game"]))
    except KeyError:
        return JSONResponse({"error": f"no game {request.path_params['game']!r}"}, status_code=404)


async def _socket(websocket: WebSocket) -> None:
    """The engine protocol over one WebSocket: each text (or binary) frame is one request,
    answered by one text frame; ``quit`` closes the connection after its reply."""
    await websocket.accept()
    engine = Engine()
    try:
        while not engine.finished:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            data: str | bytes | None = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            # A search (bot, hint) may think for seconds: off the event loop, so other
            # connections go on; this connection's requests are answered in order.
            reply = await run_in_threadpool(engine.handle_line, data)
            await websocket.send_text(reply.decode())
        if engine.finished:
            await websocket.close()
    except WebSocketDisconnect:
        pass
    finally:
        engine.close()


def create_app() -> Starlette:
    """The application: the page at ``/``, the protocol at ``/ws``, names at ``/catalog/{game}``."""
    return Starlette(
        routes=[
            Route("/", _page),
            Route("/static/{name}", _page),
            Route("/catalog/{game}", _catalog),
            WebSocketRoute("/ws", _socket),
        ]
    )


def run(host: str = "127.0.0.1", port: int = 8000) -> int:
    """Serve the application with uvicorn until interrupted."""
    import uvicorn

    print(f"cruiselib web: http://{host}:{port}/ (Ctrl-C to stop)", flush=True)
    uvicorn.run(create_app(), host=host, port=port, log_level="warning", ws="auto")
    return 0
