"""cruiselib.openspiel on Sirens in Sight: its registered type, its options through OpenSpiel,
its length bound, OpenSpiel's ISMCTS with its own resampler and external-sampling MCCFR on a
tiny card set (tests/test_openspiel.py holds what every game shares)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import external_sampling_mccfr  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: E402

import cruiselib  # noqa: E402
import cruiselib.openspiel as cos  # noqa: E402
from cruiselib.errors import InvalidOptionError  # noqa: E402
from tests.test_openspiel import (  # noqa: E402
    CONFIGS,
    check_length_bound,
    check_registered_game_type,
    ids,
    play_ismcts,
)

# A surface over the public API, as tests/test_openspiel.py (-m "not surface" leaves it out).
pytestmark = pytest.mark.surface

GameType = pyspiel.GameType

SIRENS = [config for config in CONFIGS if config[0] == "sirens"]


@pytest.fixture
def np_seed() -> Iterator[None]:
    """MCCFR samples from numpy's global generator: seed it, then restore it."""
    saved = np.random.get_state()
    np.random.seed(1234)
    yield
    np.random.set_state(saved)


def test_registered_game_type() -> None:
    check_registered_game_type("sirens", 2, 2, 2, GameType.Utility.ZERO_SUM)


@pytest.mark.parametrize("config", SIRENS, ids=ids)
def test_every_configuration_is_zero_sum(config: tuple[str, dict[str, Any]]) -> None:
    """+1/-1 for a win, 0/0 for a draw (S8)."""
    game = cos.load_game(config[0], **config[1])
    assert game.get_type().utility == GameType.Utility.ZERO_SUM and game.utility_sum() == 0.0


def test_load_game_both_ways() -> None:
    a = pyspiel.load_game("cruiselib_sirens", {"players": 2})
    b = cos.load_game("sirens", players=2)
    c = pyspiel.load_game("cruiselib_sirens(players=2,variant=standard)")
    assert isinstance(a, cos.OpenSpielGame) and str(a) == str(b) == str(c)
    assert pyspiel.load_game(str(a)).cruiselib_game == a.cruiselib_game


def test_load_game_reads_a_card_file(tmp_path: Path) -> None:
    cards = cruiselib.make("sirens").cards
    path = tmp_path / "cards.json"
    path.write_bytes(msgspec.json.encode(cards))
    sirens = cos.load_game("sirens", cards=path)
    assert sirens.cruiselib_game == cruiselib.make("sirens", cards=cards)
    assert sirens.get_parameters()["cards"] == str(path)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 3}, "2 players"),
        ({"variant": "upside_down"}, "variant"),
        ({"cards": cruiselib.make("sirens").cards}, "path"),
    ],
)
def test_bad_parameters(params: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        cos.load_game("sirens", **params)


@pytest.mark.parametrize("config", SIRENS, ids=ids)
def test_max_game_length_bounds_stalling_games(config: tuple[str, dict[str, Any]]) -> None:
    check_length_bound(config, {"EndTurn", "Pass"})


def test_max_game_length_formula() -> None:
    assert cos.load_game("sirens").max_game_length() == 4 * (52 + 12) + 12


def test_ismcts_sirens_default_resampler() -> None:
    """As a researcher would run it: OpenSpiel's ISMCTS calls resample_from_infostate itself."""
    game = cos.load_game("sirens")
    _, state = play_ismcts(game, 12, seed=1, default_resampler=True)
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def tiny_sirens(tmp_path: Path) -> Any:
    """Sirens with 8 cards of value 9 and ship cards 1-5: every card played takes its ship
    card at once (S6), nobody draws, and a game lasts a handful of turns."""
    cards = [{"value": 9, "emblem": e, "crew": False} for e in ["seastar"] * 4 + ["shell"] * 4]
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps({"name": "tiny", "ships": [1, 2, 3, 4, 5], "cards": cards}))
    return cos.load_game("sirens", cards=path)


@pytest.mark.usefixtures("np_seed")
def test_external_sampling_mccfr(tmp_path: Path) -> None:
    game = tiny_sirens(tmp_path)
    solver = external_sampling_mccfr.ExternalSamplingSolver(game)
    for _ in range(2):
        solver.iteration()  # one traversal per player, each from a new deal
    policy = solver.average_policy()
    # A second game of the same seed deals the solver's deals again, in order.
    replay = tiny_sirens(tmp_path)
    rnd = random.Random(5)
    checked = learned = 0
    for _ in range(4):
        state = replay.new_initial_state()
        while not state.is_terminal():
            probs = policy.action_probabilities(state)
            assert sorted(probs) == state.legal_actions()
            assert all(p >= 0.0 for p in probs.values()) and sum(probs.values()) == pytest.approx(1.0)
            checked += 1
            # MCCFR's private table: whether this is a learned policy, not the uniform default.
            learned += state.information_state_string() in solver._infostates
            state.apply_action(rnd.choice(state.legal_actions()))
    assert checked > 10 and learned > 4


def test_wrap_game_of_a_custom_card_set_and_a_pure_twin() -> None:
    custom = cruiselib.make("sirens", cards=cruiselib.make("sirens").cards)
    game = cos.wrap_game(custom, seed=4)
    assert game.cruiselib_game is custom and game.get_parameters()["cards"] == "<standard>"
    twin = cruiselib.make("sirens", variant="bow_to_rear").pure_twin()
    wrapped = cos.wrap_game(twin)
    assert wrapped.cruiselib_game is twin and pyspiel.load_game(str(wrapped)).cruiselib_game == twin
    pyspiel.random_sim_test(wrapped, num_sims=1, serialize=False, verbose=False)
