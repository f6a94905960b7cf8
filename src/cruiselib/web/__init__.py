"""``cruiselib web``: play any game against a bot in a web browser.

An ASGI application (Starlette) with these parts:

- ``/``: one static page (``static/index.html``, ``static/app.js``, ``static/style.css``)
  that draws the board from the seat's view, lists the legal moves as buttons, and plays
  the other seats with a chosen bot;
- ``/ws``: a WebSocket carrying the engine protocol of docs/protocol.md, one request per
  text frame and one reply per frame, each connection with an engine (games) of its own;
- ``/games``: the games the page offers (every registered game that declares a ``web``
  board), in the page's order;
- ``/catalog/{game}``: what the game declares for the page (its seat counts, the options
  offered at the start, the names behind the ids a view holds) and its drawer's address;
- ``/games/{game}.js``: the game's drawer, a script of the game's own package.

Needs the ``web`` extra: ``pip install 'cruiselib[web]'``. ``cruiselib web`` runs it
under uvicorn (:mod:`cruiselib.web.server`). The server trusts only its own host and
origin, and bounds connections, frames, games, searches and waits (docs/web.md).
"""

from __future__ import annotations

from cruiselib.web.app import WebState, catalog, create_app
from cruiselib.web.server import WebServer, create_server, run

__all__ = ["WebServer", "WebState", "catalog", "create_app", "create_server", "run"]
