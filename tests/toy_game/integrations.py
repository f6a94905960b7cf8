"""What Toy Duel declares for the integrations (cruiselib.integration)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cruiselib.integration import OpenSpielSpec, SearchDefaults, WebBoard, WebOption, int_parameter

PLAYER_COUNTS: tuple[int, ...] = (2,)
EXAMPLE_CONFIGURATIONS: tuple[Mapping[str, Any], ...] = ({"players": 2},)
SEARCH = SearchDefaults()


def _options(p: Mapping[str, Any]) -> dict[str, Any]:
    return {"players": int_parameter(p["players"], "players")}


OPENSPIEL = OpenSpielSpec(
    parameters={"players": 2, "seed": 0},
    options=_options,
    max_length=lambda game: 12,  # T5: six tricks of two cards
    zero_sum=lambda game: True,  # one winner and one loser, or a draw
    always_zero_sum=True,
)


def _catalog(game: Any) -> dict[str, Any]:
    return {"values": [k + 1 for k in range(game.num_actions)]}


WEB = WebBoard(
    drawer=("tests.toy_game", "board.js"),
    catalog=_catalog,
    options=(WebOption("players", "players", (2,)),),
)
