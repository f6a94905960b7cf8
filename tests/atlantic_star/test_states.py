"""Saved states: integer ranges (schema, view, moves, options), the invariants every loaded
state must satisfy, validation in the compiled core, and schema version 2."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cruiselib
from cruiselib import InvalidOptionError, InvalidStateError
from cruiselib.atlantic_star import (
    LEGS,
    SEAS,
    AtlanticStarState,
    AtlanticStarStateData,
    Entry,
    Loan,
    Ship,
    ShipList,
)
from cruiselib.atlantic_star.schema import MAX_MONEY

from ..support import load_and_play
from .helpers import build, game, regular_ships, sailed

C_INT_MAX = 2**31 - 1


def played(players: int = 4, seed: int = 21, steps: int = 90) -> Any:
    """A position reached by ``steps`` seeded random actions (or the end)."""
    state = game(players).new_state(seed=seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rnd.choice(state.legal_actions()))
    return state


def as_dict(state: Any) -> dict[str, Any]:
    d: dict[str, Any] = msgspec.to_builtins(state.to_data())
    return d


def encode(d: dict[str, Any], fmt: str) -> bytes:
    return json.dumps(d).encode() if fmt == "json" else msgspec.msgpack.encode(d)


def credit(g: Any, d: dict[str, Any], seat: int) -> int:
    """Starting capital plus the seat's loans, in marks."""
    loans = sum(p["loan"] for s in d["seas"] for p in s["plaques"] if p.get("seat") == seat)
    return int(g.rules.start_money * 1000 + loans)


# ---------------------------------------------------------------- 1. integer ranges


@pytest.mark.parametrize("fmt", ["json", "msgpack"])
def test_money_beyond_capital_and_loans_does_not_load(fmt: str) -> None:
    """Loans are the only income, so a seat never holds more than its starting capital
    plus its loans. Before: 999,999,000 marks loaded, and one loan later the state no
    longer loaded (beyond the schema's cap)."""
    g = game(4)
    d = as_dict(played())
    seat = d["current_player"]
    d["money"][seat] = 999_999_000
    with pytest.raises(InvalidStateError):
        g.load_state(encode(d, fmt))
    d["money"][seat] = credit(g, d, seat) + 1000
    with pytest.raises(InvalidStateError, match="starting capital"):
        g.load_state(encode(d, fmt))
    d["money"][seat] = credit(g, d, seat)
    g.load_state(encode(d, fmt))  # exactly capital + loans: nothing spent yet


def borrow(d: dict[str, Any], seat: int, sea: int, marks: int) -> None:
    """Edit snapshot ``d`` as if ``seat`` had borrowed ``marks`` against its (first) voyage
    in ``sea``: value down, money up, the plaque re-ranked as a later arrival (A7)."""
    plaques = d["seas"][sea]["plaques"]
    i = next(k for k, p in enumerate(plaques) if p.get("seat") == seat)
    p = plaques.pop(i)
    p["value"] -= marks // 1000
    p["loan"] += marks
    k = 0
    while k < len(plaques) and plaques[k]["value"] >= p["value"]:
        k += 1
    plaques.insert(k, p)
    d["money"][seat] += marks


def richest(players: int) -> tuple[Any, dict[str, Any]]:
    """Every seat has sailed every sea once; seat 0 has borrowed 10,000 on three of them
    and spent nothing: the most money the rules allow before its last loan."""
    g = game(players)
    seas = sailed(g, {sea: (1 + s, list(range(players))) for s, sea in enumerate(SEAS)}, set())
    d = as_dict(build(g, seas=seas))
    for s in range(3):
        borrow(d, 0, s, 10_000)
    return g, d


@pytest.mark.parametrize("players", [2, 3])
def test_the_richest_seat_takes_its_last_loan_and_stays_loadable(players: int) -> None:
    """The schema's money cap is derived from the rules: 36,000 to start (2-3 players) and
    one loan of at most 10,000 per sea. The richest state play can reach loads and
    round-trips. (With 4-6 players a seat borrows at most three times: its fourth voyage
    is its last turn, A9.)"""
    assert MAX_MONEY == 36_000 + 4 * 10_000
    g, d = richest(players)
    state = g.load_state(json.dumps(d))
    assert state.current_player == 0
    state.apply(Loan(sea="Pacific", amount=10_000))
    money = state.to_data().money[0]
    assert money == g.rules.start_money * 1000 + 40_000
    if players <= 3:
        assert money == MAX_MONEY
    again = g.load_state(state.to_json())
    assert again == state
    assert g.load_state(state.to_msgpack()) == state
    # One thousand more does not fit any game (and not this seat's loans either).
    d = as_dict(state)
    d["money"][0] = money + 1000
    with pytest.raises(InvalidStateError):
        g.load_state(json.dumps(d))


def test_play_that_borrows_all_it_can_stays_loadable() -> None:
    """Seeded games where every seat borrows the most it can whenever it can: every state
    reached loads back (so no counter passes its schema bound)."""
    for players in (2, 3, 4, 6):
        g = game(players)
        for seed in range(4 if cruiselib.compiled else 1):
            state = g.new_state(seed=seed)
            rnd = random.Random(seed)
            while not state.is_over:
                moves = state.legal_moves()
                loans = [m for m in moves if isinstance(m, Loan)]
                move = max(loans, key=lambda m: m.amount) if loans else rnd.choice(moves)
                state.apply(move)
                if loans:
                    assert g.load_state(state.to_json()) == state
            assert g.load_state(state.to_json()) == state


def integer_nodes(schema: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every node of type integer in a JSON Schema (with its path), through $defs."""
    out: list[tuple[str, dict[str, Any]]] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            if node.get("type") == "integer":
                out.append((path, node))
            for key, value in node.items():
                walk(value, f"{path}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}/{i}")

    walk(schema, "#")
    return out


@pytest.mark.parametrize("kind", ["state", "view", "move"])
def test_every_integer_field_has_bounds_that_fit_a_c_int(kind: str) -> None:
    """Every integer of the state, the view and the moves has a minimum and a maximum
    within the core's C int (and JSON-safe). Before: the view's and the board's integers
    (and a move's points) were unbounded."""
    nodes = integer_nodes(game(4).json_schemas()[kind])
    assert nodes
    for path, node in nodes:
        assert "minimum" in node, path
        assert "maximum" in node, path
        assert -C_INT_MAX <= node["minimum"] <= node["maximum"] <= C_INT_MAX, path


def test_integer_bounds_hold_in_every_view_and_move_of_played_games() -> None:
    """The bounds are real: views and annotated moves of played games validate."""
    g = game(2)
    view_type = g.view_type
    for seed in range(3):
        state = played(2, seed=seed, steps=10_000)
        assert state.is_over
        for p in range(2):
            msgspec.json.decode(msgspec.json.encode(state.view(p)), type=view_type)
        mid = played(2, seed=seed, steps=60)
        for p in range(2):
            msgspec.json.decode(msgspec.json.encode(mid.view(p)), type=view_type)
        for m in mid.legal_moves():
            msgspec.json.decode(msgspec.json.encode(m), type=g.move_type)


@pytest.mark.parametrize(
    "players", [2.0, 4.0, True, False, "4", None, 1, 7, -1, 2**70, [4]]
)
def test_bad_player_options_raise_invalid_option(players: Any) -> None:
    with pytest.raises(InvalidOptionError):
        cruiselib.make("atlantic_star", players=players)


def ship_list(n: int) -> ShipList:
    """A list of exactly ``n`` ships: the standard ships, then copies under new names."""
    std = list(ShipList.standard().ships)
    ships = [*std, *(msgspec.structs.replace(s, name=f"{s.name} II") for s in std)][:n]
    return ShipList(name=f"{n} ships", ships=tuple(ships))


@pytest.mark.parametrize("n", [128, 256])
def test_ship_lists_of_128_and_256_ships_play_and_round_trip(n: int) -> None:
    """A12's edges: the smallest and the largest list both play whole games whose every
    state loads back (ids up to 255 fit the schema and the core)."""
    for players in (2, 6):
        g: Any = cruiselib.make("atlantic_star", players=players, ships=ship_list(n))
        assert g.ships.ships[-1].name
        state = g.new_state(seed=n + players)
        rnd = random.Random(n)
        step = 0
        while not state.is_over:
            state.apply(rnd.choice(state.legal_actions()))
            step += 1
            if step % 17 == 0:
                assert g.load_state(state.to_json()) == state
        assert g.load_state(state.to_msgpack()) == state
        assert sum(len(h) for h in state.to_data().hands) <= 2 * players
        p = g.playouts(20, seed=1)
        assert (p.wins.sum(axis=1) >= 1).all()


@pytest.mark.parametrize("n", [127, 257, 0])
def test_ship_lists_outside_128_to_256_are_refused(n: int) -> None:
    std = list(ShipList.standard().ships)
    ships = [*std, *(msgspec.structs.replace(s, name=f"{s.name} II") for s in std)][:n]
    with pytest.raises(InvalidOptionError, match=r"128\.\.256 ships"):
        ShipList(name="x", ships=tuple(ships))
    data = msgspec.json.encode({"name": "x", "ships": [msgspec.to_builtins(s) for s in ships]})
    with pytest.raises(InvalidOptionError, match=r"128\.\.256 ships"):
        ShipList.from_json(data)


def with_first_ship(ship: Any) -> tuple[Any, ...]:
    return (ship, *ShipList.standard().ships[1:])


@pytest.mark.parametrize(
    "ship",
    [
        Ship(name="Leg0", legs=(Entry(sea="Baltic", leg=0, value=1),)),
        Ship(name="Leg7", legs=(Entry(sea="Pacific", leg=7, value=1),)),
        Ship(name="Huge", legs=(Entry(sea="Baltic", leg=1, value=10**12),)),
        Ship(name="Zero", legs=(Entry(sea="Baltic", leg=1, value=0),)),
        Ship(name="Bool", legs=(Entry(sea="Baltic", leg=1, value=True),)),
        Ship(name="Float", legs=(Entry(sea="Baltic", leg=1.0, value=1),)),  # type: ignore[arg-type]
        Ship(name="Arctic", legs=(Entry(sea="Arctic", leg=1, value=1),)),  # type: ignore[arg-type]
        Ship(name="", legs=(Entry(sea="Baltic", leg=1, value=1),)),
        Ship(name="NotMail", mail=1, legs=()),  # type: ignore[arg-type]
        "a ship",
    ],
)
def test_ship_lists_built_in_python_are_checked_like_decoded_ones(ship: Any) -> None:
    """msgspec checks no field when a ShipList is built in Python: before, a leg 0 wrote
    outside the core's tables and a value of 10**12 raised OverflowError from make()."""
    with pytest.raises(InvalidOptionError):
        cruiselib.make("atlantic_star", ships=ShipList(name="x", ships=with_first_ship(ship)))


# ---------------------------------------------------------------- 2. invariants of played states

Mutation = Callable[[dict[str, Any], Any], Any]


def next_unfinished(d: dict[str, Any], g: Any, seat: int) -> int:
    staged = [0] * g.num_players
    for s in d["seas"]:
        for p in s["plaques"]:
            if p.get("seat") is not None:
                staged[p["seat"]] += 1
    n: int = g.num_players
    return next((seat + k) % n for k in range(1, n) if staged[(seat + k) % n] < 4 * g.sets)


def hand_limit(d: dict[str, Any], g: Any, seat: int) -> int:
    done = [0] * 4
    for s, sea in enumerate(d["seas"]):
        done[s] = sum(1 for p in sea["plaques"] if p.get("seat") == seat)
    return max((LEGS[s] for s in range(4) if done[s] < g.sets), default=0) + 2


def pack_to_hand(d: dict[str, Any], g: Any) -> None:
    seat = next(p for p in range(g.num_players) if len(d["hands"][p]) < hand_limit(d, g, p))
    d["hands"][seat] = sorted([*d["hands"][seat], d["deck"].pop()])


def hand_to_pack(d: dict[str, Any], g: Any) -> None:
    seat = next(p for p in range(g.num_players) if d["hands"][p])
    d["deck"].append(d["hands"][seat].pop())


def voyage_to_pack(d: dict[str, Any], g: Any) -> None:
    sea = max(d["seas"], key=lambda s: sum(p.get("seat") is not None for p in s["plaques"]))
    i = max(i for i, p in enumerate(sea["plaques"]) if p.get("seat") is not None)
    d["deck"].extend(sea["plaques"].pop(i)["ships"])


def operators_only(d: dict[str, Any], g: Any) -> None:
    taken = {s["stars"] for s in d["seas"]}
    sea = next(s for s in d["seas"] if not s["plaques"])
    sea["stars"] = max(c for c in range(1, 6) if c not in taken)
    ops = [(j, g.rules.operator_value(j, d["seas"].index(sea))) for j in range(2)]
    sea["plaques"] = [{"operator": j, "value": v} for j, v in sorted(ops, key=lambda x: -x[1])]


def pack_to_discard(k: int) -> Mutation:
    def mutate(d: dict[str, Any], g: Any) -> None:
        for _ in range(k):
            d["discard"].append(d["deck"].pop())

    return mutate


# (what, how many random actions lead to the position, the edit). Position 0 is the deal:
# nobody has paid for anything yet; after 40 actions two seas are sailed.
TAMPERS: list[tuple[str, int, Mutation]] = [
    (
        "seat to move is another seat",
        90,
        lambda d, g: d.update(current_player=next_unfinished(d, g, d["current_player"])),
    ),
    (
        "start player is another seat",
        90,
        lambda d, g: d.update(start_player=(d["start_player"] + 1) % g.num_players),
    ),
    ("a ship from the pack into a hand", 90, pack_to_hand),
    ("a ship from a hand into the pack", 90, hand_to_pack),
    ("a voyage's plaque removed, its ships in the pack", 90, voyage_to_pack),
    ("package operators in a sea nobody sailed", 40, operators_only),
    ("one ship moved to the discard pile", 90, pack_to_discard(1)),
    ("four ships on the discard pile, but no refresh was paid", 0, pack_to_discard(4)),
    (
        "money beyond capital and loans",
        90,
        lambda d, g: d["money"].__setitem__(
            d["current_player"], credit(g, d, d["current_player"]) + 1000
        ),
    ),
    ("agency phase without a loan or a refresh", 0, lambda d, g: d.update(phase="agency")),
]


@pytest.mark.parametrize("fmt", ["json", "msgpack"])
@pytest.mark.parametrize(("name", "steps", "mutate"), TAMPERS, ids=[t[0] for t in TAMPERS])
def test_tampered_states_that_used_to_load_are_rejected(
    name: str, steps: int, mutate: Mutation, fmt: str
) -> None:
    """Each of these loaded before and played on from a position no game can reach."""
    g = game(4)
    d = as_dict(played(4, seed=21, steps=steps))
    g.load_state(encode(d, fmt))  # the untampered state loads
    mutate(d, g)
    with pytest.raises(InvalidStateError):
        g.load_state(encode(d, fmt))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_state_of_played_games_loads_back(players: int) -> None:
    """The checks hold for every position play reaches (refreshes, loans, reshuffles,
    finished seats skipped), not only at the conformance suite's sampled steps; so do
    resampled positions."""
    g = game(players)
    for seed in range(6 if cruiselib.compiled else 1):
        state = g.new_state(seed=1000 + seed)
        rnd = random.Random(seed)
        step = 0
        while True:
            assert g.load_state(state.to_msgpack()) == state
            if step % 10 == 0:
                other = state.resample(rnd.randrange(players), seed=step)
                assert g.load_state(other.to_json()) == other
            if state.is_over:
                break
            state.apply(rnd.choice(state.legal_actions()))
            step += 1


def test_a_refreshed_turn_is_in_the_agency_phase_and_loads() -> None:
    """The counterpart of the two checks above: after a refresh the discard pile holds
    four ships for 2,000 marks paid, and the 'agency' phase follows."""
    g = game(4)
    state = g.new_state(seed=3)
    state.apply(g.action_to_move(g.rules.a_refresh))
    d = as_dict(state)
    assert d["phase"] == "agency"
    assert len(d["discard"]) == 4
    assert g.load_state(json.dumps(d)) == state


def test_a_full_class_keeps_one_voyage_without_a_loan() -> None:
    """The voyage that filled a class came after every loan there (no loan once the six
    fields are full)."""
    g = game(6)
    used: set[str] = set()
    seas = sailed(g, {"Mediterranean": (2, list(range(6)))}, used)
    spare = regular_ships(g, 6, exclude=used)  # one ship chartered since, each
    d = as_dict(build(g, seas=seas, hands={p: [spare[p]] for p in range(6)}, current=0))
    for seat in range(5):
        borrow(d, seat, 1, 1000)
    g.load_state(json.dumps(d))  # seat 5's voyage may have been the last to come
    borrow(d, 5, 1, 1000)
    with pytest.raises(InvalidStateError, match="filled its class"):
        g.load_state(json.dumps(d))


def test_a_finished_seat_has_a_voyage_without_a_loan() -> None:
    """A seat that staged its last voyage takes no more turns (A9): no loan on that one."""
    g = game(4)
    used: set[str] = set()
    seas = sailed(
        g,
        {
            "Baltic": (1, [1, 0, 2, 3]),
            "Mediterranean": (2, [1, 0, 2, 3]),
            "Atlantic": (3, [1, 0, 2, 3]),
            "Pacific": (4, [1]),
        },
        used,
    )
    d = as_dict(build(g, seas=seas, current=0))
    for sea in range(3):
        borrow(d, 1, sea, 1000)
    g.load_state(json.dumps(d))
    borrow(d, 1, 3, 1000)
    with pytest.raises(InvalidStateError, match="no turn after"):
        g.load_state(json.dumps(d))


def test_loans_on_every_voyage_need_a_turn_since_the_last_one() -> None:
    """An empty hand means no ship kept and none chartered since the seat's last voyage:
    a loan on every voyage is only possible in the turn in progress."""
    g = game(4)
    used: set[str] = set()
    seas = sailed(g, {"Atlantic": (4, [0, 1, 2])}, used)  # seat 3 chartered six ships
    state = build(g, seas=seas, hands={0: [], 1: [], 2: []}, current=0)
    d = as_dict(state)
    borrow(d, 1, 2, 1000)
    with pytest.raises(InvalidStateError, match="no turn"):
        g.load_state(json.dumps(d))
    # Seat 0's loan in its own turn in progress is fine.
    state.apply(Loan(sea="Atlantic", amount=1000))
    assert g.load_state(state.to_json()) == state


@settings(max_examples=150 if cruiselib.compiled else 40, deadline=None)
@given(st.data())
def test_fuzz_structured_tampering_loads_only_playable_states(data: st.DataObject) -> None:
    """Random edits of a played state's fields (numbers nudged, ships moved between
    places, seats and phases changed): whatever loads plays 30 random moves, each state
    reached loading back."""
    players = data.draw(st.sampled_from([2, 4, 5]))
    g = game(players)
    d = as_dict(played(players, seed=data.draw(st.integers(0, 5)), steps=data.draw(st.integers(0, 150))))
    zones = [d["deck"], d["discard"], *d["hands"]]
    for _ in range(data.draw(st.integers(1, 3))):
        what = data.draw(st.integers(0, 6))
        if what == 0:
            src = data.draw(st.sampled_from([z for z in zones if z] or [d["deck"]]))
            dst = data.draw(st.sampled_from(zones))
            if src:
                dst.append(src.pop(data.draw(st.integers(0, len(src) - 1))))
                if dst is not d["deck"] and dst is not d["discard"]:
                    dst.sort()
        elif what == 1:
            d["money"][data.draw(st.integers(0, players - 1))] += data.draw(
                st.sampled_from([-2000, -1000, 1000, 2000, 10_000])
            )
        elif what == 2:
            d["current_player"] = data.draw(st.integers(-1, players - 1))
        elif what == 3:
            d["start_player"] = data.draw(st.integers(0, players - 1))
        elif what == 4:
            d["phase"] = data.draw(st.sampled_from(["loan", "agency", "over"]))
        else:
            plaques = [p for s in d["seas"] for p in s["plaques"] if p.get("seat") is not None]
            if plaques:
                p = data.draw(st.sampled_from(plaques))
                delta = data.draw(st.sampled_from([-1, 1]))
                p["value"] -= delta
                p["loan"] += 1000 * delta
                if what == 6:  # as a loan would: the money too
                    d["money"][p["seat"]] += 1000 * delta
    try:
        raw = json.dumps(d).encode()
    except (TypeError, ValueError):  # pragma: no cover
        return
    load_and_play(g, raw, AtlanticStarState)


# ---------------------------------------------------------------- 3. validation in the core


def test_the_compiled_core_validates_a_decoded_state() -> None:
    """The checks run in the core (AtlanticCore._load), not in the Python wrapper."""
    g = game(4)
    d = as_dict(played())
    good = msgspec.convert(d, AtlanticStarStateData)
    core = g._core.AtlanticCore(g.rules, None)
    core._load(good)
    assert core.legal_actions() == game(4).load_state(json.dumps(d)).legal_actions()
    d["deck"].append(d["deck"][0])
    bad = msgspec.convert(d, AtlanticStarStateData)
    with pytest.raises(InvalidStateError, match="appears twice"):
        g._core.AtlanticCore(g.rules, None)._load(bad)
    assert not hasattr(g, "_validate")


# ---------------------------------------------------------------- 4. schema version 2


def all_numbers(node: Any) -> list[int | float]:
    if isinstance(node, bool):
        return []
    if isinstance(node, (int, float)):
        return [node]
    if isinstance(node, dict):
        return [x for v in node.values() for x in all_numbers(v)]
    if isinstance(node, list):
        return [x for v in node for x in all_numbers(v)]
    return []


@pytest.mark.parametrize("players", [2, 4, 6])
def test_snapshots_write_the_generator_state_as_hex_text(players: int) -> None:
    state = played(players, seed=players, steps=10_000)
    d = json.loads(state.to_json())
    assert d["schema_version"] == 3
    assert isinstance(d["rng"], str)
    assert len(d["rng"]) == 16
    assert int(d["rng"], 16) < 2**64
    assert all(abs(x) <= 2**53 for x in all_numbers(d))


def test_version_1_snapshots_load_through_the_migration() -> None:
    g = game(4)
    state = played()
    d = as_dict(state)
    assert d.pop("known") == d["hands"]  # every held ship was chartered face up (A14)
    v1 = {**d, "schema_version": 1, "rng": int(d["rng"], 16)}
    # Version 1 (like 2) has no record of known ships: a running game loads with none (A14).
    expected = {**d, "schema_version": 3, "known": [[] for _ in d["hands"]]}
    for data in (json.dumps(v1), json.dumps(v1).encode(), msgspec.msgpack.encode(v1), v1):
        assert as_dict(g.load_state(data)) == expected
    v1["money"][0] = 999_999_000  # version 1 allowed it; the checks of version 2 apply
    with pytest.raises(InvalidStateError):
        g.load_state(json.dumps(v1))
