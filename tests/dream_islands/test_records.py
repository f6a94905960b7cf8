"""Dream Islands: records and snapshots of a game with a round limit (I9) keep the limit,
and seat 0 always starts (I8)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cruiselib


def _played(seed: int, steps: int | None = None) -> tuple[Any, Any, list[int]]:
    """A 3-seat game limited to 3 rounds, played by seeded random moves."""
    game = cruiselib.make("dream_islands", players=3, max_rounds=3)
    state = game.new_state(seed)
    rnd = random.Random(seed)
    taken: list[int] = []
    while not state.is_over and (steps is None or len(taken) < steps):
        action = rnd.choice(state.legal_actions())
        state.apply(action)
        taken.append(action)
    return game, state, taken


def test_I9_a_record_of_a_round_limited_game_replays_to_the_same_end() -> None:
    game, state, taken = _played(seed=21)
    view = state.view(0)
    assert view.rounds == 3 and not view.end_triggered  # ended by the limit, not by I7
    record = state.record()
    assert record.options["max_rounds"] == 3 and record.actions == taken
    again: Any = cruiselib.replay(json.loads(record.to_json()))
    assert again == state and again.game == game and again.game.max_rounds == 3


def test_I9_load_state_reads_the_round_limit_from_the_snapshot() -> None:
    game, state, taken = _played(seed=13, steps=20)
    for snapshot in (state.to_json(), state.to_msgpack()):
        again = cruiselib.load_state(snapshot)
        assert again.game == game and again == state and again.history == taken
    # Undo, history and records of a limited game work as in any other.
    assert state.undo() == taken[-1] and state.history == taken[:-1]
    assert cruiselib.replay(state.record().to_json()) == state


def test_I8_seat_0_starts() -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match="I8"):
        cruiselib.make("dream_islands").new_state(1, start_player=2)
