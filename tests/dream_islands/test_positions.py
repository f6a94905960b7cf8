"""Dream Islands positions from descriptions (cruiselib.dream_islands.position): positions
reached by play set up again as they were, by the description and by its compact text; a
seat's view set up so that the seat cannot tell it from the original; every problem of a
hostile description named at once, in the game's terms, by both cores alike, and never
left to the engine's own checks.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.dream_islands import MISSIONS, DreamIslandsGame, DreamIslandsState
from cruiselib.dream_islands.position import DreamIslandsPosition, SeatPosition
from tests.dream_islands.positions import positions
from tests.dream_islands.test_worked_examples import LAST_ROUND, OTHERS_LAST_TURNS
from tests.support import configuration_id, every_configuration, plays_on_alike

# Every player count, and a round limit short enough for games to end by it (I9).
CONFIGURATIONS = [options for name, options in every_configuration() if name == "dream_islands"]
CONFIGURATIONS += [{"players": 2, "max_rounds": 3}, {"players": 4, "max_rounds": 5}]
IDS = [configuration_id("dream_islands", options) for options in CONFIGURATIONS]
PER_CONFIGURATION = 10


def make(**options: Any) -> DreamIslandsGame:
    game = cruiselib.make("dream_islands", **options)
    assert isinstance(game, DreamIslandsGame)
    return game


def sample(game: DreamIslandsGame, seed: int, count: int = PER_CONFIGURATION) -> list[DreamIslandsState]:
    """Positions of seeded games: moves and exchanges (often keeping the hand, so that the
    hand memory of I16 fills), games over among them."""
    return list(positions(game, seed, count))



def hidden_cards(position: DreamIslandsPosition) -> int:
    """How many cards a seat's view gives as counts."""
    return sum(
        (s.hand if isinstance(s.hand, int) else 0)
        + (s.pile if isinstance(s.pile, int) else 0)
        + (s.under if isinstance(s.under, int) else 0)
        for s in position.seats
    )


# --------------------------------------------------------------------------- the whole table


@pytest.mark.parametrize("options", CONFIGURATIONS, ids=IDS)
def test_a_position_reached_by_play_is_set_up_as_it_was(options: dict[str, Any]) -> None:
    game = make(**options)
    twin = game.pure_twin()
    for k, state in enumerate(sample(game, seed=21)):
        described = game.describe(state)
        assert game.position_problems(described) == []
        rebuilt = game.from_position(described)
        assert rebuilt._to_data() == state._to_data()
        text = game.position_text(state)
        assert game.read_position(text) == described
        assert game.from_position(text)._to_data() == state._to_data()
        as_json = json.loads(msgspec.json.encode(described))
        assert game.from_position(as_json)._to_data() == state._to_data()
        assert twin.from_position(text).to_json() == rebuilt.to_json()  # both cores alike
        plays_on_alike(state.clone(), rebuilt, seed=k)


@pytest.mark.parametrize("options", CONFIGURATIONS, ids=IDS)
def test_rounds_left_out_are_the_fewest_that_fit(options: dict[str, Any]) -> None:
    # The shells repeat every 4 turns and the steps every 16, so the rounds played are not
    # always fixed by the table: left out, the fewest that fit are taken, and the state plays.
    game = make(**options)
    for k, state in enumerate(sample(game, seed=22)):
        described = msgspec.structs.replace(game.describe(state), rounds=None)
        assert game.position_problems(described) == []
        built = game.from_position(described)
        assert built.view(0).rounds <= state.view(0).rounds
        for fewer in range(built.view(0).rounds):
            assert game.position_problems(msgspec.structs.replace(described, rounds=fewer)), fewer
        assert built.to_json() == game.load_state(built.to_json()).to_json()
        plays_on_alike(built, built.clone(), seed=k)


def test_the_missions_the_checks_see_are_the_engines() -> None:
    # I4, I13: the description's checks judge which missions hold as the core does.
    for options in CONFIGURATIONS[:3]:
        game = make(**options)
        rules: Any = game._position_rules()
        for state in sample(game, seed=23, count=30):
            pieces = state._to_data().pieces
            for seat in range(game.num_players):
                assert rules._holds(pieces, seat) == state.mission_mask(seat)


def test_the_start_of_a_game_is_round_0_and_its_text_reads_back() -> None:
    game = make(players=3)
    state = game.new_state(seed=4)
    text = game.position_text(state)
    fields = text.split()
    assert fields[:2] == ["5100000000/5010000000/5001000000", "---"]
    assert fields[6:10] == ["0", "move", "0", "*"]
    assert fields[10:] == ["-", state._to_data().rng]
    assert game.from_position(text.replace(" 0 * ", " ? * "))._to_data() == state._to_data()


# --------------------------------------------------------------------------- a seat's view


@pytest.mark.parametrize("options", CONFIGURATIONS, ids=IDS)
def test_a_seat_s_view_sets_up_a_state_the_seat_cannot_tell_from_the_original(options: dict[str, Any]) -> None:
    game = make(**options)
    dealt_apart = 0
    for state in sample(game, seed=24):
        for seat in range(game.num_players):
            described = game.describe(state, seat)
            assert game.position_problems(described) == []
            text = game.position_text(described)
            assert game.read_position(text) == described
            deals = set()
            for seed in range(4):
                built = game.from_position(text, seed=seed)
                # What the seat sees now and what it remembers (I16): the same.
                assert built.view(seat, recall=True) == state.view(seat, recall=True)
                assert game.describe(built, seat) == described
                assert built.view(seat, recall=False) == state.view(seat)
                deals.add(built.to_json())
            # Where many cards are hidden, different seeds deal them differently.
            if hidden_cards(described) >= 8:
                assert len(deals) > 1
                dealt_apart += 1
    assert dealt_apart


@pytest.mark.parametrize("options", CONFIGURATIONS, ids=IDS)
def test_a_seat_s_view_keeps_what_play_has_shown_of_every_hand(options: dict[str, Any]) -> None:
    # I16, I17: the view holds the hand memory where it says more than the table shows
    # now, and every deal of the hidden rest keeps it (resample with recall), on both cores.
    game = make(**options)
    twin = game.pure_twin()
    remembered = 0
    for state in sample(game, seed=28):
        memory = state._to_data().hand_avoids
        for seat in range(game.num_players):
            described = game.describe(state, seat)
            given = [p for p, s in enumerate(described.seats) if s.memory is not None]
            remembered += len(given)
            for p in given:
                levels = described.seats[p].memory
                assert levels is not None
                assert [sum(1 << MISSIONS.index(x) for x in level) for level in levels] == memory[p]
            text = game.position_text(described)
            assert (len(text.split()) == 11) == bool(given)  # the memory field only when it says something
            for seed in range(2):
                built = twin.from_position(text, seed=seed)
                assert built._to_data().hand_avoids == memory
                assert built.view(seat, recall=True) == game.from_position(text, seed=seed).view(seat, recall=True)
    assert remembered


def test_a_seat_s_view_without_its_memory_sets_up_remembering_only_what_the_table_shows() -> None:
    # Older texts, or a person who remembers nothing: the memory left out is what the
    # table shows now (I13, I17), and the view still sets up.
    game = make(players=3)
    for state in sample(game, seed=29, count=20):
        for seat in range(game.num_players):
            described = game.describe(state, seat)
            if all(s.memory is None for s in described.seats):
                continue
            forgetful = msgspec.structs.replace(
                described, seats=[msgspec.structs.replace(s, memory=None) for s in described.seats]
            )
            text = game.position_text(forgetful)
            assert len(text.split()) == 10 and text == " ".join(game.position_text(described).split()[:10])
            built = game.from_position(text, seed=1)
            assert built.view(seat) == state.view(seat)
            assert game.describe(built, seat) == forgetful
            return
    raise AssertionError("no view with a memory")


# docs/dream_islands.md, "The compact text": the whole table, and seat 1's view of it.
DOCS_TABLE = (
    "1300101000/0220200000/2200020000 --- 345/345/45 8,13/4/12 9,11,12/10,2,5/14,2,6 "
    "15,5,7,14,3,4,2,1,0|10,6/6,13,7,14,9,0,1,15|11,8,12,3/1,9,15,0,11,7,4|3,5,8,10,13 1 exchange 2 * "
    "1,4,11;.;./-/- 867fc6d91ed3158d"
)
DOCS_VIEW = (
    "1300101000/0220200000/2200020000 --- 345/345/45 8,13/4/12 ?3/2,5,10/?3 ?9|?2/?8|11,8,12,3/?7|?5 1 exchange 2 1 "
    "1,4,11;.;./-/-"
)


def test_the_documented_view_remembers_seat_0_s_hand() -> None:
    game = make(players=3)
    table = game.from_position(DOCS_TABLE)
    assert game.position_text(table, 1) == DOCS_VIEW
    for seed in range(3):
        built = game.from_position(DOCS_VIEW, seed=seed)
        assert built.view(1, recall=True) == table.view(1, recall=True)
        assert built.view(1, recall=True).recall[0].avoid == [[1, 4, 11], [], []]  # type: ignore[index]
    forgetful = game.from_position(DOCS_VIEW.rsplit(" ", 1)[0], seed=1)
    assert forgetful.view(1) == table.view(1)
    assert forgetful.view(1, recall=True).recall[0].avoid == [[], [], []]  # type: ignore[index]
    assert game.position_problems(DOCS_VIEW.replace("1,4,11;", "1,4,8;")) == [
        "seat 0's memory list 1 names completed 'majority on island 1': no hand holds a completed mission (I16)"
    ]


def remembering() -> tuple[DreamIslandsGame, DreamIslandsState]:
    """Seat 0 made two consecutive islands, kept its hand and drew nothing: the table
    remembers that none of its 3 cards is 'on exactly 2 consecutive islands' (I13, I16);
    seat 1 is to move."""
    game = make(players=2)
    state = game.new_state(seed=0)
    state.apply(state.parse_move("cover 2: 1 piece airplane→island 2"))
    state.apply(state.parse_move("draw"))
    assert state._to_data().hand_avoids[0] == [1 << MISSIONS.index("on exactly 2 consecutive islands")] * 3
    return game, state


def test_hostile_memory_in_a_seat_s_view_is_refused_with_every_problem_named() -> None:
    game, state = remembering()
    view = game.describe(state, 1)  # seat 1 sees seat 0's hand as a count
    pair = "on exactly 2 consecutive islands"
    assert view.seats[0].memory == [[pair], [pair], [pair]] and view.seats[0].hand == 3
    # A remembered mission that lies face up among the completed, and more lists than cards.
    assert_refused(
        game,
        seat_with(view, 0, completed=[pair], pile=12),
        [
            f"seat 0's memory list {k} names completed '{pair}': no hand holds a completed mission (I16)"
            for k in (1, 2, 3)
        ],
    )
    memory = view.seats[0].memory
    assert_refused(
        game,
        seat_with(view, 0, memory=[*memory, []]),
        ["seat 0's memory has 4 lists: one per card in its hand (3) (I16)"],
    )
    assert_refused(
        game,
        seat_with(view, 0, memory=memory[:2]),
        ["seat 0's memory has 2 lists: one per card in its hand (3) (I16)"],
    )
    # Lists that no hand of the missions still to do is true of, and lists not inside each other.
    everything: list[Any] = list(MISSIONS)
    assert_refused(
        game,
        seat_with(view, 0, memory=[everything[:14], [*everything[:14], everything[15]], everything[:14]]),
        [
            "seat 0's memory list 2 names 'majority on island 8' that list 1 does not: what 2 cards are not, 1 of "
            "them are not either (I16)",
            "seat 0's memory says 2 or more cards of its hand are none of list 2, but only 1 of the missions its "
            "hand may hold is not in it (I16)",
            "seat 0's memory says 3 or more cards of its hand are none of list 3, but only 2 of the missions its "
            "hand may hold are not in it (I16)",
        ],
    )
    assert_refused(
        game,
        seat_with(view, 0, memory=[everything, [], []]),
        [
            "seat 0's memory says 1 or more cards of its hand are none of list 1, but only 0 of the missions its "
            "hand may hold are not in it (I16)",
        ],
    )
    # The viewer's own listed hand: its memory must be true of it.
    own = game.describe(state, 0)
    hand = own.seats[0].hand
    assert isinstance(hand, list)
    assert_refused(
        game,
        seat_with(own, 0, memory=[list(hand), [], []]),
        ["seat 0's memory says 1 or more cards of its hand are none of list 1, but 0 are (I16)"],
    )
    # Seat 1 has not moved: it remembers nothing.
    assert_refused(
        game,
        seat_with(view, 1, memory=[[everything[0]], [], []]),
        ["seat 1 has not moved yet, so play has shown nothing of its hand: its memory is empty (I16)"],
    )


def test_a_sound_memory_in_a_seat_s_view_binds_every_deal() -> None:
    # A person may remember more than play showed them exactly: any memory true of some
    # hand is dealt by, and only by, hands it is true of.
    game, state = remembering()
    view = game.describe(state, 1)
    everything: list[Any] = list(MISSIONS)
    narrow = seat_with(view, 0, memory=[everything[:13], everything[:13], everything[:13]])
    assert game.position_problems(narrow) == []
    hands = set()
    for seed in range(6):
        built = game.from_position(narrow, seed=seed)
        hand = built._to_data().hands[0]
        assert sorted(hand) == [13, 14, 15]
        hands.add(tuple(built._to_data().piles[0]))
        assert game.describe(built, 1) == narrow
    assert len(hands) > 1  # the pile, hidden and not remembered, is still dealt at random


def test_a_seat_s_view_in_an_exchange_deals_no_mission_that_holds_into_the_mover_s_hand() -> None:
    # I13: the table knows that the mover's hand holds no mission that holds after its
    # move, so every deal of a seat's view keeps that.
    game = make(players=4)
    seen = 0
    for state in sample(game, seed=25, count=60):
        if state.phase_name != "exchange":
            continue
        mover = state.current_player
        watcher = (mover + 1) % game.num_players
        for seed in range(3):
            built = game.from_position(game.describe(state, watcher), seed=seed)
            holds = built.mission_mask(mover)
            assert not any(holds >> x & 1 for x in built._to_data().hands[mover])
            seen += 1
    assert seen


# --------------------------------------------------------------------------- problems


def start(players: int = 4) -> tuple[DreamIslandsGame, DreamIslandsPosition]:
    game = make(players=players)
    return game, game.describe(game.new_state(seed=7))


def seat_with(position: DreamIslandsPosition, seat: int, **changes: Any) -> DreamIslandsPosition:
    seats = list(position.seats)
    seats[seat] = msgspec.structs.replace(seats[seat], **changes)
    return msgspec.structs.replace(position, seats=seats)


def assert_refused(game: DreamIslandsGame, position: Any, problems: list[str]) -> None:
    """``position`` has exactly ``problems``, on both cores, and nothing is built."""
    assert game.position_problems(position) == problems
    assert game.pure_twin().position_problems(position) == problems
    with pytest.raises(cruiselib.InvalidPositionError) as refused:
        game.from_position(position)
    assert list(refused.value.problems) == problems


def test_a_whole_table_with_several_problems_has_every_one_named() -> None:
    game, position = start()
    zero = position.seats[0]
    hand = list(zero.hand) if isinstance(zero.hand, list) else []
    pile = list(zero.pile) if isinstance(zero.pile, list) else []
    wrong = seat_with(position, 0, hand=[*hand[:2], pile[0]], airplane=6)  # pile's top card also in hand
    wrong = seat_with(wrong, 2, shells=[3])
    wrong = msgspec.structs.replace(wrong, small_islands=[None, 1, None])
    assert_refused(
        game,
        wrong,
        [
            "the small islands fill in order, worth 3, then 2, then 2 (I1)",
            "seat 0 has 7 pieces, not 6",
            "seat 1 has 7 pieces, not 6",
            f"seat 0's '{pile[0]}' is in its hand and in its pile",
            f"seat 0's '{hand[2]}' is nowhere: every mission is completed, in the hand or in the pile",
        ],
    )


def test_shells_steps_missions_and_turns_must_fit_the_rounds_played() -> None:
    game, position = start()
    wrong = seat_with(position, 1, shells=[4], completed=[MISSIONS[0]])
    pile = wrong.seats[1].pile
    assert isinstance(pile, list)
    wrong = seat_with(wrong, 1, pile=[x for x in pile if x != MISSIONS[0]])
    wrong = seat_with(wrong, 3, airplane=4, islands=[0, 0, 0, 0, 0, 0, 0, 2])
    assert_refused(
        game,
        wrong,
        [
            "seat 1 has 1 shell on its board after 0 turns, not 0: every turn covers one number, and all four "
            "come off when the next turn starts (I2)",
            "seat 1 completed 1 mission in 0 turns: at most the 3 in hand a turn (I5)",
            "seat 3's pieces are 12 steps (plus whole laps of the ring) from where they started, but the numbers "
            "it covered in 0 turns add up to 0 steps (I3, I8)",
        ],
    )
    assert_refused(
        game,
        msgspec.structs.replace(wrong, rounds=None),
        [
            "no count of rounds played fits the shells, pieces and missions; the closest, 0, leaves these "
            "problems: seat 1 has 1 shell on its board after 0 turns, not 0: every turn covers one number, and "
            "all four come off when the next turn starts (I2); seat 1 completed 1 mission in 0 turns: at most "
            "the 3 in hand a turn (I5); seat 3's pieces are 12 steps (plus whole laps of the ring) from where "
            "they started, but the numbers it covered in 0 turns add up to 0 steps (I3, I8)",
        ],
    )


def test_the_turn_and_the_phase_are_checked_against_the_end() -> None:
    game, position = start(players=2)
    assert_refused(
        game,
        msgspec.structs.replace(position, phase="over"),
        [
            "the game is over, yet it is seat 0's turn",
        ],
    )
    assert_refused(
        game,
        msgspec.structs.replace(position, phase="over", turn=None),
        [
            "a game is over only after a complete round (I7)",
            "the game is over, but no seat completed all 16 missions, fewer than 6 pieces stand in the middle "
            "and 0 rounds are not the round counter's cap (I15) (I7)",
        ],
    )
    assert_refused(
        game,
        msgspec.structs.replace(position, phase="exchange", turn=3),
        ["seat 3 is to decide but does not play in a 2-player game"],
    )
    limited = make(players=2, max_rounds=3)
    assert_refused(
        limited,
        msgspec.structs.replace(limited.describe(limited.new_state(seed=7)), rounds=3),
        [
            "3 rounds played reach the round limit of 3 rounds (I9): the game would be over",
            "seat 0 has 0 shells on its board after 3 turns, not 3: every turn covers one number, and all four "
            "come off when the next turn starts (I2)",
            "seat 1 has 0 shells on its board after 3 turns, not 3: every turn covers one number, and all four "
            "come off when the next turn starts (I2)",
        ],
    )


def test_a_game_ended_by_its_last_mission_still_ends_by_the_round_limit() -> None:
    # I7, I9: the rulebook's last round, in a game with a round limit of 20: over after 19
    # rounds, and never later than the limit.
    game = make(players=4, max_rounds=20)
    state = game.from_position(LAST_ROUND)
    for move in ("cover 2: 1 piece island 7→1", *OTHERS_LAST_TURNS):
        state.apply(state.parse_move(move))
    over = game.describe(state)
    assert over.phase == "over" and over.rounds == 19 and game.position_problems(over) == []
    problems = game.position_problems(msgspec.structs.replace(over, rounds=21))
    assert problems[0] == "21 rounds played: the game ends after the round limit of 20 rounds (I9) at the latest"
    assert_refused(game, msgspec.structs.replace(over, rounds=21), problems)


def test_a_seat_s_view_names_what_it_cannot_see_and_what_does_not_add_up() -> None:
    game = make(players=3)
    state = game.new_state(seed=8)
    view = game.describe(state, 1)
    assert_refused(
        game,
        seat_with(seat_with(view, 1, pile=["majority on island 1"]), 2, hand=["majority on island 2"]),
        [
            "seat 1's pile is listed, but seat 1 never sees the order of its own pile (I6): give its size",
            "seat 2's hand is listed, but seat 1 sees only how many there are: give its size",
        ],
    )
    assert_refused(
        game,
        seat_with(seat_with(view, 0, pile=12), 1, pile=14),
        [
            "seat 0 has 15 missions (0 completed, 3 in hand, 12 in the pile, 0 put under the pile), not 16",
            "seat 1 has 17 missions (0 completed, 3 in hand, 14 in the pile, 0 put under the pile), not 16",
        ],
    )
    assert_refused(
        game,
        msgspec.structs.replace(view, rng="0123456789abcdef"),
        ["a seat's view gives no generator state: only the whole table knows its future"],
    )


def test_an_exchange_with_a_mission_that_holds_is_refused() -> None:
    # I5, I13: after its move the mover holds no mission that holds; a view that leaves no
    # other card for its hand is refused too.
    game = make(players=2)
    mover = "2010120000/4000001100 --- 234/23 -/- 4,3,7/?3 ?13/?13 0 exchange ? 0"
    assert game.position_problems(mover) == [
        "seat 0 holds 'on exactly 2 consecutive islands' in its exchange, but it holds after its move and would "
        "have been completed (I5, I13)"
    ]
    # Left to do: 'exactly 2 pieces on one island' and 'on exactly 2 consecutive islands',
    # which hold, and 'exactly 5 pieces on one island', which does not.
    completed = ",".join(str(x) for x in range(16) if x not in (0, 4, 3))
    watcher = f"2010120000/4000001100 --- 234/23 {completed}/- ?2/0,1,2 ?1/?13 0 exchange ? 1"
    assert game.position_problems(watcher) == [
        "seat 0 holds 2 cards in its exchange, but only 1 of its missions still to do do not hold now: it would "
        "hold one that would have been completed (I5, I13)"
    ]
    sound = watcher.replace("?2/", "?1/").replace("?1/?13", "?2/?13")
    assert game.position_problems(sound) == []
    for seed in range(3):
        assert game.from_position(sound, seed=seed)._to_data().hands[0] == [3]


def test_the_hand_memory_must_be_true_of_the_hand() -> None:
    # I16: one list per card, each inside the one before, no completed mission, and true
    # of the hand.
    game = make(players=2)
    state = game.new_state(seed=9)
    state.apply(state.legal_actions()[0])  # a move that completes nothing ...
    state.apply(state.legal_actions()[-1])  # ... then "draw": seat 0 keeps its hand
    position = game.describe(state)
    hand = position.seats[0].hand
    assert isinstance(hand, list)
    other = next(name for name in MISSIONS if name not in hand)
    assert_refused(
        game,
        seat_with(position, 0, memory=[[hand[0], hand[1]], [hand[0], hand[1], other], [hand[0]]]),
        [
            f"seat 0's memory list 2 names '{other}' that list 1 does not: what 2 cards are not, 1 of them are "
            "not either (I16)",
            "seat 0's memory says 2 or more cards of its hand are none of list 2, but 1 is (I16)",
            "seat 0's memory says 3 or more cards of its hand are none of list 3, but 2 are (I16)",
        ],
    )
    assert_refused(
        game,
        seat_with(position, 1, memory=[[other]]),
        [
            "seat 1's memory has 1 list: one per card in its hand (3) (I16)",
            "seat 1 has not moved yet, so play has shown nothing of its hand: its memory is empty (I16)",
        ],
    )


# --------------------------------------------------------------------------- texts


def test_garbage_texts_are_refused_with_what_does_not_read() -> None:
    game = make(players=2)
    text = game.position_text(game.new_state(seed=3))
    cases = {
        "": [
            "a position text has 10 to 12 fields separated by spaces (pieces, small islands, shells, completed, "
            "hands, piles, turn, phase, rounds, view, memory, generator), not 0"
        ],
        text + " extra": [
            "a position text has 10 to 12 fields separated by spaces (pieces, small islands, shells, "
            "completed, hands, piles, turn, phase, rounds, view, memory, generator), not 13"
        ],
        text.replace("5100000000/", "5100000000/5100000000/", 1): [
            "the pieces field '5100000000/5100000000/5010000000' gives 3 seats separated by '/', the game has 2"
        ],
        text.replace(" move ", " dance ").replace(" 0 * ", " 99999999999 * "): [
            "the phase 'dance' does not read: move, exchange or over",
            "the rounds '99999999999' does not read: the complete rounds played (at most 2147483647), or '?' to "
            "derive them",
        ],
        " ".join([*text.split()[:3], "16/-", *text.split()[4:]]): [
            "seat 0's completed missions '16' does not read: mission ids 0..15 separated by ',' or '-'"
        ],
        text.replace(" *", " 9"): ["the view '9' does not read: a seat 0..3 or '*'"],
        " ".join([*text.split()[:4], "?99/-", "?9999|0,1/-", *text.split()[6:]]): [
            "seat 0's hand '?99' does not read: at most 3 cards",
            "seat 0's pile (above the cards put under) '?9999' does not read: mission ids 0..15 separated by ',', "
            "'?N' for N hidden or '-'",
        ],
    }
    for garbage, problems in cases.items():
        with pytest.raises(cruiselib.InvalidPositionError) as refused:
            game.read_position(garbage)
        assert list(refused.value.problems) == problems, garbage
        assert game.position_problems(garbage) == problems
        assert game.pure_twin().position_problems(garbage) == problems


def test_every_cut_of_a_text_is_refused_or_sets_up_a_sound_position() -> None:
    game = make(players=4)
    for state in sample(game, seed=26, count=3):
        for seat in (None, state.current_player if not state.is_over else 0):
            text = game.position_text(state, seat)
            for cut in range(0, len(text), 7):
                assert_sound_or_refused(game, text[:cut])


# --------------------------------------------------------------------------- a mutation sweep


def assert_sound_or_refused(game: DreamIslandsGame, position: Any) -> None:
    """Either problems are named (and ``from_position`` raises with exactly those), or the
    position sets up a state that plays and reloads: never the engine's own refusal."""
    problems = game.position_problems(position)
    if problems:
        assert all(isinstance(p, str) and p for p in problems)
        assert not any("engine refuses" in p for p in problems), problems
        with pytest.raises(cruiselib.InvalidPositionError) as refused:
            game.from_position(position, seed=1)
        assert list(refused.value.problems) == problems
        return
    state = game.from_position(position, seed=1)
    rnd = random.Random(0)
    for _ in range(12):
        if state.is_over:
            break
        state.apply(rnd.choice(state.legal_actions()))
        game.load_state(state.to_json())


def _replace_seat(position: DreamIslandsPosition, seat: int, field: str, value: Any) -> DreamIslandsPosition:
    return seat_with(position, seat, **{field: value})


def mutations(position: DreamIslandsPosition, rnd: random.Random) -> Iterator[DreamIslandsPosition]:
    """``position`` with one field changed at a time: counts, cards moved, duplicated or
    dropped, shells, the middle, the turn, the phase, the rounds, the seat."""
    replace: Callable[..., DreamIslandsPosition] = msgspec.structs.replace
    names: list[Any] = list(MISSIONS)
    for p, s in enumerate(position.seats):
        for field in ("airplane", "main_island"):
            for delta in (-1, 1):
                count = getattr(s, field) + delta
                if 0 <= count <= 6:
                    yield _replace_seat(position, p, field, count)
        islands = list(s.islands)
        i = rnd.randrange(8)
        for delta in (-1, 1):
            if 0 <= islands[i] + delta <= 6:
                yield _replace_seat(position, p, "islands", [*islands[:i], islands[i] + delta, *islands[i + 1 :]])
        yield _replace_seat(position, p, "shells", sorted({*s.shells, rnd.randint(2, 5)}))
        if s.shells:
            yield _replace_seat(position, p, "shells", s.shells[1:])
            yield _replace_seat(position, p, "shells", [*s.shells, s.shells[0]])
        for field in ("hand", "pile", "under", "completed"):
            value = getattr(s, field)
            if isinstance(value, int):
                for delta in (-1, 1):
                    if 0 <= value + delta <= (3 if field == "hand" else 16):
                        yield _replace_seat(position, p, field, value + delta)
                continue
            if value:
                yield _replace_seat(position, p, field, value[1:])  # a card dropped
                if len(value) < (3 if field == "hand" else 16):
                    yield _replace_seat(position, p, field, [*value, value[0]])  # a card twice
            if len(value) < (3 if field == "hand" else 16):
                yield _replace_seat(position, p, field, [*value, rnd.choice(names)])  # maybe a card twice
        if isinstance(s.pile, list) and s.pile and isinstance(s.under, list):
            yield _replace_seat(_replace_seat(position, p, "pile", s.pile[1:]), p, "under", [*s.under, s.pile[0]])
        if isinstance(s.pile, list) and s.pile and isinstance(s.completed, list):
            moved = _replace_seat(position, p, "pile", s.pile[1:])
            yield _replace_seat(moved, p, "completed", sorted([*s.completed, s.pile[0]], key=names.index))
        hand_size = s.hand if isinstance(s.hand, int) else len(s.hand)
        levels: list[list[Any]] = [list(x) for x in s.memory] if s.memory is not None else [[]] * hand_size
        if levels:  # a mission remembered more, or a card fewer remembered than held
            yield _replace_seat(position, p, "memory", [[*levels[0], rnd.choice(names)], *levels[1:]])
            yield _replace_seat(position, p, "memory", levels[1:])
        if s.memory is not None:  # the memory forgotten
            yield _replace_seat(position, p, "memory", None)
    n = len(position.seats)
    for i in range(3):
        for who in (None, rnd.randrange(n)):
            small = list(position.small_islands)
            small[i] = who
            yield replace(position, small_islands=small)
    for turn in (None, 0, (position.turn or 0) + 1, n - 1):
        yield replace(position, turn=turn)
    for phase in ("move", "exchange", "over"):
        yield replace(position, phase=phase)
    rounds = position.rounds or 0
    for value in (None, 0, rounds - 1, rounds + 1, rounds + 4, rounds + 16):
        if value is None or value >= 0:
            yield replace(position, rounds=value)
    for seat in (None, *range(n)):
        yield replace(position, seat=seat)


@pytest.mark.parametrize("options", CONFIGURATIONS, ids=IDS)
def test_a_mutation_sweep_is_refused_with_problems_or_sets_up_a_sound_state(options: dict[str, Any]) -> None:
    game = make(**options)
    twin = game.pure_twin()
    rnd = random.Random(27)
    checked = 0
    for state in sample(game, seed=27, count=4):
        for seat in (None, rnd.randrange(game.num_players)):
            for k, mutant in enumerate(mutations(game.describe(state, seat), rnd)):
                assert_sound_or_refused(game, mutant)
                if k % 9 == 0:
                    assert twin.position_problems(mutant) == game.position_problems(mutant)
                checked += 1
    assert checked > 150


def test_a_mapping_is_refused_past_the_schema_s_bounds() -> None:
    game, position = start(players=2)
    data = msgspec.to_builtins(position)
    data["seats"][0]["airplane"] = 7
    problems = game.position_problems(data)
    assert len(problems) == 1 and problems[0].startswith("not a description: Expected `int` <= 6")
    data["seats"][0]["airplane"] = 5
    data["seats"][0]["hand"] = ["majority on island 9"]
    assert game.position_problems(data)[0].startswith("not a description: Invalid enum value")


def test_the_schema_names_the_position_and_its_seats() -> None:
    schema = make().json_schemas()["position"]
    defs = schema["$defs"]
    assert set(defs) >= {DreamIslandsPosition.__name__, SeatPosition.__name__}
    hand = defs[SeatPosition.__name__]["properties"]["hand"]
    assert {"type": "integer", "minimum": 0, "maximum": 3} in hand["anyOf"]
