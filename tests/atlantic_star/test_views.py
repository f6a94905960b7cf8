"""Views, the record of known ships (A13, A14), resampling and the observation and
information-state tensors, all built by the core: compared with the Python references
of ``oracle.py`` over played games of every option set, in the compiled core and its
pure-Python twin."""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import cache
from typing import Any

import msgspec
import numpy as np
import pytest

import cruiselib
from cruiselib import InvalidOptionError, InvalidStateError
from cruiselib.atlantic_star import AtlanticStarGame, AtlanticStarState, ShipList, Voyage

from ..support import allocation_peak, random_game
from .helpers import build, game, regular_ships, set_raw, sid
from .oracle import (
    KnownTracker,
    reference_information_state,
    reference_observation,
    reference_view,
    unseen,
)

# Every option set: 2-6 players, a ship list of its own (128 ships, reordered) and a board
# table of its own.
BOARD = [[10 + 3 * c, 9, 8, 7, 3, 0] for c in range(5)]
CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 6},
    {"players": 3, "ships": "short"},
    {"players": 5, "board": BOARD},
]
IDS = ["2p", "3p", "4p", "5p", "6p", "3p-128-ships", "5p-board"]
MODES = ["compiled", "pure"] if cruiselib.compiled else ["pure"]
FAST = cruiselib.compiled  # the pure core is ~100x slower: fewer states there


@cache
def short_list() -> ShipList:
    data = msgspec.to_builtins(ShipList.standard())
    data["ships"] = list(reversed(data["ships"]))[:128]
    data["name"] = "reversed, 128 ships"
    return ShipList.from_json(msgspec.json.encode(data))


@cache
def configured(index: int, mode: str) -> AtlanticStarGame:
    options = dict(CONFIGS[index])
    if options.get("ships") == "short":
        options["ships"] = short_list()
    g = cruiselib.make("atlantic_star", **options)
    assert isinstance(g, AtlanticStarGame)
    if mode == "pure" and cruiselib.compiled:
        twin = g.pure_twin()
        assert isinstance(twin, AtlanticStarGame)
        return twin
    return g


def played_states(g: AtlanticStarGame, games: int, every: int, seed: int = 0) -> list[AtlanticStarState]:
    """Copies of the states of ``games`` seeded random games: every ``every``-th and the last."""
    return [state for k in range(games) for state in random_game(g, seed * 100 + k, every)]


def known_of(state: AtlanticStarState) -> list[set[int]]:
    return [set(k) for k in state.to_data().known]


# ---------------------------------------------------------------- views (A13, A14)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_view_equals_the_reference_at_every_step(index: int, mode: str) -> None:
    """The core's view is today's Python view at every step of played games, for every
    seat (the SeaInfo reused from the last view included), and with recall it adds what
    a seat that watched every move knows (A14)."""
    g = configured(index, mode)
    every = 1 if FAST else 9
    for seed in range(2 if FAST else 1):
        state = g.new_state(seed=seed)
        tracker = KnownTracker(g)
        rnd = random.Random(seed)
        step = 0
        while True:
            if step % every == 0 or state.is_over:
                for p in range(g.num_players):
                    assert state.view(p) == reference_view(g, state, p)
                    assert state.view(p, recall=True) == reference_view(g, state, p, tracker.known)
                    assert state.view(p).known is None
            if state.is_over:
                break
            tracker.apply(state, rnd.choice(state.legal_actions()))
            step += 1
        assert state.view(0).phase == "over"


@pytest.mark.parametrize("mode", MODES)
def test_views_of_copies_and_of_loaded_states(mode: str) -> None:
    """A copy shares the seas of the last view until it plays on; a loaded or resampled
    state builds its own; every view still equals the reference."""
    g = configured(2, mode)
    state = played_states(g, 1, 1000)[0]
    rnd = random.Random(5)
    for _ in range(40):
        state.apply(rnd.choice(state.legal_actions()))
    state.view(0)
    copy = state.clone()
    for _ in range(12):
        if copy.is_over:
            break
        copy.apply(rnd.choice(copy.legal_actions()))
        for st in (state, copy, g.load_state(copy.to_json()), copy.resample(1, seed=3)):
            for p in range(g.num_players):
                assert st.view(p) == reference_view(g, st, p)


def test_view_checks_the_seat_and_recall_is_keyword_only() -> None:
    state = game(4).new_state(seed=1)
    for bad in (-1, 4, True, "0", 1.0, None):
        with pytest.raises(InvalidOptionError):
            state.view(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        state.view(0, True)  # type: ignore[call-arg]
    assert state.view(np.int64(2)) == state.view(2)


def test_a_views_json_follows_its_schema() -> None:
    g = game(3)
    for state in played_states(g, 1, 17):
        for p in range(3):
            for recall in (False, True):
                text = msgspec.json.encode(state.view(p, recall=recall))
                assert msgspec.json.decode(text, type=g.view_type) == state.view(p, recall=recall)


# ---------------------------------------------------------------- the record of known ships (A14)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_every_held_ship_of_a_new_game_is_known(index: int, mode: str) -> None:
    """Hands start empty and fill only by charters, face up: in a game from new_state the
    record is every hand, at every step (A14)."""
    g = configured(index, mode)
    for state in played_states(g, 2 if FAST else 1, 3):
        d = state.to_data()
        assert d.known == d.hands


@pytest.mark.parametrize("mode", MODES)
def test_a_version_2_snapshot_knows_nothing_until_ships_are_chartered(mode: str) -> None:
    """A version-2 snapshot has no record: no held ship is known; charters add theirs,
    voyages take the played ones away, the end shows every hand (A14)."""
    g = configured(2, mode)
    state = played_states(g, 1, 1000)[0]
    rnd = random.Random(2)
    for _ in range(30):
        state.apply(rnd.choice(state.legal_actions()))
    d = msgspec.to_builtins(state.to_data())
    assert any(d["hands"])
    del d["known"]
    old = g.load_state({**d, "schema_version": 2})
    assert old.to_data().known == [[] for _ in range(4)]
    assert old.to_data().hands == state.to_data().hands
    assert old.view(0, recall=True).known == [[], [], [], []]
    tracker = KnownTracker(g)
    partial_seen = False
    while not old.is_over:
        tracker.apply(old, rnd.choice(old.legal_actions()))
        assert known_of(old) == tracker.known
        data = old.to_data()
        partial_seen |= data.known != data.hands
        assert g.load_state(old.to_json()) == old
        for p in range(4):
            assert old.view(p, recall=True) == reference_view(g, old, p, tracker.known)
    assert partial_seen
    assert old.to_data().known == old.to_data().hands
    # A finished version-2 game shows every hand.
    final = msgspec.to_builtins(old.to_data())
    del final["known"]
    assert g.load_state({**final, "schema_version": 2}) == old


@pytest.mark.parametrize("mode", MODES)
def test_a_kept_ship_stays_as_known_as_it_was(mode: str) -> None:
    """Seat 0 holds four known Baltic ships and one unknown (a version-2 hand); it sails
    three and keeps one known ship and the unknown one: the first stays known, the other
    stays unknown, the played ones leave the record (A14)."""
    g = configured(2, mode)
    baltic = [s.name for s in g.ships.ships if any(e.sea == "Baltic" for e in s.legs) and not s.mail][:5]
    state = build(g, hands={0: baltic}, known={0: baltic[:4]}, current=0, start=0)
    hand = state.to_data().hands[0]
    secret = hand.index(sid(g, baltic[4]))
    keep = tuple(sorted({secret, 0 if secret else 1}))
    state.apply(g.move_to_action(Voyage(sea="Baltic", stars=1, keep=keep)))
    kept = [hand[i] for i in keep]
    assert state.to_data().hands[0] == kept
    assert state.to_data().known[0] == [c for c in kept if c != sid(g, baltic[4])]
    assert len(state.to_data().known[0]) == 1


def _snapshot(state: AtlanticStarState) -> dict[str, Any]:
    d: dict[str, Any] = msgspec.to_builtins(state.to_data())
    return d


@pytest.mark.parametrize(
    ("name", "mutate", "match"),
    [
        ("a ship not in the hand", lambda d, p: d["known"].__setitem__(p, sorted([*d["known"][p], d["deck"][0]])),
         "not in seat"),
        ("another seat's ship",
         lambda d, p: d["known"].__setitem__(p, sorted([*d["known"][p], d["hands"][(p + 1) % 4][0]])),
         "not in seat"),
        ("unsorted", lambda d, p: d["known"][p].reverse(), "sorted"),
        ("twice", lambda d, p: d["known"][p].append(d["known"][p][-1]), "sorted"),
        ("a seat too few", lambda d, p: d["known"].pop(), "one entry per seat"),
        ("a seat too many", lambda d, p: d["known"].append([]), "one entry per seat|valid"),
        ("missing", lambda d, p: d.pop("known"), "valid"),
    ],
)
@pytest.mark.parametrize("mode", MODES)
def test_the_loader_checks_the_record(name: str, mutate: Any, match: str, mode: str) -> None:
    g = configured(2, mode)
    state = played_states(g, 1, 1000)[0]
    rnd = random.Random(4)
    for _ in range(50):
        state.apply(rnd.choice(state.legal_actions()))
    d = _snapshot(state)
    p = max(range(4), key=lambda q: len(d["hands"][q]))
    assert len(d["hands"][p]) >= 2 and all(d["hands"])
    mutate(d, p)
    with pytest.raises(InvalidStateError, match=match):
        g.load_state(json.dumps(d))


@pytest.mark.parametrize("mode", MODES)
def test_the_loader_takes_part_of_a_hand_but_a_finished_game_shows_all(mode: str) -> None:
    g = configured(2, mode)
    state = played_states(g, 1, 1000)[0]
    rnd = random.Random(4)
    for _ in range(50):
        state.apply(rnd.choice(state.legal_actions()))
    d = _snapshot(state)
    p = max(range(4), key=lambda q: len(d["hands"][q]))
    d["known"][p] = d["known"][p][1:]
    loaded = g.load_state(json.dumps(d))
    assert _snapshot(loaded) == d
    while not state.is_over:
        state.apply(rnd.choice(state.legal_actions()))
    d = _snapshot(state)
    p = max(range(4), key=lambda q: len(d["hands"][q]))
    assert d["hands"][p]
    d["known"][p] = d["known"][p][1:]
    with pytest.raises(InvalidStateError, match="every hand is shown"):
        g.load_state(json.dumps(d))


# ---------------------------------------------------------------- resampling


def _check_resample(state: AtlanticStarState, p: int, seed: int, recall: bool) -> AtlanticStarState:
    g = state.game
    before = state.to_json()
    other = state.resample(p, seed=seed, recall=recall)
    assert state.to_json() == before  # the original is unchanged
    assert other.view(p) == state.view(p)
    mine, theirs = state.to_data(), other.to_data()
    if recall:
        assert other.view(p, recall=True) == state.view(p, recall=True)
        assert theirs.known == mine.known  # every known ship stays where it is
    else:
        for q in range(g.num_players):
            if q != p:  # a world dealt anew has no record of the redealt hands
                assert theirs.known[q] == (theirs.hands[q] if state.is_over else [])
        assert theirs.known[p] == mine.known[p]
    assert unseen(other, p, recall) == unseen(state, p, recall)  # the same ships, dealt anew
    assert [len(h) for h in theirs.hands] == [len(h) for h in mine.hands]
    assert other.legal_actions() == state.legal_actions() or state.current_player != p
    assert state.resample(p, seed=seed, recall=recall) == other
    assert g.load_state(other.to_json()) == other
    return other


@pytest.mark.parametrize("recall", [False, True], ids=["table", "recall"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_resample_is_consistent_with_what_the_seat_knows(index: int, mode: str, recall: bool) -> None:
    """For states of every phase and every seat: the resample looks the same to the seat
    (with recall: remembers the same), deals exactly the unseen ships anew, depends on
    the seed only, leaves the original alone and loads back."""
    g = configured(index, mode)
    states = played_states(g, 2 if FAST else 1, 5 if FAST else 23, seed=index)
    phases = {s.to_data().phase for s in states}
    assert phases == {"loan", "agency", "over"} if FAST else {"loan", "over"} <= phases
    for k, state in enumerate(states):
        for p in range(g.num_players):
            other = _check_resample(state, p, 1000 * k + p, recall)
            if len(set(unseen(state, p, recall))) >= 2:  # something to vary
                deals = {state.resample(p, seed=s, recall=recall).to_json() for s in range(8)}
                assert len(deals) > 1
            del other


@pytest.mark.parametrize("recall", [False, True], ids=["table", "recall"])
@pytest.mark.parametrize("mode", MODES)
def test_resampled_states_play_to_the_end(mode: str, recall: bool) -> None:
    g = configured(3, mode)
    for state in played_states(g, 1, 31, seed=7)[:-1]:
        other = state.resample(state.current_player, seed=11, recall=recall)
        rnd = random.Random(3)
        while not other.is_over:
            other.apply(rnd.choice(other.legal_actions()))
            assert g.load_state(other.to_msgpack()) == other
        assert other.to_data().known == other.to_data().hands


@pytest.mark.parametrize("mode", MODES)
def test_recall_keeps_the_known_ships_the_table_redeals_them(mode: str) -> None:
    g = configured(2, mode)
    state = played_states(g, 1, 1000)[0]
    rnd = random.Random(6)
    for _ in range(45):
        state.apply(rnd.choice(state.legal_actions()))
    hands = state.to_data().hands
    assert sum(len(h) for h in hands[1:]) >= 3
    moved = 0
    for seed in range(20):
        table = state.resample(0, seed=seed).to_data().hands
        remembered = state.resample(0, seed=seed, recall=True).to_data().hands
        assert remembered == hands  # every held ship was chartered face up: all known
        moved += table[1:] != hands[1:]
        assert table[0] == hands[0]
    assert moved >= 18


def tiny_position(g: AtlanticStarGame) -> AtlanticStarState:
    """A 3-player position (not one play reaches; set raw, unchecked) whose unseen ships
    are few: seat 0 holds 2, seat 1 holds 2 (one of them known), seat 2 holds 1, the
    pack holds 2, everything else is in the discard pile."""
    state = g.new_state(seed=1)
    raw = state._get_raw()
    ids = list(range(len(g.ships.ships)))
    raw["hands"] = [ids[0:2], ids[2:4], ids[4:5]]
    raw["known"] = [[], [ids[3]], []]
    raw["agency"] = ids[5:9]
    raw["deck"] = ids[9:11]
    raw["discard"] = ids[11:]
    set_raw(state, raw)
    return state


def _deal(state: AtlanticStarState) -> tuple[Any, ...]:
    d = state.to_data()
    return (tuple(d.hands[1]), tuple(d.hands[2]), tuple(d.deck))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("recall", "deals"), [(False, 60), (True, 24)], ids=["table", "recall"])
def test_every_consistent_deal_is_equally_likely(mode: str, recall: bool, deals: int) -> None:
    """Exhaustive count on a tiny position, fixed seeds (so the verdict never changes):
    without recall 5 unseen ships fill seat 1 (2), seat 2 (1) and the pack (2, in order):
    5!/2! = 60 deals; with recall seat 1's known ship stays: 4! = 24 deals. Every deal
    appears, and the counts pass a chi-square test with a wide margin."""
    g = configured(1, mode)
    state = tiny_position(g)
    per = 100 if FAST else 30
    n = deals * per
    counts = Counter(_deal(state.resample(0, seed=s, recall=recall)) for s in range(n))
    assert len(counts) == deals
    if recall:
        assert all(3 in hand1 for hand1, _, _ in counts)
    chi2 = sum((c - per) ** 2 / per for c in counts.values())
    df = deals - 1
    assert chi2 < df + 6 * (2 * df) ** 0.5, (chi2, df)
    # the same distribution in both cores: the same deals for the same seeds
    if mode == "compiled" and cruiselib.compiled:
        twin = configured(1, "pure")
        other = tiny_position(twin)
        for s in range(20):
            assert _deal(state.resample(0, seed=s, recall=recall)) == _deal(other.resample(0, seed=s, recall=recall))


# ---------------------------------------------------------------- tensors


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_tensors_encode_the_view(index: int, mode: str) -> None:
    """The observation is the docs' encoding of view(seat), computed here from the view
    Struct alone; the information state adds the known ships of view(seat, recall=True)."""
    g = configured(index, mode)
    for state in played_states(g, 1, 3 if FAST else 17, seed=index):
        for p in range(g.num_players):
            obs = state.observation(p)
            assert obs.dtype == np.float32 and obs.shape == g.observation_shape
            assert np.array_equal(obs, reference_observation(g, state.view(p)))
            info = state.information_state(p)
            assert info.shape == g.information_state_shape
            assert np.array_equal(info, reference_information_state(g, state.view(p, recall=True)))


@pytest.mark.parametrize("mode", MODES)
def test_equal_views_give_equal_tensors(mode: str) -> None:
    """A state and its resamples look the same to the seat: equal observations; with
    recall equal information states. A resample without recall forgets the record of the
    other hands, which the information state shows (A14)."""
    g = configured(2, mode)
    forgot = 0
    for k, state in enumerate(played_states(g, 1, 4)):
        for p in range(4):
            table = state.resample(p, seed=k)
            remembered = state.resample(p, seed=k, recall=True)
            assert np.array_equal(table.observation(p), state.observation(p))
            assert np.array_equal(remembered.observation(p), state.observation(p))
            assert np.array_equal(remembered.information_state(p), state.information_state(p))
            others_known = any(state.to_data().known[q] for q in range(4) if q != p)
            if others_known and not state.is_over:
                assert not np.array_equal(table.information_state(p), state.information_state(p))
                forgot += 1
    assert forgot > 10


@pytest.mark.parametrize("mode", MODES)
def test_tensors_change_with_what_the_seat_sees_only(mode: str) -> None:
    """Two positions that differ only in seat 1's hidden hand (same size) look the same
    to seat 0 at the table; seat 1's own hand part differs, and so does seat 0's
    information state, which knows seat 1's chartered ships (A14). Money is public."""
    g = configured(2, mode)
    ships = regular_ships(g, 12)
    agency = ships[8:12]
    a = build(g, hands={0: ships[0:2], 1: ships[2:4]}, agency=agency, current=0, start=0)
    b = build(g, hands={0: ships[0:2], 1: ships[4:6]}, agency=agency, current=0, start=0)
    f = g.observation_fields()
    fi = g.information_state_fields()
    assert np.array_equal(a.observation(0), b.observation(0))
    assert np.array_equal(a.observation(2), b.observation(2))
    diff = np.flatnonzero(a.observation(1) != b.observation(1))
    assert len(diff) == 4 and all(f["hand"].start <= i < f["hand"].stop for i in diff)
    diff = np.flatnonzero(a.information_state(0) != b.information_state(0))
    assert len(diff) == 4 and all(fi["known"].start <= i < fi["known"].stop for i in diff)
    unknown = build(g, hands={0: ships[0:2], 1: ships[4:6]}, agency=agency, known={1: []}, current=0, start=0)
    assert np.array_equal(a.information_state(0)[: f["scores"].stop], unknown.information_state(0)[: f["scores"].stop])
    assert not unknown.information_state(0)[fi["known"]][len(g.ships.ships) : 2 * len(g.ships.ships)].any()
    c = build(g, hands={0: ships[0:2], 1: ships[2:4]}, agency=agency, current=0, start=0,
              money=[18000, 18000, 16000, 18000])
    diff = np.flatnonzero(a.observation(0) != c.observation(0))
    assert list(diff) == [f["money"].start + 2]


@pytest.mark.parametrize("mode", MODES)
def test_tensor_fields_read_back_a_known_position(mode: str) -> None:
    g = configured(2, mode)
    ships = regular_ships(g, 12)
    state = build(g, hands={0: ships[0:3], 1: ships[3:5]}, agency=ships[8:12], current=1, start=0)
    f = g.observation_fields()
    M = len(g.ships.ships)
    obs = state.observation(0)
    view = state.view(0)
    assert [int(i) for i in np.flatnonzero(obs[f["hand"]])] == [s.id for s in view.hand]
    assert sorted(int(i) for i in np.flatnonzero(obs[f["hand"]])) == sorted(sid(g, x) for x in ships[0:3])
    assert list(obs[f["seat"]]) == [1, 0, 0, 0]
    assert list(obs[f["current_player"]]) == [0, 1, 0, 0]
    assert list(obs[f["phase"]]) == [1, 0, 0]
    agency = obs[f["agency"]].reshape(4, M)
    assert [int(np.flatnonzero(row)[0]) for row in agency] == [a.ship.id for a in view.agency if a.ship]
    assert list(obs[f["hand_sizes"]] * 8) == view.hand_sizes
    assert np.allclose(obs[f["money"]] * 76_000, view.money)
    assert list(obs[f["free_classes"]]) == [1, 1, 1, 1, 1]
    assert not obs[f["plaques"]].any() and not obs[f["board_ships"]].any()
    assert obs[f["deck_size"]][0] == pytest.approx(view.deck_size / M)
    info = state.information_state(0)
    fi = g.information_state_fields()
    assert np.array_equal(info[: g.observation_shape[0]], obs)
    known = info[fi["known"]].reshape(4, M)
    assert [sorted(int(i) for i in np.flatnonzero(row)) for row in known] == state.to_data().known


def test_tensor_layout_and_shapes() -> None:
    for players in (2, 4, 6):
        g = game(players)
        M = len(g.ships.ships)
        f = g.observation_fields()
        assert list(f) == [
            "seat", "current_player", "phase", "hand", "hand_sizes", "agency", "deck_size",
            "discard", "board_ships", "sea_class", "free_classes", "plaques", "money",
            "loans", "voyages_left", "scores",
        ]  # fmt: skip
        assert f["agency"].stop - f["agency"].start == 4 * M
        assert f["plaques"].stop - f["plaques"].start == 4 * 6 * 8
        fi = g.information_state_fields()
        assert list(fi) == [*f, "known"]
        assert fi["known"].stop - fi["known"].start == players * M
        assert g.information_state_shape == (fi["known"].stop,)
        assert g.observation_shape == (fi["known"].start,)
        assert g.distinct_information_state


@pytest.mark.parametrize("mode", MODES)
def test_tensors_into_a_buffer(mode: str) -> None:
    g = configured(2, mode)
    state = played_states(g, 1, 1000)[0]
    buf = np.full(g.observation_shape, 7.0, dtype=np.float32)
    assert state.observation(2, out=buf) is buf
    assert np.array_equal(buf, state.observation(2))
    info = np.full(g.information_state_shape, -1.0, dtype=np.float32)
    assert state.information_state(3, out=info) is info
    assert np.array_equal(info, state.information_state(3))
    # Into a buffer nothing is kept and no tensor is made: far less than one array's bytes.
    held, peak = allocation_peak(lambda: state.observation(2, out=buf))
    assert held < 256 and peak < buf.nbytes // 4
    for bad in (np.zeros(g.information_state_shape, np.float32), np.zeros(g.observation_shape), [0.0]):
        with pytest.raises(InvalidOptionError):
            state.observation(0, out=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError):
        state.information_state(0, out=buf)
    with pytest.raises(InvalidOptionError):
        state.observation(4)
