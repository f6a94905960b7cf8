"""What Dream Cruise declares for the integrations (cruiselib.integration)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from cruiselib.integration import (
    OpenSpielSpec,
    SearchDefaults,
    WebBoard,
    WebOption,
    bool_parameter,
    int_parameter,
    ints_parameter,
    ints_value,
    path_parameter,
    path_value,
    text_parameter,
)

PLAYER_COUNTS = (1, 2, 3, 4)
EXAMPLE_CONFIGURATIONS: tuple[Mapping[str, Any], ...] = (
    {"players": 1},
    {"players": 2},
    {"players": 3},
    {"players": 4},
)


def _options(p: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "players": int_parameter(p["players"], "players"),
        "route_points": ints_parameter(text_parameter(p["route_points"], "route_points"), "route_points"),
        "sea_ship_draw": bool_parameter(p["sea_ship_draw"], "sea_ship_draw"),
        "additions": int_parameter(p["additions"], "additions"),
        "difficulty": int_parameter(p["difficulty"], "difficulty"),
        "cards": path_parameter(p["cards"], "cards"),
    }


def _rounds(game: Any) -> int:
    """A bound on the rounds: every round but the last keeps a location card per seat for good
    (C4; in solo Jana takes the two others too, C9), and a round that cannot draw three cards
    per seat is the last (C20)."""
    n = int(game.num_players)
    locations = len(game.cards.locations)
    leave = 3 if n == 1 else n
    if locations < 3 * n:
        return 1
    return (locations - 3 * n) // leave + 2


def _max_length(game: Any) -> int:
    """Per seat and round: 3 boardings, 1 keep, 1 take, 2 plans (a shore card's bottom or a
    sea card's two slots), 1 captain, 1 done, and 3 guests per spot (one per colour, C13) on
    3 + K spots; every build pays 2 of the at most 3 cards a round brings (a set of 2, one
    more with C2), and a replacing build frees 3 more guest places: 4 actions per build,
    1.5 builds a round. Total rounds * players * (24 + 3 K)."""
    per_round = 24 + 3 * int(game.additions)
    return _rounds(game) * int(game.num_players) * per_round


OPENSPIEL = OpenSpielSpec(
    parameters={
        "players": 4,
        "route_points": "1/3/6/9",
        "sea_ship_draw": False,
        "additions": 2,
        "difficulty": 0,
        "cards": "",
        "seed": 0,
    },
    options=_options,
    max_length=_max_length,
    # One winner with 2-4 players (C8): zero-sum for 2 only; solo is +1 or -1 (C9).
    zero_sum=lambda game: int(game.num_players) == 2,
    to_parameter={"route_points": lambda value: ints_value(value, "route_points"), "cards": path_value},
)

# The score margin's share in a search's returns (a rollout's winner alone says little
# here), and the root's shortlist: the rule-based bot boards families (phase 1) and places
# guests (phase 4) better than the search, which is better at choosing location cards and
# display sets (docs/bots.md): in those two phases the bot plays the rule-based bot's move.
SEARCH = SearchDefaults(score_weight=0.5, shortlist={"boarding": 1, "set_sail": 1})


def _catalog(game: Any) -> dict[str, Any]:
    cards = msgspec.to_builtins(game.cards)
    # solo_options: the options the page offers for the solo game alone (Jana's difficulty, C9).
    return {
        "families": cards["families"],
        "locations": cards["locations"],
        "ships": cards["ships"],
        "solo_options": ["difficulty"],
    }


WEB = WebBoard(
    drawer=("cruiselib.dream_cruise", "board.js"),
    catalog=_catalog,
    options=(WebOption("difficulty", "Jana's difficulty", (0, 1, 2, 3)),),
)
