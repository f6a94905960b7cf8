"""cruiselib.openspiel on Dream Cruise: its registered type, the option sets that change its
action space or rules the most, route points through OpenSpiel's parameters, the solo game
against Jana and its length bound (tests/test_openspiel.py holds what every game shares)."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import cruiselib  # noqa: E402
import cruiselib.openspiel as cos  # noqa: E402
import tests.test_openspiel as shared  # noqa: E402  # its checks, run here on more configurations
from cruiselib.dream_cruise.integrations import _rounds as cruise_rounds  # noqa: E402
from cruiselib.errors import InvalidOptionError  # noqa: E402
from tests.test_openspiel import (  # noqa: E402
    CONFIGS,
    check_length_bound,
    check_registered_game_type,
    ids,
    play_ismcts,
    random_position,
)

# A surface over the public API, as tests/test_openspiel.py (-m "not surface" leaves it out).
pytestmark = pytest.mark.surface

GameType = pyspiel.GameType

# The option sets that change the action space or the rules the most, besides the example
# configurations and seat counts every game's tests play.
MORE: list[tuple[str, dict[str, Any]]] = [
    ("dream_cruise", {"players": 3, "sea_ship_draw": True, "additions": 1, "route_points": (1, 3, 6, 10)}),
    ("dream_cruise", {"players": 1, "difficulty": 2}),
]
CRUISE = [config for config in CONFIGS if config[0] == "dream_cruise"]


def test_registered_game_type() -> None:
    check_registered_game_type("dream_cruise", 4, 1, 4, GameType.Utility.GENERAL_SUM)


@pytest.mark.parametrize("config", CRUISE + MORE, ids=ids)
def test_two_seats_are_zero_sum(config: tuple[str, dict[str, Any]]) -> None:
    """Zero-sum at two seats only (one seat wins, or neither); alone against Jana, or at three
    or four, not."""
    game = cos.load_game(config[0], **config[1])
    zero_sum = game.num_players() == 2
    assert game.get_type().utility == (GameType.Utility.ZERO_SUM if zero_sum else GameType.Utility.GENERAL_SUM)


@pytest.mark.parametrize("config", MORE, ids=ids)
def test_game_info(config: tuple[str, dict[str, Any]]) -> None:
    shared.test_game_info(config)


@pytest.mark.parametrize("config", MORE, ids=ids)
def test_random_sim_test(config: tuple[str, dict[str, Any]]) -> None:
    shared.test_random_sim_test(config)


@pytest.mark.parametrize("config", MORE, ids=ids)
def test_resampler_keeps_the_information_state(config: tuple[str, dict[str, Any]]) -> None:
    shared.test_resampler_keeps_the_information_state(config)


@pytest.mark.slow
@pytest.mark.parametrize("config", MORE, ids=ids)
def test_ismcts_plays_whole_games(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    play_ismcts(cos.load_game(name, seed=9, **options), 20, seed=1)


def test_load_game_converts_route_points() -> None:
    game = cos.load_game("dream_cruise", players=3, route_points=(1, 3, 6, 10), sea_ship_draw=True, seed=5)
    assert game.get_parameters()["route_points"] == "1/3/6/10"
    expected = cruiselib.make("dream_cruise", players=3, route_points=(1, 3, 6, 10), sea_ship_draw=True)
    assert game.cruiselib_game == expected


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"route_points": "1/3/x/9"}, "route_points"),
        ({"players": 2, "difficulty": 1}, "solo"),
    ],
)
def test_bad_parameters(params: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        cos.load_game("dream_cruise", **params)


@pytest.mark.parametrize("config", CRUISE + MORE, ids=ids)
def test_max_game_length_bounds_stalling_games(config: tuple[str, dict[str, Any]]) -> None:
    check_length_bound(config, {"Done"})


def test_max_game_length_formulas() -> None:
    assert cos.load_game("dream_cruise", players=4).max_game_length() == 12 * 4 * 30
    assert cos.load_game("dream_cruise", players=1, additions=4).max_game_length() == 19 * 1 * 36


def test_solo_dream_cruise() -> None:
    """One OpenSpiel player against Jana, who belongs to the game (C9): returns are +1 for
    beating her and -1 otherwise."""
    game = cos.load_game("dream_cruise", players=1, difficulty=3)
    assert game.num_players() == 1 and game.get_type().utility == GameType.Utility.GENERAL_SUM
    seen = set()
    for seed in range(6):
        state = random_position(game, seed, steps=10_000)
        while not state.is_terminal():
            state.apply_action(random.Random(seed).choice(state.legal_actions()))
        seen.add(tuple(state.returns()))
    assert seen <= {(1.0,), (-1.0,)} and (-1.0,) in seen


def test_dream_cruise_rounds_bound() -> None:
    """The rounds behind Dream Cruise's bound: every round but the last keeps a location card
    per seat for good (C4, C20); random games never play more."""
    for players in (1, 2, 4):
        game = cos.load_game("dream_cruise", players=players)
        bound = cruise_rounds(game.cruiselib_game)
        for seed in range(4):
            state = random_position(game, seed, steps=10_000)
            while not state.is_terminal():
                state.apply_action(random.Random(seed).choice(state.legal_actions()))
            assert state.cruiselib_state.view(0).round <= bound
