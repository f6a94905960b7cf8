"""The tamper fuzzer on every game (``tests/tamper.py``): states reached by play, one field
changed, and the engine either refuses the snapshot or plays it out identically in both cores.

A short campaign per configuration; ``scripts/tamper_fuzz.py`` runs long ones. The slow sweeps
move every integer of a few positions by one or two, and set it to the schema's bounds and
just below them, each in turn.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cruiselib
from tests.tamper import check_tampered, mutation, near_the_top, nudges, positions, schema_maxima

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("sirens", {}),
    ("sirens", {"variant": "bow_to_rear"}),
    ("dream_islands", {"players": 2}),
    ("dream_islands", {"players": 4}),
    ("atlantic_star", {"players": 2}),
    ("atlantic_star", {"players": 5}),
    ("dream_cruise", {"players": 1}),
    ("dream_cruise", {"players": 3}),
]
TAMPER = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), database=None)


@cache
def _setup(index: int) -> tuple[Any, Any, list[dict[str, Any]]]:
    name, options = CONFIGS[index]
    game = cruiselib.make(name, **options)
    return game, game.pure_twin(), positions(game, n_games=3, seed=index)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_tampered_snapshots_are_refused_or_play_out_identically(index: int) -> None:
    game, twin, trees = _setup(index)

    @TAMPER
    @given(st.data())
    def run(data: st.DataObject) -> None:
        tree = data.draw(st.sampled_from(trees), label="position")
        description, tampered = data.draw(mutation(tree), label="mutation")
        check_tampered(game, twin, tampered, f"{game!r}: {description}")

    run()


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_every_integer_one_or_two_off_is_refused_or_plays_out_identically(index: int) -> None:
    # Every count, id and flag-like integer of states reached by play, moved by -2..+2 in turn:
    # the off-by-a-little changes a random campaign reaches rarely (a card count under a
    # pile that the rest of the turn pushes past its bound was one).
    game, twin, _ = _setup(index)
    for tree in positions(game, n_games=2, seed=100 + index, every=9):
        for description, tampered in nudges(tree):
            check_tampered(game, twin, tampered, f"{game!r}: {description}")


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_every_integer_at_a_schema_bound_is_refused_or_plays_out_identically(index: int) -> None:
    # Every integer of states reached by play set to each bound of the snapshot schema and
    # just below it: a round counter loaded at 98 of 100 that play took past 100 was one.
    game, twin, _ = _setup(index)
    maxima = schema_maxima(msgspec.json.schema(game.state_data_type))
    for tree in positions(game, n_games=2, seed=200 + index, every=9):
        for description, tampered in near_the_top(tree, maxima):
            check_tampered(game, twin, tampered, f"{game!r}: {description}")
