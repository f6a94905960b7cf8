"""ISMCTS in the core: iterations per second from each registered game's opening (2 players).

    pytest benchmarks/test_bench_ismcts.py --benchmark-only

One search of a fixed number of iterations per round (determinize, select, expand, a rollout
to the end, backpropagate), on the compiled core and on its pure-Python twin, with the
game's search defaults (its ``search`` declaration); the rollouts are the game's rollout
policy where its core has one, else random. Beside each game whose default search is not
plain random rollouts with win/loss returns, the same search with those.

Each round is ``bot.choose``: the search and its pick, as in play (and as OpenSpiel's
``ISMCTSBot.step``, which the README compares it with), from every legal move of the opening
(``shortlist=0``: Dream Cruise's defaults would play its opening on the rule bot's word
without a search). ``analyse`` adds each root move's text in the position to the search.
"""

from __future__ import annotations

from typing import Any

import pytest

import cruiselib
from benchmarks.conftest import modes
from cruiselib import _core
from cruiselib._registry import game_class
from cruiselib.bots import ISMCTSBot

ITERATIONS = 200
GAMES = {name: modes(name, players=2) for name in cruiselib.games() if 2 in game_class(name).player_counts}
"""Every registered game that seats 2, on each core available here."""
CASES = [(name, mode) for name, by_mode in GAMES.items() for mode in by_mode]


def _plain_search(name: str) -> bool:
    """Whether the game's default search is random rollouts with win/loss returns: no score
    weight declared, and a core whose rollout action is the engine's (uniformly random)."""
    state_class = type(cruiselib.make(name).pure_twin().new_state(0))
    owner = next(cls for cls in state_class.__mro__ if "c_rollout_action" in vars(cls))
    return owner is _core.pure_module("engine").CoreState and game_class(name).search.score_weight == 0


GUIDED = [name for name in GAMES if not _plain_search(name)]


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_ismcts_opening(benchmark: Any, name: str, mode: str) -> None:
    benchmark.group = f"{name}: ISMCTS search from the opening, {ITERATIONS} iterations"
    state = GAMES[name][mode].new_state(seed=1)
    bot = ISMCTSBot(iterations=ITERATIONS, seed=1, shortlist=0)
    benchmark(bot.choose, state)
    assert bot.last_iterations == ITERATIONS
    benchmark.extra_info["iterations"] = ITERATIONS


@pytest.mark.parametrize("name", GUIDED)
def test_ismcts_opening_random_rollouts(benchmark: Any, name: str) -> None:
    """The same search with uniformly random rollouts and win/loss returns, beside the
    game's rollout policy and score weight above (compiled)."""
    benchmark.group = f"{name}: ISMCTS search from the opening, random rollouts, {ITERATIONS} iterations"
    if "compiled" not in GAMES[name]:
        pytest.skip("measured on the compiled core")
    state = GAMES[name]["compiled"].new_state(seed=1)
    bot = ISMCTSBot(iterations=ITERATIONS, seed=1, rollout="random", score_weight=0.0, shortlist=0)
    benchmark(bot.choose, state)
    assert bot.last_iterations == ITERATIONS
    benchmark.extra_info["iterations"] = ITERATIONS
