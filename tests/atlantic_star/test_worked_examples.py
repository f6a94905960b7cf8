"""The rulebook's worked examples, each set up from a description (``game.from_position``
of a compact text or of an ``AtlanticStarPosition``) and played as the example plays it,
checked against the outcome the rulebook states.

The rulebook's examples: the charter agency's shift, the loan limit (a voyage of 8 points
borrows at most 8,000), Oliver's loan (23 falls to 15, from first to third), the hand
limits (six ships cannot sail the Baltic; seven sail only the Atlantic or the Pacific),
Daisy and Oliver opening the Mediterranean, the package operator keeping first place on
equal points, a later voyage of equal points going below, the Baltic's 3 bonus points, and
a ship chartered face up that another seat's view remembers.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

import cruiselib
from cruiselib.atlantic_star import AtlanticStarGame
from cruiselib.atlantic_star.moves import Charter, Loan, Voyage
from cruiselib.atlantic_star.position import AtlanticStarPosition, SeaPosition, SeatPosition, VoyagePosition
from cruiselib.errors import IllegalMoveError

from .helpers import find_voyage, plaque_order, regular_ships


@cache
def game(players: int) -> AtlanticStarGame:
    made = cruiselib.make("atlantic_star", players=players)
    assert isinstance(made, AtlanticStarGame)
    return made


def hidden(g: AtlanticStarGame, *shown: list[str], hands: int = 0) -> int:
    """How many ships lie in the pack when ``shown`` ships are in sight and the other
    hands hold ``hands``."""
    return len(g.ships.ships) - sum(len(names) for names in shown) - hands


def labels(names: list[str]) -> str:
    return ",".join(name.replace(" ", "_") for name in names)


def table(
    g: AtlanticStarGame,
    hands: dict[int, list[str]],
    seas: dict[str, SeaPosition] | None = None,
    agency: list[str] | None = None,
    to_move: int = 0,
) -> AtlanticStarPosition:
    """The whole table: these hands (the others empty), seas and agency (the first four
    ships left, by default), every other ship in the pack by ship id; 18,000 or 36,000
    marks each; ``to_move`` to move at the start of its turn. The start player and what
    the board implies are derived."""
    used = {name for names in hands.values() for name in names}
    for sea in (seas or {}).values():
        used.update(name for voyage in sea.voyages for name in voyage.ships)
    rest = [ship.name for ship in g.ships.ships if ship.name not in used]
    agency = agency or rest[:4]
    pack = [name for name in rest if name not in agency]
    money = int(g.rules.start_money) * 1000
    names = ("Baltic", "Mediterranean", "Atlantic", "Pacific")
    return AtlanticStarPosition(
        seats=[SeatPosition(hand=hands.get(p, []), money=money) for p in range(g.num_players)],
        agency=agency,
        pack=pack,
        seas=[(seas or {}).get(name, SeaPosition()) for name in names],
        to_move=to_move,
        phase="loan",
    )


def set_up(g: AtlanticStarGame, position: Any, seed: int = 1) -> Any:
    """The state ``position`` describes, after checking that it has no problems."""
    assert g.position_problems(position) == []
    return g.from_position(position, seed=seed)


def test_chartering_the_1000_ship_moves_the_dearer_ships_on() -> None:
    """The rulebook: "You have chartered a ship for 1,000 marks": the 2,000 ship moves to 1,000, the
    3,000 ship to 2,000, and the pack's top ship fills the 3,000 space; the free ship stays."""
    g = game(4)
    a, b, c, d = regular_ships(g, 4)
    # Seat 0's view at the start of the game: the pack's 128 ships are hidden.
    text = f"-/-/-/- {labels([a, b, c, d])} ?128 - -/?0/?0/?0 18k/18k/18k/18k 0 loan - 0 -"
    state = set_up(g, text)
    state.apply(Charter(price=1000))
    data = state.to_data()
    names = [g.ships.ships[ship].name for ship in data.agency if ship is not None]
    assert names[1:] == [a, b, d]
    assert names[0] not in (a, b, c, d) and len(data.deck) == 127
    assert [g.ships.ships[ship].name for ship in data.hands[0]] == [c]
    assert data.money[0] == 17_000 and state.current_player == 1


def test_a_loan_may_not_exceed_the_voyage_s_value() -> None:
    """The rulebook: "If your voyage has a value of 8 points, you can borrow a maximum of 8,000 marks."""
    g = game(4)
    baltic = find_voyage(g, "Baltic", 8)
    agency = regular_ships(g, 4, exclude=set(baltic))
    # Seat 0 staged its Baltic voyage; the others chartered a ship a turn meanwhile.
    pack = hidden(g, baltic, agency, hands=12)
    text = f"1*:0={labels(baltic)}/-/-/- {labels(agency)} ?{pack} - -/?4/?4/?4 18k/18k/18k/18k 0 loan - 0 -"
    state = set_up(g, text)
    assert max(m.amount for m in state.legal_moves() if isinstance(m, Loan)) == 8000
    with pytest.raises(IllegalMoveError, match="exceed"):
        state.apply(Loan(sea="Baltic", amount=9000))
    state.apply(Loan(sea="Baltic", amount=8000))
    assert plaque_order(state, "Baltic")[-1] == (("seat", 0), 0)


def test_oliver_s_loan_drops_his_23_point_voyage_from_first_to_third() -> None:
    """5★ Mediterranean: 23, 19, 15 and 11 points. Oliver borrows 8,000 marks on his 23:
    it is worth 15 and drops to third, behind the other 15; the 19-point voyage leads."""
    g = game(3)
    used: set[str] = set()
    voyages = []
    for seat, second, value in [(0, False, 23), (1, False, 19), (2, False, 15), (1, True, 11)]:
        ships = find_voyage(g, "Mediterranean", value, exclude=used)
        used.update(ships)
        voyages.append(VoyagePosition(seat=seat, second=second, ships=ships))
    fillers = regular_ships(g, 10, exclude=used)
    # Oliver (seat 0) and seat 2 each hold five ships: every seat has had ten turns.
    position = table(
        g,
        hands={0: fillers[:5], 2: fillers[5:]},
        seas={"Mediterranean": SeaPosition(stars=5, voyages=voyages)},
    )
    state = set_up(g, g.position_text(position))
    assert plaque_order(state, "Mediterranean") == [
        (("seat", 0), 23),
        (("seat", 1), 19),
        (("seat", 2), 15),
        (("seat", 1), 11),
    ]
    assert state.scores() == [30, 20 + 4, 10]
    state.apply(Loan(sea="Mediterranean", amount=8000))
    assert plaque_order(state, "Mediterranean") == [
        (("seat", 1), 19),
        (("seat", 2), 15),
        (("seat", 0), 15),
        (("seat", 1), 11),
    ]
    assert state.scores() == [10, 30 + 4, 20]  # A2, 5★: 30, 20, 10, 4
    assert state.to_data().money[0] == 36_000 + 8_000


def test_six_ships_cannot_sail_the_baltic() -> None:
    """Six ships are one too many for a Baltic voyage (3 + 2): the voyage must have at
    least four legs."""
    g = game(4)
    hand = regular_ships(g, 6)
    agency = regular_ships(g, 10, exclude=set(hand))[:4]
    pack = hidden(g, hand, agency, hands=18)
    state = set_up(g, f"-/-/-/- {labels(agency)} ?{pack} - {labels(hand)}/?6/?6/?6 12k/12k/12k/12k 0 loan - 0 -")
    assert {m.sea for m in state.legal_moves() if isinstance(m, Voyage)} == {"Mediterranean", "Atlantic", "Pacific"}
    with pytest.raises(IllegalMoveError, match="hand size"):
        state.apply(Voyage(sea="Baltic", stars=1, keep=(0, 1)))


def test_seven_ships_sail_only_the_atlantic_or_the_pacific() -> None:
    """The rulebook: "With 7 cards in your hand you are only able to conduct one voyage in the Atlantic
    or the Pacific."""
    g = game(4)
    hand = regular_ships(g, 7)
    agency = regular_ships(g, 11, exclude=set(hand))[:4]
    pack = hidden(g, hand, agency, hands=21)
    state = set_up(g, f"-/-/-/- {labels(agency)} ?{pack} - {labels(hand)}/?7/?7/?7 11k/11k/11k/11k 0 loan - 0 -")
    assert {m.sea for m in state.legal_moves() if isinstance(m, Voyage)} == {"Atlantic", "Pacific"}


def test_daisy_opens_the_mediterranean_and_oliver_s_23_goes_above() -> None:
    """Daisy stages the first Mediterranean voyage, 19 points in the 5★ class: the top
    field. Oliver's 23 points push her down to second place."""
    g = game(3)
    daisy = find_voyage(g, "Mediterranean", 19)
    oliver = find_voyage(g, "Mediterranean", 23, exclude=set(daisy))
    other = regular_ships(g, 4, exclude=set(daisy + oliver))
    state = set_up(g, table(g, hands={0: daisy, 1: oliver, 2: other}))
    state.apply(Voyage(sea="Mediterranean", stars=5))
    assert plaque_order(state, "Mediterranean") == [(("seat", 0), 19)]
    state.apply(Voyage(sea="Mediterranean", stars=5))
    assert plaque_order(state, "Mediterranean") == [(("seat", 1), 23), (("seat", 0), 19)]
    assert state.scores()[:2] == [20, 30]


def test_the_package_operator_keeps_first_place_on_equal_points() -> None:
    """5 players: the Baltic operator's plaque is worth 15 and enters with the first
    voyage; a 15-point voyage goes below it, only 16 points force it out of first place."""
    g = game(5)
    equal = find_voyage(g, "Baltic", 15)
    better = find_voyage(g, "Baltic", 16, exclude=set(equal))
    for ships, order in [
        (equal, [(("op", 0), 15), (("seat", 0), 15)]),
        (better, [(("seat", 0), 16), (("op", 0), 15)]),
    ]:
        agency = regular_ships(g, 4, exclude=set(ships))
        pack = hidden(g, ships, agency, hands=12)
        text = f"-/-/-/- {labels(agency)} ?{pack} - {labels(ships)}/?3/?3/?3/?3 18k/18k/18k/18k/18k 0 loan - 0 -"
        state = set_up(g, text)
        state.apply(Voyage(sea="Baltic", stars=3))
        assert plaque_order(state, "Baltic") == order


def test_a_later_voyage_of_equal_points_goes_below() -> None:
    """The rulebook: "Voyages of the equal points: those conducted later will be placed one field below
    the voyage(s) with the same number of points already on the board."""
    g = game(3)
    first = find_voyage(g, "Baltic", 11)
    second = find_voyage(g, "Baltic", 11, exclude=set(first))
    fillers = regular_ships(g, 3, exclude=set(first + second))
    # Seat 0 started and staged an 11 (four turns); seat 1, to move, holds an 11 too.
    position = table(
        g,
        hands={1: second, 2: fillers},
        seas={"Baltic": SeaPosition(stars=1, voyages=[VoyagePosition(seat=0, ships=first)])},
        to_move=1,
    )
    state = set_up(g, position)
    state.apply(Voyage(sea="Baltic", stars=1))
    assert plaque_order(state, "Baltic") == [(("seat", 0), 11), (("seat", 1), 11)]


def test_a_baltic_voyage_with_every_leg_covered_earns_3_bonus_points() -> None:
    """The rulebook: "There are 3 bonus points for a Baltic voyage" with every leg properly covered."""
    g = game(6)
    ships = find_voyage(g, "Baltic", 14)
    printed = sum(
        entry.value
        for name in ships
        for entry in g.ships.ships[g.ships.index[name]].legs
        if entry.sea == "Baltic" and name == ships[entry.leg - 1]
    )
    agency = regular_ships(g, 4, exclude=set(ships))
    pack = hidden(g, ships, agency, hands=15)
    hands = "/".join([labels(ships)] + ["?3"] * 5)
    state = set_up(g, f"-/-/-/- {labels(agency)} ?{pack} - {hands} {'/'.join(['18k'] * 6)} 0 loan - 0 -")
    state.apply(Voyage(sea="Baltic", stars=2))
    assert plaque_order(state, "Baltic") == [(("seat", 0), printed + 3)]


def test_a_seat_remembers_the_ship_it_saw_chartered() -> None:
    """The agency's ships lie face up (the rulebook turns the top four up), so when seat 0
    charters the 1,000 ship every seat knows seat 0 holds it (A14). Seat 1's view names it
    in seat 0's hidden hand, and set up from that view with any seed seat 0 holds it; a
    view that remembers nothing deals seat 0 any ship seat 1 cannot see (A15)."""
    g = game(4)
    a, b, c, d = regular_ships(g, 4)
    state = set_up(g, f"-/-/-/- {labels([a, b, c, d])} ?128 - -/?0/?0/?0 18k/18k/18k/18k 0 loan - 0 -")
    state.apply(Charter(price=1000))
    text = g.position_text(state, 1)
    assert text.split(" ")[4] == f"?1:{labels([c])}/-/?0/?0"
    held = set()
    for seed in range(1, 5):
        built = set_up(g, text, seed=seed)
        assert [g.ships.ships[ship].name for ship in built.to_data().hands[0]] == [c]
        assert built.view(1, recall=True) == state.view(1, recall=True)
        forgetting = set_up(g, text.replace(f"?1:{labels([c])}", "?1"), seed=seed)
        held.add(forgetting.to_data().hands[0][0])
    assert len(held) > 1
