"""Dream Islands: hypothesis drives the decoders. Nothing but InvalidStateError may escape,
and whatever loads must be a playable state (the compiled core never sees a bad index)."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cruiselib.dream_islands import DreamIslandsState
from tests.dream_islands.helpers import game
from tests.support import load_and_play

GAMES = [game(p) for p in (2, 3, 4)]
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _positions() -> list[tuple[Any, DreamIslandsState]]:
    out = []
    for g in GAMES:
        for seed in range(3):
            state = g.new_state(seed=seed)
            rnd = random.Random(seed)
            step = 0
            while not state.is_over:
                if step % 23 == 0:
                    out.append((g, state.clone()))
                state.apply(rnd.choice(state.legal_actions()))
                step += 1
            out.append((g, state))
    return out


POSITIONS = _positions()


def _load_and_play(game: Any, data: Any) -> None:
    load_and_play(game, data, DreamIslandsState)


@FUZZ
@given(st.binary(max_size=600))
def test_random_bytes(data: bytes) -> None:
    for g in GAMES:
        _load_and_play(g, data)


@FUZZ
@given(st.integers(0, len(POSITIONS) - 1), st.integers(0, 10**6), st.binary(min_size=1, max_size=4))
def test_flipped_bytes_of_real_states(index: int, where: int, noise: bytes) -> None:
    game, state = POSITIONS[index]
    for blob in (state.to_json().encode(), state.to_msgpack()):
        pos = where % len(blob)
        _load_and_play(game, blob[:pos] + noise + blob[pos + len(noise) :])


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(data, dict):
        return [p for k, v in data.items() for p in _leaves(v, (*path, k))]
    if isinstance(data, list):
        return [(*path, i) for i in range(len(data))] + [p for i, v in enumerate(data) for p in _leaves(v, (*path, i))]
    return [path]


@FUZZ
@given(
    st.integers(0, len(POSITIONS) - 1),
    st.integers(0, 10**6),
    st.one_of(st.integers(-3, 20), st.none(), st.booleans(), st.lists(st.integers(-1, 17), max_size=5)),
)
def test_tampered_fields_of_real_states(index: int, which: int, value: Any) -> None:
    game, state = POSITIONS[index]
    data = json.loads(state.to_json())
    leaves = [p for p in _leaves(data) if p]
    path = leaves[which % len(leaves)]
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    _load_and_play(game, json.dumps(data))
    _load_and_play(game, msgspec.msgpack.encode(data))
