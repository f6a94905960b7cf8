"""Dream Islands benchmarks: move enumeration, mission check, step, loading, playouts, views,
resampling and observation tensors.

    pytest benchmarks/test_bench_dream_islands.py --benchmark-only

Each benchmark runs once per core (compiled, pure) so the ratio is measured in one run;
``benchmarks/report.py`` turns the JSON output into the README's table. Targets (one
core): every distinct move of a crowded mid-game position with six movable pieces and
the number 5 in under 5 us; in-core random 4-player games at 20,000 games/s or more;
compiled at least 50x the pure-Python core; ``load_state()`` of mid-game JSON within 2.5x
of msgspec's own typed decode of the same bytes (the pair of benchmarks below); compiled,
``view()`` under 2 us, ``resample()`` under 3 us, ``observation(out=buf)`` under 1 us.
"""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import numpy as np
import pytest

from benchmarks.conftest import modes
from cruiselib.dream_islands import DreamIslandsStateData

GAMES = modes("dream_islands", players=4)
MODES = list(GAMES)


def crowded(game: Any) -> Any:
    """Seat 0 to move with six movable pieces spread over the airplane and the ring, the
    other seats' pieces crowding the same islands, 5 uncovered. Set up by hand, so not a
    position play reaches in round 0: loaded with every consistency check but without the
    checks of what the turns played allow, as the rule tests do."""
    data = json.loads(game.new_state(seed=1).to_json())
    data["pieces"] = [
        [2, 0, 1, 0, 1, 0, 1, 0, 1],
        [1, 1, 1, 0, 2, 0, 0, 1, 0],
        [0, 0, 2, 1, 0, 1, 1, 1, 0],
        [1, 1, 0, 1, 0, 2, 0, 0, 1],
    ]
    state = game._state_class(game.rules, game)
    state._load(msgspec.convert(data, DreamIslandsStateData), False)
    assert state.count_moves(5) == 130
    return state


def midgame(game: Any, seed: int = 3, steps: int = 30) -> Any:
    state = game.new_state(seed=seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        state.apply(rnd.choice(state.legal_actions()))
    while state.phase_name != "move":
        state.apply(rnd.choice(state.legal_actions()))
    assert not state.is_over
    return state


@pytest.mark.parametrize("mode", MODES)
def test_enumerate_moves_of_5(benchmark: Any, mode: str) -> None:
    """Every distinct move of the number 5 (I3), six movable pieces, in the core."""
    benchmark.group = "dream_islands: enumerate the distinct moves of 5, six movable pieces"
    state = crowded(GAMES[mode])
    n = benchmark(state.count_moves, 5)
    benchmark.extra_info["moves"] = n


@pytest.mark.parametrize("mode", MODES)
def test_legal_actions(benchmark: Any, mode: str) -> None:
    benchmark.group = "dream_islands: legal_actions() crowded position (4 numbers)"
    state = crowded(GAMES[mode])
    result = benchmark(state.legal_actions)
    benchmark.extra_info["legal_actions"] = len(result)


@pytest.mark.parametrize("mode", MODES)
def test_mission_check(benchmark: Any, mode: str) -> None:
    """Which of the 16 missions hold for a seat (I4)."""
    benchmark.group = "dream_islands: mission check (16 missions, one seat)"
    state = crowded(GAMES[mode])
    benchmark(state.mission_mask, 0)


@pytest.mark.parametrize("mode", MODES)
def test_step(benchmark: Any, mode: str) -> None:
    """apply() of a cover-and-move action: move, middle, missions (I5), phase change."""
    benchmark.group = "dream_islands: apply() cover-and-move"
    state = crowded(GAMES[mode])
    action = state.legal_actions()[-1]
    benchmark.pedantic(
        lambda s: s.apply(action), setup=lambda: ((state.clone(),), {}), rounds=20000 if mode == "compiled" else 2000
    )


@pytest.mark.parametrize("mode", MODES)
def test_clone(benchmark: Any, mode: str) -> None:
    benchmark.group = "dream_islands: clone() mid-game"
    benchmark(midgame(GAMES[mode]).clone)


@pytest.mark.parametrize("mode", MODES)
def test_load_state_json(benchmark: Any, mode: str) -> None:
    """load_state() of mid-game JSON bytes: typed decode, validation in the core, loading."""
    benchmark.group = "dream_islands: load_state() mid-game JSON"
    game = GAMES[mode]
    data = midgame(game).to_json().encode()
    loaded = benchmark(game.load_state, data)
    assert loaded.to_json().encode() == data


def test_msgspec_typed_decode(benchmark: Any) -> None:
    """msgspec's own typed decode of the same bytes: the floor load_state() is measured against."""
    benchmark.group = "dream_islands: msgspec typed decode, same bytes"
    data = midgame(GAMES[MODES[0]]).to_json().encode()
    decoded = benchmark(msgspec.json.decode, data, type=DreamIslandsStateData)
    assert decoded.game == "dream_islands"


@pytest.mark.parametrize("mode", MODES)
def test_python_random_game(benchmark: Any, mode: str) -> None:
    """A whole 4-player game driven from Python: legal_actions() + random.choice + apply()."""
    benchmark.group = "dream_islands: Python loop, one random 4-player game"
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

    benchmark(one_game)


@pytest.mark.parametrize("mode", MODES)
def test_playouts(benchmark: Any, mode: str) -> None:
    """game.playouts(n): random 4-player games entirely in the core."""
    benchmark.group = "dream_islands: game.playouts(n) in the core, 4 players"
    game = GAMES[mode]
    n = 200
    result = benchmark(game.playouts, n, 1)
    benchmark.extra_info["games"] = n
    benchmark.extra_info["actions"] = result.actions


def observer(state: Any) -> int:
    """The seat after the one to move: a view without the mover's list of legal actions."""
    return int((state.current_player + 1) % state.game.num_players)


@pytest.mark.parametrize("mode", MODES)
def test_view(benchmark: Any, mode: str) -> None:
    """view(seat) of a seat not to move, built by the core from its arrays."""
    benchmark.group = "dream_islands: view() mid-game"
    state = midgame(GAMES[mode])
    view = benchmark(state.view, observer(state))
    assert view.player == observer(state)


@pytest.mark.parametrize("mode", MODES)
def test_resample(benchmark: Any, mode: str) -> None:
    """resample(seat, seed): a copy with every card the seat cannot see dealt anew (I13)."""
    benchmark.group = "dream_islands: resample() mid-game"
    state = midgame(GAMES[mode])
    seat = observer(state)
    other = benchmark(state.resample, seat, 12345)
    assert other.view(seat) == state.view(seat)


@pytest.mark.parametrize("mode", MODES)
def test_observation_into_buffer(benchmark: Any, mode: str) -> None:
    """observation(seat, out=buf): the seat's tensor written into a buffer, no allocation."""
    benchmark.group = "dream_islands: observation(out=buf) mid-game"
    game = GAMES[mode]
    state = midgame(game)
    buf = np.zeros(game.observation_shape, dtype=np.float32)
    out = benchmark(state.observation, observer(state), buf)
    assert out is buf
