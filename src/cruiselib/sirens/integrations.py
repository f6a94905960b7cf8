"""What Sirens in Sight declares for the integrations (cruiselib.integration)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cruiselib.integration import (
    OpenSpielSpec,
    SearchDefaults,
    WebBoard,
    WebOption,
    int_parameter,
    path_parameter,
    path_value,
    text_parameter,
)

PLAYER_COUNTS = (2,)
EXAMPLE_CONFIGURATIONS: tuple[Mapping[str, Any], ...] = ({}, {"variant": "bow_to_rear"})
VARIANTS = ("standard", "bow_to_rear")  # S9


def _options(p: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "players": int_parameter(p["players"], "players"),
        "variant": text_parameter(p["variant"], "variant"),
        "cards": path_parameter(p["cards"], "cards"),
    }


def _max_length(game: Any) -> int:
    """Every card is played at most once, and each octopus is used at most 6 times (once,
    then once more each time a ship card scores and returns it, S6, five ship cards): at
    most M = C + 12 main actions. Each is followed by at most one crew decision (S5) and one
    "after" decision (S13, only while holding the rum mug); a main-phase rum mug is used
    at most once per seat (2); passes reset on every main action and two in a row end the
    game (S4, S17), so at most M + 2; picks 8 (S9). Total 4 M + 12."""
    main = len(game.cards.cards) + 12
    return 4 * main + 12


OPENSPIEL = OpenSpielSpec(
    parameters={"players": 2, "variant": "standard", "cards": "", "seed": 0},
    options=_options,
    max_length=_max_length,
    zero_sum=lambda game: True,  # +1/-1 for a win, 0/0 for a draw (S8)
    always_zero_sum=True,
    to_parameter={"cards": path_value},
)

SEARCH = SearchDefaults()

WEB = WebBoard(
    drawer=("cruiselib.sirens", "board.js"),
    options=(WebOption("variant", "variant", VARIANTS),),
)
