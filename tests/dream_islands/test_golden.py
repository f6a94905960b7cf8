"""Dream Islands: golden playthroughs and perft counts.

A golden file records a seed, every action of a whole game and the final state; replaying
must reproduce it exactly, so any change to the rules shows up here. The recorded final
states are schema version 1 (the generator state as a number, no hand memory): they must
keep loading, through the migrations, and equal the replayed state but for the hand memory
of I16 (which version 1 did not keep), the replayed state itself writing version 3.
Regenerate (after a deliberate rules change only: it rewrites the final states as
version 3) with ``CRUISELIB_REGENERATE_GOLDEN=1 pytest tests/dream_islands/test_golden.py``.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

import cruiselib
from cruiselib.dream_islands import DreamIslandsState
from tests.dream_islands.helpers import game as make_game
from tests.support import position_of

GOLDEN = Path(__file__).with_name("golden")
CASES = [(2, 101), (3, 202), (4, 303), (4, 404)]


def _play(players: int, seed: int) -> tuple[list[int], list[str], DreamIslandsState]:
    game = cruiselib.make("dream_islands", players=players)
    state = game.new_state(seed=seed)
    rnd = random.Random(seed)
    actions, moves = [], []
    while not state.is_over:
        a = rnd.choice(state.legal_actions())
        actions.append(a)
        moves.append(str(game.action_to_move(a)))
        state.apply(a)
    assert isinstance(state, DreamIslandsState)
    return actions, moves, state


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_golden_playthrough(players: int, seed: int) -> None:
    path = GOLDEN / f"dream_islands-{players}p-{seed}.json"
    actions, moves, state = _play(players, seed)
    record: dict[str, Any] = {
        "game": "dream_islands",
        "options": {"players": players},
        "seed": seed,
        "actions": actions,
        "moves": moves,
        "scores": state.scores(),
        "winners": list(state.winners()),
        "final_state": json.loads(state.to_json()),
    }
    if os.environ.get("CRUISELIB_REGENERATE_GOLDEN") == "1":
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    expected = json.loads(path.read_text())
    assert expected["actions"] == actions
    assert expected["moves"] == moves
    assert expected["scores"] == state.scores()
    assert expected["winners"] == list(state.winners())
    # The recorded final state (version 1) loads and is the replayed one, which says version 3,
    # but for the hand memory (I16), which version 1 did not keep.
    game = cruiselib.make("dream_islands", players=players)
    recorded = game.load_state(json.dumps(expected["final_state"]))
    assert _rules_part(recorded) == _rules_part(state)
    now = position_of(json.loads(state.to_json()), seed, expected["actions"])
    rng = expected["final_state"]["rng"]
    assert now["schema_version"] == 3 and now["rng"] == (rng if isinstance(rng, str) else f"{rng:016x}")
    old = ("schema_version", "rng", "hand_avoids")
    assert {k: v for k, v in now.items() if k not in old} == {
        k: v for k, v in expected["final_state"].items() if k not in old
    }
    # The recorded actions replay to the recorded final state.
    replay = game.new_state(seed=seed)
    for a in expected["actions"]:
        replay.apply(a)
    assert replay == state
    assert _rules_part(replay) == _rules_part(recorded)


def _rules_part(state: DreamIslandsState) -> dict[str, Any]:
    """A snapshot without the hand memory (I16), which schema version 1 did not keep, and
    without the record of how the game began (a loaded version-1 state has none)."""
    data: dict[str, Any] = json.loads(state.to_json())
    return {k: v for k, v in data.items() if k not in ("hand_avoids", "deal", "history")}


def perft(state: DreamIslandsState, depth: int) -> int:
    """How many action sequences of length ``depth`` there are from ``state``."""
    if depth == 0 or state.is_over:
        return 1
    if depth == 1:
        return len(state.legal_actions())
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        total += perft(child, depth - 1)
    return total


# (players, seed, depth) -> count. Depth 1 is the cover-and-move choice of seat 0, depth
# 2 adds its exchange decision, depth 3 the next one (a second card, or seat 1's move).
PERFT = {
    (2, 1, 1): 26,
    (2, 1, 2): 103,
    (2, 1, 3): 1113,
    (3, 7, 3): 1203,
    (4, 9, 3): 1108,
    (4, 9, 4): 6372,
}


@pytest.mark.parametrize(("players", "seed", "depth"), sorted(PERFT))
def test_perft(players: int, seed: int, depth: int) -> None:
    state = make_game(players).new_state(seed=seed)
    assert perft(state, depth) == PERFT[(players, seed, depth)]


def test_perft_mid_game_with_six_movable_pieces() -> None:
    # After 3 rounds of seeded random play: the number of distinct moves of each number.
    state = make_game(4).new_state(seed=42)
    rnd = random.Random(42)
    while not (state.phase_name == "move" and state.view(0).rounds == 3 and state.current_player == 0):
        state.apply(rnd.choice(state.legal_actions()))
    counts = [state.count_moves(n) for n in range(2, 6)]
    assert counts == [12, 24, 42, 62]
