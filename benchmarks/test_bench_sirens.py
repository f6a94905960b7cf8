"""Sirens in Sight benchmarks: the core operations, a Python-driven random game, in-core playouts.

    pytest benchmarks/test_bench_sirens.py --benchmark-only

Each benchmark runs once per core (compiled, pure) so the ratio is measured in one run;
``benchmarks/report.py`` turns the JSON output into the README's table.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import numpy as np
import pytest

from benchmarks.conftest import modes
from cruiselib.sirens import SirensStateData

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
def test_clone(benchmark: Any, mode: str) -> None:
    benchmark.group = "sirens: clone() mid-game"
    benchmark(midgame(GAMES[mode]).clone)


@pytest.mark.parametrize("mode", MODES)
def test_view(benchmark: Any, mode: str) -> None:
    """The seat to move's view (its legal actions included), built by the core."""
    benchmark.group = "sirens: view() mid-game"
    state = midgame(GAMES[mode])
    view = benchmark(state.view, state.current_player)
    benchmark.extra_info["legal_actions"] = len(view.legal_actions)


@pytest.mark.parametrize("mode", MODES)
def test_resample(benchmark: Any, mode: str) -> None:
    """A full state consistent with the seat to move's view, dealt from a seed (search)."""
    benchmark.group = "sirens: resample() mid-game"
    state = midgame(GAMES[mode])
    benchmark(state.resample, state.current_player, 7)


@pytest.mark.parametrize("mode", MODES)
def test_observation(benchmark: Any, mode: str) -> None:
    """The seat to move's observation tensor written into a buffer (no allocation)."""
    benchmark.group = "sirens: observation(out=buf) mid-game"
    game = GAMES[mode]
    state = midgame(game)
    buf = np.zeros(game.observation_shape, dtype=np.float32)
    benchmark(state.observation, state.current_player, buf)
    benchmark.extra_info["size"] = int(buf.shape[0])


@pytest.mark.parametrize("mode", MODES)
def test_json_round_trip(benchmark: Any, mode: str) -> None:
    benchmark.group = "sirens: to_json() + load_state() mid-game"
    game = GAMES[mode]
    state = midgame(game)
    loaded = benchmark(lambda: game.load_state(state.to_json()))
    assert loaded == state


@pytest.mark.parametrize("mode", MODES)
def test_python_random_game(benchmark: Any, mode: str) -> None:
    """A whole game driven from Python: legal_actions() + random.choice + apply()."""
    benchmark.group = "sirens: Python loop, one random game"
    game = GAMES[mode]
    seeds = iter(range(10**9))

    def one_game() -> int:
        seed = next(seeds)
        state = game.new_state(seed=seed)
        choice = random.Random(seed).choice
        n = 0
        while not state.is_over:
            state.apply(choice(state.legal_actions()))
            n += 1
        return n

    lengths = [one_game() for _ in range(50)]
    benchmark.extra_info["actions_per_game"] = sum(lengths) / len(lengths)
    benchmark(one_game)


@pytest.mark.parametrize("mode", MODES)
def test_playouts(benchmark: Any, mode: str) -> None:
    """game.playouts(n): random games entirely in the core."""
    benchmark.group = "sirens: game.playouts(n) in the core"
    game = GAMES[mode]
    n = 200
    result = benchmark(game.playouts, n, 1)
    benchmark.extra_info["games"] = n
    benchmark.extra_info["actions"] = result.actions


@pytest.mark.parametrize("mode", MODES)
def test_load_state(benchmark: Any, mode: str) -> None:
    """game.load_state() of mid-game JSON bytes: msgspec's typed decode plus the core's checks."""
    benchmark.group = "sirens: load_state() mid-game JSON"
    game = GAMES[mode]
    data = midgame(game).to_json().encode()
    loaded = benchmark(game.load_state, data)
    assert loaded.to_json().encode() == data


def test_msgspec_decode(benchmark: Any) -> None:
    """msgspec's own typed decode of the same bytes: the yardstick of load_state (within 2.5x)."""
    benchmark.group = "sirens: msgspec typed decode, same bytes"
    game = GAMES[MODES[0]]
    data = midgame(game).to_json().encode()
    decoder = msgspec.json.Decoder(SirensStateData)
    decoded = benchmark(decoder.decode, data)
    assert decoded == msgspec.json.decode(data, type=SirensStateData)


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
