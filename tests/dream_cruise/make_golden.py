"""Record the Dream Cruise golden playthroughs: ``python -m tests.dream_cruise.make_golden``
(after a deliberate rules change only). Each file holds the options, the seed, every
action with its move text as the position annotates it, the scores, the winners, Jana's
points in the solo game and the digest of the final state's JSON snapshot."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import cruiselib
from cruiselib.dream_cruise import DreamCruiseState

GOLDEN = Path(__file__).with_name("golden")
# (file stem, options, seed): 2 and 4 players, solo, and every option at once.
CASES: list[tuple[str, dict[str, Any], int]] = [
    ("2p-101", {"players": 2}, 101),
    ("4p-202", {"players": 4}, 202),
    ("solo-303", {"players": 1, "difficulty": 2}, 303),
    (
        "3p-options-404",
        {"players": 3, "sea_ship_draw": True, "additions": 3, "route_points": [0, 2, 5, 12]},
        404,
    ),
]


def digest(state: DreamCruiseState) -> str:
    """The SHA-256 of the state's JSON snapshot (every field, the record included)."""
    return hashlib.sha256(state.to_json().encode()).hexdigest()


def play(options: dict[str, Any], seed: int) -> dict[str, Any]:
    """A seeded random game, recorded."""
    game = cruiselib.make("dream_cruise", **options)
    state = game.new_state(seed=seed)
    rnd = random.Random(seed)
    actions: list[int] = []
    moves: list[str] = []
    while not state.is_over:
        legal = state.legal_actions()
        i = rnd.randrange(len(legal))
        actions.append(legal[i])
        moves.append(str(state.legal_moves()[i]))
        state.apply(legal[i])
    assert isinstance(state, DreamCruiseState)
    return {
        "game": "dream_cruise",
        "options": options,
        "seed": seed,
        "actions": actions,
        "moves": moves,
        "scores": state.scores(),
        "winners": list(state.winners()),
        "jana_score": state.jana_score(),
        "rounds": state.view(0).round,
        "final_state_sha256": digest(state),
    }


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for stem, options, seed in CASES:
        path = GOLDEN / f"dream_cruise-{stem}.json"
        path.write_text(json.dumps(play(options, seed), indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
