"""Sirens in Sight: hypothesis drives the decoders. Nothing but InvalidStateError may escape,
and whatever loads must be a playable state (the compiled core never sees a bad index)."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cruiselib
from cruiselib.sirens import SirensState
from tests.support import load_and_play

GAME = cruiselib.make("sirens")
VARIANT = cruiselib.make("sirens", variant="bow_to_rear")
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _positions() -> list[Any]:
    out = []
    for game in (GAME, VARIANT):
        for seed in range(4):
            state = game.new_state(seed=seed)
            rnd = random.Random(seed)
            for step in range(60):
                if state.is_over:
                    break
                if step % 9 == 0:
                    out.append((game, state.clone()))
                state.apply(rnd.choice(state.legal_actions()))
            out.append((game, state))
    return out


POSITIONS = _positions()


def _load_and_play(game: Any, data: Any) -> None:
    load_and_play(game, data, SirensState)


@FUZZ
@given(st.binary(max_size=600))
def test_random_bytes(data: bytes) -> None:
    _load_and_play(GAME, data)


@FUZZ
@given(st.text(max_size=300))
def test_random_text(data: str) -> None:
    _load_and_play(GAME, data)


@FUZZ
@given(st.integers(0, len(POSITIONS) - 1), st.data())
def test_flipped_bytes(index: int, data: st.DataObject) -> None:
    game, state = POSITIONS[index]
    raw = bytearray(data.draw(st.sampled_from([state.to_json().encode(), state.to_msgpack()])))
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, len(raw) - 1))
        raw[pos] = data.draw(st.integers(0, 255))
    _load_and_play(game, bytes(raw))


small_ints = st.integers(-3, 70)
field_values = st.one_of(
    small_ints,
    st.lists(small_ints, max_size=6),
    st.lists(st.lists(small_ints, max_size=6), max_size=3),
    st.lists(st.lists(st.lists(small_ints, max_size=6), max_size=3), max_size=6),
    st.sampled_from(["pick", "main", "after", "crew", "over", "standard", "bow_to_rear"]),
    st.none(),
    st.fixed_dictionaries({"ship": small_ints, "side": small_ints, "source": small_ints, "draw": st.booleans()}),
)


@FUZZ
@given(st.integers(0, len(POSITIONS) - 1), st.data())
def test_tampered_fields(index: int, data: st.DataObject) -> None:
    game, state = POSITIONS[index]
    d = msgspec.to_builtins(state.to_data())
    for _ in range(data.draw(st.integers(1, 3))):
        key = data.draw(st.sampled_from(sorted(d)))
        d[key] = data.draw(field_values)
    _load_and_play(game, d)
    _load_and_play(game, msgspec.json.encode(d))


@FUZZ
@given(st.integers(0, len(POSITIONS) - 1), st.data())
def test_moved_cards(index: int, data: st.DataObject) -> None:
    # Plausible tampering: swap two card ids between any two zones of a real state.
    game, state = POSITIONS[index]
    d = msgspec.to_builtins(state.to_data())
    zones = [*d["hands"], *d["piles"], d["removed"], *[s for ship in d["sides"] for s in ship]]
    filled = [z for z in zones if z]
    a = data.draw(st.sampled_from(filled))
    b = data.draw(st.sampled_from(zones))
    card = a.pop(data.draw(st.integers(0, len(a) - 1)))
    b.insert(data.draw(st.integers(0, len(b))), card)
    _load_and_play(game, d)
