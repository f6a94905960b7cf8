"""Dream Cruise under the tamper fuzzer (``tests/tamper.py``) beyond its example
configurations: the sea-card ship draw (C2), one addition space (C6), and card sets whose
location cards run out at once (C20). A tampered snapshot is refused or plays out
identically in both cores. The cross-game campaigns are in tests/test_tamper.py."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cruiselib
from cruiselib.dream_cruise import CardSet
from tests.support import configuration_id
from tests.tamper import check_tampered, flips, mutation, positions


def few_locations(n: int) -> CardSet:
    """The standard Dream Cruise cards with only the first ``n`` location cards and 25 families
    besides the starting ones (enough for any player count): the location deck runs out in
    round 1, or in round 2 of a solo game with 5 (C20)."""
    std = CardSet.standard()
    families = (*(f for f in std.families if f.start is not None), *[f for f in std.families if f.start is None][:25])
    return CardSet(name=f"{n}-locations", families=families, locations=std.locations[:n], ships=std.ships)


TAMPER_CONFIGURATIONS: list[dict[str, Any]] = [
    {"players": 2, "sea_ship_draw": True},
    {"players": 4, "additions": 1},
    {"players": 3, "cards": few_locations(5)},
]
"""Options of the rule variants the example configurations leave out; scripts/tamper_fuzz.py
runs long campaigns on them too (a game's ``tests/<game>/test_tamper.py`` may name such)."""
TAMPER_IDS = [configuration_id("dream_cruise", options) for options in TAMPER_CONFIGURATIONS]


@cache
def _setup(index: int) -> tuple[Any, Any, list[dict[str, Any]]]:
    game = cruiselib.make("dream_cruise", **TAMPER_CONFIGURATIONS[index])
    return game, game.pure_twin(), positions(game, n_games=3, seed=index)


@pytest.mark.parametrize("index", range(len(TAMPER_CONFIGURATIONS)), ids=TAMPER_IDS)
def test_C2_C6_C20_tampered_snapshots_are_refused_or_play_out_identically(index: int) -> None:
    game, twin, trees = _setup(index)

    @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        tree = data.draw(st.sampled_from(trees), label="position")
        description, tampered = data.draw(mutation(tree), label="mutation")
        check_tampered(game, twin, tampered, f"{game!r}: {description}")

    run()


FEW_LOCATIONS: list[dict[str, Any]] = [
    {"players": n, "cards": few_locations(k)} for k in (1, 5) for n in cruiselib.make("dream_cruise").player_counts
]


@pytest.mark.slow
@pytest.mark.parametrize("options", FEW_LOCATIONS, ids=[configuration_id("dream_cruise", o) for o in FEW_LOCATIONS])
def test_C20_every_flag_flipped_where_the_locations_run_out_is_refused_or_plays_out_identically(
    options: dict[str, Any],
) -> None:
    # A round whose location cards ran out, marked not the last, played on into a round
    # that no longer loaded: the flags of such rounds, each flipped in turn.
    game = cruiselib.make("dream_cruise", **options)
    twin = game.pure_twin()
    schema = msgspec.json.schema(game.state_data_type)
    tried = 0
    for tree in positions(game, n_games=10, seed=300, every=1):
        for description, tampered in flips(tree, schema):
            check_tampered(game, twin, tampered, f"{configuration_id('dream_cruise', options)}: {description}")
            tried += 1
    assert tried > 0
