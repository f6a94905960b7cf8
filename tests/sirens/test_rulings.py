"""Sirens in Sight: every rule of the rulebook and every ruling S1–S10 as a named test.

Seat 0 and seat 1 play; positions are built from card values (see helpers.build). The
rulebook's worked examples are set up from their descriptions in test_worked_examples.py.
"""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

import cruiselib
from cruiselib.sirens import (
    Card,
    CardSet,
    EndTurn,
    MoveCard,
    MoveCrew,
    Pass,
    PickCard,
    PlayCard,
    SirensGame,
    UseRum,
)
from tests.sirens.helpers import FULL, build, small_set, values_on

GAME = cruiselib.make("sirens")
SMALL = cruiselib.make("sirens", cards=small_set(12))  # 10 10 0 0 9 9 -4 -4 8 8 7 7


def crew_ships(state: cruiselib.State) -> dict[str, int | None]:
    return {c.name: c.ship for c in state.view(0).crew}


# --------------------------------------------------------------------------- S1


def test_S1_standard_deck_has_52_cards_in_two_even_emblem_sets() -> None:
    cards = CardSet.standard().cards
    assert len(cards) == 52
    assert Counter(c.value for c in cards) == {**dict.fromkeys(range(11), 4), **dict.fromkeys(range(-4, 0), 2)}
    for emblem in ("seastar", "shell"):
        half = Counter(c.value for c in cards if c.emblem == emblem)
        assert half == {**dict.fromkeys(range(11), 2), **dict.fromkeys(range(-4, 0), 1)}


def test_S1_move_crew_icon_on_every_card_of_value_zero_or_below() -> None:
    cs = CardSet.standard()
    assert all(c.crew == (c.value <= 0) for c in cs.cards)
    assert sum(c.crew for c in cs.cards) == 12
    assert Counter(c.emblem for c in cs.cards if c.crew) == {"seastar": 6, "shell": 6}
    assert "engine-authored" in cs.provenance["crew"]


def test_S1_a_new_game_deals_all_52_cards() -> None:
    data = GAME.new_state(seed=5).to_data()
    ids = [c for h in data.hands for c in h] + [c for p in data.piles for c in p]
    assert sorted(ids) == list(range(52))


# --------------------------------------------------------------------------- S2


def test_S2_ship_cards_bow_to_rear() -> None:
    assert GAME.cards.ships == (28, 30, 32, 34, 36)


def test_S2_ring_closes_bow_is_adjacent_to_rear() -> None:
    state = build(hands=([0, 5, 5, 5], [6, 6, 6, 6]), crew=(28, 32))
    state.apply(PlayCard(0, True, 28, 0))
    assert state.phase_name == "crew"
    assert state.view(0).crew_choice == [30, 36]
    state.apply(MoveCrew(36))
    assert crew_ships(state)["captain"] == 36


def test_S2_a_ship_card_out_of_play_leaves_no_gap() -> None:
    state = build(hands=([0, 5, 5, 5], [6, 6, 6, 6]), ships={30: 1}, crew=(28, 34))
    state.apply(PlayCard(0, True, 28, 0))
    assert state.view(0).crew_choice == [32, 36]


# --------------------------------------------------------------------------- S3


@pytest.mark.parametrize("seed", [0, 1, 2, 99])
def test_S3_setup(seed: int) -> None:
    state = GAME.new_state(seed=seed)
    view = state.view(0)
    assert crew_ships(state) == {"captain": 30, "mate": 34}
    assert view.hand_sizes == [4, 4] and view.pile_sizes == [44]
    assert view.rum_held == [True, True] and view.octopus_held == [True, True]
    assert view.points == [0, 0] and all(s.in_play for s in view.ships)


def test_S3_start_player_drawn_from_the_seed_unless_given() -> None:
    starts = {GAME.new_state(seed=s).current_player for s in range(40)}
    assert starts == {0, 1}
    assert GAME.new_state(seed=3).current_player == GAME.new_state(seed=3).current_player
    for p in (0, 1):
        assert GAME.new_state(seed=3, start_player=p).current_player == p


# --------------------------------------------------------------------------- S4


def test_S4_play_a_card_then_draw_the_top_of_the_pile() -> None:
    state = build(hands=FULL, pile=[7, 9])
    (size,) = state.view(0).pile_sizes
    state.apply(PlayCard(1, False, 32, 0))
    view = state.view(0)
    assert sorted(c.value for c in view.hand) == [2, 3, 4, 9]  # 9 was on top
    assert view.pile_sizes == [size - 1]
    assert values_on(state, 32, 0) == [1]


def test_S4_after_the_main_action_the_rum_mug_may_still_be_used() -> None:
    state = build(hands=FULL, pile=[7, 9])
    state.apply(PlayCard(1, False, 32, 0))
    assert state.phase_name == "after" and state.current_player == 0
    assert [str(m) for m in state.legal_moves()] == [
        "rum on ship 28",
        "rum on ship 30",
        "rum on ship 32",
        "rum on ship 34",
        "rum on ship 36",
        "end turn",
    ]
    state.apply(UseRum(28))
    assert state.current_player == 1 and state.phase_name == "main"
    assert state.view(1).ships[0].threshold == 31


def test_S4_rum_before_the_main_action_keeps_the_turn() -> None:
    state = build(hands=FULL, pile=[7, 9])
    state.apply(UseRum(32))
    assert state.phase_name == "main" and state.current_player == 0
    assert not any(isinstance(m, UseRum) for m in state.legal_moves())
    state.apply(PlayCard(2, False, 30, 0))
    assert state.current_player == 1  # rum already used: no "after" phase


def test_S4_end_turn_keeps_the_rum_mug() -> None:
    state = build(hands=FULL, pile=[7, 9])
    state.apply(PlayCard(1, False, 32, 0))
    state.apply(EndTurn())
    assert state.current_player == 1 and state.view(0).rum_held == [True, True]


def test_S4_rum_mug_once_per_game() -> None:
    state = build(hands=FULL, pile=[7, 9, 8, 8], rum=(28, "held"))  # seat 0's mug is on 28
    assert not any(isinstance(m, UseRum) for m in state.legal_moves())
    with pytest.raises(cruiselib.IllegalMoveError, match="rum mug is already used"):
        state.apply(UseRum(30))
    state.apply(PlayCard(1, False, 32, 0))
    assert state.current_player == 1  # no "after" phase without a mug


def test_S4_pass_only_without_a_legal_main_action() -> None:
    state = build(hands=FULL, pile=[7, 9])
    with pytest.raises(cruiselib.IllegalMoveError, match="passing is only allowed"):
        state.apply(Pass())
    # Seat 0 has no card and its octopus is in use. (With the 52 standard cards a seat is
    # never out of cards: at most 5 + 5 cards are at or were taken from each ship card.)
    stuck = build(
        SMALL,
        hands=([], [9]),
        sides={(30, 0): [10], (32, 1): [8], (28, 0): [0, 0, -4, -4], (34, 0): [9, 7, 7], (36, 1): [8, 10]},
        octopus=((30, 0, 10), (32, 1, 8)),
        pile=[],
    )
    moves = [str(m) for m in stuck.legal_moves()]
    assert moves[-1] == "pass" and all(m.startswith("rum") for m in moves[:-1])  # mug usable too
    stuck.apply(Pass())
    assert stuck.current_player == 1 and not stuck.is_over


def test_S4_two_passes_in_a_row_end_the_game() -> None:
    state = build(
        SMALL,
        hands=([], []),
        sides={(30, 0): [9], (32, 1): [8], (34, 0): [0, 0, -4, -4], (34, 1): [8, 7, 7]},
        octopus=((30, 0, 9), (32, 1, 8)),
        ships={28: 0},
        removed=[10, 10, 9],
        pile=[],
    )
    state.apply(Pass())
    state.apply(Pass())
    assert state.is_over and state.current_player == -1
    assert state.scores() == [1, 0] and state.winners() == [0]


def test_S4_a_main_action_between_passes_resets_the_count() -> None:
    state = build(
        SMALL,
        hands=([], [9]),
        sides={(30, 0): [10], (28, 0): [0, 0, -4, -4], (36, 1): [10, 8], (32, 0): [9, 8, 7, 7]},
        octopus=((30, 0, 10), None),
        pile=[],
        rum=(28, 28),
    )
    state.apply(Pass())
    state.apply(PlayCard(9, False, 34, 1))
    state.apply(Pass())
    assert not state.is_over and state.current_player == 1


def test_S4_the_card_is_drawn_after_the_crew_choice() -> None:
    state = build(hands=([0, 5, 5, 5], FULL[1]), pile=[7, 9])
    state.apply(PlayCard(0, True, 30, 1))  # seat 1's side of the captain's ship
    assert state.current_player == 1 and state.view(0).hand_sizes == [3, 4]
    state.apply(MoveCrew(28))
    assert state.view(0).hand_sizes == [4, 4] and state.current_player == 0  # back for the mug


def test_S4_nothing_is_drawn_once_the_game_is_over() -> None:
    state = build(
        hands=([10, 5, 5, 5], FULL[1]),
        ships={28: 0, 36: 0},
        crew=("won0", 34),
        sides={(32, 0): [10, 10, 5]},
        pile=[7, 9],
    )
    (size,) = state.view(0).pile_sizes
    state.apply(PlayCard(10, False, 32, 0))
    assert state.is_over and state.scores() == [4, 0]
    assert state.view(0).hand_sizes == [3, 4] and state.view(0).pile_sizes == [size]


# --------------------------------------------------------------------------- S5


def test_S5_card_limit_five_cards_per_side() -> None:
    state = build(hands=FULL, sides={(32, 0): [5, 5, 6, 6, 6]})
    assert PlayCard(2, False, 32, 0) not in state.legal_moves()
    assert PlayCard(2, False, 32, 1) in state.legal_moves()
    before = state.to_json()
    with pytest.raises(cruiselib.IllegalMoveError, match="already holds 5 cards"):
        state.apply(PlayCard(2, False, 32, 0))
    assert state.to_json() == before


def test_S5_a_side_reduced_below_five_takes_cards_again() -> None:
    state = build(hands=FULL, sides={(32, 0): [5, 5, 6, 6, 6]})
    state.apply(MoveCard(5, False, 32, 0, 28, 0))
    state.apply(EndTurn())
    assert PlayCard(1, False, 32, 0) in state.legal_moves()


def test_S5_the_owner_of_the_side_decides_where_the_crew_moves() -> None:
    state = build(hands=([0, 5, 5, 5], FULL[1]))
    state.apply(PlayCard(0, True, 30, 1))
    assert state.current_player == 1 and state.turn_player == 0
    assert state.view(1).crew_choice == [28, 32]
    with pytest.raises(cruiselib.IllegalMoveError):
        state.apply(MoveCrew(28), player=0)
    state.apply(MoveCrew(28), player=1)
    assert crew_ships(state)["captain"] == 28


def test_S5_a_crew_token_skips_the_ship_holding_the_other_token() -> None:
    state = build(hands=([0, 5, 5, 5], FULL[1]), crew=(30, 32))
    state.apply(PlayCard(0, True, 30, 0))
    assert state.view(0).crew_choice == [28, 34]


def test_S5_no_crew_move_when_ships_in_play_equal_crew_in_play() -> None:
    state = build(hands=([0, 5, 5, 5], FULL[1]), ships={28: 0, 30: 0, 36: 1}, crew=(32, 34))
    state.apply(PlayCard(0, True, 32, 0))
    assert state.phase_name == "after"
    assert crew_ships(state) == {"captain": 32, "mate": 34}


def test_S5_a_card_without_the_icon_moves_no_crew() -> None:
    state = build(hands=FULL)
    state.apply(PlayCard(1, False, 30, 1))
    assert state.phase_name == "after" and crew_ships(state)["captain"] == 30


def test_S5_one_possible_destination_needs_no_choice() -> None:
    # Ships 30, 32, 34 in play; captain on 30, mate on 34: both ways lead to 32.
    state = build(hands=([0, 5, 5, 5], FULL[1]), ships={28: 0, 36: 1})
    state.apply(PlayCard(0, True, 30, 1))
    assert state.phase_name == "after"
    assert crew_ships(state)["captain"] == 32


def test_S5_the_crew_moves_before_the_ship_card_is_scored() -> None:
    state = build(
        hands=([0, 5, 5, 5], FULL[1]),
        crew=(32, 28),
        sides={(32, 0): [9, 9, 1, 1], (32, 1): [6, 6, 6, 4, 3]},
    )
    state.apply(PlayCard(0, True, 32, 0))  # 5 + 5 cards: 20 against 25
    assert state.current_player == 0 and state.view(0).crew_choice == [30, 34]
    state.apply(MoveCrew(34))
    view = state.view(0)
    assert view.ships[2].owner == 1 and view.points == [0, 1]  # the captain had left
    assert crew_ships(state)["captain"] == 34


def _octopus_position(points_before: int) -> cruiselib.State:
    won = {28: 0, 36: 0} if points_before == 3 else {28: 0}
    return build(
        hands=FULL,
        ships=won,
        crew=("won0", 34) if points_before == 3 else (30, 34),
        sides={(34, 0): [10, 10, 10, 7, -4], (32, 0): [3, 2, 0, 0, 0], (32, 1): [-1, -1, -2, -3]},
    )


def test_S5_octopus_destination_scoring_ending_the_game_skips_the_source() -> None:
    state = _octopus_position(points_before=3)
    state.apply(MoveCard(-4, True, 34, 0, 32, 1))  # 5+5 on 32: seat 0 (5) beats seat 1 (-11)
    assert state.is_over and state.scores() == [4, 0]
    view = state.view(0)
    assert view.ships[3].in_play and view.ships[3].totals == [37, 0]  # 34 not checked
    assert GAME.load_state(state.to_json()) == state  # and the finished game reloads


def test_S5_octopus_destination_first_then_the_source() -> None:
    state = _octopus_position(points_before=1)
    state.apply(MoveCard(-4, True, 34, 0, 32, 1))
    view = state.view(0)
    assert [s.owner for s in view.ships] == [0, None, 0, 0, None]
    assert state.scores() == [4, 0]  # 28 + 32 + 34 and the mate standing on 34
    assert state.is_over
    assert [c.ship for c in view.crew] == [30, None] and view.crew[1].owner == 0


# --------------------------------------------------------------------------- S6


def test_S6_a_side_reaching_the_printed_value_scores() -> None:
    state = build(hands=([2, 5, 5, 5], FULL[1]), sides={(30, 1): [10, 10, 8]})
    state.apply(PlayCard(2, False, 30, 1))  # 30 >= 30, on seat 1's side
    view = state.view(0)
    assert view.ships[1].owner == 1 and view.points == [0, 2]  # ship and the captain


def test_S6_each_rum_mug_raises_the_threshold_by_three() -> None:
    state = build(hands=([5, 5, 5, 5], FULL[1]), sides={(32, 0): [10, 10, 10]}, rum=(32, 32))
    assert state.view(0).ships[2].threshold == 38
    state.apply(PlayCard(5, False, 32, 0))  # 35 < 38
    assert state.view(0).ships[2].in_play
    state.apply(EndTurn()) if state.phase_name == "after" else None
    state.apply(PlayCard(1, False, 28, 1))
    state.apply(PlayCard(5, False, 32, 0))  # 40 >= 38
    assert state.view(0).ships[2].owner == 0


def test_S6_five_cards_on_both_sides_higher_sum_wins() -> None:
    state = build(hands=([1, 5, 5, 5], FULL[1]), sides={(28, 0): [0, 2, 2, 4], (28, 1): [7, 6, 2, 0, 0]})
    state.apply(PlayCard(1, False, 28, 0))  # 9 against 15
    assert state.view(0).ships[0].owner == 1 and state.scores() == [0, 1]


def test_S6_equal_sums_remove_the_ship_card_and_its_crew() -> None:
    state = build(
        hands=([3, 5, 5, 5], FULL[1]),
        sides={(30, 0): [4, 4, 4, 0], (30, 1): [6, 6, 2, 1, 0]},
    )
    state.apply(PlayCard(3, False, 30, 0))
    view = state.view(0)
    assert view.ships[1].removed and view.ships[1].owner is None
    assert view.crew[0].removed and view.points == [0, 0]


def test_S6_scoring_removes_rum_mugs_and_cards_and_returns_octopuses() -> None:
    state = build(
        hands=([9, 5, 5, 5], FULL[1]),
        sides={(30, 0): [10, 10, 4], (30, 1): [7]},
        rum=("held", 30),
        octopus=(None, (30, 1, 7)),
    )
    state.apply(PlayCard(9, False, 30, 0))  # 33 >= 30 + 3
    view = state.view(0)
    assert view.ships[1].owner == 0
    assert view.rum_held == [True, False]  # the mug left play, not back to its owner
    assert view.octopus_held == [True, True]  # returned with the removed card
    assert sorted(c.value for c in view.removed) == [4, 7, 9, 10, 10]


# --------------------------------------------------------------------------- S7


def test_S7_octopus_moves_any_card_but_one_carrying_the_opponents_octopus() -> None:
    state = build(hands=FULL, sides={(28, 1): [6], (30, 0): [7]}, octopus=(None, (30, 0, 7)))
    sources = {(m.from_ship, m.from_side, m.value) for m in state.legal_moves() if isinstance(m, MoveCard)}
    assert sources == {(28, 1, 6)}
    with pytest.raises(cruiselib.IllegalMoveError, match="opponent's octopus"):
        state.apply(MoveCard(7, False, 30, 0, 28, 0))


def test_S7_octopus_destinations_any_other_side_with_room_including_the_other_side() -> None:
    state = build(hands=FULL, sides={(28, 1): [6], (32, 0): [5, 5, 6, 6, 6]})
    dests = {
        (m.to_ship, m.to_side)
        for m in state.legal_moves()
        if isinstance(m, MoveCard) and (m.from_ship, m.from_side) == (28, 1)
    }
    assert (28, 0) in dests and (28, 1) not in dests and (32, 0) not in dests
    assert len(dests) == 8


def test_S7_octopus_draws_no_card_and_is_then_in_use() -> None:
    state = build(hands=FULL, sides={(28, 1): [6]}, pile=[7, 8])
    sizes = state.view(0).pile_sizes
    state.apply(MoveCard(6, False, 28, 1, 28, 0))
    view = state.view(0)
    assert view.hand_sizes == [4, 4] and view.pile_sizes == sizes
    assert view.octopus_held == [False, True] and view.ships[0].sides[0][0].octopus == 0
    state.apply(EndTurn())
    state.apply(PlayCard(1, False, 34, 1))
    state.apply(EndTurn())
    assert not any(isinstance(m, MoveCard) for m in state.legal_moves())


# --------------------------------------------------------------------------- S8


def test_S8_four_victory_points_end_the_game_at_once() -> None:
    state = build(hands=([2, 5, 5, 5], FULL[1]), ships={28: 0, 36: 0}, crew=("won0", 34), sides={(30, 0): [10, 10, 8]})
    state.apply(PlayCard(2, False, 30, 0))  # ship 30 + nothing else: 4 points
    assert state.is_over and state.winners() == [0] and state.scores() == [4, 0]
    assert state.legal_actions() == []


# 40 cards: the positions below hold 6 of them, and the 4 ship cards out of play took
# the other 34 (S6: at most 10 each); the 52 standard cards would not fit.
FORTY = cruiselib.make("sirens", cards=small_set(40))


def test_S8_the_game_ends_when_no_ship_card_is_left() -> None:
    state = build(
        FORTY,
        hands=([2], [5]),
        ships={28: 0, 30: 1, 32: 2, 34: 2},
        crew=("won0", "won1"),
        sides={(36, 0): [10, 10, 10, 4]},
        pile=[],
    )
    state.apply(PlayCard(2, False, 36, 0))
    assert state.is_over and state.scores() == [3, 2] and state.winners() == [0]


def test_S8_equal_points_is_a_draw() -> None:
    state = build(
        FORTY,
        hands=([2], [5]),
        ships={28: 0, 30: 1, 32: 2, 34: 1},
        crew=("won0", "won1"),
        sides={(36, 0): [10, 10, 10, 4]},
        pile=[],
    )
    state.apply(PlayCard(2, False, 36, 0))
    assert state.is_over and state.scores() == [3, 3] and state.winners() == []
    assert state.returns() == [0.0, 0.0]


# --------------------------------------------------------------------------- S9

VARIANT = cruiselib.make("sirens", variant="bow_to_rear")


def test_S9_each_seat_picks_four_cards_from_its_own_emblem_set_start_player_first() -> None:
    state = VARIANT.new_state(seed=11, start_player=1)
    assert state.phase_name == "pick" and state.current_player == 1
    for value in (-4, 0, 10, 10):
        state.apply(PickCard(value, value <= 0), player=1)
    assert state.current_player == 0
    for value in (3, 3, 5, 7):
        state.apply(PickCard(value, False), player=0)
    assert state.phase_name == "main" and state.current_player == 1
    v0, v1 = state.view(0), state.view(1)
    assert [c.value for c in v0.hand] == [3, 3, 5, 7] and {c.emblem for c in v0.hand} == {"seastar"}
    assert sorted(c.value for c in v1.hand) == [-4, 0, 10, 10] and {c.emblem for c in v1.hand} == {"shell"}
    assert v0.pile_sizes == [22, 22] and v0.own_pile is not None and len(v0.own_pile) == 22


def test_S9_picks_in_ascending_order_never_dead_end() -> None:
    # Each set holds two 9s and two 10s: a first pick of 10 could never be completed.
    state = VARIANT.new_state(seed=2, start_player=0)
    with pytest.raises(cruiselib.IllegalMoveError, match="too few cards above it"):
        state.apply(PickCard(10, False))
    state.apply(PickCard(9, False))
    assert [str(m) for m in state.legal_moves()] == ["pick 9"]  # 10 would leave one card for two picks
    state.apply(PickCard(9, False))
    assert [str(m) for m in state.legal_moves()] == ["pick 10"]
    with pytest.raises(cruiselib.IllegalMoveError, match="ascending"):
        state.apply(PickCard(9, False))
    state.apply(PickCard(10, False))
    state.apply(PickCard(10, False))
    assert state.current_player == 1 and [c.value for c in state.view(0).hand] == [9, 9, 10, 10]


def test_S9_the_rest_is_shuffled_as_each_seats_own_draw_pile() -> None:
    state = VARIANT.new_state(seed=4, start_player=0)
    for _ in range(8):
        state.apply(state.legal_actions()[0])
    piles = state.to_data().piles
    cards = VARIANT.cards.cards
    assert {cards[c].emblem for c in piles[0]} == {"seastar"} and {cards[c].emblem for c in piles[1]} == {"shell"}
    assert piles[0] != sorted(piles[0])  # shuffled, not in set order
    other = VARIANT.new_state(seed=5, start_player=0)
    for _ in range(8):
        other.apply(other.legal_actions()[0])
    assert other.to_data().piles != piles


def test_S9_players_draw_from_their_own_pile() -> None:
    state = VARIANT.new_state(seed=4, start_player=0)
    for _ in range(8):
        state.apply(state.legal_actions()[0])
    top = state.to_data().piles[0][-1]
    state.apply(state.legal_actions()[0])
    assert top in state.to_data().hands[0]
    assert state.view(0).pile_sizes == [21, 22]


def test_S9_the_view_shows_the_own_remaining_cards_not_the_opponents() -> None:
    state = VARIANT.new_state(seed=4, start_player=0)
    state.apply(PickCard(-4, True))
    v1 = state.view(1)
    assert v1.hand == [] and v1.own_pile is not None and len(v1.own_pile) == 26
    assert v1.hand_sizes == [1, 0]


def test_S9_the_variant_is_an_option_default_off() -> None:
    assert cruiselib.make("sirens").options["variant"] == "standard"
    with pytest.raises(cruiselib.InvalidOptionError, match="unknown variant"):
        cruiselib.make("sirens", variant="stern_to_bow")


# --------------------------------------------------------------------------- S10


def _custom_set() -> CardSet:
    # Crew icons on the 10s instead of the low cards: a different published-style deck.
    std = CardSet.standard()
    cards = tuple(Card(c.value, c.emblem, c.value == 10) for c in std.cards)
    return CardSet(name="tens-move-crew", cards=cards, ships=std.ships)


def test_S10_the_card_set_is_replaceable_data() -> None:
    game = cruiselib.make("sirens", cards=_custom_set())
    assert isinstance(game, SirensGame)
    state = build(game, hands=([10, 5, 5, 5], [1, 2, 3, 4]))
    state.apply(PlayCard(10, True, 30, 1))
    assert state.phase_name == "crew"  # a 10 moves the crew in this set
    state2 = build(game, hands=([0, 5, 5, 5], [1, 2, 3, 4]))
    state2.apply(PlayCard(0, False, 30, 1))
    assert state2.phase_name == "after"  # a 0 does not


def test_S10_a_card_set_loads_from_json_and_is_validated(tmp_path: object) -> None:
    raw = msgspec.json.encode(_custom_set())
    assert CardSet.from_json(raw) == _custom_set()
    with pytest.raises(cruiselib.InvalidOptionError, match="ship values"):
        CardSet(name="x", cards=_custom_set().cards, ships=(28, 28, 32, 34, 36))
    with pytest.raises(cruiselib.InvalidOptionError, match="invalid card set"):
        CardSet.from_json(b'{"name": "x", "cards": [], "ships": [1, 2, 3, 4, 5], "extra": 1}')
    with pytest.raises(cruiselib.InvalidOptionError, match=r"8\.\.64 cards"):
        CardSet(name="x", cards=(), ships=(1, 2, 3, 4, 5))


def test_S10_a_state_only_loads_with_its_own_card_set() -> None:
    state = GAME.new_state(seed=1)
    other = cruiselib.make("sirens", cards=_custom_set())
    with pytest.raises(cruiselib.InvalidStateError, match="another card set"):
        other.load_state(state.to_json())


def test_S10_the_variant_needs_two_identical_emblem_sets() -> None:
    std = CardSet.standard()
    lopsided = CardSet(name="x", cards=(*std.cards[:-1], Card(9, "seastar", False)), ships=std.ships)
    with pytest.raises(cruiselib.InvalidOptionError, match="identical emblem sets"):
        cruiselib.make("sirens", variant="bow_to_rear", cards=lopsided)
