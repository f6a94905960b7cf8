"""cruiselib.openspiel on Atlantic Star: its registered type, a custom board through
OpenSpiel's parameters, and its length bound (tests/test_openspiel.py holds what every game
shares)."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import cruiselib  # noqa: E402
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

STAR = [config for config in CONFIGS if config[0] == "atlantic_star"]


def test_registered_game_type() -> None:
    check_registered_game_type("atlantic_star", 4, 2, 6, GameType.Utility.GENERAL_SUM)


@pytest.mark.parametrize("config", STAR, ids=ids)
def test_no_configuration_is_zero_sum(config: tuple[str, dict[str, Any]]) -> None:
    """A shared win gives +1 to several seats (A8)."""
    game = cos.load_game(config[0], **config[1])
    assert game.get_type().utility == GameType.Utility.GENERAL_SUM and game.utility_sum() is None


def test_load_game_converts_a_board() -> None:
    board = ((30, 20, 10, 4, 1, 0), (26, 18, 10, 5, 2, 1), (22, 16, 10, 6, 3, 1), (18, 14, 10, 7, 4, 2), (9,) * 6)
    star = cos.load_game("atlantic_star", players=2, board=board)
    assert star.cruiselib_game == cruiselib.make("atlantic_star", players=2, board=board)
    assert pyspiel.load_game(str(star)).cruiselib_game == star.cruiselib_game  # the game string reloads it


def test_bad_parameters() -> None:
    with pytest.raises(InvalidOptionError, match="board"):
        cos.load_game("atlantic_star", board="1/2/3")


@pytest.mark.parametrize("config", STAR, ids=ids)
def test_max_game_length_bounds_stalling_games(config: tuple[str, dict[str, Any]]) -> None:
    check_length_bound(config, {"Charter", "Voyage"})


def test_max_game_length_formulas() -> None:
    assert cos.load_game("atlantic_star", players=2).max_game_length() == 2 * (8 + 38 + 4 + 38)
    assert cos.load_game("atlantic_star", players=5).max_game_length() == 5 * (4 + 20 + 4 + 29)
