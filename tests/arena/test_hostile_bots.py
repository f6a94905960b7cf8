"""Bots that misbehave (``--bot module:attr``): each failure is an error naming the bot, the
game, the deal and the move, never a raw traceback or a hang; the move time limit stops a
bot that takes too long, and a worker whose bot cannot be stopped is ended; a worker that
dies has its jobs played again. Bots that behave give the same rows with or without any of it.
"""

from __future__ import annotations

import logging
import math
import re
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from cruiselib.arena import plan
from cruiselib.arena.backends import LocalBackend, SerialBackend, WorkerLostError
from cruiselib.arena.cli import arena_main
from cruiselib.arena.plan import BotSpec, Tournament, expand
from cruiselib.arena.play import BotError, MoveClock, MoveTimeLimitExceeded
from cruiselib.arena.results import GameRow
from cruiselib.arena.runner import RunResult, run
from cruiselib.errors import CruiseError, InvalidOptionError
from tests.arena.hostile_bots import HERE
from tests.support import ANY_GAME


def hostile(kind: str, **options: Any) -> BotSpec:
    return BotSpec(f"{HERE}:{kind}", options)


def against_random(bot: BotSpec, games: int = 4) -> Tournament:
    """``bot`` against the random bot at two seats, each deal played both ways, a deal a job."""
    return Tournament(game=ANY_GAME, players=2, participants=(BotSpec("random"), bot), games=games, shard=1, seed=7)


def without_seconds(result: RunResult) -> list[GameRow]:
    return [msgspec.structs.replace(game, seconds=0.0) for game in result.games()]


def fails(spec: Tournament, backend: Any, error: type[Exception] = BotError) -> str:
    """The message of the error ``spec`` stops with on ``backend``."""
    with pytest.raises(error) as caught:
        run(spec, backend=backend, progress=False)
    return str(caught.value)


# --- bots that cannot be made ---------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("raise RuntimeError('no GPU here')", r"RuntimeError: no GPU here \(at .*import_trap_\d\.py:1, in <module>\)"),
        ("import sys; sys.exit(4)", r"SystemExit: 4 \(at .*import_trap_\d\.py:1, in <module>\)"),
        ("import no_such_module_anywhere", "ModuleNotFoundError: No module named 'no_such_module_anywhere'"),
    ],
    ids=["raises", "exits", "imports-nothing"],
)
def test_a_module_that_fails_at_import_is_refused_naming_the_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: str, said: str, request: pytest.FixtureRequest
) -> None:
    module = f"import_trap_{request.node.callspec.indices['code']}"
    (tmp_path / f"{module}.py").write_text(code + "\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(InvalidOptionError, match=rf"cannot import the bot '{module}:make': {said}"):
        expand(against_random(BotSpec(f"{module}:make")))


def test_a_module_that_hangs_at_import_is_refused_not_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "import_hangs.py").write_text("import time\ntime.sleep(30)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(plan, "BOT_CHECK_TIME_LIMIT", 0.5)
    started = time.monotonic()
    with pytest.raises(InvalidOptionError, match=r"'import_hangs:make' was not made within 0.5 s .*hang at import"):
        expand(against_random(BotSpec("import_hangs:make")))
    assert time.monotonic() - started < 5


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("raises_when_made", r"could not be made: ValueError: no weights file \(at .*hostile_bots\.py:\d+"),
        ("gives_no_bot", r"did not give a bot"),
        ("no_such_attr", r"cannot import the bot .*: module 'tests.arena.hostile_bots' has no attribute"),
    ],
    ids=["raises", "gives-no-bot", "no-such-attribute"],
)
def test_a_factory_that_fails_is_refused_naming_the_bot(name: str, said: str) -> None:
    with pytest.raises(InvalidOptionError, match=rf"'{HERE}:{name}'.*{said}|{said}"):
        expand(against_random(BotSpec(f"{HERE}:{name}")))


# --- bots that fail in a game ---------------------------------------------------------

WHERE = (
    rf"the bot '{HERE}:\w+(\(.*\))?'.* in seat 1, at move \d+ of deal \d+ \(rotation \d\) "
    rf"of {ANY_GAME}( {{.*}})? \(job \d{{6}}, cell 0\)"
)
"""How a message names the bot, the game, the deal and the move."""


@pytest.mark.parametrize(
    ("bot", "said"),
    [
        (hostile("Raises", at=2), r"raised ZeroDivisionError: .* \(at .*hostile_bots\.py:\d+, in misbehave\)"),
        (hostile("Exits"), r"raised SystemExit: 3"),
        (hostile("RaisesBadMessage"), r"raised BadMessage: \(its message cannot be read\)"),
        (hostile("Returns", what="out_of_range"), r"returned 1000000, not an action id \(0 to \d+\)"),
        (hostile("Returns", what="negative"), r"returned -1, not an action id"),
        (hostile("Returns", what="illegal", at=1), r"returned an illegal move, \d+: action \d+ .*is not legal"),
        (hostile("Returns", what="huge_int"), r"returned an int of 332193 bits, not an action id"),
        (hostile("Returns", what="huge_list"), r"returned \[0, 1, 2, 3, 4, 5, \.\.\.\], not an action id or a .* move"),
        (hostile("Returns", what="huge_text"), r"returned 'xxxx.*\.\.\..*xxxx', not an action id"),
        (hostile("Returns", what="hanging_repr"), r"returned a tests\.arena\.hostile_bots\.HangingRepr object"),
        (hostile("Returns", what="bool"), r"returned True, not an action id"),
        (hostile("Returns", what="none"), r"returned None, not an action id"),
        (hostile("Returns", what="float"), r"returned 1\.0, not an action id"),
    ],
    ids=lambda value: (
        "-".join([value.name.partition(":")[2], *map(str, value.options.values())])
        if isinstance(value, BotSpec)
        else ""
    ),
)
def test_a_bot_that_fails_in_a_game_is_named_with_the_deal_and_move(bot: BotSpec, said: str) -> None:
    started = time.monotonic()
    message = fails(against_random(bot), "serial")
    assert time.monotonic() - started < 10
    assert len(message) < 800
    assert msgspec.json.encode(message)  # plain text
    assert re.search(f"{WHERE} {said}", message), message


def test_a_bot_error_crosses_from_a_worker_whole() -> None:
    # An exception that cannot be unpickled would break the pool: the worker sends text.
    message = fails(against_random(hostile("RaisesUnpicklable")), LocalBackend(2))
    assert re.search(f"{WHERE} raised Unpicklable: this and that", message), message


def test_the_command_says_what_the_bot_did_without_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [ANY_GAME, "--bot", "random", "--bot", f"{HERE}:Raises,at=1", "--games", "2", "--backend", "serial"]
    assert arena_main([*argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "cruiselib arena: error: the bot" in err
    assert "raised ZeroDivisionError" in err
    assert "Traceback" not in err


# --- the move time limit --------------------------------------------------------------


@pytest.mark.parametrize("limit", [0, -1, math.nan, math.inf, "1", True])
def test_a_move_time_limit_is_a_positive_number_of_seconds(limit: Any) -> None:
    with pytest.raises(InvalidOptionError, match="move time limit must be a positive number of seconds"):
        LocalBackend(1, move_time_limit=limit)
    with pytest.raises(InvalidOptionError, match="move time limit"):
        SerialBackend(move_time_limit=limit)


@pytest.mark.parametrize(
    "bot",
    [hostile("Spins", at=1), hostile("Slow", seconds=0.6)],
    ids=["spins-in-python", "returns-late"],
)
def test_a_move_over_the_limit_stops_the_run_in_this_process(bot: BotSpec) -> None:
    started = time.monotonic()
    message = fails(against_random(bot), SerialBackend(move_time_limit=0.2))
    assert time.monotonic() - started < 5
    assert re.search(f"{WHERE} took longer than the move time limit of 0.2 s$", message), message


@pytest.mark.parametrize("kind", ["Sleeps", "Swallows"], ids=["blocked-as-in-c", "swallows-stops-and-sigterm"])
def test_a_bot_that_does_not_stop_has_its_worker_ended(kind: str) -> None:
    started = time.monotonic()
    message = fails(against_random(hostile(kind, at=1)), LocalBackend(2, move_time_limit=0.3))
    assert time.monotonic() - started < 20
    assert re.search(
        f"{WHERE} took longer than the move time limit of 0.3 s and did not stop after .* s: "
        "its worker process was ended$",
        message,
    ), message


def test_bots_that_behave_give_the_same_rows_under_a_move_time_limit() -> None:
    spec = Tournament(
        game=ANY_GAME,
        players=2,
        participants=(BotSpec("random"), BotSpec("greedy"), BotSpec("rules")),
        games=4,
        shard=1,
        seed=3,
    )
    plain = without_seconds(run(spec, backend="serial", progress=False))
    for backend in (SerialBackend(move_time_limit=30), LocalBackend(2, move_time_limit=30)):
        assert without_seconds(run(spec, backend=backend, progress=False)) == plain


def test_the_command_takes_a_move_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [ANY_GAME, "--bot", "random", "--bot", f"{HERE}:Spins,at=1", "--games", "2", "--backend", "serial"]
    assert arena_main([*argv, "--no-progress", "--move-time-limit", "0.2"]) == 2
    err = capsys.readouterr().err
    assert "took longer than the move time limit of 0.2 s" in err
    assert "Traceback" not in err


def _spin() -> None:
    while True:
        pass


def test_the_clock_stops_a_python_loop_and_is_quiet_after_close() -> None:
    clock = MoveClock(0.05)
    clock.start(0.05, None)
    with pytest.raises(MoveTimeLimitExceeded):
        _spin()
    clock.close()
    time.sleep(0.2)  # nothing more lands here
    assert issubclass(BotError, CruiseError)


# --- workers that die -----------------------------------------------------------------


def test_a_dead_workers_jobs_are_played_again_with_the_same_rows(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # The first of the bot's moves to come, in whichever worker, kills that worker (SIGKILL,
    # as the OOM killer does); once the marker exists the bot plays as the random bot.
    marker = tmp_path / "died"
    spec = against_random(BotSpec(f"{HERE}:DiesOnce", {"marker": str(marker), "at": 2}, label="bot"), games=8)
    with caplog.at_level(logging.WARNING, logger="cruiselib.arena"):
        on_workers = run(spec, backend=LocalBackend(2), progress=False)
    assert marker.exists()  # a worker did die
    assert "a worker process died (killed by SIGKILL) playing job" in caplog.text
    assert "again on new workers" in caplog.text
    assert without_seconds(on_workers) == without_seconds(run(spec, backend="serial", progress=False))


def test_a_job_whose_worker_keeps_dying_stops_the_run() -> None:
    message = fails(against_random(hostile("Dies", at=1), games=2), LocalBackend(2), WorkerLostError)
    assert re.search(
        r"job \d{6} \(.*deals 0 to 0\): its worker process died 2 times \(the last killed by SIGKILL\)", message
    ), message
