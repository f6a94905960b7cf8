"""Named tests of every rule and ruling (A1-A8, A9+) of Atlantic Star; the rulebook's worked
examples are set up from their descriptions in test_worked_examples.py (the agency shift here too:
it names the ship the pack's top gives, which a seat's view deals at random)."""

from __future__ import annotations

from typing import Any

import pytest

import cruiselib
from cruiselib import IllegalMoveError, InvalidOptionError
from cruiselib.atlantic_star import Charter, Loan, Refresh, ShipList, Voyage

from .helpers import (
    build,
    find_voyage,
    game,
    mail_ships,
    plaque_order,
    regular_ships,
    sailed,
    sid,
)


def ship_names(g: Any, ids: list[Any]) -> list[str]:
    return [g.ships.ships[i].name for i in ids]


# ---------------------------------------------------------------- setup


@pytest.mark.parametrize(
    ("players", "marks"), [(2, 36000), (3, 36000), (4, 18000), (5, 18000), (6, 18000)]
)
def test_starting_capital_by_player_count(players: int, marks: int) -> None:
    state = game(players).new_state(seed=1)
    assert state.to_data().money == [marks] * players
    assert state.view(0).money == [marks] * players


def test_setup_four_agency_offers_from_the_top_of_the_pack() -> None:
    g = game(4)
    state = g.new_state(seed=5)
    d = state.to_data()
    assert len(d.deck) == 132 - 4
    assert all(c is not None for c in d.agency)
    moves = state.legal_moves()
    assert [m.price for m in moves if isinstance(m, Charter)] == [3000, 2000, 1000, 0]
    assert Refresh() in moves
    assert not any(isinstance(m, (Loan, Voyage)) for m in moves)


@pytest.mark.parametrize(("players", "ops"), [(2, 2), (3, 0), (4, 2), (5, 1), (6, 0)])
def test_package_operator_sets_by_player_count_A3(players: int, ops: int) -> None:
    g = game(players)
    assert g.num_operators == ops
    # Every sea ends with exactly 6 plaques (A3).
    state = g.new_state(seed=players)
    import random

    rnd = random.Random(players)
    while not state.is_over:
        state.apply(rnd.choice(state.legal_actions()))
    for sea in state.to_data().seas:
        assert len(sea.plaques) == 6
        assert sum(1 for p in sea.plaques if p.seat is None) == ops


def test_operator_values_A3() -> None:
    assert [game(5).rules.operator_value(0, s) for s in range(4)] == [15, 20, 25, 30]
    for n in (2, 4):
        assert [game(n).rules.operator_value(0, s) for s in range(4)] == [13, 18, 23, 28]
        assert [game(n).rules.operator_value(1, s) for s in range(4)] == [17, 22, 27, 32]


# ---------------------------------------------------------------- charter agency


def test_charter_shift_rulebook_example() -> None:
    """Chartering the 1,000 ship: the 2,000 ship moves to 1,000, the 3,000 ship to 2,000,
    the top of the pack fills 3,000; the free ship stays."""
    g = game(4)
    a, b, c, d, top = regular_ships(g, 5)
    state = build(g, agency=[a, b, c, d], deck_top=[top])
    state.apply(Charter(price=1000))
    data = state.to_data()
    assert ship_names(g, data.agency) == [top, a, b, d]
    assert data.money[0] == 17000
    assert ship_names(g, data.hands[0]) == [c]
    assert state.current_player == 1


def test_charter_free_ship_all_dearer_ships_advance() -> None:
    g = game(4)
    a, b, c, d, top = regular_ships(g, 5)
    state = build(g, agency=[a, b, c, d], deck_top=[top])
    state.apply(Charter(price=0))
    assert ship_names(g, state.to_data().agency) == [top, a, b, c]
    assert state.to_data().money[0] == 18000


def test_charter_dearest_ship_only_refills() -> None:
    g = game(4)
    a, b, c, d, top = regular_ships(g, 5)
    state = build(g, agency=[a, b, c, d], deck_top=[top])
    state.apply(Charter(price=3000))
    assert ship_names(g, state.to_data().agency) == [top, b, c, d]
    assert state.to_data().money[0] == 15000


def test_charter_needs_the_fee_but_the_free_ship_is_always_affordable() -> None:
    g = game(4)
    state = build(g, money=[1000, 18000, 18000, 18000])
    prices = [m.price for m in state.legal_moves() if isinstance(m, Charter)]
    assert prices == [1000, 0]
    with pytest.raises(IllegalMoveError, match="cannot pay"):
        state.apply(Charter(price=2000))


def test_one_charter_per_turn() -> None:
    g = game(4)
    state = g.new_state(seed=2, start_player=0)
    state.apply(Charter(price=0))
    assert state.current_player == 1


def test_refresh_replaces_all_four_for_2000() -> None:
    g = game(4)
    old = regular_ships(g, 4)
    new = regular_ships(g, 8)[4:]
    # new[0] is drawn first and goes on the 3,000 space
    state = build(g, agency=old, deck_top=list(reversed(new)))
    state.apply(Refresh())
    data = state.to_data()
    assert ship_names(g, data.agency) == new
    assert ship_names(g, data.discard) == old
    assert data.money[0] == 16000
    assert state.current_player == 0  # the turn goes on: charter or voyage


def test_refresh_repeatable_while_money_lasts() -> None:
    g = game(4)
    state = build(g, money=[4000, 18000, 18000, 18000])
    state.apply(Refresh())
    state.apply(Refresh())
    assert state.to_data().money[0] == 0
    assert Refresh() not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="2,000"):
        state.apply(Refresh())
    assert [m.price for m in state.legal_moves() if isinstance(m, Charter)] == [0]


def test_discard_pile_reshuffled_when_pack_runs_out() -> None:
    g = game(4)
    names = [s.name for s in g.ships.ships]
    agency = names[:4]
    deck = names[4:6]  # two ships left in the pack
    discard = names[6:130]  # 31 refreshes' ships: the seats paid 62,000 for them
    state = build(
        g,
        agency=agency,
        deck=deck,
        discard=discard,
        hands={2: [names[130]], 3: [names[131]]},
        money=[4000, 2000, 2000, 2000],
    )
    assert state.to_data().start_player == 2  # seats 2 and 3 chartered one ship each
    state.apply(Refresh())
    data = state.to_data()
    # The two pack ships come first (top = last), then the reshuffled discard pile,
    # which already holds the four removed ships.
    assert ship_names(g, data.agency[:2]) == [deck[1], deck[0]]
    assert data.discard == []
    assert len(data.deck) == len(discard) + 4 - 2
    assert sorted(data.deck + [c for c in data.agency if c is not None]) == sorted(
        sid(g, x) for x in agency + discard + deck
    )


# ---------------------------------------------------------------- turn order


def med_setup(players: int = 4) -> tuple[Any, Any]:
    g = game(players)
    ships = find_voyage(g, "Mediterranean", 12)
    ops = [("op", j) for j in reversed(range(g.rules.num_ops))]
    state = build(
        g,
        seas={"Mediterranean": (3, [*ops, ("seat", 0, 0, ships, 0)])},
        money=[2000] + [g.rules.start_money * 1000] * (players - 1),
    )
    return g, state


def test_turn_order_loan_first_then_refresh_then_charter() -> None:
    _g, state = med_setup()
    loans = [m for m in state.legal_moves() if isinstance(m, Loan)]
    assert [m.amount for m in loans] == [k * 1000 for k in range(1, 11)]
    state.apply(Refresh())
    assert not any(isinstance(m, Loan) for m in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="first thing"):
        state.apply(Loan(sea="Mediterranean", amount=1000))


def test_one_loan_per_turn_A9() -> None:
    g = game(4)
    med = find_voyage(g, "Mediterranean", 12)
    bal = find_voyage(g, "Baltic", 9, exclude=set(med))
    # The other seats have had as many turns: each staged an Atlantic voyage (A9).
    atlantic = sailed(g, {"Atlantic": (4, [1, 2, 3])}, set(med + bal))
    state = build(
        g,
        seas={
            "Mediterranean": (3, [("op", 1), ("op", 0), ("seat", 0, 0, med, 0)]),
            "Baltic": (2, [("op", 1), ("op", 0), ("seat", 0, 0, bal, 0)]),
            **atlantic,
        },
    )
    assert {m.sea for m in state.legal_moves() if isinstance(m, Loan)} == {
        "Mediterranean",
        "Baltic",
    }
    state.apply(Loan(sea="Mediterranean", amount=2000))
    assert not any(isinstance(m, Loan) for m in state.legal_moves())
    assert state.current_player == 0
    assert Refresh() in state.legal_moves()


def test_loan_only_on_a_sea_already_sailed() -> None:
    g, state = med_setup()
    with pytest.raises(IllegalMoveError, match="not staged"):
        state.apply(Loan(sea="Baltic", amount=1000))
    fresh = g.new_state(seed=1)
    assert not any(isinstance(m, Loan) for m in fresh.legal_moves())


def test_loan_lowers_value_one_point_per_1000_and_pays_money() -> None:
    _g, state = med_setup()
    state.apply(Loan(sea="Mediterranean", amount=3000))
    data = state.to_data()
    plaque = next(p for p in data.seas[1].plaques if p.seat == 0)
    assert (plaque.value, plaque.loan) == (9, 3000)
    assert data.money[0] == 5000


def test_loan_at_most_10000() -> None:
    g = game(4)
    ships = find_voyage(g, "Pacific", 26)
    state = build(g, seas={"Pacific": (5, [("op", 1), ("op", 0), ("seat", 0, 0, ships, 0)])})
    amounts = [m.amount for m in state.legal_moves() if isinstance(m, Loan)]
    assert max(amounts) == 10000
    with pytest.raises(IllegalMoveError):
        g.move_to_action(Loan(sea="Pacific", amount=11000))


def test_loan_once_per_sea_even_when_sailed_twice() -> None:
    g = game(3)
    first = find_voyage(g, "Mediterranean", 12)
    second = find_voyage(g, "Mediterranean", 10, exclude=set(first))
    # The other seats have had as many turns: each staged a Baltic voyage (A9).
    baltic = sailed(g, {"Baltic": (1, [1, 2])}, set(first + second))
    state = build(
        g,
        seas={
            "Mediterranean": (4, [("seat", 0, 0, first, 0), ("seat", 0, 1, second, 0)]),
            **baltic,
        },
    )
    loans = [m for m in state.legal_moves() if isinstance(m, Loan)]
    assert {m.voyage for m in loans} == {0, 1}
    state.apply(Loan(sea="Mediterranean", amount=2000, voyage=1))
    # next turns: no more loans in that sea, on either voyage
    state.apply(Charter(price=0))
    state.apply(Charter(price=0))
    state.apply(Charter(price=0))
    assert state.current_player == 0
    assert not any(isinstance(m, Loan) for m in state.legal_moves())


def test_no_loan_once_the_class_is_full() -> None:
    g = game(6)
    used: set[str] = set()
    plaques = []
    for seat, value in enumerate([26, 24, 22, 20, 18, 16]):
        names = find_voyage(g, "Mediterranean", value, exclude=used)
        used.update(names)
        plaques.append(("seat", seat, 0, names, 0))
    state = build(g, seas={"Mediterranean": (2, plaques)})
    assert not any(isinstance(m, Loan) for m in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="full"):
        state.apply(Loan(sea="Mediterranean", amount=1000))


# ---------------------------------------------------------------- hand limits (A6)


def test_voyage_needs_at_least_the_legs() -> None:
    g = game(4)
    state = build(g, hands={0: regular_ships(g, 2)})
    assert not any(isinstance(m, Voyage) for m in state.legal_moves())
    state = build(g, hands={0: regular_ships(g, 3)})
    assert {m.sea for m in state.legal_moves() if isinstance(m, Voyage)} == {"Baltic"}


def test_charter_only_if_hand_fits_a_remaining_voyage_A6() -> None:
    g = game(4)
    state = build(g, hands={0: regular_ships(g, 8)})
    assert not any(isinstance(m, Charter) for m in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="legs \\+ 2"):
        state.apply(Charter(price=0))
    # Only the Baltic left to sail: at most 3 + 2 = 5 cards. (Every seat has sailed the
    # other seas, so that all have had as many turns, A9.)
    used: set[str] = set()
    seas = sailed(
        g,
        {sea: (stars, [0, 1, 2, 3]) for sea, stars in (("Mediterranean", 1), ("Atlantic", 2), ("Pacific", 3))},
        used,
    )
    hand = regular_ships(g, 5, exclude=used)
    state = build(g, hands={0: hand[:4]}, seas=seas)
    assert any(isinstance(m, Charter) for m in state.legal_moves())
    state = build(g, hands={0: hand}, seas=seas)
    assert not any(isinstance(m, Charter) for m in state.legal_moves())
    assert {m.sea for m in state.legal_moves() if isinstance(m, Voyage)} == {"Baltic"}


def test_voyage_keeps_at_most_two_and_discards_played_ships() -> None:
    g = game(4)
    hand = regular_ships(g, 5)
    state = build(g, hands={0: hand})
    moves = [m for m in state.legal_moves() if isinstance(m, Voyage) and m.sea == "Baltic"]
    assert {len(m.keep) for m in moves} == {2}
    assert len(moves) == 5 * 10  # 5 classes x C(5, 2) keep pairs
    move = next(m for m in moves if m.stars == 3 and m.keep == (1, 4))
    state.apply(move)
    data = state.to_data()
    kept = sorted(hand, key=lambda n: sid(g, n))
    assert ship_names(g, data.hands[0]) == [kept[1], kept[4]]
    played = next(p for p in data.seas[0].plaques if p.seat == 0).ships
    assert sorted(played) == sorted(sid(g, kept[i]) for i in (0, 2, 3))


# ---------------------------------------------------------------- classes and ranking


def test_class_choice_first_voyage_chooses_any_free_class() -> None:
    g = game(4)
    state = build(g, hands={0: regular_ships(g, 3)})
    assert {m.stars for m in state.legal_moves() if isinstance(m, Voyage)} == {1, 2, 3, 4, 5}
    state.apply(Voyage(sea="Baltic", stars=2))
    assert state.to_data().seas[0].stars == 2


def test_class_choice_later_voyages_take_the_sea_class_and_other_seas_not() -> None:
    g = game(4)
    med = find_voyage(g, "Mediterranean", 15)
    hand = regular_ships(g, 4, exclude=set(med))
    state = build(
        g,
        hands={0: hand},
        seas={"Mediterranean": (5, [("op", 1), ("op", 0), ("seat", 1, 0, med, 0)])},
    )
    stars = {(m.sea, m.stars) for m in state.legal_moves() if isinstance(m, Voyage)}
    assert stars == {
        ("Mediterranean", 5),
        ("Baltic", 1),
        ("Baltic", 2),
        ("Baltic", 3),
        ("Baltic", 4),
    }
    with pytest.raises(IllegalMoveError, match="another class"):
        state.apply(Voyage(sea="Mediterranean", stars=4))
    with pytest.raises(IllegalMoveError, match="already taken"):
        state.apply(Voyage(sea="Baltic", stars=5, keep=(0,)))
    assert state.view(0).free_classes == [1, 2, 3, 4]


def test_equal_values_later_voyage_goes_below_A7() -> None:
    g = game(3)
    first = find_voyage(g, "Baltic", 11)
    second = find_voyage(g, "Baltic", 11, exclude=set(first))
    state = build(g, hands={0: first, 1: second})
    state.apply(Voyage(sea="Baltic", stars=1))
    state.apply(Voyage(sea="Baltic", stars=1))
    assert plaque_order(state, "Baltic") == [(("seat", 0), 11), (("seat", 1), 11)]


def test_operator_plaques_come_first_on_the_first_voyage_A3() -> None:
    g = game(4)
    ships = find_voyage(g, "Atlantic", 25)
    state = build(g, hands={0: ships})
    assert plaque_order(state, "Atlantic") == []
    state.apply(Voyage(sea="Atlantic", stars=4))
    assert plaque_order(state, "Atlantic") == [(("op", 1), 27), (("seat", 0), 25), (("op", 0), 23)]


def test_loan_down_to_an_operators_value_goes_below_it_A7() -> None:
    g = game(5)
    ships = find_voyage(g, "Baltic", 17)
    state = build(g, seas={"Baltic": (3, [("seat", 0, 0, ships, 0), ("op", 0)])})
    state.apply(Loan(sea="Baltic", amount=2000))
    assert plaque_order(state, "Baltic") == [(("op", 0), 15), (("seat", 0), 15)]


# ---------------------------------------------------------------- voyage value (A1, A5)


def custom_list(extra: list[dict[str, Any]]) -> ShipList:
    """The standard list with its first ships replaced by ``extra``."""
    import msgspec

    std = msgspec.to_builtins(ShipList.standard())
    std["ships"] = list(extra) + list(std["ships"])[len(extra) :]
    return ShipList.from_json(msgspec.json.encode(std))


def test_optimal_assignment_beats_greedy_A5() -> None:
    """X fits Pacific legs 1 (5) and 2 (4); Y only leg 1 (4). Greedy puts X on leg 1 and
    loses Y and the bonus; the optimal assignment puts Y on 1 and X on 2."""
    pac = [{"sea": "Pacific", "leg": leg, "value": 3} for leg in range(3, 7)]
    ships = [
        {
            "name": "X",
            "legs": [
                {"sea": "Pacific", "leg": 1, "value": 5},
                {"sea": "Pacific", "leg": 2, "value": 4},
            ],
        },
        {"name": "Y", "legs": [{"sea": "Pacific", "leg": 1, "value": 4}]},
    ] + [{"name": f"P{i}", "legs": [pac[i]]} for i in range(4)]
    g: Any = cruiselib.make("atlantic_star", ships=custom_list(ships))
    value, bonus, by_leg = g.voyage_value(["X", "Y", "P0", "P1", "P2", "P3"], "Pacific")
    assert (value, bonus) == (4 + 4 + 4 * 3 + 6, True)
    assert by_leg == ["Y", "X", "P0", "P1", "P2", "P3"]
    # greedy (best ship per leg in leg order) would give 5 + 0 + 12 = 17 without bonus
    assert value > 17


def test_unsuited_ship_scores_zero_and_cancels_the_bonus_A5() -> None:
    g = game(4)
    good = find_voyage(g, "Baltic", 12)  # 9 + bonus 3
    no_baltic = next(
        s.name for s in g.ships.ships if not s.mail and all(e.sea != "Baltic" for e in s.legs)
    )
    value, bonus, by_leg = g.voyage_value([*good[:2], no_baltic], "Baltic")
    raw = sum(
        e.value
        for name, leg in zip(by_leg, (1, 2, 3), strict=True)
        for e in g.ships.ships[g.ships.index[name]].legs
        if e.sea == "Baltic" and e.leg == leg
    )
    assert not bonus
    assert value == raw
    assert value < 12


def test_surplus_ship_for_the_same_leg_is_an_emergency_solution() -> None:
    pac = [{"sea": "Baltic", "leg": 2, "value": 2}, {"sea": "Baltic", "leg": 3, "value": 2}]
    ships = [
        {"name": "A", "legs": [{"sea": "Baltic", "leg": 1, "value": 5}]},
        {"name": "B", "legs": [{"sea": "Baltic", "leg": 1, "value": 4}]},
        {"name": "C", "legs": [pac[0]]},
        {"name": "D", "legs": [pac[1]]},
    ]
    g: Any = cruiselib.make("atlantic_star", ships=custom_list(ships))
    assert g.voyage_value(["A", "B", "C"], "Baltic")[:2] == (7, False)
    assert g.voyage_value(["A", "C", "D"], "Baltic")[:2] == (9 + 3, True)


def test_mail_ship_sails_any_leg_for_one_point_and_keeps_the_bonus() -> None:
    g = game(4)
    mail = mail_ships(g)
    value, bonus, by_leg = g.voyage_value(mail[:3], "Baltic")
    assert (value, bonus, sorted(by_leg)) == (3 + 3, True, sorted(mail[:3]))
    assert g.voyage_value(mail[:6], "Pacific")[:2] == (6 + 6, True)
    good = find_voyage(g, "Mediterranean", 16)
    value, bonus, _ = g.voyage_value([*good[:3], mail[0]], "Mediterranean")
    leg_values = 16 - 4
    assert bonus
    assert value >= 1 + 4
    assert value <= leg_values + 1 + 4


@pytest.mark.parametrize(
    ("sea", "legs"), [("Baltic", 3), ("Mediterranean", 4), ("Atlantic", 5), ("Pacific", 6)]
)
def test_bonus_equals_the_number_of_legs_A1(sea: str, legs: int) -> None:
    g = game(4)
    mail = mail_ships(g)
    assert g.voyage_value(mail[:legs], sea)[:2] == (2 * legs, True)


def test_voyage_value_takes_the_better_of_bonus_and_raw_A5() -> None:
    ships = [
        {"name": "A", "legs": [{"sea": "Baltic", "leg": 1, "value": 9}]},
        {"name": "B", "legs": [{"sea": "Baltic", "leg": 1, "value": 9}]},
        {"name": "C", "legs": [{"sea": "Baltic", "leg": 1, "value": 9}]},
    ]
    g: Any = cruiselib.make("atlantic_star", ships=custom_list(ships))
    assert g.voyage_value(["A", "B", "C"], "Baltic")[:2] == (9, False)


def test_voyage_move_str_names_ships_and_points() -> None:
    g = game(4)
    ships = find_voyage(g, "Pacific", 31)
    state = build(g, hands={0: ships})
    move = next(
        m
        for m in state.legal_moves()
        if isinstance(m, Voyage) and m.stars == 4 and m.sea == "Pacific"
    )
    text = str(move)
    assert text.startswith("voyage Pacific 4★ with ")
    assert text.endswith(": 31 points")
    assert all(name in text for name in ships)
    assert move == g.action_to_move(g.move_to_action(move))


def test_a_one_point_voyage_says_one_point() -> None:
    """A Baltic voyage of one ship worth 1 on leg 1 and two ships with no Baltic leg is
    worth 1 (the unsuited ships count 0 and cancel the bonus, A5): its text says "1 point",
    and the older "1 points" still names it."""
    other = [{"sea": "Pacific", "leg": 1, "value": 5}]
    ships = [
        {"name": "A", "legs": [{"sea": "Baltic", "leg": 1, "value": 1}]},
        {"name": "B", "legs": other},
        {"name": "C", "legs": other},
    ]
    g: Any = cruiselib.make("atlantic_star", ships=custom_list(ships))
    state = build(g, hands={0: ["A", "B", "C"]})
    move = next(m for m in state.legal_moves() if isinstance(m, Voyage) and m.sea == "Baltic")
    assert str(move).endswith(": 1 point") and g.voyage_value(["A", "B", "C"], "Baltic")[:2] == (1, False)
    said = state.move_text(move)
    assert ": 1 point" in said and "1 points" not in said
    for text in (str(move), str(move).replace("1 point", "1 points")):
        assert g.parse_move(text, state) == move


# ---------------------------------------------------------------- two voyages, end, scoring


@pytest.mark.parametrize(("players", "voyages"), [(2, 8), (3, 8), (4, 4), (5, 4), (6, 4)])
def test_voyages_per_seat_two_per_sea_with_two_or_three_players(players: int, voyages: int) -> None:
    state = game(players).new_state(seed=9)
    assert state.view(0).voyages_left == [voyages] * players


def test_second_voyage_in_the_same_sea_with_three_players() -> None:
    g = game(3)
    first = find_voyage(g, "Baltic", 10)
    hand = find_voyage(g, "Baltic", 9, exclude=set(first))
    state = build(g, hands={0: hand}, seas={"Baltic": (2, [("seat", 0, 0, first, 0)])})
    state.apply(Voyage(sea="Baltic", stars=2))
    assert plaque_order(state, "Baltic") == [(("seat", 0), 10), (("seat", 0), 9)]
    assert state.view(0).voyages_left[0] == 6


def finished_position(players: int = 4) -> tuple[Any, Any]:
    """A position one voyage from the end: every sea full but the Baltic."""
    g = game(players)
    used: set[str] = set()
    seas: dict[str, tuple[int, list[tuple[object, ...]]]] = {}
    for sea, stars, base in (("Pacific", 3, 24), ("Atlantic", 2, 17), ("Mediterranean", 1, 14)):
        plaques: list[tuple[object, ...]] = [("op", 1), ("op", 0)]
        for seat in range(4):  # seat 0 best, seat 3 worst
            names = find_voyage(g, sea, base + 3 - seat, exclude=used)
            used.update(names)
            plaques.append(("seat", seat, 0, names, 0))
        seas[sea] = (stars, plaques)
    baltic: list[tuple[object, ...]] = [("op", 1), ("op", 0)]
    for seat, value in ((1, 12), (2, 11), (3, 10)):
        names = find_voyage(g, "Baltic", value, exclude=used)
        used.update(names)
        baltic.append(("seat", seat, 0, names, 0))
    last = find_voyage(g, "Baltic", 9, exclude=used)
    seas["Baltic"] = (5, baltic)
    return g, build(g, hands={0: last}, seas=seas)


def test_game_ends_when_all_plaques_are_placed_and_scores_A8() -> None:
    _g, state = finished_position()
    assert not state.is_over
    state.apply(Voyage(sea="Baltic", stars=5))
    assert state.is_over
    assert state.current_player == -1
    assert plaque_order(state, "Baltic") == [
        (("op", 1), 17),
        (("op", 0), 13),
        (("seat", 1), 12),
        (("seat", 2), 11),
        (("seat", 3), 10),
        (("seat", 0), 9),
    ]
    # Baltic 5★: 30 20 | 10 4 1 0; Med 1★ 14 12 | 10 8 6 4; Atl 2★ 18 14 | 10 7 4 2;
    # Pac 3★ 22 16 | 10 6 3 1 (operators hold the top two fields everywhere)
    assert state.scores() == [
        0 + 10 + 10 + 10,
        10 + 8 + 7 + 6,
        4 + 6 + 4 + 3,
        1 + 4 + 2 + 1,
    ]
    assert state.winners() == [1]
    assert state.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="over"):
        state.apply(Refresh())


def test_ties_more_money_wins_then_shared_A8() -> None:
    board = [[0] * 6] * 5  # every field worth 0: all tie on points
    g: Any = cruiselib.make("atlantic_star", players=4, board=board)
    import random

    state = g.new_state(seed=4)
    rnd = random.Random(0)
    while not state.is_over:
        state.apply(rnd.choice(state.legal_actions()))
    money = state.to_data().money
    best = max(money)
    assert state.scores() == [0, 0, 0, 0]
    assert state.winners() == [p for p in range(4) if money[p] == best]
    # shared win: equal points and equal money
    data = state.to_data()
    import msgspec

    raw = msgspec.to_builtins(data)
    raw["money"] = [5000, 5000, 1000, 5000]
    assert g.load_state(raw).winners() == [0, 1, 3]


def test_finished_seat_takes_no_more_turns_A9() -> None:
    g = game(4)
    used: set[str] = set()
    # Seat 1 has staged all four voyages; the others three each (as many turns, A9).
    seas = sailed(
        g,
        {
            "Baltic": (1, [1, 0, 2, 3]),
            "Mediterranean": (2, [1, 0, 2, 3]),
            "Atlantic": (3, [1, 0, 2, 3]),
            "Pacific": (4, [1]),
        },
        used,
    )
    state = build(g, seas=seas, current=0)
    assert state.view(0).voyages_left == [1, 0, 1, 1]
    state.apply(Charter(price=0))
    assert state.current_player == 2  # seat 1 has staged all four voyages
    assert state.view(0).voyages_left[1] == 0


def test_board_table_is_an_option_A2() -> None:
    assert game(4).board[4] == (30, 20, 10, 4, 1, 0)
    assert game(4).board[0] == (14, 12, 10, 8, 6, 4)
    flat = [[1, 1, 1, 1, 1, 1]] * 5
    g: Any = cruiselib.make("atlantic_star", players=4, board=flat)
    assert g.options["board"] == tuple(tuple(c) for c in flat)
    p = g.playouts(30, seed=3)
    assert (p.scores == 4).all()  # four plaques, one point each
    for bad in ([[1] * 6] * 4, [[1, 2, 3, 4, 5, 6]] * 5, [[1] * 5] * 5, "board", [[1.5] * 6] * 5):
        with pytest.raises(InvalidOptionError):
            cruiselib.make("atlantic_star", board=bad)


@pytest.mark.parametrize("seed", range(12))
def test_best_voyage_equals_brute_force_over_every_subset_A5(seed: int) -> None:
    """The core's best voyage (prefix-sharing DP) against every legs-card subset."""
    import itertools
    import random

    g = game(4)
    rnd = random.Random(seed)
    for sea, legs in (("Baltic", 3), ("Mediterranean", 4), ("Atlantic", 5), ("Pacific", 6)):
        hand = rnd.sample([s.name for s in g.ships.ships], legs + seed % 3)
        state = build(g, hands={0: hand})
        value, move = state.best_voyage(sea)
        brute = max(g.voyage_value(list(c), sea)[0] for c in itertools.combinations(hand, legs))
        assert value == brute
        assert move is not None
        assert move.points == brute
