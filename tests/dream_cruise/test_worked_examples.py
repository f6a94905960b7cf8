"""The rulebook's worked examples, each set up from a description (``game.from_position``:
the compact text or the Struct of a seat's view, hidden cards as counts), played as the
example plays them and checked against the outcome it states."""

from __future__ import annotations

from typing import Any

import pytest

import cruiselib
from cruiselib.dream_cruise import DreamCruiseGame, DreamCruiseState, Place
from cruiselib.dream_cruise.position import (
    AdditionSpace,
    CabinSeat,
    DreamCruisePosition,
    SeatPosition,
)
from tests.dream_cruise.positions import illegal

TWO = cruiselib.make("dream_cruise", players=2)
assert isinstance(TWO, DreamCruiseGame)


def view_of(game: DreamCruiseGame, *, seats: list[dict[str, Any]], **fields: Any) -> DreamCruisePosition:
    """Seat 0's view with the hidden places sized as the rules leave them: the family deck
    two cards short for each family in a points pile (its cabin drew two, C8), the box the
    rest of the families not in sight; every location and ship card not in sight in its
    deck, past the other hands (their known cards among them), the discard pile and an
    untaken face-down set."""
    described = [SeatPosition(**s) for s in seats]
    cards = game.cards
    seen_families = {
        name
        for s in described
        for name in [c.family for c in s.cabins] + s.points_pile + (s.drawn if isinstance(s.drawn, list) else [])
        if name is not None
    }
    others = sum(1 for f in cards.families if f.start is None and f.name not in seen_families)
    # Past the deck's size, the deck ran out and was refilled from its discard pile (C8): empty here.
    deck = max(0, int(game.rules.deck_size) - 2 * sum(len(s.points_pile) for s in described))
    seen_locations = sum(len(s.earlier_locations) + (s.location is not None) for s in described)
    display = fields.get("display", [])
    seen_ships = sum(
        (len(s.hand) if isinstance(s.hand, list) else s.hand)
        + sum(a.card is not None for a in s.additions)
        + (s.bottom_card is not None)
        + (s.second_card is not None)
        for s in described
    ) + sum(len(d.cards) if isinstance(d.cards, list) else d.cards for d in display)
    seen_ships += len(fields.get("ship_discard", []))
    return DreamCruisePosition(
        seat=0,
        seats=described,
        family_deck=deck,
        family_box=others - deck,
        location_deck=len(cards.locations) - seen_locations,
        ship_deck=len(cards.ships) - seen_ships,
        **fields,
    )


def starting(*families: str, waiting: int = 3) -> list[CabinSeat]:
    return [CabinSeat(family=f, waiting=waiting) for f in families]


FREE = [AdditionSpace(), AdditionSpace()]
SEAT_1 = {"cabins": starting("Baumann", "Berger", "Brandt"), "additions": FREE, "hand": 0}


def send(state: DreamCruiseState, *moves: str) -> None:
    """Play the moves, each by its text (docs/dream_cruise.md, "Notation")."""
    for text in moves:
        state.apply(state.parse_move(text))


def test_round_3_boarding_example() -> None:
    """Phase 1: round 3 starts with the oceanview and balcony cabins empty (their starting
    families were satisfied last round); the seat draws 4 families, keeps Jung and Ertel
    with their figures, and discards the other two."""
    text = (
        "boarding 0 0 0 "
        "Adler:3.-.-,-.-,-,Piraeus.Katakolon,Albers.Arendt,-,Becker.Ertel.Jung.Wolf"
        "/Baumann:3.Berger:3.Brandt:3,-.-,-,Mykonos.Skagen,-,?0,?0 "
        "- ?20,-,?24 ?50,- ?72,- - -"
    )
    assert TWO.position_problems(text) == []
    state = TWO.from_position(text, seed=1)
    assert state.view(0).round == 3
    send(state, "board Jung", "board Ertel")
    after = TWO.describe(state, 0)
    assert after.seats[0].cabins == [
        CabinSeat(family="Adler", waiting=3),
        CabinSeat(family="Jung", waiting=3),  # as many figures as the card's members
        CabinSeat(family="Ertel", waiting=4),
    ]
    assert sorted(after.family_discard) == ["Becker", "Wolf"]
    assert after.phase == "set_course"


# The rulebook's ship card display in a 2-player game, as seat 0 sees it in phase 3: the
# face-down set and the face-up sets A, B and C.
DISPLAY_EXAMPLE = (
    "entertainment 0 0 0 "
    "Adler:3.Albers:3.Arendt:3,-.-,Piraeus:-:-,-,-,-,-"
    "/Baumann:3.Berger:3.Brandt:3,-.-,Mykonos:-:-,-,-,?0,- "
    "?2/MaritimeMuseum+SunDeck/LegsBumsTums+IndoorCycling/GameNight+Bingo "
    "?24,-,?24 ?52,- ?64,- - -"
)


def test_ship_card_display_example() -> None:
    """Phase 3 in a 2-player game: a face-down set and the face-up sets A (Maritime Museum,
    Sun Deck), B (Legs Bums & Tums, Indoor Cycling), C (Game Night, Bingo). The start player
    may not take the face-down set; whoever takes it becomes the next start player; what is
    left is discarded."""
    state = TWO.from_position(DISPLAY_EXAMPLE, seed=2)
    takes = [m for m in state.legal_moves() if type(m).__name__ == "Take"]
    assert [str(m) for m in takes] == [
        "take set 1: Maritime Museum + Sun Deck",
        "take set 2: Legs Bums & Tums + Indoor Cycling",
        "take set 3: Game Night + Bingo",
    ]
    send(state, "take Maritime Museum + Sun Deck", "take the face-down set")
    after = TWO.describe(state)
    assert after.start_player == 1 and after.order_from == 0  # C19: the token moves, the order stays
    assert after.seats[0].hand == ["Maritime Museum", "Sun Deck"]
    assert isinstance(after.seats[1].hand, list) and len(after.seats[1].hand) == 2
    assert sorted(after.ship_discard) == ["Bingo", "Game Night", "Indoor Cycling", "Legs Bums & Tums"]
    assert after.phase == "set_sail" and after.to_act == 0


def test_display_example_remembered() -> None:
    """The display example played on: seat 0 takes set A, seat 1 set C face up. Seat 0 saw
    Game Night and Bingo go into seat 1's hand (C26), so its view remembers them
    (``GameNight!.Bingo!.?0``) and every deal of the rest keeps them there; had seat 1
    taken the face-down set, its hand would be two unseen cards, dealt anew."""
    state = TWO.from_position(DISPLAY_EXAMPLE, seed=2)
    send(state, "take Maritime Museum + Sun Deck", "take Game Night + Bingo")
    seen = TWO.position_text(state, 0)
    assert seen.split()[4].split("/")[1].split(",")[5] == "GameNight!.Bingo!.?0"
    assert TWO.describe(state, 0).seats[1].known == ["Game Night", "Bingo"]
    for seed in range(4):
        dealt = TWO.from_position(seen, seed=seed)
        assert dealt.view(0, recall=True) == state.view(0, recall=True)
        assert sorted(TWO.describe(dealt).seats[1].hand) == ["Bingo", "Game Night"]
    # The same view as a Struct, seat 1's hand counted with what seat 0 remembers of it.
    seat0 = {
        "cabins": starting("Adler", "Albers", "Arendt"),
        "additions": FREE,
        "location": "Piraeus",
        "hand": ["Maritime Museum", "Sun Deck"],
        "known": ["Maritime Museum", "Sun Deck"],
    }
    seat1 = dict(SEAT_1, location="Mykonos", hand=2, known=["Game Night", "Bingo"])
    view = view_of(
        TWO,
        seats=[seat0, seat1],
        phase="set_sail",
        to_act=0,
        start_player=0,
        ship_discard=TWO.describe(state).ship_discard,
    )
    assert TWO.position_problems(view) == []
    assert TWO.from_position(view, seed=5).view(0, recall=True) == state.view(0, recall=True)
    # Taken face down, the two cards are not remembered: each deal draws them anew.
    state = TWO.from_position(DISPLAY_EXAMPLE, seed=2)
    send(state, "take Maritime Museum + Sun Deck", "take the face-down set")
    unseen = TWO.position_text(state, 0)
    assert unseen.split()[4].split("/")[1].split(",")[5] == "?2"
    hands = {tuple(TWO.describe(TWO.from_position(unseen, seed=k)).seats[1].hand) for k in range(4)}
    assert len(hands) > 1


def round_2_sail(location: str, hand: list[str]) -> DreamCruiseState:
    """Seat 0 in phase 4 of round 2 at ``location``: Arendt (rest, country), Ertel (rest,
    country) and Jung (culture, rest) in its cabins, the hand given."""
    seat0 = {
        "cabins": [
            CabinSeat(family="Arendt", waiting=3),
            CabinSeat(family="Ertel", waiting=4),
            CabinSeat(family="Jung", waiting=3),
        ],
        "additions": FREE,
        "location": location,
        "earlier_locations": ["Piraeus"],
        "points_pile": ["Adler", "Albers"],
        "hand": hand,
    }
    seat1 = dict(SEAT_1, location="Mykonos", earlier_locations=["Katakolon"])
    view = view_of(TWO, seats=[seat0, seat1], phase="set_sail", to_act=0, start_player=0)
    assert TWO.position_problems(view) == []
    return TWO.from_position(view, seed=3)


def places(state: DreamCruiseState) -> set[str]:
    return {str(m) for m in state.legal_moves() if str(m).startswith("send")}


def test_invergordon_example() -> None:
    """Invergordon: on top 2 guests (of different colours) wanting Country; at the bottom 2
    wanting Culture & Entertainment, or an activity card covers that spot."""
    state = round_2_sail("Invergordon", ["Cooking Class"])
    assert places(state) == {
        "send an Arendt guest to Invergordon top (country for 2)",
        "send an Ertel guest to Invergordon top (country for 2)",
        "send a Jung guest to Invergordon bottom (culture for 2)",
    }
    covered = state.clone()
    send(covered, "plan Cooking Class")
    assert "send a Jung guest to Cooking Class (rest for 2)" in places(covered)
    assert not any("Invergordon bottom" in p for p in places(covered))
    send(state, "send Arendt to Invergordon top", "send Ertel to Invergordon top")
    assert not any("top" in p for p in places(state))  # two guests: full
    assert TWO.describe(state).seats[0].top_guests == ["inner", "oceanview"]


def test_sea_card_and_activity_card_examples() -> None:
    """A sea card: 1 guest wanting Rest & Relaxation on top, two activity cards below. An
    activity card (Cooking Class): 2 guests of different colours wanting Rest & Relaxation."""
    state = round_2_sail("Open Sea: Adriatic Sea", ["Cooking Class", "Maritime Museum", "Massage"])
    send(state, "send Arendt to Adriatic Sea top")
    assert not any("Adriatic Sea top" in p for p in places(state))  # 1 guest: full
    send(state, "plan Cooking Class", "plan Maritime Museum")
    assert not any(str(m).startswith("plan") for m in state.legal_moves())  # both slots taken
    seat = TWO.describe(state).seats[0]
    assert (seat.bottom_card, seat.second_card) == ("Cooking Class", "Maritime Museum")
    send(state, "send Ertel to Cooking Class")
    assert "send an Ertel guest to Cooking Class (rest for 2)" not in places(state)  # one per colour
    send(state, "send Jung to Cooking Class")
    assert not any("Cooking Class" in p for p in places(state))  # 2 guests: full


def test_addition_card_example() -> None:
    """An addition card (Theater): built by discarding another hand card, then 3 guests of
    different colours wanting Culture & Entertainment."""
    state = round_2_sail("Invergordon", ["Theater", "Massage"])
    send(state, "build Theater, paying Massage")
    after = TWO.describe(state)
    assert after.seats[0].additions[0].card == "Theater" and after.ship_discard == ["Massage"]
    assert "send a Jung guest to Theater (culture for 3)" in places(state)
    assert not any("Arendt guest to Theater" in p or "Ertel guest to Theater" in p for p in places(state))


def phase_4_example(jung_waiting: int, final: bool = False) -> DreamCruiseState:
    """The phase 4 example's table: Johnson (3 members), Jung (3) and Ertel (4) in seat 0's
    cabins, Invergordon this round, Theater, Cooking Class and a card to pay in hand."""
    seat0 = {
        "cabins": [
            CabinSeat(family="Johnson", waiting=3),
            CabinSeat(family="Jung", waiting=jung_waiting),
            CabinSeat(family="Ertel", waiting=4),
        ],
        "additions": FREE,
        "location": "Invergordon",
        "earlier_locations": ["Piraeus", "Katakolon"],
        "points_pile": ["Adler", "Albers", "Arendt"],
        "hand": ["Theater", "Cooking Class", "Massage"],
    }
    seat1 = dict(SEAT_1, location="Mykonos", earlier_locations=["Skagen", "Bergen"])
    if final:  # 13 satisfied families drew 26 cards from a deck of 24: this round is the last (C8)
        seat1["cabins"] = starting("Richter", "Klein", "Wagner")
        seat1["points_pile"] = [
            *("Baumann", "Berger", "Brandt", "Becker", "Wolf", "Koch", "Smith", "Brown", "Weber", "Schulz")
        ]
    view = view_of(TWO, seats=[seat0, seat1], phase="set_sail", to_act=0, start_player=0)
    assert TWO.position_problems(view) == []
    return TWO.from_position(view, seed=4)


def play_phase_4_example(state: DreamCruiseState) -> None:
    send(
        state,
        "build Theater, paying Massage",  # the construction cost: another card from the hand
        "plan Cooking Class",  # covering Invergordon's shore activity ("Loch Ness")
        "send Ertel to Invergordon top",
        "send Ertel to Cooking Class",
        "send Jung to Theater",
        "send Jung to Cooking Class",
    )


def test_phase_4_example() -> None:
    state = phase_4_example(jung_waiting=3)
    play_phase_4_example(state)
    seat = TWO.describe(state).seats[0]
    assert seat.additions[0] == AdditionSpace(card="Theater", guests=["oceanview"])
    assert (seat.bottom_card, seat.bottom_guests) == ("Cooking Class", ["oceanview", "balcony"])
    assert seat.top_guests == ["balcony"]
    assert [c.waiting for c in seat.cabins] == [3, 1, 2]
    assert seat.hand == []
    assert TWO.describe(state).ship_discard == ["Massage"]  # the construction cost paid
    assert not any("Johnson" in p for p in places(state))  # sports only: nowhere to go
    assert "that activity is full" in illegal(state, Place(0, 1))  # Johnson to Cooking Class


@pytest.mark.parametrize("final", [False, True])
def test_phase_5_disembark_example(final: bool) -> None:
    """Phase 5 step 1: Jung's members have all been placed (one in an earlier round, C11);
    the family goes to the points pile and the orange (oceanview) figures leave Theater and
    Cooking Class. In the final round the game ends right after step 1."""
    state = phase_4_example(jung_waiting=2, final=final)
    play_phase_4_example(state)
    send(state, "done")
    while state.current_player == 1:
        send(state, "done")
    after = TWO.describe(state)
    seat = after.seats[0]
    assert "Jung" in seat.points_pile and seat.cabins[1].family is None
    assert seat.additions[0] == AdditionSpace(card="Theater")  # its orange figure left in step 1
    if final:
        assert after.phase == "over"
        assert (seat.bottom_card, seat.bottom_guests) == ("Cooking Class", ["balcony"])  # Ertel's stay
        # 4 families of 3 points, the Mediterranean pair of routes (1), 2 guests placed (1)
        assert state.scores()[0] == 12 + 1 + 1
    else:
        assert after.phase == "boarding"
        assert seat.location is None and seat.bottom_card is None  # steps 2 and 4
        assert "Cooking Class" in after.ship_discard and "Invergordon" in seat.earlier_locations


def test_sailing_route_example() -> None:
    """Routes: 2 Eastern Mediterranean, 4 North Sea and Irish Sea and a sea card. The sea card
    with the North Sea route makes 5 cards (9 points, C1) and the Mediterranean pair 1: 10,
    more than 3 + 6 the other way."""
    seat0 = {
        "cabins": starting("Adler", "Albers", "Arendt"),
        "additions": FREE,
        "location": "Open Sea: Adriatic Sea",
        "earlier_locations": ["Piraeus", "Katakolon", "Amsterdam", "Invergordon", "Skagen", "Dublin"],
        "hand": [],
    }
    seat1 = dict(
        SEAT_1,
        location="Mykonos",
        earlier_locations=["Istanbul", "Kusadasi", "Santorini", "Barcelona", "Livorno", "Naples"],
    )
    view = view_of(TWO, seats=[seat0, seat1], phase="set_sail", to_act=0, start_player=0)
    state = TWO.from_position(view, seed=5)
    assert state.view(0).round == 7
    assert state.view(0).seats[0].route_points == 10
    assert state.scores()[0] == 10
