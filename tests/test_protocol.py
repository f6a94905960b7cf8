"""The engine protocol (docs/protocol.md), driven through the real ``cruiselib serve``
subprocess: every command, every error code, the framing limits, whole games through the
Python client and through the Node.js client, and a long random session."""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cruiselib
from cruiselib import protocol
from cruiselib.client import (
    EngineClient,
    EngineExitedError,
    EngineIllegalMoveError,
    EngineOptionError,
    EngineStateError,
    EngineTimeoutError,
    PipeTransport,
)
from cruiselib.protocol import limits as limits_module
from cruiselib.protocol import stdio

from .support import (
    ANY_GAME,
    CONFIGURATION_IDS,
    CONFIGURATIONS,
    component_options,
    one_per_game,
    other_configurations,
    player_counts,
    random_game,
    seat_configurations,
    unbounded_game,
)

# A surface over the public API: the README's pure-Python run leaves it out (-m "not surface").
pytestmark = pytest.mark.surface

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 120.0  # seconds a reply may take before a test fails instead of hanging
OTHER_GAME = next(name for name in cruiselib.games() if name != ANY_GAME)
"""A registered game other than ANY_GAME, for tests that need two."""


@pytest.fixture(scope="module")
def engine() -> Iterator[EngineClient]:
    client = EngineClient.spawn(timeout=TIMEOUT)
    yield client
    client.close()


def alive(client: EngineClient) -> None:
    """The engine still answers, and its process is still running."""
    client.ping()
    transport = client.transport
    assert isinstance(transport, PipeTransport) and transport.process.poll() is None


def finished_snapshot(name: str = ANY_GAME, seed: int = 11) -> str:
    """A finished game's snapshot, played in-process."""
    state: Any = cruiselib.make(name).new_state(seed=seed)
    rnd = random.Random(seed)
    while not state.is_over:
        state.apply(rnd.choice(state.legal_actions()))
    text: str = state.to_json()
    return text


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")  # pragma: no cover


# --------------------------------------------------------------------------- commands


def test_hello_is_the_handshake(engine: EngineClient) -> None:
    hello = engine.hello()
    assert hello.protocol == "cruiselib-engine" and hello.version == protocol.VERSION == 1
    assert hello.versions == [1] and hello.cruiselib == cruiselib.__version__
    assert hello.compiled == cruiselib.compiled
    assert hello.games == list(cruiselib.games())
    assert hello.bots == ["random", "greedy", "rules", "ismcts", "cheating_mcts", "policy"]
    assert hello.limits.line_bytes == protocol.MAX_LINE == 1 << 20
    assert engine.hello(version=None).version == 1


def test_games_and_bots_list_their_options(engine: EngineClient) -> None:
    games = {g.name: g for g in engine.games()}
    assert sorted(games) == sorted(cruiselib.games())
    for name, info in games.items():
        game = cruiselib.make(name)
        assert (info.title, info.num_players, info.num_actions) == (game.title, game.num_players, game.num_actions)
    bots = {b.name: b for b in engine.bots()}
    assert bots["ismcts"].search and not bots["greedy"].search
    assert bots["ismcts"].options["iterations"] == 2000 and "seed" not in bots["ismcts"].options


def test_a_finished_game_reports_its_result(engine: EngineClient) -> None:
    snapshot = finished_snapshot()
    local: Any = cruiselib.make(ANY_GAME).load_state(snapshot)
    status = engine.load(snapshot=snapshot)
    assert status.is_over and status.current_player == -1
    assert status.scores == local.scores() and status.winners == local.winners()
    assert engine.legal(status.game_id).actions == []
    engine.close_game(status.game_id)


@pytest.mark.parametrize(("name", "options"), one_per_game(), ids=[name for name, _ in one_per_game()])
def test_seeded_bots_play_the_same_game_twice(engine: EngineClient, name: str, options: dict[str, Any]) -> None:
    def bot_game() -> list[int | None]:
        gid = engine.new(name, options, seed=21).game_id
        actions = []
        for _ in range(12):
            actions.append(engine.bot(gid, "ismcts", seed=9, iterations=40, apply=True).action)
        engine.close_game(gid)
        return actions

    assert bot_game() == bot_game()


# --------------------------------------------------------------------------- errors


def _cases() -> list[tuple[str, str, str]]:
    """(label, request line, expected code); G is a running game, O a finished one."""
    g, o = "G", "O"
    over = {"game_id": o}
    cases: list[tuple[str, Any, str]] = [
        # not JSON
        ("truncated JSON", '{"cmd": "ping"', "bad_json"),
        ("not JSON at all", "hello engine", "bad_json"),
        ("trailing characters", '{"cmd": "ping"} {"cmd": "ping"}', "bad_json"),
        ("nested too deeply", "[" * 100_000 + "]" * 100_000, "bad_json"),
        # not a request
        ("an array", "[1, 2]", "bad_request"),
        ("a string", '"ping"', "bad_request"),
        ("a number", "42", "bad_request"),
        ("null", "null", "bad_request"),
        ("no cmd", {}, "bad_request"),
        ("cmd not a string", {"cmd": 5}, "bad_request"),
        ("missing field", {"cmd": "apply", "action": 1}, "bad_request"),
        ("ill-typed field", {"cmd": "view", "game_id": g, "seat": "0"}, "bad_request"),
        ("seat out of range", {"cmd": "view", "game_id": g, "seat": 9}, "bad_request"),
        ("negative action", {"cmd": "apply", "game_id": g, "action": -1}, "bad_request"),
        ("unknown field", {"cmd": "ping", "colour": "red"}, "bad_request"),
        ("ill-typed id", {"cmd": "ping", "id": [1]}, "bad_request"),
        ("id beyond 2**53", {"cmd": "ping", "id": 2**60}, "bad_request"),
        ("neither action nor move", {"cmd": "apply", "game_id": g}, "bad_request"),
        ("both action and move", {"cmd": "apply", "game_id": g, "action": 1, "move": "end turn"}, "bad_request"),
        ("budget over the limit", {"cmd": "bot", "game_id": g, "iterations": 2_000_000}, "bad_request"),
        ("time over the limit", {"cmd": "hint", "game_id": g, "seconds": 3600}, "bad_request"),
        ("hint count 0", {"cmd": "hint", "game_id": g, "count": 0}, "bad_request"),
        ("seed of another type", {"cmd": "new", "game": "GAME", "seed": 1.5}, "bad_request"),
        ("load of nothing", {"cmd": "load"}, "bad_request"),
        ("load of both", {"cmd": "load", "snapshot": {}, "record": {}}, "bad_request"),
        ("a record with a game", {"cmd": "load", "record": {}, "game": "GAME"}, "bad_request"),
        ("options without a game", {"cmd": "load", "snapshot": {}, "options": {"players": 2}}, "bad_request"),
        # commands and versions
        ("unknown command", {"cmd": "go", "id": 3}, "unknown_command"),
        ("misspelt command", {"cmd": "aply"}, "unknown_command"),
        ("newer version", {"cmd": "hello", "version": 2}, "unsupported_version"),
        # game ids
        ("unknown game id", {"cmd": "status", "game_id": "g999999"}, "unknown_game"),
        ("apply to no game", {"cmd": "apply", "game_id": "nope", "action": 0}, "unknown_game"),
        ("close no game", {"cmd": "close", "game_id": "g0"}, "unknown_game"),
        # the seat guard
        ("wrong seat apply", {"cmd": "apply", "game_id": g, "action": 0, "seat": "OTHER"}, "wrong_seat"),
        ("wrong seat bot", {"cmd": "bot", "game_id": g, "bot": "random", "seat": "OTHER"}, "wrong_seat"),
        ("wrong seat hint", {"cmd": "hint", "game_id": g, "bot": "random", "seat": "OTHER"}, "wrong_seat"),
        # options
        ("unknown game name", {"cmd": "new", "game": "chess"}, "bad_option"),
        ("bad option value", {"cmd": "new", "game": "GAME", "options": {"players": "TOO_FEW"}}, "bad_option"),
        ("unknown option", {"cmd": "new", "game": "GAME", "options": {"colour": 1}}, "bad_option"),
        ("players out of range", {"cmd": "new", "game": "OTHER_GAME", "options": {"players": 9}}, "bad_option"),
        ("a file path as components", {"cmd": "new", "game": "CG", "options": {"CO": "/etc/passwd"}}, "bad_option"),
        ("a bad component list", {"cmd": "new", "game": "CG", "options": {"CO": {"CO": 3}}}, "bad_option"),
        ("start seat beyond", {"cmd": "new", "game": "GAME", "start_player": "NO_SEAT"}, "bad_option"),
        ("view of no seat", {"cmd": "view", "game_id": g, "seat": "NO_SEAT"}, "bad_option"),
        ("legal of no seat", {"cmd": "legal", "game_id": g, "seat": 7}, "bad_option"),
        ("render of no seat", {"cmd": "render", "game_id": g, "seat": "NO_SEAT"}, "bad_option"),
        ("bad bot name", {"cmd": "bot", "game_id": g, "bot": "wizard"}, "bad_option"),
        ("bad bot option", {"cmd": "bot", "game_id": g, "bot": "ismcts", "options": {"depth": 3}}, "bad_option"),
        ("bad bot value", {"cmd": "hint", "game_id": g, "options": {"uct_c": -1}}, "bad_option"),
        ("seed as a bot option", {"cmd": "bot", "game_id": g, "bot": "random", "options": {"seed": 1}}, "bad_option"),
        ("budget option over", {"cmd": "bot", "game_id": g, "options": {"iterations": 5_000_000}}, "bad_option"),
        ("no budget", {"cmd": "bot", "game_id": g, "options": {"iterations": None}}, "bad_option"),
        ("option of a basic bot", {"cmd": "bot", "game_id": g, "bot": "greedy", "options": {"depth": 1}}, "bad_option"),
        # moves
        ("action out of range", {"cmd": "apply", "game_id": g, "action": 99_999}, "illegal_move"),
        ("illegal action", {"cmd": "apply", "game_id": g, "action": "ILLEGAL"}, "illegal_move"),
        ("unreadable move", {"cmd": "apply", "game_id": g, "move": "jump into the sea"}, "illegal_move"),
        ("apply when over", {"cmd": "apply", "action": 0, **over}, "game_over"),
        ("bot when over", {"cmd": "bot", **over}, "game_over"),
        ("hint when over", {"cmd": "hint", **over}, "game_over"),
        ("undo of nothing", {"cmd": "undo", "game_id": g}, "nothing_to_undo"),
        ("undo too far", {"cmd": "undo", "game_id": o, "count": 100_000}, "nothing_to_undo"),
        # snapshots and records
        ("a snapshot of nothing", {"cmd": "load", "snapshot": {"garbage": 1}}, "invalid_state"),
        ("a truncated snapshot", {"cmd": "load", "snapshot": {"schema_version": 2, "game": "GAME"}}, "invalid_state"),
        ("snapshot text", {"cmd": "load", "snapshot": "not a snapshot"}, "invalid_state"),
        ("a snapshot of no game", {"cmd": "load", "snapshot": {"game": "chess"}}, "invalid_state"),
        ("another game's snapshot", {"cmd": "load", "snapshot": "SNAPSHOT", "game": "OTHER_GAME"}, "invalid_state"),
        ("a record of nothing", {"cmd": "load", "record": {"actions": [1]}}, "invalid_state"),
        ("an illegal record", {"cmd": "load", "record": "BAD_RECORD"}, "invalid_state"),
        ("a record of no deal", {"cmd": "save", "game_id": "NO_DEAL", "snapshot": False}, "invalid_state"),
        # described positions
        ("a position of nothing", {"cmd": "new", "game": "GAME", "position": "no such position"}, "invalid_position"),
        ("position and start seat", {"cmd": "new", "game": "GAME", "position": "x", "start_player": 0}, "bad_request"),
        ("an overlong position", {"cmd": "new", "game": "GAME", "position": "x" * 20_000}, "bad_request"),
    ]
    out = []
    for label, request, code in cases:
        line = request if isinstance(request, str) else json.dumps(request)
        out.append((label, line, code))
    return out


CASES = _cases()


def test_every_error_code_is_provoked() -> None:
    # Each code not among the cases has its own test below.
    own_tests = {"line_too_long", "too_many_games", "internal", "too_many_configurations", "cancelled", "busy"}
    own_tests |= {"game_too_long", "too_many_actions"}
    provoked = {code for _, _, code in CASES} | own_tests
    assert provoked == set(protocol.ERROR_CODES)


@pytest.fixture(scope="module")
def targets(engine: EngineClient) -> dict[str, Any]:
    """A running game of ANY_GAME, a finished one, one without a deal, and what the cases
    need: games, a game's option that takes a component list, a seat beyond the game's."""
    running = engine.new(ANY_GAME, seed=5)
    over = engine.load(snapshot=finished_snapshot())
    local: Any = cruiselib.make(ANY_GAME).new_state(seed=5)
    illegal = next(a for a in range(local.game.num_actions) if not local.is_legal(a))
    component_game, component_option, _ = component_options()[0]
    no_deal = json.loads(local.to_json())
    del no_deal["deal"]
    no_deal["history"] = []
    record = json.loads(local.record().to_json())
    record["actions"] = [illegal]
    record["moves"] = []
    return {
        "G": running.game_id,
        "O": over.game_id,
        "OTHER": (running.current_player + 1) % running.num_players,
        "NO_SEAT": running.num_players,
        "TOO_FEW": min(player_counts(ANY_GAME)) - 1,
        "GAME": ANY_GAME,
        "OTHER_GAME": OTHER_GAME,
        "CG": component_game,
        "CO": component_option,
        "ILLEGAL": illegal,
        "SNAPSHOT": local.to_json(),
        "BAD_RECORD": json.dumps(record),
        "NO_DEAL": engine.load(snapshot=no_deal).game_id,
    }


@pytest.mark.parametrize(("label", "line", "code"), CASES, ids=[c[0] for c in CASES])
def test_errors_are_replies_and_the_session_goes_on(
    engine: EngineClient, targets: dict[str, Any], label: str, line: str, code: str
) -> None:
    for name, value in targets.items():
        line = line.replace(f'"{name}"', json.dumps(value))
    before = engine.save(targets["G"]).snapshot
    reply = engine.send_line(line)
    assert reply["ok"] is False, reply
    assert reply["error"]["code"] == code, reply
    assert isinstance(reply["error"]["message"], str) and reply["error"]["message"]
    try:
        sent = json.loads(line)
    except (ValueError, RecursionError):
        sent = None
    expected_id = sent.get("id") if isinstance(sent, dict) else None
    if not isinstance(expected_id, (int, str)) or (isinstance(expected_id, int) and abs(expected_id) >= 2**53):
        expected_id = None  # an invalid id is not echoed
    assert reply["id"] == expected_id
    alive(engine)
    assert engine.save(targets["G"]).snapshot == before  # no error changes a game


def test_error_replies_name_what_went_wrong(engine: EngineClient, targets: dict[str, Any]) -> None:
    reply = engine.send_line('{"cmd":"aply","id":"x7"}')
    assert reply["id"] == "x7" and "did you mean 'apply'" in reply["error"]["message"]
    reply = engine.send_line(json.dumps({"cmd": "apply", "game_id": targets["G"], "id": 4, "colour": 1}))
    assert reply["id"] == 4 and "colour" in reply["error"]["message"]
    reply = engine.send_line(json.dumps({"cmd": "view", "game_id": targets["G"], "seat": "0"}))
    assert "$.seat" in reply["error"]["message"]
    with pytest.raises(EngineIllegalMoveError, match="wrong_seat: seat"):
        engine.apply(targets["G"], 0, seat=targets["OTHER"])
    with pytest.raises(cruiselib.IllegalMoveError, match="illegal_move"):
        engine.apply(targets["G"], targets["ILLEGAL"])
    with pytest.raises(EngineOptionError, match="unknown bot 'wizard'"):
        engine.bot(targets["G"], "wizard")
    with pytest.raises(cruiselib.InvalidOptionError, match="unknown game 'chess'"):
        engine.new("chess")
    with pytest.raises(EngineStateError):
        engine.load(snapshot={"game": ANY_GAME})
    alive(engine)


def test_too_many_games(engine: EngineClient) -> None:
    opened = {g.game_id for g in engine.list_games()}
    new = []
    for _ in range(protocol.MAX_GAMES - len(opened)):
        new.append(engine.new(ANY_GAME, seed=1).game_id)
    reply = engine.send_line(json.dumps({"cmd": "new", "game": ANY_GAME, "id": 1}))
    assert reply["error"]["code"] == "too_many_games"
    for gid in new:
        engine.close_game(gid)
    assert {g.game_id for g in engine.list_games()} == opened
    engine.close_game(engine.new(ANY_GAME).game_id)


# --------------------------------------------------------------------------- framing


def test_long_lines_are_skipped_in_bounded_memory(engine: EngineClient) -> None:
    exact = b'{"cmd":"ping","id":7}'
    exact += b" " * (protocol.MAX_LINE - len(exact))
    assert engine.send_line(exact) == {"id": 7, "ok": True}
    reply = engine.send_line(exact + b" ")
    assert reply["id"] is None and reply["error"]["code"] == "line_too_long"
    pid = engine.pid
    assert pid is not None
    before = rss_kib(pid)
    for size in (3 << 20, 16 << 20):
        reply = engine.send_line(b'{"cmd": "new", "game": "' + b"x" * size + b'"}')
        assert reply["error"]["code"] == "line_too_long"
        alive(engine)
    assert rss_kib(pid) - before < 8 * 1024  # a 16 MiB line is never held whole


def test_blank_lines_are_ignored_and_crlf_accepted(engine: EngineClient) -> None:
    transport = engine.transport
    assert isinstance(transport, PipeTransport)
    transport._write(b"\n  \n\r\n")
    assert json.loads(transport.roundtrip(b'{"cmd":"ping","id":"crlf"}\r')) == {"id": "crlf", "ok": True}


def _frames(reader: Any) -> list[bytes | None]:
    """Everything a reader returns until end of input (the skipped-line marker as b"<long>")."""
    out: list[bytes | None] = []
    while True:
        line = reader.readline()
        out.append(b"<long>" if line is stdio._TOO_LONG else line)
        if line is None:
            return out


@pytest.mark.parametrize("seed", range(6))
def test_the_polled_pipe_reader_frames_lines_as_the_stream_reader(seed: int) -> None:
    """The engine's stdin reader for pipes (non-blocking, polled) against the plain stream
    reader: the same lines, long-line skips and last line, however the bytes are split."""
    import io
    import threading

    rnd = random.Random(seed)
    cap = protocol.MAX_LINE
    lines = [b"", b"x", b"a b\r", b"y" * cap, b"z" * (cap + 1), b"w" * (2 * cap + 7), b"q" * (cap - 1)]
    data = b"\n".join(rnd.choice(lines) for _ in range(12))
    data += rnd.choice([b"", b"\n", b"last", b"v" * (cap + 3)])  # how input ends
    expected = _frames(stdio._StreamLines(io.BytesIO(data)))

    read_end, write_end = os.pipe()

    def feed() -> None:
        at = 0
        while at < len(data):
            size = rnd.choice([1, 7, 4096, 65536, 1 << 20])
            at += os.write(write_end, data[at : at + size])
            if rnd.random() < 0.1:
                time.sleep(0.001)  # let the reader poll and sleep
        os.close(write_end)

    writer = threading.Thread(target=feed)
    writer.start()
    reader = stdio._PolledLines(read_end, poll=rnd.choice([0.0, 200e-6]))
    try:
        got = _frames(reader)
        assert len(reader.buffer) == 0
    finally:
        reader.close()
        writer.join()
    assert os.get_blocking(read_end)  # given back as it came
    os.close(read_end)
    assert got == expected
    assert got[-1] is None and b"<long>" in got


def test_an_engine_that_sleeps_at_once_answers_alike() -> None:
    """``cruiselib serve --poll-us 0`` and a client that does not poll (the plain readline
    path on both sides): the same replies, long lines skipped."""
    command = [sys.executable, "-m", "cruiselib", "serve", "--poll-us", "0"]
    with EngineClient.spawn(command, timeout=TIMEOUT, poll=0) as client:
        gid = client.new(ANY_GAME, seed=4).game_id
        assert client.legal(gid).actions == cruiselib.make(ANY_GAME).new_state(seed=4).legal_actions()
        assert client.send_line(b"x" * (protocol.MAX_LINE + 1))["error"]["code"] == "line_too_long"
        alive(client)
    bad = subprocess.run(
        [sys.executable, "-m", "cruiselib", "serve", "--poll-us", "-1"], capture_output=True, timeout=60, check=False
    )
    assert bad.returncode == 2 and b"--poll-us" in bad.stderr


def test_quit_eof_and_ctrl_c_end_the_engine_cleanly() -> None:
    client = EngineClient.spawn(timeout=TIMEOUT)
    client.hello()
    client.quit()
    transport = client.transport
    assert isinstance(transport, PipeTransport)
    assert transport.process.wait(timeout=30) == 0
    with pytest.raises(EngineExitedError):
        client.ping()
    client.close()

    eof = subprocess.run(
        [sys.executable, "-m", "cruiselib", "serve"],
        input=json.dumps({"cmd": "new", "game": ANY_GAME, "seed": 1, "id": 1}).encode()
        + b'\n{"cmd":"legal","game_id":"g1","id":2}',
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert eof.returncode == 0, eof.stderr
    replies = [json.loads(line) for line in eof.stdout.splitlines()]
    assert [r["id"] for r in replies] == [1, 2] and replies[1]["ok"]  # the last line needs no newline

    process = subprocess.Popen(
        [sys.executable, "-m", "cruiselib", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b'{"cmd":"ping"}\n')
    process.stdin.flush()
    assert json.loads(process.stdout.readline())["ok"]
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130 and b"Traceback" not in err and b"interrupted" in err


def test_an_engine_bug_is_an_internal_error_reply() -> None:
    program = (
        "import sys, cruiselib.protocol as p\n"
        "from cruiselib.protocol.game_commands import GameCommands\n"
        "def broken(self, request): raise RuntimeError('a bug')\n"
        "GameCommands.status = broken\n"
        "sys.exit(p.serve())\n"
    )
    with EngineClient.spawn([sys.executable, "-c", program], timeout=TIMEOUT, stderr=subprocess.DEVNULL) as client:
        gid = client.new(ANY_GAME, seed=1).game_id
        reply = client.send_line(json.dumps({"cmd": "status", "game_id": gid, "id": "b"}))
        assert reply["id"] == "b" and reply["error"]["code"] == "internal" and "a bug" in reply["error"]["message"]
        assert client.legal(gid).actions


def test_the_in_process_engine_answers_alike() -> None:
    engine = protocol.Engine()
    reply = engine.handle({"cmd": "new", "game": ANY_GAME, "seed": 3, "id": "a"})
    assert reply["ok"] and reply["game_id"] == "g1"
    assert engine.handle({"cmd": "status", "game_id": "g1"})["ply"] == 0
    assert engine.handle({"cmd": "ping", "id": {1, 2}})["error"]["code"] == "bad_request"  # not JSON-encodable
    assert engine.handle_line(b"\xff\xfe")[:60].startswith(b'{"id":null,"ok":false,"error":{"code":"bad_json"')
    engine.handle({"cmd": "quit"})
    assert engine.finished
    with EngineClient.local() as client:
        name, options = next((name, options) for name, options in seat_configurations() if options)
        assert client.new(name, options, seed=4).num_players == options["players"]
        assert client.pid is None
        with pytest.raises(ValueError, match="one non-blank line"):
            client.send_line("a\nb")


# --------------------------------------------------------------------------- move texts


def _plain_texts(state: Any) -> list[str]:
    """The legal moves' plain texts (the move table's, what records store)."""
    return [str(state.game.action_to_move(a)) for a in state.legal_actions()]


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_annotated_moves_declares_what_legal_moves_gives(name: str, options: dict[str, Any]) -> None:
    """A game's ``annotated_moves`` says whether ``legal_moves()`` ever shows a move other
    than its plain text (and those texts are read back by ``parse_move``); the engine's
    ``legal`` shows the same texts as ``legal_moves()``."""
    game: Any = cruiselib.make(name, **options)
    engine = protocol.Engine()
    annotated_somewhere = False
    for seed in (3, 4):
        for state in random_game(game, seed, every=3)[:-1]:
            texts = [str(move) for move in state.legal_moves()]
            if texts != _plain_texts(state):
                annotated_somewhere = True
                for action, text in zip(state.legal_actions(), texts, strict=True):
                    assert game.move_to_action(state.parse_move(text)) == action
            gid = engine.handle({"cmd": "load", "snapshot": state.to_json()})["game_id"]
            assert engine.handle({"cmd": "legal", "game_id": gid})["moves"] == texts
            engine.handle({"cmd": "close", "game_id": gid})
    assert annotated_somewhere == type(game).annotated_moves


def test_the_engine_shows_move_texts_as_the_game_declares(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine asks the game's declaration: a game that annotates its moves but declared
    it did not would be shown its plain texts."""
    name, options = next((n, o) for n, o in CONFIGURATIONS if cruiselib.make(n, **o).annotated_moves)
    game: Any = cruiselib.make(name, **options)
    state = next(s for s in random_game(game, 3) if [str(m) for m in s.legal_moves()] != _plain_texts(s))
    monkeypatch.setattr(type(game), "annotated_moves", False)
    engine = protocol.Engine()
    gid = engine.handle({"cmd": "load", "snapshot": state.to_json()})["game_id"]
    assert engine.handle({"cmd": "legal", "game_id": gid})["moves"] == _plain_texts(state)


# --------------------------------------------------------------------------- whole games


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_a_whole_game_through_the_python_client(engine: EngineClient, name: str, options: dict[str, Any]) -> None:
    start = engine.new(name, options, seed=17)
    gid, seats = start.game_id, start.num_players
    rnd = random.Random(17)
    ply = 0
    while True:
        status = engine.status(gid)
        assert status.ply == ply
        if status.is_over:
            break
        mover = status.current_player
        if ply % 15 == 0:
            for seat in range(seats):
                assert engine.view(gid, seat)["player"] == seat
                if seat != mover:
                    assert engine.legal(gid, seat=seat).actions == []
        legal = engine.legal(gid, seat=mover)
        i = rnd.randrange(len(legal.actions))
        done: protocol.ApplyReply | protocol.BotReply
        if ply % 3 == 0:
            done = engine.apply(gid, legal.moves[i], seat=mover)
        elif ply % 3 == 1:
            done = engine.apply(gid, legal.actions[i], seat=mover)
        else:
            done = engine.bot(gid, "rules", seed=ply, apply=True, seat=mover)
        assert done.seat == mover
        if ply == 10:  # take it back and play it again
            assert engine.undo(gid).undone == [done.action] and done.action is not None
            engine.apply(gid, done.action)
        ply += 1
    saved = engine.save(gid)
    local: Any = cruiselib.replay(saved.record)
    assert local.is_over and status.scores == local.scores() and status.winners == local.winners()
    assert local == cruiselib.make(name, **options).load_state(json.dumps(saved.snapshot))
    engine.close_game(gid)


NODE = shutil.which("node")
NODE_CLIENT = ROOT / "examples" / "node_client.js"


@pytest.mark.skipif(NODE is None, reason="needs node")
@pytest.mark.skipif(not NODE_CLIENT.exists(), reason="needs examples/ (not among a wheel's test sources)")
@pytest.mark.parametrize("name", cruiselib.games())
def test_a_whole_game_through_the_node_client(name: str) -> None:
    assert NODE is not None
    result = subprocess.run(
        [NODE, str(NODE_CLIENT), name, "5", "greedy"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "CRUISELIB_PYTHON": sys.executable},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.splitlines()[-1])
    assert summary["errors"] == ["illegal_move"] and summary["exit_code"] == 0 and summary["by_text"] > 0
    state: Any = cruiselib.replay(summary["record"])
    assert state.is_over and state.scores() == summary["scores"] and state.winners() == summary["winners"]


# --------------------------------------------------------------------------- a long random session


class _Session:
    """Random requests, each with the reply it must get: a code for the errors provoked
    on purpose, ok for everything else."""

    bots = ("random", "greedy", "rules", "ismcts")

    def __init__(self, client: EngineClient, seed: int) -> None:
        self.client = client
        self.rnd = random.Random(seed)
        self.games: dict[str, dict[str, Any]] = {}  # game id -> what the session knows of it
        self.provoked: dict[str, int] = {}
        self.sent = 0

    def send(self, request: dict[str, Any] | bytes, expect: str | None) -> dict[str, Any]:
        self.sent += 1
        line = request if isinstance(request, bytes) else json.dumps({**request, "id": self.sent}).encode()
        reply = self.client.send_line(line)
        got = None if reply["ok"] else reply["error"]["code"]
        assert got == expect, (request if not isinstance(request, bytes) else request[:80], reply)
        if expect is not None:
            self.provoked[expect] = self.provoked.get(expect, 0) + 1
        return reply

    def step(self) -> None:
        rnd = self.rnd
        if len(self.games) < 3 or (len(self.games) < 12 and rnd.random() < 0.03):
            name = rnd.choice(cruiselib.games())
            reply = self.send({"cmd": "new", "game": name, "seed": rnd.randrange(2**53)}, None)
            self.games[reply["game_id"]] = {"name": name, "seats": reply["num_players"], "over": False, "ply": 0}
            return
        gid = rnd.choice(sorted(self.games))
        game = self.games[gid]
        roll = rnd.random()
        if game["over"]:
            if roll < 0.5:
                self.send({"cmd": "close", "game_id": gid}, None)
                del self.games[gid]
            elif roll < 0.6:
                self.send({"cmd": "apply", "game_id": gid, "action": 0}, "game_over")
            elif roll < 0.7:
                self.undo(gid, game)
            else:
                self.send({"cmd": "status", "game_id": gid}, None)
            return
        if roll < 0.45:
            legal = self.send({"cmd": "legal", "game_id": gid}, None)
            i = rnd.randrange(len(legal["actions"]))
            if rnd.random() < 0.5:
                move: dict[str, Any] = {"action": legal["actions"][i]}
            else:
                move = {"move": legal["moves"][i]}
            self.record(
                gid, game, self.send({"cmd": "apply", "game_id": gid, "seat": legal["current_player"], **move}, None)
            )
        elif roll < 0.6:
            bot = rnd.choice(self.bots)
            request = {"cmd": "bot", "game_id": gid, "bot": bot, "seed": 1, "iterations": 20, "apply": True}
            self.record(gid, game, self.send(request, None))
        elif roll < 0.65:
            self.send({"cmd": "hint", "game_id": gid, "iterations": 30, "seed": 2}, None)
        elif roll < 0.75:
            self.send({"cmd": "view", "game_id": gid, "seat": rnd.randrange(game["seats"])}, None)
        elif roll < 0.8:
            self.undo(gid, game)
        elif roll < 0.83:
            saved = self.send({"cmd": "save", "game_id": gid}, None)
            source = {"snapshot": saved["snapshot"]} if rnd.random() < 0.5 else {"record": saved["record"]}
            if len(self.games) < 12:
                reply = self.send({"cmd": "load", **source}, None)
                self.games[reply["game_id"]] = {**game}
        elif roll < 0.85:
            self.send({"cmd": "status", "game_id": gid}, None)
        else:
            self.provoke(gid, game)

    def record(self, gid: str, game: dict[str, Any], reply: dict[str, Any]) -> None:
        game["ply"] += 1
        game["over"] = reply["is_over"]

    def undo(self, gid: str, game: dict[str, Any]) -> None:
        if game["ply"] == 0:
            self.send({"cmd": "undo", "game_id": gid}, "nothing_to_undo")
            return
        reply = self.send({"cmd": "undo", "game_id": gid}, None)
        game["ply"] -= 1
        game["over"] = reply["is_over"]

    def provoke(self, gid: str, game: dict[str, Any]) -> None:
        rnd = self.rnd
        kind = rnd.randrange(9)
        if kind == 0:
            self.send(b'{"cmd": "legal", "game_id": ' + bytes(rnd.randrange(32, 127) for _ in range(8)), "bad_json")
        elif kind == 1:
            self.send({"cmd": rnd.choice(["go", "position", "uci", "stop"])}, "unknown_command")
        elif kind == 2:
            self.send({"cmd": "legal", "game_id": f"g{10**9 + self.sent}"}, "unknown_game")
        elif kind == 3:
            self.send({"cmd": "apply", "game_id": gid, "action": 1 << 20}, "illegal_move")
        elif kind == 4:
            status = self.send({"cmd": "status", "game_id": gid}, None)
            if game["seats"] > 1:
                other = (status["current_player"] + 1) % game["seats"]
                self.send({"cmd": "apply", "game_id": gid, "action": 0, "seat": other}, "wrong_seat")
        elif kind == 5:
            self.send({"cmd": "new", "game": game["name"], "options": {"players": 99}}, "bad_option")
        elif kind == 6:
            self.send({"cmd": "bot", "game_id": gid, "bot": "oracle"}, "bad_option")
        elif kind == 7:
            self.send({"cmd": "load", "snapshot": {"game": game["name"], "schema_version": 2}}, "invalid_state")
        elif rnd.random() < 0.05:  # a few long lines (each is a megabyte through the pipe)
            self.send(b'{"cmd":"ping","pad":"' + b"x" * protocol.MAX_LINE + b'"}', "line_too_long")
        else:
            self.send({"cmd": "view", "game_id": gid, "seat": 1, "bogus": True}, "bad_request")


# About 5 s on the compiled core; over two minutes on the pure-Python one (slow there).
CORE = "compiled" if cruiselib.compiled else pytest.param("pure", marks=pytest.mark.slow)


@pytest.mark.parametrize("core", [CORE])
def test_a_ten_thousand_command_random_session_without_growth(core: str) -> None:
    """10,000 random commands (every command; the errors provoked on purpose) after a
    warm-up of 5,000 (which loads every game, bot and lazily built table): every reply is
    the one expected, and the engine's resident memory stays flat."""
    with EngineClient.spawn(timeout=TIMEOUT) as client:
        pid = client.pid
        assert pid is not None
        warm_up = _Session(client, seed=12)
        while warm_up.sent < 5_000:
            warm_up.step()
        session = _Session(client, seed=13)
        session.games = warm_up.games
        before = rss_kib(pid)
        start = time.perf_counter()
        samples = []
        while session.sent < 10_000:
            session.step()
            if session.sent % 1000 == 0:
                samples.append(rss_kib(pid) // 1024)
        after = rss_kib(pid)
        seconds = time.perf_counter() - start
        print(f"\n10k session in {seconds:.1f} s; RSS {before} KiB -> {after} KiB; MiB every 1000: {samples}")
        print(f"errors provoked: {session.provoked}")
        assert len(session.provoked) >= 10  # the errors it provoked, and no other
        assert after - before < 4 * 1024, (before, after, samples)
        alive(client)


# --------------------------------------------------------------------------- hostile clients


def _running(engine: protocol.Engine, timeout: float = 30.0) -> None:
    """Wait until ``engine`` runs a search (started in another thread)."""
    deadline = time.monotonic() + timeout
    while not engine._searches.running:
        assert time.monotonic() < deadline, "the search never started"
        time.sleep(0.005)


def _in_thread(engine: protocol.Engine, request: dict[str, Any]) -> tuple[threading.Thread, list[dict[str, Any]]]:
    replies: list[dict[str, Any]] = []
    thread = threading.Thread(target=lambda: replies.append(engine.handle(request)), daemon=True)
    thread.start()
    return thread, replies


@pytest.mark.parametrize("cmd", ["bot", "hint"])
def test_a_cancel_stops_a_long_search_at_once(cmd: str) -> None:
    """``interrupt`` (what a server's reader calls as a line arrives) stops the running
    search: the search is answered ``cancelled``, the game unchanged, and the cancel's own
    reply (in order) says it stopped one. A cancel of another id stops nothing."""
    engine = protocol.Engine()
    gid = engine.handle({"cmd": "new", "game": ANY_GAME, "seed": 3})["game_id"]
    before = engine.handle({"cmd": "save", "game_id": gid})
    request = {
        "cmd": cmd,
        "game_id": gid,
        "iterations": 1_000_000,
        "id": "think",
        **({"apply": True} if cmd == "bot" else {}),
    }
    thread, replies = _in_thread(engine, request)
    _running(engine)
    assert engine.interrupt(json.dumps({"cmd": "cancel", "target": "other", "id": 1}))
    assert not engine.interrupt(json.dumps({"cmd": "ping", "id": "cancel"}))
    assert engine._searches.running, "a cancel of another request stopped the search"
    started = time.perf_counter()
    assert engine.interrupt(json.dumps({"cmd": "cancel", "target": "think", "id": 2}).encode())
    thread.join(10)
    assert not thread.is_alive(), "the search did not stop"
    print(f"cancel latency {1000 * (time.perf_counter() - started):.1f} ms")
    assert replies[0]["id"] == "think" and replies[0]["error"]["code"] == "cancelled"
    assert engine.handle({"cmd": "cancel", "target": "other", "id": 1}) == {"id": 1, "ok": True, "cancelled": False}
    assert engine.handle({"cmd": "cancel", "target": "think", "id": 2}) == {"id": 2, "ok": True, "cancelled": True}
    assert engine.handle({"cmd": "save", "game_id": gid}) == before
    assert engine.handle({"cmd": "cancel", "id": 3}) == {"id": 3, "ok": True, "cancelled": False}  # nothing runs


def test_a_cancel_that_comes_before_its_search_starts_still_stops_it() -> None:
    """A reader may see the cancel before the main thread starts the search it queued
    behind: the cancel waits for it (until the cancel itself is answered)."""
    engine = protocol.Engine()
    gid = engine.handle({"cmd": "new", "game": ANY_GAME, "seed": 3})["game_id"]
    assert engine.interrupt(b'{"cmd":"cancel","id":9}')
    reply = engine.handle({"cmd": "bot", "game_id": gid, "iterations": 1_000_000, "id": 8})
    assert reply["error"]["code"] == "cancelled"
    assert engine.handle_line(b'{"cmd":"cancel","id":9}') == b'{"id":9,"ok":true,"cancelled":true}'
    quick = engine.handle({"cmd": "bot", "game_id": gid, "iterations": 50, "seed": 1})  # the cancel is spent
    assert quick["ok"] and quick["iterations"] == 50


def test_every_search_is_bounded_in_time_and_iterations(monkeypatch: pytest.MonkeyPatch) -> None:
    """An iteration budget alone stops at MAX_SECONDS; a time budget alone stops at
    MAX_ITERATIONS (the tree's memory). Here both limits are made small."""
    engine = protocol.Engine()
    gid = engine.handle({"cmd": "new", "game": ANY_GAME, "seed": 3})["game_id"]
    monkeypatch.setattr(limits_module, "MAX_SECONDS", 0.2)
    reply = engine.handle({"cmd": "bot", "game_id": gid, "iterations": 1_000_000, "seed": 1})
    assert reply["ok"] and 0 < reply["iterations"] < 1_000_000
    monkeypatch.setattr(limits_module, "MAX_SECONDS", 60.0)
    monkeypatch.setattr(limits_module, "MAX_ITERATIONS", 300)
    # A time budget far beyond 300 iterations' time, on the pure core of a loaded machine too.
    reply = engine.handle({"cmd": "hint", "game_id": gid, "seconds": 60, "seed": 1})
    assert reply["ok"] and reply["iterations"] == 300
    reply = engine.handle({"cmd": "bot", "game_id": gid, "options": {"iterations": None, "seconds": 60}, "seed": 1})
    assert reply["ok"] and reply["iterations"] == 300


def test_busy_when_no_search_slot_frees(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits_module, "SEARCH_SLOT_WAIT", 0.1)
    slots = threading.Semaphore(0)
    engine = protocol.Engine(search_slots=slots)
    gid = engine.handle({"cmd": "new", "game": ANY_GAME, "seed": 3})["game_id"]
    reply = engine.handle({"cmd": "bot", "game_id": gid, "iterations": 10, "id": 1})
    assert reply["id"] == 1 and reply["error"]["code"] == "busy"
    assert engine.handle({"cmd": "bot", "game_id": gid, "bot": "random"})["ok"]  # no search, no slot
    slots.release()
    assert engine.handle({"cmd": "hint", "game_id": gid, "iterations": 10})["ok"]
    assert slots.acquire(blocking=False), "the slot was not given back"


def test_configurations_are_shared_and_capped() -> None:
    """One game object per configuration, shared by the engines of one cache; a new
    configuration beyond the cap is refused while every kept one is in use, and fits once a
    game closes."""
    cache = protocol.GameCache(max_configurations=2)
    first, second = protocol.Engine(games=cache), protocol.Engine(games=cache)
    x, y, z = (_config(i) for i in range(3))
    a = first.handle(x)["game_id"]
    b = second.handle({**x, "seed": 2})["game_id"]
    assert first._sessions[a].game is second._sessions[b].game
    c = second.handle(y)["game_id"]
    refused = first.handle({**z, "id": 5})
    assert refused["id"] == 5 and refused["error"]["code"] == "too_many_configurations"
    assert first.handle({"cmd": "load", "record": second.handle({"cmd": "save", "game_id": b})["record"]})["ok"]
    second.handle({"cmd": "close", "game_id": c})
    assert first.handle(z)["ok"]  # y's configuration was dropped
    assert len(cache) == 2


def _config(i: int) -> dict[str, Any]:
    """A ``new`` of the i-th configuration that is not a game's default (each distinct)."""
    name, options = other_configurations()[i]
    return {"cmd": "new", "game": name, "options": options, "seed": 1, "id": i}


def test_one_engine_cannot_lock_the_others_out_of_new_games() -> None:
    """A game's default configuration is always there (not counted against the cache's cap)
    and each engine has its own quota of the counted ones: an engine that filled the shared
    cache with configurations of its own blocks neither the default games nor ``games``."""
    cache = protocol.GameCache(max_configurations=3)
    hog, other = protocol.Engine(games=cache, max_configurations=2), protocol.Engine(games=cache)
    assert hog.handle(_config(0))["ok"] and hog.handle(_config(1))["ok"]
    refused = hog.handle(_config(2))
    assert refused["error"]["code"] == "too_many_configurations" and "this session" in refused["error"]["message"]
    assert hog.handle({**_config(1), "id": 99})["ok"]  # a configuration it holds already: no new one
    name = _config(0)["game"]
    assert hog.handle({"cmd": "new", "game": name})["ok"]  # defaults do not count ...
    seats = {"players": cruiselib.make(name).num_players}
    assert hog.handle({"cmd": "new", "game": name, "options": seats})["ok"]  # ... spelt out too
    assert other.handle(_config(3))["ok"]
    assert len(cache) == 3  # the server's cap is reached now ...
    full = other.handle(_config(4))
    assert full["error"]["code"] == "too_many_configurations" and "server" in full["error"]["message"]
    for name in cruiselib.games():  # ... and still every default game opens, and games answers
        assert other.handle({"cmd": "new", "game": name})["ok"], name
    assert protocol.Engine(games=cache).handle({"cmd": "games"})["ok"]
    assert hog.handle({"cmd": "hello"})["limits"]["configurations"] == 2
    with pytest.raises(cruiselib.InvalidOptionError):
        protocol.Engine(max_configurations=0)


def test_an_escaped_cancel_stops_the_search_at_once() -> None:
    """``c\\u0061ncel`` is a cancel: ``interrupt`` decodes a line holding an escape."""
    engine = protocol.Engine()
    gid = engine.handle({"cmd": "new", "game": ANY_GAME, "seed": 3})["game_id"]
    thread, replies = _in_thread(engine, {"cmd": "hint", "game_id": gid, "iterations": 1_000_000, "id": 2})
    _running(engine)
    assert engine.interrupt(b'{"cmd":"c\\u0061ncel","t\\u0061rget":2,"id":3}')
    thread.join(30)
    assert not thread.is_alive() and replies[0]["error"]["code"] == "cancelled"
    assert (
        engine.handle_line(b'{"cmd":"c\\u0061ncel","t\\u0061rget":2,"id":3}') == b'{"id":3,"ok":true,"cancelled":true}'
    )
    assert not engine.interrupt('{"cmd":"p\\u0069ng","id":"x"}')


def _long_game(engine: protocol.Engine, actions: int) -> str:
    # A game without a length bound: the last legal action every time plays on as long as asked.
    name, options = unbounded_game()
    gid: str = engine.handle({"cmd": "new", "game": name, "options": options, "seed": 1})["game_id"]
    for _ in range(actions):
        legal = engine.handle({"cmd": "legal", "game_id": gid})["actions"]
        assert engine.handle({"cmd": "apply", "game_id": gid, "action": legal[-1]})["ok"]
    return gid


def test_undo_replays_the_game_once_whatever_its_count(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = protocol.Engine()
    gid = _long_game(engine, 60)
    state = engine._sessions[gid].state
    expected = state.history[::-1][:50]
    cls, applied = type(state), [0]
    original = cls.apply

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        applied[0] += 1
        return original(self, *args, **kwargs)

    # monkeypatch removes the attribute again afterwards (the class inherits apply from
    # the compiled core: a copy left in its own dict would reach the pure twin's class).
    monkeypatch.setattr(cls, "apply", counting)
    reply = engine.handle({"cmd": "undo", "game_id": gid, "count": 50})
    monkeypatch.undo()
    assert reply["ok"] and reply["undone"] == expected and reply["ply"] == 10
    # One replay (60), one pass over the 50 actions undone to say each in its position, and
    # their texts (a game may try a move on a copy, twice: for its mover and for all);
    # 50 undos one by one would cost 50 replays, 2,275 actions.
    assert applied[0] <= 60 + 50 + 2 * 50


def test_a_game_holds_at_most_max_ply_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """A longer record or snapshot is not loaded (a record is refused before its replay);
    an apply or a bot's move beyond the bound is refused, the game unchanged."""
    engine = protocol.Engine()
    gid = _long_game(engine, 31)
    saved = engine.handle({"cmd": "save", "game_id": gid})
    monkeypatch.setattr(limits_module, "MAX_PLY", 30)
    for field in ("record", "snapshot"):
        reply = engine.handle({"cmd": "load", field: saved[field]})
        assert reply["error"]["code"] == "invalid_state" and "30" in reply["error"]["message"], reply
    engine.handle({"cmd": "undo", "game_id": gid})
    legal = engine.handle({"cmd": "legal", "game_id": gid})["actions"]
    for request in (
        {"cmd": "apply", "game_id": gid, "action": legal[0]},
        {"cmd": "bot", "game_id": gid, "apply": True, "iterations": 1_000_000},  # refused before the search
    ):
        reply = engine.handle(request)
        assert reply["error"]["code"] == "game_too_long", reply
    assert engine.handle({"cmd": "bot", "game_id": gid, "bot": "random"})["ok"]  # a move not applied
    assert engine.handle({"cmd": "status", "game_id": gid})["ply"] == 30
    assert engine.handle({"cmd": "hello"})["limits"]["ply"] == 30


def test_a_session_holds_at_most_max_session_ply_actions() -> None:
    engine = protocol.Engine(max_session_ply=25)
    first = _long_game(engine, 20)
    second = _long_game(engine, 5)
    legal = engine.handle({"cmd": "legal", "game_id": second})["actions"]
    assert engine.handle({"cmd": "apply", "game_id": second, "action": legal[0]})["error"]["code"] == "too_many_actions"
    assert engine.handle({"cmd": "new", "game": ANY_GAME})["error"]["code"] == "too_many_actions"
    record = engine.handle({"cmd": "save", "game_id": first})["record"]
    assert engine.handle({"cmd": "load", "record": record})["error"]["code"] == "too_many_actions"
    assert engine.handle({"cmd": "undo", "game_id": first, "count": 10})["ok"]
    assert engine.handle({"cmd": "apply", "game_id": second, "action": legal[0]})["ok"]
    engine.handle({"cmd": "close", "game_id": first})  # its 10 actions are given back
    assert engine.handle({"cmd": "undo", "game_id": second, "count": 2})["ok"]
    assert engine.handle({"cmd": "load", "record": record})["ok"]  # 4 + 20 actions
    assert engine.handle({"cmd": "hello"})["limits"]["session_ply"] == 25


def test_invalid_utf8_in_a_load_is_bad_json() -> None:
    """A snapshot or record whose bytes are not UTF-8 is ``bad_json``, not an engine bug."""
    engine = protocol.Engine()
    for line in (
        b'{"cmd":"load","snapshot":"\xff\xfe","id":1}',
        b'{"cmd":"load","record":"\xc3","id":1}',
        b'{"cmd":"load","snapshot":{"game":"GAME","x":"\xff"},"id":1}',
        b'{"cmd":"load","snapshot":"\xed\xa0\x80","game":"GAME","id":1}',
    ):
        reply = json.loads(engine.handle_line(line.replace(b"GAME", ANY_GAME.encode())))
        assert reply["id"] == 1 and reply["error"]["code"] == "bad_json", (line, reply)
    assert engine.handle({"cmd": "ping"})["ok"]


def test_a_late_reply_is_skipped_not_taken_for_the_next_request() -> None:
    """After a reply timed out, the next request gets its own reply (the late one is
    skipped), and ``cancel`` stops the search that timed out."""
    with EngineClient.spawn(timeout=TIMEOUT) as client:
        searched = client.new(ANY_GAME, seed=2).game_id
        other = client.new(OTHER_GAME, seed=2).game_id
        transport = client.transport
        assert isinstance(transport, PipeTransport)
        transport.timeout = 0.05
        with pytest.raises(EngineTimeoutError) as timed_out:
            client.bot(searched, seconds=0.5, seed=1)  # its reply comes late, after 0.5 s
        transport.timeout = TIMEOUT
        assert client.status(other).game == OTHER_GAME  # not the late reply to the first game's bot
        assert client.status(searched).ply == 0
        transport.timeout = 0.05
        with pytest.raises(EngineTimeoutError) as timed_out:
            client.hint(other, iterations=1_000_000)
        transport.timeout = TIMEOUT
        assert client.cancel(timed_out.value.request_id) is True
        assert client.status(other).ply == 0
        assert client.cancel() is False
        alive(client)


def _serve_process() -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "cruiselib", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _send(process: subprocess.Popen[bytes], request: dict[str, Any]) -> None:
    assert process.stdin is not None
    process.stdin.write(json.dumps(request).encode() + b"\n")
    process.stdin.flush()


def _reply(process: subprocess.Popen[bytes]) -> dict[str, Any]:
    assert process.stdout is not None
    reply: dict[str, Any] = json.loads(process.stdout.readline())
    return reply


def test_serve_reads_a_cancel_while_it_searches() -> None:
    """Through real pipes: a search of a million iterations is stopped by a cancel sent
    behind it; the replies come in order; after the end of input every line read is still
    answered, searches included (a script piped into the engine gets all its replies)."""
    process = _serve_process()
    try:
        _send(process, {"cmd": "new", "game": ANY_GAME, "seed": 1, "id": 1})
        assert _reply(process)["ok"]
        _send(process, {"cmd": "hint", "game_id": "g1", "iterations": 1_000_000, "id": 2})
        time.sleep(0.2)
        sent = time.perf_counter()
        _send(process, {"cmd": "cancel", "target": 2, "id": 3})
        stopped = _reply(process)
        print(f"cancel latency through pipes {1000 * (time.perf_counter() - sent):.1f} ms")
        assert stopped["id"] == 2 and stopped["error"]["code"] == "cancelled"
        assert _reply(process) == {"id": 3, "ok": True, "cancelled": True}
        _send(process, {"cmd": "bot", "game_id": "g1", "iterations": 300, "seed": 1, "id": 4})
        _send(process, {"cmd": "ping", "id": 5})
        assert process.stdin is not None
        process.stdin.close()  # the end of input: what was sent is still answered
        assert _reply(process)["ok"] is True
        assert _reply(process) == {"id": 5, "ok": True}
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()


def test_a_client_that_is_gone_stops_the_search() -> None:
    """When the client closes both pipes (or dies) during a long search, the engine stops
    the search and exits at once instead of thinking for nobody."""
    process = _serve_process()
    try:
        _send(process, {"cmd": "new", "game": ANY_GAME, "seed": 1, "id": 1})
        assert _reply(process)["ok"]
        _send(process, {"cmd": "bot", "game_id": "g1", "iterations": 1_000_000, "id": 2})
        _send(process, {"cmd": "hint", "game_id": "g1", "iterations": 1_000_000, "id": 3})
        time.sleep(0.3)
        assert process.stdin is not None and process.stdout is not None
        process.stdin.close()
        process.stdout.close()
        began = time.perf_counter()
        process.wait(timeout=30)  # thinking on for nobody: a million iterations, twice
        waited = time.perf_counter() - began
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
    print(f"the engine ended {1000 * waited:.0f} ms after its client left")
    assert waited < 10, f"the engine thought on for {waited:.1f} s after its client left"


def test_a_client_that_closes_only_the_engines_stdout_stops_the_search() -> None:
    """Its input still open, the engine notices while it searches that nobody reads its
    replies (the watcher waiting for input also watches stdout), stops the search and ends."""
    process = _serve_process()
    try:
        _send(process, {"cmd": "new", "game": ANY_GAME, "seed": 1, "id": 1})
        assert _reply(process)["ok"]
        _send(process, {"cmd": "hint", "game_id": "g1", "seconds": 60, "id": 2})
        _send(process, {"cmd": "hint", "game_id": "g1", "seconds": 60, "id": 3})
        time.sleep(0.3)
        assert process.stdout is not None
        process.stdout.close()
        began = time.perf_counter()
        process.wait(timeout=60)  # two searches of a minute each, for nobody
        waited = time.perf_counter() - began
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        assert process.stdin is not None
        process.stdin.close()
    print(f"the engine ended {1000 * waited:.0f} ms after its client stopped reading")
    assert waited < 30, f"the engine thought on for {waited:.1f} s after its client stopped reading"


def test_ctrl_c_ends_a_search_at_once() -> None:
    process = _serve_process()
    try:
        _send(process, {"cmd": "new", "game": ANY_GAME, "seed": 1, "id": 1})
        assert _reply(process)["ok"]
        _send(process, {"cmd": "bot", "game_id": "g1", "iterations": 1_000_000, "id": 2})
        time.sleep(0.3)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
        assert process.returncode == 130 and b"Traceback" not in err
    finally:
        if process.poll() is None:
            process.kill()


def test_the_read_ahead_is_bounded_in_bytes() -> None:
    """While a search runs the watcher reads ahead until the lines it kept reach their bound
    (one line always fits), then waits; the main thread takes them in order."""
    reader, writer = os.pipe()
    engine = protocol.Engine()
    requests = stdio._ServeInput(stdio._PolledLines(reader, 0.0), engine, 1000, None)
    try:
        os.write(writer, b"x" * 5000 + b"\n" + b"y" * 10 + b"\n")
        with requests.watch():
            deadline = time.monotonic() + 10
            while not requests.kept and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.2)
            assert list(requests.kept) == [b"x" * 5000], "the watcher did not stop at its bound"
        assert requests.next() == b"x" * 5000
        assert requests.next() == b"y" * 10
        os.close(writer)
        writer = -1
        assert requests.next() is None
    finally:
        requests.close()
        if writer >= 0:
            os.close(writer)
        os.close(reader)
    out = io.BytesIO()
    script = b"".join(json.dumps({"cmd": "ping", "id": i}).encode() + b"\n" for i in range(500))
    assert protocol.serve(io.BytesIO(script), out, queue_bytes=200) == 0
    assert [json.loads(line)["id"] for line in out.getvalue().splitlines()] == list(range(500))
