"""Dream Cruise phase 4 (Set Sail!) by name: assigning guests, activity planning, ship
additions and the captain; rulings C3-C6, C12, C13, C16-C18 (the rulebook's phase-4 and
disembark examples are set up from their descriptions in test_worked_examples.py)."""

from __future__ import annotations

from typing import Any

import pytest

import cruiselib
from cruiselib.dream_cruise import Board, Build, Captain, Done, DreamCruiseGame, DreamCruiseState, Place, Plan
from tests.dream_cruise.helpers import fam, loc, make, position, ship, starting
from tests.dream_cruise.positions import advance, cabins, end_of_round, illegal, moves_of, raw

INVERGORDON = loc("Invergordon")  # country for 2 / culture for 2
BERGEN = loc("Bergen")  # country for 1 / rest for 1
ADRIATIC = loc("Open Sea: Adriatic Sea")  # rest for 1 / two activity slots
COOKING = ship("Cooking Class")  # activity: rest for 2
BINGO = ship("Bingo")  # activity: culture for 2
MASSAGE = ship("Massage")  # activity: rest for 1
THEATER = ship("Theater")  # addition: culture for 3
CASINO = ship("Casino")  # addition: culture for 2
SUN_DECK = ship("Sun Deck")  # addition: rest for 2
# Seat 0's starting families: cabin 0 Adler (sports, city), 1 Albers (culture, beach),
# 2 Arendt (rest, country).
ADLER, ALBERS, ARENDT = 0, 1, 2


def sail(game: DreamCruiseGame | None = None, **seat: Any) -> DreamCruiseState:
    """Phase 4 of round 2, seat 0 to act with ``seat`` as its fields; seat 1 untouched."""
    g = game or make(2)
    return position(g, seats=[seat, {}])


def places(state: DreamCruiseState) -> set[tuple[int, int]]:
    """The legal placements as (cabin, spot)."""
    return {(m.cabin, m.spot) for m in moves_of(state, Place)}


# ---------------------------------------------------------------------------- a) assign guests


def test_phase4_activity_icon_must_match_a_desire() -> None:
    """4a: a guest goes only to an activity whose icon its family card shows."""
    state = sail(location=INVERGORDON)
    assert places(state) == {(ARENDT, 0), (ALBERS, 1)}
    assert "does not want that activity" in illegal(state, Place(ADLER, 0))
    assert "does not want that activity" in illegal(state, Place(ADLER, 1))
    state.apply(Place(ARENDT, 0))
    assert raw(state)["location_guests"][0] == [0b100, 0, 0]
    assert raw(state)["left"][0] == [3, 3, 2]


def test_phase4_capacity_is_the_number_of_guest_symbols() -> None:
    """4a: at most as many figures as the activity's guest symbols (Bergen's top: 1)."""
    g = make(2)
    brown = fam("Brown")  # city, country
    state = position(g, seats=[cabins(g, 0, [brown, starting(g, 0)[1], starting(g, 0)[2]], location=BERGEN), {}])
    state.apply(Place(2, 0))
    assert "that activity is full" in illegal(state, Place(0, 0))


def test_phase4_one_figure_per_colour_per_activity() -> None:
    """4a: no two figures of the same colour on one activity, even with room left."""
    state = sail(location=INVERGORDON, figures_left=[3, 3, 2], location_guests=[[ARENDT], [], []])
    assert "a figure of that colour is already on that activity" in illegal(state, Place(ARENDT, 0))


def test_phase4_same_colour_on_each_activity_of_a_shore_card() -> None:
    """4a: a shore card's top and bottom are separate activities: one figure of a colour may
    go on each."""
    g = make(2)
    murphy = fam("Murphy")  # culture, country: both of Invergordon's activities
    state = position(g, seats=[cabins(g, 0, [starting(g, 0)[0], murphy, starting(g, 0)[2]],
                                      location=INVERGORDON), {}])
    state.apply(Place(1, 0))
    state.apply(Place(1, 1))
    assert raw(state)["location_guests"][0] == [0b010, 0b010, 0]
    assert raw(state)["left"][0][1] == 1


def test_phase4_a_family_places_only_the_figures_on_its_card() -> None:
    """4a: each figure goes once; a family with no figure left on its card places none."""
    state = sail(location=INVERGORDON, figures_left=[3, 0, 3], additions=[THEATER, -1], addition_guests=[[1], []])
    assert "no family with a figure left" in illegal(state, Place(ALBERS, 1))
    assert all(c != ALBERS for c, _ in places(state))


def test_C12_only_the_current_location_card_takes_guests() -> None:
    """C4, C12: location cards of earlier rounds stay for the routes only; spots name the
    current card's activities (a shore card has no second slot)."""
    state = sail(location=BERGEN, played=[INVERGORDON, BERGEN])
    assert places(state) == {(ARENDT, 0), (ARENDT, 1)}  # Bergen: country / rest; Invergordon's culture is gone
    assert "does not want that activity" in illegal(state, Place(ALBERS, 1))  # spot 1 is Bergen's rest
    assert "not in play" in illegal(state, Place(ARENDT, 2))


def test_C16_no_current_location_card_leaves_the_additions_only() -> None:
    """C16: a seat without a location card this round places guests on its additions only,
    plans no activity card and assigns no captain."""
    state = sail(played=[INVERGORDON], additions=[THEATER, -1], hand=[COOKING, MASSAGE])
    assert places(state) == {(ALBERS, 3)}
    assert "not in play" in illegal(state, Place(ARENDT, 0))
    assert "no current location card" in illegal(state, Plan(COOKING))
    assert "no current location card" in illegal(state, Captain(0, MASSAGE))
    assert not moves_of(state, Captain)
    assert not moves_of(state, Plan)


def test_phase4_empty_sea_slots_take_no_guests() -> None:
    """4a: a sea card offers its top activity; its two slots only once activity cards are
    on them."""
    state = sail(location=ADRIATIC)
    assert places(state) == {(ARENDT, 0)}
    assert "not in play" in illegal(state, Place(ALBERS, 1))
    assert "not in play" in illegal(state, Place(ALBERS, 2))


def test_phase4_additions_take_guests_by_their_icon() -> None:
    """4a: a built addition is an activity like the others; an empty space is none."""
    state = sail(location=INVERGORDON, additions=[THEATER, -1])
    assert (ALBERS, 3) in places(state)
    assert "does not want that activity" in illegal(state, Place(ARENDT, 3))
    assert "not in play" in illegal(state, Place(ALBERS, 4))
    state.apply(Place(ALBERS, 3))
    assert raw(state)["addition_guests"][0] == [0b010, 0]


def test_C3_phase4_any_order_done_ends_the_turn_in_turn_order() -> None:
    """Phase 4: any number of actions in any order, then ``Done``; the seats decide in turn
    order from the start player (C3), and the others' hands stay hidden."""
    g = make(3)
    state = position(g, seats=[{}, {"location": INVERGORDON, "hand": [COOKING, THEATER, MASSAGE]}, {}],
                     first_player=1, start_player=1)
    assert state.current_player == 1
    for move in (Place(2, 0), Plan(COOKING), Build(THEATER, MASSAGE), Place(1, 3)):
        assert Done() in state.legal_moves()
        state.apply(move)
    assert state.view(0).hand == []
    assert state.view(0).seats[1].hand_size == 0
    state.apply(Done())
    assert state.current_player == 2
    state.apply(Done())
    assert state.current_player == 0
    state.apply(Done())
    assert state.phase == "set_course"


def test_phase4_legal_moves_are_exactly_the_legal_actions() -> None:
    """C17: every legal choice is one move and every listed move is legal: the list equals
    the action ids the rules accept."""
    state = sail(location=ADRIATIC, activity_cards=[BINGO, -1], additions=[THEATER, CASINO],
                 hand=[COOKING, MASSAGE, SUN_DECK, ship("Spa")], figures_left=[3, 2, 3],
                 addition_guests=[[1], []])
    legal = state.legal_actions()
    assert legal == sorted(set(legal))
    assert legal == [a for a in range(state.game.num_actions) if state.is_legal(a)]
    kinds = {type(m).__name__ for m in state.legal_moves()}
    assert kinds == {"Place", "Plan", "Build", "Captain", "Done"}


# ---------------------------------------------------------------------------- b) activity planning


def test_phase4_activity_card_covers_the_shore_bottom() -> None:
    """4b: an activity card on a shore card covers its bottom activity: guests go to the card,
    no longer to the printed icon."""
    state = sail(location=INVERGORDON, hand=[COOKING])
    assert (ALBERS, 1) in places(state)
    state.apply(Plan(COOKING))
    r = raw(state)
    assert r["slots"][0] == [COOKING, -1]
    assert (ALBERS, 1) not in places(state)
    assert (ARENDT, 1) in places(state)
    assert "does not want that activity" in illegal(state, Place(ALBERS, 1))


def test_phase4_activity_cards_cost_nothing() -> None:
    """4b: playing an activity card costs nothing but the card itself."""
    state = sail(location=INVERGORDON, hand=[COOKING, MASSAGE])
    state.apply(Plan(COOKING))
    r = raw(state)
    assert r["hands"][0] == [MASSAGE]
    assert r["ship_discard"] == []


def test_phase4_one_activity_card_per_shore_card() -> None:
    """4b: one activity card per shore card."""
    state = sail(location=INVERGORDON, hand=[COOKING, MASSAGE])
    state.apply(Plan(COOKING))
    assert "no free place for an activity card" in illegal(state, Plan(MASSAGE))
    assert not moves_of(state, Plan)


def test_C17_sea_card_takes_two_activity_cards_first_free_slot() -> None:
    """4b, C17: a sea card takes two activity cards, each in the first free slot; then each
    slot is an activity of its card."""
    state = sail(location=ADRIATIC, hand=[COOKING, BINGO, MASSAGE])
    state.apply(Plan(BINGO))
    assert raw(state)["slots"][0] == [BINGO, -1]
    state.apply(Plan(COOKING))
    assert raw(state)["slots"][0] == [BINGO, COOKING]
    assert "no free place" in illegal(state, Plan(MASSAGE))
    assert places(state) == {(ARENDT, 0), (ALBERS, 1), (ARENDT, 2)}


@pytest.mark.parametrize("on_bottom", ["figure", "captain"])
def test_C18_bottom_with_a_figure_or_the_captain_cannot_be_covered(on_bottom: str) -> None:
    """C18: a shore activity with a figure or the captain on it cannot be covered."""
    if on_bottom == "figure":
        state = sail(location=INVERGORDON, hand=[COOKING], figures_left=[3, 2, 3], location_guests=[[], [1], []])
    else:
        state = sail(location=INVERGORDON, hand=[COOKING], captain=1)
    assert not moves_of(state, Plan)
    assert "(C18)" in illegal(state, Plan(COOKING))


def test_C18_a_figure_on_the_top_does_not_stop_covering_the_bottom() -> None:
    """C18 concerns the covered bottom only: figures on the top do not matter."""
    state = sail(location=INVERGORDON, hand=[COOKING], figures_left=[3, 3, 2], location_guests=[[2], [], []],
                 captain=0)
    state.apply(Plan(COOKING))
    assert raw(state)["slots"][0] == [COOKING, -1]


def test_phase4_plan_needs_an_activity_card_from_the_hand() -> None:
    """4b: only activity cards are planned (additions are built), and only from the hand."""
    state = sail(location=INVERGORDON, hand=[THEATER])
    assert "not an activity card" in illegal(state, Plan(THEATER))
    assert "not in the player's hand" in illegal(state, Plan(COOKING))


# ---------------------------------------------------------------------------- c) additions


def test_C6_building_costs_one_other_hand_card() -> None:
    """4c, C6: building an addition discards one other hand card; the addition goes on the
    ship board."""
    state = sail(hand=[THEATER, MASSAGE, BINGO])
    state.apply(Build(THEATER, MASSAGE))
    r = raw(state)
    assert r["additions"][0] == [THEATER, -1]
    assert r["hands"][0] == [BINGO]
    assert r["ship_discard"] == [MASSAGE]


def test_C6_payment_is_another_card_from_the_hand() -> None:
    """C6: the addition cannot pay for itself, and the payment must be in the hand."""
    state = sail(hand=[THEATER])
    assert not moves_of(state, Build)
    assert "payment must be another card" in illegal(state, Build(THEATER, THEATER))
    assert "payment must be another card" in illegal(state, Build(THEATER, MASSAGE))


def test_C6_any_hand_card_pays_another_addition_too() -> None:
    """C6: any other hand card pays, an addition card as well."""
    state = sail(hand=[THEATER, CASINO])
    assert set(moves_of(state, Build)) == {Build(THEATER, CASINO), Build(CASINO, THEATER)}


def test_phase4_build_needs_an_addition_card_from_the_hand() -> None:
    """4c: only addition cards are built, and only from the hand."""
    state = sail(hand=[BINGO, MASSAGE])
    assert "not an addition card" in illegal(state, Build(BINGO, MASSAGE))
    assert "not in the player's hand" in illegal(state, Build(THEATER, MASSAGE))


def test_C17_a_new_addition_takes_the_first_free_space() -> None:
    """C17: with a space free, a new addition takes the first free space; a move naming a
    space to replace is refused."""
    state = sail(additions=[THEATER, -1], hand=[CASINO, MASSAGE])
    assert "an addition space is free" in illegal(state, Build(CASINO, MASSAGE, 0))
    assert all(m.replaces is None for m in moves_of(state, Build))
    state.apply(Build(CASINO, MASSAGE))
    assert raw(state)["additions"][0] == [THEATER, CASINO]


def test_C6_replacing_an_addition_only_when_every_space_is_built() -> None:
    """C6, C17: with every space built, the move names the addition it replaces (still
    paying a card); the replaced card is discarded and its guests go to the supply (C11:
    their figures do not return to the family card)."""
    state = sail(additions=[THEATER, CASINO], addition_guests=[[ALBERS], [ALBERS]],
                 figures_left=[3, 1, 3], hand=[SUN_DECK, MASSAGE])
    assert "must name the addition it replaces" in illegal(state, Build(SUN_DECK, MASSAGE))
    builds = moves_of(state, Build)
    assert {(m.replaces, m.replaced_name) for m in builds} == {(0, "Theater"), (1, "Casino")}
    state.apply(Build(SUN_DECK, MASSAGE, 0))
    r = raw(state)
    assert r["additions"][0] == [SUN_DECK, CASINO]
    assert r["addition_guests"][0] == [0, 0b010]
    assert r["left"][0] == [3, 1, 3]
    assert sorted(r["ship_discard"]) == sorted([MASSAGE, THEATER])
    assert r["hands"][0] == []


@pytest.mark.parametrize("spaces", [1, 3, 4])
def test_C6_addition_spaces_option(spaces: int) -> None:
    """C6 (option, default 2): the number of addition spaces on a ship board."""
    g = make(2, additions=spaces)
    assert make(2).additions == 2
    built = [ship(n) for n in ("Theater", "Casino", "Sun Deck", "Spa")][:spaces]
    state = sail(g, additions=built, hand=[ship("Cinema"), MASSAGE])
    assert len(state.view(0).seats[0].additions) == spaces
    assert (ALBERS, 3 + spaces - 1) in places(state) or (ARENDT, 3 + spaces - 1) in places(state)
    assert {m.replaces for m in moves_of(state, Build)} == set(range(spaces))


# ---------------------------------------------------------------------------- d) the captain


def test_C5_captain_costs_a_hand_card() -> None:
    """4d, C5: assigning the captain discards one hand card."""
    state = sail(location=INVERGORDON, hand=[MASSAGE, THEATER])
    state.apply(Captain(0, THEATER))
    r = raw(state)
    assert r["captain"][0] == 0
    assert r["hands"][0] == [MASSAGE]
    assert r["ship_discard"] == [THEATER]


def test_C5_captain_makes_any_guest_welcome_on_its_activity_only() -> None:
    """C5: any guest may join the activity the captain is on, whatever its desires; the
    card's other activity keeps its icon."""
    state = sail(location=INVERGORDON, hand=[MASSAGE])
    assert (ADLER, 0) not in places(state)
    state.apply(Captain(0, MASSAGE))
    assert (ADLER, 0) in places(state)
    assert (ADLER, 1) not in places(state)
    state.apply(Place(ADLER, 0))
    assert raw(state)["location_guests"][0][0] == 0b001


def test_C5_captain_capacity_still_holds() -> None:
    """C5: with the captain, the capacity still holds."""
    state = sail(location=BERGEN, hand=[MASSAGE], captain=0, figures_left=[3, 3, 2], location_guests=[[2], [], []])
    assert "that activity is full" in illegal(state, Place(ADLER, 0))


def test_C5_captain_one_figure_per_colour_still_holds() -> None:
    """C5: with the captain, still one figure per colour on the activity."""
    state = sail(location=INVERGORDON, captain=0, figures_left=[2, 3, 3], location_guests=[[0], [], []])
    assert "colour is already on that activity" in illegal(state, Place(ADLER, 0))


def test_C5_captain_on_an_activity_card_on_the_location_card() -> None:
    """C5: the captain may go on an activity card placed on the location card (a shore
    card's cover or a sea card's second card)."""
    state = sail(location=ADRIATIC, activity_cards=[BINGO, COOKING], hand=[MASSAGE])
    assert {m.spot for m in moves_of(state, Captain)} == {0, 1, 2}
    state.apply(Captain(2, MASSAGE))
    assert (ADLER, 2) in places(state)
    assert (ADLER, 1) not in places(state)


def test_C5_captain_never_on_an_addition() -> None:
    """C5: the captain may never go on a ship addition: no such move is offered and none
    can be named."""
    state = sail(location=INVERGORDON, additions=[THEATER, CASINO], hand=[MASSAGE])
    assert {m.spot for m in moves_of(state, Captain)} == {0, 1}
    with pytest.raises(cruiselib.IllegalMoveError, match="names no action"):
        state.apply(Captain(3, MASSAGE))


def test_C5_captain_once_per_round() -> None:
    """C5: the captain is assigned once per round and stays on its activity until the end
    of the round."""
    state = sail(location=INVERGORDON, hand=[MASSAGE, BINGO])
    state.apply(Captain(1, MASSAGE))
    assert not moves_of(state, Captain)
    assert "already assigned" in illegal(state, Captain(0, BINGO))
    state.apply(Place(ALBERS, 1))
    assert raw(state)["captain"][0] == 1


def test_C5_captain_needs_an_activity_and_a_hand_card() -> None:
    """C5: the captain goes on an activity icon (not an empty sea slot) and costs a card,
    so with an empty hand there is no captain move."""
    state = sail(location=ADRIATIC, hand=[MASSAGE])
    assert {m.spot for m in moves_of(state, Captain)} == {0}
    assert "not in play" in illegal(state, Captain(1, MASSAGE))
    empty = sail(location=ADRIATIC)
    assert not moves_of(empty, Captain)
    assert "not in the player's hand" in illegal(empty, Captain(0, MASSAGE))


def test_C5_captain_returns_for_the_next_round() -> None:
    """Phase 5 step 3: the captain goes back to the bridge and may be assigned again next
    round."""
    g = make(2)
    state = end_of_round(g, seats=[{"location": INVERGORDON, "captain": 0, "hand": [MASSAGE]}, {}])
    state.apply(Done())
    advance(state, "set_sail")
    if state.current_player != 0:
        state.apply(Done())
    assert state.current_player == 0
    assert moves_of(state, Captain)


# ---------------------------------------------------------------------------- C13


def test_C13_satisfied_family_frees_its_colour_on_the_additions() -> None:
    """C13: a figure on an addition stays until its family is satisfied; then phase 5 step 1
    takes every figure of that colour, and the colour's next family may use the addition."""
    g = make(2)
    seat = {"figures_left": [3, 0, 3], "additions": [THEATER, -1], "addition_guests": [[ALBERS], []]}
    jung = fam("Jung")  # culture, rest
    state = end_of_round(g, seats=[seat, {}], family_top=[jung, fam("Wolf")])
    state.apply(Done())
    assert raw(state)["addition_guests"][0] == [0, 0]
    state.apply(Board(jung))
    advance(state, "set_sail")
    if state.current_player != 0:
        state.apply(Done())
    assert (1, 3) in places(state)
