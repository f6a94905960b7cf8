"""Random Dream Islands positions for the view, resample and tensor tests: every player
count, with and without a round limit, in every phase (moves, exchanges half done, games
over), reached by seeded play that often keeps its hand so the hand memory (I16) fills."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from cruiselib.dream_islands import DreamIslandsGame, DreamIslandsState
from tests.dream_islands.helpers import game

# (players, options): every player count, and a round limit short enough to end games.
CONFIGS: list[tuple[int, dict[str, Any]]] = [(2, {}), (3, {}), (4, {}), (2, {"max_rounds": 3}), (4, {"max_rounds": 5})]


def keeping_policy(state: DreamIslandsState, rnd: random.Random) -> int:
    """A random legal action, but in an exchange "draw" (keep the hand) most of the time."""
    legal = state.legal_actions()
    if state.phase_name == "exchange" and rnd.random() < 0.6:
        return legal[-1]  # Draw() is the highest action id
    return rnd.choice(legal)


def positions(g: DreamIslandsGame, seed: int, count: int) -> Iterator[DreamIslandsState]:
    """``count`` positions of seeded games of ``g``, each a copy; about one in four is taken
    in an exchange, and every game's final position is among them."""
    rnd = random.Random(seed)
    made = 0
    while made < count:
        state = g.new_state(seed=rnd.randrange(2**32))
        while not state.is_over and made < count:
            if rnd.random() < 0.08:
                yield state.clone()
                made += 1
            state.apply(keeping_policy(state, rnd))
        if state.is_over and made < count:
            yield state.clone()
            made += 1


def all_positions(per_config: int, seed: int = 0) -> Iterator[tuple[DreamIslandsGame, DreamIslandsState]]:
    for i, (players, options) in enumerate(CONFIGS):
        g = game(players, **options)
        for state in positions(g, seed * 100 + i, per_config):
            yield g, state
