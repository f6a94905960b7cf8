"""Sirens in Sight: the bad-input matrix. Every bad input raises a clear cruiselib error that
names the problem, and the state it was called on is unchanged."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.sirens import MoveCrew, PlayCard, SirensState
from tests.support import unchanged_after

GAME = cruiselib.make("sirens")


def midgame(seed: int = 3, steps: int = 12) -> SirensState:
    state = GAME.new_state(seed=seed)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[len(legal) // 3])
    assert isinstance(state, SirensState)
    return state


def finished() -> SirensState:
    state = GAME.new_state(seed=8)
    while not state.is_over:
        state.apply(state.legal_actions()[-1])
    assert isinstance(state, SirensState)
    return state


# --------------------------------------------------------------------------- moves


@pytest.mark.parametrize(
    ("action", "match"),
    [
        (-1, "out of range"),
        (10**6, "out of range"),
        (2**70, "out of range"),
        (True, "an action id is an int"),
        ("3", "not a Sirens in Sight move"),
        (None, "not a Sirens in Sight move"),
        (1.0, "not a Sirens in Sight move"),
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


def test_a_move_naming_no_card_or_ship() -> None:
    state = midgame()
    unchanged_after(state, lambda: state.apply(PlayCard(42, False, 28, 0)), cruiselib.IllegalMoveError, "no card 42")
    unchanged_after(
        state, lambda: state.apply(PlayCard(5, False, 29, 0)), cruiselib.IllegalMoveError, "no ship card 29"
    )
    unchanged_after(
        state, lambda: state.apply(PlayCard(5, False, 28, 2)), cruiselib.IllegalMoveError, "side must be seat 0 or 1"
    )


def test_a_move_for_the_wrong_seat() -> None:
    state = midgame()
    wrong = 1 - state.current_player
    a = state.legal_actions()[0]
    unchanged_after(
        state, lambda: state.apply(a, player=wrong), cruiselib.IllegalMoveError, f"seat {wrong} cannot move"
    )
    unchanged_after(state, lambda: state.apply(a, player=5), cruiselib.IllegalMoveError, "seat 5 cannot move")
    unchanged_after(state, lambda: state.apply(MoveCrew(30)), cruiselib.IllegalMoveError, "not the time")


def test_a_move_after_the_game_is_over() -> None:
    state = finished()
    for action in (0, GAME.num_actions - 1):
        unchanged_after(state, partial(state.apply, action), cruiselib.IllegalMoveError, "the game is over")
    unchanged_after(state, lambda: state.apply(0, player=0), cruiselib.IllegalMoveError, "game is over")


@pytest.mark.parametrize("seat", [-1, 2, 7, "0", None, 1.0, True])
def test_a_bad_seat_in_view_and_resample(seat: Any) -> None:
    state = midgame()
    unchanged_after(state, lambda: state.view(seat), cruiselib.InvalidOptionError, "seat")
    unchanged_after(state, lambda: state.resample(seat, 1), cruiselib.InvalidOptionError, "seat")


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"players": 3}, "for 2 players"),
        ({"players": True}, "for 2 players"),
        ({"variant": "x"}, "unknown variant"),
        ({"colour": "red"}, "unknown option"),
        ({"cards": 5}, "cards must be a CardSet"),
        ({"cards": "/nonexistent/cards.json"}, "cannot read card set"),
    ],
)
def test_bad_options(options: dict[str, Any], match: str) -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match=match):
        cruiselib.make("sirens", **options)


def test_unknown_game() -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match="unknown game 'chess'"):
        cruiselib.make("chess")


def test_bad_start_player_and_playout_count() -> None:
    with pytest.raises(cruiselib.InvalidOptionError):
        GAME.new_state(seed=1, start_player=2)
    with pytest.raises(cruiselib.InvalidOptionError):
        GAME.playouts(-1)


# --------------------------------------------------------------------------- states


def tamper(state: SirensState, **changes: Any) -> dict[str, Any]:
    data = msgspec.to_builtins(state.to_data())
    assert isinstance(data, dict)
    data.update(changes)
    return data


def test_truncated_json_and_msgpack() -> None:
    state = midgame()
    text, packed = state.to_json(), state.to_msgpack()
    for cut in (1, len(text) // 2, len(text) - 1):
        with pytest.raises(cruiselib.InvalidStateError, match="not a valid SirensStateData"):
            GAME.load_state(text[:cut])
    for cut in (1, len(packed) // 2, len(packed) - 1):
        with pytest.raises(cruiselib.InvalidStateError):
            GAME.load_state(packed[:cut])


@pytest.mark.parametrize(
    "payload",
    ["", "{", "[]", "null", "42", '{"game": "sirens"}', b"\x00\x01", b"\xc1", 12, None, ["x"]],
)
def test_malformed_input(payload: Any) -> None:
    with pytest.raises(cruiselib.InvalidStateError):
        GAME.load_state(payload)


def _cases(state: SirensState) -> list[tuple[str, dict[str, Any], str]]:
    d = msgspec.to_builtins(state.to_data())
    hand0 = d["hands"][0]
    empty = next(k for k in range(5) if not d["sides"][k][0] and not d["sides"][k][1])
    gone = [2 if k == empty else d["ships"][k] for k in range(5)]
    return [
        ("duplicated card", tamper(state, hands=[[*hand0[:-1], d["hands"][1][0]], d["hands"][1]]), "appears twice"),
        ("missing card", tamper(state, piles=[d["piles"][0][:-1]]), "are nowhere"),
        ("unknown card", tamper(state, removed=[*d["removed"], 63]), "does not exist"),
        ("negative count", tamper(state, passes=-1), "Expected `int` >= 0"),
        ("negative card id", tamper(state, hands=[[-3], d["hands"][1]]), ">= 0"),
        ("wrong schema version", tamper(state, schema_version=3), r"Invalid enum value 3 - at `\$.schema_version`"),
        ("unknown field", tamper(state, cheat=True), "unknown field `cheat`"),
        ("other game", tamper(state, game="dream_islands"), "Invalid enum value 'dream_islands'"),
        ("other variant", tamper(state, variant="bow_to_rear"), "variant"),
        ("other card set", tamper(state, card_set="0" * 16), "another card set"),
        ("seat out of range", tamper(state, turn=2), "<= 1"),
        ("bad phase", tamper(state, phase="dinner"), "Invalid enum value 'dinner'"),
        ("six cards on a side", tamper(state, sides=[[[0, 1, 2, 3, 4, 5], []], *d["sides"][1:]]), "length <= 5"),
        ("crew on the same ship", tamper(state, crew=[1, 1]), "same ship"),
        ("rum on a missing ship", tamper(state, rum=[empty, -1], ships=gone), "rum mug is on ship .* not in play"),
        ("octopus on a card not in play", tamper(state, octopus=[hand0[0], -1]), "not in play"),
        ("rng as a number", tamper(state, rng=12345), r"Expected `str`, got `int` - at `\$.rng`"),
        ("rng not hex", tamper(state, rng="00000000000000zz"), "Expected `str` matching regex"),
        ("rng too long", tamper(state, rng="0" * 17), "Expected `str` matching regex"),
        ("version 1 rng out of range", tamper(state, schema_version=1, rng=2**64), "64-bit unsigned int"),
        ("version 1 rng as text", tamper(state, schema_version=1), "64-bit unsigned int"),
        ("over without a reason", tamper(state, phase="over", current_player=-1), "the game is over exactly"),
        ("three piles", tamper(state, piles=[[], [], []]), "length <= 2"),
        ("wrong type", tamper(state, passes="1"), "Expected `int`"),
    ]


def test_tampered_states_raise_invalid_state_error_naming_the_problem() -> None:
    state = midgame()
    assert GAME.load_state(tamper(state)) == state  # the untampered control loads
    for label, data, match in _cases(state):
        encodings: list[Any] = [json.dumps(data), data]
        if label != "version 1 rng out of range":  # MessagePack cannot even carry 2**64
            encodings.append(msgspec.msgpack.encode(data))
        for encoded in encodings:
            with pytest.raises(cruiselib.InvalidStateError, match=match):
                GAME.load_state(encoded)


def test_a_position_that_should_have_scored_is_rejected() -> None:
    state = midgame()
    d = tamper(state)
    cards = GAME.cards.cards
    tens = [c for c in range(52) if cards[c].value == 10]
    for c in tens:  # gather all four tens on seat 0's side of ship 28 (40 >= 28)
        for zone in (*d["hands"], *d["piles"], d["removed"], *[s for ship in d["sides"] for s in ship]):
            if c in zone:
                zone.remove(c)
    d["sides"][0][0] = d["sides"][0][0][:1] + tens if len(d["sides"][0][0]) < 2 else tens
    with pytest.raises(cruiselib.InvalidStateError):
        GAME.load_state(d)
