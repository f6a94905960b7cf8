"""ISMCTS in the core: iterations per second from each game's opening (2 players).

    pytest benchmarks/test_bench_ismcts.py --benchmark-only

One search of a fixed number of iterations per round (determinize, select, expand, a rollout
to the end, backpropagate), on the compiled core and on its pure-Python twin; the rollouts
are the game's rollout policy (Atlantic Star, Dream Cruise) or random, and beside those two
the same search with random rollouts.
"""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.conftest import modes
from cruiselib.bots import ISMCTSBot

ITERATIONS = 200
GAMES = {name: modes(name, players=2) for name in ("sirens", "dream_islands", "atlantic_star", "dream_cruise")}
CASES = [(name, mode) for name, by_mode in GAMES.items() for mode in by_mode]


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_ismcts_opening(benchmark: Any, name: str, mode: str) -> None:
    benchmark.group = f"{name}: ISMCTS search from the opening, {ITERATIONS} iterations"
    state = GAMES[name][mode].new_state(seed=1)
    bot = ISMCTSBot(iterations=ITERATIONS, seed=1)
    benchmark(bot.analyse, state)
    assert bot.last_iterations == ITERATIONS
    benchmark.extra_info["iterations"] = ITERATIONS


@pytest.mark.parametrize("name", ["atlantic_star", "dream_cruise"])
def test_ismcts_opening_random_rollouts(benchmark: Any, name: str) -> None:
    """The same search with uniformly random rollouts and win/loss returns, beside the
    game's rollout policy and score weight above (compiled)."""
    benchmark.group = f"{name}: ISMCTS search from the opening, random rollouts, {ITERATIONS} iterations"
    if "compiled" not in GAMES[name]:
        pytest.skip("measured on the compiled core")
    state = GAMES[name]["compiled"].new_state(seed=1)
    bot = ISMCTSBot(iterations=ITERATIONS, seed=1, rollout="random", score_weight=0.0)
    benchmark(bot.analyse, state)
    assert bot.last_iterations == ITERATIONS
    benchmark.extra_info["iterations"] = ITERATIONS
