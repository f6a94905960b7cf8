"""Record the golden playthroughs: ``python -m tests.atlantic_star.make_golden`` (or run this
file). Each file holds the options, the seed, the actions and the final state."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cruiselib

GOLDEN = Path(__file__).with_name("golden")
CASES = [(2, 101), (3, 202), (4, 303), (5, 404), (6, 505)]


def play(players: int, seed: int) -> dict[str, object]:
    game = cruiselib.make("atlantic_star", players=players)
    state = game.new_state(seed=seed)
    rnd = random.Random(seed)
    actions = []
    while not state.is_over:
        a = rnd.choice(state.legal_actions())
        actions.append(a)
        state.apply(a)
    return {
        "game": "atlantic_star",
        "options": {"players": players},
        "seed": seed,
        "actions": actions,
        "scores": state.scores(),
        "winners": list(state.winners()),
        "final_state": json.loads(state.to_json()),
    }


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for players, seed in CASES:
        path = GOLDEN / f"atlantic_star_{players}p_seed{seed}.json"
        path.write_text(json.dumps(play(players, seed), indent=1) + "\n")


if __name__ == "__main__":
    main()
