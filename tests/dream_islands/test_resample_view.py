"""Dream Islands: a resample depends on what the seat sees and on the seed, nothing else.

Information-set search determinizes with ``resample(seat, seed, recall=r)``, so two states
with equal ``view(seat, recall=r)`` must resample alike for the same seed: the core
gathers the unseen cards by id (never in the order they lay in), puts the own hand in
the order its view lists it, and sets every seat's memory (I16) to what that view shows.
Checked over positions reached by play (every player count, with and without a round
limit, both values of recall) and over hand-built ones: the start, nearly empty piles, a
seat with every mission done, the round limit, the last decision of a game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from cruiselib.dream_islands import Draw, DreamIslandsGame, DreamIslandsState, DreamIslandsStateData
from tests.dream_islands.helpers import build, game
from tests.dream_islands.positions import CONFIGS, all_positions, keeping_policy, positions


def data_of(state: DreamIslandsState) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(state.to_json())
    return result


def load_free(g: DreamIslandsGame, data: dict[str, Any]) -> DreamIslandsState:
    """A state from snapshot data, checked for consistency but not for history (as
    ``build`` loads: hand-built positions need not be reachable)."""
    decoded = msgspec.json.decode(msgspec.json.encode(data), type=DreamIslandsStateData)
    state = g._state_class(g.rules, g)
    state._load(decoded, False)
    return state


def resampled_twice_alike(state: DreamIslandsState, seat: int, recall: bool) -> bool:
    """The check of the brief: resampling two resamples gives what resampling the state does."""
    a = state.resample(seat, 11, recall=recall)
    b = state.resample(seat, 12, recall=recall)
    want = state.resample(seat, 99, recall=recall).to_json()
    return a.resample(seat, 99, recall=recall).to_json() == want == b.resample(seat, 99, recall=recall).to_json()


def twin(state: DreamIslandsState, seat: int, recall: bool, rnd: random.Random) -> DreamIslandsState:
    """Another state with the same ``view(seat, recall)``: the other hands and piles and the
    own unseen pile dealt anew (by a resample), then the own hand in another order and,
    without recall, the own memory forgotten (neither is in that view)."""
    g = state.game
    d = data_of(state.resample(seat, rnd.randrange(2**32), recall=recall))
    rnd.shuffle(d["hands"][seat])
    k = d["known"][seat]
    rest = d["piles"][seat][k:]
    rnd.shuffle(rest)
    d["piles"][seat][k:] = rest
    if not recall:
        d["hand_avoids"][seat] = [0] * len(d["hands"][seat])
    out = load_free(g, d)
    assert out.view(seat, recall=recall) == state.view(seat, recall=recall)
    return out


def check(state: DreamIslandsState, rnd: random.Random) -> int:
    """The property for every seat and both recall values; how many twins differed from
    the state in their snapshot (so the comparison was not of equal states)."""
    differed = 0
    for seat in range(state.game.num_players):
        for recall in (False, True):
            assert resampled_twice_alike(state, seat, recall), (seat, recall)
            other = twin(state, seat, recall, rnd)
            differed += other.to_json() != state.to_json()
            for seed in (5, 2**40 + 3):
                want = state.resample(seat, seed, recall=recall)
                assert other.resample(seat, seed, recall=recall).to_json() == want.to_json(), (seat, recall, seed)
                assert want.view(seat, recall=recall) == state.view(seat, recall=recall)
    return differed


# --------------------------------------------------------------------------- reached by play


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_equal_views_resample_alike_in_positions_reached_by_play(config: int) -> None:
    players, options = CONFIGS[config]
    rnd = random.Random(config)
    differed = 0
    phases = set()
    for state in positions(game(players, **options), 70 + config, 25):
        differed += check(state, rnd)
        phases.add(state.phase_name)
    assert differed > 20
    assert {"move", "exchange"} <= phases


@pytest.mark.slow
def test_equal_views_resample_alike_in_many_positions_reached_by_play() -> None:
    rnd = random.Random(1)
    phases = set()
    for _, state in all_positions(per_config=80, seed=8):
        check(state, rnd)
        phases.add(state.phase_name)
    assert phases == {"move", "exchange", "over"}


def test_the_resample_reads_no_hidden_order() -> None:
    # Every hand and every pile above the cards put under it in other orders: no seat
    # sees a difference (views with recall equal), and every seat's resample is the same.
    g = game(3)
    rnd = random.Random(4)
    state = g.new_state(seed=9)
    while state.view(0).rounds < 3 or state.phase_name != "exchange":
        state.apply(keeping_policy(state, rnd))
    reordered = 0
    for _ in range(5):
        d = data_of(state)
        for q in range(3):
            rnd.shuffle(d["hands"][q])
            k = d["known"][q]
            rest = d["piles"][q][k:]
            rnd.shuffle(rest)
            d["piles"][q][k:] = rest
        other = load_free(g, d)
        reordered += other.to_json() != state.to_json()
        for seat in range(3):
            assert other.view(seat, recall=True) == state.view(seat, recall=True)
            for recall in (False, True):
                a = other.resample(seat, 17, recall=recall).to_json()
                assert a == state.resample(seat, 17, recall=recall).to_json()
    assert reordered == 5


# --------------------------------------------------------------------------- hand-built edges


def edge_positions() -> Iterator[tuple[str, DreamIslandsState]]:
    for players in (2, 3, 4):
        yield f"start {players}", game(players).new_state(seed=players)
    g = game(2)
    # Nearly empty piles: seat 1 has 13 missions done (3 in hand, an empty pile); in its
    # exchange, seat 0 holds one card, one under its pile and one above it, or two and one
    # under the pile, none above.
    yield "empty pile", build(g, completed={1: range(13)}, hands={1: [13, 14, 15]})
    yield "one card left", build(g, completed={0: range(2, 15), 1: range(12)}, hands={0: [15], 1: [12, 13, 14]},
                                 under={0: [0]}, avoids={0: [[1]]}, phase="exchange", covered={0: [3]})
    yield "under only", build(g, completed={0: range(3, 16)}, hands={0: [0, 1]}, under={0: [2]}, covered={0: [2]},
                              phase="exchange")
    # Rare endings (I7): every mission of a seat done; the middle full, hands still held.
    yield "sixteen done", build(g, completed={0: range(16)}, hands={0: []}, phase="over", rounds=12)
    yield "over, hands held", build(g, completed={0: range(10), 1: range(5)}, phase="over", small=(0, 1, 0),
                                    main={1: 3}, hands={0: [10, 11, 12], 1: [13, 14, 15]}, rounds=9)
    # An exchange with memory: the mover keeps what the table saw (I13, I16).
    yield "exchange", build(g, phase="exchange", cur=1, covered={1: [3]}, pieces={1: [2, 2, 2]},
                            hands={1: [0, 4, 10]}, avoids={0: [[1, 5], [5], []], 1: [[5], [5], []]})
    # The last decision of a game with a round limit: the last seat's exchange of round 1.
    limited = game(3, max_rounds=1)
    for seed in range(40):
        state = limited.new_state(seed=seed)
        rnd = random.Random(seed)
        while not state.is_over and not (state.current_player == 2 and state.phase_name == "exchange"):
            state.apply(keeping_policy(state, rnd))
        if not state.is_over:
            yield "last decision", state.clone()
            state.apply(Draw())
            assert state.is_over
            yield "limit reached", state
            return
    raise AssertionError("no last exchange found")


EDGES = list(edge_positions())


@pytest.mark.parametrize(("name", "state"), EDGES, ids=[name for name, _ in EDGES])
def test_equal_views_resample_alike_in_edge_positions(name: str, state: DreamIslandsState) -> None:
    check(state, random.Random(name))


def test_the_own_hand_is_sorted_and_the_memory_is_what_the_view_shows() -> None:
    # What the resample writes for things its seat sees: the own hand in view order, and
    # each seat's memory as view(seat, recall) shows it (the table's facts without recall).
    g = game(2)
    state = build(g, phase="exchange", cur=1, covered={1: [3]}, pieces={1: [2, 2, 2]},
                  hands={0: [9, 3, 6], 1: [0, 4, 10]}, avoids={0: [[1, 2], [2], [2]], 1: [[5], [5], []]})
    for seat in (0, 1):
        for recall in (False, True):
            d = data_of(state.resample(seat, 3, recall=recall))
            assert d["hands"][seat] == sorted(data_of(state)["hands"][seat])
            shown = state.view(seat, recall=True).recall
            assert shown is not None
            for q in (0, 1):
                levels = [sum(1 << m for m in lv) for lv in shown[q].avoid]
                if recall:
                    assert d["hand_avoids"][q] == levels
                else:
                    holds = state.mission_mask(1) if q == 1 else 0  # seat 1 is in its exchange (I13)
                    assert d["hand_avoids"][q] == [holds & ~sum(1 << m for m in d["completed"][q])] * 3
