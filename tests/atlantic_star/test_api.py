"""API, views, resampling, ship data (A4), the bad-input matrix and a load_state fuzz."""

from __future__ import annotations

import contextlib
import json
import pickle
import random
from collections import Counter
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cruiselib
from cruiselib import IllegalMoveError, InvalidOptionError, InvalidStateError
from cruiselib.atlantic_star import SEAS, Charter, ShipList, Voyage, shipgen

from .helpers import build, game, regular_ships, set_raw


def midgame(players: int = 4, seed: int = 11, steps: int = 60) -> Any:
    g = game(players)
    state = g.new_state(seed=seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rnd.choice(state.legal_actions()))
    return state


# ---------------------------------------------------------------- ship data (A4)


def test_default_ship_list_follows_A4() -> None:
    ships = ShipList.standard().ships
    assert len(ships) == 132
    assert sum(s.mail for s in ships) == 12
    assert len({s.name for s in ships}) == 132
    for s in ships:
        if not s.mail:
            assert 1 <= len(s.legs) <= 3
            assert sum(e.value for e in s.legs) == 9
            assert all(1 <= e.value <= 9 for e in s.legs)
    per_leg = Counter((e.sea, e.leg) for s in ships for e in s.legs)
    assert len(per_leg) == 18
    assert min(per_leg.values()) >= 13
    assert max(per_leg.values()) <= 14
    rhea = next(s for s in ships if s.name == "Rhea")
    assert len({e.sea for e in rhea.legs}) == 3  # the rulebook's example: three seas
    # some ships fit two legs of one sea, so the assignment is a real choice (A5)
    assert any(len({e.sea for e in s.legs}) < len(s.legs) for s in ships)


def test_ship_data_file_is_the_generators_output() -> None:
    from importlib import resources

    text = resources.files("cruiselib.atlantic_star").joinpath("data/ships.json").read_text("utf-8")
    assert text == shipgen.render()
    assert "engine-authored" in json.loads(text)["provenance"]["data"]


def test_replaceable_ship_list_from_file(tmp_path: Any) -> None:
    data = msgspec.to_builtins(ShipList.standard())
    data["ships"] = list(reversed(data["ships"]))
    path = tmp_path / "mine.json"
    path.write_bytes(msgspec.json.encode(data))
    g: Any = cruiselib.make("atlantic_star", players=3, ships=str(path))
    assert g.ships.ships[0].name == "Tidings"
    state = g.new_state(seed=1)
    with pytest.raises(InvalidStateError, match="another ship list"):
        game(3).load_state(state.to_json())


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["ships"].pop(),  # 131 ships is fine; 127 is not (below)
        lambda d: d["ships"].__setitem__(1, {**d["ships"][1], "name": d["ships"][0]["name"]}),
        lambda d: d["ships"].__setitem__(0, {"name": "X", "legs": []}),
        lambda d: d["ships"].__setitem__(
            0, {"name": "X", "mail": True, "legs": [{"sea": "Baltic", "leg": 1, "value": 1}]}
        ),
        lambda d: d["ships"].__setitem__(
            0, {"name": "X", "legs": [{"sea": "Baltic", "leg": 4, "value": 1}]}
        ),
        lambda d: d["ships"].__setitem__(
            0, {"name": "X", "legs": [{"sea": "Baltic", "leg": 1, "value": 10}]}
        ),
        lambda d: d["ships"].__setitem__(
            0, {"name": "X", "legs": [{"sea": "Baltic", "leg": 1, "value": 1}] * 2}
        ),
        lambda d: d["ships"].__setitem__(
            0, {"name": "X", "legs": [{"sea": "Arctic", "leg": 1, "value": 1}]}
        ),
        lambda d: d.__setitem__("ships", d["ships"][:127]),
        lambda d: d.__setitem__("colour", "red"),
    ],
)
def test_invalid_ship_lists_are_rejected(mutate: Any) -> None:
    data = msgspec.to_builtins(ShipList.standard())
    data["ships"] = list(data["ships"])
    mutate(data)
    raw = msgspec.json.encode(data)
    if len(data["ships"]) == 131 and "colour" not in data:
        ShipList.from_json(raw)  # a list of 128..256 ships is accepted
        return
    with pytest.raises(InvalidOptionError):
        ShipList.from_json(raw)


# ---------------------------------------------------------------- options


@pytest.mark.parametrize("players", [0, 1, 7, True, "4", 4.0, None])
def test_bad_player_counts(players: Any) -> None:
    with pytest.raises(InvalidOptionError):
        cruiselib.make("atlantic_star", players=players)


def test_bad_options() -> None:
    with pytest.raises(InvalidOptionError):
        cruiselib.make("atlantic_star", variant="x")
    with pytest.raises(InvalidOptionError):
        cruiselib.make("atlantic_star", ships=42)
    with pytest.raises(InvalidOptionError):
        cruiselib.make("atlantic_star", ships="/nonexistent/ships.json")
    with pytest.raises(InvalidOptionError):
        game(4).new_state(seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError):
        game(4).playouts(-1)


# ---------------------------------------------------------------- action space


@pytest.mark.parametrize(("players", "n"), [(2, 825), (3, 825), (4, 785), (5, 785), (6, 785)])
def test_action_space_size(players: int, n: int) -> None:
    g = game(players)
    assert g.num_actions == n
    moves = [g.action_to_move(a) for a in range(n)]
    assert len(set(moves)) == n
    assert [g.move_to_action(m) for m in moves] == list(range(n))
    for m in moves:
        assert (
            msgspec.json.decode(
                msgspec.json.encode(m),
                type=g.move_type,
            )
            == m
        )


def test_registry_and_cli_hooks() -> None:
    assert "atlantic_star" in cruiselib.games()
    g: Any = cruiselib.make("atlantic_star")
    assert g.num_players == 4
    state = g.new_state(seed=1)
    text = g.render(state, 0)
    assert "agency" in text
    assert "seat 0" in text
    assert all(str(m) for m in state.legal_moves())


# ---------------------------------------------------------------- views and resampling


def test_view_hides_other_hands_and_the_pack_order() -> None:
    state = midgame()
    raw = state._get_raw()
    v = state.view(1)
    assert [s.id for s in v.hand] == raw["hands"][1]
    assert v.hand_sizes == [len(h) for h in raw["hands"]]
    assert v.deck_size == len(raw["deck"])
    text = msgspec.json.encode(v).decode()
    for p in (0, 2, 3):
        for c in raw["hands"][p]:
            assert f'"id":{c},' not in text or c in raw["agency"] or c in raw["discard"]


def test_resample_keeps_what_the_seat_sees() -> None:
    state = midgame()
    for p in range(4):
        other = state.resample(p, seed=5)
        assert other.view(p) == state.view(p)
        assert other.resample(p, seed=5) == other.resample(p, seed=5)
    other = state.resample(0, seed=5)
    assert state.resample(0, seed=6) != other  # unseen ships dealt anew
    with pytest.raises(InvalidOptionError):
        state.resample(4, seed=1)
    with pytest.raises(InvalidOptionError):
        state.view(-1)


def test_pickle_clone_and_round_trips() -> None:
    state = midgame()
    assert pickle.loads(pickle.dumps(state)) == state
    assert game(4).load_state(state.to_msgpack()) == state
    twin = state.clone()
    twin.apply(twin.legal_actions()[0])
    assert twin != state


def test_playouts_are_seeded_and_replayable() -> None:
    g = game(4)
    a, b = g.playouts(50, seed=3), g.playouts(50, seed=3)
    assert (a.scores == b.scores).all()
    assert (a.lengths == b.lengths).all()
    assert a.scores.max() <= g.score_bounds[1]
    assert (a.wins.sum(axis=1) >= 1).all()  # someone always wins (maybe shared)


# The playout formula of the game contract (engine.py: CoreState.c_playouts, _play_out).
GOLDEN, CHOICE_SALT = cruiselib._core.load("engine").PLAYOUT_STREAM
MASK64 = 2**64 - 1


def play_out_in_python(state: Any, r: int) -> int:
    """Play ``state`` to the end as a core playout does, choice stream seeded ``r``: the
    action taken for each random value is ``random_action``'s, checked against the legal
    list; returns the number of actions."""
    mix64 = cruiselib._core.load("rng").mix64
    choices = mix64(r ^ CHOICE_SALT)
    steps = 0
    while not state.is_over:
        choices = (choices + GOLDEN) & MASK64
        action = state.random_action(mix64(choices))
        assert action in state.legal_actions()
        state.apply(action)
        steps += 1
    return steps


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_each_playout_of_a_batch_replays_in_python(players: int) -> None:
    # Game g is dealt from playout_seed_state(seed, g) (start seat drawn from it too) and
    # chooses from its own stream, so any one game replays alone through the Python API.
    g = game(players)
    result = g.playouts(40, seed=5)
    for index in (0, 17, 39):
        deal = g.playout_seed_state(5, index)
        state = g.new_state(seed=0)
        state._new_game(deal, -1)
        assert int(result.lengths[index]) == play_out_in_python(state, deal)
        assert result.scores[index].tolist() == state.scores()
        assert result.wins[index].tolist() == [int(p in state.winners()) for p in range(players)]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_playouts_on_threads_equal_one_thread(players: int) -> None:
    g = game(players)
    one = g.playouts(301, seed=1)
    for threads in (2, 3):
        many = g.playouts(301, seed=1, threads=threads)
        assert (many.scores == one.scores).all() and (many.lengths == one.lengths).all()
        assert (many.wins == one.wins).all() and many.actions == one.actions
    head = g.playouts(50, seed=1)  # each game stands alone: a shorter batch is a prefix
    assert (head.scores == one.scores[:50]).all() and (head.lengths == one.lengths[:50]).all()


def test_playouts_from_a_position_replay_in_python_and_leave_it_unchanged() -> None:
    state = midgame(players=3, steps=45)
    before = state.to_json()
    result = state.playouts(30, seed=8, threads=2)
    assert state.to_json() == before
    assert (result.lengths > 0).all()
    rng = cruiselib._core.load("rng")
    base = rng.seed_state(8)
    for index in (0, 29):
        # a copy of the position, its generator reseeded: chance (refills) varies, the
        # cards already placed stay
        r = rng.mix64((base + index) & MASK64)
        raw = state._get_raw()
        raw["rng"] = r
        copy = state.game.new_state(seed=0)
        set_raw(copy, raw)
        assert int(result.lengths[index]) == play_out_in_python(copy, r)
        assert result.scores[index].tolist() == copy.scores()
        assert result.wins[index].tolist() == [int(p in copy.winners()) for p in range(3)]


# ---------------------------------------------------------------- bad-input matrix


def test_illegal_action_ids_leave_the_state_unchanged() -> None:
    state = midgame()
    before = state.to_json()
    legal = set(state.legal_actions())
    for a in [
        -1,
        state.game.num_actions,
        10**30,
        -(10**30),
        *[x for x in range(state.game.num_actions) if x not in legal][:50],
    ]:
        with pytest.raises(IllegalMoveError):
            state.apply(a)
        assert state.to_json() == before
    for bad in [True, 1.0, "3", None, object()]:
        with pytest.raises(IllegalMoveError):
            state.apply(bad)
        assert state.to_json() == before


def test_move_for_the_wrong_seat() -> None:
    state = midgame()
    before = state.to_json()
    a = state.legal_actions()[0]
    for p in range(4):
        if p != state.current_player:
            with pytest.raises(IllegalMoveError, match="cannot move"):
                state.apply(a, player=p)
    with pytest.raises(IllegalMoveError):
        state.apply(a, player="0")
    assert state.to_json() == before
    state.apply(a, player=state.current_player)


def test_move_after_game_over() -> None:
    g = game(4)
    state = g.new_state(seed=2)
    rnd = random.Random(2)
    while not state.is_over:
        state.apply(rnd.choice(state.legal_actions()))
    before = state.to_json()
    for a in (0, g.num_actions - 1):
        with pytest.raises(IllegalMoveError, match="over"):
            state.apply(a)
    with pytest.raises(IllegalMoveError):
        state.apply(Charter(price=0), player=0)
    assert state.to_json() == before
    assert state.legal_actions() == []
    assert not state.action_mask().any()


def test_malformed_moves() -> None:
    g = game(4)
    state = g.new_state(seed=1)
    for move in (
        Voyage(sea="Pacific", stars=3, keep=(0, 0)),
        Voyage(sea="Pacific", stars=3, keep=(9,)),
    ):
        with pytest.raises(IllegalMoveError):
            state.apply(move)
    with pytest.raises(IllegalMoveError):
        game(4).move_to_action(cruiselib.atlantic_star.Loan(sea="Baltic", amount=1000, voyage=1))


def state_dict(state: Any) -> dict[str, Any]:
    d: dict[str, Any] = msgspec.to_builtins(state.to_data())
    return d


def tampered() -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []

    def case(name: str, fn: Any) -> None:
        out.append((name, fn))

    case("duplicated ship", lambda d: d["deck"].append(d["deck"][0]))
    case("missing ship", lambda d: d["deck"].pop())
    case("unknown ship id", lambda d: d["deck"].__setitem__(0, 200))
    case("negative money", lambda d: d["money"].__setitem__(0, -1000))
    case("odd money", lambda d: d["money"].__setitem__(0, 1500))
    case("negative ship id", lambda d: d["deck"].__setitem__(0, -1))
    case("wrong schema version", lambda d: d.__setitem__("schema_version", 4))
    case("version 1 with a text rng", lambda d: d.__setitem__("schema_version", 1))
    case("unknown field", lambda d: d.__setitem__("weather", "fog"))
    case("wrong game", lambda d: d.__setitem__("game", "sirens"))
    case("wrong players", lambda d: d.__setitem__("players", 5))
    case("bad board", lambda d: d["board"][0].__setitem__(0, 99))
    case("negative rng", lambda d: d.__setitem__("rng", -1))
    case("rng as a number", lambda d: d.__setitem__("rng", 12345))
    case("rng in upper case", lambda d: d.__setitem__("rng", "F" * 16))
    case("rng too long", lambda d: d.__setitem__("rng", "0" + d["rng"]))
    case("bad phase", lambda d: d.__setitem__("phase", "lunch"))
    case("current player out of range", lambda d: d.__setitem__("current_player", 4))
    case("over but plaques left", lambda d: d.update(phase="over", current_player=-1))
    case("empty agency space", lambda d: d["agency"].__setitem__(0, None))
    case(
        "unsorted hand",
        lambda d: (
            d["hands"][0].reverse()
            if len(d["hands"][0]) > 1
            else d["hands"][0].extend(
                [d["deck"].pop(), d["deck"].pop()][::-1]
                if d["deck"][-1] < d["deck"][-2]
                else [d["deck"].pop(-2), d["deck"].pop()][::-1]
            )
        ),
    )
    case(
        "hand too big",
        lambda d: (
            d["hands"][1].extend(sorted(d["deck"][:9])) or d.__setitem__("deck", d["deck"][9:])
        ),
    )
    case(
        "class without voyage",
        lambda d: (
            d["seas"][0].__setitem__("stars", 2)
            if not d["seas"][0]["plaques"]
            else d["seas"][0].__setitem__("stars", None)
        ),
    )
    case(
        "plaque value tampered",
        lambda d: next(s for s in d["seas"] if s["plaques"])["plaques"][-1].__setitem__(
            "value", 55
        ),
    )
    case(
        "plaque order tampered",
        lambda d: next(s for s in d["seas"] if s["plaques"])["plaques"].reverse(),
    )
    case(
        "operator value tampered",
        lambda d: next(
            p for s in d["seas"] for p in s["plaques"] if p.get("seat") is None
        ).__setitem__("value", 1),
    )
    case(
        "loan not multiple",
        lambda d: next(
            p for s in d["seas"] for p in s["plaques"] if p.get("seat") is not None
        ).__setitem__("loan", 500),
    )
    case(
        "two seas one class",
        lambda d: [s.__setitem__("stars", 3) for s in d["seas"] if s["plaques"]],
    )
    case("truncated", lambda d: None)
    return out


@pytest.mark.parametrize(("name", "mutate"), tampered(), ids=[n for n, _ in tampered()])
@pytest.mark.parametrize("fmt", ["json", "msgpack"])
def test_tampered_states_raise_invalid_state(name: str, mutate: Any, fmt: str) -> None:
    g = game(4)
    state = midgame(4, seed=21, steps=90)
    assert any(s.plaques for s in state.to_data().seas)
    d = state_dict(state)
    mutate(d)
    data = json.dumps(d).encode() if fmt == "json" else msgspec.msgpack.encode(d)
    if name == "truncated":
        data = data[: len(data) // 2]
    with pytest.raises(InvalidStateError):
        g.load_state(data)


def test_rng_beyond_64_bits() -> None:
    d = state_dict(midgame())
    d["rng"] = 2**64
    with pytest.raises(InvalidStateError):
        game(4).load_state(json.dumps(d))
    d["schema_version"] = 1  # a version 1 snapshot holds the generator state as a number
    with pytest.raises(InvalidStateError, match="64-bit"):
        game(4).load_state(json.dumps(d))
    d["rng"] = 2**64 - 1
    assert game(4).load_state(json.dumps(d)).to_data().rng == "f" * 16


def test_load_state_rejects_garbage_types() -> None:
    g = game(4)
    for data in (b"", b"\x00", "[]", "{}", 42, None, b"\xc1", "null"):
        with pytest.raises(InvalidStateError):
            g.load_state(data)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_fuzz_load_state_random_bytes(data: bytes) -> None:
    with contextlib.suppress(InvalidStateError):
        game(4).load_state(data)


_FUZZ_BASE = None


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_fuzz_load_state_mutated_states(data: st.DataObject) -> None:
    base = msgspec.msgpack.encode(state_dict(midgame(4, seed=5, steps=80)))
    raw = bytearray(base)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    try:
        state = game(4).load_state(bytes(raw))
    except InvalidStateError:
        return
    # whatever loads must be a playable, self-consistent state
    legal = state.legal_actions()
    assert (state.action_mask().nonzero()[0].tolist()) == legal
    if legal:
        state.apply(legal[0])


def test_sea_names() -> None:
    assert SEAS == ("Baltic", "Mediterranean", "Atlantic", "Pacific")
    g = game(4)
    with pytest.raises(InvalidOptionError):
        g.voyage_value(regular_ships(g, 3), "Arctic")
    with pytest.raises(InvalidOptionError):
        g.voyage_value(regular_ships(g, 2), "Baltic")
    assert build(g).current_player == 0
