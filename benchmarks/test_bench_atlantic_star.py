"""Atlantic Star benchmarks: compiled core vs the same source run as pure Python.

Run ``pytest benchmarks/test_bench_atlantic_star.py --benchmark-only``. The pure module is
the core's ``.py`` source loaded next to the compiled module under another name, so both
run side by side in one process (groups pair them). The operations every game measures
(loading, playouts, views, resampling and tensors) are in ``test_bench_games.py``.

Targets (one core): random 4-player games >= 10,000 games/s in the core; the best Pacific
voyage from an 8-card hand (all 28 six-card subsets, optimal assignment each) < 20 µs;
compiled vs pure >= 50x; ``game.load_state(json_bytes)`` (decode + every check, in the
core) within 2.5x of msgspec's own typed decode of the same bytes.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

from benchmarks.conftest import modes

GAMES = modes("atlantic_star", players=4)
MODES = list(GAMES)


def pacific_hand_core(mode: str) -> Any:
    """A core whose seat 0 holds 8 ships that all fit Pacific legs."""
    g: Any = GAMES[mode]
    state = g.new_state(seed=1)
    raw = state._get_raw()
    pac = [i for i, s in enumerate(g.ships.ships) if any(e.sea == "Pacific" for e in s.legs)]
    hand = sorted([*pac[:7], next(i for i, s in enumerate(g.ships.ships) if s.mail)])
    pool = [c for c in raw["deck"] + raw["agency"] if c not in hand]
    raw["hands"][0] = hand
    raw["agency"] = pool[:4]
    raw["deck"] = pool[4:]
    core = g._core.AtlanticCore(g.rules, None)
    importlib.import_module(f"{g._core.__name__}_snapshot").set_raw(core, raw)
    return core


@pytest.mark.parametrize("mode", MODES)
def test_best_pacific_voyage_8_card_hand(benchmark: Any, mode: str) -> None:
    benchmark.group = "atlantic_star: best Pacific voyage, 8-card hand (28 subsets)"
    core = pacific_hand_core(mode)
    value, code = benchmark(core.best_voyage_code, 0, 3)
    assert value > 0
    assert 9 <= code < 37


@pytest.mark.parametrize("mode", MODES)
def test_step_clone_and_apply(benchmark: Any, mode: str) -> None:
    benchmark.group = "atlantic_star: clone + legal_actions + apply"
    core = GAMES[mode].new_state(seed=12345)
    rng = np.random.default_rng(0)
    for _ in range(40):
        legal = core.legal_actions()
        core.apply(int(legal[rng.integers(len(legal))]))

    def step() -> None:
        c = core.clone()
        c.apply(c.legal_actions()[-1])

    benchmark(step)
