"""``cruiselib web`` (docs/web.md): the WebSocket carries the engine protocol, and a person
plays whole games by clicking in a real browser.

The browser test runs the server on a free port and drives the system's headless Chromium
(Debian's ``chromium``; ``.ci/run`` installs it) through Playwright: for each game (and
each solo configuration) it plays every move of the person's seat by clicking objects on
the board (cards, ships, islands, cabins, sets) and the small choice shown next to them,
never the move list, against the ``random`` bot; then it replays the game's record with
the library and checks that the page shows the engine's result, that every click played
the move it chose, that the bot's moves were the bot's, and that the page lists every move
as the engine says it to the person's seat (a bot's hidden choice by its public text). It
checks the page at phone width and the solo game's form as well. Skipped only when the
``web`` extra, Playwright or the browser is missing.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import sys
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.bots import make_bot

starlette = pytest.importorskip("starlette", reason="needs the 'web' extra: pip install 'cruiselib[web]'")
pytest.importorskip("uvicorn", reason="needs the 'web' extra: pip install 'cruiselib[web]'")

from cruiselib._registry import game_class  # noqa: E402
from cruiselib.errors import InvalidOptionError  # noqa: E402
from cruiselib.protocol import MAX_LINE  # noqa: E402
from cruiselib.web import catalog, create_app  # noqa: E402 - after the extra's check
from cruiselib.web.app import offered_games  # noqa: E402

from .support import ANY_GAME, one_per_game  # noqa: E402
from .web_support import serving  # noqa: E402 - after the extra's check

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


def board_games() -> list[tuple[str, int, int, int]]:
    """(game, players, seat, seed) for every offered game, from its declarations: the
    fewest seats of two or more (small tables keep the games short; the person's seat
    varies), and the solo configuration of a game that has one."""
    out = []
    for k, name in enumerate(offered_games()):
        counts = game_class(name).player_counts
        players = next((n for n in counts if n >= 2), counts[0])
        out.append((name, players, k % players, 11 + k))
        if 1 in counts and players != 1:
            out.append((name, 1, 0, 31 + k))
    return out


GAMES = board_games()
PHONE: Any = {"width": 390, "height": 844}
# Starlette's TestClient on httpx (rather than its successor httpx2) warns; both work.
# A surface over the public API: the README's pure-Python run leaves it out (-m "not surface").
pytestmark = [pytest.mark.surface, pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")]
MAX_CLICKS = 400  # far above any of these games' lengths: a page that stalls fails, not hangs


# --------------------------------------------------------------------------- the protocol


def test_page_and_catalog() -> None:
    from starlette.testclient import TestClient

    with TestClient(create_app()) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        for action in ("new", "hint", "undo", "filter"):
            assert f'data-action="{action}"' in page.text
        assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
        assert client.get("/static/style.css").status_code == 200
        assert client.get("/static/nothing.js").status_code == 404
        assert client.get(f"/catalog/{ANY_GAME}").json() == expected_catalog(ANY_GAME)
        assert client.get("/catalog/chess").status_code == 404
    for name in cruiselib.games():
        assert catalog(name)["game"] == name


def test_how_to_win_and_the_end_reason_are_the_games() -> None:
    """Every game says how it is won and ends (its catalog's ``rules``); ``POST /ending``
    with a finished game's record says why it ended, as the game does (Game.end_reason),
    naming the rule; a game going on has no reason; a record that does not replay is 400."""
    from starlette.testclient import TestClient

    with TestClient(create_app()) as client:
        for name, options in one_per_game():
            cls = game_class(name)
            assert cls.how_to_win and cls.how_it_ends  # every game of the package declares them
            assert client.get(f"/catalog/{name}").json()["rules"] == {"goal": cls.how_to_win, "end": cls.how_it_ends}
            game: Any = cruiselib.make(name, **options)
            state = game.new_state(seed=5)
            going = client.post("/ending", content=state.record().to_json())
            assert going.status_code == 200 and going.json() == {"reason": None}
            chooser = random.Random(5)
            while not state.is_over:
                state.apply(chooser.choice(state.legal_actions()))
            reason = client.post("/ending", content=state.record().to_json()).json()["reason"]
            assert reason == game.end_reason(state)
            assert re.search(r"\([A-Z]\d+(, [A-Z]\d+)*\)", reason)  # the rule, by its id
        assert client.post("/ending", content=b"{not json").status_code == 400
        assert client.post("/ending", content=b'{"game": "chess"}').status_code == 400
        assert client.post("/ending", content=b"[1]").status_code == 400
        assert client.post("/ending", content=b" " * (MAX_LINE + 1)).status_code == 413
        assert client.get("/ending").status_code == 405


def test_the_bots_the_page_offers() -> None:
    """/bots: every registered bot but those that search the true position (they see the
    hidden cards), each with whether it searches, and the hint bot among them; the page's
    script names no bot of its own."""
    from starlette.testclient import TestClient

    from cruiselib.bots import BOTS
    from cruiselib.bots.search import SearchBot

    with TestClient(create_app()) as client:
        reply = client.get("/bots").json()
        script = client.get("/static/app.js").text
    seeing = {name for name, cls in BOTS.items() if issubclass(cls, SearchBot) and not cls.determinize}
    assert seeing  # the registry has such a bot: the page must leave it out
    offered = {bot["name"]: bot["search"] for bot in reply["bots"]}
    assert list(offered) == [name for name in BOTS if name not in seeing]
    assert offered == {name: issubclass(BOTS[name], SearchBot) for name in offered}
    assert reply["hint"] in offered and offered[reply["hint"]]
    assert not [name for name in seeing if name in script]  # not even to leave it out
    assert not re.findall(r"\b(?:bot|opponent|hintBot)\s*[:=]\s*[\"']", script)  # no bot named by a literal


def expected_catalog(name: str) -> dict[str, Any]:
    """Game ``name``'s catalog as its game class declares it, in JSON values."""
    cls = game_class(name)
    assert cls.web is not None
    counts = list(cls.player_counts)
    declared = json.loads(json.dumps(dict(cls.web.catalog(cruiselib.make(name)))))
    return {
        **declared,
        "game": name,
        "title": cls.title,
        "players": [counts[0], counts[-1]],
        "player_counts": counts,
        "options": [option.to_json() for option in cls.web.options],
        "drawer": f"/games/{name}.js",
        "rules": {"goal": cls.how_to_win, "end": cls.how_it_ends} if cls.how_to_win else None,
    }


def test_every_catalog_comes_from_the_game_declarations() -> None:
    from starlette.testclient import TestClient

    assert offered_games() == tuple(name for name in cruiselib.games() if game_class(name).web is not None)
    assert offered_games()  # every game of the package declares its board
    with TestClient(create_app()) as client:
        listed = client.get("/games").json()["games"]
        assert [entry["game"] for entry in listed] == list(offered_games())  # the page's order
        for entry in listed:
            name = entry["game"]
            assert entry["title"] == game_class(name).title
            assert entry["player_counts"] == list(game_class(name).player_counts)
            assert client.get(f"/catalog/{name}").json() == expected_catalog(name)
            assert catalog(name) == expected_catalog(name)


def test_drawer_scripts() -> None:
    """Each offered game's drawer URL serves the script its web board names, from its
    package, and the same URL in .css its board styles beside it; anything else under
    /games/ is a 404."""
    from importlib import resources

    from starlette.testclient import TestClient

    with TestClient(create_app()) as client:
        for name in offered_games():
            web = game_class(name).web
            assert web is not None
            reply = client.get(catalog(name)["drawer"])
            assert reply.status_code == 200
            assert reply.headers["content-type"] == "text/javascript; charset=utf-8"
            assert reply.headers["cache-control"] == "no-cache"  # as the page's own files
            assert reply.content == resources.files(web.drawer[0]).joinpath(web.drawer[1]).read_bytes()
            assert "cruiselib.registerDrawer(" in reply.text
            # Its board styles, the .css beside the script in its package.
            styles = client.get(catalog(name)["drawer"].replace(".js", ".css"))
            assert styles.status_code == 200
            assert styles.headers["content-type"] == "text/css; charset=utf-8"
            css_file = web.drawer[1].replace(".js", ".css")
            assert styles.content == resources.files(web.drawer[0]).joinpath(css_file).read_bytes()
        name = offered_games()[0]
        for path in (
            "/games/chess.js",
            f"/games/{name}",
            f"/games/{name}.js.js",
            f"/games/{name}.jsx",
            f"/games/{name}.css.css",
            "/games/chess.css",
            "/games/.js",
            "/games/..%2fapp.js",
            f"/games/{name}/board.js",
        ):
            assert client.get(path).status_code == 404, path


def _register_twin(monkeypatch: pytest.MonkeyPatch, name: str, **attributes: Any) -> type[Any]:
    """A subclass of the first offered game's class, with ``attributes``, registered under
    ``name`` for one test (monkeypatch restores the registry)."""
    base = game_class(offered_games()[0])
    twin = type(f"Twin_{name}", (base,), {"name": name, **attributes})
    monkeypatch.setattr(sys.modules[__name__], twin.__name__, twin, raising=False)
    monkeypatch.setattr(cruiselib._registry, "_REGISTRY", dict(cruiselib._registry._REGISTRY))
    cruiselib.register(name, f"{__name__}:{twin.__name__}")
    return twin


def test_a_game_registered_at_run_time_gets_a_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    from starlette.testclient import TestClient

    base = offered_games()[0]
    _register_twin(monkeypatch, "web_twin")
    assert "web_twin" in offered_games()
    with TestClient(create_app()) as client:
        assert "web_twin" in [entry["game"] for entry in client.get("/games").json()["games"]]
        twin = client.get("/catalog/web_twin").json()
        assert twin == expected_catalog("web_twin")
        assert twin == {**client.get(f"/catalog/{base}").json(), "game": "web_twin", "drawer": "/games/web_twin.js"}
        drawer = client.get("/games/web_twin.js")
        assert drawer.status_code == 200 and drawer.content == client.get(f"/games/{base}.js").content


def test_a_game_without_a_web_board_is_not_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    from starlette.testclient import TestClient

    _register_twin(monkeypatch, "web_hidden", web=None)
    assert "web_hidden" in cruiselib.games() and "web_hidden" not in offered_games()
    with pytest.raises(InvalidOptionError, match="does not offer 'web_hidden'"):
        catalog("web_hidden")
    with pytest.raises(InvalidOptionError, match="unknown game"):
        catalog("chess")
    with TestClient(create_app()) as client:
        assert "web_hidden" not in [entry["game"] for entry in client.get("/games").json()["games"]]
        assert client.get("/catalog/web_hidden").status_code == 404
        assert client.get("/games/web_hidden.js").status_code == 404


def test_websocket_round_trip() -> None:
    """The same requests and replies as ``cruiselib serve``, one per frame; an error reply
    leaves the connection up; each connection has games of its own; quit closes it."""
    from starlette.testclient import TestClient

    def ask(ws: Any, request: dict[str, Any]) -> dict[str, Any]:
        ws.send_text(json.dumps(request))
        reply: dict[str, Any] = json.loads(ws.receive_text())
        return reply

    with TestClient(create_app()) as client:
        with client.websocket_connect("/ws") as ws:
            hello = ask(ws, {"cmd": "hello", "version": 1, "id": 1})
            assert hello["ok"] and hello["id"] == 1 and hello["protocol"] == "cruiselib-engine"
            new = ask(ws, {"cmd": "new", "game": ANY_GAME, "seed": 7, "id": 2})
            assert new["game_id"] == "g1" and new["seed"] == 7
            legal = ask(ws, {"cmd": "legal", "game_id": "g1", "id": 3})
            seat = legal["current_player"]
            applied = ask(ws, {"cmd": "apply", "game_id": "g1", "action": legal["actions"][0], "seat": seat, "id": 4})
            assert applied["ok"] and applied["move"] == legal["moves"][0] and applied["seat"] == seat
            ws.send_text("{not json")
            bad = json.loads(ws.receive_text())
            assert bad == {"id": None, "ok": False, "error": {"code": "bad_json", "message": bad["error"]["message"]}}
            ws.send_bytes(b'{"cmd":"ping","id":"bytes"}')
            assert json.loads(ws.receive_text()) == {"id": "bytes", "ok": True}
            wrong = ask(ws, {"cmd": "apply", "game_id": "g1", "action": 0, "seat": 1 - applied["current_player"]})
            assert wrong["error"]["code"] in ("wrong_seat", "illegal_move")
            status = ask(ws, {"cmd": "status", "game_id": "g1", "id": 5})
            assert status["ok"] and status["ply"] == 1  # the errors changed nothing
            # The engine's result agrees with the library's for the same deal and action.
            state: Any = cruiselib.make(ANY_GAME).new_state(seed=7)
            state.apply(legal["actions"][0])
            assert status["current_player"] == state.current_player
        with client.websocket_connect("/ws") as other:
            assert ask(other, {"cmd": "status", "game_id": "g1"})["error"]["code"] == "unknown_game"
            assert ask(other, {"cmd": "quit", "id": 9}) == {"id": 9, "ok": True}
            with pytest.raises(starlette.websockets.WebSocketDisconnect):
                other.receive_text()


def test_cli_without_the_extra(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from cruiselib import cli

    monkeypatch.setitem(sys.modules, "cruiselib.web", None)  # import fails as without starlette
    assert cli.main(["web", "--port", "1"]) == 2
    assert "pip install 'cruiselib[web]'" in capsys.readouterr().err


# --------------------------------------------------------------------------- the browser


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The application under its server (``cruiselib web``'s) in a thread, on a free
    loopback port."""
    with serving() as served:
        yield served.base


def chromium_path() -> str | None:
    """The system's Chromium (``CRUISELIB_CHROMIUM`` or the first on PATH), or None."""
    if os.environ.get("CRUISELIB_CHROMIUM"):
        return os.environ["CRUISELIB_CHROMIUM"]
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs Playwright: pip install playwright")
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium on PATH (Debian: apt-get install chromium; .ci/run installs it)")
    with sync_api.sync_playwright() as p:
        chrome = p.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox"])
        yield chrome
        chrome.close()


def open_game(
    page: Any, base: str, game: str, players: int, seat: int, seed: int, opponent: str = "random", think: float = 0.3
) -> None:
    """Open the page with a game chosen through its setup form, and start it."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/")
    page.wait_for_function("document.body.dataset.busy === '0' && document.querySelector('#game option')")
    page.select_option("#game", game)
    page.wait_for_selector(f'#players[data-game="{game}"] option[value="{players}"]', state="attached")
    page.select_option("#players", str(players))
    if players > 1:
        page.select_option("#seat", str(seat))
        page.select_option("#opponent", opponent)
    else:  # a solo game: no seat to choose, no opponent
        assert page.is_hidden("#seat") and page.is_hidden("#opponent")
    page.fill("#seed", str(seed))
    page.fill("#think", str(think))
    page.click('[data-action="new"]')
    wait_idle(page)
    assert not errors, errors
    assert f"{players} player" in page.inner_text("#status")


def wait_idle(page: Any, renders: int = -1) -> tuple[int, str]:
    """Until the page has drawn past ``renders`` and waits for the person (or shows the end,
    or an error); then its render count and state. An error shown fails the test."""
    handle = page.wait_for_function(
        f"""() => {{
            const body = document.body, state = document.querySelector('#status').dataset.state;
            const error = document.querySelector('#error');
            if (body.dataset.busy !== '0' || Number(body.dataset.renders) <= {renders}) return false;
            if (!error.hidden) return ['error', error.textContent];
            return ['your-turn', 'over'].includes(state) && [Number(body.dataset.renders), state];
        }}""",
        timeout=30_000,
    )
    count, state = handle.json_value()
    assert count != "error", f"the page shows an error: {state}"
    return int(count), str(state)


def click(page: Any, selector: str, renders: int | None = None) -> tuple[int, str]:
    """Click, then wait until the page has answered it."""
    if renders is None:
        renders = int(page.get_attribute("body", "data-renders"))
    page.click(selector)
    return wait_idle(page, renders)


def play_by_clicking(page: Any) -> int:
    """Click the first move button until the game is over; the number of clicks."""
    renders, state = wait_idle(page)
    for clicks in range(MAX_CLICKS):
        if state == "over":
            return clicks
        renders, state = click(page, '#moves button[data-action="move"] >> nth=0', renders)
    pytest.fail(f"no end after {MAX_CLICKS} clicks")


def log_lines(page: Any) -> list[str]:
    """The page's list of moves played, a line each (not the lines saying what the rules
    did on their own)."""
    lines: list[str] = page.eval_on_selector_all("#log li:not(.auto)", "items => items.map((li) => li.textContent)")
    return lines


def said_to_seat(state: Any, action: int, seat: int) -> str:
    """Legal ``action``'s text in ``state`` as the engine says it to a page playing ``seat``
    (docs/protocol.md, "Who is told what"): the seat's own move names its own cards, another
    seat's move is its text for everyone (a hidden choice left out)."""
    mover: int = state.current_player
    text: str = state.move_text(action, player=seat) if mover == seat else state.move_text(action)
    return text


def expected_log(record: dict[str, Any], seed: int, seat: int, opponent: str) -> list[str]:
    """The move list a page playing ``seat`` against ``opponent`` should show for the game
    of ``record``, dealt from ``seed`` as the page deals it."""
    state: Any = cruiselib.make(record["game"], **record["options"]).new_state(seed=seed)
    lines = []
    for action in record["actions"]:
        mover = state.current_player
        who = "you" if mover == seat else opponent
        lines.append(f"seat {mover} ({who}): {said_to_seat(state, action, seat)}")
        state.apply(action)
    return lines


def expected_events(record: dict[str, Any], seed: int, seat: int) -> list[str]:
    """The lines the page adds to its log for what the rules did on their own in the game of
    ``record`` (``Game.event_lines``, between two positions the person's seat sees: from
    before each of its moves to its next turn or the end)."""
    game: Any = cruiselib.make(record["game"], **record["options"])
    state: Any = game.new_state(seed=seed)
    lines: list[str] = []
    before = None
    for action in record["actions"]:
        if state.current_player == seat:
            if before is not None:
                lines += game.event_lines(before, state, seat)
            before = state.clone()
        state.apply(action)
    if before is not None:
        lines += game.event_lines(before, state, seat)
    return lines


def page_record(page: Any) -> dict[str, Any]:
    """The record of the page's game so far, asked on the page's own connection."""
    record: dict[str, Any] = page.evaluate(
        "async () => (await S.conn.send({cmd: 'save', game_id: S.gid, snapshot: false})).record"
    )
    return record


def check_log(page: Any, seed: int, seat: int, opponent: str) -> dict[str, Any]:
    """The page's move list says every move of its game as the engine says it to the
    page's seat; the game's record."""
    record = page_record(page)
    assert log_lines(page) == expected_log(record, seed, seat, opponent)
    return record


def shown_result(page: Any) -> tuple[list[int], list[int], dict[str, Any]]:
    """The final scores and winners the page shows, and the record it offers."""
    box = page.locator("#result")
    assert box.is_visible()
    scores = json.loads(box.get_attribute("data-scores"))
    winners = json.loads(box.get_attribute("data-winners"))
    # What a person reads: the score cells and the winners line.
    assert [int(page.inner_text(f'#result [data-score="{p}"]')) for p in range(len(scores))] == scores
    href = page.get_attribute('#result [data-action="record"]', "href")
    assert href.startswith("data:application/json")
    record: dict[str, Any] = json.loads(urllib.parse.unquote(href.split(",", 1)[1]))
    return scores, winners, record


def board_moves(page: Any) -> dict[int, list[str]]:
    """The legal moves of the page's seat, each with the board objects its game's drawer
    says it acts on."""
    pairs = page.evaluate(
        """() => S.legal.moves.map((text, i) => {
            const info = S.drawer.move ? S.drawer.move(text, S.view, S.catalog) : null;
            return [S.legal.actions[i], info ? info.objects.map(String) : []];
        })"""
    )
    return {int(action): objects for action, objects in pairs}


def moves_on(moves: dict[int, list[str]], keys: list[str]) -> list[int]:
    """The moves that act on every object of ``keys``."""
    return sorted(action for action, objects in moves.items() if all(key in objects for key in keys))


# Where a person's click on an element lands once it is scrolled to the middle of the
# screen: the centre of the first of its boxes (a line of text that wraps has several) that
# nothing else covers there (the choice shown, a phone's sheet of moves), with the playable
# objects under that point, the innermost first; else what covers each box's centre.
POINT_IN_SIGHT = """(node) => {
    node.scrollIntoView({block: "center", inline: "nearest"});
    const covered = [];
    for (const r of node.getClientRects()) {
        if (r.width < 1 || r.height < 1) continue;
        const x = r.x + r.width / 2, y = r.y + r.height / 2;
        const hit = document.elementFromPoint(x, y);
        if (hit && node.contains(hit)) {
            const chain = [];
            for (let n = hit.closest("[data-object]"); n; n = n.parentElement?.closest("[data-object]")) {
                if (n.classList.contains("playable")) chain.push(n.dataset.object);
            }
            return {x, y, chain};
        }
        covered.push(`${node.dataset.object} under ${hit ? hit.tagName + (hit.id ? "#" + hit.id : "") : "nothing"}`);
    }
    return {covered};
}"""


# The marked objects (selected, targets) that the choice shown covers, by key: the choice's
# box overlaps one of the object's boxes.
CHOICE_COVERS = """() => {
    const box = document.querySelector("#choice").getBoundingClientRect();
    const over = (r) => r.width > 0 && r.height > 0
        && r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom;
    return [...document.querySelectorAll("#board [data-object].selected, #board [data-object].target")]
        .filter((n) => [...n.getClientRects()].some(over)).map((n) => n.dataset.object);
}"""

# The moves of the choice shown whose card the drawer describes (its detail hook) but whose
# button does not show that description.
DETAILS_MISSING = """() => [...document.querySelectorAll("#choice button[data-move]")].filter((b) => {
    if (!S.drawer.detail) return false;
    const i = S.legal.actions.indexOf(Number(b.dataset.move));
    const detail = S.drawer.detail(S.legal.moves[i], S.view, S.catalog);
    return detail && !(b.querySelector(".detail")?.textContent || "").includes(String(detail));
}).map((b) => b.textContent)"""


# A point of the board that no object and nothing over the board (the choice) covers: the
# centre of a drawn element's box where the board itself, or a part of it outside any
# object, is hit.
BARE_BOARD = """() => {
    for (const node of document.querySelectorAll("#board *")) {
        node.scrollIntoView({block: "center"});
        const r = node.getBoundingClientRect();
        if (r.width < 1 || r.height < 1) continue;
        const x = r.x + r.width / 2, y = r.y + r.height / 2;
        const hit = document.elementFromPoint(x, y);
        if (hit && document.querySelector("#board").contains(hit) && !hit.closest("[data-object]")) return [x, y];
    }
    return null;
}"""


def object_in_sight(pool: Any, rnd: random.Random) -> tuple[dict[str, Any] | None, list[str]]:
    """A random object of ``pool`` that a click reaches, as ``POINT_IN_SIGHT`` finds it (the
    point to click, ``x`` and ``y``, and the playable objects there, ``chain``), or None when
    every one is covered; and what covers the objects tried before it."""
    order = list(range(pool.count()))
    rnd.shuffle(order)
    covered: list[str] = []
    for i in order:
        sight: dict[str, Any] = pool.nth(i).evaluate(POINT_IN_SIGHT)
        if "chain" in sight:
            return sight, covered
        covered += sight["covered"]
    return None, covered


def choose_on_the_board(page: Any, rnd: random.Random) -> int:
    """Play one move of the person's by clicks on the board: a random playable object, and
    while a choice is shown, a random marked target or a random move of the choice. Each
    click is checked against the drawer's objects: the moves left are those acting on
    every object clicked (or on the last alone when none acts on them all); one is played,
    more are offered. The action played."""
    moves = board_moves(page)
    drawn = set(page.eval_on_selector_all("#board [data-object]", "nodes => nodes.map((n) => n.dataset.object)"))
    for action, objects in moves.items():  # every legal move can be played on the board
        assert drawn & set(objects), f"move {action} acts on no object drawn: {objects}"
    assert page.get_attribute("#board", "data-unmapped") == "0"
    # Each kind of move in the move list is explained, by the game's drawer.
    helps = page.eval_on_selector_all(
        "#moves fieldset.group", "gs => gs.map((g) => g.querySelector('.kind-help')?.textContent)"
    )
    assert helps and all(helps), helps
    # Only the chips a legal move plays look live: the others are dimmed.
    chips = page.eval_on_selector_all(
        "#board .obj-button[data-object]",
        """ns => ns.map((n) => [
            n.dataset.object, n.classList.contains('playable'), Number(getComputedStyle(n).opacity)
        ])""",
    )
    for key, live, opacity in chips:
        assert (opacity == 1) == live, f"chip {key}: playable {live}, opacity {opacity}"
    # The status says what the person does now.
    assert page.inner_text("#status .now").startswith("now: ")
    # Every playable object is one a click reaches (none left under a phone's sheet of moves).
    unreachable = page.eval_on_selector_all(
        "#board [data-object].playable",
        f"ns => ns.map({POINT_IN_SIGHT}).filter((s) => !s.chain).flatMap((s) => s.covered)",
    )
    assert not unreachable, unreachable
    selection: list[str] = []
    pool = page.locator("#board [data-object].playable")
    for _ in range(20):
        sight, covered = object_in_sight(pool, rnd)
        assert sight, f"no object on the board that a click reaches: {covered}"
        chain = sight["chain"]
        # The page takes the innermost object under the click that goes with the objects
        # clicked before (a card on a ship's side, then the side), else the innermost.
        key = next(
            (k for k in chain if selection and k not in selection and moves_on(moves, [*selection, k])), chain[0]
        )
        keys = [k for k in selection if k != key] if key in selection else [*selection, key]
        left = moves_on(moves, keys) if keys else []
        if keys and not left:
            keys, left = [key], moves_on(moves, [key])
        page.mouse.click(sight["x"], sight["y"])  # just where the objects under it were found
        if not keys:  # the only object selected, clicked again: the choice is forgotten
            assert page.is_hidden("#choice")
            selection, pool = [], page.locator("#board [data-object].playable")
            continue
        assert left, f"{key} is marked playable but no move acts on it"
        if len(left) == 1:
            assert page.is_hidden("#choice")
            return left[0]
        # A choice next to the object: just the moves left, the objects clicked selected.
        offered = page.eval_on_selector_all("#choice button[data-move]", "bs => bs.map((b) => Number(b.dataset.move))")
        assert sorted(offered) == left
        assert not page.evaluate(CHOICE_COVERS), "the choice covers an object it marks"
        # Each move of the choice shows the content of the card it names (the drawer's detail).
        missing = page.evaluate(DETAILS_MISSING)
        assert not missing, f"moves shown without their card's content: {missing}"
        assert page.locator("#choice .kind-help").first.inner_text()  # what the moves offered do
        assert set(page.eval_on_selector_all("#board .selected", "ns => ns.map((n) => n.dataset.object)")) == set(keys)
        selection = keys
        # A marked target in sight narrows the choice further; or a move of the choice is played.
        pool = page.locator("#board [data-object].target")
        if rnd.random() < 0.5 or object_in_sight(pool, rnd)[0] is None:
            buttons = page.locator("#choice button[data-move]")
            button = buttons.nth(rnd.randrange(buttons.count()))
            action = int(button.get_attribute("data-move"))
            button.click()
            return action
    pytest.fail("twenty clicks on the board did not play a move")


def play_on_the_board(page: Any, seed: int) -> list[int]:
    """Play the person's seat by clicks on the board until the game is over; the actions
    played, in order."""
    rnd = random.Random(seed)
    renders, state = wait_idle(page)
    played: list[int] = []
    for _ in range(MAX_CLICKS):
        if state == "over":
            return played
        played.append(choose_on_the_board(page, rnd))
        renders, state = wait_idle(page, renders)
    pytest.fail(f"no end after {MAX_CLICKS} moves")


WIDTHS: Any = {"desktop": {"width": 1280, "height": 900}, "phone": PHONE}


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize(("game", "players", "seat", "seed"), GAMES, ids=[f"{g[0]}-{g[1]}p" for g in GAMES])
def test_play_a_whole_game_on_the_board(
    browser: Any, server: str, game: str, players: int, seat: int, seed: int, width: str
) -> None:
    play_and_check(browser, server, game, players, seat, seed, on_the_board=True, viewport=WIDTHS[width])


def play_and_check(
    browser: Any,
    server: str,
    game: str,
    players: int,
    seat: int,
    seed: int,
    on_the_board: bool = False,
    viewport: Any = None,
) -> None:
    """Play a whole game on the page against the ``random`` bot, by clicks on the board
    (``on_the_board``) or on the first move button of the move list, and check the page's
    result and record against the library's."""
    page = browser.new_page(viewport=viewport or {"width": 1280, "height": 900})
    try:
        open_game(page, server, game, players, seat, seed)
        assert page.locator("#board").inner_text().strip()  # a board, drawn from the view
        # How to win and how the game ends: open at the first game, one click away after.
        # The game's own texts (Game.how_to_win, how_it_ends), from its catalog.
        if game_class(game).how_to_win:
            assert page.inner_text('#rules [data-rules="goal"]') == game_class(game).how_to_win
            assert page.inner_text('#rules [data-rules="end"]') == "The end. " + game_class(game).how_it_ends
            page.click('[data-action="close-rules"]')
            assert page.is_hidden("#rules")
            page.click('#status [data-action="rules"]')  # one click away
            assert page.is_visible("#rules")
            page.click('[data-action="close-rules"]')
        chosen: list[int] = []
        if on_the_board:
            chosen = play_on_the_board(page, seed)
            clicks = len(chosen)
        else:
            clicks = play_by_clicking(page)
        scores, winners, record = shown_result(page)
        page_text = page.inner_text("#result")
        ending = page.inner_text("#result .ending") if page.locator("#result .ending").count() else None
        if ending:  # why the game ended, in words, in the status too
            assert ending in page.inner_text("#status")
        auto = page.eval_on_selector_all("#log li.auto", "items => items.map((li) => li.textContent)")
        log = log_lines(page)
    finally:
        page.close()
    assert record["game"] == game and record["options"]["players"] == players
    final: Any = cruiselib.replay(record)  # checks every move text and the result as well
    assert final.is_over
    assert list(final.scores()) == scores
    assert ending == final.game.end_reason(final)  # the game's reason, as the server says it
    assert sorted(final.winners()) == sorted(winners)
    assert record["result"]["scores"] == scores
    # Dealt from the seed chosen in the form, as cruiselib.make(...).new_state(seed) deals.
    made: Any = cruiselib.make(game, **record["options"])
    state: Any = made.new_state(seed=seed)
    # Every move of the person's was the one clicked (the first legal move, on the move
    # list); every other seat's move was the random bot's, seeded as the page seeds it.
    bots = {p: make_bot("random", seed=seed + 7919 * (p + 1)) for p in range(players) if p != seat}
    mine = 0
    for action in record["actions"]:
        mover = state.current_player
        if mover == seat:
            assert action == (chosen[mine] if on_the_board else min(state.legal_actions()))
            mine += 1
        else:
            assert action == bots[mover].choose(state)
        state.apply(action)
    assert mine == clicks
    assert list(state.scores()) == scores
    # Every move in the page's list, said as the engine says it to the person's seat.
    assert log == expected_log(record, seed, seat, "random")
    for p in winners:
        assert f"seat {p}" in page_text
    # What the rules did on their own (a solo game's rival), as the game says it: a game
    # that declares such lines (Game.event_lines) has them in its solo game.
    events = expected_events(record, seed, seat)
    assert auto == events
    if players == 1 and type(made).event_lines is not cruiselib.Game.event_lines:
        assert events


def test_the_page_offers_the_servers_games_in_its_order(browser: Any, server: str) -> None:
    """The game box lists the games of /games in the server's order, the first chosen; the
    players box the chosen game's seat counts; its options box the game's options."""
    page = browser.new_page()
    try:
        page.goto(server + "/")
        page.wait_for_function("document.body.dataset.busy === '0' && document.querySelector('#game option')")
        assert page.eval_on_selector_all("#game option", "options => options.map((o) => o.value)") == list(
            offered_games()
        )
        for name in offered_games():
            page.select_option("#game", name)
            page.wait_for_selector(f'#players[data-game="{name}"]', state="attached")
            counts = page.eval_on_selector_all("#players option", "options => options.map((o) => Number(o.value))")
            assert counts == list(game_class(name).player_counts)
            shown = page.eval_on_selector_all(
                "#options select", "boxes => boxes.map((b) => [b.name, b.options.length])"
            )
            assert shown == [[o.name, len(o.choices)] for o in catalog_options(name)]
        page.goto(server + "/")  # a fresh page: its default game is the first
        page.wait_for_function("document.body.dataset.busy === '0' && document.querySelector('#game option')")
        assert page.input_value("#game") == offered_games()[0]
    finally:
        page.close()


def test_the_page_starts_when_a_catalog_fails_to_load(browser: Any, server: str) -> None:
    """A game whose catalog does not load (here answered 500 by the browser's network
    layer) is left out of the form with a console warning; the other games start."""
    games = list(offered_games())
    broken = games[0]
    page = browser.new_page()
    warnings: list[str] = []
    errors: list[str] = []
    page.on("console", lambda message: warnings.append(message.text) if message.type == "warning" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.route(f"**/catalog/{broken}", lambda route: route.fulfill(status=500, body='{"error": "down"}'))
    try:
        page.goto(server + "/")
        page.wait_for_function("document.body.dataset.busy === '0' && document.querySelector('#game option')")
        offered = page.eval_on_selector_all("#game option", "options => options.map((o) => o.value)")
        assert offered == games[1:]
        assert any(broken in text and "catalog failed" in text for text in warnings), warnings
        page.click('[data-action="new"]')
        wait_idle(page)
        assert page.evaluate("S.gid") is not None
        assert not errors, errors
    finally:
        page.close()


def catalog_options(name: str) -> list[Any]:
    """The options the page's form offers for game ``name`` (the players box is its own)."""
    web = game_class(name).web
    assert web is not None
    return [option for option in web.options if option.name != "players"]


def offered_options() -> list[tuple[str, Any]]:
    """(game, option) for every option the page's form offers, over every offered game."""
    return [(name, option) for name in offered_games() for option in catalog_options(name)]


@pytest.mark.parametrize(("name", "option"), offered_options(), ids=[f"{n}-{o.name}" for n, o in offered_options()])
def test_a_game_starts_with_the_options_chosen(browser: Any, server: str, name: str, option: Any) -> None:
    """The options box's choice reaches ``new``: the game's record has it. An option of the
    solo game alone (its catalog's ``solo_options``) shows only with one player."""
    chosen = option.choices[-1]
    assert chosen != option.choices[0]  # not the default: the choice shows
    solo_only = option.name in catalog(name).get("solo_options", [])
    page = browser.new_page()
    try:
        page.goto(server + "/")
        page.wait_for_function("document.body.dataset.busy === '0' && document.querySelector('#game option')")
        page.select_option("#game", name)
        if solo_only:
            page.select_option("#players", str(two_or_more(name)))
            assert page.is_hidden(f"#option-{option.name}")
            page.select_option("#players", "1")
        page.select_option(f"#option-{option.name}", str(len(option.choices) - 1))
        page.click('[data-action="new"]')
        wait_idle(page)
        options = page.evaluate(
            "async () => (await S.conn.send({cmd: 'save', game_id: S.gid, snapshot: false})).record.options"
        )
    finally:
        page.close()
    assert options[option.name] == chosen


@pytest.mark.parametrize("kind", ["subclass", "outside"])
def test_a_game_registered_at_run_time_is_played_on_the_page(
    browser: Any, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """A game registered at run time is offered and played with no edit of the page: a
    subclass of a game under a new name (drawn by its base's drawer script, which
    registers the base's name), and Toy Duel, defined outside cruiselib with its own."""
    if kind == "subclass":
        name = "web_twin_played"
        _register_twin(monkeypatch, name)
    else:
        name = "toy_duel"
        monkeypatch.setattr(cruiselib._registry, "_REGISTRY", dict(cruiselib._registry._REGISTRY))
        cruiselib.register(name, "tests.toy_game:ToyDuelGame")
    players = game_class(name).player_counts[0]
    with serving() as served:
        play_and_check(browser, served.base, name, players, 0, 21)


def test_hint_undo_and_filter(browser: Any, server: str) -> None:
    page = browser.new_page()
    try:
        game, players, _, _ = GAMES[0]  # ANY_GAME, at its smallest table of two or more
        rival = "rules" if game_class(game).rule_bot else "random"
        open_game(page, server, game, players, 0, 5, opponent=rival)
        first = page.locator('#moves button[data-action="move"]').first.inner_text()
        before = page.locator("#log li").count()
        click(page, '#moves button[data-action="move"] >> nth=0')
        after = page.locator("#log li").count()
        assert after >= before + 1  # the person's move, then any bot replies
        check_log(page, 5, 0, rival)  # the move said in its position, as the engine says it
        click(page, '[data-action="undo"]')
        assert page.locator("#log li").count() == before
        assert page.locator('#moves button[data-action="move"]').first.inner_text() == first
        click(page, '[data-action="hint"]')
        hints = page.locator('#hints [data-action="hint-move"]')
        assert 1 <= hints.count() <= 3
        hinted = hints.first.get_attribute("data-move")
        moves = page.locator('#moves [data-action="move"]')
        assert hinted in [moves.nth(i).get_attribute("data-move") for i in range(moves.count())]
        # Each hint says its move in the position (the engine's text), as the log will.
        now: Any = cruiselib.replay(page_record(page))
        for i in range(hints.count()):
            action = int(hints.nth(i).get_attribute("data-move"))
            assert hints.nth(i).inner_text().startswith(said_to_seat(now, action, 0))
        # Each value said as a chance to win, against the best hint's; what they mean, said.
        chances = []
        for i in range(hints.count()):
            value = hints.nth(i).get_attribute("data-value")
            if value:
                chance = round((max(-1.0, min(1.0, float(value))) + 1) / 2 * 100)
                assert f"about {chance}% to win" in hints.nth(i).inner_text()
                chances.append(chance)
        for i, chance in enumerate(chances):
            text = hints.nth(i).inner_text()
            behind = max(chances) - chance
            assert ("the best found" in text) if behind <= 0 else (f"{behind} points below the best" in text)
        assert "chance to win" in page.inner_text("#hints [data-hint-help]")
        if not page.is_hidden("#filter"):  # many moves: the filter box narrows the buttons
            total = moves.count()
            page.fill("#filter", first)
            assert 1 <= page.locator('#moves [data-action="move"]').count() < total
            page.fill("#filter", "")
        click(page, '#hints [data-action="hint-move"] >> nth=0')
        assert page.locator("#log li").nth(before).get_attribute("data-seat") == "0"
        check_log(page, 5, 0, rival)
    finally:
        page.close()


def test_the_page_keeps_its_connection_while_the_person_thinks(browser: Any) -> None:
    """The server closes a WebSocket silent for its idle time; the page pings now and then
    (``?keepalive=SECONDS``, 60 by default), so a person who thinks longer than that keeps
    the game. Without the pings the connection here closes after 2 s."""
    with serving(idle_timeout=2) as served:
        page = browser.new_page()
        try:
            page.goto(served.base + f"/?keepalive=1&game={ANY_GAME}&seat=0&opponent=random&seed=3&autostart=1")
            wait_idle(page)
            time.sleep(5)  # the person thinks, longer than the server's idle time
            before = page.locator("#log li").count()
            click(page, '#moves button[data-action="move"] >> nth=0')
            assert page.locator("#log li").count() > before
            assert "closed" not in page.inner_text("body")
        finally:
            page.close()


def two_or_more(name: str) -> int:
    """The fewest seats of two or more game ``name`` allows (its fewest, if none)."""
    counts = game_class(name).player_counts
    return next((n for n in counts if n >= 2), counts[0])


@pytest.mark.parametrize("game", offered_games())
def test_a_phone_keeps_the_move_list_in_view(browser: Any, server: str, game: str) -> None:
    """At phone width the moves stay on screen however far the board scrolls, nothing is
    wider than the screen (the board included), and a move is played on the board."""
    page = browser.new_page(viewport=PHONE)
    try:
        open_game(page, server, game, two_or_more(game), 0, 7)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # The board fits the screen's width (no sideways scrolling to see it).
        assert page.evaluate("(b => b.scrollWidth <= b.clientWidth)(document.querySelector('#board'))")
        for where in ("0", "document.documentElement.scrollHeight"):
            page.evaluate(f"window.scrollTo(0, {where})")
            box = page.locator('#moves button[data-action="move"]').first.bounding_box()
            assert box is not None
            assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (where, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        renders = int(page.get_attribute("body", "data-renders"))
        before = page.locator("#log li").count()
        choose_on_the_board(page, random.Random(7))
        wait_idle(page, renders)
        assert page.locator("#log li").count() > before
    finally:
        page.close()


def test_the_solo_game_has_no_seat_or_opponent_box(browser: Any, server: str) -> None:
    """A configuration with one seat hides the seat and opponent boxes (the page reads the
    seat counts from /games); any other shows them."""
    solo = [name for name in offered_games() if 1 in game_class(name).player_counts]
    if not solo:
        pytest.skip("no offered game has a solo configuration")
    page = browser.new_page()
    try:
        page.goto(server + "/")
        page.wait_for_function("document.body.dataset.busy === '0' && document.querySelector('#game option')")
        for name in offered_games():
            page.select_option("#game", name)
            for n in game_class(name).player_counts:
                page.select_option("#players", str(n))
                hidden = [page.is_hidden(box) for box in ("#seat", "#opponent")]
                assert hidden == [n == 1, n == 1], (name, n)
    finally:
        page.close()


def test_a_choice_on_the_board_is_dismissed_or_narrowed(browser: Any, server: str) -> None:
    """On the first offered game whose first turn has an object that several moves act on:
    a click offers them; × hides the list but keeps the objects selected and marked;
    Escape forgets the choice; clicking the selected object again does too; a click on
    nothing playable as well; and Enter on an object that one move acts on plays it."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        for name in offered_games():
            open_game(page, server, name, two_or_more(name), 0, 5)
            moves = board_moves(page)
            counts: dict[str, int] = {}
            for objects in moves.values():
                for key in objects:
                    counts[key] = counts.get(key, 0) + 1
            several = [key for key, n in counts.items() if n > 1]
            single = [key for key, n in counts.items() if n == 1]
            if several and single:
                break
        else:
            pytest.fail("no offered game has objects of one and of several moves on its first turn")
        node = page.locator(f'#board [data-object="{several[0]}"]').first
        selected = "#board .selected"
        node.click()
        assert page.is_visible("#choice") and page.locator(selected).count()
        page.click('#choice [data-action="close-choice"]')
        assert page.is_hidden("#choice") and page.locator(selected).count()
        page.keyboard.press("Escape")
        assert page.locator(selected).count() == 0 and page.locator("#board .target").count() == 0
        node.click()
        assert page.is_visible("#choice")
        node.click()  # the selected object again
        assert page.is_hidden("#choice") and page.locator(selected).count() == 0
        node.click()
        page.click("#status")  # outside the board: the choice stays
        assert page.is_visible("#choice")
        spot = page.evaluate(BARE_BOARD)  # on the board, nothing playable there
        assert spot, "no bare point on the board"
        page.mouse.click(*spot)
        assert page.is_hidden("#choice") and page.locator(selected).count() == 0
        # The keyboard: Tab reaches the objects; Enter on one of a single move plays it.
        (action,) = moves_on(moves, [single[0]])
        renders = int(page.get_attribute("body", "data-renders"))
        one = page.locator(f'#board [data-object="{single[0]}"]').first
        assert one.get_attribute("tabindex") == "0" and one.get_attribute("role") == "button"
        one.focus()
        page.keyboard.press("Enter")
        wait_idle(page, renders)
        record = check_log(page, 5, 0, "random")
        mine = [a for a, line in zip(record["actions"], log_lines(page), strict=True) if "(you)" in line]
        assert mine[-1] == action  # the move of that object, in the list as the engine says it
    finally:
        page.close()


def hidden_between_moves(name: str, players: int, seat: int, seed: int, limit: int) -> tuple[int, int] | None:
    """Game ``name`` played in the library as the page plays it, ``limit`` actions at most:
    the person's ``seat`` plays the first move of its list, the ``random`` bots are seeded
    as the page seeds them. The first bot move after a move of the person's that hides
    something from the person's seat (its text for everyone names less than its text for
    its own seat: a card kept, a mission put away), when the person moves again after it:
    (the person's moves before it, its index in the game), or None."""
    state: Any = cruiselib.make(name, players=players).new_state(seed=seed)
    bots = {p: make_bot("random", seed=seed + 7919 * (p + 1)) for p in range(players) if p != seat}
    clicks, hidden_at = 0, -1
    for ply in range(limit):
        if state.is_over:
            return None
        mover = state.current_player
        if mover == seat:
            if hidden_at >= 0:
                return clicks, hidden_at
            action = min(state.legal_actions())
            clicks += 1
        else:
            action = bots[mover].choose(state)
            if clicks and hidden_at < 0 and state.move_text(action) != state.move_text(action, player=mover):
                hidden_at = ply
        state.apply(action)
    return None


def a_hidden_bot_move(limit: int = 40) -> tuple[str, int, int, int, int, int]:
    """Of the offered games at two seats or more, ``limit`` deals each, every seat: the one
    whose hidden bot move (``hidden_between_moves``) comes soonest. (game, players, seat,
    seed, the person's moves before it, its index in the game)."""
    found = []
    for name in offered_games():
        players = two_or_more(name)
        for seed in range(limit):
            for seat in range(players):
                hidden = hidden_between_moves(name, players, seat, seed, limit)
                if hidden is not None:
                    found.append((*hidden, name, players, seat, seed))
    if not found:
        pytest.fail(f"no bot move hides anything in {limit} actions of {limit} deals of any offered game")
    clicks, hidden_at, name, players, seat, seed = min(found)
    return name, players, seat, seed, clicks, hidden_at


def test_a_hidden_bot_move_shows_only_its_public_text(browser: Any, server: str) -> None:
    """A page plays its seat as the game's ``player``: a bot's move that hides something
    from that seat reaches the page as its public text with no action id, the page's
    list of moves says just that, and the page goes on: a move on the board, undo of
    every move of the person's (back over the hidden move), a hint."""
    name, players, seat, seed, clicks, hidden_at = a_hidden_bot_move()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    frames: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: frames.append(json.loads(frame))))
    try:
        open_game(page, server, name, players, seat, seed)
        for _ in range(clicks):  # the first move of the list, as a_hidden_bot_move plays
            click(page, '#moves button[data-action="move"] >> nth=0')
        record = check_log(page, seed, seat, "random")
        state: Any = cruiselib.make(name, **record["options"]).new_state(seed=seed)
        for action in record["actions"][:hidden_at]:
            state.apply(action)
        action, mover = record["actions"][hidden_at], state.current_player
        public, whole = state.move_text(action), state.move_text(action, player=mover)
        assert mover != seat and public != whole
        lines = log_lines(page)
        assert lines[hidden_at] == f"seat {mover} (random): {public}"
        # The engine told the page no more: the bot's reply has no action id and names
        # the move by its public text alone.
        bot_replies = [f for f in frames if f.get("bot") == "random" and "applied" in f]
        reply = bot_replies[sum("(you)" not in line for line in lines[:hidden_at])]
        assert reply["seat"] == mover and reply["action"] is None
        assert reply["move"] == reply["text"] == public
        assert whole not in json.dumps(reply, ensure_ascii=False)
        # The page goes on: a move on the board, undo of the person's moves, a hint.
        assert page.get_attribute("#status", "data-state") == "your-turn"
        renders = int(page.get_attribute("body", "data-renders"))
        choose_on_the_board(page, random.Random(seed))
        wait_idle(page, renders)
        assert len(log_lines(page)) > len(lines)
        check_log(page, seed, seat, "random")
        while page.locator("#log li.mine").count():
            click(page, '[data-action="undo"]')
        record = check_log(page, seed, seat, "random")
        assert len(record["actions"]) == len(log_lines(page)) <= hidden_at  # the hidden move undone too
        click(page, '[data-action="hint"]')
        assert page.locator('#hints [data-action="hint-move"]').count() >= 1
        assert not page.is_visible("#error")
    finally:
        page.close()


@pytest.mark.parametrize(("name", "options"), one_per_game(), ids=[name for name, _ in one_per_game()])
def test_a_seat_s_view_typed_into_the_form_is_played_with_a_hint(
    browser: Any, server: str, name: str, options: dict[str, Any]
) -> None:
    """The form's position box (docs/web.md, "A position of your own"): one seat's view of a
    position reached by play starts the game with that seat as the person's, the board is
    that seat's view of it, and Hint answers for it; a text that cannot be set up is refused
    with each of its problems on a line of its own, and the game shown stays."""
    game: Any = cruiselib.make(name, **options)
    rnd = random.Random(4)
    state = game.new_state(seed=4)
    for _ in range(12):  # a few moves in, where someone has something hidden
        state.apply(rnd.choice(state.legal_actions()))
    seat = state.current_player
    text = game.position_text(state, seat)
    page = browser.new_page()
    try:
        page.goto(server + "/")
        page.wait_for_function("document.body.dataset.busy === '0' && document.querySelector('#game option')")
        page.select_option("#game", name)
        page.wait_for_selector(f'#players[data-game="{name}"] option[value="{game.num_players}"]', state="attached")
        page.select_option("#players", str(game.num_players))
        page.fill("#position", text)
        page.fill("#think", "0.1")
        page.click('[data-action="new"]')
        _, shown = wait_idle(page)
        assert shown == "your-turn"
        assert page.evaluate("S.human") == seat and page.input_value("#seat") == str(seat)
        built = game.from_position(text, seed=page.evaluate("S.seed"))  # the deal the page was given
        assert page.evaluate("S.view") == json.loads(msgspec.json.encode(built.view(seat)))
        click(page, '[data-action="hint"]')
        assert "% to win" in page.inner_text("#hints")
        problems = game.position_problems(text + " junk")
        page.fill("#position", text + " junk")
        page.click('[data-action="new"]')
        page.wait_for_function("document.body.dataset.busy === '0' && !document.querySelector('#error').hidden")
        shown_error = page.inner_text("#error")
        assert "invalid_position" in shown_error and all(p in shown_error for p in problems), shown_error
    finally:
        page.close()
