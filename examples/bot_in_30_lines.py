"""A complete bot in 30 lines: one-ply Monte Carlo over the seat's view, for any game.
For each legal move it deals what the seat cannot see anew (resample), plays the move and
lets the compiled core finish 100 random games; it plays the move that won most often.
Run: python examples/bot_in_30_lines.py dream_islands"""

import sys
from typing import Any

import cruiselib
from cruiselib.bots import RandomBot


def choose(state: Any, playouts: int = 100, seed: int = 0) -> int:
    seat = state.current_player

    def wins(action: int) -> float:
        guess = state.resample(seat, seed)  # hidden cards dealt anew: no peeking
        guess.apply(action)
        return float(guess.playouts(playouts, seed=seed).win_rates[seat])

    return int(max(state.legal_actions(), key=wins))


game = cruiselib.make(sys.argv[1] if len(sys.argv) > 1 else "sirens", players=2)
opponent, state = RandomBot(seed=1), game.new_state(seed=7)
while not state.is_over:
    state.apply(choose(state) if state.current_player == 0 else opponent.choose(state))
print(f"{game.name}: scores {state.scores()}, winners {state.winners()} (seat 0 is the bot)")
