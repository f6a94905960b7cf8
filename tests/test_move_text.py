"""``State.move_text``, for every game: a legal move's text in its position (each game's
texts are checked in tests/<game>/test_move_text.py), the same for an action id and its
move, refused with a clear error and the state unchanged for an illegal move or bad input."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

import cruiselib
from cruiselib import IllegalMoveError, InvalidOptionError
from cruiselib._registry import game_class
from tests.support import random_game, unchanged_after
from tests.toy_game import ToyDuelGame

CONFIGS = [(name, options) for name in cruiselib.games() for options in game_class(name).example_configurations]


def _ids(config: tuple[str, Mapping[str, Any]]) -> str:
    name, options = config
    return name + "".join(f"-{k}={v}" for k, v in options.items())


@pytest.fixture(params=CONFIGS, ids=[_ids(c) for c in CONFIGS])
def game(request: pytest.FixtureRequest) -> Any:
    name, options = request.param
    return cruiselib.make(name, **options)


def test_every_legal_move_has_a_text_for_its_id_and_its_move(game: Any) -> None:
    for state in random_game(game, seed=3, every=5)[:-1]:
        seat = state.current_player
        before = state.to_json()
        for action, move in zip(state.legal_actions(), state.legal_moves(), strict=True):
            text = state.move_text(action)
            assert isinstance(text, str) and text and "\n" not in text
            assert state.move_text(move) == text
            assert state.move_text(game.action_to_move(action)) == text  # annotations or not
            assert state.move_text(np.int64(action)) == text
            assert state.move_text(action, player=None) == text
            # Another seat is told the public text; the seat to move maybe more.
            for other in range(game.num_players):
                if other != seat:
                    assert state.move_text(action, player=other) == text
            assert state.move_text(action, player=seat)
        assert state.to_json() == before


def test_an_illegal_move_or_bad_input_is_refused_and_the_state_kept(game: Any) -> None:
    state = game.new_state(seed=5)
    illegal = next(a for a in range(game.num_actions) if not state.is_legal(a))
    legal = state.legal_actions()[0]
    unchanged_after(state, lambda: state.move_text(illegal), IllegalMoveError, "not legal in this position")
    unchanged_after(state, lambda: state.move_text(game.action_to_move(illegal)), IllegalMoveError, "not legal")
    unchanged_after(state, lambda: state.move_text(game.num_actions), IllegalMoveError, "out of range")
    unchanged_after(state, lambda: state.move_text(-1), IllegalMoveError, "out of range")
    unchanged_after(state, lambda: state.move_text("pass"), IllegalMoveError, "not a .* move")
    unchanged_after(state, lambda: state.move_text(True), IllegalMoveError, "not a .* move")
    unchanged_after(state, lambda: state.move_text(legal, player=game.num_players), InvalidOptionError, "seat")
    unchanged_after(state, lambda: state.move_text(legal, player="0"), InvalidOptionError, "seat")


def test_no_move_has_a_text_once_the_game_is_over(game: Any) -> None:
    over = random_game(game, seed=4, every=10_000)[-1]
    assert over.is_over
    unchanged_after(over, lambda: over.move_text(0), IllegalMoveError, "the game is over")


def test_a_game_without_its_own_texts_says_the_plain_text() -> None:
    toy = ToyDuelGame()
    state = toy.new_state(seed=1)
    for action in state.legal_actions():
        assert state.move_text(action) == str(toy.action_to_move(action))
        assert state.move_text(action, player=state.current_player) == str(toy.action_to_move(action))
    illegal = next(a for a in range(toy.num_actions) if not state.is_legal(a))
    unchanged_after(state, lambda: state.move_text(illegal), IllegalMoveError, "not legal")
