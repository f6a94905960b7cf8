"""``State.take_back(count)``: many actions taken back with one replay, for every game."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cruiselib

from .support import ANY_GAME, CONFIGURATION_IDS, CONFIGURATIONS


def _played(name: str, options: dict[str, Any], seed: int, steps: int) -> tuple[Any, Any, list[int]]:
    game = cruiselib.make(name, **options)
    state = game.new_state(seed)
    rnd = random.Random(seed)
    taken: list[int] = []
    while not state.is_over and len(taken) < steps:
        a = rnd.choice(state.legal_actions())
        state.apply(a)
        taken.append(a)
    return game, state, taken


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_take_back_equals_as_many_undos(name: str, options: dict[str, Any]) -> None:
    _, state, taken = _played(name, options, seed=6, steps=20)
    for count in (1, 2, 7, len(taken)):
        one_by_one = state.clone()
        expected = [one_by_one.undo() for _ in range(count)]
        at_once = state.clone()
        assert at_once.take_back(count) == expected == taken[::-1][:count]
        assert at_once == one_by_one and at_once.history == taken[: len(taken) - count]


def test_take_back_replays_the_game_once_not_once_per_action(monkeypatch: pytest.MonkeyPatch) -> None:
    _, state, taken = _played(ANY_GAME, {}, seed=2, steps=40)
    applied = 0
    cls = type(state)
    original = cls.apply

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal applied
        applied += 1
        return original(self, *args, **kwargs)

    # monkeypatch removes the attribute again afterwards (the class inherits apply from
    # the compiled core: a copy left in its own dict would reach the pure twin's class).
    monkeypatch.setattr(cls, "apply", counting)
    state.take_back(30)
    monkeypatch.undo()
    # One replay of the 10 kept actions and the 30 taken back checked on a clone: 40, not
    # the 30 replays (of about 600 actions) that 30 undos cost.
    assert applied == len(taken)
    assert state.history == taken[:10]


def test_take_back_refuses_bad_counts_and_leaves_the_state_as_it_was() -> None:
    _, state, _ = _played(ANY_GAME, {}, seed=3, steps=5)
    before = state.to_json()
    with pytest.raises(cruiselib.IllegalMoveError, match="history holds 5"):
        state.take_back(6)
    for bad in (0, -1, 1.0, True, "2"):
        with pytest.raises(cruiselib.InvalidOptionError):
            state.take_back(bad)
    assert state.to_json() == before


def test_a_history_that_does_not_lead_to_the_state_cannot_be_taken_back() -> None:
    game, state, taken = _played(ANY_GAME, {}, seed=4, steps=10)
    data = json.loads(state.to_json())
    data["history"][3] = next(a for a in range(game.num_actions) if a != taken[3])
    tampered = game.load_state(data)
    before = tampered.to_json()
    with pytest.raises(cruiselib.InvalidStateError, match="history does not lead"):
        tampered.take_back(2)
    assert tampered.to_json() == before
