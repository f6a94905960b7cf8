"""What Atlantic Star declares for the integrations (cruiselib.integration)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cruiselib.errors import InvalidOptionError
from cruiselib.integration import (
    OpenSpielSpec,
    SearchDefaults,
    WebBoard,
    int_parameter,
    ints_parameter,
    path_parameter,
    path_value,
    text_parameter,
)

PLAYER_COUNTS = (2, 3, 4, 5, 6)
EXAMPLE_CONFIGURATIONS: tuple[Mapping[str, Any], ...] = (
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
)


def _options(p: Mapping[str, Any]) -> dict[str, Any]:
    board_text = text_parameter(p["board"], "board").strip()
    board: tuple[tuple[int, ...], ...] | None = None
    if board_text:
        board = tuple(ints_parameter(cls.strip(), "board") for cls in board_text.split(";"))
    return {
        "players": int_parameter(p["players"], "players"),
        "ships": path_parameter(p["ships"], "ships"),
        "board": board,
    }


def _max_length(game: Any) -> int:
    """Per seat with S plaque sets (2 with 2-3 players, else 1): 4 S voyages; charters at most
    the 18 S ships they play plus 2 left in hand (A6); loans at most 4 (once per sea, A9);
    refreshes at most (start money + 40,000 of loans) / 2,000, loans being the only income."""
    n = int(game.num_players)
    sets = 2 if n <= 3 else 1
    start = 36_000 if n <= 3 else 18_000
    per_seat = 4 * sets + (18 * sets + 2) + 4 + (start + 40_000) // 2_000
    return n * per_seat


def _board_value(value: Any) -> str:
    if isinstance(value, str) or value is None:
        return value or ""
    if not isinstance(value, Sequence) or not all(isinstance(cls, Sequence) for cls in value):
        raise InvalidOptionError(f"board is a sequence of classes, each a sequence of ints, or a string, not {value!r}")
    return ";".join("/".join(str(v) for v in cls) for cls in value)


OPENSPIEL = OpenSpielSpec(
    parameters={"players": 4, "ships": "", "board": "", "seed": 0},
    options=_options,
    max_length=_max_length,
    zero_sum=lambda game: False,  # a shared win gives +1 to several seats (A8)
    to_parameter={"ships": path_value, "board": _board_value},
)

# The score margin's share in a search's returns: a rollout's winner alone says little
# here (docs/bots.md).
SEARCH = SearchDefaults(score_weight=0.5)

WEB = WebBoard(drawer=("cruiselib.atlantic_star", "board.js"))
