"""The tamper fuzzer on every game (``tests/tamper.py``): states reached by play, one field
changed, and the engine either refuses the snapshot or plays it out identically in both cores.

A short campaign per configuration; ``scripts/tamper_fuzz.py`` runs long ones. The slow sweeps
move every integer of a few positions by one or two, and set it to the schema's bounds and
just below them, each in turn; and flip every flag at every position of a few games of every
game and player count.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cruiselib
from tests.support import CONFIGURATION_IDS, CONFIGURATIONS, configuration_id, every_configuration
from tests.tamper import (
    check_encoded,
    check_tampered,
    encoded,
    flips,
    mutation,
    near_the_top,
    nudge_edits,
    nudges,
    positions,
    schema_maxima,
    top_edits,
)

TAMPER = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), database=None)


@cache
def _setup(index: int) -> tuple[Any, Any, list[dict[str, Any]]]:
    name, options = CONFIGURATIONS[index]
    game = cruiselib.make(name, **options)
    return game, game.pure_twin(), positions(game, n_games=3, seed=index)


@pytest.mark.parametrize("index", range(len(CONFIGURATIONS)), ids=CONFIGURATION_IDS)
def test_tampered_snapshots_are_refused_or_play_out_identically(index: int) -> None:
    game, twin, trees = _setup(index)

    @TAMPER
    @given(st.data())
    def run(data: st.DataObject) -> None:
        tree = data.draw(st.sampled_from(trees), label="position")
        description, tampered = data.draw(mutation(tree), label="mutation")
        check_tampered(game, twin, tampered, f"{game!r}: {description}")

    run()


@pytest.mark.parametrize("index", range(len(CONFIGURATIONS)), ids=CONFIGURATION_IDS)
def test_the_sweeps_encodings_are_those_of_their_trees(index: int) -> None:
    # The slow sweeps below check each change from the bytes ``encoded`` splices together:
    # they must be exactly the JSON and MessagePack of the changed trees, described alike,
    # in the same order (here at a position from the middle of a game and at the last).
    game, _, trees = _setup(index)
    maxima = schema_maxima(msgspec.json.schema(game.state_data_type))
    for tree in (trees[len(trees) // 2], trees[-1]):
        for spliced, built in (
            (encoded(tree, nudge_edits(tree)), nudges(tree)),
            (encoded(tree, top_edits(tree, maxima)), near_the_top(tree, maxima)),
        ):
            made = [(d, msgspec.json.encode(t), msgspec.msgpack.encode(t)) for d, t in built]
            assert made
            assert list(spliced) == made


# The integer sweeps' positions per configuration, at most: two games' every 9th position
# give 16 (Sirens) to 74 (Dream Cruise, 4 seats, whose longer games also make each accepted
# change play out longer); the longest take this many, spread evenly over both games from
# their first position to their last, so each game's phases are all still swept.
SWEPT_POSITIONS = 36


def spread(trees: list[dict[str, Any]], most: int = SWEPT_POSITIONS) -> list[dict[str, Any]]:
    """At most ``most`` of ``trees``, evenly spaced, the first and the last among them."""
    if len(trees) <= most:
        return trees
    return [trees[round(k * (len(trees) - 1) / (most - 1))] for k in range(most)]


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGURATIONS)), ids=CONFIGURATION_IDS)
def test_every_integer_one_or_two_off_is_refused_or_plays_out_identically(index: int) -> None:
    # Every count, id and flag-like integer of states reached by play, moved by -2..+2 in turn:
    # the off-by-a-little changes a random campaign reaches rarely (a card count under a
    # pile that the rest of the turn pushes past its bound was one).
    game, twin, _ = _setup(index)
    for tree in spread(positions(game, n_games=2, seed=100 + index, every=9)):
        for description, data, packed in encoded(tree, nudge_edits(tree)):
            check_encoded(game, twin, data, packed, f"{game!r}: {description}")


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGURATIONS)), ids=CONFIGURATION_IDS)
def test_every_integer_at_a_schema_bound_is_refused_or_plays_out_identically(index: int) -> None:
    # Every integer of states reached by play set to each bound of the snapshot schema and
    # just below it: a round counter loaded at 98 of 100 that play took past 100 was one.
    game, twin, _ = _setup(index)
    maxima = schema_maxima(msgspec.json.schema(game.state_data_type))
    for tree in spread(positions(game, n_games=2, seed=200 + index, every=9)):
        for description, data, packed in encoded(tree, top_edits(tree, maxima)):
            check_encoded(game, twin, data, packed, f"{game!r}: {description}")


def _has_flags(name: str, options: dict[str, Any]) -> bool:
    game = cruiselib.make(name, **options)
    schema = msgspec.json.schema(game.state_data_type)
    return any(True for tree in positions(game, n_games=2, seed=300, every=5) for _ in flips(tree, schema))


# Every configuration whose snapshot has a flag (a game without one has nothing to flip):
# the example configurations and every seat count.
FLIP_CONFIGS = [(name, options) for name, options in every_configuration() if _has_flags(name, options)]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options"), FLIP_CONFIGS, ids=[configuration_id(n, o) for n, o in FLIP_CONFIGS])
def test_every_flag_flipped_at_every_position_is_refused_or_plays_out_identically(
    name: str, options: dict[str, Any]
) -> None:
    # Every boolean and every 0..1 integer of the schema, flipped at every position of a few
    # games: a flag the position decides is the field a loader most easily takes as given
    # (a Dream Cruise round whose location cards ran out, marked not the last, played on into
    # a round that no longer loaded).
    game = cruiselib.make(name, **options)
    twin = game.pure_twin()
    schema = msgspec.json.schema(game.state_data_type)
    tried = 0
    for tree in positions(game, n_games=10, seed=300, every=1):
        for description, tampered in flips(tree, schema):
            check_tampered(game, twin, tampered, f"{configuration_id(name, options)}: {description}")
            tried += 1
    assert tried > 0
