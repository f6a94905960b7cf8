"""Dream Cruise: hypothesis drives the decoders, and every state play reaches reloads.

Nothing but InvalidStateError may escape a decoder, and whatever loads must be a playable
state (the compiled core never sees a bad index). A tampered snapshot of a reached state
(any field) is either refused or accepted as it was given and then plays to the end alike
in the compiled and the pure core (``tests/tamper.py``). Every state of many seeded games
(the rare endings too: the location cards run out, C20; the ship cards run out, C16)
reloads equal from JSON and MessagePack.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cruiselib
from cruiselib.dream_cruise import CardSet, DreamCruiseGame, DreamCruiseState
from tests.support import load_and_play
from tests.tamper import check_tampered, mutation, positions

CONFIGS: list[dict[str, Any]] = [
    {"players": 1},
    {"players": 2},
    {"players": 4},
    {"players": 3, "sea_ship_draw": True, "additions": 4, "route_points": (0, 2, 5, 12)},
    {"players": 1, "difficulty": 3, "additions": 1},
]
IDS = ["-".join(f"{k}={v}" for k, v in c.items()) for c in CONFIGS]
GAMES = [cruiselib.make("dream_cruise", **c) for c in CONFIGS]
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TAMPER = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)


def _positions() -> list[tuple[Any, DreamCruiseState]]:
    out = []
    for g in GAMES:
        for seed in range(2):
            state = g.new_state(seed=seed)
            rnd = random.Random(seed)
            step = 0
            while not state.is_over:
                if step % 29 == 0:
                    out.append((g, state.clone()))
                state.apply(rnd.choice(state.legal_actions()))
                step += 1
            out.append((g, state))
    return out


POSITIONS = _positions()


def _load_and_play(game: Any, data: Any) -> None:
    load_and_play(game, data, game._state_class)


@FUZZ
@given(st.binary(max_size=600))
def test_random_bytes(data: bytes) -> None:
    for g in GAMES[:2]:
        _load_and_play(g, data)


@FUZZ
@given(st.text(max_size=300))
def test_random_text(data: str) -> None:
    _load_and_play(GAMES[1], data)


@FUZZ
@given(st.integers(0, len(POSITIONS) - 1), st.data())
def test_flipped_bytes_of_real_states(index: int, data: st.DataObject) -> None:
    game, state = POSITIONS[index]
    raw = bytearray(data.draw(st.sampled_from([state.to_json().encode(), state.to_msgpack()])))
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, len(raw) - 1))
        raw[pos] = data.draw(st.integers(0, 255))
    _load_and_play(game, bytes(raw))


small_ints = st.integers(-3, 100)
field_values = st.one_of(
    small_ints,
    st.booleans(),
    st.none(),
    st.lists(small_ints, max_size=6),
    st.lists(st.lists(st.integers(-1, 3), max_size=4), max_size=3),
    st.sampled_from(["boarding", "set_course", "entertainment", "set_sail", "over", "0123456789abcdef"]),
)


@FUZZ
@given(st.integers(0, len(POSITIONS) - 1), st.data())
def test_tampered_fields(index: int, data: st.DataObject) -> None:
    # One to three top-level fields, or fields of one seat, set to arbitrary values.
    game, state = POSITIONS[index]
    d = msgspec.to_builtins(state.to_data())
    for _ in range(data.draw(st.integers(1, 3))):
        seats_intact = isinstance(d["seats"], list) and d["seats"] and all(isinstance(x, dict) for x in d["seats"])
        if not seats_intact or data.draw(st.booleans()):  # an earlier draw may have replaced "seats"
            key = data.draw(st.sampled_from(sorted(d)))
            d[key] = data.draw(field_values)
        else:
            seat = d["seats"][data.draw(st.integers(0, len(d["seats"]) - 1))]
            seat[data.draw(st.sampled_from(sorted(seat)))] = data.draw(field_values)
    _load_and_play(game, d)
    _load_and_play(game, msgspec.json.encode(d))


def _zones(d: dict[str, Any]) -> list[list[int]]:
    zones = [d[k] for k in ("family_deck", "family_discard", "family_box", "location_deck", "location_discard",
                            "ship_deck", "ship_discard", "jana_pile", "jana_locations")]
    for seat in d["seats"]:
        zones += [seat["played"], seat["points_pile"], seat["hand"], seat["known"], seat["drawn"]]
    zones += [s["cards"] for s in d["display"]]
    return zones


@FUZZ
@given(st.integers(0, len(POSITIONS) - 1), st.data())
def test_moved_cards(index: int, data: st.DataObject) -> None:
    # Plausible tampering: a card id moved from one zone to another (of any kind).
    game, state = POSITIONS[index]
    d = msgspec.to_builtins(state.to_data())
    zones = _zones(d)
    a = data.draw(st.sampled_from([z for z in zones if z]))
    b = data.draw(st.sampled_from(zones))
    card = a.pop(data.draw(st.integers(0, len(a) - 1)))
    b.insert(data.draw(st.integers(0, len(b))), card)
    _load_and_play(game, d)


@cache
def _tamper_setup(index: int) -> tuple[Any, Any, list[dict[str, Any]]]:
    game = GAMES[index]
    return game, game.pure_twin(), positions(game, n_games=2, seed=index, every=37)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_tampered_snapshots_are_refused_or_play_out_identically(index: int) -> None:
    game, twin, trees = _tamper_setup(index)

    @TAMPER
    @given(st.data())
    def run(data: st.DataObject) -> None:
        tree = data.draw(st.sampled_from(trees), label="position")
        description, tampered = data.draw(mutation(tree), label="mutation")
        check_tampered(game, twin, tampered, f"{game!r}: {description}")

    run()


# --------------------------------------------------------------------------- reached states


def few_locations(n: int, seas: int = 0) -> CardSet:
    """The standard set with only its first ``n`` shore and ``seas`` sea location cards:
    the location cards run out within a few rounds (C20)."""
    std = CardSet.standard()
    shore = [loc for loc in std.locations if loc.kind == "shore"][:n]
    sea = [loc for loc in std.locations if loc.kind == "sea"][:seas]
    return CardSet(name=f"locations-{n}-{seas}", families=std.families, locations=(*shore, *sea), ships=std.ships)


def few_ships(n: int) -> CardSet:
    """The standard set with only ``n`` ship cards (half of them additions): the ship cards
    run out and the display has short sets (C16)."""
    std = CardSet.standard()
    adds = [s for s in std.ships if s.kind == "addition"][: n // 2]
    acts = [s for s in std.ships if s.kind == "activity"][: n - len(adds)]
    return CardSet(name=f"ships-{n}", families=std.families, locations=std.locations, ships=(*adds, *acts))


def ending(state: DreamCruiseState, was_final: bool) -> str | None:
    """How the final round was triggered, seen at the step where ``final_round`` turned on:
    a location card to draw with deck and discard pile empty (C20), else a family card (C8)."""
    data = state.to_data()
    if was_final or not data.final_round:
        return None
    if not data.location_deck and not data.location_discard:
        return "locations ran out (C20)"
    return "families ran out (C8)"


REACH = [
    *CONFIGS,
    {"players": 4, "cards": few_locations(6)},
    {"players": 2, "cards": few_locations(3, seas=1)},
    {"players": 3, "cards": few_ships(4)},
    {"players": 1, "cards": few_ships(2), "sea_ship_draw": True},
]


def test_every_state_that_play_reaches_reloads_equal() -> None:
    n_games = 12 if cruiselib.compiled else 4
    seen: set[str] = set()
    states = 0
    for options in REACH:
        game = cruiselib.make("dream_cruise", **options)
        assert isinstance(game, DreamCruiseGame)
        for seed in range(n_games):
            state = game.new_state(seed=seed)
            rnd = random.Random(seed)
            while True:
                data = state.to_data()
                for blob in (state.to_json(), state.to_msgpack()):
                    loaded = game.load_state(blob)
                    assert loaded == state and loaded.to_json() == state.to_json()
                states += 1
                if data.ship_deck == [] and data.ship_discard == []:
                    seen.add("ship cards ran out (C16)")
                if state.is_over:
                    break
                state.apply(rnd.choice(state.legal_actions()))
                why = ending(state, data.final_round)
                if why:
                    seen.add(why)
    assert states > 1000
    assert {"families ran out (C8)", "locations ran out (C20)", "ship cards ran out (C16)"} <= seen
