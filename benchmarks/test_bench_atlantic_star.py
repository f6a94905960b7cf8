"""Atlantic Star benchmarks: compiled core vs the same source run as pure Python.

Run ``pytest benchmarks/test_bench_atlantic_star.py --benchmark-only``. The pure module is
the core's ``.py`` source loaded next to the compiled module under another name, so both
run side by side in one process (groups pair them).

Targets (one core): random 4-player games >= 10,000 games/s in the core; the best Pacific
voyage from an 8-card hand (all 28 six-card subsets, optimal assignment each) < 20 µs;
compiled vs pure >= 50x; ``game.load_state(json_bytes)`` (decode + every check, in the
core) within 2.5x of msgspec's own typed decode of the same bytes.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import numpy as np
import pytest

from benchmarks.conftest import modes
from cruiselib.atlantic_star import AtlanticStarStateData

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
    core._set_raw(raw)
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


@pytest.mark.parametrize("mode", MODES)
def test_random_playouts_4p(benchmark: Any, mode: str) -> None:
    """game.playouts(n): random 4-player games entirely in the core, on one thread.

    The generic playouts of the game contract (``engine.py``: ``c_deal`` then random
    ``c_do`` until the end, the GIL released), in rounds of 200 fresh deals.
    """
    benchmark.group = "atlantic_star: game.playouts(n), 4 players, in the core"
    n = 200  # a new deal per game: a handful of repeated games would flatter the figure
    result = benchmark(GAMES[mode].playouts, n, 99, threads=1)
    assert result.games == n and len(set(result.lengths.tolist())) > 10  # distinct deals
    benchmark.extra_info["games"] = n
    benchmark.extra_info["actions"] = result.actions


def midgame_json(mode: str) -> bytes:
    """A 4-player snapshot after 60 seeded random actions (two seas sailed, hands full)."""
    g: Any = GAMES[mode]
    state = g.new_state(seed=11)
    rnd = random.Random(11)
    for _ in range(60):
        state.apply(rnd.choice(state.legal_actions()))
    return state.to_json().encode()  # type: ignore[no-any-return]


@pytest.mark.parametrize("mode", MODES)
def test_load_state_midgame_json(benchmark: Any, mode: str) -> None:
    """Decode, check every invariant (in the core) and build the state."""
    benchmark.group = "atlantic_star: load_state() mid-game JSON"
    data = midgame_json(mode)
    g: Any = GAMES[mode]
    state = benchmark(g.load_state, data)
    assert state.to_json().encode() == data


def test_msgspec_typed_decode_same_bytes(benchmark: Any) -> None:
    """The floor load_state() is measured against: msgspec's typed decode alone."""
    benchmark.group = "atlantic_star: msgspec typed decode, same bytes"
    data = midgame_json(MODES[0])
    decoder = msgspec.json.Decoder(AtlanticStarStateData)
    decoded = benchmark(decoder.decode, data)
    assert decoded.schema_version == 3


def midgame_state(mode: str) -> Any:
    """The state of ``midgame_json`` (4 players after 60 actions): the same for views,
    resampling and tensors."""
    g: Any = GAMES[mode]
    return g.load_state(midgame_json(mode))


@pytest.mark.parametrize("mode", MODES)
def test_view_midgame(benchmark: Any, mode: str) -> None:
    """view(seat) built by the core from its arrays (seat 0 is not the seat to move)."""
    benchmark.group = "atlantic_star: view() mid-game"
    state = midgame_state(mode)
    view = benchmark(state.view, 0)
    assert view.hand_sizes == [len(h) for h in state.to_data().hands]


@pytest.mark.parametrize("mode", MODES)
def test_resample_midgame(benchmark: Any, mode: str) -> None:
    """resample(seat, seed): a copy with the other hands and the pack dealt anew in C."""
    benchmark.group = "atlantic_star: resample() mid-game"
    state = midgame_state(mode)
    other = benchmark(state.resample, 0, 5)
    assert other.view(0) == state.view(0)


@pytest.mark.parametrize("mode", MODES)
def test_observation_into_a_buffer_midgame(benchmark: Any, mode: str) -> None:
    """observation(seat, out=buf): the tensor written into a preallocated float32 buffer."""
    benchmark.group = "atlantic_star: observation(out=buf) mid-game"
    state = midgame_state(mode)
    g: Any = GAMES[mode]
    buf = np.zeros(g.observation_shape, dtype=np.float32)
    out = benchmark(state.observation, 0, buf)
    assert out is buf and buf.any()
