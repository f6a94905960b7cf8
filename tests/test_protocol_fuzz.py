"""A seeded fuzzer of the engine protocol (docs/protocol.md, "Security").

Three campaigns, each bounded to a few seconds:

- every command x every field (and an unknown field, and the id) x junk values: wrong
  types, huge and negative numbers, NaN and infinities spelled in JSON, huge strings,
  deep nesting, null;
- grammar-based sessions over open games of all four games: new, apply, bot and hint with
  tiny budgets, undo, save, load of what save returned and of mutated saves, close,
  cancel, and the read-only commands;
- byte junk through ``cruiselib serve`` with real pipes: random bytes, invalid UTF-8,
  NUL, CR, overlong lines.

Invariants: exactly one reply per non-blank line, every reply a JSON object with ``ok``,
never the error code ``internal``, the request's id echoed, an error leaves its game as it
was, and the session goes on. A ``cancel`` of a long search is measured (its latency is
recorded as data; a 10 s bound only catches a hang).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

import cruiselib
from cruiselib import protocol

from .support import ANY_GAME, component_options, player_counts

# A surface over the public API: the README's pure-Python run leaves it out (-m "not surface").
pytestmark = pytest.mark.surface

GAMES = tuple(cruiselib.games())
RAW = "\x00RAW\x00"  # a placeholder replaced by raw JSON text (NaN, Infinity, ...)
HANG = 10.0  # seconds: only a hang takes this long

# Junk for any field: (label, value); a str value starting with RAW is spliced in as raw JSON.
JUNK: list[tuple[str, Any]] = [
    ("null", None),
    ("true", True),
    ("false", False),
    ("zero", 0),
    ("minus one", -1),
    ("one", 1),
    ("2**31", 2**31),
    ("2**53", 2**53),
    ("2**63", 2**63),
    ("2**64", 2**64),
    ("-2**63", -(2**63)),
    ("10**30", 10**30),
    ("1.5", 1.5),
    ("-0.0", -0.0),
    ("1e308", 1e308),
    ("denormal", 5e-324),
    ("NaN", RAW + "NaN"),
    ("Infinity", RAW + "Infinity"),
    ("-Infinity", RAW + "-Infinity"),
    ("1e999", RAW + "1e999"),
    ("-1e999", RAW + "-1e999"),
    ("empty string", ""),
    ("a string", "x"),
    ("a game id", "g1"),
    ("digits", "0"),
    ("unicode", "é\u2028\U0001f600"),
    ("lone surrogate", RAW + '"\\ud800"'),
    ("huge string", "a" * 200_000),
    ("empty array", []),
    ("array", [1, "a", None]),
    ("empty object", {}),
    ("object", {"a": 1}),
    ("deep arrays", RAW + "[" * 3000 + "]" * 3000),
    ("deep objects", RAW + '{"a":' * 3000 + "1" + "}" * 3000),
]


def _line(request: dict[str, Any]) -> bytes:
    """The request's JSON line, with RAW values spliced in as raw JSON text."""
    raws: list[str] = []

    def token(value: Any) -> Any:
        if isinstance(value, str) and value.startswith(RAW):
            raws.append(value[len(RAW) :])
            return f"@@raw{len(raws) - 1}@@"
        if isinstance(value, dict):
            return {k: token(v) for k, v in value.items()}
        return value

    text = json.dumps(token(request))
    for i, raw in enumerate(raws):
        text = text.replace(f'"@@raw{i}@@"', raw)
    return text.encode("utf-8", "surrogatepass")


class Checked:
    """An in-process engine whose every reply is checked against the invariants."""

    def __init__(self, engine: protocol.Engine | None = None) -> None:
        self.engine = engine if engine is not None else protocol.Engine()
        self.replies = 0
        self.codes: dict[str, int] = {}

    def send(self, line: bytes, request_id: Any = None, game_id: str | None = None) -> dict[str, Any]:
        """The reply to ``line`` after checking it; ``game_id``: a game an error must leave
        as it was."""
        before = self.state(game_id)
        raw = self.engine.handle_line(line)
        self.replies += 1
        reply = json.loads(raw)
        assert isinstance(reply, dict) and isinstance(reply.get("ok"), bool), (line[:300], raw[:300])
        if not reply["ok"]:
            code = reply["error"]["code"]
            self.codes[code] = self.codes.get(code, 0) + 1
            assert code != "internal", (line[:300], raw[:500])
            assert code in protocol.ERROR_CODES, code
            assert self.state(game_id) == before, ("an error changed the game", line[:300], raw[:300])
        if request_id is not None and (reply["ok"] or reply["error"]["code"] != "bad_json"):
            assert reply["id"] == request_id, (line[:300], raw[:300])  # a line not JSON has no id to echo
        return reply

    def request(self, request: dict[str, Any], game_id: str | None = None) -> dict[str, Any]:
        return self.send(_line(request), request.get("id"), game_id)

    def state(self, game_id: str | None) -> Any:
        """What must not change: the game's status and snapshot (None: no game)."""
        if game_id is None:
            return None
        status = json.loads(self.engine.handle_line(json.dumps({"cmd": "status", "game_id": game_id}).encode()))
        if not status["ok"]:
            return status["error"]["code"]
        saved = json.loads(self.engine.handle_line(json.dumps({"cmd": "save", "game_id": game_id}).encode()))
        return status, saved.get("snapshot")


def _base(cmd: str, game_id: str, snapshot: Any) -> dict[str, Any]:
    """A valid request of ``cmd`` on ``game_id`` (quick: tiny search budgets)."""
    bases: dict[str, dict[str, Any]] = {
        "hello": {"version": 1},
        "new": {"game": ANY_GAME, "options": {}, "seed": 1, "start_player": 0},
        "status": {"game_id": game_id},
        "view": {"game_id": game_id, "seat": 0, "recall": True},
        "legal": {"game_id": game_id, "seat": 0},
        "apply": {"game_id": game_id, "action": 0},
        "bot": {"game_id": game_id, "bot": "ismcts", "options": {}, "seed": 1, "iterations": 5, "apply": False},
        "hint": {"game_id": game_id, "bot": "ismcts", "options": {}, "seed": 1, "iterations": 5, "count": 2},
        "undo": {"game_id": game_id, "count": 1},
        "render": {"game_id": game_id, "seat": 0, "compact": True},
        "save": {"game_id": game_id, "snapshot": True, "record": True},
        "load": {"snapshot": snapshot},
        "close": {"game_id": game_id},
        "cancel": {"target": 7},
    }
    return {"cmd": cmd, "id": 1, **bases.get(cmd, {})}


@pytest.mark.parametrize("name", GAMES)
def test_every_command_every_field_junk(name: str) -> None:
    """Every field of every command (and an unknown one) set to every junk value, on a game
    of ``name``: the invariants hold, and the session goes on."""
    checked = Checked()
    engine = checked.engine

    def open_game() -> str:
        reply = checked.request({"cmd": "new", "game": name, "seed": 5})
        assert reply["ok"]
        gid: str = reply["game_id"]
        legal = checked.request({"cmd": "legal", "game_id": gid})
        checked.request({"cmd": "apply", "game_id": gid, "action": legal["actions"][0]})
        return gid

    gid = open_game()
    snapshot = checked.request({"cmd": "save", "game_id": gid})["snapshot"]
    for cmd, cls in protocol.COMMANDS.items():
        fields = [*cls.__struct_fields__, "unknown_field"]
        for field in fields:
            for label, value in JUNK:
                request = _base(cmd, gid, snapshot)
                request[field] = value
                request_id = request.get("id") if field != "id" else None
                reply = checked.send(_line(request), request_id, gid if cmd not in ("close", "quit") else None)
                if field == "id" and reply["id"] is not None:
                    assert reply["id"] == value, (cmd, label)
                if reply["ok"] and cmd in ("new", "load"):
                    checked.request({"cmd": "close", "game_id": reply["game_id"]})
                if (reply["ok"] and cmd in ("close", "quit")) or gid not in engine._sessions:
                    gid = open_game()
                    snapshot = checked.request({"cmd": "save", "game_id": gid})["snapshot"]
    assert len(engine._sessions) <= 2
    assert checked.request({"cmd": "ping", "id": "last"})["ok"]
    assert "bad_request" in checked.codes and "bad_json" in checked.codes


def _mutated(rnd: random.Random, saved: Any) -> Any:
    """``saved`` (a snapshot or record: JSON) with one random change: a number moved, a
    key dropped, a list shortened, a value swapped for junk; or its text cut short."""
    if rnd.random() < 0.15:
        text = json.dumps(saved)
        return text[: rnd.randrange(len(text))]
    tree = json.loads(json.dumps(saved))
    paths: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in items:
            paths.append((node, key))
            walk(child)

    walk(tree)
    if not paths:
        return tree
    node, key = rnd.choice(paths)
    value = node[key]
    roll = rnd.random()
    if isinstance(value, bool) or roll < 0.2:
        node[key] = rnd.choice(JUNK[:16])[1]
    elif isinstance(value, int) and roll < 0.7:
        node[key] = value + rnd.choice((-2, -1, 1, 2, 100, -(2**40)))
    elif isinstance(value, list) and value and roll < 0.8:
        del value[rnd.randrange(len(value))]
    elif isinstance(node, dict) and roll < 0.9:
        del node[key]
    else:
        node[key] = rnd.choice(("", "x", None, [], {}, -1))
    return tree


# Each game's defaults and its two fewest seat counts, as the game takes them.
OPTIONS: dict[str, list[dict[str, Any]]] = {
    name: [{}, *({"players": n} for n in player_counts(name)[:2] if len(player_counts(name)) > 1)]
    for name in cruiselib.games()
}


@pytest.mark.parametrize("seed", range(4))
def test_grammar_sessions_over_every_game(seed: int) -> None:
    """Random request sequences over open games of every game, with saves loaded back
    as they are and mutated: the invariants hold at every step."""
    rnd = random.Random(seed)
    checked = Checked(protocol.Engine(max_games=12))
    games: dict[str, str] = {}  # game id -> name
    saves: list[Any] = []
    next_id = 0
    deadline = time.monotonic() + 6.0
    steps = 0
    while steps < 3000 and time.monotonic() < deadline:
        steps += 1
        next_id += 1
        gid = rnd.choice(list(games)) if games and rnd.random() < 0.95 else f"g{rnd.randrange(999)}"
        roll = rnd.random()
        request: dict[str, Any]
        if not games or roll < 0.08:
            name = rnd.choice(GAMES)
            request = {"cmd": "new", "game": name, "options": rnd.choice(OPTIONS[name]), "seed": rnd.randrange(1000)}
        elif roll < 0.40:
            legal = checked.request({"cmd": "legal", "game_id": gid})
            if legal["ok"] and legal["actions"] and rnd.random() < 0.85:
                pick = rnd.randrange(len(legal["actions"]))
                if rnd.random() < 0.5:
                    request = {"cmd": "apply", "game_id": gid, "action": legal["actions"][pick]}
                else:
                    request = {
                        "cmd": "apply",
                        "game_id": gid,
                        "move": legal["moves"][pick],
                        "seat": legal["current_player"],
                    }
            else:
                request = {"cmd": "apply", "game_id": gid, "action": rnd.randrange(20_000), "seat": rnd.randrange(5)}
        elif roll < 0.52:
            bot = rnd.choice(("random", "greedy", "rules", "ismcts", "cheating_mcts"))
            request = {"cmd": rnd.choice(("bot", "hint")), "game_id": gid, "bot": bot, "iterations": rnd.randint(1, 30)}
            if request["cmd"] == "bot":
                request["apply"] = rnd.random() < 0.7
            if rnd.random() < 0.3:
                request["seed"] = rnd.randrange(100)
        elif roll < 0.58:
            request = {"cmd": "undo", "game_id": gid, "count": rnd.choice((1, 1, 2, 5, 1000))}
        elif roll < 0.66:
            request = {"cmd": "save", "game_id": gid}
        elif roll < 0.78 and saves:
            saved = rnd.choice(saves)
            kind = rnd.choice(("snapshot", "record"))
            value = saved[kind] if rnd.random() < 0.4 else _mutated(rnd, saved[kind])
            if value is None:
                continue
            request = {"cmd": "load", kind: value if rnd.random() < 0.7 else json.dumps(value)}
        elif roll < 0.84 + 0.04 * (len(games) >= 10):  # close more often when the session is full
            request = {"cmd": "close", "game_id": gid}
        elif roll < 0.89:
            request = {"cmd": "cancel", **({"target": rnd.randrange(next_id + 1)} if rnd.random() < 0.5 else {})}
        else:
            cmd = rnd.choice(("status", "view", "legal", "render", "list", "ping", "hello", "games", "bots"))
            request = {"cmd": cmd}
            if cmd in ("status", "view", "legal", "render"):
                request["game_id"] = gid
            if cmd == "view" or (cmd in ("legal", "render") and rnd.random() < 0.5):
                request["seat"] = rnd.randrange(5)
        request["id"] = next_id
        target = request.get("game_id") if request["cmd"] != "close" else None
        reply = checked.request(request, target if target in games else None)
        if not reply["ok"]:
            continue
        cmd = request["cmd"]
        if cmd in ("new", "load"):
            games[reply["game_id"]] = reply["game"]
        elif cmd == "close":
            games.pop(request["game_id"], None)
        elif cmd == "save":
            saves.append(reply)
            del saves[:-20]
        elif cmd == "cancel":
            assert reply["cancelled"] is False  # nothing was searching
    assert checked.request({"cmd": "ping", "id": "end"})["ok"]
    print(f"seed {seed}: {steps} steps, {len(games)} games open, errors {checked.codes}")


def _serve(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "cruiselib", "serve", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _junk_line(rnd: random.Random) -> bytes:
    """One line of byte junk (no newline): random bytes, invalid UTF-8, NUL, CR, JSON with
    junk inside, or a line over the length cap."""
    roll = rnd.random()
    if roll < 0.2:
        return bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 200))).replace(b"\n", b"")
    if roll < 0.35:
        return rnd.choice((b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf")) * rnd.randrange(
            1, 5
        )
    if roll < 0.5:
        junk = rnd.choice((b"\x00", b"\xff", b"\xc3\x28", b"\r", b"\\ud800", b"\\u0000"))
        return b'{"cmd":"load","snapshot":"' + junk + b'","id":' + str(rnd.randrange(99)).encode() + b"}"
    if roll < 0.6:
        return b'{"cmd":"ping","id":1}' + rnd.choice((b"\x00", b"\r\r", b" \x00", b"\x0b"))
    if roll < 0.7:
        return b"\r" * rnd.randrange(1, 4) + b'{"cmd":"ping"}'
    if roll < 0.75:
        return b"x" * (protocol.MAX_LINE + rnd.randrange(1, 3 * protocol.MAX_LINE))
    if roll < 0.8:
        # A line 23 bytes beyond the cap: a component option spelt out as a huge path.
        game, option, _ = component_options()[0]
        head = json.dumps({"cmd": "new", "game": game, "options": {option: ""}})[:-3].encode()
        return head + b"a" * (protocol.MAX_LINE + 20 - len(head)) + b'"}}'
    cmd = rnd.choice([c for c in protocol.COMMANDS if c != "quit"])  # quit would end the session
    return json.dumps({"cmd": cmd, "id": rnd.randrange(99)}).encode()


def _expects_reply(line: bytes) -> bool:
    """Whether serve answers ``line`` (one without its newline): not a blank line."""
    if line.endswith(b"\r"):
        line = line[:-1]
    return bool(line.strip())


@pytest.mark.parametrize("seed", range(2))
def test_byte_junk_through_serve_with_real_pipes(seed: int) -> None:
    """Junk bytes through ``cruiselib serve``: one JSON reply per non-blank line, never
    ``internal``, and the process still answers after it."""
    rnd = random.Random(seed)
    lines = [_junk_line(rnd) for _ in range(150)] + [b"", b"   ", b"\r"]
    rnd.shuffle(lines)
    lines.append(b'{"cmd":"ping","id":"last"}')
    expected = sum(map(_expects_reply, lines))
    process = _serve()
    replies: list[bytes] = []

    def read() -> None:
        assert process.stdout is not None
        replies.extend(process.stdout.read().splitlines())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert process.stdin is not None
        for line in lines:
            process.stdin.write(line + b"\n")
        process.stdin.close()
        assert process.wait(timeout=60) == 0
        reader.join(30)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
    assert process.stderr is not None
    err = process.stderr.read()
    assert len(replies) == expected, (len(replies), expected, err[-2000:])
    for raw in replies:
        reply = json.loads(raw)
        assert isinstance(reply["ok"], bool)
        assert reply["ok"] or reply["error"]["code"] != "internal", raw
    assert json.loads(replies[-1]) == {"id": "last", "ok": True}
    assert b"Traceback" not in err, err[-2000:]


def test_cancel_latency_of_a_long_search(record_property: Any) -> None:
    """A cancel of a long search (a million iterations) returns within a second: measured
    here over every search bot and game, in-process (the latency is recorded as data; only
    a hang fails the test)."""
    latencies = []
    engine = protocol.Engine()
    for name in GAMES:
        gid = engine.handle({"cmd": "new", "game": name, "seed": 9})["game_id"]
        for cmd, bot in (("bot", "ismcts"), ("hint", "cheating_mcts")):
            replies: list[dict[str, Any]] = []
            request = {"cmd": cmd, "game_id": gid, "bot": bot, "iterations": 1_000_000, "id": "long"}

            def search(r: dict[str, Any] = request, out: list[dict[str, Any]] = replies) -> None:
                out.append(engine.handle(r))

            thread = threading.Thread(target=search, daemon=True)
            thread.start()
            started = time.monotonic()
            while not engine._searches.running:
                assert time.monotonic() - started < HANG
                time.sleep(0.002)
            time.sleep(0.05)
            sent = time.perf_counter()
            assert engine.interrupt(b'{"cmd":"cancel","target":"long"}')
            thread.join(HANG)
            assert not thread.is_alive(), "the search did not stop"
            latencies.append(time.perf_counter() - sent)
            assert replies[0]["error"]["code"] == "cancelled"
            assert engine.handle({"cmd": "cancel", "target": "long"})["cancelled"] is True
    record_property("cancel_latency_ms_max", round(1000 * max(latencies), 1))
    print(f"cancel latency: max {1000 * max(latencies):.1f} ms over {len(latencies)} searches")
