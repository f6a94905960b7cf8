"""Sirens in Sight: golden playthroughs and perft counts.

A golden file records a seed, every action of a whole game and the final state; replaying
must reproduce it exactly, so any change to the rules shows up here. Regenerate (after a
deliberate rules change only) with ``CRUISELIB_REGENERATE_GOLDEN=1 pytest tests/sirens/test_golden.py``.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.serialize import upgrade_rng_to_text
from cruiselib.sirens import SirensState
from tests.support import position_of

GOLDEN = Path(__file__).with_name("golden")
CASES = [("standard", 101), ("standard", 202), ("standard", 303), ("bow_to_rear", 404), ("bow_to_rear", 505)]


def _play(variant: str, seed: int) -> tuple[list[int], list[str], SirensState]:
    game = cruiselib.make("sirens", variant=variant)
    state = game.new_state(seed=seed)
    rnd = random.Random(seed)
    actions, moves = [], []
    while not state.is_over:
        legal = state.legal_actions()
        a = rnd.choice(legal)
        actions.append(a)
        moves.append(str(game.action_to_move(a)))
        state.apply(a)
    assert isinstance(state, SirensState)
    return actions, moves, state


@pytest.mark.parametrize(("variant", "seed"), CASES)
def test_golden_playthrough(variant: str, seed: int) -> None:
    path = GOLDEN / f"sirens-{variant}-{seed}.json"
    actions, moves, state = _play(variant, seed)
    record: dict[str, Any] = {
        "game": "sirens",
        "options": {"variant": variant},
        "seed": seed,
        "actions": actions,
        "moves": moves,
        "scores": state.scores(),
        "winners": list(state.winners()),
        "final_state": msgspec.to_builtins(state.to_data()),
    }
    if os.environ.get("CRUISELIB_REGENERATE_GOLDEN") == "1":
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    expected = json.loads(path.read_text())
    game = cruiselib.make("sirens", variant=variant)
    replay = game.new_state(seed=expected["seed"])
    for a, text in zip(expected["actions"], expected["moves"], strict=True):
        assert str(game.action_to_move(a)) == text
        replay.apply(a)
    assert replay.is_over
    final = expected["final_state"]
    if final["schema_version"] == 1:  # recorded before version 2: same state, rng as a number
        final = upgrade_rng_to_text(final)
    assert position_of(msgspec.to_builtins(replay.to_data()), expected["seed"], expected["actions"]) == final
    assert replay.scores() == expected["scores"] and list(replay.winners()) == expected["winners"]
    assert actions == expected["actions"]
    assert game.load_state(json.dumps(expected["final_state"])) == replay


@pytest.mark.parametrize(("variant", "seed"), CASES)
def test_version_1_golden_states_load_through_the_migration(variant: str, seed: int) -> None:
    # The golden files hold version-1 final states (rng a JSON number); they load through
    # SirensGame.schema_migrations, equal the replayed state, and save as version 2.
    expected = json.loads((GOLDEN / f"sirens-{variant}-{seed}.json").read_text())
    v1 = expected["final_state"]
    assert v1["schema_version"] == 1 and isinstance(v1["rng"], int)
    game = cruiselib.make("sirens", variant=variant)
    replay = game.new_state(seed=seed)
    for a in expected["actions"]:
        replay.apply(a)
    for encoded in (json.dumps(v1), msgspec.msgpack.encode(v1), v1):
        loaded = game.load_state(encoded)
        assert loaded == replay
    saved = json.loads(replay.to_json())
    assert saved["schema_version"] == 2 and saved["rng"] == f"{v1['rng']:016x}"
    assert game.load_state(replay.to_json()) == replay


def perft(state: SirensState, depth: int) -> int:
    """The number of legal action sequences of length ``depth`` (shorter where a game ends)."""
    if depth == 0 or state.is_over:
        return 1
    legal = state.legal_actions()
    assert legal == state._fast_legal()
    total = 0
    for a in legal:
        child = state.clone()
        child.apply(a)
        total += perft(child, depth - 1)
    return total


# (variant, seed, moves played first, depth) -> count; recorded from the engine and
# cross-checked: every node's list is also checked against the playout fast path.
PERFT = [
    # 4 distinct faces x 10 sides + 5 rum mugs
    ("standard", 1, 0, 1, 45),
    # 36 plays x (5 mugs + end) + 4 crew plays x 2 choices + 5 mugs x 40 plays
    ("standard", 1, 0, 2, 424),
    ("standard", 1, 0, 3, 17512),
    ("standard", 2, 14, 2, 1634),
    ("standard", 2, 14, 3, 46488),
    ("bow_to_rear", 3, 0, 2, 101),
    ("bow_to_rear", 3, 0, 4, 2421),
    ("bow_to_rear", 3, 8, 3, 15532),
]


@pytest.mark.parametrize(("variant", "seed", "prefix", "depth", "count"), PERFT)
def test_perft(variant: str, seed: int, prefix: int, depth: int, count: int) -> None:
    game = cruiselib.make("sirens", variant=variant)
    state = game.new_state(seed=seed)
    for i in range(prefix):
        legal = state.legal_actions()
        state.apply(legal[(i * 7) % len(legal)])
    assert isinstance(state, SirensState)
    assert perft(state, depth) == count
