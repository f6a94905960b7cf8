"""``cruiselib web``: play any game against a bot in a web browser.

An ASGI application (Starlette) with three parts:

- ``/``: one static page (``static/index.html``, ``static/app.js``, ``static/style.css``)
  that draws the board from the seat's view, lists the legal moves as buttons, and plays
  the other seats with a chosen bot;
- ``/ws``: a WebSocket carrying the engine protocol of docs/protocol.md, one request per
  text frame and one reply per frame, each connection with an engine (games) of its own;
- ``/catalog/{game}``: the names behind the ids a view holds (Dream Islands' missions,
  Dream Cruise's cards) and the seat counts each game allows, as JSON.

Needs the ``web`` extra: ``pip install 'cruiselib[web]'``. ``cruiselib web`` runs it
under uvicorn (:mod:`cruiselib.web.server`). The server trusts only its own host and
origin, and bounds connections, frames, games, searches and waits (docs/web.md).
"""

from __future__ import annotations

from cruiselib.web.app import WebState, catalog, create_app
from cruiselib.web.server import WebServer, create_server, run

__all__ = ["WebServer", "WebState", "catalog", "create_app", "create_server", "run"]
