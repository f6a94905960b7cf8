"""Dream Cruise: golden playthroughs and perft counts.

A golden file (written by ``make_golden.py``) records the options, the seed, every action of
a whole seeded game with its move text as the position annotated it, the scores, the
winners and the digest of the final snapshot. Replaying must reproduce it exactly, on the
loaded core and on the pure-Python twin, so any change to the rules shows up here.
Regenerate (after a deliberate rules change only) with ``python -m tests.dream_cruise.make_golden``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import cruiselib
from cruiselib.dream_cruise import DreamCruiseGame, DreamCruiseState
from tests.dream_cruise.make_golden import CASES, digest, play
from tests.support import position_of

GOLDEN = Path(__file__).with_name("golden")
STEMS = [stem for stem, _, _ in CASES]


def _record(stem: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"dream_cruise-{stem}.json").read_text())
    return data


def test_the_golden_files_are_the_cases() -> None:
    assert sorted(p.name for p in GOLDEN.glob("*.json")) == sorted(f"dream_cruise-{s}.json" for s in STEMS)


@pytest.mark.parametrize("stem", STEMS)
@pytest.mark.parametrize("core", ["loaded", "pure"])
def test_golden_playthrough(stem: str, core: str) -> None:
    rec = _record(stem)
    game: Any = cruiselib.make("dream_cruise", **rec["options"])
    assert isinstance(game, DreamCruiseGame)
    if core == "pure":
        game = game.pure_twin()
    state: Any = game.new_state(seed=rec["seed"])  # the twin's state class is the pure core's
    for a, text in zip(rec["actions"], rec["moves"], strict=True):
        legal = state.legal_actions()
        assert a in legal
        assert str(state.legal_moves()[legal.index(a)]) == text
        state.apply(a)
    assert state.is_over
    assert state.scores() == rec["scores"]
    assert list(state.winners()) == rec["winners"]
    assert state.jana_score() == rec["jana_score"]
    assert state.view(0).round == rec["rounds"]
    assert digest(state) == rec["final_state_sha256"]
    # The final snapshot is the deal and these actions; it loads back equal.
    position_of(json.loads(state.to_json()), rec["seed"], rec["actions"])
    assert game.load_state(state.to_json()) == state


@pytest.mark.parametrize("stem", STEMS)
def test_the_recorder_reproduces_the_golden_file(stem: str) -> None:
    # The same seeded random choices make the same game (the recorder is deterministic).
    _, options, seed = next(c for c in CASES if c[0] == stem)
    assert play(options, seed) == _record(stem)


def test_the_golden_games_cover_every_kind_of_move() -> None:
    kinds = set()
    for stem in STEMS:
        kinds |= {text.split()[0] for text in _record(stem)["moves"]}
    assert kinds == {"board", "keep", "take", "send", "plan", "build", "captain", "done"}


def perft(state: DreamCruiseState, depth: int) -> int:
    """How many action sequences of length ``depth`` there are from ``state`` (shorter where
    the game ends)."""
    if depth == 0 or state.is_over:
        return 1
    legal = state.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for a in legal:
        child = state.clone()
        child.apply(a)
        total += perft(child, depth - 1)
    return total


def first(game: DreamCruiseGame, seed: int, phase: str, nth: int = 0) -> DreamCruiseState:
    """The ``nth`` position of ``phase`` in the seeded random game ``seed``."""
    state = game.new_state(seed=seed)
    rnd = random.Random(seed)
    k = 0
    while not state.is_over:
        if state.phase == phase:
            if k == nth:
                return state
            k += 1
        state.apply(rnd.choice(state.legal_actions()))
    raise AssertionError(f"no {phase} position {nth} in game {seed}")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_perft_opening(players: int) -> None:
    # Round 1 skips boarding (C15): each seat keeps one of its three location cards, in
    # turn order (C14): 3, 9, 27. In 2 players the third move is the start player's take:
    # four sets less the face-down one it may not take (C7), 3 again.
    state = cruiselib.make("dream_cruise", players=players).new_state(seed=1)
    assert state.phase == "set_course"
    assert [perft(state, d) for d in (1, 2, 3)] == [3, 9, 27]


def test_perft_solo_opening() -> None:
    # Solo: one keep of three, then one of the three sets (the player may take the
    # face-down one, C7, C9), then the first phase-4 move.
    state = cruiselib.make("dream_cruise", players=1).new_state(seed=1)
    assert [perft(state, d) for d in (1, 2, 3)] == [3, 9, 81]


# (players, seed, phase, nth position of that phase in the seeded random game) -> perft
# counts to depth 1..3 (4 for the first). Recorded from the engine (identical in compiled
# and pure mode); phase 4 ("set_sail") lists placements, plans, builds, captains and done.
PERFT: dict[tuple[int, int, str, int], list[int]] = {
    (2, 7, "set_sail", 0): [9, 54, 274, 1241],
    (4, 9, "set_sail", 3): [4, 13, 58],
    (1, 5, "set_sail", 2): [8, 55, 288],
    (3, 8, "boarding", 0): [2, 6, 18],
    (4, 3, "entertainment", 0): [4, 16, 48],
}


@pytest.mark.parametrize("key", sorted(PERFT), ids=lambda k: "-".join(map(str, k)))
def test_perft_midgame(key: tuple[int, int, str, int]) -> None:
    players, seed, phase, nth = key
    game = cruiselib.make("dream_cruise", players=players)
    assert isinstance(game, DreamCruiseGame)
    state = first(game, seed, phase, nth)
    counts = PERFT[key]
    assert [perft(state, d) for d in range(1, len(counts) + 1)] == counts


def test_perft_of_the_pure_twin_is_the_same() -> None:
    game = cruiselib.make("dream_cruise", players=2)
    assert isinstance(game, DreamCruiseGame)
    twin = game.pure_twin()
    state = first(game, 7, "set_sail")
    assert perft(twin.load_state(state.to_json()), 3) == perft(state, 3) == 274
