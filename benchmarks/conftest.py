"""Benchmark helpers: every benchmark runs on the compiled core and on its pure-Python twin
in the same process, grouped side by side (``--benchmark-group-by=group``)."""

from __future__ import annotations

import os
import random
from typing import Any

# numpy's BLAS threads would only compete with the one core being measured.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import msgspec
import numpy as np

import cruiselib


def modes(name: str, **options: Any) -> dict[str, Any]:
    """The game on each core available here: {"compiled": game, "pure": twin}."""
    game = cruiselib.make(name, **options)
    if not cruiselib.compiled:
        return {"pure": game}
    return {"compiled": game, "pure": game.pure_twin()}


# --- benchmark bodies every game measures the same way --------------------------------
# Each takes the game's name for the group ("<name>: view() mid-game", ...), so the groups
# (and the tables of docs/performance.md) read the same for every game.


def observer(state: Any) -> int:
    """The seat after the one to move: a view without the mover's list of legal actions."""
    return int((state.current_player + 1) % state.game.num_players)


def bench_load_state(benchmark: Any, name: str, state: Any) -> None:
    """load_state() of mid-game JSON bytes: typed decode, validation in the core, loading."""
    benchmark.group = f"{name}: load_state() mid-game JSON"
    data = state.to_json().encode()
    loaded = benchmark(state.game.load_state, data)
    assert loaded.to_json().encode() == data


def bench_typed_decode(benchmark: Any, name: str, state: Any) -> None:
    """msgspec's own typed decode of the same bytes: the floor load_state() is measured against."""
    benchmark.group = f"{name}: msgspec typed decode, same bytes"
    data = state.to_json().encode()
    decoded = benchmark(msgspec.json.decode, data, type=state.game.state_data_type)
    assert decoded.game == name


def bench_python_random_game(benchmark: Any, group: str, game: Any) -> None:
    """A whole game driven from Python: legal_actions() + random.choice + apply()."""
    benchmark.group = group
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

    benchmark(one_game)


def bench_view(benchmark: Any, name: str, state: Any) -> None:
    """view(seat) of a seat not to move, built by the core from its arrays."""
    benchmark.group = f"{name}: view() mid-game"
    view = benchmark(state.view, observer(state))
    assert view.player == observer(state)


def bench_resample(benchmark: Any, name: str, state: Any) -> None:
    """resample(seat, seed): a copy with every card the seat cannot see dealt anew."""
    benchmark.group = f"{name}: resample() mid-game"
    seat = observer(state)
    other = benchmark(state.resample, seat, 12345)
    assert other.view(seat) == state.view(seat)


def bench_observation(benchmark: Any, name: str, state: Any) -> None:
    """observation(seat, out=buf): the seat's tensor written into a buffer, no allocation."""
    benchmark.group = f"{name}: observation(out=buf) mid-game"
    buf = np.zeros(state.game.observation_shape, dtype=np.float32)
    out = benchmark(state.observation, observer(state), buf)
    assert out is buf
