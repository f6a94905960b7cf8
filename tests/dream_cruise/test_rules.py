"""Dream Cruise rules by name: setup, phases 1-3, phase 5, the game end, scoring and the solo
game; rulings C1-C4, C7-C11, C13-C16 and C19-C23, and the rulebook's boarding and route
examples. Phase 4 and its examples are in ``test_sail.py``."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from cruiselib import InvalidOptionError
from cruiselib.dream_cruise import Board, Done, DreamCruiseGame, DreamCruiseState, Keep, Place, SetData, Take
from tests.dream_cruise.helpers import fam, loc, make, position, ship, starting
from tests.dream_cruise.positions import (
    advance,
    cabins,
    end_of_round,
    finish_sail,
    free_cards,
    illegal,
    moves_of,
    raw,
)

EAST_MED = [loc(n) for n in ("Piraeus", "Katakolon", "Mykonos", "Istanbul", "Kusadasi", "Santorini")]
WEST_MED = [loc(n) for n in ("Barcelona", "Livorno", "Palma de Mallorca", "Naples", "Ajaccio", "Ibiza")]
NORTH_SEA = [loc(n) for n in ("Amsterdam", "Invergordon", "Skagen", "Dublin", "Bergen", "Zeebrugge")]
SEAS = [loc(n) for n in ("Open Sea: Aegean Sea", "Open Sea: Ionian Sea", "Open Sea: Adriatic Sea")]


# ---------------------------------------------------------------------------- setup


@pytest.mark.parametrize(("players", "deck", "box"), [(2, 24, 24), (3, 36, 12), (4, 48, 0)])
def test_setup_family_deck_by_player_count(players: int, deck: int, box: int) -> None:
    """Setup 5: 2 players return 24 family cards to the box, 3 players 12, 4 players none."""
    data = make(players).new_state(seed=3).to_data()
    assert len(data.family_deck) == deck
    assert len(data.family_box) == box
    cards = make(players).cards
    assert all(cards.families[f].start is None for f in [*data.family_deck, *data.family_box])


@pytest.mark.parametrize("difficulty", [0, 1, 2, 3])
def test_C9_solo_deck_of_18_and_jana_extra_families_from_outside_it(difficulty: int) -> None:
    """Solo: 18 family cards in the deck; Jana starts with ``difficulty`` families drawn from
    the cards left out of the 18 (C9)."""
    data = make(1, difficulty=difficulty).new_state(seed=7).to_data()
    assert len(data.family_deck) == 18
    assert len(data.jana_pile) == difficulty
    assert not set(data.jana_pile) & set(data.family_deck)
    assert len(data.family_box) == 48 - 18 - difficulty
    assert data.seats[0].points_pile == []


def test_C9_difficulty_is_a_solo_option() -> None:
    """The difficulty (C9) belongs to the solo game only."""
    with pytest.raises(InvalidOptionError, match="solo"):
        make(2, difficulty=1)
    with pytest.raises(InvalidOptionError):
        make(1, difficulty=4)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_C21_starting_families_by_letter(players: int) -> None:
    """Seat k takes the three starting families of letter A + k, in list order (C21); the
    starting families of absent letters are out of the game."""
    g = make(players)
    data = g.new_state(seed=1).to_data()
    for p in range(players):
        assert data.seats[p].families == starting(g, p)
    out = [f for f in range(12) if (g.cards.families[f].start or "") not in "ABCD"[:players]]
    everywhere = {*data.family_deck, *data.family_box, *data.jana_pile}
    assert len(out) == 12 - 3 * players
    assert not set(out) & everywhere


def test_setup_three_figures_per_cabin_captain_on_the_bridge() -> None:
    """Setup 7-9: three figures on each starting family card, the captain on the bridge, no
    additions, no hand cards, no location card yet."""
    data = make(3).new_state(seed=2).to_data()
    for s in data.seats:
        assert s.figures_left == [3, 3, 3]
        assert s.captain == -1
        assert s.additions == [-1, -1]
        assert s.hand == []
        assert s.played == []
        assert s.location == -1


@pytest.mark.parametrize("players", [1, 2, 4])
def test_C15_round_one_has_no_boarding(players: int) -> None:
    """Round 1 skips phase 1 for everyone, Jana included (C15): the game opens in phase 2,
    the family deck untouched."""
    g = make(players)
    state = g.new_state(seed=5)
    assert state.phase == "set_course"
    r = raw(state)
    assert r["round"] == 1
    assert len(r["family_deck"]) == g.rules.deck_size
    assert r["jana_pile"] == []
    assert all(len(d) == 3 for d in r["drawn"])  # phase 2 has drawn already (C14)


def test_setup_start_player_given_or_drawn_by_the_deal() -> None:
    """Setup 4: the start player is given, or drawn by the deal (the seed)."""
    g = make(4)
    for p in range(4):
        state = g.new_state(seed=1, start_player=p)
        r = raw(state)
        assert (r["start"], r["first"], state.current_player) == (p, p, p)
    drawn = {raw(g.new_state(seed=s))["start"] for s in range(40)}
    assert drawn == {0, 1, 2, 3}
    assert raw(g.new_state(seed=9))["start"] == raw(g.new_state(seed=9))["start"]


def test_C9_solo_player_is_seat_zero() -> None:
    """The solo game has one seat, which holds the start-player token."""
    g = make(1)
    assert raw(g.new_state(seed=3))["start"] == 0
    with pytest.raises(InvalidOptionError):
        g.new_state(seed=3, start_player=1)


def test_C10_starting_families_have_three_members_and_three_points() -> None:
    """C10 (published): the 12 starting families, three per letter, 3 members, 3 points."""
    cards = make(4).cards
    start = [f for f in cards.families if f.start is not None]
    assert len(start) == 12
    assert sorted(f.start or "" for f in start) == sorted("ABCD" * 3)
    assert all((f.members, f.points) == (3, 3) for f in start)


# ---------------------------------------------------------------------------- phase 1


@pytest.mark.parametrize("empty", [1, 2, 3])
def test_phase1_two_draws_per_empty_cabin(empty: int) -> None:
    """Phase 1: a seat draws two family cards per empty cabin; a seat with none draws none."""
    g = make(2)
    state = end_of_round(g, seats=[{"figures_left": [0] * empty + [3] * (3 - empty)}, {}])
    state.apply(Done())
    r = raw(state)
    assert state.phase == "boarding"
    assert r["round"] == 3
    assert len(r["drawn"][0]) == 2 * empty
    assert r["drawn"][1] == []


def test_C14_boarding_draws_in_turn_order_then_decides_in_turn_order() -> None:
    """C14: every seat draws, in turn order from the start player, then each decides in the
    same order. Start player 1 draws the top two cards and boards first."""
    g = make(2)
    a, b, c, d = fam("Jung"), fam("Ertel"), fam("Wolf"), fam("Koch")
    state = end_of_round(g, seats=[{"figures_left": [0, 3, 3]}, {"figures_left": [3, 0, 3]}],
                         first_player=1, family_top=[a, b, c, d])
    state.apply(Done())
    r = raw(state)
    assert sorted(r["drawn"][1]) == sorted([a, b])
    assert sorted(r["drawn"][0]) == sorted([c, d])
    assert state.current_player == 1
    state.apply(Board(a))
    assert state.current_player == 0
    assert raw(state)["cabins"][1] == [starting(g, 1)[0], a, starting(g, 1)[2]]


def test_C14_C8_family_deck_refilled_mid_draw_without_the_undecided_cards() -> None:
    """C14: when the deck runs out while seats draw, the refilled deck is the discard pile
    only (the cards drawn but not yet decided are not in it), and that round is the last (C8)."""
    g = make(2)
    seats = [{"figures_left": [0, 3, 3]}, {"figures_left": [0, 3, 3]}]
    rest = free_cards(g, "family", seats=seats)
    deck, discard, box = rest[:3], rest[3:5], rest[5:]
    state = end_of_round(g, seats=seats, family_deck=deck, family_discard=discard, family_box=box)
    state.apply(Done())
    r = raw(state)
    assert sorted(r["drawn"][0]) == sorted(deck[1:])  # the top two (decks list bottom first)
    assert deck[0] in r["drawn"][1]
    assert len(r["drawn"][1]) == 2
    assert r["drawn"][1][1] in discard
    assert r["final"]
    assert r["family_discard"] == []
    assert len(r["family_deck"]) == 1


def test_C17_boarding_fills_the_first_empty_cabin() -> None:
    """C17: a boarded family goes into the first empty cabin in the order inner, oceanview,
    balcony; the move names only the family."""
    g = make(2)
    a, b, c, d = fam("Jung"), fam("Ertel"), fam("Wolf"), fam("Koch")
    state = end_of_round(g, seats=[{"figures_left": [0, 3, 0]}, {}], family_top=[a, b, c, d])
    state.apply(Done())
    state.apply(Board(c))
    assert raw(state)["cabins"][0] == [c, starting(g, 0)[1], -1]
    state.apply(Board(a))
    assert raw(state)["cabins"][0] == [c, starting(g, 0)[1], a]


def test_phase1_figures_equal_members() -> None:
    """Phase 1: a boarded family gets as many figures as it has members."""
    g = make(2)
    wolf, koch = fam("Wolf"), fam("Koch")
    state = end_of_round(g, seats=[{"figures_left": [3, 3, 0]}, {}], family_top=[wolf, koch])
    state.apply(Done())
    state.apply(Board(wolf))
    assert raw(state)["left"][0] == [3, 3, g.cards.families[wolf].members]
    assert g.cards.families[wolf].members == 6


def test_C22_boarding_rest_discarded_face_up() -> None:
    """Phase 1: the families not boarded go to the discard pile, which is public (C22)."""
    g = make(2)
    a, b, c, d = fam("Jung"), fam("Ertel"), fam("Wolf"), fam("Koch")
    state = end_of_round(g, seats=[{"figures_left": [0, 0, 3]}, {}], family_top=[a, b, c, d])
    state.apply(Done())
    state.apply(Board(b))
    assert raw(state)["family_discard"] == []  # not before the seat has decided
    state.apply(Board(d))
    assert sorted(raw(state)["family_discard"]) == sorted([a, c])
    assert sorted(state.view(1).family_discard) == sorted([a, c])
    assert state.phase == "set_course"


def test_phase1_boarding_example_jung_and_ertel() -> None:
    """The rulebook's boarding example: round 3 starts with the oceanview and balcony cabins
    empty, the seat draws 4 family cards, boards Jung and Ertel, discards the other two."""
    g = make(2)
    jung, ertel, x, y = fam("Jung"), fam("Ertel"), fam("Becker"), fam("Wolf")
    state = end_of_round(g, seats=[{"figures_left": [2, 0, 0]}, {}], family_top=[x, jung, y, ertel])
    state.apply(Done())
    r = raw(state)
    assert (state.phase, r["round"]) == ("boarding", 3)
    assert sorted(m.family for m in moves_of(state, Board)) == sorted([jung, ertel, x, y])
    state.apply(Board(jung))
    state.apply(Board(ertel))
    r = raw(state)
    assert r["cabins"][0] == [starting(g, 0)[0], jung, ertel]  # oceanview Jung, balcony Ertel
    assert r["left"][0] == [2, 3, 4]
    assert sorted(r["family_discard"]) == sorted([x, y])
    assert sorted(r["pile"][0]) == sorted(starting(g, 0)[1:])


def test_phase1_only_a_drawn_family_boards() -> None:
    """Phase 1: the seat chooses among the cards it drew."""
    g = make(2)
    state = end_of_round(g, seats=[{"figures_left": [0, 3, 3]}, {}], family_top=[fam("Jung"), fam("Ertel")])
    state.apply(Done())
    assert "not among the cards this player drew" in illegal(state, Board(fam("Wolf")))
    assert "not the time" in illegal(state, Keep(loc("Invergordon")))


def test_C3_boarding_view_hides_what_others_drew() -> None:
    """C3: a view shows the seat its own drawn cards and only the count of the others'."""
    g = make(2)
    state = end_of_round(g, seats=[{"figures_left": [0, 3, 3]}, {"figures_left": [0, 0, 3]}],
                         family_top=[fam("Jung"), fam("Ertel"), fam("Wolf"), fam("Koch"), fam("Becker"), fam("Smith")])
    state.apply(Done())
    v1 = state.view(1)
    assert v1.drawn == sorted(raw(state)["drawn"][1])
    assert [s.drawn_size for s in v1.seats] == [2, 4]
    assert v1.legal_actions == []
    v0 = state.view(0)
    assert v0.drawn == sorted([fam("Jung"), fam("Ertel")])
    assert sorted(v0.legal_actions) == sorted(fam(n) for n in ("Jung", "Ertel"))


# ---------------------------------------------------------------------------- phase 2


def test_phase2_draw_three_keep_one_discard_two() -> None:
    """Phase 2: each seat draws 3 location cards, keeps 1 face up in its play area and
    discards the other 2 (face up, C22)."""
    g = make(2)
    a, b, c = loc("Invergordon"), loc("Bergen"), SEAS[0]
    state = end_of_round(g, location_top=[a, b, c])
    state.apply(Done())
    assert state.phase == "set_course"
    assert sorted(m.location for m in moves_of(state, Keep)) == sorted([a, b, c])
    state.apply(Keep(b))
    r = raw(state)
    assert r["location"][0] == b
    assert r["played"][0] == [b]
    assert sorted(r["location_discard"]) == sorted([a, c])
    assert sorted(state.view(1).location_discard) == sorted([a, c])
    assert r["drawn"][0] == []


def test_C14_set_course_draws_in_turn_order() -> None:
    """C14 in phase 2: the start player draws first (the top three), then the next seat."""
    g = make(2)
    top = [EAST_MED[0], EAST_MED[1], EAST_MED[2], WEST_MED[0], WEST_MED[1], WEST_MED[2]]
    state = end_of_round(g, first_player=1, location_top=top)
    state.apply(Done())
    r = raw(state)
    assert sorted(r["drawn"][1]) == sorted(EAST_MED[:3])
    assert sorted(r["drawn"][0]) == sorted(WEST_MED[:3])
    assert state.current_player == 1


def test_phase2_location_deck_refilled_from_its_discard() -> None:
    """Phase 2: an empty location deck is refilled from the shuffled discard pile; that is
    no game end (only the family deck ends the game, C8)."""
    g = make(2)
    rest = free_cards(g, "location")
    state = end_of_round(g, location_deck=rest[:4], location_discard=rest[4:])
    state.apply(Done())
    r = raw(state)
    assert sorted(r["drawn"][0]) == sorted(rest[1:4])
    assert rest[0] in r["drawn"][1]
    assert len(r["drawn"][1]) == 3
    assert not r["final"]
    assert len(r["location_deck"]) == len(rest) - 4 - 2


def test_C9_solo_discarded_location_cards_go_to_jana() -> None:
    """Solo, phase 2: the two location cards the player does not keep go to Jana (C9)."""
    g = make(1)
    a, b, c = loc("Invergordon"), loc("Bergen"), SEAS[0]
    state = end_of_round(g, location_top=[a, b, c], jana_locations=[EAST_MED[0]])
    state.apply(Done())
    state.apply(Keep(c))
    r = raw(state)
    assert sorted(r["jana_locations"]) == sorted([EAST_MED[0], a, b])
    assert r["location_discard"] == []


@pytest.mark.parametrize("option", [False, True])
def test_C2_sea_ship_draw_option(option: bool) -> None:
    """C2 (option, default off): keeping a sea card draws one ship card into the hand (seen
    only by its owner); keeping a shore card draws none."""
    g = make(2, sea_ship_draw=option)
    top_ship = ship("Cooking Class")
    state = end_of_round(g, location_top=[SEAS[0], loc("Bergen"), loc("Dublin"), SEAS[1], SEAS[2], loc("Skagen")],
                         ship_top=[top_ship])
    state.apply(Done())
    state.apply(Keep(SEAS[0]))
    r = raw(state)
    assert r["hands"][0] == ([top_ship] if option else [])
    assert r["known"][0] == []
    state.apply(Keep(loc("Skagen")))
    assert raw(state)["hands"][1] == []
    assert make(2).sea_ship_draw is False


def test_C16_C20_no_location_card_to_draw_keeps_none_and_ends_the_game() -> None:
    """C16: a seat that can draw no location card (deck and discard empty) keeps none and
    has no current location card; C20: that round is the last."""
    g = make(2)
    rest = free_cards(g, "location")
    played = rest[3:]
    half = len(played) // 2
    seats = [{"played": played[:half]}, {"played": played[half:]}]
    state = end_of_round(g, seats=seats, location_deck=rest[:3])
    state.apply(Done())
    r = raw(state)
    assert len(r["drawn"][0]) == 3
    assert r["drawn"][1] == []
    assert r["final"]
    state.apply(Keep(rest[2]))
    assert state.phase == "entertainment"  # seat 1 had nothing to keep
    assert raw(state)["location"][1] == -1
    advance(state, "set_sail")
    assert state.view(1).seats[1].location is None
    advance(state, "over")
    assert state.is_over
    assert raw(state)["round"] == 3


def test_C16_a_seat_that_draws_fewer_keeps_from_what_it_drew() -> None:
    """C16: a deck with its discard pile empty yields what is left: the seat chooses among
    the cards it drew."""
    g = make(2)
    rest = free_cards(g, "location")
    played = rest[4:]
    half = len(played) // 2
    state = end_of_round(g, seats=[{"played": played[:half]}, {"played": played[half:]}], location_deck=rest[:4])
    state.apply(Done())
    assert len(raw(state)["drawn"][1]) == 1
    state.apply(state.legal_actions()[0])
    assert [m.location for m in moves_of(state, Keep)] == [rest[0]]


# ---------------------------------------------------------------------------- phase 3


def draft(g: DreamCruiseGame, first: int = 0, **fields: Any) -> DreamCruiseState:
    """Phase 3 with a full display (set k holds ship cards 2k and 2k + 1), nobody chosen."""
    sets = g.rules.nsets
    return position(g, phase="entertainment", first_player=first, start_player=first,
                    display=[SetData([2 * k, 2 * k + 1]) for k in range(sets)], **fields)


@pytest.mark.parametrize(("players", "face_up"), [(1, 2), (2, 3), (3, 3), (4, 4)])
def test_C7_display_one_face_down_set_and_face_up_sets(players: int, face_up: int) -> None:
    """C7: phase 3 lays out one face-down set of two cards first (from the top of the ship
    deck), then 3 face-up sets (4 with 4 players, 2 solo); the face-down cards stay hidden."""
    g = make(players)
    top = list(range(2 * (1 + face_up)))
    state = end_of_round(g, ship_top=top)
    state.apply(Done())
    advance(state, "entertainment")
    r = raw(state)
    assert r["display"] == [top[2 * k:2 * k + 2] for k in range(1 + face_up)]
    view = state.view(0)
    assert [s.face_down for s in view.display] == [True] + [False] * face_up
    assert view.display[0].cards == []
    assert view.display[0].size == 2
    assert [s.cards for s in view.display[1:]] == [top[2 * k:2 * k + 2] for k in range(1, 1 + face_up)]


def test_C7_start_player_may_not_take_the_face_down_set() -> None:
    """C7: the start player may not choose the face-down set; the next seat may."""
    g = make(3)
    state = draft(g, first=1)
    assert state.current_player == 1
    assert Take(0) not in state.legal_moves()
    assert "(C7)" in illegal(state, Take(0))
    state.apply(Take(2))
    assert Take(0) in state.legal_moves()


def test_C7_solo_player_may_take_the_face_down_set() -> None:
    """C7: in solo the player may take the face-down set (Jana takes nothing)."""
    g = make(1)
    state = draft(g)
    assert [m.set for m in moves_of(state, Take)] == [0, 1, 2]
    state.apply(Take(0))
    assert state.phase == "set_sail"
    assert raw(state)["hands"][0] == [0, 1]
    assert raw(state)["ship_discard"] == [2, 3, 4, 5]


def test_C19_face_down_set_passes_the_token_at_once_order_unchanged() -> None:
    """C19: whoever takes the face-down set holds the start-player token at once; the turn
    order of this round does not change; the new start player begins the next round."""
    g = make(3)
    state = draft(g, first=0)
    state.apply(Take(1))
    state.apply(Take(0))  # seat 1
    r = raw(state)
    assert (r["start"], r["first"]) == (1, 0)
    assert state.view(2).start_player == 1
    assert state.current_player == 2
    state.apply(Take(3))
    assert state.phase == "set_sail"
    assert state.current_player == 0  # phase 4 still from seat 0
    state.apply(Done())
    assert state.current_player == 1
    state.apply(Done())
    state.apply(Done())
    r = raw(state)
    assert (r["round"], r["first"], r["start"]) == (3, 1, 1)
    assert state.current_player == 1


def test_phase3_sets_in_turn_order_remaining_sets_discarded() -> None:
    """Phase 3: from the start player, clockwise, each takes one set into the hand; the
    display is not refilled; the sets left over go to the discard pile (phase 5 step 5)."""
    g = make(2)
    state = draft(g, first=1)
    state.apply(Take(3))
    assert state.current_player == 0
    assert "not in the display" in illegal(state, Take(3))
    state.apply(Take(0))
    r = raw(state)
    assert r["hands"] == [[0, 1], [6, 7]]
    assert sorted(r["ship_discard"]) == [2, 3, 4, 5]
    assert state.view(0).display == []


def test_phase3_face_up_cards_are_known_face_down_cards_are_not() -> None:
    """Phase 3: the cards of a face-up set are seen by all when taken; the face-down set's
    are not (C3)."""
    g = make(2)
    state = draft(g, first=0)
    state.apply(Take(2))
    state.apply(Take(0))
    v = state.view(0, recall=True)
    assert v.recall == [[4, 5], []]
    assert v.seats[1].hand_size == 2
    assert state.view(1).hand == [0, 1]


def test_phase3_no_hand_limit() -> None:
    """Phase 3: there is no hand limit."""
    g = make(2)
    hand = list(range(20, 44))
    state = draft(g, seats=[{"hand": hand}, {}])
    state.apply(Take(1))
    assert raw(state)["hands"][0] == sorted([2, 3, *hand])


def test_phase3_ship_deck_refilled_from_its_discard() -> None:
    """Phase 3: when the ship deck is empty, its shuffled discard pile is the new deck."""
    g = make(2)
    rest = free_cards(g, "ship")
    state = end_of_round(g, ship_deck=rest[:3], ship_discard=rest[3:])
    state.apply(Done())
    advance(state, "entertainment")
    r = raw(state)
    assert r["display"][0] == rest[:3][::-1][:2]
    assert r["display"][1][0] == rest[0]
    assert all(len(s) == 2 for s in r["display"])
    assert len(r["ship_deck"]) == len(rest) - 3 - 5


# ---------------------------------------------------------------------------- phase 5


def test_phase5_satisfied_family_scores_and_all_its_figures_leave() -> None:
    """Phase 5 step 1: a family with no figure left goes to the points pile, and every figure
    of its cabin colour returns to the supply, from location, activity and addition cards."""
    g = make(2)
    seat = {"figures_left": [3, 0, 2], "location": loc("Invergordon"), "activity_cards": [ship("Cooking Class"), -1],
            "location_guests": [[], [1, 2], []], "additions": [ship("Theater"), -1],
            "addition_guests": [[1], []]}
    state = end_of_round(g, seats=[seat, {}])
    state.apply(Done())
    r = raw(state)
    albers = starting(g, 0)[1]
    assert r["pile"][0] == [albers]
    assert r["cabins"][0] == [starting(g, 0)[0], -1, starting(g, 0)[2]]
    assert r["addition_guests"][0] == [0, 0]
    assert r["left"][0] == [3, 0, 2]
    assert state.scores()[0] == 3


def test_phase5_unsatisfied_family_stays_figures_on_its_card_stay() -> None:
    """Phase 5: a family with a figure still on its card is not satisfied: it stays in its
    cabin with those figures."""
    g = make(2)
    seat = {"figures_left": [1, 3, 3], "location": loc("Amsterdam"), "location_guests": [[0], [0], []]}
    state = end_of_round(g, seats=[seat, {}])
    state.apply(Done())
    r = raw(state)
    assert r["cabins"][0] == starting(g, 0)
    assert r["left"][0] == [1, 3, 3]
    assert r["pile"][0] == []


def test_C11_progress_persists_across_rounds() -> None:
    """C11: figures leaving location and activity cards in phase 5 go to the supply, not back
    to the family card; a family placed over two rounds is satisfied in the second."""
    g = make(2)
    seat = {"figures_left": [1, 3, 3], "location": loc("Amsterdam"), "location_guests": [[0], [0], []]}
    state = end_of_round(g, seats=[seat, {}], location_top=[loc("Barcelona"), SEAS[0], SEAS[1]])
    state.apply(Done())
    r = raw(state)
    assert r["location_guests"][0] == [0, 0, 0]
    assert r["left"][0][0] == 1
    state.apply(Keep(loc("Barcelona")))
    advance(state, "set_sail")
    assert state.current_player == 0
    state.apply(Place(0, 0))  # Adler (sports, city) to Barcelona's city excursion
    assert raw(state)["left"][0][0] == 0
    advance(state, "boarding")
    assert starting(g, 0)[0] in raw(state)["pile"][0]


def test_C13_figures_on_additions_stay_and_block_their_colour() -> None:
    """C13: figures on additions stay through phase 5 step 2 until their family is satisfied;
    while one is there no other figure of that colour may join that addition."""
    g = make(2)
    theater = ship("Theater")
    seat = {"figures_left": [3, 2, 3], "additions": [theater, -1], "addition_guests": [[1], []]}
    state = end_of_round(g, seats=[seat, {}])
    state.apply(Done())
    assert raw(state)["addition_guests"][0] == [0b010, 0]
    advance(state, "set_sail")
    assert state.current_player == 0
    assert "colour is already on that activity" in illegal(state, Place(1, 3))


def test_C4_phase5_captain_back_activity_cards_discarded_location_cards_kept() -> None:
    """Phase 5 steps 2-4 with C4: figures leave the location card, the captain returns to
    the bridge, the activity cards on the location card are discarded; the location card
    itself stays in the play area (routes), the additions and the hand stay."""
    g = make(2)
    sea = SEAS[2]
    a, b = ship("Cooking Class"), ship("Bingo")
    seat = {"figures_left": [3, 2, 2], "location": sea, "played": [loc("Bergen"), sea],
            "activity_cards": [a, b], "location_guests": [[], [2], [1]], "captain": 2,
            "additions": [ship("Theater"), -1], "hand": [ship("Massage")]}
    state = end_of_round(g, seats=[seat, {}])
    state.apply(Done())
    r = raw(state)
    assert r["captain"][0] == -1
    assert r["location"][0] == -1
    assert r["slots"][0] == [-1, -1]
    assert r["location_guests"][0] == [0, 0, 0]
    assert sorted(r["ship_discard"]) == sorted([a, b])
    assert r["played"][0] == [loc("Bergen"), sea]
    assert r["location_discard"] == []
    assert r["additions"][0] == [ship("Theater"), -1]
    assert r["hands"][0] == [ship("Massage")]


# ---------------------------------------------------------------------------- game end


def test_C8_family_deck_refilled_makes_the_round_the_last() -> None:
    """C8: when the family deck must be refilled from its discard pile, that round is the
    last; the game ends after its phase 5."""
    g = make(2)
    seats = [{"figures_left": [0, 3, 3]}, {}]
    rest = free_cards(g, "family", seats=seats)
    state = end_of_round(g, seats=seats, family_deck=[], family_discard=rest)
    state.apply(Done())
    r = raw(state)
    assert r["final"]
    assert len(r["drawn"][0]) == 2
    assert r["family_discard"] == []
    assert state.view(0).final_round
    advance(state, "over")
    assert state.is_over
    assert raw(state)["round"] == 3


def test_C16_deck_emptied_exactly_is_not_yet_refilled() -> None:
    """C16: a family deck emptied exactly by a draw is not refilled yet, so that round is not
    the last: the next round begins."""
    g = make(2)
    seats = [{"figures_left": [0, 3, 3]}, {}]
    rest = free_cards(g, "family", seats=seats)
    state = end_of_round(g, seats=seats, family_deck=rest[:2], family_discard=rest[2:5], family_box=rest[5:])
    state.apply(Done())
    r = raw(state)
    assert r["family_deck"] == []
    assert sorted(r["family_discard"]) == sorted(rest[2:5])
    assert not r["final"]
    state.apply(Board(rest[0]))
    advance(state, "set_sail")
    finish_sail(state)
    assert not state.is_over
    assert (raw(state)["round"], state.phase) == (4, "set_course")


def test_C16_C8_empty_deck_and_discard_yield_nothing_and_end_the_game() -> None:
    """C16: with the family deck and its discard pile both empty, the draw yields nothing (the
    cabin stays empty), and the round is the last (C8)."""
    g = make(2)
    seats = [{"figures_left": [0, 3, 3]}, {}]
    rest = free_cards(g, "family", seats=seats)
    state = end_of_round(g, seats=seats, family_deck=[], family_box=rest)
    state.apply(Done())
    r = raw(state)
    assert state.phase == "set_course"
    assert r["cabins"][0][0] == -1
    assert r["final"]
    advance(state, "over")
    assert state.is_over


def test_C8_final_scoring_after_phase5_step1() -> None:
    """C8: in the final round the game ends after phase 5 step 1: satisfied families score and
    their figures leave, while the other figures stay on the location card and count one
    point per two guests; routes count too."""
    g = make(2)
    seat = {"figures_left": [2, 0, 2], "location": loc("Invergordon"), "played": [loc("Amsterdam"), loc("Invergordon")],
            "activity_cards": [ship("Cooking Class"), -1], "location_guests": [[2], [0, 1], []],
            "additions": [ship("Theater"), -1], "addition_guests": [[1], []]}
    state = end_of_round(g, seats=[seat, {}], final_round=True)
    state.apply(Done())
    assert state.is_over
    r = raw(state)
    assert r["pile"][0] == [starting(g, 0)[1]]
    assert r["location_guests"][0] == [0b100, 0b001, 0]  # step 2 never runs
    placed = 2
    assert state.scores() == [3 + 1 + placed // 2, 0]
    assert state.route_points(0) == 1
    assert state.winners() == [0]


def test_C8_one_point_per_two_placed_guests() -> None:
    """C8: one point per two guests placed in the play area (location, activity and addition
    cards), rounded down."""
    g = make(2)
    base = {"location": loc("Invergordon"), "additions": [ship("Theater"), -1]}
    three = position(g, seats=[{**base, "figures_left": [2, 2, 2], "location_guests": [[2], [1], []],
                                "addition_guests": [[0], []]}, {}])
    four = position(g, seats=[{**base, "figures_left": [2, 1, 2], "location_guests": [[2], [1], []],
                               "addition_guests": [[0, 1], []]}, {}])
    assert three.scores()[0] == 1
    assert four.scores()[0] == 2


def test_C8_score_counts_points_pile_routes_and_guests() -> None:
    """C8: the score adds the points pile, the sailing routes and the placed guests."""
    g = make(2)
    wolf = fam("Wolf")
    seat = cabins(g, 0, [-1, starting(g, 0)[1], starting(g, 0)[2]], figures_left=[0, 3, 3],
                  points_pile=[wolf], played=[*EAST_MED[:3], SEAS[0]])
    state = position(g, seats=[seat, {}], family_deck=[f for f in free_cards(g, "family") if f != wolf])
    assert state.route_points(0) == 6
    assert state.scores()[0] == 3 + 9 + 6
    assert state.view(1).seats[0].score == 18
    assert state.view(1).seats[0].route_points == 6


def test_C8_tie_goes_to_most_hand_cards() -> None:
    """C8: equal points: the seat with more hand cards wins."""
    g = make(2)
    state = end_of_round(g, seats=[{"hand": [1]}, {"hand": [2, 3]}], final_round=True)
    state.apply(Done())
    assert state.scores() == [0, 0]
    assert state.winners() == [1]
    assert state.returns()[1] > state.returns()[0]


@pytest.mark.parametrize(("first", "start", "winner"), [(0, 0, 0), (1, 1, 2), (2, 2, 2), (0, 2, 0)])
def test_C8_tie_then_turn_order_of_the_final_round(first: int, start: int, winner: int) -> None:
    """C8: equal points and hand cards: the tied seat first in the final round's turn order
    wins (seats 0 and 2 tie here; seat 1 has less). The order is the round's, not that of a
    token passed on in its phase 3 (C19)."""
    g = make(3)
    seats = [
        {"figures_left": [3, 2, 2], "location": loc("Invergordon"), "location_guests": [[2], [1], []]},
        {},
        {"figures_left": [3, 2, 2], "location": loc("Livorno"), "location_guests": [[2], [1], []]},
    ]
    state = end_of_round(g, seats=seats, first_player=first, start_player=start, final_round=True)
    state.apply(Done())
    assert state.scores() == [1, 0, 1]
    assert state.winners() == [winner]


# ---------------------------------------------------------------------------- routes (C1)


def test_C1_route_example_scores_10() -> None:
    """The rulebook's route example under C1: 2 Eastern Mediterranean + 4 North Sea + 1 sea
    card: the sea card joins the North Sea route (5 cards, 9) and the Eastern Mediterranean
    pair still scores 1: 10, not the 9 of the other choice."""
    g = make(2)
    assert g.rules.route_points_of([2, 0, 0, 0, 4, 0], 1) == 10
    state = position(g, seats=[{"played": [*EAST_MED[:2], *NORTH_SEA[:4], SEAS[0]]}, {}])
    assert state.route_points(0) == 10


def _brute_routes(regions: list[int], seas: int, table: tuple[int, int, int, int]) -> int:
    def pts(k: int) -> int:
        return 0 if k < 2 else table[min(k, 5) - 2]

    best = 0
    for chosen in itertools.product([0, 1], repeat=6):
        if sum(chosen) <= seas:
            best = max(best, sum(pts(r + c) if r else 0 for r, c in zip(regions, chosen, strict=True)))
    return best


@pytest.mark.parametrize("table", [(1, 3, 6, 9), (9, 1, 1, 1), (0, 5, 5, 20), (2, 2, 2, 2)])
def test_C1_routes_are_an_exact_optimum(table: tuple[int, int, int, int]) -> None:
    """C1: the route points are the best way to add the sea cards (each route at most one),
    checked against every assignment, for several route tables (the option)."""
    g = make(2, route_points=table)
    rnd = random.Random(sum(table))
    for _ in range(300):
        regions = [rnd.choice([0, 0, 1, 2, 3, 4, 5, 6]) for _ in range(6)]
        seas = rnd.randrange(5)
        assert g.rules.route_points_of(regions, seas) == _brute_routes(regions, seas, table), (regions, seas)


def test_C1_one_route_per_region() -> None:
    """C1: all shore cards of a region form one route, never split: six Eastern
    Mediterranean cards score 9 (5+), not 3 + 3 + ..."""
    g = make(2, route_points=(5, 3, 6, 9))
    assert g.rules.route_points_of([6, 0, 0, 0, 0, 0], 0) == 9
    assert g.rules.route_points_of([4, 0, 0, 0, 0, 0], 0) == 6


def test_C1_at_most_one_sea_card_per_route() -> None:
    """C1: a route takes at most one sea card: 2 shore cards and 2 sea cards are a route of
    3 (3 points), not of 4."""
    g = make(2)
    assert g.rules.route_points_of([2, 0, 0, 0, 0, 0], 2) == 3
    assert g.rules.route_points_of([2, 2, 0, 0, 0, 0], 2) == 6


def test_C1_a_sea_card_alone_is_no_route() -> None:
    """C1: a sea card alone (or with other sea cards only) is no route; one shore card and a
    sea card are a route of 2; a shore card alone is none."""
    g = make(2)
    assert g.rules.route_points_of([0] * 6, 3) == 0
    assert g.rules.route_points_of([1, 0, 0, 0, 0, 0], 0) == 0
    assert g.rules.route_points_of([1, 0, 0, 0, 0, 0], 1) == 1
    state = position(g, seats=[{"played": SEAS[:3]}, {}])
    assert state.route_points(0) == 0


def test_C1_route_points_option() -> None:
    """C1 (option): route_points gives the points of routes of 2, 3, 4 and 5+ cards."""
    g = make(2, route_points=(2, 4, 8, 16))
    assert g.rules.route_points_of([2, 3, 4, 5, 7, 0], 0) == 2 + 4 + 8 + 16 + 16
    state = position(g, seats=[{"played": [*WEST_MED[:3], SEAS[0]]}, {}])
    assert state.route_points(0) == 8
    assert state.scores()[0] == 8
    with pytest.raises(InvalidOptionError):
        make(2, route_points=(1, 3, 6))


# ---------------------------------------------------------------------------- solo (C9, C23)


def test_C23_jana_draws_after_the_player_in_phase1() -> None:
    """C23: in phase 1 Jana draws one family card face down into her points pile, after the
    player's draws."""
    g = make(1)
    a, b, c = fam("Jung"), fam("Ertel"), fam("Wolf")
    state = end_of_round(g, seats=[{"figures_left": [0, 3, 3]}], family_top=[a, b, c], jana_pile=[fam("Koch")])
    state.apply(Done())
    r = raw(state)
    assert sorted(r["drawn"][0]) == sorted([a, b])
    assert r["jana_pile"] == [fam("Koch"), c]


def test_C23_jana_draws_even_when_the_player_boards_nobody() -> None:
    """C9: Jana draws in every phase 1 from round 2, whether or not the player has an empty
    cabin; round 1 has no draw for her (C15)."""
    g = make(1)
    state = g.new_state(seed=4)
    assert raw(state)["jana_pile"] == []
    top = raw(state)["family_deck"][-1]
    advance(state, "set_sail")
    state.apply(Done())
    r = raw(state)
    assert r["round"] == 2
    assert r["jana_pile"] == [top]


def test_C9_jana_scores_her_pile_and_her_longest_route_only() -> None:
    """C9: Jana scores her points pile and only her longest route (a sea card may join it)."""
    g = make(1)
    wolf = fam("Wolf")
    state = position(g, seats=[{}], jana_pile=[wolf],
                     jana_locations=[*EAST_MED[:3], *WEST_MED[:2], SEAS[0]],
                     family_deck=[f for f in free_cards(g, "family") if f != wolf])
    jana = state.view(0).jana
    assert jana is not None
    assert jana.route_points == 6  # 3 + the sea card: 4 cards; the pair is not counted
    assert state.jana_score() == 9 + 6


def test_C9_jana_route_of_sea_cards_alone_is_nothing() -> None:
    """C9 with C1: Jana's sea cards alone make no route."""
    g = make(1)
    state = position(g, seats=[{}], jana_locations=SEAS[:3])
    assert state.jana_score() == 0


def test_C9_jana_wins_ties() -> None:
    """C9, C23: the player wins only with more points than Jana; a tie is Jana's;
    ``returns()`` is -1 when Jana wins."""
    g = make(1)
    state = end_of_round(g, seats=[{}], final_round=True)
    state.apply(Done())
    assert state.is_over
    assert (state.scores(), state.jana_score()) == ([0], 0)
    assert state.winners() == []
    assert state.returns() == [-1.0]


def test_C9_player_beats_jana_with_more_points() -> None:
    """C9: with more points than Jana the player wins (returns 1)."""
    g = make(1)
    seat = {"figures_left": [3, 2, 2], "location": loc("Invergordon"), "location_guests": [[2], [1], []]}
    state = end_of_round(g, seats=[seat], final_round=True, jana_locations=[EAST_MED[0]])
    state.apply(Done())
    assert (state.scores(), state.jana_score()) == ([1], 0)
    assert state.winners() == [0]
    assert state.returns() == [1.0]


def test_C9_jana_with_more_points_wins() -> None:
    """C9: Jana's face-down pile beats a smaller player score."""
    g = make(1)
    seat = {"figures_left": [3, 2, 2], "location": loc("Invergordon"), "location_guests": [[2], [1], []]}
    koch = fam("Koch")
    state = end_of_round(g, seats=[seat], final_round=True, jana_pile=[koch],
                         family_deck=[f for f in free_cards(g, "family") if f != koch])
    state.apply(Done())
    assert state.jana_score() == 7
    assert state.winners() == []
    assert state.returns() == [-1.0]


def test_C23_jana_pile_is_face_down_until_the_end() -> None:
    """C23: the view shows the size of Jana's pile, not its cards or points, until the game
    is over; her location cards are public."""
    g = make(1)
    koch = fam("Koch")
    state = end_of_round(g, seats=[{}], final_round=True, jana_pile=[koch], jana_locations=[EAST_MED[0]],
                         family_deck=[f for f in free_cards(g, "family") if f != koch])
    jana = state.view(0).jana
    assert jana is not None
    assert (jana.pile_size, jana.score, jana.locations) == (1, None, [EAST_MED[0]])
    state.apply(Done())
    jana = state.view(0).jana
    assert jana is not None
    assert jana.score == 7


def test_C9_solo_game_ends_when_jana_must_refill_the_deck() -> None:
    """C9: the solo game ends as normal at the end of the round in which the family discard
    pile is shuffled, here by Jana's draw."""
    g = make(1)
    rest = free_cards(g, "family", seats=[{}])
    state = end_of_round(g, seats=[{}], family_deck=[], family_discard=rest[:3], family_box=rest[3:])
    state.apply(Done())
    r = raw(state)
    assert r["final"]
    assert len(r["jana_pile"]) == 1
    assert r["jana_pile"][0] in rest[:3]
    advance(state, "over")
    assert state.is_over


def test_C9_solo_display_and_jana_takes_nothing() -> None:
    """C9: solo phase 3 has one face-down and two face-up sets; Jana takes none, the other
    two sets are discarded."""
    g = make(1)
    state = end_of_round(g, seats=[{}], ship_top=list(range(6)))
    state.apply(Done())
    advance(state, "entertainment")
    assert len(state.view(0).display) == 3
    state.apply(Take(2))
    r = raw(state)
    assert state.phase == "set_sail"
    assert r["hands"][0] == [4, 5]
    assert sorted(r["ship_discard"]) == [0, 1, 2, 3]
