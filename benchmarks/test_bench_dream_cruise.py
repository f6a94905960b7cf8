"""Dream Cruise benchmarks: route scoring, guest-placement enumeration and step (the
operations every game measures, loading, playouts, views, resampling and tensors, are in
``test_bench_games.py``).

    pytest benchmarks/test_bench_dream_cruise.py --benchmark-only

Each benchmark runs once per core (compiled, pure) so the ratio is measured in one run;
``benchmarks/report.py`` turns the JSON output into the tables of docs/performance.md. Targets (one
core): in-core random 4-player games at 5,000 games/s or more; route scoring of 8 location
cards with 3 sea cards under 1 us; the guest placements of a busy phase 4 under 2 us;
compiled at least 50x the pure-Python core for in-core playouts; ``load_state()`` of
mid-game JSON within 2.5x of msgspec's own typed decode of the same bytes.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from benchmarks.conftest import (
    modes,
)

GAMES = modes("dream_cruise", players=4)
MODES = list(GAMES)


def _play_until(game: Any, seed: int, done: Any) -> Any:
    """The first state of the seeded random game ``seed`` for which ``done(state)`` holds."""
    state = game.new_state(seed=seed)
    rnd = random.Random(seed)
    while not state.is_over:
        if done(state):
            return state
        state.apply(rnd.choice(state.legal_actions()))
    return None


def busy(game: Any) -> Any:
    """A phase-4 decision of a seeded random game with three families to place, two built
    additions and an activity card on the current location card: the most spots a seat has."""

    def ready(state: Any) -> bool:
        if state.phase != "set_sail":
            return False
        raw = state._get_raw()
        p = raw["cur"]
        return (
            all(f >= 0 for f in raw["cabins"][p])
            and all(x >= 0 for x in raw["additions"][p])
            and raw["slots"][p][0] >= 0
            and state.placement_count() >= 6
        )

    for seed in range(10_000):
        state = _play_until(game, seed, ready)
        if state is not None:
            return state
    raise AssertionError("no busy phase-4 position found")


def voyage(game: Any) -> Any:
    """A seat with 8 location cards kept, 3 of them sea cards (the route-scoring case)."""
    for seed in range(10_000):
        state = _play_until(game, seed, lambda s: _kept(s, 8, 3))
        if state is not None:
            return state
    raise AssertionError("no such position found")


def _kept(state: Any, cards: int, seas: int) -> bool:
    raw = state._get_raw()
    locations = state.game.cards.locations
    played = raw["played"][0]
    return len(played) == cards and sum(locations[x].kind == "sea" for x in played) == seas


@pytest.mark.parametrize("mode", MODES)
def test_route_scoring(benchmark: Any, mode: str) -> None:
    """Sailing routes of 8 location cards, 3 of them sea cards: the exact optimum (C1)."""
    benchmark.group = "dream_cruise: route scoring, 8 location cards with 3 sea cards"
    state = voyage(GAMES[mode])
    points = benchmark(state.route_points, 0)
    benchmark.extra_info["points"] = points


@pytest.mark.parametrize("mode", MODES)
def test_placements(benchmark: Any, mode: str) -> None:
    """Every legal guest placement of the seat to act in a busy phase 4 (icon, capacity,
    colour, captain; C4, C5, C12)."""
    benchmark.group = "dream_cruise: guest-placement enumeration, busy phase 4"
    state = busy(GAMES[mode])
    n = benchmark(state.placement_count)
    benchmark.extra_info["placements"] = n


@pytest.mark.parametrize("mode", MODES)
def test_legal_actions(benchmark: Any, mode: str) -> None:
    benchmark.group = "dream_cruise: legal_actions() busy phase 4"
    state = busy(GAMES[mode])
    result = benchmark(state.legal_actions)
    benchmark.extra_info["legal_actions"] = len(result)


@pytest.mark.parametrize("mode", MODES)
def test_step(benchmark: Any, mode: str) -> None:
    """apply() of "done" ending phase 4 of the last seat: disembarking, then the next round's
    boarding draws (C8, C11, C14)."""
    benchmark.group = "dream_cruise: apply() done, phase 5 and the next round"
    game = GAMES[mode]
    state = _play_until(game, 5, lambda s: s.phase == "set_sail" and s._get_raw()["turn"] == 3)
    done = game.rules.a_done
    benchmark.pedantic(
        lambda s: s.apply(done), setup=lambda: ((state.clone(),), {}), rounds=20000 if mode == "compiled" else 2000
    )
