"""Dream Cruise: views and resampling, built by the core.

The view is compared with a reference made here from the full snapshot, over many random
positions of every configuration: it shows every board and play area, the points piles,
the face-up display and the discard piles (C22), a seat's own hand and drawn cards, and of
the rest only counts: other hands, others' drawn cards, the face-down set, the decks and
the box, Jana's face-down pile (C23; her score once the game is over). A resample keeps
the seat's view (with ``recall`` also the cards every seat took face up), deals the unseen
cards anew in their zones, uniformly among the deals consistent with the view (chi-square
tests on small hand-built positions), and gives a state that loads and plays on.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.dream_cruise import (
    CurrentLocation,
    DisplaySet,
    DreamCruiseGame,
    DreamCruiseState,
    DreamCruiseView,
    JanaView,
    SeatView,
)
from tests.dream_cruise.helpers import make, position, starting

CONFIGS: list[dict[str, Any]] = [
    {"players": 1},
    {"players": 2},
    {"players": 3, "sea_ship_draw": True},
    {"players": 4, "additions": 4},
    {"players": 1, "difficulty": 2, "sea_ship_draw": True},
]
PHASES = ("boarding", "set_course", "entertainment", "set_sail", "over")


def all_positions(
    per_game: int = 14, games: int = 2, seed: int = 0
) -> Iterator[tuple[DreamCruiseGame, DreamCruiseState]]:
    """Positions of seeded random games of every configuration, the last of each among them."""
    for options in CONFIGS:
        game = cruiselib.make("dream_cruise", **options)
        assert isinstance(game, DreamCruiseGame)
        for g in range(games):
            state = game.new_state(seed=seed * 100 + g)
            rnd = random.Random(seed * 100 + g)
            step = 0
            while not state.is_over:
                if step % per_game == 0:
                    yield game, state.clone()
                state.apply(rnd.choice(state.legal_actions()))
                step += 1
            yield game, state


POSITIONS = list(all_positions())


def route(game: DreamCruiseGame, length: int) -> int:
    """C1: the points of a route of ``length`` cards (none for fewer than 2)."""
    return 0 if length < 2 else game.route_points[min(length, 5) - 2]


def jana_route(game: DreamCruiseGame, locations: list[int]) -> int:
    """C9: Jana's longest route only, her most shore cards of one region, a sea card joining it."""
    cards = game.cards.locations
    per_region = Counter(cards[x].region for x in locations if cards[x].kind == "shore")
    longest = max(per_region.values(), default=0)
    if longest and any(cards[x].kind == "sea" for x in locations):
        longest += 1
    return route(game, longest)


def colours(cabins: list[int]) -> list[int]:
    return sorted(cabins)


def reference_view(state: DreamCruiseState, player: int, recall: bool = False) -> DreamCruiseView:
    """The view as the rules say it, made from the full snapshot (the oracle)."""
    game = state.game
    d = state.to_data()
    scores = state.scores()
    seats = []
    for q, s in enumerate(d.seats):
        location = None
        if s.location >= 0:
            location = CurrentLocation(
                card=s.location,
                activity_cards=list(s.activity_cards),
                guests=[colours(g) for g in s.location_guests],
                captain=s.captain,
            )
        seats.append(
            SeatView(
                seat=q,
                families=list(s.families),
                figures_left=list(s.figures_left),
                additions=list(s.additions),
                addition_guests=[colours(g) for g in s.addition_guests],
                location=location,
                played=list(s.played),
                points_pile=list(s.points_pile),
                hand_size=len(s.hand),
                drawn_size=len(s.drawn),
                route_points=state.route_points(q),
                score=scores[q],
            )
        )
    display = [
        DisplaySet(face_down=k == 0, cards=[] if k == 0 else list(st.cards), size=len(st.cards), taken_by=st.taken_by)
        for k, st in enumerate(d.display)
    ]
    jana = None
    if game.num_players == 1:
        pile_points = sum(game.cards.families[f].points for f in d.jana_pile)
        jroute = jana_route(game, list(d.jana_locations))
        jana = JanaView(
            pile_size=len(d.jana_pile),
            locations=list(d.jana_locations),
            route_points=jroute,
            score=pile_points + jroute if d.phase == "over" else None,
            pile=list(d.jana_pile) if d.phase == "over" else None,
        )
    return DreamCruiseView(
        player=player,
        players=game.num_players,
        phase=d.phase,
        current_player=d.current_player,
        round=d.round,
        final_round=d.final_round,
        start_player=d.start_player,
        first_player=d.first_player,
        seats=seats,
        hand=list(d.seats[player].hand),
        drawn=sorted(d.seats[player].drawn),
        display=display,
        family_deck=len(d.family_deck),
        family_box=len(d.family_box),
        location_deck=len(d.location_deck),
        ship_deck=len(d.ship_deck),
        family_discard=list(d.family_discard),
        location_discard=list(d.location_discard),
        ship_discard=list(d.ship_discard),
        jana=jana,
        legal_actions=state.legal_actions() if d.current_player == player else [],
        recall=[list(s.known) for s in d.seats] if recall else None,
    )


# --------------------------------------------------------------------------- views


def test_the_view_is_the_reference_view_for_every_seat_of_many_positions() -> None:
    phases: Counter[str] = Counter()
    for g, state in POSITIONS:
        phases[state.phase] += 1
        for p in range(g.num_players):
            view = state.view(p)
            assert view == reference_view(state, p)
            assert view.recall is None
            assert state.view(p, recall=True) == reference_view(state, p, recall=True)
            assert msgspec.json.decode(msgspec.json.encode(view), type=DreamCruiseView) == view
    assert min(phases[ph] for ph in PHASES) >= 5  # every phase is among them


def test_C23_jana_scores_only_once_the_game_is_over() -> None:
    solo = [(g, s) for g, s in POSITIONS if g.num_players == 1]
    for _, state in solo:
        jana = state.view(0).jana
        assert jana is not None
        assert (jana.score is None) == (not state.is_over) == (jana.pile is None)
        if state.is_over:
            assert jana.score == state.jana_score()
            assert jana.pile == list(state.to_data().jana_pile)
    assert all(s.view(0).jana is None for g, s in POSITIONS if g.num_players > 1)


def _hidden_cards(state: DreamCruiseState, seat: int) -> Counter[str]:
    """Per zone, the multiset of cards ``seat`` cannot see (the zones a resample deals)."""
    d = state.to_data()
    hidden: Counter[str] = Counter()

    def put(kind: str, cards: Any) -> None:
        for x in cards:
            hidden[f"{kind}:{x}"] += 1

    put("family", d.family_deck)
    put("family", d.family_box)
    if d.phase != "over":
        put("family", d.jana_pile)
    put("location", d.location_deck)
    put("ship", d.ship_deck)
    if d.phase == "entertainment" and d.display[0].taken_by < 0:
        put("ship", d.display[0].cards)
    for q, s in enumerate(d.seats):
        if q != seat:
            put("ship", s.hand)
            put("family" if d.phase == "boarding" else "location", s.drawn)
    return hidden


def test_what_the_view_hides_does_not_change_it() -> None:
    # The unseen cards of a seat, shuffled among their zones by hand (not by resample): the
    # view stays equal. Then a public change (a discard pile) changes it.
    rnd = random.Random(2)
    checked = 0
    for g, state in POSITIONS[::3]:
        for p in range(g.num_players):
            data = msgspec.to_builtins(state.to_data())
            others = [q for q in range(g.num_players) if q != p]
            swapped = False
            for q in others:
                seat = data["seats"][q]
                if seat["hand"] and data["ship_deck"]:
                    i = rnd.randrange(len(seat["hand"]))
                    x = seat["hand"][i]
                    seat["hand"][i] = data["ship_deck"].pop()
                    data["ship_deck"].append(x)
                    seat["hand"].sort()
                    seat["known"] = [y for y in seat["known"] if y != x]
                    swapped = True
            rnd.shuffle(data["family_deck"])
            rnd.shuffle(data["location_deck"])
            rnd.shuffle(data["ship_deck"])
            if not swapped:
                continue
            try:
                other = g.load_state(msgspec.json.encode(data))
            except cruiselib.InvalidStateError:  # a hand cannot be a set play never deals
                continue
            assert other.view(p) == state.view(p)
            checked += 1
    assert checked > 20


def test_the_own_hand_drawn_cards_and_the_display_are_seen() -> None:
    for g, state in POSITIONS:
        d = state.to_data()
        for p in range(g.num_players):
            view = state.view(p)
            assert view.hand == list(d.seats[p].hand)
            assert sorted(view.drawn) == sorted(d.seats[p].drawn)
            for q, seat in enumerate(view.seats):
                assert seat.hand_size == len(d.seats[q].hand) and seat.drawn_size == len(d.seats[q].drawn)
            if d.phase == "entertainment":
                assert view.display[0].cards == [] and view.display[0].size == len(d.display[0].cards)
                assert [s.cards for s in view.display[1:]] == [st.cards for st in d.display[1:]]


@pytest.mark.parametrize("seat", [-1, 2, 4, 1.0, True, "0", None])
def test_view_checks_the_seat(seat: Any) -> None:
    state = make(2).new_state(seed=1)
    with pytest.raises(cruiselib.InvalidOptionError, match=r"seat"):
        state.view(seat)
    with pytest.raises(cruiselib.InvalidOptionError, match=r"seat"):
        state.view(seat, recall=True)


def test_view_takes_recall_as_a_keyword_only() -> None:
    state = make(2).new_state(seed=1)
    with pytest.raises(TypeError):
        state.view(0, True)  # type: ignore[call-arg]


def test_the_recall_view_lists_the_cards_taken_face_up() -> None:
    # Phase 3: a face-up set taken is known to all (recall); the face-down set is not (C7).
    game = make(3)
    for seed in range(20):
        state = game.new_state(seed=seed)
        while state.phase != "entertainment":
            state.apply(state.legal_actions()[0])
        taker = state.current_player
        before = state.view(0, recall=True).recall
        assert before is not None
        legal = state.legal_actions()
        face_up = next(a for a in legal if game.action_to_move(a).set > 0)  # type: ignore[union-attr]
        cards = state.view(0).display[game.action_to_move(face_up).set].cards  # type: ignore[union-attr]
        state.apply(face_up)
        after = state.view((taker + 1) % 3, recall=True).recall
        assert after is not None
        assert sorted(after[taker]) == sorted({*before[taker], *cards})
        assert state.view(0).recall is None
        return
    raise AssertionError("no draft found")


# --------------------------------------------------------------------------- resample


def _public(state: DreamCruiseState) -> dict[str, Any]:
    """The snapshot without the zones a resample may deal anew and the generator."""
    d: dict[str, Any] = msgspec.to_builtins(state.to_data())
    for key in ("rng", "family_deck", "family_box", "location_deck", "ship_deck", "jana_pile", "display"):
        d.pop(key)
    for s in d["seats"]:
        for key in ("hand", "known", "drawn"):
            s.pop(key)
    d.pop("deal", None)
    d.pop("history", None)
    return d


@pytest.mark.parametrize("recall", [False, True])
def test_a_resample_keeps_the_view_and_the_unseen_cards_and_deals_them_anew(recall: bool) -> None:
    rnd = random.Random(7)
    for g, state in POSITIONS:
        before = state.to_json()
        for p in range(g.num_players):
            seed = rnd.randrange(2**32)
            other = state.resample(p, seed, recall=recall)
            assert state.to_json() == before  # the original is unchanged
            assert other.view(p) == state.view(p)
            if recall:
                assert other.view(p, recall=True) == state.view(p, recall=True)
            assert _hidden_cards(other, p) == _hidden_cards(state, p)
            assert _public(other) == _public(state)
            od, sd = other.to_data(), state.to_data()
            # The seat's own cards stay, its drawn cards in id order (resample depends on the view alone).
            assert od.seats[p].hand == sd.seats[p].hand and od.seats[p].drawn == sorted(sd.seats[p].drawn)
            for q in range(g.num_players):  # every zone keeps its size
                assert len(od.seats[q].hand) == len(sd.seats[q].hand)
                assert len(od.seats[q].drawn) == len(sd.seats[q].drawn)
            if state.current_player == p:
                assert other.legal_actions() == state.legal_actions()
            assert state.resample(p, seed, recall=recall) == other  # the same seed, the same deal
            assert g.load_state(other.to_json()) == other


def test_recall_keeps_the_cards_taken_face_up_and_without_it_nobody_is_known() -> None:
    kept = 0
    for g, state in POSITIONS:
        d = state.to_data()
        for p in range(g.num_players):
            for seed in range(3):
                with_recall = state.resample(p, seed, recall=True).to_data()
                plain = state.resample(p, seed).to_data()
                for q in range(g.num_players):
                    known = d.seats[q].known
                    assert with_recall.seats[q].known == known
                    assert set(known) <= set(with_recall.seats[q].hand)
                    assert plain.seats[q].known == []  # nobody's, the seat's own too (the view alone)
                    kept += len(known) if q != p else 0
    assert kept > 50


def test_a_resample_varies_with_the_seed() -> None:
    for g, state in POSITIONS[::5]:
        for p in range(g.num_players):
            for recall in (False, True):
                deals = {state.resample(p, seed, recall=recall).to_json() for seed in range(8)}
                assert len(deals) > 1  # the family deck (or box) is always unseen


def test_C23_jana_s_pile_is_dealt_until_the_end_and_kept_after() -> None:
    game = make(1, difficulty=3)
    state = game.new_state(seed=4)
    pile = state.to_data().jana_pile
    assert len(pile) == 3
    piles = {tuple(state.resample(0, seed).to_data().jana_pile) for seed in range(30)}
    assert len(piles) > 20
    rnd = random.Random(4)
    while not state.is_over:
        state.apply(rnd.choice(state.legal_actions()))
    final = state.to_data().jana_pile
    assert all(state.resample(0, seed).to_data().jana_pile == final for seed in range(10))


@pytest.mark.parametrize("recall", [False, True])
def test_a_resampled_state_plays_on_to_the_end_and_reloads(recall: bool) -> None:
    rnd = random.Random(3)
    for g, state in POSITIONS[::6]:
        for p in range(g.num_players):
            other = state.resample(p, rnd.randrange(2**32), recall=recall)
            steps = 0
            while not other.is_over:
                other.apply(rnd.choice(other.legal_actions()))
                steps += 1
                if steps % 9 == 0:
                    assert g.load_state(other.to_json()) == other
            assert g.load_state(other.to_json()) == other


def test_the_pure_twin_resamples_alike() -> None:
    if not cruiselib.compiled:
        pytest.skip("compares the compiled core with its pure twin")
    for g, state in POSITIONS[::4]:
        copy = g.pure_twin().load_state(state.to_json())
        for p in range(g.num_players):
            for recall in (False, True):
                assert copy.resample(p, 5, recall=recall).to_json() == state.resample(p, 5, recall=recall).to_json()
                assert copy.view(p, recall=recall) == state.view(p, recall=recall)


# --------------------------------------------------------------------------- uniformity


def assert_uniform(
    state: DreamCruiseState, seat: int, deal: Any, expected: int, per_deal: int, recall: bool = False
) -> None:
    """Resample with fixed seeds: exactly ``expected`` deals (as ``deal`` reads them off a
    state) come up, and the counts pass a chi-square test with a bound far in the tail
    (about six standard deviations above the statistic's mean): deterministic, and a
    sampler that favours any deal by a few tens of percent fails it."""
    draws = per_deal * expected
    counts = Counter(deal(state.resample(seat, seed, recall=recall).to_data()) for seed in range(draws))
    assert len(counts) == expected, sorted(counts)
    chi2 = sum((c - per_deal) ** 2 / per_deal for c in counts.values())
    df = expected - 1
    assert chi2 < df + 6 * math.sqrt(2 * df) + 10, (chi2, df)


def _few_cards(game: DreamCruiseGame, keep_ships: list[int], keep_families: list[int],
               keep_locations: list[int]) -> dict[str, Any]:
    """Every card not named goes to its (public) discard pile."""
    nonstart = [f for f, fam in enumerate(game.cards.families) if fam.start is None]
    return {
        "family_discard": [f for f in nonstart if f not in keep_families],
        "location_discard": [x for x in range(len(game.cards.locations)) if x not in keep_locations],
        "ship_discard": [x for x in range(len(game.cards.ships)) if x not in keep_ships],
    }


def test_the_other_hand_and_the_ship_deck_are_dealt_uniformly() -> None:
    # Phase 4, seat 1 holds ship cards 0 and 1, the deck is 2 and 3: seat 0 sees 4 unseen
    # cards, any 2 of them in seat 1's hand (6) and the other 2 in the deck in either order.
    game = make(2)
    state = position(game, seats=[{}, {"hand": [0, 1]}], family_deck=[], family_box=[], location_deck=[],
                     ship_deck=[2, 3], **_few_cards(game, [0, 1, 2, 3], [], []))
    assert_uniform(state, 0, lambda d: (tuple(d.seats[1].hand), tuple(d.ship_deck)), 12, per_deal=60)


def test_with_recall_a_card_taken_face_up_stays_and_the_rest_is_uniform() -> None:
    # Seat 1 took card 0 face up (known to all): with recall it stays in seat 1's hand, and
    # 1, 2 (hand) and 3, 4 (deck) are dealt: 2 of 4 for the hand (6) x 2 deck orders. Without
    # recall card 0 is dealt too: 3 of 5 (10) x 2.
    game = make(2)
    discards = _few_cards(game, [0, 1, 2, 3, 4], [], [])
    state = position(game, seats=[{}, {"hand": [0, 1, 2], "known": [0]}], family_deck=[], family_box=[],
                     location_deck=[], ship_deck=[3, 4], **discards)
    assert_uniform(state, 0, lambda d: (tuple(d.seats[1].hand), tuple(d.ship_deck)), 12, per_deal=60, recall=True)
    assert_uniform(state, 0, lambda d: (tuple(d.seats[1].hand), tuple(d.ship_deck)), 20, per_deal=50)


def test_others_drawn_families_and_the_family_deck_are_dealt_uniformly() -> None:
    # Phase 1: seat 1 drew two families for its empty cabin; the deck holds two more. Seat 0
    # sees neither: the 4 cards in any order over deck and drawn cards (4! = 24).
    game = make(2)
    b = starting(game, 1)
    f = [f for f, x in enumerate(game.cards.families) if x.start is None][:4]
    discards = _few_cards(game, [], f, [])
    state = position(game, phase="boarding", turn=0, first_player=1, start_player=1,
                     seats=[{}, {"families": [b[0], b[1], -1], "drawn": f[:2], "points_pile": [b[2]]}],
                     family_deck=f[2:], family_box=[], location_deck=[], ship_deck=[], **discards)
    assert state.current_player == 1
    assert_uniform(state, 0, lambda d: (tuple(d.seats[1].drawn), tuple(d.family_deck)), 24, per_deal=40)
    # Seat 1 itself sees its drawn cards: only the deck's order is unseen.
    assert_uniform(state, 1, lambda d: (tuple(d.seats[1].drawn), tuple(d.family_deck)), 2, per_deal=200)


def test_others_drawn_locations_and_the_location_deck_are_dealt_uniformly() -> None:
    # Phase 2: seat 1 drew three location cards, the deck holds one: 4! deals for seat 0.
    game = make(2)
    xs = [0, 1, 2, 3]
    state = position(game, phase="set_course", turn=1, seats=[{}, {"drawn": xs[:3]}],
                     family_deck=[], family_box=[], location_deck=xs[3:], ship_deck=[],
                     **_few_cards(game, [], [], xs))
    assert state.current_player == 1
    assert_uniform(state, 0, lambda d: (tuple(d.seats[1].drawn), tuple(d.location_deck)), 24, per_deal=40)


def test_the_face_down_set_is_dealt_uniformly_with_the_deck() -> None:
    # Phase 3: the face-down set holds 0 and 1, the deck 2 and 3, set 1 (face up) 4 and 5:
    # the four unseen cards in any order over set 0 (as a list) and the deck (4! = 24).
    game = make(2)
    state = position(game, phase="entertainment", turn=0, seats=[{}, {}],
                     display=[{"cards": [0, 1]}, {"cards": [4, 5]}, {"cards": []}, {"cards": []}],
                     family_deck=[], family_box=[], location_deck=[], ship_deck=[2, 3],
                     **_few_cards(game, [0, 1, 2, 3, 4, 5], [], []))
    assert_uniform(state, 1, lambda d: (tuple(d.display[0].cards), tuple(d.ship_deck)), 24, per_deal=40)
    assert all(state.resample(1, s).to_data().display[1].cards == [4, 5] for s in range(20))


def test_C23_jana_s_pile_is_dealt_uniformly_with_the_family_deck() -> None:
    # Solo: Jana's face-down pile of 2 and the deck of 2: 4! orders.
    game = make(1)
    f = [f for f, x in enumerate(game.cards.families) if x.start is None][:4]
    state = position(game, seats=[{}], jana_pile=f[:2], family_deck=f[2:], family_box=[], location_deck=[],
                     ship_deck=[], **_few_cards(game, [], f, []))
    assert_uniform(state, 0, lambda d: (tuple(d.jana_pile), tuple(d.family_deck)), 24, per_deal=40)
