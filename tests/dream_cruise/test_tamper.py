"""Dream Cruise under the tamper fuzzer (``tests/tamper.py``): card sets whose location
cards run out at once (C20), every flag flipped at every position, refused or played out
identically in both cores. The cross-game sweeps are in tests/test_tamper.py."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.dream_cruise import CardSet
from tests.support import configuration_id
from tests.tamper import check_tampered, flips, positions


def few_locations(n: int) -> CardSet:
    """The standard Dream Cruise cards with only the first ``n`` location cards and 25 families
    besides the starting ones (enough for any player count): the location deck runs out in
    round 1, or in round 2 of a solo game with 5 (C20)."""
    std = CardSet.standard()
    families = (*(f for f in std.families if f.start is not None), *[f for f in std.families if f.start is None][:25])
    return CardSet(name=f"{n}-locations", families=families, locations=std.locations[:n], ships=std.ships)


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
