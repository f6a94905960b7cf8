"""Sirens in Sight benchmarks: legal actions, a step, a JSON round trip, playouts over
threads and from a position (the operations every game measures, loading, a Python-driven
random game, in-core playouts, views, resampling and tensors, are in ``test_bench_games.py``).

    pytest benchmarks/test_bench_sirens.py --benchmark-only

Each benchmark runs once per core (compiled, pure) so the ratio is measured in one run;
``benchmarks/report.py`` turns the JSON output into the tables of docs/performance.md.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from benchmarks.conftest import modes

GAMES = modes("sirens")
MODES = list(GAMES)


def midgame(game: Any, seed: int = 3, steps: int = 20) -> Any:
    """A position after ``steps`` random actions: cards on the ship, octopus moves available."""
    state = game.new_state(seed=seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        state.apply(rnd.choice(state.legal_actions()))
    assert not state.is_over
    return state


@pytest.mark.parametrize("mode", MODES)
def test_legal_actions(benchmark: Any, mode: str) -> None:
    benchmark.group = "sirens: legal_actions() mid-game"
    state = midgame(GAMES[mode])
    result = benchmark(state.legal_actions)
    benchmark.extra_info["legal_actions"] = len(result)


@pytest.mark.parametrize("mode", MODES)
def test_apply(benchmark: Any, mode: str) -> None:
    benchmark.group = "sirens: apply() mid-game"
    state = midgame(GAMES[mode])
    action = state.legal_actions()[0]
    benchmark.pedantic(
        lambda s: s.apply(action), setup=lambda: ((state.clone(),), {}), rounds=20000 if mode == "compiled" else 2000
    )


@pytest.mark.parametrize("mode", MODES)
def test_json_round_trip(benchmark: Any, mode: str) -> None:
    benchmark.group = "sirens: to_json() + load_state() mid-game"
    game = GAMES[mode]
    state = midgame(game)
    loaded = benchmark(lambda: game.load_state(state.to_json()))
    assert loaded == state


@pytest.mark.parametrize("threads", [1, 2])
def test_playouts_threads(benchmark: Any, threads: int) -> None:
    """game.playouts(n, threads=k): the batch split over k threads, the GIL released."""
    if "compiled" not in GAMES:
        pytest.skip("threads speed up the compiled core only")
    benchmark.group = f"sirens: game.playouts(4,000), {threads} thread{'s' if threads > 1 else ''}"
    game = GAMES["compiled"]
    n = 4000
    result = benchmark(game.playouts, n, 1, threads=threads)
    benchmark.extra_info["games"] = n
    benchmark.extra_info["actions"] = result.actions


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [0, 1, 1000])
def test_state_playouts(benchmark: Any, mode: str, n: int) -> None:
    """state.playouts(n) from a mid-game position: n=0 is the cost of the call alone, and
    playouts(1) minus a thousandth of playouts(1000) the call's cost beyond the game."""
    if n == 1000 and mode == "pure":
        pytest.skip("a thousand pure-Python games per round: too slow to be useful")
    benchmark.group = f"sirens: state.playouts({n}) from mid-game" + (" (the call alone)" if n == 0 else "")
    state = midgame(GAMES[mode])
    result = benchmark(state.playouts, n, 1)
    if n:
        benchmark.extra_info["actions"] = result.actions
        benchmark.extra_info["games"] = n
