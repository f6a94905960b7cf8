"""Dream Cruise: the observation and information-state tensors (``game._observation_layout``).

The observation is a function of ``view(seat)`` alone (states with equal views, a state
and its resamples, give equal tensors; different views give different tensors), it reads
back through ``game.observation_fields()``, and ``observation(p, out=buf)`` allocates
nothing. The information state adds, per seat, the hand cards every seat saw it take face
up, a function of ``view(seat, recall=True)``.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt
import pytest

import cruiselib
from cruiselib.dream_cruise import TYPES, DreamCruiseGame, DreamCruiseState
from tests.dream_cruise.test_views import POSITIONS
from tests.support import allocation_peak


def fields(g: DreamCruiseGame, t: npt.NDArray[np.float32], info: bool = False) -> dict[str, npt.NDArray[np.float32]]:
    layout = g.information_state_fields() if info else g.observation_fields()
    return {name: t[s] for name, s in layout.items()}


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("additions", [1, 2, 4])
def test_the_layout_covers_the_tensors(players: int, additions: int) -> None:
    g = cruiselib.make("dream_cruise", players=players, additions=additions)
    assert isinstance(g, DreamCruiseGame)
    nf, nl, ns = len(g.cards.families), len(g.cards.locations), len(g.cards.ships)
    size = players * (30 + 11 * additions + 44 + 8 + 6 + 3) + 2 * ns + 2 * nf + 2 * nl + ns + 15 + 3 + 5 + 2 + 10
    assert g.observation_shape == (size,)
    assert g.information_state_shape == (size + players * ns,)
    assert g.distinct_information_state
    obs = g.observation_fields()
    info = g.information_state_fields()
    assert list(info)[: len(obs)] == list(obs) and all(info[k] == obs[k] for k in obs)
    assert info["known_hands"] == slice(size, size + players * ns)
    state = g.new_state(seed=1)
    for p in range(players):
        assert state.observation(p).shape == g.observation_shape and state.observation(p).dtype == np.float32
        assert state.information_state(p).shape == g.information_state_shape


def test_equal_views_give_equal_tensors() -> None:
    for g, state in POSITIONS:
        for p in range(g.num_players):
            obs = state.observation(p)
            info = state.information_state(p)
            assert np.isfinite(info).all() and (info >= 0).all()
            for seed in range(2):
                other = state.resample(p, seed)
                assert other.view(p) == state.view(p)
                assert np.array_equal(other.observation(p), obs)
                recalled = state.resample(p, seed, recall=True)
                assert np.array_equal(recalled.information_state(p), info)


def test_different_views_give_different_tensors() -> None:
    seen: dict[tuple[int, bytes], str] = {}
    for g, state in POSITIONS:
        for p in range(g.num_players):
            key = (id(g), state.observation(p).tobytes())
            view = msgspec.json.encode(msgspec.structs.replace(state.view(p), legal_actions=[])).decode()
            assert seen.setdefault(key, view) == view
    assert len(seen) > 300


def test_every_action_changes_what_every_seat_observes() -> None:
    checked = 0
    for g, state in POSITIONS[::3]:
        if state.is_over:
            continue
        for a in state.legal_actions()[:4]:
            after = state.clone()
            after.apply(a)
            for p in range(g.num_players):
                assert not np.array_equal(after.observation(p), state.observation(p)), (a, p)
                checked += 1
    assert checked > 100


def test_the_tensor_reads_back_the_view() -> None:
    # Every part of the observation against the view it is made from, seats in turn order
    # from the observer.
    for g, state in POSITIONS[::2]:
        n = g.num_players
        ns, nf = len(g.cards.ships), len(g.cards.families)
        for p in range(n):
            v = state.view(p)
            f = fields(g, state.observation(p))
            cabins = f["cabins"].reshape(n, 3, 10)
            adds = f["additions"].reshape(n, g.additions, 11)
            loc = f["location"].reshape(n, 44)
            routes = f["routes"].reshape(n, 8)
            counts = f["counts"].reshape(n, 6)
            for r in range(n):
                seat = v.seats[(p + r) % n]
                for c in range(3):
                    fam = seat.families[c]
                    assert cabins[r, c, 0] == (fam >= 0)
                    if fam >= 0:
                        card = g.cards.families[fam]
                        assert cabins[r, c, 1] * 6 == pytest.approx(card.members)
                        assert cabins[r, c, 2] * 6 == pytest.approx(seat.figures_left[c])
                        assert cabins[r, c, 3] * 9 == pytest.approx(card.points)
                        wants = [TYPES[t] for t in range(6) if cabins[r, c, 4 + t]]
                        assert sorted(wants) == sorted(card.wants)
                for j in range(g.additions):
                    x = seat.additions[j]
                    assert adds[r, j, 0] == (x >= 0)
                    assert [k for k in range(3) if adds[r, j, 8 + k]] == seat.addition_guests[j]
                assert loc[r, 0] == (seat.location is not None)
                if seat.location is not None:
                    assert loc[r, 1] == (g.cards.locations[seat.location.card].kind == "sea")
                    for s in range(3):
                        assert loc[r, 8 + s * 12 + 11] == (seat.location.captain == s)
                        assert [k for k in range(3) if loc[r, 8 + s * 12 + 8 + k]] == seat.location.guests[s]
                assert routes[r, 7] * 54 == pytest.approx(seat.route_points, abs=1e-4)
                assert counts[r, 2] * 20 == pytest.approx(seat.hand_size)
                assert counts[r, 3] * 6 == pytest.approx(seat.drawn_size)
                assert counts[r, 4] * 100 == pytest.approx(seat.score, abs=1e-4)
            assert [x for x in range(ns) if f["hand"][x]] == v.hand
            drawn = [x for x in range(nf) if f["drawn_families"][x]] + [
                x for x in range(len(g.cards.locations)) if f["drawn_locations"][x]
            ]
            assert drawn == sorted(v.drawn)
            assert sorted(x for x in range(ns) if f["display_cards"][x]) == sorted(
                x for s in v.display for x in s.cards
            )
            assert [x for x in range(nf) if f["family_discard"][x]] == sorted(v.family_discard)
            assert [x for x in range(ns) if f["ship_discard"][x]] == sorted(v.ship_discard)
            assert list(f["phase"]) == [float(v.phase == ph) for ph in
                                        ("boarding", "set_course", "entertainment", "set_sail", "over")]
            if v.current_player >= 0:
                assert f["current_player"][(v.current_player - p) % n] == 1 and f["current_player"].sum() == 1
            else:
                assert not f["current_player"].any()
            assert f["start_player"][(v.start_player - p) % n] == 1
            assert f["round"][0] == v.final_round
            if n == 1:
                assert v.jana is not None
                assert f["jana"][0] * 20 == pytest.approx(v.jana.pile_size)
                # Her pile's points count only once the game shows them (C9).
                shown = 0 if v.jana.score is None else v.jana.score - v.jana.route_points
                assert f["jana"][9] * 100 == pytest.approx(shown)
            else:
                assert not f["jana"].any()


def test_the_information_state_adds_the_cards_taken_face_up() -> None:
    nonempty = 0
    for g, state in POSITIONS:
        n, ns = g.num_players, len(g.cards.ships)
        for p in range(n):
            info = state.information_state(p)
            assert np.array_equal(info[: g.observation_shape[0]], state.observation(p))
            planes = fields(g, info, info=True)["known_hands"].reshape(n, ns)
            recall = state.view(p, recall=True).recall
            assert recall is not None
            for r in range(n):
                assert [x for x in range(ns) if planes[r, x]] == recall[(p + r) % n]
                nonempty += bool(recall[(p + r) % n])
    assert nonempty > 50


def test_the_own_hand_shows_only_in_the_own_tensor() -> None:
    g = cruiselib.make("dream_cruise", players=3)
    assert isinstance(g, DreamCruiseGame)
    state: DreamCruiseState = g.new_state(seed=2)
    rnd = random.Random(2)
    while not (state.phase == "set_sail" and all(state.view(p).hand for p in range(3))):
        state.apply(rnd.choice(state.legal_actions()))
    hands = [fields(g, state.observation(p))["hand"] for p in range(3)]
    for p in range(3):
        assert [x for x in range(len(g.cards.ships)) if hands[p][x]] == state.view(p).hand
        for q in range(3):  # the hands are disjoint: nobody's tensor shows another's
            assert (hands[p] * hands[q]).any() == (p == q)


def test_observation_into_a_buffer_allocates_nothing() -> None:
    g, state = next((g, s) for g, s in POSITIONS if g.num_players == 4 and s.phase == "set_sail")
    buf = np.full(g.observation_shape, 7.0, dtype=np.float32)  # whatever was in it is overwritten
    assert state.observation(2, out=buf) is buf
    assert np.array_equal(buf, state.observation(2))
    info = np.full(g.information_state_shape, 7.0, dtype=np.float32)
    assert state.information_state(1, out=info) is info
    assert np.array_equal(info, state.information_state(1))

    def both() -> None:
        state.observation(1, out=buf)
        state.information_state(1, out=info)

    # The least of three counts: tracemalloc also counts the test runner's own threads.
    held, _ = allocation_peak(both, calls=300)
    assert held < 500  # a new array is kilobytes: none was made


@pytest.mark.parametrize(
    "out",
    [np.zeros(10, dtype=np.float32), np.zeros(10, dtype=np.float64), [0.0] * 10],
)
def test_a_wrong_buffer_is_refused(out: Any) -> None:
    state = cruiselib.make("dream_cruise", players=2).new_state(seed=1)
    with pytest.raises(cruiselib.InvalidOptionError, match="out must be"):
        state.observation(0, out=out)
