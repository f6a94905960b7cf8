"""Every worked example of the Dream Islands rulebook, set up from a description (its
compact text, docs/dream_islands.md "Setting up a position") and played as the example
plays it, checked against the outcome the rulebook states.

The rulebook's pictures show only what an example needs; each description here adds a
table that play can reach (the shells and pieces of every seat fit the rounds played,
which the builder derives where the text says ``?``). Most are seen by the seat whose
move the example shows (yellow, seat 0): what that seat cannot see is dealt at random, and
the outcome must not depend on it, so each is set up with several seeds. Rulings I3, I4,
I5 and I7 (tests/dream_islands/test_rulings.py keeps the same examples on positions set
straight into the engine).
"""

from __future__ import annotations

import pytest

import cruiselib
from cruiselib.dream_islands import MISSIONS, DreamIslandsGame, DreamIslandsState

SEEDS = (1, 2, 3)


def mission(name: str) -> int:
    return MISSIONS.index(name)


def game(players: int) -> DreamIslandsGame:
    made = cruiselib.make("dream_islands", players=players)
    assert isinstance(made, DreamIslandsGame)
    return made


def set_up(players: int, text: str, seed: int = 1) -> DreamIslandsState:
    g = game(players)
    assert g.position_problems(text) == []
    return g.from_position(text, seed=seed)


def play(state: DreamIslandsState, *moves: str) -> None:
    for text in moves:
        state.apply(state.parse_move(text))


def places(state: DreamIslandsState, seat: int) -> list[int]:
    """The sorted places of a seat's pieces: 0 the airplane, 1..8 the islands, 9 the middle."""
    info = state.view(seat).seats[seat]
    out = [0] * info.airplane
    for island, count in enumerate(info.islands, start=1):
        out += [island] * count
    return out + [9] * info.middle


# Yellow (seat 0 of 2) has pieces on islands 1, 3 and 6, and covered 2, 3 and 4 in its
# three turns so far: 5 is left.
YELLOW_SPLITS_5 = "3101001000/3010110000 --- 234/234 -/- 2,3,7/?3 ?13/?13 0 move ? 0"


@pytest.mark.parametrize("seed", SEEDS)
def test_I3_yellow_moves_1_piece_1_space_and_2_pieces_2_spaces_each(seed: int) -> None:
    # "The yellow player selects the number 5 and moves 1 playing piece 1 space forward,
    # and 2 other playing pieces 2 spaces each."
    state = set_up(2, YELLOW_SPLITS_5, seed)
    assert state.view(0).rounds == 3  # derived: the fewest rounds the shells and steps allow
    play(state, "cover 5: 1 piece island 1→2, 1 piece island 3→5, 1 piece island 6→8")
    assert places(state, 0) == [0, 0, 0, 2, 5, 8]
    assert state.view(0).seats[0].covered == [2, 3, 4, 5]


@pytest.mark.parametrize("seed", SEEDS)
def test_I4_three_pieces_on_an_island_complete_exactly_3_not_exactly_2(seed: int) -> None:
    # "Yellow has moved 3 playing pieces onto an island and has therefore completed the
    # mission '3 playing pieces on an island'. The mission '2 playing pieces on an island'
    # was not completed by yellow."
    state = set_up(2, "3102000000/4001010000 --- -/2345 -/- 0,1,7/?3 ?13/?13 0 move ? 0", seed)
    play(state, "cover 2: 1 piece island 1→3")
    yellow = state.view(0)
    assert yellow.seats[0].islands[2] == 3
    assert yellow.seats[0].completed == [mission("exactly 3 pieces on one island")]
    assert mission("exactly 2 pieces on one island") in yellow.hand


@pytest.mark.parametrize("seed", SEEDS)
def test_I4_exactly_4_consecutive_islands_and_a_gap_that_makes_exactly_2(seed: int) -> None:
    # Yellow on A, B, C and D (islands 2 to 5): "on exactly 4 consecutive islands" holds,
    # "on exactly 2" does not. Moving the piece on B 2 spaces forward leaves a gap between
    # A and C: the pieces on C and D are on exactly 2 consecutive islands.
    state = set_up(2, "2011110000/4000001100 --- 34/23 -/- 3,4,7/?3 ?13/?13 0 move ? 0", seed)
    holds = state.mission_mask(0)
    assert holds >> mission("on exactly 4 consecutive islands") & 1
    assert not holds >> mission("on exactly 2 consecutive islands") & 1
    play(state, "cover 2: 1 piece island 3→5")
    assert state.view(0).seats[0].completed == [mission("on exactly 2 consecutive islands")]


# Yellow (seat 0 of 4): 3 pieces on A (island 4), 2 on B (island 5), 1 on island 3; every
# opponent has one piece on A, two of them one on B.
YELLOW_ON_A_AND_B = (
    "0001320000/4000110000/4000110000/5000100000 --- 4/3/2/4 -/-/-/- 1,4,12/?3/?3/?3 ?13/?13/?13/?13 0 move ? 0"
)


@pytest.mark.parametrize("seed", SEEDS)
def test_I4_majority_on_b_but_not_on_a(seed: int) -> None:
    # "Yellow (3 playing pieces) does not have more playing pieces on the A island than the
    # opponents combined (1+1+1=3). Yellow has 3 playing pieces on the B island and the
    # opponents have only 2 combined. That means yellow has completed his mission for B."
    state = set_up(4, YELLOW_ON_A_AND_B, seed)
    play(state, "cover 2: 1 piece island 3→5")
    after = state.view(0)
    assert [seat.islands[3] for seat in after.seats] == [3, 1, 1, 1]  # A
    assert [seat.islands[4] for seat in after.seats] == [3, 1, 1, 0]  # B
    assert mission("majority on island 5") in after.seats[0].completed
    assert not state.mission_mask(0) >> mission("majority on island 4") & 1


@pytest.mark.parametrize("seed", SEEDS)
def test_I4_I5_three_missions_in_a_single_turn(seed: int) -> None:
    # "In the above example yellow would be able to complete the mission 'exactly 3 playing
    # pieces on an island' and the mission 'on exactly 2 consecutive islands' in addition
    # to the mission 'more playing pieces on B island than your opponents'."
    state = set_up(4, YELLOW_ON_A_AND_B, seed)
    play(state, "cover 2: 1 piece island 3→5")
    done = state.view(0).seats[0].completed
    expected = ["exactly 3 pieces on one island", "on exactly 2 consecutive islands", "majority on island 5"]
    assert done == sorted(mission(name) for name in expected)
    # The hand is empty: there is nothing to exchange, 3 cards are drawn and seat 1 moves (I12).
    assert state.current_player == 1 and len(state.view(0).hand) == 3


def test_I4_two_players_need_two_pieces_more_than_the_opponent() -> None:
    # "In a 2-player game, one player has to have 2 playing pieces more than the other
    # player ... one player needs at least 2 of his own playing pieces on an island."
    # Yellow brings a second piece to island 6, which its opponent leaves empty ...
    alone = set_up(2, "4000101000/5000000100 --- 45/23 -/- 13,3,7/?3 ?13/?13 0 move ? 0")
    play(alone, "cover 2: 1 piece island 4→6")
    assert alone.view(0).seats[0].completed == [mission("majority on island 6")]
    # ... and where the opponent has one piece, two are not enough.
    contested = set_up(2, "4000101000/4100001000 --- 45/23 -/- 13,3,7/?3 ?13/?13 0 move ? 0")
    play(contested, "cover 2: 1 piece island 4→6")
    assert contested.view(0).seats[0].completed == []


# The last round of the rulebook's final example, the whole table: green (seat 0, the
# start player) holds its last mission, 'majority on island 1', with a piece on island 7;
# yellow, red and blue (seats 1, 2, 3) have completed 15 each and hold 'exactly 5 pieces
# on one island'. Blue holds the small islands worth 3 and 2, yellow the other; green and
# blue have a piece on the main island, and yellow, red and blue one on island 8 each.
LAST_ROUND = (
    "0011011101/0011101010/0001111110/0000110011 331 34/24/24/35 "
    "0,1,2,3,4,5,6,7,9,10,11,12,13,14,15/0,1,2,4,5,6,7,8,9,10,11,12,13,14,15/"
    "0,1,2,4,5,6,7,8,9,10,11,12,13,14,15/0,1,2,4,5,6,7,8,9,10,11,12,13,14,15 8/3/3/3 -/-/-/- 0 move ? *"
)
# Yellow, red and blue each move their piece from island 8 onto the main island.
OTHERS_LAST_TURNS = (
    "cover 3: 1 piece island 8→middle, 1 piece island 2→4",
    "draw",
    "cover 3: 1 piece island 8→middle, 1 piece island 3→5",
    "draw",
    "cover 2: 1 piece island 8→middle, 1 piece island 4→5",
    "draw",
)


def test_I7_green_completes_its_last_mission_and_the_others_play_the_round_out() -> None:
    # "Since green was the start player, all the other players took one more turn after
    # green completed the last card."
    state = set_up(4, LAST_ROUND)
    play(state, "cover 2: 1 piece island 7→1")
    assert len(state.view(0).seats[0].completed) == 16
    assert state.end_triggered and not state.is_over and state.current_player == 1
    for seat, (move, draw) in enumerate(zip(OTHERS_LAST_TURNS[::2], OTHERS_LAST_TURNS[1::2], strict=True), 1):
        assert not state.is_over and state.current_player == seat
        play(state, move, draw)
    assert state.is_over


def test_I7_final_scores_36_33_31_37_and_blue_wins() -> None:
    # "Green ... receives 32 victory points for the mission cards (16 x 2), 3 bonus points
    # for all completed missions and 1 victory point for having a playing piece on the
    # large middle island ... yellow has 33 victory points (30 + 2 + 1), red has 31 victory
    # points (30 + 1) and blue managed 37 victory points (30 + 3 + 2 + 1 + 1) and wins."
    state = set_up(4, LAST_ROUND)
    play(state, "cover 2: 1 piece island 7→1", *OTHERS_LAST_TURNS)
    assert state.is_over
    assert state.scores() == [36, 33, 31, 37]
    assert state.winners() == [3]
    assert [len(seat.completed) for seat in state.view(0).seats] == [16, 15, 15, 15]


def test_I7_six_pieces_in_the_middle_end_the_game_after_the_round() -> None:
    # "Once at least 6 playing pieces are on the middle island, the game would be over
    # after this round, even if green hadn't completed all the missions."
    state = set_up(4, LAST_ROUND)
    play(state, "cover 5: 1 piece island 2→7", "draw")  # green's last mission does not hold
    assert not state.end_triggered and state.current_player == 1
    play(state, *OTHERS_LAST_TURNS[:2])  # yellow's piece is the sixth in the middle
    assert state.end_triggered and not state.is_over
    play(state, *OTHERS_LAST_TURNS[2:])
    assert state.is_over
    assert state.scores() == [31, 33, 31, 37]
