"""Dream Islands: the bad-input matrix. Every bad input raises the right cruiselib error
that names the problem, and the state it was called on is unchanged."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.dream_islands import Cover, Draw, DreamIslandsState, Path, PutUnder
from tests.dream_islands.helpers import build, game
from tests.support import unchanged_after

GAME = game(3)


def midgame(seed: int = 3, steps: int = 25) -> DreamIslandsState:
    state = GAME.new_state(seed=seed)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[len(legal) // 3])
    assert isinstance(state, DreamIslandsState)
    return state


def finished() -> DreamIslandsState:
    # Seeded random play (a fixed choice such as "always the last action" can circle the
    # ring forever: the printed game has no turn limit, see I9).
    state = GAME.new_state(seed=8)
    rnd = random.Random(8)
    while not state.is_over:
        state.apply(rnd.choice(state.legal_actions()))
    assert isinstance(state, DreamIslandsState)
    return state


# --------------------------------------------------------------------------- moves


@pytest.mark.parametrize(
    ("action", "match"),
    [
        (-1, "out of range"),
        (GAME.num_actions, "out of range"),
        (2**70, "out of range"),
        (True, "an action id is an int"),
        ("3", "not a Dream Islands move"),
        (None, "not a Dream Islands move"),
        (1.5, "not a Dream Islands move"),
    ],
)
def test_bad_action_ids(action: Any, match: str) -> None:
    state = midgame()
    unchanged_after(state, lambda: state.apply(action), cruiselib.IllegalMoveError, match)


def test_an_illegal_action_id_names_the_move_and_the_reason() -> None:
    state = midgame()
    illegal = next(a for a in range(GAME.num_actions) if not state.is_legal(a))
    unchanged_after(
        state, lambda: state.apply(illegal), cruiselib.IllegalMoveError, rf"action {illegal} \(.*\) is not legal"
    )


@pytest.mark.parametrize(
    ("move", "match"),
    [
        (Cover(5, (Path(1, 2),)), "take 1 steps, not 5"),
        (Cover(2, (Path(9, 1),)), "no piece can go from 9"),
        (Cover(2, (Path(3, 3),)), "no piece can go from 3 to 3"),
        (Cover(2, (Path(0, 0),)), "no piece can go from 0 to 0"),
        (PutUnder(15), "not in the player's hand|not the time"),
        (Draw(), "not the time"),
    ],
)
def test_bad_typed_moves(move: Any, match: str) -> None:
    state = build(hands={0: [0, 1, 2]})
    unchanged_after(state, lambda: state.apply(move), cruiselib.IllegalMoveError, match)


def test_a_move_of_another_number_range_is_rejected_by_the_type() -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"type": "cover", "number": 7, "paths": []}, Cover)


def test_move_for_the_wrong_seat() -> None:
    state = midgame()
    legal = state.legal_actions()[0]
    wrong = (state.current_player + 1) % 3
    unchanged_after(state, lambda: state.apply(legal, player=wrong), cruiselib.IllegalMoveError, "cannot move")
    seat: Any = "0"
    unchanged_after(state, lambda: state.apply(legal, player=seat), cruiselib.IllegalMoveError, "cannot move")
    state.apply(legal, player=state.current_player)


def test_move_after_game_over() -> None:
    state = finished()
    for a in (0, 1, GAME.move_to_action(Draw())):

        def call(a: int = a) -> None:
            state.apply(a)

        unchanged_after(state, call, cruiselib.IllegalMoveError, "game is over")
    unchanged_after(state, lambda: state.apply(0, player=0), cruiselib.IllegalMoveError, "game is over")
    assert state.legal_actions() == [] and not state.action_mask().any()


@pytest.mark.parametrize("seat", [-1, 3, 10, "1", None, True, 1.0])
def test_bad_seat_in_view_and_resample(seat: Any) -> None:
    state = midgame()
    unchanged_after(state, lambda: state.view(seat), cruiselib.InvalidOptionError, "seat")
    unchanged_after(state, lambda: state.resample(seat, 1), cruiselib.InvalidOptionError, "seat")


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"players": 1}, "2 to 4 players"),
        ({"players": 5}, "2 to 4 players"),
        ({"players": "4"}, "2 to 4 players"),
        ({"players": True}, "2 to 4 players"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"max_rounds": -3}, "max_rounds"),
        ({"max_rounds": 2.5}, "max_rounds"),
        ({"variant": "x"}, "unknown option"),
    ],
)
def test_bad_options(options: dict[str, Any], match: str) -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match=match):
        cruiselib.make("dream_islands", **options)


@pytest.mark.parametrize("seed", [1.5, None.__class__, [1]])
def test_bad_seed(seed: Any) -> None:
    with pytest.raises(cruiselib.InvalidOptionError):
        GAME.new_state(seed=seed)


def test_bad_playout_count() -> None:
    with pytest.raises(cruiselib.InvalidOptionError):
        GAME.playouts(-1)


# --------------------------------------------------------------------------- states


def _data(state: DreamIslandsState | None = None) -> dict[str, Any]:
    result: dict[str, Any] = json.loads((state or midgame()).to_json())
    return result


def _tamper(**changes: Any) -> dict[str, Any]:
    data = _data()
    for key, value in changes.items():
        data[key] = value(data[key]) if callable(value) else value
    return data


def _dup_card(hands: list[list[int]]) -> list[list[int]]:
    hands[0][0] = hands[0][1]
    return hands


def _first(value: Any) -> Callable[[list[Any]], list[Any]]:
    def change(xs: list[Any]) -> list[Any]:
        xs[0] = value
        return xs

    return change


BAD_STATES = {
    "duplicated card": (_tamper(hands=_dup_card), "appear twice"),
    "missing card": (_tamper(piles=lambda p: [p[0][1:], *p[1:]]), "are nowhere"),
    "negative count": (_tamper(pieces=lambda p: [[-1, *p[0][1:]], *p[1:]]), "ValidationError|>= 0"),
    "too many pieces": (_tamper(pieces=lambda p: [[p[0][0] + 1, *p[0][1:]], *p[1:]]), "pieces, not 6"),
    "wrong schema version": (_tamper(schema_version=4), "schema_version"),
    "unknown field": ({**_data(), "bonus": 3}, "unknown field"),
    "missing field": ({k: v for k, v in _data().items() if k != "rng"}, "missing required field"),
    "wrong game": (_tamper(game="sirens"), "game"),
    "wrong player count": (_tamper(players=4), "for 4 players"),
    "seat out of range": (_tamper(current_player=3), "current_player"),
    "rng not hex text": (_tamper(rng="12345"), "rng"),
    "rng as a number": (_tamper(rng=2**64), "rng"),
    "known beyond pile": (_tamper(known=_first(99)), "le=16|<= 16|put 99 cards|under a pile"),
    "covered twice": (_tamper(covered=_first([3, 3])), "twice"),
    "small island gap": (_tamper(small_islands=[-1, 0, -1]), "fill in order"),
    "over without end": (_tamper(phase="over", current_player=-1), "ends only"),
    "hand too big": (_tamper(hands=_first([0, 1, 2, 3])), "max_length|length"),
    "mission id out of range": (_tamper(completed=_first([16])), "<= 15|le=15"),
    "per-seat list too short": (_tamper(known=[0, 0]), "one entry per seat"),
}


@pytest.mark.parametrize("name", sorted(BAD_STATES))
@pytest.mark.parametrize("encoding", ["json", "msgpack"])
def test_tampered_states_are_rejected(name: str, encoding: str) -> None:
    data, match = BAD_STATES[name]
    if name == "rng as a number" and encoding == "msgpack":
        pytest.skip("MessagePack has no integer above 2**64 - 1")
    blob = json.dumps(data).encode() if encoding == "json" else msgspec.msgpack.encode(data)
    with pytest.raises(cruiselib.InvalidStateError) as info:
        GAME.load_state(blob)
    if match is not None:
        assert any(m in str(info.value) for m in match.split("|")) or pytest.fail(str(info.value))


@pytest.mark.parametrize("cut", [1, 10, 100, -1])
def test_truncated_json_and_msgpack(cut: int) -> None:
    state = midgame()
    for blob in (state.to_json().encode(), state.to_msgpack()):
        with pytest.raises(cruiselib.InvalidStateError):
            GAME.load_state(blob[:cut])


@pytest.mark.parametrize("data", [b"", b"[]", b"null", "{", 42, 3.5, None, [1, 2]])
def test_malformed_inputs(data: Any) -> None:
    with pytest.raises(cruiselib.InvalidStateError):
        GAME.load_state(data)


def test_a_state_of_another_option_set_is_rejected() -> None:
    data = _data()
    with pytest.raises(cruiselib.InvalidStateError, match="max_rounds"):
        cruiselib.make("dream_islands", players=3, max_rounds=9).load_state(json.dumps(data))
