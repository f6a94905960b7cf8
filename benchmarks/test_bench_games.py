"""The operations every game measures the same way: clone, load a snapshot, a Python-driven
random game, in-core playouts, views, resampling and observation tensors, for every
registered game (its default configuration).

    pytest benchmarks/test_bench_games.py --benchmark-only

Each benchmark runs once per core (compiled, pure) so the ratio is measured in one run;
``benchmarks/report.py`` turns the JSON output into the tables of docs/performance.md, a group per game
and operation (``"<game>: view() mid-game"``). A game's own hot paths (route scoring,
move enumeration, ...) are in ``test_bench_<game>.py``. Targets (one core): compiled at
least 50x the pure-Python core for in-core playouts; ``load_state()`` of mid-game JSON
within 2.5x of msgspec's own typed decode of the same bytes.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

import cruiselib
from benchmarks.conftest import (
    bench_load_state,
    bench_observation,
    bench_python_random_game,
    bench_resample,
    bench_typed_decode,
    bench_view,
    modes,
)

GAMES = {name: modes(name) for name in cruiselib.games()}
"""Every registered game on each core available here: {name: {"compiled": game, "pure": twin}}."""
CASES = [(name, mode) for name, games in GAMES.items() for mode in games]
IDS = [f"{name}-{mode}" for name, mode in CASES]

PLAYOUT_ACTIONS = 10_000
"""About how many actions a playouts batch takes: the same batch on both cores (the ratio
is the speed-up per game), each game a new deal (a handful of repeated games would flatter
the figure)."""


@functools.cache
def midgame(name: str, mode: str) -> Any:
    """The position halfway through a seeded random game (the same game on both cores)."""
    game = GAMES[name][mode]
    rnd = random.Random(3)
    state = game.new_state(seed=3)
    actions = []
    while not state.is_over:
        actions.append(rnd.choice(state.legal_actions()))
        state.apply(actions[-1])
    state = game.new_state(seed=3)
    for action in actions[: len(actions) // 2]:
        state.apply(action)
    assert not state.is_over
    return state


def mean_length(name: str) -> float:
    """The mean number of actions of a random game of ``name`` (in-core playouts)."""
    return float(cruiselib.make(name).playouts(50, seed=0).lengths.mean())


@pytest.mark.parametrize(("name", "mode"), CASES, ids=IDS)
def test_clone(benchmark: Any, name: str, mode: str) -> None:
    benchmark.group = f"{name}: clone() mid-game"
    benchmark(midgame(name, mode).clone)


@pytest.mark.parametrize(("name", "mode"), CASES, ids=IDS)
def test_load_state_json(benchmark: Any, name: str, mode: str) -> None:
    bench_load_state(benchmark, name, midgame(name, mode))


@pytest.mark.parametrize("name", list(GAMES))
def test_msgspec_typed_decode(benchmark: Any, name: str) -> None:
    bench_typed_decode(benchmark, name, midgame(name, next(iter(GAMES[name]))))


@pytest.mark.parametrize(("name", "mode"), CASES, ids=IDS)
def test_python_random_game(benchmark: Any, name: str, mode: str) -> None:
    game = GAMES[name][mode]
    benchmark.extra_info["actions_per_game"] = mean_length(name)
    bench_python_random_game(benchmark, f"{name}: Python loop, one random {game.num_players}-player game", game)


@pytest.mark.parametrize(("name", "mode"), CASES, ids=IDS)
def test_playouts(benchmark: Any, name: str, mode: str) -> None:
    """game.playouts(n): random games entirely in the core, on one thread."""
    game = GAMES[name][mode]
    benchmark.group = f"{name}: game.playouts(n) in the core, {game.num_players} players"
    n = max(20, round(PLAYOUT_ACTIONS / mean_length(name)))
    result = benchmark(game.playouts, n, 1, threads=1)
    assert result.games == n
    benchmark.extra_info["games"] = n
    benchmark.extra_info["actions"] = result.actions


@pytest.mark.parametrize(("name", "mode"), CASES, ids=IDS)
def test_view(benchmark: Any, name: str, mode: str) -> None:
    bench_view(benchmark, name, midgame(name, mode))


@pytest.mark.parametrize(("name", "mode"), CASES, ids=IDS)
def test_resample(benchmark: Any, name: str, mode: str) -> None:
    bench_resample(benchmark, name, midgame(name, mode))


@pytest.mark.parametrize(("name", "mode"), CASES, ids=IDS)
def test_observation_into_buffer(benchmark: Any, name: str, mode: str) -> None:
    bench_observation(benchmark, name, midgame(name, mode))


@pytest.mark.parametrize(("name", "mode"), CASES, ids=IDS)
def test_position_text(benchmark: Any, name: str, mode: str) -> None:
    """game.position_text(state): the whole table of a mid-game position as its compact text
    (the description, then the text)."""
    state = midgame(name, mode)
    benchmark.group = f"{name}: position_text() mid-game"
    text = benchmark(state.game.position_text, state)
    assert state.game.read_position(text) == state.game.describe(state)


@pytest.mark.parametrize(("name", "mode"), CASES, ids=IDS)
def test_from_position_whole_table(benchmark: Any, name: str, mode: str) -> None:
    """game.from_position(text): a mid-game whole table from its compact text (read, every
    problem checked, the snapshot derived and loaded)."""
    state = midgame(name, mode)
    game = state.game
    benchmark.group = f"{name}: from_position() of a whole table"
    text = game.position_text(state)
    built = benchmark(game.from_position, text)
    assert game.describe(built) == game.describe(state)


@pytest.mark.parametrize(("name", "mode"), CASES, ids=IDS)
def test_from_position_seat_view(benchmark: Any, name: str, mode: str) -> None:
    """game.from_position(text, seed): one seat's view of a mid-game position, its hidden
    rest filled in and dealt anew (the resample): what advice for a real table starts from."""
    state = midgame(name, mode)
    game = state.game
    seat = state.current_player
    benchmark.group = f"{name}: from_position() of a seat's view"
    text = game.position_text(state, seat)
    built = benchmark(game.from_position, text, 1)
    assert game.describe(built, seat) == game.describe(state, seat)
