"""The arena's runner against the core it drives: a study of random games played by
``cruiselib.arena.run`` next to the same games from ``game.playouts``, side by side.

    pytest benchmarks/test_bench_arena.py --benchmark-only

For every registered game (its default configuration), one group
``"<name>: 1,000,000 random games"`` (fewer for a game whose million would take over
:data:`ROUND_SECONDS` seconds in the core) holds: ``playouts`` (the raw core, one thread),
``arena in memory`` (``run`` on the serial backend, no output directory: the rows Table
and the summary) and ``arena to disk`` (the same, writing the job checkpoints,
``games.parquet`` and ``summary.json``). The runner's overhead is the ratio of an arena
row to the playouts row; the goal is at most 10% (``benchmarks/report.py`` shows the
ratios). The games are the same in all three: the study deals game ``g`` as
``game.playouts(n, seed)`` deals it. ``ARENA_BENCH_GAMES`` caps the game count (default
one million); rounds are few, each takes seconds.

The command a user runs, ``cruiselib study GAME --games N`` (serial backend, no progress
bar), is timed for the fastest game at a tenth of its round (100,000 Sirens games: short
enough for a quick pass): without ``--out`` (nothing written), with ``--out DIR
--no-report`` (the checkpoints, ``games.parquet`` and ``summary.json``) and with ``--out
DIR`` (``report.html`` too), each a group of its own, ``"<name>: cruiselib study, N random
games, <how>"``: writing the rows costs the ratio of the second to the first.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

import cruiselib
from cruiselib.arena.cli import study_main
from cruiselib.arena.runner import run

MAX_GAMES = int(os.environ.get("ARENA_BENCH_GAMES", "1000000"))
"""Random games a round plays at most."""
ROUND_SECONDS = 3.0
"""About how long the raw playouts of a round take: a game slower than the fastest plays
fewer games (a round count of 1, 2 or 5 times a power of ten)."""
CALIBRATION_GAMES = 20_000
"""Games timed to size a round."""
ROUNDS = 3
"""Rounds per benchmark: a round is seconds long, and the machine's load varies."""


@functools.cache
def games_for(name: str) -> int:
    """The games a round of ``name`` plays: :data:`MAX_GAMES`, or fewer if they would take
    much over :data:`ROUND_SECONDS` in the core."""
    game = cruiselib.make(name)
    game.playouts(1000, 1, threads=1)  # warm: the first batch pays for its start
    start = time.perf_counter()
    game.playouts(CALIBRATION_GAMES, 2, threads=1)
    fit = ROUND_SECONDS * CALIBRATION_GAMES / max(time.perf_counter() - start, 1e-9)
    steps = [m * 10**k for k in range(3, 8) for m in (1, 2, 5)]
    return min(MAX_GAMES, max([s for s in steps if s <= fit], default=1000))


def group(name: str) -> str:
    return f"{name}: {games_for(name):,} random games"


def study(name: str) -> dict[str, Any]:
    """The study measured: the game's default configuration, every seat random, in the core."""
    players = cruiselib.make(name).num_players
    return {"kind": "study", "game": name, "games": games_for(name), "players": [players], "seed": 0}


@pytest.mark.parametrize("name", cruiselib.games())
def test_playouts(benchmark: Any, name: str) -> None:
    """The floor: the same games in the core, nothing kept but its arrays."""
    benchmark.group = group(name)
    game = cruiselib.make(name)
    result = benchmark.pedantic(
        game.playouts, args=(games_for(name), 0), kwargs={"threads": 1}, rounds=ROUNDS, iterations=1
    )
    assert result.games == games_for(name)


@pytest.mark.parametrize("name", cruiselib.games())
def test_arena_in_memory(benchmark: Any, name: str) -> None:
    """``run`` on the serial backend without an output directory: rows Table and summary."""
    benchmark.group = group(name)
    result = benchmark.pedantic(
        run, args=(study(name),), kwargs={"backend": "serial", "progress": False}, rounds=ROUNDS, iterations=1
    )
    assert result.summary["games"] == games_for(name)


@pytest.mark.parametrize("name", cruiselib.games())
def test_arena_to_disk(benchmark: Any, name: str) -> None:
    """``run`` on the serial backend into a fresh directory each round: job checkpoints,
    ``games.parquet`` and ``summary.json`` written."""
    benchmark.group = group(name)
    with tempfile.TemporaryDirectory() as scratch:
        rounds = iter(range(ROUNDS + 1))

        def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
            out = Path(scratch) / str(next(rounds))
            return (study(name), out), {"backend": "serial", "progress": False, "resume": False}

        result = benchmark.pedantic(run, setup=setup, rounds=ROUNDS, iterations=1)
        assert result.summary["games"] == games_for(name)
        assert result.out_dir is not None and (result.out_dir / "games.parquet").exists()


COMMAND_SHARE = 10
"""The study command's rows play this fraction of a round of the fastest game (a tenth)."""

COMMAND_WAYS = {
    "no --out": (),
    "--out DIR --no-report": ("--out", "{out}", "--no-report"),
    "--out DIR": ("--out", "{out}"),
}
"""How the study command is timed: its extra arguments (``{out}`` a fresh directory a round)."""


@functools.cache
def fastest_game() -> str:
    """The game whose random games the core plays fastest: where writing the rows weighs most."""
    return max(cruiselib.games(), key=games_for)


def command_games() -> int:
    return max(1000, games_for(fastest_game()) // COMMAND_SHARE)


@pytest.mark.parametrize("way", list(COMMAND_WAYS))
def test_study_command(benchmark: Any, way: str) -> None:
    """``cruiselib study`` on the serial backend, its output thrown away: without ``--out``,
    writing the rows, and writing the report too."""
    name = fastest_game()
    benchmark.group = f"{name}: cruiselib study, {command_games():,} random games, {way}"
    players = cruiselib.make(name).num_players
    base = [name, "--games", str(command_games()), "--players", str(players), "--backend", "serial", "--no-progress"]
    with tempfile.TemporaryDirectory() as scratch:
        rounds = iter(range(1000))

        def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
            out = str(Path(scratch) / str(next(rounds)))
            return ([*base, *(arg.format(out=out) for arg in COMMAND_WAYS[way])],), {}

        def command(argv: list[str]) -> int:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                return study_main(argv)

        status = benchmark.pedantic(command, setup=setup, rounds=ROUNDS, iterations=1, warmup_rounds=1)
        assert status == 0
        written = sorted(path.name for path in Path(scratch).glob("*/*"))
        assert ("games.parquet" in written) == (way != "no --out")
        assert ("report.html" in written) == (way == "--out DIR")
