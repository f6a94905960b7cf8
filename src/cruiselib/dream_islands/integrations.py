"""What Dream Islands declares for the integrations (cruiselib.integration)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cruiselib.dream_islands.moves import MISSIONS
from cruiselib.dream_islands.schema import ROUND_CAP
from cruiselib.errors import InvalidOptionError
from cruiselib.integration import OpenSpielSpec, SearchDefaults, WebBoard, int_parameter

PLAYER_COUNTS = (2, 3, 4)
EXAMPLE_CONFIGURATIONS: tuple[Mapping[str, Any], ...] = ({"players": 2}, {"players": 3}, {"players": 4})

OPENSPIEL_MAX_ROUNDS = 100
"""Default ``max_rounds`` of ``cruiselib_dream_islands``: the printed game has no limit (I9),
and OpenSpiel needs a finite game length; random play ends after about 12 rounds."""

_INT_MAX = 2**31 - 1  # OpenSpiel keeps parameters and the game length in C ints


def _options(p: Mapping[str, Any]) -> dict[str, Any]:
    players = int_parameter(p["players"], "players")
    rounds = int_parameter(p["max_rounds"], "max_rounds")
    if players in PLAYER_COUNTS:  # else cruiselib.make names the player counts
        top = _INT_MAX // (4 * players)
        if not 1 <= rounds <= top:
            raise InvalidOptionError(
                f"max_rounds is 1..{top} for {players} players (a game length OpenSpiel's ints hold), not {rounds}"
            )
    return {"players": players, "max_rounds": rounds}


def _max_length(game: Any) -> int:
    """A turn is one cover, then at most three cards put under the pile (the third draws at
    once, I12) or two and the draw: at most 4 actions; the game ends after ``max_rounds``
    complete rounds of ``players`` turns (I9; without max_rounds, after ROUND_CAP, I15)."""
    rounds = game.max_rounds if game.max_rounds is not None else ROUND_CAP
    return 4 * int(game.num_players) * int(rounds)


def _finite_rounds(value: Any) -> Any:
    if value is None:
        raise InvalidOptionError(
            "OpenSpiel needs a bound on the game's length: "
            f"max_rounds is an int (default {OPENSPIEL_MAX_ROUNDS}), not None"
        )
    return value


OPENSPIEL = OpenSpielSpec(
    parameters={"players": 4, "max_rounds": OPENSPIEL_MAX_ROUNDS, "seed": 0},
    options=_options,
    max_length=_max_length,
    zero_sum=lambda game: False,  # a shared win gives +1 to several seats (I7)
    to_parameter={"max_rounds": _finite_rounds},
    unbounded={"max_rounds": 0},  # no round limit (I9), written as 0
)

SEARCH = SearchDefaults()


def _catalog(game: Any) -> dict[str, Any]:
    from cruiselib.dream_islands.game import SMALL_VALUES

    return {"missions": list(MISSIONS), "small_island_values": list(SMALL_VALUES)}


WEB = WebBoard(drawer=("cruiselib.dream_islands", "board.js"), catalog=_catalog)
