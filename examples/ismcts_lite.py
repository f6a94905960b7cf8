"""Determinized Monte Carlo for Sirens in Sight: sample hidden cards, score moves by playouts.

For each legal move, the bot samples states consistent with what it sees
(``state.resample``), applies the move and finishes the game with random moves, then plays
the move with the best average result. Run it against the greedy bot:

    python examples/ismcts_lite.py --games 20
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import cruiselib
from cruiselib.bots import GreedyBot


class SampledMonteCarloBot:
    """Flat Monte Carlo over determinizations: a simple, honest baseline for imperfect information."""

    def __init__(self, samples: int = 8, seed: int = 0) -> None:
        self.samples = samples
        self.rnd = random.Random(seed)

    def _rollout(self, state: Any, seat: int) -> float:
        while not state.is_over:
            state.apply(self.rnd.choice(state.legal_actions()))
        return float(state.returns()[seat])

    def choose(self, state: Any) -> int:
        seat = state.current_player
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        totals = dict.fromkeys(legal, 0.0)
        for _ in range(self.samples):
            world = state.resample(seat, self.rnd.randrange(2**32))  # hidden cards dealt anew
            for action in legal:
                child = world.clone()
                child.apply(action)
                totals[action] += self._rollout(child, seat)
        best: int = max(legal, key=lambda a: totals[a])
        return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--samples", type=int, default=4)
    args = parser.parse_args()
    game = cruiselib.make("sirens")
    wins = [0, 0]
    for g in range(args.games):
        bots = [SampledMonteCarloBot(args.samples, seed=g), GreedyBot(seed=g)]
        state: Any = game.new_state(seed=g)
        while not state.is_over:
            state.apply(bots[state.current_player].choose(state))
        for w in state.winners():
            wins[w] += 1
        print(f"game {g}: scores {state.scores()}")
    print(f"Monte Carlo (seat 0) {wins[0]} wins, greedy (seat 1) {wins[1]} wins, {args.games - sum(wins)} draws")


if __name__ == "__main__":
    main()
