"""Atlantic Star benchmarks: compiled core vs the same source run as pure Python.

Run ``pytest benchmarks/test_bench_atlantic_star.py --benchmark-only``. The pure module is
the core's ``.py`` source loaded next to the compiled module under another name, so both
run side by side in one process (groups pair them).

Targets (one core): random 4-player games >= 10,000 games/s in the core; the best Pacific
voyage from an 8-card hand (all 28 six-card subsets, optimal assignment each) < 20 µs;
compiled vs pure >= 50x.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import cruiselib
from cruiselib.atlantic_star.game import build_rules

CORE_PY = Path(cruiselib.__file__).with_name("_core") / "atlantic_star.py"


def _pure_module() -> ModuleType:
    name = "cruiselib._core.atlantic_star_pure_bench"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, CORE_PY)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _compiled_module() -> ModuleType:
    from cruiselib import _core

    module = _core.load("atlantic_star")
    if str(module.__file__).endswith(".py"):
        pytest.skip("the compiled core is not built (pure-Python mode)")
    return module


MODES = ["compiled", "pure"]


def module_for(mode: str) -> ModuleType:
    return _compiled_module() if mode == "compiled" else _pure_module()


def rules_for(mode: str, players: int = 4) -> Any:
    g: Any = cruiselib.make("atlantic_star", players=players)
    return build_rules(module_for(mode), players, g.ships, g.board)


def pacific_hand_core(mode: str) -> Any:
    """A core whose seat 0 holds 8 ships that all fit Pacific legs."""
    g: Any = cruiselib.make("atlantic_star", players=4)
    state = g.new_state(seed=1)
    raw = state._get_raw()
    pac = [i for i, s in enumerate(g.ships.ships) if any(e.sea == "Pacific" for e in s.legs)]
    hand = sorted([*pac[:7], next(i for i, s in enumerate(g.ships.ships) if s.mail)])
    pool = [c for c in raw["deck"] + raw["agency"] if c not in hand]
    raw["hands"][0] = hand
    raw["agency"] = pool[:4]
    raw["deck"] = pool[4:]
    core = module_for(mode).AtlanticCore(rules_for(mode), None)
    core._set_raw(raw)
    return core


@pytest.mark.parametrize("mode", MODES)
def test_best_pacific_voyage_8_card_hand(benchmark: Any, mode: str) -> None:
    benchmark.group = "best Pacific voyage, 8-card hand (28 subsets)"
    core = pacific_hand_core(mode)
    value, code = benchmark(core.best_voyage_code, 0, 3)
    assert value > 0
    assert 9 <= code < 37


@pytest.mark.parametrize("mode", MODES)
def test_step_clone_and_apply(benchmark: Any, mode: str) -> None:
    benchmark.group = "step: clone + legal_actions + apply"
    core = module_for(mode).AtlanticCore(rules_for(mode), None)
    core._new_game(12345, 0)
    rng = np.random.default_rng(0)
    for _ in range(40):
        legal = core.legal_actions()
        core.apply(int(legal[rng.integers(len(legal))]))

    def step() -> None:
        c = core.clone()
        c.apply(c.legal_actions()[-1])

    benchmark(step)


@pytest.mark.parametrize("mode", MODES)
def test_random_playouts_4p(benchmark: Any, mode: str) -> None:
    benchmark.group = "random 4-player games in the core"
    mod = module_for(mode)
    rules = rules_for(mode)
    n = 20
    scores = np.zeros((n, 4), dtype=np.int16)
    lengths = np.zeros(n, dtype=np.int32)
    wins = np.zeros((n, 4), dtype=np.int8)
    benchmark.extra_info["games_per_round"] = n
    actions = benchmark(mod.run_playouts, rules, n, 99, scores, lengths, wins, -1)
    assert actions == int(lengths.sum()) > 0
