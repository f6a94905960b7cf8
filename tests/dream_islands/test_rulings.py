"""Dream Islands: every ruling (I1-I9) by name; the rulebook's worked examples are set up from
their descriptions in test_worked_examples.py."""

from __future__ import annotations

import random

import pytest

import cruiselib
from cruiselib.dream_islands import Cover, Draw, DreamIslandsState, Path, PutUnder
from tests.dream_islands.helpers import (
    MISSION,
    build,
    destinations,
    game,
    oracle_results,
    places,
    result_of,
)


def covers(state: DreamIslandsState, number: int) -> list[Cover]:
    return [m for m in state.legal_moves() if isinstance(m, Cover) and m.number == number]


def move(state: DreamIslandsState, number: int, *paths: tuple[int, int] | tuple[int, int, int]) -> None:
    state.apply(Cover(number, tuple(Path(*p) for p in paths)))


def bit(mask: int, name: str) -> bool:
    return bool((mask >> MISSION[name]) & 1)


def end_turn(state: DreamIslandsState) -> None:
    """Cover the lowest legal move of the seat to move, then draw."""
    state.apply(state.legal_actions()[0])
    if state.phase_name == "exchange":
        state.apply(Draw())


# --------------------------------------------------------------------------- I8 setup


@pytest.mark.parametrize("players", [2, 3, 4])
def test_I8_setup_five_on_the_airplane_sixth_on_island_seat_plus_one(players: int) -> None:
    state = game(players).new_state(seed=11)
    view = state.view(0)
    assert state.current_player == 0  # seat 0 is the start player
    for p in range(players):
        info = view.seats[p]
        assert info.airplane == 5
        assert info.islands == [1 if i == p + 1 else 0 for i in range(1, 9)]
        assert info.hand_size == 3 and info.pile_size == 13 and info.middle == 0
        assert info.covered == [] and info.completed == []
    hands = [tuple(state.view(p).hand) for p in range(players)]
    assert all(len(set(h)) == 3 for h in hands)
    assert len({game(players).new_state(seed=s).view(0).hand[0] for s in range(30)}) > 1  # shuffled


# --------------------------------------------------------------------------- I1 board


def test_I1_leaving_the_airplane_with_k_steps_lands_on_island_k() -> None:
    state = build(pieces={0: [0, 0, 0, 0, 0, 0]})
    results = {tuple(sorted(result_of([0] * 6, m))) for m in covers(state, 3)}
    assert results == {(0, 0, 0, 0, 0, 3), (0, 0, 0, 0, 1, 2), (0, 0, 0, 1, 1, 1)}
    move(state, 3, (0, 3))
    assert places(state, 0) == [0, 0, 0, 0, 0, 3]


def test_I1_the_ring_closes_after_island_8() -> None:
    # Seat 0 keeps one piece on island 7; five are in the middle already.
    state = build(pieces={0: [7]}, small=(0, 0, 0), main={0: 2})
    assert [str(m) for m in covers(state, 3)] == ["cover 3: 1 piece island 7→2"]
    assert {str(m) for m in covers(state, 2)} == {"cover 2: 1 piece island 7→1", "cover 2: 1 piece island 7→middle"}


def test_I1_the_middle_is_entered_only_as_the_last_step_from_island_8() -> None:
    state = build(pieces={0: [6]}, small=(0, 0, 0), main={0: 2})
    assert {str(m) for m in covers(state, 3)} == {"cover 3: 1 piece island 6→middle", "cover 3: 1 piece island 6→1"}
    assert {str(m) for m in covers(state, 4)} == {"cover 4: 1 piece island 6→2"}  # no middle with a step left


def test_I1_middle_arrivals_fill_3_2_2_then_the_main_island_and_never_move() -> None:
    g = game(2)
    state = build(g, pieces={0: [8, 8, 8], 1: [8, 8]})
    move(state, 2, (8, 9, 2))  # two pieces arrive: small islands 3 and 2
    state.apply(Draw())
    view = state.view(0)
    assert view.small_islands == [0, 0, -1]
    assert view.seats[0].middle == 2 and view.seats[0].score == 5
    move(state, 2, (8, 9, 2))  # seat 1: the last small island (2), then the main island (1)
    state.apply(Draw())
    view = state.view(0)
    assert view.small_islands == [0, 0, 1]
    assert view.seats[1].middle == 2 and view.seats[1].score == 3
    # Pieces in the middle never move: seat 0's only movable pieces are the other four.
    assert all(p.start != 9 for m in covers(state, 3) for p in m.paths)


# --------------------------------------------------------------------------- I2 shells


def test_I2_a_covered_number_cannot_be_chosen() -> None:
    state = build(covered={0: [2, 3]})
    numbers = {m.number for m in state.legal_moves() if isinstance(m, Cover)}
    assert numbers == {4, 5}
    with pytest.raises(cruiselib.IllegalMoveError, match="already covered"):
        move(state, 2, (0, 2))


def test_I2_all_shells_come_off_at_the_start_of_the_turn_after_the_fourth() -> None:
    g = game(2)
    state = build(g, covered={0: [2, 3, 4]})
    move(state, 5, (0, 5))
    state.apply(Draw())
    assert state.view(1).seats[0].covered == [2, 3, 4, 5]  # all four covered meanwhile
    end_turn(state)
    assert state.current_player == 0
    assert state.view(0).seats[0].covered == []
    assert {m.number for m in state.legal_moves() if isinstance(m, Cover)} == {2, 3, 4, 5}


# --------------------------------------------------------------------------- I3 movement


def test_I3_splits_with_the_same_result_are_one_move() -> None:
    # Piece on 1 moves 2 to island 3 while the piece on 3 moves 1 to island 4: the same
    # result as the piece on 1 moving 3 to island 4. One action, shown the shorter way.
    state = build(pieces={0: [1, 3]}, small=(0, 0, 0), main={0: 1})
    a = state.game.move_to_action(Cover(3, (Path(1, 3), Path(3, 4))))
    b = state.game.move_to_action(Cover(3, (Path(1, 4),)))
    assert a == b
    assert str(state.game.action_to_move(a)) == "cover 3: 1 piece island 1→4"
    results = [result_of([1, 3], m) for m in covers(state, 3)]
    assert len(results) == len(set(results)) == len(oracle_results([1, 3], 3))


def test_I3_legal_moves_are_exactly_the_distinct_results_of_all_splits() -> None:
    rnd = random.Random(4)
    for _ in range(150):
        k = rnd.randint(1, 6)
        movable = sorted(rnd.choice([0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8]) for _ in range(k))
        in_middle = 6 - k
        small = tuple([0] * min(3, in_middle) + [-1] * (3 - min(3, in_middle)))
        state = build(game(2), pieces={0: movable}, small=small, main={0: max(0, in_middle - 3)})  # type: ignore[arg-type]
        for number in range(2, 6):
            results = [result_of(movable, m) for m in covers(state, number)]
            assert len(results) == len(set(results)), (movable, number)
            assert set(results) == oracle_results(movable, number), (movable, number)
            assert state.count_moves(number) == len(results)


def test_I3_the_whole_number_must_be_used() -> None:
    state = build(pieces={0: [1, 0, 0, 0, 0, 0]})
    with pytest.raises(cruiselib.IllegalMoveError, match="take 1 steps, not 5"):
        move(state, 5, (1, 2))
    with pytest.raises(cruiselib.IllegalMoveError, match="take 6 steps, not 2"):
        move(state, 2, (3, 1))  # backwards is forward round the ring: 6 steps


def test_I3_a_move_needs_the_pieces_where_it_starts() -> None:
    state = build(pieces={0: [1, 0, 0, 0, 0, 0]})
    with pytest.raises(cruiselib.IllegalMoveError, match="too few pieces"):
        move(state, 2, (5, 7))


def test_I3_with_no_movable_piece_the_number_is_still_covered() -> None:
    state = build(small=(0, 0, 0), main={0: 3}, pieces={0: []})
    assert [str(m) for m in state.legal_moves()] == [f"cover {n} (no piece can move)" for n in range(2, 6)]
    before = places(state, 0)
    state.apply(Cover(4))
    assert places(state, 0) == before
    assert state.view(0).seats[0].covered == [4]
    other = build(pieces={0: [1, 0, 0, 0, 0, 0]})
    with pytest.raises(cruiselib.IllegalMoveError, match="whole number must be moved"):
        other.apply(Cover(4))


# --------------------------------------------------------------------------- I4 missions


def test_I4_five_on_an_island_is_not_exactly_three() -> None:
    state = build(pieces={0: [4, 4, 4, 4, 4, 0]})
    mask = state.mission_mask(0)
    assert bit(mask, "exact5") and not bit(mask, "exact3") and not bit(mask, "exact2")


def test_I4_runs_wrap_from_8_to_1_and_a_full_ring_has_no_run() -> None:
    assert bit(build(pieces={0: [8, 1, 0, 0, 0, 0]}).mission_mask(0), "run2")
    assert bit(build(pieces={0: [7, 8, 1, 2, 0, 0]}).mission_mask(0), "run4")
    rules = game().rules
    assert rules.run_bits(0b11111111) == 0
    assert rules.run_bits(0b01111111) == 0  # 7 in a row: no run of 2..5
    assert rules.run_bits(0b10110011) == 0b0011  # 8-1-2 wraps to 3, 5-6 is 2
    assert rules.run_bits(0b11000011) == 0b0100  # 7-8-1-2 wraps to 4


def test_I4_a_single_piece_on_an_empty_island_is_a_majority() -> None:
    assert bit(build(game(3), pieces={0: [6, 0, 0, 0, 0, 0]}).mission_mask(0), "major6")


def test_I4_two_player_majority_needs_two_more() -> None:
    g = game(2)
    assert not bit(build(g, pieces={0: [6, 0, 0, 0, 0, 0]}).mission_mask(0), "major6")
    assert bit(build(g, pieces={0: [6, 6, 0, 0, 0, 0]}).mission_mask(0), "major6")
    assert not bit(build(g, pieces={0: [6, 6, 0, 0, 0, 0], 1: [6]}).mission_mask(0), "major6")
    assert bit(build(g, pieces={0: [6, 6, 6, 0, 0, 0], 1: [6]}).mission_mask(0), "major6")


def test_I4_the_airplane_and_the_middle_never_count() -> None:
    state = build(pieces={0: [0, 0, 0]}, small=(0, 0, 0))  # 3 on the airplane, 3 in the middle
    assert state.mission_mask(0) == 0


# --------------------------------------------------------------------------- I5 completion


def test_I5_holding_missions_complete_automatically_and_only_the_movers() -> None:
    state = build(
        pieces={0: [2, 0, 0, 0, 0, 0], 1: [7, 7, 0, 0, 0, 0]},
        hands={0: ["exact2", "major4", "run5"], 1: ["exact2", "run5", "exact5"]},
    )
    assert bit(state.mission_mask(1), "exact2")  # seat 1's mission holds on seat 0's turn ...
    move(state, 2, (2, 4))
    assert state.view(0).seats[0].completed == [MISSION["major4"]]
    assert state.view(1).seats[1].completed == []  # ... but only the mover's are checked
    assert state.legal_moves() == [PutUnder(MISSION["exact2"]), PutUnder(MISSION["run5"]), Draw()]


# --------------------------------------------------------------------------- I6 exchange


def test_I6_cards_go_under_the_own_pile_in_the_chosen_order_then_draw_to_3() -> None:
    g = game(2)
    state = build(g, hands={0: [0, 1, 2]})  # pile: 3..15 bottom to top
    move(state, 2, (0, 2))  # seat 0: a piece to island 2 (it already has one on 1)
    assert state.phase_name == "exchange"
    state.apply(PutUnder(1))
    state.apply(PutUnder(0))
    view = state.view(0)
    assert view.hand == [2] and view.under_pile == [1, 0]  # 1 is drawn before 0
    state.apply(Draw())
    view = state.view(0)
    assert view.hand == [2, 14, 15]  # drawn from the top
    assert view.under_pile == [1, 0] and view.seats[0].under == 2
    raw = state._get_raw()
    assert raw["piles"][0][:2] == [0, 1]  # bottom first: 0 is the very bottom


def test_I6_putting_every_card_under_draws_at_once() -> None:
    state = build(game(2), hands={0: [0, 1, 2]})
    move(state, 2, (0, 2))
    for x in (2, 0, 1):
        state.apply(PutUnder(x))
    assert state.current_player == 1
    assert state.view(0).hand == [13, 14, 15]
    assert state.view(0).under_pile == [2, 0, 1]


def test_I6_fewer_cards_when_the_pile_is_short() -> None:
    done = list(range(3, 15))  # 12 completed, 15 in the pile
    state = build(game(2), hands={0: [0, 1, 2]}, completed={0: done})
    move(state, 2, (0, 2))
    state.apply(PutUnder(0))
    state.apply(PutUnder(1))
    state.apply(Draw())
    assert sorted(state.view(0).hand) == [0, 2, 15]  # the pile had 15, then 1, then 0
    assert state.view(0).seats[0].pile_size == 1 and state.view(0).under_pile == [1]


def test_I6_views_hide_other_hands_and_every_deck_order_but_the_own_bottom() -> None:
    g = game(3)
    state = build(g, hands={0: [0, 1, 2]})
    move(state, 2, (0, 2))
    state.apply(PutUnder(1))
    state.apply(Draw())
    for p in range(3):
        view = state.view(p)
        assert len(view.hand) == 3
        assert view.seats[0].under == 1 and view.seats[0].hand_size == 3
        assert view.under_pile == ([1] if p == 0 else [])
        assert view.pile_unseen == sorted(set(state._get_raw()["piles"][p]) - set(view.under_pile))
    for seed in range(20):
        other = state.resample(0, seed)
        assert other.view(0) == state.view(0)
        assert other._get_raw()["piles"][0][0] == 1  # the own bottom card stays
    seen = {tuple(state.resample(1, seed)._get_raw()["hands"][0]) for seed in range(20)}
    assert len(seen) > 1  # another seat's hand is dealt anew


def test_I6_resample_keeps_what_the_exchange_reveals() -> None:
    # During seat 0's exchange every seat knows its hand holds no mission that holds now
    # (I5); a resampled state never deals one into it.
    state = build(game(2), pieces={0: [2, 2, 0, 0, 0, 0]}, hands={0: [4, 5, 6]})
    move(state, 2, (0, 2))  # three on island 2: exactly 3 holds, but is not in hand
    assert bit(state.mission_mask(0), "exact3")
    for seed in range(40):
        other = state.resample(1, seed)
        assert MISSION["exact3"] not in other._get_raw()["hands"][0]


# --------------------------------------------------------------------------- I7 end, scoring


def test_I7_six_pieces_in_the_middle_end_the_game_after_the_round() -> None:
    g = game(4)
    state = build(g, pieces={1: [8]}, small=(0, 0, 2), main={2: 2}, cur=1)  # 5 in the middle
    assert not state.end_triggered
    move(state, 2, (8, 9), (0, 1))
    assert state.end_triggered and not state.is_over
    state.apply(Draw())
    end_turn(state)  # seat 2
    assert not state.is_over and state.current_player == 3
    end_turn(state)  # seat 3, the last seat in turn order
    assert state.is_over and state.current_player == -1
    with pytest.raises(cruiselib.IllegalMoveError, match="game is over"):
        state.apply(state.game.move_to_action(Draw()))


def test_I7_the_last_seat_triggering_ends_at_once() -> None:
    state = build(game(2), pieces={1: [8, 8]}, small=(0, 0, 0), main={0: 1}, cur=1)
    move(state, 2, (8, 9, 2))
    state.apply(Draw())
    assert state.is_over


def test_I7_equal_points_most_missions_wins() -> None:
    # Seat 0: 11 missions = 22; seat 1: 10 missions + small island 2 = 22; seat 2:
    # 9 missions + small island 3 = 21. Seat 0 wins on missions.
    state = build(
        game(3, max_rounds=5),
        pieces={0: [1] * 6, 1: [2] * 5, 2: [3] * 5},
        small=(2, 1, -1),
        hands={0: [11, 12, 13], 1: [10, 11, 12], 2: [9, 10, 11]},
        completed={0: list(range(11)), 1: list(range(10)), 2: list(range(9))},
        phase="over",
        rounds=5,
    )
    assert state.scores() == [22, 22, 21]
    assert state.winners() == [0]


def test_I7_equal_points_and_missions_is_a_shared_win() -> None:
    state = build(
        game(2),
        pieces={0: [1] * 6, 1: [2] * 6},
        hands={0: [], 1: []},
        completed={0: list(range(16)), 1: list(range(16))},
        phase="over",
        rounds=3,
    )
    assert state.scores() == [35, 35]
    assert state.winners() == [0, 1]


# --------------------------------------------------------------------------- I9 option


def test_I9_max_rounds_ends_after_that_many_complete_rounds() -> None:
    g = game(3, max_rounds=2)
    state = g.new_state(seed=5)
    turns = 0
    while not state.is_over:
        end_turn(state)
        turns += 1
    assert turns == 6 and state.view(0).rounds == 2
    assert game().max_rounds is None  # default: no limit, as printed


def test_destinations_oracle_matches_the_board() -> None:
    assert destinations(0, 4) == [4]
    assert destinations(8, 1) == [1, 9]
    assert destinations(6, 5) == [3]
