"""The smallest complete program: a random game of Sirens in Sight, move by move."""

from __future__ import annotations

import random

import cruiselib


def main() -> None:
    game = cruiselib.make("sirens")
    state = game.new_state(seed=42)
    rnd = random.Random(42)
    while not state.is_over:
        move = rnd.choice(state.legal_moves())
        print(f"seat {state.current_player}: {move}")
        state.apply(move)
    print(game.render(state))


if __name__ == "__main__":
    main()
