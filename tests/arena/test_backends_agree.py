"""The same spec gives the same results on every backend: the serial backend, two local
processes and a local Ray of two CPUs play a small tournament and a small study of every
registered game, and every row (but its wall time), ``summary.json`` and the HTML report are
the same, byte for byte where they are files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib._registry import game_class
from cruiselib.arena.backends import Backend, LocalBackend, SerialBackend
from cruiselib.arena.plan import BotSpec, Spec, Study, Tournament
from cruiselib.arena.report import html_report
from cruiselib.arena.results import GameRow
from cruiselib.arena.runner import run

pytestmark = pytest.mark.slow  # a local Ray and a process pool per run: about a minute

GAMES = cruiselib.games()


def tournament(name: str) -> Tournament:
    """Three bots, round robin, at the game's largest table (two filler seats at four), two
    deals per pairing each played under every rotation, one deal a job."""
    players = max(game_class(name).player_counts)
    return Tournament(
        game=name,
        players=players,
        participants=(BotSpec("random"), BotSpec("greedy"), BotSpec("rules")),
        filler=BotSpec("rules"),
        games=2 * players,
        shard=1,
        seed=11,
        name=f"{name} agreement",
    )


def study(name: str) -> Study:
    """Random in-core games at every player count, over a grid of one option of the game's
    example configurations when one differs from the defaults (so paired variants are
    compared), in jobs of seven games."""
    grid: dict[str, list[Any]] = {}
    defaults = cruiselib.make(name).options
    for options in game_class(name).example_configurations:
        changed = [(key, value) for key, value in options.items() if key != "players" and value != defaults.get(key)]
        if changed:
            key, value = changed[0]
            grid = {key: [defaults[key], value]}
            break
    return Study(game=name, grid=grid, games=24, shard=7, seed=5, name=f"{name} agreement")


@pytest.fixture(scope="module")
def backends() -> Iterator[dict[str, Backend]]:
    """The serial backend, a local pool of two processes and a local Ray of two CPUs (started
    here and shut down after the module)."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("a Ray is already running in this process")
    from cruiselib.arena.backends import RayBackend

    on_ray = RayBackend(address="local", num_cpus=2)  # never a cluster recorded on the machine
    on_ray.connect()
    try:
        yield {"serial": SerialBackend(), "local": LocalBackend(2), "ray": on_ray}
    finally:
        on_ray.close()


def without_seconds(games: list[GameRow]) -> list[GameRow]:
    """The rows but for their wall time, the one column that differs between runs."""
    return [msgspec.structs.replace(game, seconds=0.0) for game in games]


def outputs(spec: Spec, backend: Backend, out_dir: Path) -> tuple[list[GameRow], bytes, bytes]:
    """A run's rows (read back from its games file), its summary.json and its HTML report."""
    result = run(spec, out_dir, backend=backend, progress=False)
    report = html_report(result.rows, result.summary, out_dir / "report.html")
    again = run(spec, out_dir, backend=backend, progress=False)  # every job read from disk
    assert again.played == 0
    return without_seconds(again.games()), (out_dir / "summary.json").read_bytes(), report.read_bytes()


@pytest.mark.parametrize("kind", ["tournament", "study"])
@pytest.mark.parametrize("name", GAMES)
def test_every_backend_gives_the_same_rows_summary_and_report(
    name: str, kind: str, backends: dict[str, Backend], tmp_path: Path
) -> None:
    spec: Spec = tournament(name) if kind == "tournament" else study(name)
    found = {label: outputs(spec, backend, tmp_path / label) for label, backend in backends.items()}
    rows, summary, report = found["serial"]
    assert rows, "the spec played no games"
    assert len({game.job for game in rows}) > 2, "too few jobs to tell backends apart"
    for label in ("local", "ray"):
        other_rows, other_summary, other_report = found[label]
        assert other_rows == rows, f"{label}: rows differ from the serial backend's"
        assert other_summary == summary, f"{label}: summary.json differs from the serial backend's"
        assert other_report == report, f"{label}: report.html differs from the serial backend's"


def test_the_rows_differ_between_seeds(backends: dict[str, Backend], tmp_path: Path) -> None:
    """The comparison above can tell runs apart: another seed changes the rows and the report."""
    name = GAMES[0]
    spec = study(name)
    base = outputs(spec, backends["serial"], tmp_path / "a")
    other = outputs(msgspec.structs.replace(spec, seed=spec.seed + 1), backends["serial"], tmp_path / "b")
    assert base[0] != other[0]
    assert base[2] != other[2]
