"""Sirens in Sight: views, resampling and the observation tensor, built by the core.

Each check runs on the compiled core and on its pure twin, over random positions of every
phase, both variants and small, odd and large card sets (8 to 64 cards). The reference
view and the pick distribution are in ``tests/sirens/oracle.py``.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from typing import Any, cast

import msgspec
import numpy as np
import pytest

import cruiselib
from cruiselib.sirens import Card, CardSet, SirensGame, SirensState
from tests.sirens.helpers import SHIPS, small_set
from tests.sirens.oracle import hidden_deal, pick_distribution, reference_view, unseen
from tests.support import allocation_peak

MODES = ["compiled", "pure"]


def _big(identical: bool) -> CardSet:
    """64 cards of 32 faces: two identical emblem sets (the variant), or the card-set test's
    set whose emblems alternate with the value (standard only)."""
    if identical:
        cards = tuple(Card(v - 10, e, v < 10) for v in range(32) for e in ("seastar", "shell"))
    else:
        cards = tuple(Card(v % 32 - 10, ("seastar", "shell")[i % 2], v % 32 < 10) for i, v in enumerate(range(64)))
    return CardSet(name=f"big-{identical}", cards=cards, ships=SHIPS)


# (variant, card set or None for the standard set, games per mode: compiled, pure)
CONFIGS: list[tuple[str, CardSet | None, int, int]] = [
    ("standard", None, 12, 2),
    ("bow_to_rear", None, 12, 2),
    ("standard", small_set(8), 10, 3),
    ("standard", small_set(9, ships=(3, 6, 9, 12, 15)), 10, 3),
    ("standard", small_set(12, ships=(5, 8, 11, 14, 17)), 10, 3),
    ("standard", small_set(20, ships=(6, 10, 14, 18, 22)), 10, 2),
    ("standard", small_set(8, value=1), 6, 2),
    ("standard", _big(False), 4, 1),
    ("bow_to_rear", small_set(8), 10, 3),
    ("bow_to_rear", small_set(12, ships=(5, 8, 11, 14, 17)), 10, 3),
    ("bow_to_rear", small_set(20, ships=(6, 10, 14, 18, 22)), 10, 2),
    ("bow_to_rear", _big(True), 4, 1),
]
IDS = [f"{v}-{c.name if c else 'standard'}" for v, c, _, _ in CONFIGS]


_GAMES: dict[tuple[str, str, str], SirensGame] = {}


def _game(variant: str, cards: CardSet | None, mode: str) -> SirensGame:
    key = (variant, cards.name if cards else "", mode)
    if key not in _GAMES:
        game = cruiselib.make("sirens", variant=variant, **({"cards": cards} if cards else {}))
        assert isinstance(game, SirensGame)
        _GAMES[key] = game if mode == "compiled" else cast(SirensGame, game.pure_twin())
    return _GAMES[key]


def _positions(game: SirensGame, games: int, seed: int = 0) -> list[SirensState]:
    """Every position of ``games`` random games (new deal to the end)."""
    out = []
    for g in range(games):
        state = game.new_state(seed=seed + g)
        rnd = random.Random(seed + g)
        while True:
            out.append(state.clone())
            if state.is_over:
                break
            state.apply(rnd.choice(state.legal_actions()))
    return out


def _config_positions(index: int, mode: str) -> tuple[SirensGame, list[SirensState]]:
    variant, cards, n_compiled, n_pure = CONFIGS[index]
    game = _game(variant, cards, mode)
    return game, _positions(game, n_compiled if mode == "compiled" else n_pure, seed=100 * index)


CASES = [(i, mode) for i in range(len(CONFIGS)) for mode in MODES]
CASE_IDS = [f"{IDS[i]}-{mode}" for i, mode in CASES]


# ------------------------------------------------------------------ view


@pytest.mark.parametrize(("index", "mode"), CASES, ids=CASE_IDS)
def test_the_view_is_the_reference_view(index: int, mode: str) -> None:
    game, states = _config_positions(index, mode)
    phases = set()
    for state in states:
        for p in (0, 1):
            view = state.view(p)
            expected = reference_view(state, p)
            assert view == expected
            # The same JSON too: equal values of another type (True for 1) would differ there.
            assert msgspec.json.encode(view) == msgspec.json.encode(expected)
            assert state.view(p, recall=True) == view
        phases.add(state.phase_name)
    assert phases >= {"main", "over"} | ({"pick"} if game.variant == "bow_to_rear" else set())


def test_every_phase_is_covered() -> None:
    seen = set()
    for index in range(len(CONFIGS)):
        _, states = _config_positions(index, "compiled")
        seen |= {s.phase_name for s in states}
    assert seen == {"pick", "main", "after", "crew", "over"}


@pytest.mark.skipif(not cruiselib.compiled, reason="compares the compiled core with its pure twin")
def test_compiled_and_pure_views_and_tensors_are_equal() -> None:
    for index, (variant, cards, _, _) in enumerate(CONFIGS):
        pure = _game(variant, cards, "pure")
        _, states = _config_positions(index, "compiled")
        for state in states[::5]:
            twin = pure.load_state(state.to_json())
            for p in (0, 1):
                assert msgspec.json.encode(twin.view(p)) == msgspec.json.encode(state.view(p))
                assert np.array_equal(twin.observation(p), state.observation(p))
                assert twin.resample(p, 7).to_json() == state.resample(p, 7).to_json()


def test_a_view_shares_no_list_with_another() -> None:
    # Card and crew infos are frozen and made once; every list is the view's own.
    state = cruiselib.make("sirens").new_state(seed=4)
    a, b = state.view(0), state.view(0)
    a.ships[0].sides[0].append(a.hand[0])
    a.hand.clear()
    a.legal_actions.clear()
    assert b == reference_view(state, 0) and state.view(0) == b


# ------------------------------------------------------------------ resample


@pytest.mark.parametrize(("index", "mode"), CASES, ids=CASE_IDS)
def test_a_resample_keeps_what_the_seat_sees(index: int, mode: str) -> None:
    game, states = _config_positions(index, mode)
    rnd = random.Random(index)
    for n, state in enumerate(states):
        before = state.to_json()
        for p in (0, 1):
            view = state.view(p)
            seed = rnd.randrange(2**32)
            other = state.resample(p, seed)
            assert state.to_json() == before  # the original is unchanged
            assert other.view(p) == view
            assert unseen(other, p) == unseen(state, p)  # the same cards, dealt anew
            assert other.to_json() == state.resample(p, seed).to_json()  # same seed, same deal
            assert other.to_json() == state.resample(p, seed, recall=True).to_json()
            assert game.load_state(other.to_json()) == other
            if n % 7 == 0:  # play the resampled state on to the end; it reloads all along
                play = random.Random(seed)
                while not other.is_over:
                    other.apply(play.choice(other.legal_actions()))
                    assert game.load_state(other.to_json()) == other


@pytest.mark.parametrize(("index", "mode"), CASES, ids=CASE_IDS)
def test_a_resample_varies_with_the_seed(index: int, mode: str) -> None:
    game, states = _config_positions(index, mode)
    varied = 0
    for state in states[::3]:
        if state.phase_name == "pick":
            continue  # the redone picks: test_the_pick_phase_resample_makes_the_picks_...
        for p in (0, 1):
            deals = {hidden_deal(state.resample(p, seed), p) for seed in range(12)}
            hidden = sum(unseen(state, p).values())
            own_pile = len(state.to_data().piles[p]) if game.variant == "bow_to_rear" else 0
            if hidden >= 2 or own_pile >= 2:
                # With 2 or more cards to order, 12 seeds giving one deal is (at most) 2**-11.
                assert len(deals) > 1, (state.to_json(), p)
                varied += 1
            elif hidden + own_pile <= 1:
                assert len(deals) == 1  # nothing to deal anew
    assert varied > 0


def _frequencies(state: SirensState, player: int, n: int, key: Any) -> Counter[Any]:
    return Counter(key(state.resample(player, seed)) for seed in range(n))


def _chi_square(counts: Counter[Any], expected: dict[Any, Fraction], n: int) -> float:
    assert set(counts) <= set(expected)
    return float(sum((counts.get(k, 0) - p * n) ** 2 / (p * n) for k, p in expected.items()))


def test_the_standard_resample_is_uniform_over_the_consistent_deals() -> None:
    # 10 cards: two hands of 4, a pile of 2. Seat 0 sees its hand; the other 6 cards make
    # C(6, 4) = 15 hands for seat 1 times 2 pile orders: 30 deals, each 1/30.
    game = cruiselib.make("sirens", cards=small_set(10))
    state = game.new_state(seed=1)
    pool = sorted(unseen(state, 0))
    n = 9000

    def key(s: SirensState) -> tuple[Any, ...]:
        raw = s._get_raw()
        return (tuple(sorted(raw["hands"][1])), tuple(raw["piles"][0]))

    counts = _frequencies(state, 0, n, key)
    deals = {
        (tuple(sorted(h)), (a, b))
        for h in _subsets(pool, 4)
        for a in pool
        for b in pool
        if a != b and {a, b}.isdisjoint(h)
    }
    assert len(deals) == 30 and set(counts) == deals
    # 29 degrees of freedom: a fair deal stays below 80 with probability 1 - 1e-6; the
    # seeds are fixed, so this passes or fails the same way every run.
    assert _chi_square(counts, {d: Fraction(1, 30) for d in deals}, n) < 80


def test_the_variant_resample_shuffles_the_own_pile_and_the_other_set() -> None:
    # 12 cards, 6 per emblem set; after the picks each seat holds 4 and has a pile of 2.
    # Seat 0 knows its pile's 2 cards but not their order (2 orders), and seat 1's set
    # only as a whole: 15 hands times 2 pile orders. 60 deals, each 1/60.
    game = cruiselib.make("sirens", variant="bow_to_rear", cards=small_set(12))
    state = game.new_state(seed=2)
    rnd = random.Random(2)
    while state.phase_name == "pick":
        state.apply(rnd.choice(state.legal_actions()))
    raw = state._get_raw()
    own, other = sorted(raw["piles"][0]), sorted(raw["hands"][1] + raw["piles"][1])
    n = 12000

    def key(s: SirensState) -> tuple[Any, ...]:
        r = s._get_raw()
        return (tuple(r["piles"][0]), tuple(sorted(r["hands"][1])), tuple(r["piles"][1]))

    counts = _frequencies(state, 0, n, key)
    deals = {
        (o, tuple(sorted(h)), (a, b))
        for o in ((own[0], own[1]), (own[1], own[0]))
        for h in _subsets(other, 4)
        for a in other
        for b in other
        if a != b and {a, b}.isdisjoint(h)
    }
    assert len(deals) == 60 and set(counts) == deals
    assert _chi_square(counts, {d: Fraction(1, 60) for d in deals}, n) < 130  # 59 dof, p ~ 1e-6


# Two identical emblem sets with repeated faces (1, 1, 2, 3, 3, 5): picks take the lowest
# card id of a face (S12), go in ascending order and never dead-end (S14).
PICK_SET = CardSet(
    name="picks",
    cards=tuple(Card(v, e, v == 2) for v in (1, 1, 2, 3, 3, 5) for e in ("seastar", "shell")),
    ships=SHIPS,
)


@pytest.mark.parametrize(("picker_picks", "viewer"), [(1, 1), (2, 1), (3, 1), (4, 1), (5, 0), (7, 0)])
@pytest.mark.parametrize("mode", MODES)
def test_the_pick_phase_resample_makes_the_picks_as_picking_makes_them(
    picker_picks: int, viewer: int, mode: str
) -> None:
    """The other seat's picks so far are redone, each a uniform face among those offered:
    the exact distribution (oracle.pick_distribution), not a uniform one over hands."""
    game = _game("bow_to_rear", PICK_SET, mode)
    state = game.new_state(seed=5, start_player=0)
    rnd = random.Random(picker_picks)
    for _ in range(picker_picks):  # seat 0 picks 4, then seat 1
        state.apply(rnd.choice(state.legal_actions()))
    assert state.phase_name == "pick"
    expected = pick_distribution(state, viewer)
    n = 6000 if mode == "compiled" else 1500

    def key(s: SirensState) -> tuple[int, ...]:
        return tuple(s._get_raw()["hands"][1 - viewer])

    counts = _frequencies(state, viewer, n, key)
    assert set(counts) == set(expected)  # every pick sequence is reachable, no other
    dof = len(expected) - 1
    assert _chi_square(counts, expected, n) < 3 * dof + 30  # far beyond p ~ 1e-6 for these dof
    if picker_picks in (3, 4):
        assert len(set(expected.values())) > 1  # the picks' distribution is not uniform here
    for seed in range(20):
        other = state.resample(viewer, seed)
        raw = other._get_raw()
        opp = 1 - viewer
        assert raw["piles"][opp] == sorted(raw["piles"][opp])  # still in card id order (S15)
        faces = [game.rules.face_of(c) for c in raw["hands"][opp]]
        assert raw["pick_floor"][opp] == (faces[-1] if faces else 0)
        game.load_state(other.to_json())


def _subsets(items: list[int], k: int) -> list[tuple[int, ...]]:
    return list(itertools.combinations(items, k))


# ------------------------------------------------------------------ observation tensor


@pytest.mark.parametrize(("index", "mode"), CASES, ids=CASE_IDS)
def test_the_observation_is_a_function_of_the_view(index: int, mode: str) -> None:
    game, states = _config_positions(index, mode)
    assert game.observation_shape == (game.rules.observation_size,)
    for n, state in enumerate(states[::2]):
        for p in (0, 1):
            obs = state.observation(p)
            assert obs.dtype == np.float32 and obs.shape == game.observation_shape
            for seed in range(2):
                twin = state.resample(p, n * 2 + seed)
                assert np.array_equal(twin.observation(p), obs)
            _check_fields(game, state, p, obs)


@pytest.mark.parametrize(("index", "mode"), CASES, ids=CASE_IDS)
def test_the_observation_changes_when_the_table_changes(index: int, mode: str) -> None:
    # Every action changes something both seats see (a card, a count, a token, the turn).
    _, states = _config_positions(index, mode)
    for a, b in itertools.pairwise(states):
        if a.is_over:
            continue  # the next position is a new game
        for p in (0, 1):
            assert not np.array_equal(a.observation(p), b.observation(p))
    state = states[len(states) // 2]
    assert not np.array_equal(state.observation(0), state.observation(1))


def _check_fields(game: SirensGame, state: SirensState, p: int, obs: Any) -> None:
    """Read the tensor back through observation_fields() and compare it with the view."""
    f = game.observation_fields()
    view = state.view(p)
    nc = len(game.cards.cards)
    assert list(f) == game.rules.observation_layout.names()
    assert max(s.stop for s in f.values()) == obs.shape[0]

    def ids(name: str, lo: int = 0) -> list[int]:
        part = obs[f[name]][lo * nc : (lo + 1) * nc]
        assert set(part.tolist()) <= {0.0, 1.0}
        return [int(i) for i in np.flatnonzero(part)]

    def own_other(values: list[Any]) -> list[float]:
        return [float(values[p]), float(values[1 - p])]

    assert obs[f["seat"]].tolist() == [float(p == 0), float(p == 1)]
    assert obs[f["phase"]].tolist() == [float(view.phase == ph) for ph in ("pick", "main", "after", "crew", "over")]
    cur = view.current_player
    assert obs[f["to_decide"]].tolist() == [float(cur == p), float(cur == 1 - p)]
    assert obs[f["turn"]].tolist() == [float(view.turn_player == p), float(view.turn_player != p)]
    assert ids("hand") == [c.id for c in view.hand]
    assert ids("own_pile") == [c.id for c in view.own_pile or []]
    assert ids("removed") == sorted(c.id for c in view.removed)
    for k, ship in enumerate(view.ships):
        for rel, side in enumerate((ship.sides[p], ship.sides[1 - p])):
            slot = 2 * k + rel
            assert ids("sides", slot) == sorted(c.id for c in side)
            assert obs[f["side_counts"]][slot] == len(side)
            assert obs[f["side_totals"]][slot] == np.float32(sum(c.value for c in side) * 0.1)
        assert obs[f["thresholds"]][k] == np.float32(ship.threshold * 0.1)
        assert obs[f["rum"]][k] == ship.rum
        status = [ship.in_play, ship.owner == p, ship.owner == 1 - p, ship.removed]
        assert obs[f["ship_status"]][4 * k : 4 * k + 4].tolist() == [float(x) for x in status]
        assert obs[f["crew_choice"]][k] == float(ship.value in (view.crew_choice or []))
    cards = [c for ship in view.ships for side in ship.sides for c in side]
    assert ids("octopus", 0) == [c.id for c in cards if c.octopus == p]
    assert ids("octopus", 1) == [c.id for c in cards if c.octopus == 1 - p]
    for t, token in enumerate(view.crew):
        place = [0.0] * 8
        if token.ship is not None:
            place[game.cards.ships.index(token.ship)] = 1.0
        elif token.owner is not None:
            place[5 if token.owner == p else 6] = 1.0
        else:
            assert token.removed
            place[7] = 1.0
        assert obs[f["crew"]][8 * t : 8 * t + 8].tolist() == place
    assert obs[f["hand_sizes"]].tolist() == own_other(view.hand_sizes)
    piles = view.pile_sizes if len(view.pile_sizes) == 2 else view.pile_sizes * 2
    assert obs[f["pile_sizes"]].tolist() == [np.float32(x * (1 / nc)) for x in own_other(piles)]
    assert obs[f["points"]].tolist() == own_other(view.points)
    assert obs[f["rum_held"]].tolist() == own_other(view.rum_held)
    assert obs[f["octopus_held"]].tolist() == own_other(view.octopus_held)
    assert obs[f["passes"]].tolist() == [float(view.passes)]
    assert obs[f["picks"]].tolist() == own_other(view.picks)


def test_the_tensor_of_a_known_position() -> None:
    # The standard game just dealt, seen by the start player: read the parts by name.
    game = cruiselib.make("sirens")
    state = game.new_state(seed=3, start_player=1)
    obs = state.observation(1)
    f = game.observation_fields()
    view = state.view(1)
    assert np.flatnonzero(obs[f["hand"]]).tolist() == [c.id for c in view.hand] and len(view.hand) == 4
    assert obs[f["seat"]].tolist() == [0, 1] and obs[f["phase"]].tolist() == [0, 1, 0, 0, 0]
    assert obs[f["to_decide"]].tolist() == [1, 0] and obs[f["turn"]].tolist() == [1, 0]
    assert obs[f["hand_sizes"]].tolist() == [4, 4]
    assert obs[f["pile_sizes"]].tolist() == [np.float32(44 / 52)] * 2  # one shared pile
    assert obs[f["crew"]].tolist() == [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]  # S3: 30, 34
    assert obs[f["thresholds"]].tolist() == [np.float32(v * 0.1) for v in SHIPS]
    assert obs[f["ship_status"]].tolist() == [1, 0, 0, 0] * 5
    assert obs[f["rum_held"]].tolist() == [1, 1] and obs[f["octopus_held"]].tolist() == [1, 1]
    # Nothing else: no card on the table, none removed, no pile of its own, no points.
    ones = 1 + 1 + 1 + 1 + 4 + 5 + 2 + 2 + 2  # seat, phase, to_decide, turn, hand, ships, crew, mug, octopus
    rest = 8 + 2 * np.float32(44 / 52) + sum(np.float32(v * 0.1) for v in SHIPS)  # hand sizes, piles, thresholds
    assert obs.sum() == pytest.approx(ones + rest)


@pytest.mark.parametrize("mode", MODES)
def test_observation_into_a_buffer_allocates_nothing(mode: str) -> None:
    game = _game("standard", None, mode)
    state = game.new_state(seed=1)
    buf = np.full(game.observation_shape, 7.0, dtype=np.float32)
    assert state.observation(0, out=buf) is buf
    assert np.array_equal(buf, state.observation(0))  # zeroed first, then written
    _, peak = allocation_peak(lambda: state.observation(0, out=buf))
    assert peak < buf.nbytes  # no tensor was made


@pytest.mark.parametrize("kind", ["short", "float64", "list", "strided"])
def test_a_wrong_buffer_is_refused(kind: str) -> None:
    game = cruiselib.make("sirens")
    state = game.new_state(seed=1)
    (size,) = game.observation_shape
    out: Any = {
        "short": np.zeros(size - 1, np.float32),
        "float64": np.zeros(size, np.float64),
        "list": [0.0] * size,
        "strided": np.zeros(2 * size, np.float32)[::2],
    }[kind]
    before = state.to_json()
    with pytest.raises(cruiselib.InvalidOptionError, match="out must be"):
        state.observation(0, out=out)
    assert state.to_json() == before


# ------------------------------------------------------------------ information state


@pytest.mark.parametrize("variant", ["standard", "bow_to_rear"])
def test_the_information_state_is_the_observation(variant: str) -> None:
    # Perfect recall knows nothing the table does not show (docs/sirens.md).
    game = _game(variant, None, "compiled")
    assert not game.distinct_information_state
    assert game.information_state_shape == game.observation_shape
    assert game.information_state_fields() == game.observation_fields()
    for state in _positions(game, 2, seed=3)[::4]:
        for p in (0, 1):
            assert np.array_equal(state.information_state(p), state.observation(p))


def test_S19_recall_adds_nothing_the_information_state_is_the_observation() -> None:
    import random

    import numpy as np

    import cruiselib

    for variant in ("standard", "bow_to_rear"):
        game = cruiselib.make("sirens", variant=variant)
        assert not game.distinct_information_state
        assert game.information_state_shape == game.observation_shape
        state = game.new_state(seed=19)
        rnd = random.Random(19)
        for _ in range(25):
            if state.is_over:
                break
            for p in (0, 1):
                assert np.array_equal(state.information_state(p), state.observation(p))
                assert state.view(p, recall=True) == state.view(p)
                assert state.resample(p, seed=3, recall=True) == state.resample(p, seed=3)
            state.apply(rnd.choice(state.legal_actions()))
