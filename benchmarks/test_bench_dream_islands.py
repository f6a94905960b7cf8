"""Dream Islands benchmarks: move enumeration, mission check and step (the operations every
game measures, loading, playouts, views, resampling and tensors, are in
``test_bench_games.py``).

    pytest benchmarks/test_bench_dream_islands.py --benchmark-only

Each benchmark runs once per core (compiled, pure) so the ratio is measured in one run;
``benchmarks/report.py`` turns the JSON output into the tables of docs/performance.md. Targets (one
core): every distinct move of a crowded mid-game position with six movable pieces and
the number 5 in under 5 us; in-core random 4-player games at 20,000 games/s or more;
compiled at least 50x the pure-Python core; ``load_state()`` of mid-game JSON within 2.5x
of msgspec's own typed decode of the same bytes; compiled, ``view()`` under 2 us,
``resample()`` under 3 us, ``observation(out=buf)`` under 1 us.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from benchmarks.conftest import (
    modes,
)
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
