"""Dream Cruise: the bad-input matrix. Every bad input raises the right cruiselib error that
names the problem, and the state it was called on is unchanged."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from functools import partial
from typing import Any

import msgspec
import numpy as np
import pytest

import cruiselib
from cruiselib.dream_cruise import (
    Board,
    Build,
    Captain,
    Done,
    DreamCruiseGame,
    DreamCruiseState,
    Keep,
    Place,
    Plan,
    Take,
)
from tests.support import unchanged_after

GAME = cruiselib.make("dream_cruise", players=3)
assert isinstance(GAME, DreamCruiseGame)


def reach(phase: str, seed: int = 3, nth: int = 0, game: DreamCruiseGame = GAME) -> DreamCruiseState:
    """The ``nth`` position of ``phase`` in a seeded random game."""
    state = game.new_state(seed=seed)
    rnd = random.Random(seed)
    k = 0
    while not state.is_over:
        if state.phase == phase:
            if k == nth:
                return state
            k += 1
        state.apply(rnd.choice(state.legal_actions()))
    raise AssertionError(f"no {phase} position {nth}")


def midgame() -> DreamCruiseState:
    """A phase-4 position of round 3: guests placed, additions built, hands held."""
    return reach("set_sail", nth=30)


def finished(game: DreamCruiseGame = GAME) -> DreamCruiseState:
    state = game.new_state(seed=8)
    rnd = random.Random(8)
    while not state.is_over:
        state.apply(rnd.choice(state.legal_actions()))
    return state


# --------------------------------------------------------------------------- moves


@pytest.mark.parametrize(
    ("action", "match"),
    [
        (-1, "out of range"),
        (GAME.num_actions, "out of range"),
        (2**70, "out of range"),
        (True, "an action id is an int"),
        ("3", "not a Dream Cruise move"),
        (None, "not a Dream Cruise move"),
        (1.5, "not a Dream Cruise move"),
        (np.float64(2.0), "not a Dream Cruise move"),
    ],
)
def test_bad_action_ids(action: Any, match: str) -> None:
    state = midgame()
    unchanged_after(state, lambda: state.apply(action), cruiselib.IllegalMoveError, match)


@pytest.mark.parametrize("phase", ["boarding", "set_course", "entertainment", "set_sail"])
def test_every_illegal_action_id_names_the_move_and_the_reason(phase: str) -> None:
    state = reach(phase)
    legal = set(state.legal_actions())
    rnd = random.Random(1)
    illegal = [a for a in range(GAME.num_actions) if a not in legal]
    for a in [*illegal[:3], *rnd.sample(illegal, 30), illegal[-1]]:
        unchanged_after(
            state,
            partial(state.apply, a),
            cruiselib.IllegalMoveError,
            rf"action {a} \(.+\) is not legal for seat {state.current_player} now: ",
        )


@pytest.mark.parametrize(
    ("phase", "move", "match"),
    [
        ("set_sail", Board(0), "not the time"),
        ("set_sail", Keep(3), "not the time"),
        ("set_sail", Take(1), "not the time"),
        ("entertainment", Take(4), "not in the display"),
        ("entertainment", Done(), "not the time"),
        ("boarding", Place(0, 0), "not the time"),
        ("set_course", Plan(0), "not the time"),
        ("set_sail", Build(1, 1), "not in the player's hand|payment|not an addition"),
        ("set_sail", Captain(2, 0), "captain|not in the player's hand|no current location|not in play"),
    ],
)
def test_typed_moves_at_the_wrong_time_or_place(phase: str, move: Any, match: str) -> None:
    state = reach(phase)
    unchanged_after(state, lambda: state.apply(move), cruiselib.IllegalMoveError, match)


@pytest.mark.parametrize(
    "move",
    [
        Board(60),  # 60 families: ids 0..59
        Keep(54),
        Take(5),
        Place(3, 0),
        Place(0, 5),  # 2 addition spaces: spots 0..4
        Plan(72),
        Build(72, 0),
        Build(0, 72),
        Build(0, 1, 2),  # replaces space 2 of 0..1
        Captain(3, 0),
        Captain(0, 72),
    ],
)
def test_moves_naming_no_card_or_spot_of_this_game(move: Any) -> None:
    state = midgame()
    unchanged_after(state, lambda: state.apply(move), cruiselib.IllegalMoveError, "names no action of this game")
    with pytest.raises(cruiselib.IllegalMoveError, match="names no action"):
        GAME.move_to_action(move)


def test_a_move_of_the_wrong_range_is_refused_by_its_type() -> None:
    for raw, cls in (
        ({"type": "place", "cabin": 3, "spot": 0}, Place),
        ({"type": "take", "set": 5}, Take),
        ({"type": "board", "family": 64}, Board),
        ({"type": "build", "addition": 1, "payment": 2, "replaces": 4}, Build),
    ):
        with pytest.raises(msgspec.ValidationError):
            msgspec.convert(raw, cls)


def test_moves_of_another_game() -> None:
    state = midgame()
    for name in ("sirens", "dream_islands", "atlantic_star"):
        other = cruiselib.make(name)
        move = other.action_to_move(other.new_state(seed=1).legal_actions()[0])
        unchanged_after(state, partial(state.apply, move), cruiselib.IllegalMoveError, "not a Dream Cruise move")


def test_a_move_for_the_wrong_seat() -> None:
    state = midgame()
    a = state.legal_actions()[0]
    wrong = (state.current_player + 1) % 3
    unchanged_after(
        state, lambda: state.apply(a, player=wrong), cruiselib.IllegalMoveError, f"seat {wrong} cannot move"
    )
    seats: list[Any] = [5, -1, "0", 1.0]
    for seat in seats:
        unchanged_after(state, partial(state.apply, a, player=seat), cruiselib.IllegalMoveError, "cannot move")
    state.apply(a, player=state.current_player)


@pytest.mark.parametrize("players", [1, 3])
def test_a_move_after_the_game_is_over(players: int) -> None:
    game = cruiselib.make("dream_cruise", players=players)
    assert isinstance(game, DreamCruiseGame)
    state = finished(game)
    for action in (0, game.num_actions - 1, Done()):
        unchanged_after(state, partial(state.apply, action), cruiselib.IllegalMoveError, "the game is over")
    unchanged_after(state, lambda: state.apply(0, player=0), cruiselib.IllegalMoveError, "game is over")
    unchanged_after(state, lambda: state.random_action(5), cruiselib.IllegalMoveError, "game is over")
    assert state.legal_actions() == [] and not state.action_mask().any()


@pytest.mark.parametrize("seat", [-1, 3, 10, "0", None, True, 1.0])
def test_a_bad_seat_in_view_resample_and_tensors(seat: Any) -> None:
    state = midgame()
    for call in (state.view, partial(state.view, recall=True), partial(state.resample, seed=1),
                 state.observation, state.information_state):
        unchanged_after(state, partial(call, seat), cruiselib.InvalidOptionError, "seat")


def test_a_bad_seat_in_route_points() -> None:
    state = midgame()
    seats: list[Any] = [-1, 3, "0", None, True, 1.0]
    for seat in seats:
        unchanged_after(state, partial(state.route_points, seat), cruiselib.InvalidOptionError, "seat")


@pytest.mark.parametrize("players", [1, 2, 4])
@pytest.mark.parametrize(
    "make_out",
    [
        lambda n: np.zeros(10, dtype=np.float32),
        lambda n: np.zeros(n, dtype=np.float64),
        lambda n: np.zeros((1, n), dtype=np.float32),
        lambda n: np.zeros(2 * n, dtype=np.float32)[::2],
        lambda n: np.zeros(n + 1, dtype=np.float32),
        lambda n: [0.0] * n,
        lambda n: None.__class__,
    ],
    ids=["short", "float64", "2-d", "strided", "long", "list", "type"],
)
def test_a_bad_out_buffer_is_refused(players: int, make_out: Callable[[int], Any]) -> None:
    game = cruiselib.make("dream_cruise", players=players)
    state = game.new_state(seed=1)
    for call, size in ((state.observation, game.observation_shape[0]),
                       (state.information_state, game.information_state_shape[0])):
        out = make_out(size)
        unchanged_after(state, partial(call, 0, out=out), cruiselib.InvalidOptionError, "out must be")


def test_a_read_only_out_buffer_is_refused() -> None:
    state = midgame()
    out = np.zeros(GAME.observation_shape, dtype=np.float32)
    out.flags.writeable = False
    unchanged_after(state, partial(state.observation, 0, out=out), cruiselib.InvalidOptionError, "writeable")
    assert not out.any()


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"players": 0}, "1 to 4 players"),
        ({"players": 5}, "1 to 4 players"),
        ({"players": "2"}, "1 to 4 players"),
        ({"players": True}, "1 to 4 players"),
        ({"players": 2.0}, "1 to 4 players"),
        ({"route_points": (1, 2, 3)}, "route_points lists"),
        ({"route_points": (1, 2, 3, 4, 5)}, "route_points lists"),
        ({"route_points": "1369"}, "route_points lists"),
        ({"route_points": 9}, "route_points lists"),
        ({"route_points": (1, 2, 3, 100)}, "ints 0..99"),
        ({"route_points": (1, 2, -1, 3)}, "ints 0..99"),
        ({"route_points": (1, 2, 3.0, 4)}, "ints 0..99"),
        ({"sea_ship_draw": 1}, "True or False"),
        ({"sea_ship_draw": "yes"}, "True or False"),
        ({"additions": 0}, "1..4"),
        ({"additions": 5}, "1..4"),
        ({"additions": True}, "1..4"),
        ({"players": 1, "difficulty": 4}, "0..3"),
        ({"players": 1, "difficulty": -1}, "0..3"),
        ({"players": 2, "difficulty": 1}, "solo game"),
        ({"cards": 5}, "cards must be a CardSet or a path"),
        ({"cards": "/nonexistent/cards.json"}, "cannot read card set"),
        ({"max_rounds": 3}, "unknown option"),
        ({"variant": "x"}, "unknown option"),
    ],
)
def test_bad_options(options: dict[str, Any], match: str) -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match=match):
        cruiselib.make("dream_cruise", **options)


def test_bad_seeds_start_seats_and_playout_counts() -> None:
    seeds: list[Any] = [1.5, [1], None.__class__]
    for seed in seeds:
        with pytest.raises(cruiselib.InvalidOptionError):
            GAME.new_state(seed=seed)
    starts: list[Any] = [3, -2, "0"]
    for start in starts:
        with pytest.raises(cruiselib.InvalidOptionError):
            GAME.new_state(seed=1, start_player=start)
    with pytest.raises(cruiselib.InvalidOptionError, match="seat"):
        cruiselib.make("dream_cruise", players=1).new_state(seed=1, start_player=1)
    with pytest.raises(cruiselib.InvalidOptionError):
        GAME.playouts(-1)
    state = midgame()
    unchanged_after(state, lambda: state.playouts(-1), cruiselib.InvalidOptionError, "n must be")
    unchanged_after(state, lambda: state.playouts(2, threads=0), cruiselib.InvalidOptionError, "threads")


# --------------------------------------------------------------------------- states


def _data(state: DreamCruiseState | None = None) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins((state or midgame()).to_data())
    return data


BASE = _data()


def _tamper(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    change(data)
    return data


def _set(**fields: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.update(fields)


def _seat(p: int, **fields: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d["seats"][p].update(fields)


def _move(src: str, dst: str) -> Callable[[dict[str, Any]], None]:
    """The last card of zone ``src`` appended to zone ``dst`` (``seats.1.hand`` style paths)."""

    def zone(d: dict[str, Any], path: str) -> list[int]:
        node: Any = d
        for key in path.split("."):
            node = node[int(key)] if key.isdigit() else node[key]
        return node  # type: ignore[no-any-return]

    return lambda d: zone(d, dst).append(zone(d, src).pop())


def _empty_cabin_with_figures(d: dict[str, Any]) -> None:
    """Seat 2's third family to its points pile, its figures left on the empty cabin."""
    seat = d["seats"][2]
    seat["points_pile"].append(seat["families"][2])
    seat["families"][2] = -1
    seat["figures_left"][2] = 1


HAND = next(p for p, s in enumerate(BASE["seats"]) if len(s["hand"]) >= 2)
BUILT = next(p for p, s in enumerate(BASE["seats"]) if s["additions"][0] >= 0)
ADD = BASE["seats"][BUILT]["additions"][0]
GUESTS = next(p for p, s in enumerate(BASE["seats"]) if any(s["location_guests"]))

# label -> (change, message fragment)
BAD_STATES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "ship card twice": (lambda d: d["ship_deck"].append(d["ship_discard"][0]), "is both in"),
    "family twice": (lambda d: d["family_deck"].append(d["family_box"][0]), "is both in"),
    "location twice": (lambda d: d["location_deck"].append(d["location_discard"][0]), "is both in"),
    "ship card twice in one pile": (lambda d: d["ship_deck"].append(d["ship_deck"][0]), "listed twice in the deck"),
    "ship card missing": (lambda d: d["ship_deck"].pop(), "ship card .* is nowhere"),
    "family missing": (lambda d: d["family_deck"].pop(), "family .* is nowhere"),
    "location missing": (lambda d: d["location_deck"].pop(), "location card .* is nowhere"),
    "ship card not in the set": (lambda d: d["ship_deck"].append(80), "does not exist"),
    "ship id beyond any set": (lambda d: d["ship_deck"].append(96), r"<= 95"),
    "negative card id": (lambda d: d["ship_deck"].append(-1), ">= 0"),
    "unsorted hand": (_seat(HAND, hand=BASE["seats"][HAND]["hand"][::-1]), "listed in ascending order"),
    "known card not in the hand": (_seat(HAND, known=[*BASE["seats"][HAND]["known"], 95]), "not in the hand|does not"),
    "too many figures left": (_seat(1, figures_left=[7, 0, 0]), "<= 6|figures left of"),
    "figures in an empty cabin": (_empty_cabin_with_figures, "empty but has figures"),
    "negative figures": (_seat(1, figures_left=[-1, 3, 3]), ">= 0"),
    "two figures of one colour": (_seat(GUESTS, location_guests=[[0, 0], [], []]), "each once"),
    "guests on an empty addition space": (
        _seat(BUILT, addition_guests=[[], [0]]), "holds no activity|no activity",
    ),
    "captain on no activity": (_seat(1, captain=2), "captain"),
    "drawn cards in phase 4": (lambda d: d["seats"][1]["drawn"].append(d["family_deck"].pop()), "drawn cards outside"),
    "a display in phase 4": (lambda d: d.update(display=[{"cards": [d["ship_deck"].pop()]}]), "display"),
    "starting family of an absent letter": (lambda d: d["family_deck"].append(9), r"not in a game of 3 \(C21\)"),
    "Jana in a 3-player game": (_move("family_deck", "jana_pile"), r"only in the solo game \(C9\)"),
    "wrong schema version": (_set(schema_version=2), r"Invalid enum value 2 - at `\$.schema_version`"),
    "unknown field": (_set(bonus=3), "unknown field `bonus`"),
    "missing field": (lambda d: d.pop("rng"), "missing required field `rng`"),
    "another game": (_set(game="sirens"), "Invalid enum value 'sirens'"),
    "another player count": (_set(players=4), "for 4 players, the game for 3"),
    "too few seats": (lambda d: d.update(seats=d["seats"][:2]), "2 seats for 3 players"),
    "seat not to move": (_set(current_player=(BASE["current_player"] + 1) % 3), "is not the seat whose turn it is"),
    "seat out of range": (_set(current_player=5), r"<= 3 - at `\$.current_player`"),
    "turn out of range": (_set(turn=3), "turn 3 is not 0..2"),
    "start seat out of range": (_set(start_player=3), "start_player"),
    "round 0": (_set(round=0), ">= 1"),
    "round beyond any game": (_set(round=101), "<= 100"),
    # C4, C16, C20: each earlier round kept one location card per seat, so the round follows.
    "round ahead of the cards kept": (_set(round=BASE["round"] + 1), r"location card\(s\) by round .*\(C4, C16, C20\)"),
    "round behind the cards kept": (_set(round=BASE["round"] - 1), r"location card\(s\) by round .*\(C4, C16, C20\)"),
    "round near the counter's end": (_set(round=98), r"location card\(s\) by round 98"),
    "a kept location card back in the deck": (
        lambda d: d["location_deck"].append(d["seats"][0]["played"].pop(0)), r"location card\(s\) by round",
    ),
    "rng too short": (_set(rng="12345"), "matching regex"),
    "rng as a number": (_set(rng=12345), "Expected `str`, got `int`"),
    "bad phase": (_set(phase="dinner"), "Invalid enum value 'dinner'"),
    "over without an end": (_set(phase="over", current_player=-1), "finished game|over"),
    "other route points": (_set(route_points=[1, 3, 6, 10]), r"route_points \(C1\)"),
    "other sea draw": (_set(sea_ship_draw=True), r"sea_ship_draw \(C2\)"),
    "other additions": (_set(additions=3), r"additions \(C6\)"),
    "other difficulty": (_set(difficulty=1), r"difficulty \(C9\)"),
    "other card set": (_set(cards="0" * 16), "card set 0000000000000000"),
    "wrong type": (_set(turn="1"), "Expected `int`, got `str`"),
    "hand too long": (_seat(1, hand=list(range(97))), "<= 95|length <= 96"),
    "four cabins": (_seat(1, families=[3, 4, 5, -1]), "length <= 3"),
    "an addition space too many": (_seat(BUILT, additions=[ADD, -1, -1], addition_guests=[[], [], []]),
                                   r"addition spaces \(C6\)"),
}


@pytest.mark.parametrize("name", sorted(BAD_STATES))
@pytest.mark.parametrize("encoding", ["json", "msgpack", "mapping"])
def test_tampered_states_are_rejected(name: str, encoding: str) -> None:
    change, match = BAD_STATES[name]
    data = _tamper(change)
    if encoding == "json":
        blob: Any = json.dumps(data)
    elif encoding == "msgpack":
        blob = msgspec.msgpack.encode(data)
    else:
        blob = data
    with pytest.raises(cruiselib.InvalidStateError, match=match):
        GAME.load_state(blob)


def test_the_untampered_control_loads() -> None:
    state = midgame()
    for blob in (json.dumps(BASE), msgspec.msgpack.encode(BASE), BASE, state.to_json().encode()):
        assert GAME.load_state(blob) == state


def test_C6_an_activity_card_on_an_addition_space_is_refused() -> None:
    data = copy.deepcopy(BASE)
    cards = GAME.cards.ships
    x = next(i for i in data["ship_deck"] if cards[i].kind == "activity")
    data["ship_deck"].remove(x)
    seat = data["seats"][BUILT]
    seat["additions"] = [x, *seat["additions"][1:]]
    data["ship_discard"].append(ADD)
    with pytest.raises(cruiselib.InvalidStateError, match="is no addition"):
        GAME.load_state(data)


def test_C17_additions_fill_the_first_free_space() -> None:
    data = copy.deepcopy(BASE)
    seat = data["seats"][BUILT]
    seat["additions"] = [-1, ADD]
    seat["addition_guests"] = [[], seat["addition_guests"][0]]
    with pytest.raises(cruiselib.InvalidStateError, match="first free space"):
        GAME.load_state(data)


@pytest.mark.parametrize("cut", [1, 10, 100, -1])
def test_truncated_json_and_msgpack(cut: int) -> None:
    state = midgame()
    text, packed = state.to_json(), state.to_msgpack()
    with pytest.raises(cruiselib.InvalidStateError, match="not a valid DreamCruiseStateData"):
        GAME.load_state(text[:cut])
    with pytest.raises(cruiselib.InvalidStateError):
        GAME.load_state(packed[:cut])


@pytest.mark.parametrize(
    "payload",
    ["", "{", "[]", "null", "42", '{"game": "dream_cruise"}', b"\x00\x01", b"\xc1", 12, 3.5, None, ["x"], {}],
)
def test_malformed_input(payload: Any) -> None:
    with pytest.raises(cruiselib.InvalidStateError):
        GAME.load_state(payload)


@pytest.mark.parametrize(
    "options",
    [{"players": 2}, {"players": 3, "additions": 3}, {"players": 3, "sea_ship_draw": True},
     {"players": 3, "route_points": (0, 2, 5, 12)}],
)
def test_a_state_of_another_option_set_is_rejected(options: dict[str, Any]) -> None:
    with pytest.raises(cruiselib.InvalidStateError, match="invalid Dream Cruise state: state"):
        cruiselib.make("dream_cruise", **options).load_state(json.dumps(BASE))


def test_a_snapshot_of_a_custom_card_set_needs_its_game() -> None:
    data = copy.deepcopy(BASE)
    data["cards"] = "0123456789abcdef"
    with pytest.raises(cruiselib.InvalidStateError, match="custom card set"):
        cruiselib.load_state(json.dumps(data))
