"""OpenSpiel's ISMCTS on cruiselib's Sirens (the ``openspiel`` extra; skipped without it).

    pytest benchmarks/test_bench_openspiel.py --benchmark-only

One ``bot.step`` from the Sirens opening (2 players, default options): ``SIMULATIONS``
ISMCTS iterations, each a world resampled from the mover's information state, a walk down
the tree and one random rollout to the end of the game. ``extra_info["iterations"]`` over
the time gives iterations per second (``benchmarks/report.py`` sets it beside cruiselib's own
search from the same opening, measured in the same run).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cruiselib

pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped,import-not-found,unused-ignore]

import cruiselib.openspiel as cos

SIMULATIONS = 200


def test_open_spiel_ismcts(benchmark: Any) -> None:
    benchmark.group = f"sirens: OpenSpiel's ISMCTS on cruiselib.openspiel, {SIMULATIONS} iterations"
    game = cos.load_game("sirens", players=2, seed=1)
    state = game.new_initial_state()
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 1.0, SIMULATIONS, random_state=rs)
    action = benchmark.pedantic(bot.step, args=(state,), rounds=5, warmup_rounds=1)
    assert action in state.legal_actions()
    benchmark.extra_info["iterations"] = SIMULATIONS
    benchmark.extra_info["core"] = "compiled" if cruiselib.compiled else "pure"
    benchmark.extra_info["legal_actions"] = len(state.legal_actions())
