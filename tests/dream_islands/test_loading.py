"""Dream Islands: what ``load_state`` accepts is exactly what play can reach.

* integer ranges: every integer of the state, view and move schemas has bounds that fit
  its C type and the rules, and no counter that play increments can leave them (I15);
* every invariant of a played state is checked on load, by the compiled core: the phase
  against the end condition (I7, I9), card conservation, the counts the board and the
  turns played determine (shells I2, steps I3, missions I5), whose turn it is, the
  exchange (I6, I12, I13);
* schema version 3 (the generator state as hex text, the hand memory of I16); versions 2
  and 1 still load, with no memory.

Every tampered state here starts from a state reached by seeded play and changes one
thing, so each test shows one check at work.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.dream_islands import DreamIslandsGame, DreamIslandsState, DreamIslandsStateData
from tests.dream_islands.helpers import game
from tests.support import load_and_play

CAP = 2**31 - 1  # the round counter is a C int (I15)
ENCODINGS = ["json", "msgpack"]


def play(
    g: DreamIslandsGame, seed: int, stop: Callable[[DreamIslandsState], bool], calm: bool = False
) -> DreamIslandsState:
    """Seeded random play until ``stop(state)``; ``calm`` avoids entering the middle, so
    the game goes on for as many rounds as a test needs."""
    state = g.new_state(seed=seed)
    rnd = random.Random(seed)
    rules = g.rules
    while not stop(state):
        assert not state.is_over, "the game ended before the position the test needs"
        legal = state.legal_actions()
        if calm:
            legal = [a for a in legal if a >= rules.a_put or rules.action_flow(a)[9] == 0] or legal
        state.apply(rnd.choice(legal))
    return state


def finished(g: DreamIslandsGame, seed: int) -> DreamIslandsState:
    return play(g, seed, lambda s: s.is_over)


def data_of(state: DreamIslandsState) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(state.to_json())
    return result


def encode(data: Any, encoding: str) -> bytes:
    return json.dumps(data).encode() if encoding == "json" else msgspec.msgpack.encode(data)


def rejected(g: DreamIslandsGame, data: Any, match: str, encoding: str = "json") -> None:
    with pytest.raises(cruiselib.InvalidStateError, match=match):
        g.load_state(encode(data, encoding))


def rounds_of(state: DreamIslandsState) -> int:
    return state.view(0).rounds


# --------------------------------------------------------------------------- 1: integer ranges


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("rounds", [CAP + 1, 2**40, 2**53])
def test_rounds_beyond_the_counter_range_are_rejected(rounds: int, encoding: str) -> None:
    g = game(3)
    data = data_of(play(g, 1, lambda s: rounds_of(s) == 1))
    data["rounds"] = rounds
    rejected(g, data, "rounds|<= 2147483647", encoding)


def _near_the_cap(g: DreamIslandsGame) -> tuple[DreamIslandsState, dict[str, Any]]:
    # Shifting the rounds by a multiple of 16 keeps every count the turns determine (four
    # shells a cycle, 14 steps a cycle, steps counted modulo the 8-island ring), so a
    # state of round 14 (mod 16) becomes one of the last round before the cap.
    state = play(g, 4, lambda s: rounds_of(s) == 14 and s.current_player == g.num_players - 1, calm=True)
    data = data_of(state)
    data["rounds"] = CAP - 1
    return state, data


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_I15_a_game_without_a_round_limit_ends_at_the_counter_cap(encoding: str) -> None:
    g = game(2)
    _, data = _near_the_cap(g)
    state = g.load_state(encode(data, encoding))
    assert rounds_of(state) == CAP - 1 and state.current_player == 1
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    assert rounds_of(state) == CAP  # never past the cap, never negative
    assert g.load_state(state.to_json()) == state
    assert g.load_state(state.to_msgpack()) == state


def test_I15_a_running_state_at_the_cap_is_rejected() -> None:
    g = game(2)
    _, data = _near_the_cap(g)
    data["rounds"] = CAP  # one more than play can reach while running: 16 * k apart
    rejected(g, data, "rounds")


def test_max_rounds_up_to_the_cap_is_an_option() -> None:
    g = cruiselib.make("dream_islands", players=2, max_rounds=CAP)
    assert g.max_rounds == CAP
    _, data = _near_the_cap(game(2))
    data["max_rounds"] = CAP
    state = g.load_state(json.dumps(data))
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    assert rounds_of(state) == CAP


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2.0},
        {"players": 3.0},
        {"players": True},
        {"players": False},
        {"players": None},
        {"players": "3"},
        {"players": 2**64},
        {"max_rounds": True},
        {"max_rounds": False},
        {"max_rounds": 2.0},
        {"max_rounds": "5"},
        {"max_rounds": 0},
        {"max_rounds": -1},
        {"max_rounds": CAP + 1},
        {"max_rounds": 2**64},
    ],
)
def test_wrong_options_raise_invalid_option_error(options: dict[str, Any]) -> None:
    with pytest.raises(cruiselib.InvalidOptionError):
        cruiselib.make("dream_islands", **options)


def _integers(schema: Any, path: str = "$") -> list[tuple[str, dict[str, Any]]]:
    """Every integer node of a JSON Schema, with where it is."""
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(schema, dict):
        if schema.get("type") == "integer":
            found.append((path, schema))
        for key, value in schema.items():
            found += _integers(value, f"{path}.{key}")
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            found += _integers(value, f"{path}[{i}]")
    return found


@pytest.mark.parametrize("kind", ["state", "view", "move"])
def test_every_integer_of_the_schemas_has_c_int_bounds(kind: str) -> None:
    schema = game(4).json_schemas()[kind]
    nodes = _integers(schema)
    assert nodes
    for path, node in nodes:
        assert "minimum" in node and "maximum" in node, f"{kind} {path} is unbounded"
        assert -(2**31) <= node["minimum"] <= node["maximum"] <= CAP, f"{kind} {path} does not fit a C int"


def _integer_leaves(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(data, dict):
        return [p for k, v in data.items() for p in _integer_leaves(v, (*path, k))]
    if isinstance(data, list):
        return [p for i, v in enumerate(data) for p in _integer_leaves(v, (*path, i))]
    return [path] if type(data) is int else []


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_integers_at_and_past_their_bounds_load_and_play_or_are_rejected(encoding: str) -> None:
    # Whatever loads plays on and reloads after every move; nothing but InvalidStateError escapes.
    g = game(3)
    base = data_of(play(g, 2, lambda s: rounds_of(s) == 2 and s.phase_name == "exchange"))
    for path in _integer_leaves(base):
        for value in (-(2**31) - 1, -1, 0, 1, 6, 16, CAP - 1, CAP, CAP + 1, 2**53, 2**63):
            data = json.loads(json.dumps(base))
            target = data
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
            load_and_play(g, encode(data, encoding), DreamIslandsState)


# --------------------------------------------------------------------------- 2: invariants of play


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_finished_game_set_back_to_a_playing_phase_is_rejected(players: int, encoding: str) -> None:
    g = game(players)
    for seed in range(40):
        over = finished(g, seed)
        if rounds_of(over) % 4:  # then the shells still fit a running round; the end does not
            break
    data = data_of(over)
    assert g.load_state(json.dumps(data)) == over
    for phase, seat in [("move", 0), ("exchange", 0), ("move", players - 1), ("exchange", players - 1)]:
        rejected(g, {**data, "phase": phase, "current_player": seat}, "invalid Dream Islands state", encoding)
    rejected(g, {**data, "phase": "move", "current_player": 0}, r"earlier round.*\(I7\)", encoding)


def test_a_game_at_its_round_limit_set_back_to_a_playing_phase_is_rejected() -> None:
    g = game(3, max_rounds=4)
    data = data_of(finished(g, 1))
    assert data["rounds"] == 4
    for seat in range(3):
        rejected(g, {**data, "phase": "move", "current_player": seat}, "invalid Dream Islands state")
    rejected(g, {**data, "phase": "move", "current_player": 0, "rounds": 3}, "invalid Dream Islands state")
    rejected(g, {**data, "phase": "move", "current_player": 0}, r"round limit.*\(I9, I15\)")


def test_the_end_signalled_by_a_seat_that_has_not_moved_this_round_is_rejected() -> None:
    # Seat 2 holds all 16 missions, but missions are completed in the own turn only (I5):
    # then the game would have ended with the round in which it got them (I7).
    g = game(3)
    state = play(g, 3, lambda s: rounds_of(s) == 7 and s.current_player == 1 and s.phase_name == "move", calm=True)
    data = data_of(state)
    data["completed"][2] = list(range(16))
    data["hands"][2] = []
    data["hand_avoids"][2] = []  # no hand, nothing to remember of it (I16)
    data["piles"][2] = []
    data["known"][2] = 0
    rejected(g, data, r"earlier round.*\(I7\)")


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_shells_that_do_not_fit_the_turns_played_are_rejected(encoding: str) -> None:
    # Every turn covers one number (I2, I3): the shells a seat has follow from the turns.
    g = game(3)
    data = data_of(play(g, 5, lambda s: rounds_of(s) == 1 and s.current_player == 1 and s.phase_name == "move"))
    for seat, covered in [(0, []), (0, [2, 3, 4]), (1, []), (1, [3, 4]), (2, [4, 5])]:
        changed = json.loads(json.dumps(data))
        if changed["covered"][seat] == covered:
            continue
        changed["covered"][seat] = covered
        rejected(g, changed, r"shell.*\(I2\)", encoding)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_pieces_the_numbers_covered_cannot_have_moved_there_are_rejected(encoding: str) -> None:
    # The steps a seat took are the numbers it covered (I3): one piece one island further
    # on is one step too many, whatever happened before.
    g = game(4)
    data = data_of(play(g, 6, lambda s: rounds_of(s) == 3 and s.phase_name == "move"))
    for seat in range(4):
        pieces = data["pieces"][seat]
        island = next((i for i in range(1, 8) if pieces[i]), None)
        if island is None:
            continue
        changed = json.loads(json.dumps(data))
        changed["pieces"][seat][island] -= 1
        changed["pieces"][seat][island + 1] += 1
        rejected(g, changed, r"steps.*\(I3\)", encoding)


def test_a_seat_that_has_not_moved_yet_stands_as_dealt() -> None:
    g = game(4)
    data = data_of(g.new_state(seed=1))
    six = json.loads(json.dumps(data))
    six["pieces"][2] = [6] + [0] * 8  # the sixth piece starts on island 3 (I8)
    rejected(g, six, r"airplane.*\(I8\)")
    moved = json.loads(json.dumps(data))
    moved["pieces"][3] = [5, 0, 0, 0, 0, 1, 0, 0, 0]  # island 4 -> island 5 without a turn
    rejected(g, moved, r"steps.*\(I3\)")


def test_more_missions_than_the_turns_allow_are_rejected() -> None:
    # At most the three cards of the hand are completed in a turn (I5).
    g = game(3)
    data = data_of(play(g, 7, lambda s: rounds_of(s) == 1 and s.current_player == 0 and s.phase_name == "move"))
    seat = 2
    cards = data["piles"][seat]
    data["completed"][seat] = sorted(data["completed"][seat] + cards[-4:])
    data["piles"][seat] = cards[:-4]
    rejected(g, data, r"missions.*\(I5\)")


def test_more_cards_under_the_pile_than_the_turns_allow_are_rejected() -> None:
    g = game(3)
    data = data_of(g.new_state(seed=2))
    data["known"][1] = 1  # seat 1 has not had a turn to put a card under its pile (I6)
    rejected(g, data, r"under.*\(I6\)")


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_movers_cards_under_its_pile_and_in_its_hand_are_at_most_three_a_turn(encoding: str) -> None:
    # I6: the exchange moves cards from the mover's hand to the bottom of its pile, at most
    # the three of a turn. A snapshot that counts one card more under the pile than its
    # turns and its hand leave room for would reach, by putting the rest under, a position
    # that no longer loads: it is refused at once (found by the tamper fuzzing).
    g = game(4)
    data = _exchange(g, 11)
    cur, turns = data["current_player"], data["rounds"] + 1
    hand = len(data["hands"][cur])
    data["known"][cur] = 3 * turns - hand
    assert data["known"][cur] < len(data["piles"][cur]), "the pile must hold the cards counted under it"
    # At the bound: the whole hand goes under, one card at a time, and every step reloads.
    state = g.load_state(encode(data, encoding))
    for _ in range(hand):
        state.apply(min(a for a in state.legal_actions() if a != g.rules.a_done))
        assert g.load_state(state.to_json()).to_json() == state.to_json()
    assert state.current_player != cur, "with its hand empty the seat draws and its turn ends (I12)"
    data["known"][cur] += 1
    rejected(g, data, r"under its pile and holds.*exchange.*\(I6\)", encoding)


def test_a_short_hand_beside_a_pile_with_cards_is_rejected() -> None:
    g = game(3)
    data = data_of(play(g, 8, lambda s: rounds_of(s) == 2 and s.phase_name == "move"))
    seat = (data["current_player"] + 1) % 3
    data["piles"][seat].append(data["hands"][seat].pop())
    rejected(g, data, r"hold 3 missions.*\(I6\)")


def _exchange(g: DreamIslandsGame, seed: int) -> dict[str, Any]:
    return data_of(play(g, seed, lambda s: rounds_of(s) >= 2 and s.phase_name == "exchange"))


def test_an_exchange_without_a_card_in_hand_is_rejected() -> None:
    # I12: with an empty hand the draw happens at once, there is no exchange.
    g = game(3)
    data = _exchange(g, 9)
    cur = data["current_player"]
    data["piles"][cur] += data["hands"][cur]
    data["hands"][cur] = []
    rejected(g, data, r"exchange.*\(I12\)")


def test_the_mover_holding_a_mission_that_holds_is_rejected() -> None:
    # I13: after its move, every mission that holds was completed (I5).
    g = game(3)
    for seed in range(60):
        data = _exchange(g, seed)
        state = g.load_state(json.dumps(data))
        cur = data["current_player"]
        held = [x for x in data["piles"][cur] if (state.mission_mask(cur) >> x) & 1]
        if held:
            break
    pile, hand = data["piles"][cur], data["hands"][cur]
    i = pile.index(held[0])
    pile[i], hand[0] = hand[0], pile[i]
    rejected(g, data, r"would have been completed \(I5, I13\)")


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"phase": "over"}, "current_player must be -1"),
        ({"current_player": -1}, "current_player must be a seat"),
        ({"current_player": 5}, r"current_player|<= 3"),
    ],
)
def test_whose_turn_it_is_must_fit_the_phase(change: dict[str, Any], match: str) -> None:
    g = game(3)
    data = data_of(play(g, 10, lambda s: rounds_of(s) == 1 and s.phase_name == "move"))
    rejected(g, {**data, **change}, match)


def test_a_finished_game_needs_a_complete_round_and_an_end() -> None:
    g = game(3)
    data = data_of(play(g, 11, lambda s: rounds_of(s) == 2 and s.current_player == 0 and s.phase_name == "move"))
    rejected(g, {**data, "phase": "over", "current_player": -1}, r"ends only.*\(I7, I9\)")
    fresh = data_of(g.new_state(seed=11))
    rejected(g, {**fresh, "phase": "over", "current_player": -1}, r"complete round|ends only")


# --------------------------------------------------------------------------- 3: validation in the core


@pytest.mark.parametrize(
    "change",
    [
        {"phase": "exchange"},
        {"current_player": 2},
        {"rounds": 7},
        {"main_island": [1, 0, 0]},
    ],
)
def test_the_core_itself_rejects_a_tampered_state(change: dict[str, Any]) -> None:
    # The compiled core validates what it loads (as Sirens' does); the Python layer only
    # checks the header (game, players, options).
    g = game(3)
    data = data_of(play(g, 12, lambda s: rounds_of(s) == 1 and s.current_player == 1 and s.phase_name == "move"))
    g.new_state(seed=0)._load(msgspec.convert(data, DreamIslandsStateData))  # the untouched state loads
    decoded = msgspec.convert({**data, **change}, DreamIslandsStateData)
    with pytest.raises(cruiselib.InvalidStateError):
        g.new_state(seed=0)._load(decoded)


# --------------------------------------------------------------------------- 4: schema version 3


def test_snapshots_are_schema_version_3_with_the_generator_state_as_hex_text() -> None:
    g = game(4)
    state = play(g, 13, lambda s: rounds_of(s) == 2)
    data = data_of(state)
    assert data["schema_version"] == 3 and g.schema_version == 3
    assert isinstance(data["rng"], str) and len(data["rng"]) == 16 and int(data["rng"], 16) >= 0
    assert all(abs(v) <= 2**53 for v in _numbers(data))  # safe for every JSON reader
    assert msgspec.msgpack.decode(state.to_msgpack())["rng"] == data["rng"]


def _numbers(data: Any) -> list[int]:
    if isinstance(data, dict):
        return [x for v in data.values() for x in _numbers(v)]
    if isinstance(data, list):
        return [x for v in data for x in _numbers(v)]
    return [data] if isinstance(data, int) and not isinstance(data, bool) else []


def without_memory(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("schema_version", "hand_avoids")}


def remembering(s: DreamIslandsState) -> bool:
    """Some seat's hand memory (I16) is not empty."""
    return any(any(level for level in seat) for seat in data_of(s)["hand_avoids"])


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("version", [1, 2])
def test_an_older_snapshot_still_loads_with_no_hand_memory(encoding: str, version: int) -> None:
    g = game(3)
    state = play(g, 14, lambda s: rounds_of(s) >= 3 and s.phase_name == "exchange" and remembering(s))
    old = without_memory(data_of(state))
    old["schema_version"] = version
    if version == 1:
        old["rng"] = int(old["rng"], 16)
    loaded = g.load_state(encode(old, encoding))
    data = data_of(loaded)
    assert data["schema_version"] == 3
    # I16: the older snapshot kept no memory of play; everything else came along.
    assert data["hand_avoids"] == [[0 for _ in hand] for hand in data["hands"]]
    assert without_memory(data) == without_memory(data_of(state))
    assert all(loaded.view(p) == state.view(p) for p in range(3))
    assert loaded.view(0, recall=True) != state.view(0, recall=True)
    # The generator state came along: both deal alike.
    a, b = loaded.resample(1, 5), state.resample(1, 5)
    assert without_memory(data_of(a)) == without_memory(data_of(b))


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"rng": 2**64}, "64-bit"),
        ({"rng": "00ff"}, "rng"),
        ({"rng": -1}, "64-bit"),
        ({"phase": "over"}, "current_player must be -1"),
    ],
)
def test_a_bad_version_1_snapshot_is_rejected(change: dict[str, Any], match: str) -> None:
    g = game(3)
    data = data_of(play(g, 15, lambda s: rounds_of(s) == 1 and s.phase_name == "move"))
    v1 = {**data, "schema_version": 1, "rng": int(data["rng"], 16), **change}
    rejected(g, v1, match)


@pytest.mark.parametrize("version", [0, 4, 99, "3", None])
def test_an_unknown_schema_version_is_rejected(version: Any) -> None:
    g = game(3)
    rejected(g, {**data_of(g.new_state(seed=1)), "schema_version": version}, "schema_version")


# --------------------------------------------------------------------------- sets in order


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_covered_numbers_and_completed_missions_are_listed_in_ascending_order(encoding: str) -> None:
    """Both are sets; a snapshot lists them ascending, and a loader that reordered another
    order silently would accept a snapshot that is not one (found by the tamper fuzzer)."""
    g = game(2)
    def both(s: DreamIslandsState) -> bool:
        d = data_of(s)
        return any(len(c) >= 2 for c in d["covered"]) and any(len(c) >= 2 for c in d["completed"])

    state = play(g, 3, both)
    data = data_of(state)
    assert g.load_state(encode(data, encoding)) == state
    for field in ("covered", "completed"):
        seat = next(p for p, c in enumerate(data[field]) if len(c) >= 2)
        reordered = [list(reversed(c)) if p == seat else c for p, c in enumerate(data[field])]
        rejected(g, {**data, field: reordered}, "ascending order", encoding)
