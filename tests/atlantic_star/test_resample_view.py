"""Atlantic Star: a resample depends only on what the seat sees and on the seed.

Information-set search deals its root anew with ``resample(seat, seed, recall=r)``, so two
states that look the same to the seat (equal ``view(seat, recall=r)``) must give the same
deal for the same seed, whatever the hidden ships are and in whatever order they lie:
which other hand holds which ship, and the pack's order (A13; with recall, the ships no
seat knows, A14). Checked on positions reached by play for 2 to 6 players and every
option set, with the record of known ships as play keeps it and with it cleared (as a
version 2 snapshot loads), and on positions whose hidden ships were rearranged by hand.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.atlantic_star import AtlanticStarGame, AtlanticStarState, ShipList

from .helpers import set_raw

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
SEEDS = (11, 12)  # the twins: the same position dealt anew, as the search's root would be


@cache
def _short_list() -> ShipList:
    """128 ships in reverse order: other ship ids, the fewest ships a list may have (A12)."""
    data = msgspec.to_builtins(ShipList.standard())
    data["ships"] = list(reversed(data["ships"]))[:128]
    data["name"] = "reversed, 128 ships"
    return ShipList.from_json(msgspec.json.encode(data))


@cache
def _game(index: int) -> AtlanticStarGame:
    options = dict(CONFIGS[index])
    if options.get("ships") == "short":
        options["ships"] = _short_list()
    g = cruiselib.make("atlantic_star", **options)
    assert isinstance(g, AtlanticStarGame)
    return g


def _played(g: AtlanticStarGame, games: int, every: int, seed: int) -> list[AtlanticStarState]:
    """Every ``every``-th position of ``games`` random games, the last two of each included
    (the last decision and the end)."""
    out = []
    for k in range(games):
        rnd = random.Random(seed * 100 + k)
        state = g.new_state(seed=seed * 100 + k)
        step = 0
        last = state
        while not state.is_over:
            if step % every == 0:
                out.append(state.clone())
            last = state.clone()
            state.apply(rnd.choice(state.legal_actions()))
            step += 1
        out += [last, state]
    return out


def _data(state: AtlanticStarState) -> dict[str, Any]:
    d: dict[str, Any] = msgspec.to_builtins(state.to_data())
    d["deal"] = None  # a bare position: the loader replays no history
    d["history"] = []
    return d


def _forgotten(state: AtlanticStarState) -> AtlanticStarState:
    """The position with no record of known ships (as a version 2 snapshot loads; a
    finished game shows every hand all the same)."""
    d = _data(state)
    if d["phase"] != "over":
        d["known"] = [[] for _ in d["hands"]]
    return state.game.load_state(d)


def _check(state: AtlanticStarState, p: int, recall: bool) -> bool:
    """The property: states that look the same to ``p`` resample alike. Returns whether
    the twins differed (so the check compared different hidden deals)."""
    view = state.view(p, recall=recall)
    twins = [state.resample(p, s, recall=recall) for s in SEEDS]
    want = state.resample(p, 99, recall=recall).to_json()
    for twin in twins:
        assert twin.view(p, recall=recall) == view
        assert twin.resample(p, 99, recall=recall).to_json() == want, (state.to_json(), p, recall)
    return twins[0].to_json() != twins[1].to_json()


def _rearranged(state: AtlanticStarState, p: int, recall: bool, rnd: random.Random) -> AtlanticStarState:
    """A state equal to ``state`` in ``view(p, recall)``: the ships ``p`` cannot see (with
    recall: those no seat knows) dealt anew among the other hands and the pack, the pack in
    a new order; without recall, another record of known ships for the other seats."""
    d = _data(state)
    hands, known = d["hands"], d["known"]
    others = [q for q in range(len(hands)) if q != p]
    kept = {q: set(known[q]) if recall else set() for q in others}
    pool = [c for q in others for c in hands[q] if c not in kept[q]] + d["deck"]
    rnd.shuffle(pool)
    for q in others:
        n = len(hands[q]) - len(kept[q])
        hands[q] = sorted(kept[q] | set(pool[:n]))
        pool = pool[n:]
        if d["phase"] == "over":
            known[q] = hands[q]
        elif not recall:
            known[q] = sorted(c for c in hands[q] if rnd.random() < 0.5)
    d["deck"] = pool
    return state.game.load_state(d)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_equal_views_give_equal_resamples_at_reached_positions(index: int) -> None:
    g = _game(index)
    states = _played(g, 1, 6, index)
    phases = {s.to_data().phase for s in states}
    assert phases == {"loan", "agency", "over"}
    differed = 0
    checks = 0
    for k, state in enumerate(states):
        for p in range(g.num_players):
            for recall in (False, True):
                differed += _check(state, p, recall)
                checks += 1
            if k % 3 == 0:  # with the record cleared, recall redeals the hands too
                differed += _check(_forgotten(state), p, True)
                checks += 1
    assert differed > checks // 2  # the twins mostly hid different deals


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_a_rearranged_hidden_deal_resamples_alike(index: int) -> None:
    """Positions loaded with the unseen ships moved between the other hands and the pack,
    the pack reordered and (without recall) another record of known ships: the same view,
    the same resample for every seed."""
    g = _game(index)
    rnd = random.Random(index)
    changed = 0
    for k, state in enumerate(_played(g, 1, 15, 30 + index)):
        if k % 2:
            state = _forgotten(state)
        for p in range(g.num_players):
            for recall in (False, True):
                twin = _rearranged(state, p, recall, rnd)
                changed += twin.to_json() != state.to_json()
                assert twin.view(p, recall=recall) == state.view(p, recall=recall)
                for seed in (1, 2):
                    want = state.resample(p, seed, recall=recall).to_json()
                    assert twin.resample(p, seed, recall=recall).to_json() == want
    assert changed > 0


def _tiny(g: AtlanticStarGame, deck: int) -> AtlanticStarState:
    """A 3-player position (set raw, unchecked: not one play reaches) whose pack holds
    ``deck`` ships: seat 0 holds 2, seat 1 holds 2 (one of them known), seat 2 holds 1,
    everything else is in the discard pile."""
    state = g.new_state(seed=1)
    raw = state._get_raw()
    ids = list(range(len(g.ships.ships)))
    raw["hands"] = [ids[0:2], ids[2:4], ids[4:5]]
    raw["known"] = [[], [ids[3]], []]
    raw["agency"] = ids[5:9]
    raw["deck"] = ids[9 : 9 + deck]
    raw["discard"] = ids[9 + deck :]
    set_raw(state, raw)
    return state


@pytest.mark.parametrize("deck", [0, 1, 2])
def test_an_empty_or_nearly_empty_pack(deck: int) -> None:
    """Few ships to deal: the pack empty, with one or two ships; the same deal whatever
    order the unseen ships lay in (rearranged through the raw arrays)."""
    g = _game(1)
    state = _tiny(g, deck)
    for p in range(3):
        for recall in (False, True):
            _check(state, p, recall)
    for seed in range(6):
        twin = _tiny(g, deck)
        raw = twin._get_raw()
        rnd = random.Random(seed)
        pool = raw["hands"][1][:1] + raw["hands"][2] + raw["deck"]  # seat 1's ship 3 is known
        rnd.shuffle(pool)
        raw["hands"][1] = sorted([pool[0], 3])
        raw["hands"][2] = [pool[1]]
        raw["deck"] = pool[2:]
        set_raw(twin, raw)
        for recall in (False, True):
            assert twin.view(0, recall=recall) == state.view(0, recall=recall)
            want = state.resample(0, seed, recall=recall).to_json()
            assert twin.resample(0, seed, recall=recall).to_json() == want


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_the_start_and_the_first_turns(index: int) -> None:
    """A new game (empty hands: only the pack to deal) and its first turns."""
    g = _game(index)
    for seed in range(2):
        state = g.new_state(seed=seed)
        rnd = random.Random(seed)
        for _ in range(2 * g.num_players):
            for p in range(g.num_players):
                for recall in (False, True):
                    _check(state, p, recall)
            state.apply(rnd.choice(state.legal_actions()))


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_equal_views_give_equal_resamples_over_many_games(index: int) -> None:
    g = _game(index)
    rnd = random.Random(index)
    for state in _played(g, 2, 2, 200 + index):
        for p in range(g.num_players):
            for recall in (False, True):
                _check(state, p, recall)
                _check(_forgotten(state), p, recall)
                twin = _rearranged(state, p, recall, rnd)
                assert twin.resample(p, 8, recall=recall).to_json() == state.resample(p, 8, recall=recall).to_json()
