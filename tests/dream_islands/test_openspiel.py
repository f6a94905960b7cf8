"""cruiselib.openspiel on Dream Islands: its registered type, its round limit (the option
OpenSpiel needs for a length bound, I9) and that bound (tests/test_openspiel.py holds what
every game shares)."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import cruiselib.openspiel as cos  # noqa: E402
from cruiselib.errors import InvalidOptionError  # noqa: E402
from tests.test_openspiel import (  # noqa: E402
    CONFIGS,
    check_length_bound,
    check_registered_game_type,
    ids,
)

# A surface over the public API, as tests/test_openspiel.py (-m "not surface" leaves it out).
pytestmark = pytest.mark.surface

GameType = pyspiel.GameType

ISLANDS = [config for config in CONFIGS if config[0] == "dream_islands"]


def test_registered_game_type() -> None:
    check_registered_game_type("dream_islands", 4, 2, 4, GameType.Utility.GENERAL_SUM)


@pytest.mark.parametrize("config", ISLANDS, ids=ids)
def test_no_configuration_is_zero_sum(config: tuple[str, dict[str, Any]]) -> None:
    """A shared win gives +1 to several seats (I7)."""
    game = cos.load_game(config[0], **config[1])
    assert game.get_type().utility == GameType.Utility.GENERAL_SUM and game.utility_sum() is None


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"max_rounds": None}, "max_rounds"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"players": 4, "max_rounds": 2**31 // 16}, "max_rounds"),
    ],
)
def test_bad_parameters(params: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        cos.load_game("dream_islands", **params)


@pytest.mark.parametrize("config", ISLANDS, ids=ids)
def test_max_game_length_bounds_stalling_games(config: tuple[str, dict[str, Any]]) -> None:
    check_length_bound(config, {"Draw"})


def test_max_game_length_formula() -> None:
    assert cos.load_game("dream_islands", players=3, max_rounds=7).max_game_length() == 4 * 3 * 7


def test_dream_islands_round_limit() -> None:
    """max_rounds=R ends every game after R complete rounds (I9): the bound 4 n R holds even
    for a player who never draws early (every card put under the pile)."""
    game = cos.load_game("dream_islands", players=2, max_rounds=3)
    for seed in range(5):
        state, rnd, n = game.new_initial_state(), random.Random(seed), 0
        while not state.is_terminal():
            moves = state.cruiselib_state.legal_moves()
            stall = [a for a, m in zip(state.legal_actions(), moves, strict=True) if type(m).__name__ != "Draw"]
            state.apply_action(rnd.choice(stall))
            n += 1
        assert state.cruiselib_state.view(0).rounds <= 3 and n <= game.max_game_length()
