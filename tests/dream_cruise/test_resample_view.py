"""Dream Cruise: a resample depends on what the seat sees and on the seed, nothing else.

Information-set search determinizes with ``resample(seat, seed, recall=r)``, so two states
with equal ``view(seat, recall=r)`` must resample alike for the same seed: the core puts
every pool of unseen cards in id order before its shuffle (never the order the decks,
hands or drawn cards lay in), lists the own drawn cards as the view does, and without
recall forgets every seat's record of cards taken face up (C26), its own too. Checked over
positions reached by play (every player count and option, both values of recall) and
over hand-built ones: the start, nearly empty decks, each phase's hidden zones, the last
decision and the end of a game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.dream_cruise import DreamCruiseGame, DreamCruiseState
from cruiselib.dream_cruise.moves import Done
from cruiselib.dream_cruise.schema import DreamCruiseStateData
from tests.dream_cruise.helpers import make, position, starting
from tests.dream_cruise.positions import end_of_round
from tests.support import random_game

CONFIGS: list[dict[str, Any]] = [
    {"players": 1},
    {"players": 1, "difficulty": 3, "sea_ship_draw": True},
    {"players": 2, "additions": 1},
    {"players": 3, "sea_ship_draw": True},
    {"players": 4, "additions": 4, "route_points": (2, 4, 7, 11)},
]


def data_of(state: DreamCruiseState) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(state.to_json())
    return result


def load_free(game: DreamCruiseGame, data: dict[str, Any]) -> DreamCruiseState:
    """A state from snapshot data, checked for consistency but not for history (as
    ``position`` loads: hand-built positions need not be reachable)."""
    struct = msgspec.json.decode(msgspec.json.encode(data), type=DreamCruiseStateData)
    state = game._state_class(game.rules, game)
    state._load(struct, history=False)
    return state


def played(options: dict[str, Any], seed: int) -> list[DreamCruiseState]:
    """Every position of one seeded random game, the last included."""
    return random_game(cruiselib.make("dream_cruise", **options), seed)


def sampled(options: dict[str, Any], seed: int, per_phase: int) -> list[DreamCruiseState]:
    """Up to ``per_phase`` random positions of each phase of one seeded game, and its end."""
    states = played(options, seed)
    rnd = random.Random(seed)
    out = [states[-1]]
    for phase in ("boarding", "set_course", "entertainment", "set_sail"):
        of_phase = [s for s in states if s.phase == phase]
        out += rnd.sample(of_phase, min(per_phase, len(of_phase)))
    return out


def resampled_twice_alike(state: DreamCruiseState, seat: int, recall: bool) -> bool:
    """The check of the brief: resampling two resamples gives what resampling the state does."""
    a = state.resample(seat, 11, recall=recall)
    b = state.resample(seat, 12, recall=recall)
    want = state.resample(seat, 99, recall=recall).to_json()
    return a.resample(seat, 99, recall=recall).to_json() == want == b.resample(seat, 99, recall=recall).to_json()


def twin(state: DreamCruiseState, seat: int, recall: bool, rnd: random.Random) -> DreamCruiseState:
    """Another state with the same ``view(seat, recall)``: every unseen zone dealt anew (by a
    resample), then the own drawn cards in another order and, without recall, the own
    hand's record of cards taken face up changed (neither is in that view)."""
    d = data_of(state.resample(seat, rnd.randrange(2**32), recall=recall))
    own = d["seats"][seat]
    rnd.shuffle(own["drawn"])
    if not recall and own["hand"]:
        own["known"] = sorted(rnd.sample(own["hand"], rnd.randint(1, len(own["hand"]))))
    out = load_free(state.game, d)
    assert out.view(seat, recall=recall) == state.view(seat, recall=recall)
    return out


def check(state: DreamCruiseState, rnd: random.Random) -> int:
    """The property for every seat and both recall values; how many twins differed from
    the state in their snapshot (so the comparison was not of equal states)."""
    differed = 0
    for seat in range(state.game.num_players):
        for recall in (False, True):
            assert resampled_twice_alike(state, seat, recall), (seat, recall)
            other = twin(state, seat, recall, rnd)
            differed += data_of(other) != {**data_of(state), "deal": None, "history": None}
            for seed in (5, 2**40 + 3):
                want = state.resample(seat, seed, recall=recall)
                assert other.resample(seat, seed, recall=recall).to_json() == want.to_json(), (seat, recall, seed)
                assert want.view(seat, recall=recall) == state.view(seat, recall=recall)
    return differed


# --------------------------------------------------------------------------- reached by play


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_equal_views_resample_alike_in_positions_reached_by_play(config: int) -> None:
    rnd = random.Random(config)
    differed = 0
    phases = set()
    for state in sampled(CONFIGS[config], 40 + config, 3):
        differed += check(state, rnd)
        phases.add(state.phase)
    assert differed > 10
    assert phases == {"boarding", "set_course", "entertainment", "set_sail", "over"}


@pytest.mark.slow
def test_equal_views_resample_alike_in_many_positions_reached_by_play() -> None:
    rnd = random.Random(1)
    for options in CONFIGS:
        for seed in range(4):
            for state in played(options, 100 + seed)[seed::5]:
                check(state, rnd)


def test_the_resample_reads_no_hidden_order() -> None:
    # Every deck, the box and every drawn hand of cards in other orders: no seat sees a
    # difference (views with recall equal), and every seat's resample is the same.
    game = make(3, sea_ship_draw=True)
    rnd = random.Random(5)
    state = game.new_state(seed=5)
    while state.phase != "boarding":
        state.apply(rnd.choice(state.legal_actions()))
    assert sum(len(s["drawn"]) > 1 for s in data_of(state)["seats"]) >= 2
    for _ in range(5):
        d = data_of(state)
        for key in ("family_deck", "family_box", "location_deck", "ship_deck"):
            rnd.shuffle(d[key])
        for s in d["seats"]:
            rnd.shuffle(s["drawn"])
        other = load_free(game, d)
        assert other.to_json() != state.to_json()
        for seat in range(3):
            assert other.view(seat, recall=True) == state.view(seat, recall=True)
            for recall in (False, True):
                a = other.resample(seat, 17, recall=recall).to_json()
                assert a == state.resample(seat, 17, recall=recall).to_json()


# --------------------------------------------------------------------------- hand-built edges


def _discard_all_but(game: DreamCruiseGame, families: list[int], locations: list[int],
                     ships: list[int]) -> dict[str, Any]:
    """Every non-starting family and every location and ship card not named goes to its
    (public) discard pile: the decks are nearly empty."""
    nonstart = [f for f, fam in enumerate(game.cards.families) if fam.start is None]
    return {
        "family_discard": [f for f in nonstart if f not in families],
        "location_discard": [x for x in range(len(game.cards.locations)) if x not in locations],
        "ship_discard": [x for x in range(len(game.cards.ships)) if x not in ships],
    }


def edge_positions() -> Iterator[tuple[str, DreamCruiseState]]:
    for players in (1, 2, 3, 4):
        yield f"start {players}", make(players).new_state(seed=players)
    game = make(2)
    free = [f for f, x in enumerate(game.cards.families) if x.start is None]
    a, b = starting(game, 0), starting(game, 1)
    # Phase 1: both seats drew families for an empty cabin, one card left in the deck.
    yield "boarding", position(
        game, phase="boarding", turn=0, first_player=1, start_player=1,
        seats=[{"families": [a[0], -1, a[2]], "drawn": [free[4], free[1]], "points_pile": [a[1]]},
               {"families": [b[0], b[1], -1], "drawn": [free[3], free[0]], "points_pile": [b[2]]}],
        family_deck=[free[2]], family_box=[], **_discard_all_but(game, free[:5], [], []))
    # Phase 2: three location cards drawn each, one left in the deck, none discarded.
    xs = [9, 2, 7, 1, 5, 0, 3]
    yield "course", position(game, phase="set_course", turn=0, seats=[{"drawn": xs[:3]}, {"drawn": xs[3:6]}],
                             family_deck=[], family_box=[], location_deck=xs[6:], ship_deck=[4],
                             **_discard_all_but(game, [], xs, [4]))
    # Phase 3: the face-down set untaken, two ship cards left in the deck, both hands held.
    yield "draft", position(game, phase="entertainment", turn=0,
                            seats=[{"hand": [7, 8]}, {"hand": [9, 10, 11], "known": [10]}],
                            display=[{"cards": [3, 1]}, {"cards": [4, 5]}, {"cards": [0]}, {"cards": []}],
                            family_deck=[], family_box=[], location_deck=[], ship_deck=[6, 2],
                            **_discard_all_but(game, [], [], list(range(12))))
    # Phase 4 with an empty ship deck: only the other hand is unseen.
    yield "no ship deck", position(game, seats=[{"hand": [0, 1]}, {"hand": [2, 3, 4], "known": [2, 4]}],
                                   ship_deck=[], **_discard_all_but(game, [], [], list(range(5))))
    # The last decision of the game: the final round's last Done, then the end (C8).
    last = end_of_round(game, final_round=True, family_deck=[], family_box=free[:3],
                        seats=[{"hand": [5, 6]}, {"hand": [7]}],
                        **_discard_all_but(game, free[:3], [0, 1], [5, 6, 7, 8]))
    yield "last decision", last.clone()
    last.apply(Done())
    assert last.is_over
    yield "over", last
    # Solo: Jana's face-down pile until the end (C23).
    solo = make(1, difficulty=2)
    yield "solo", position(solo, jana_pile=[free[0], free[5]], family_deck=[free[1], free[4], free[2]],
                           family_box=[free[3]], **_discard_all_but(solo, free[:6], [], []))


EDGES = list(edge_positions())


@pytest.mark.parametrize(("name", "state"), EDGES, ids=[name for name, _ in EDGES])
def test_equal_views_resample_alike_in_edge_positions(name: str, state: DreamCruiseState) -> None:
    check(state, random.Random(name))


def test_the_own_drawn_cards_are_sorted_and_without_recall_nobody_is_known() -> None:
    _, state = next((n, s) for n, s in EDGES if n == "boarding")
    d = data_of(state)
    for seat in (0, 1):
        for recall in (False, True):
            other = data_of(state.resample(seat, 8, recall=recall))
            assert other["seats"][seat]["drawn"] == sorted(d["seats"][seat]["drawn"])
    _, state = next((n, s) for n, s in EDGES if n == "no ship deck")
    for seat in (0, 1):
        assert all(s["known"] == [] for s in data_of(state.resample(seat, 8))["seats"])
        assert data_of(state.resample(seat, 8, recall=True))["seats"][1]["known"] == [2, 4]


def test_C23_the_end_of_a_solo_game_resamples_from_the_view() -> None:
    # Jana's pile swaps a card with one of equal points among the unseen families: her
    # score stays, but the view lists her turned-up pile (C23), so the two views differ;
    # equal views would need equal resamples. Before the game ends the pile stays hidden.
    game = make(1, difficulty=3)
    state = game.new_state(seed=4)
    rnd = random.Random(4)
    while not state.is_over:
        state.apply(rnd.choice(state.legal_actions()))
    d = data_of(state)
    points = [f.points for f in game.cards.families]
    i, x, key, j = next((i, x, key, j) for i, x in enumerate(d["jana_pile"]) for key in ("family_box", "family_deck")
                        for j, y in enumerate(d[key]) if points[y] == points[x])
    d[key][j], d["jana_pile"][i] = x, d[key][j]
    other = load_free(game, d)
    assert other.view(0) != state.view(0) or other.resample(0, 5).to_json() == state.resample(0, 5).to_json()
    jana = state.view(0).jana
    assert jana is not None and jana.pile == data_of(state)["jana_pile"]
    other_jana = other.view(0).jana
    assert other_jana is not None and other_jana.pile == d["jana_pile"] != jana.pile
    assert data_of(state.resample(0, 5))["jana_pile"] == data_of(state)["jana_pile"]
    early = game.new_state(seed=4).view(0).jana
    assert early is not None and early.pile is None
