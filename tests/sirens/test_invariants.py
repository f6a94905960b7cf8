"""Sirens in Sight: the loader accepts exactly the states play can reach.

Every state that play reaches loads again (JSON, MessagePack, pickle), and a tampered state
that breaks an invariant of played states raises InvalidStateError naming it. The checks
are the core's (``SirensCore._load``), so these tests run on whichever core is loaded.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Callable, Iterator
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.sirens import Card, CardSet, MoveCard, PickCard, PlayCard, SirensGame, SirensState
from cruiselib.testing import check_state
from tests.sirens.helpers import FULL, build, position, small_set

GAME = cruiselib.make("sirens")
VARIANT = cruiselib.make("sirens", variant="bow_to_rear")

# A random game in which an octopus move scores its destination, which brings seat 0 to
# 4 points: the game ends at once and the source ship (28, seat 1's side at 30) is not
# checked (S5), so it stays in play at or above its threshold.
OCTOPUS_ENDING = (
    45949,
    [
        *(1651, 136, 39, 1652, 70, 223, 134, 114, 866, 54, 64, 67, 65, 27, 1661, 11, 91, 111, 112, 146),
        *(121, 138, 50, 18, 1660, 141, 6, 1659, 107, 42, 1660, 143, 95, 67, 77, 49, 102, 53, 9, 40),
        *(148, 80, 125, 46, 1661, 194, 1658, 38, 1659, 110, 82, 79, 102, 78, 124, 95, 83, 85, 53, 319),
    ],
)


def octopus_ending() -> SirensState:
    seed, actions = OCTOPUS_ENDING
    state = GAME.new_state(seed=seed)
    for a in actions:
        state.apply(a)
    assert isinstance(state, SirensState)
    return state


def data_of(state: SirensState) -> dict[str, Any]:
    data = msgspec.to_builtins(state.to_data())
    assert isinstance(data, dict)
    return data


def rejected(game: SirensGame, data: dict[str, Any], match: str) -> None:
    """``data`` is refused with a message matching ``match``, as JSON and as a mapping."""
    for encoded in (json.dumps(data), data, msgspec.msgpack.encode(data)):
        with pytest.raises(cruiselib.InvalidStateError, match=match):
            game.load_state(encoded)


def reloads(game: SirensGame, state: SirensState) -> None:
    """Every way a state is saved gives it back, and the conformance deep checks pass."""
    assert game.load_state(state.to_json()) == state
    assert game.load_state(state.to_msgpack()) == state
    assert pickle.loads(pickle.dumps(state)) == state
    check_state(game, state, random.Random(1), where="reload")


def played(game: SirensGame, seeds: range, keep: Callable[[SirensState], bool]) -> Iterator[SirensState]:
    """Every state of random games from ``seeds`` for which ``keep`` holds."""
    for seed in seeds:
        state = game.new_state(seed=seed)
        rnd = random.Random(seed)
        while True:
            assert isinstance(state, SirensState)
            if keep(state):
                yield state.clone()
            if state.is_over:
                break
            state.apply(rnd.choice(state.legal_actions()))


# --------------------------------------------------------------------------- finding 1 (S5)


def test_S5_a_game_ended_by_the_octopus_destination_reloads() -> None:
    state = octopus_ending()
    assert state.is_over and state.scores() == [4, 2]
    ship = state.view(0).ships[0]
    assert ship.in_play and ship.totals[1] >= ship.threshold  # the unchecked source (S5)
    reloads(GAME, state)


def test_S5_only_the_source_of_the_ending_octopus_move_may_stay_unscored() -> None:
    d = data_of(octopus_ending())
    # The octopus returned when its card's ship card scored; it cannot still sit on a card.
    tampered = {**d, "octopus": [d["sides"][0][0][0] if p == d["turn"] else o for p, o in enumerate(d["octopus"])]}
    rejected(GAME, tampered, "only the source of the octopus move that ended the game")
    # A running game cannot leave a ship card unscored (S6).
    rejected(GAME, {**d, "phase": "main", "current_player": d["turn"]}, "the game is over exactly")


def _over_by_points(side: list[int], removed: list[int]) -> dict[str, Any]:
    """Seat 0 has 4 points (ships 28, 30, 32 and the captain); ship 36 is in play with
    ``side`` on seat 1's side; the removed cards have the values ``removed``."""
    return position(
        GAME,
        hands=FULL,
        ships={28: 0, 30: 0, 32: 0},
        crew=("won0", 34),
        sides={(36, 1): side},
        removed=removed,
        phase="over",
        turn=1,
    )


def test_S5_the_unchecked_source_must_have_lost_a_card_that_raised_it() -> None:
    # 38 >= 36 now; before the move its side held the -4 too: 34 < 36. Reachable.
    data = _over_by_points([10, 10, 10, 8], [-4, *range(1, 10), 10, 9])
    state = GAME.load_state(data)
    assert state.is_over and state.scores() == [4, 0]
    # 40 >= 36 even with the -4 back on its side (36): it would have scored before the move.
    rejected(GAME, _over_by_points([10, 10, 10, 10], [-4, *range(1, 10), 9, 8]), "only the source")
    # No removed card is negative: no card left its side to raise it.
    rejected(GAME, _over_by_points([10, 10, 10, 8], [*range(1, 10), 10, 9]), "only the source")


# --------------------------------------------------------------------------- finding 2 (S4)


def test_S4_a_game_ended_by_two_passes_serializes_and_reloads() -> None:
    # Eight cards of value 1 never reach a ship's value, and 5 + 5 needs ten: every game
    # ends when both seats, out of cards and octopus moves, pass (S4).
    game = cruiselib.make("sirens", cards=small_set(8, value=1))
    assert isinstance(game, SirensGame)
    for seed in range(4):
        (state,) = played(game, range(seed, seed + 1), lambda s: s.is_over)
        assert state.to_data().passes == 2
        assert state.scores() == [0, 0]
        reloads(game, state)


# --------------------------------------------------------------------------- finding 5


def _midgame(game: SirensGame = GAME, seed: int = 3, steps: int = 12) -> SirensState:
    state = game.new_state(seed=seed)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[len(legal) // 3])
    assert isinstance(state, SirensState) and not state.is_over
    return state


def test_removed_cards_need_a_ship_card_out_of_play() -> None:
    d = data_of(_midgame())
    assert all(st == -1 for st in d["ships"]) and not d["removed"]
    pile = d["piles"][0]
    rejected(GAME, {**d, "piles": [pile[:-6]], "removed": pile[-6:]}, "6 removed cards do not fit")


def test_a_won_ship_card_took_its_cards_out_of_play() -> None:
    # Seat 0 won 28: at least three cards (of at most 10 each) reached 28.
    rejected(GAME, position(GAME, hands=FULL, ships={28: 0}, removed=[]), "between 3 and 10")
    rejected(GAME, position(GAME, hands=FULL, ships={28: 0}, removed=[10, 10]), "between 3 and 10")
    rejected(GAME, position(GAME, hands=FULL, ships={28: 0}, removed=[0] * 4 + [5] * 4 + [6] * 3), "between 3")
    build(GAME, hands=FULL, ships={28: 0}, removed=[10, 10, 8])
    # A tie took exactly 5 + 5 cards (S6).
    rejected(GAME, position(GAME, hands=FULL, ships={28: 2}, removed=[1, 2, 3]), "between 10 and 10")
    build(GAME, hands=FULL, ships={28: 2}, removed=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10])


def test_a_used_up_rum_mug_left_play_with_a_ship_card() -> None:
    # A mug leaves play only with the ship card it stood on (S6).
    rejected(GAME, position(GAME, hands=FULL, rum=("spent", "held")), "seat 0's rum mug left play")
    build(GAME, hands=FULL, rum=("spent", "held"), ships={28: 1})


def test_an_octopus_move_can_bring_a_seat_to_5_points() -> None:
    # The most a seat can have: at 1 point, the octopus makes 5 + 5 on 32 (seat 0 wins it
    # and the captain: 3), then the source 34 reaches its value (its mate too: 5, S5).
    std = CardSet.standard()
    cards = CardSet(
        name="icons-on-zeros", cards=tuple(Card(c.value, c.emblem, c.value == 0) for c in std.cards), ships=std.ships
    )
    game = cruiselib.make("sirens", cards=cards)
    assert isinstance(game, SirensGame)
    state = build(
        game,
        hands=FULL,
        ships={28: 0},
        crew=(32, 34),
        sides={(34, 0): [10, 10, 10, 7, -4], (32, 0): [3, 2, 0, 0, 0], (32, 1): [-1, -1, -2, -3]},
    )
    state.apply(MoveCard(-4, False, 34, 0, 32, 1))
    assert state.is_over and state.scores() == [5, 0]
    reloads(game, state)


def test_points_beyond_what_the_end_allows() -> None:
    # Four ship cards and both crew tokens: 6 points, but the game ended at 4 (S8).
    data = position(GAME, hands=FULL, ships={28: 0, 30: 0, 32: 0, 34: 0}, crew=("won0", "won0"), phase="over")
    rejected(GAME, data, "points 6:0 cannot happen")


def test_passes_only_where_a_pass_can_be_pending() -> None:
    after = next(played(GAME, range(1, 9), lambda s: s.phase_name == "after"))
    rejected(GAME, {**data_of(after), "passes": 1}, "one pending pass exists only in the main phase")
    (over,) = played(GAME, range(8, 9), lambda s: s.is_over)
    rejected(GAME, {**data_of(over), "passes": 1}, "one pending pass exists only in the main phase")
    pick = VARIANT.new_state(seed=2)
    assert isinstance(pick, SirensState)
    rejected(VARIANT, {**data_of(pick), "passes": 1}, "one pending pass exists only in the main phase")


def test_a_pass_needs_a_seat_without_a_main_action() -> None:
    d = data_of(_midgame())
    rejected(GAME, {**d, "passes": 1}, f"seat {1 - d['turn']} passed but has a card to play")
    rejected(GAME, {**d, "passes": 2, "phase": "over", "current_player": -1}, "passed but has a card to play")


def test_a_game_ended_by_two_passes_had_no_other_end() -> None:
    (over,) = played(GAME, range(8, 9), lambda s: s.is_over)
    rejected(GAME, {**data_of(over), "passes": 2}, "a game ended by two passes")


def test_once_over_each_seat_still_holds_its_cards_while_its_pile_has_some() -> None:
    state = next(s for s in played(GAME, range(8, 30), lambda s: s.is_over) if s.to_data().piles[0])
    d = data_of(state)
    other = 1 - d["turn"]
    hands = [list(h) for h in d["hands"]]
    card = hands[other].pop()
    tampered = {**d, "hands": hands, "piles": [[*d["piles"][0], card]]}
    rejected(GAME, tampered, f"seat {other} must hold 4 cards while its draw pile has cards")


def test_pick_floors_outside_the_variant_and_after_the_picks() -> None:
    d = data_of(_midgame())
    rejected(GAME, {**d, "pick_floor": [3, 0]}, r"pick floors are \[0, 0\] outside the variant")
    v = data_of(_midgame(VARIANT, steps=20))
    assert v["phase"] != "pick"
    # Face 0 is the -4, one card per emblem set: no fourth pick can have it (S14).
    rejected(VARIANT, {**v, "pick_floor": [0, v["pick_floor"][1]]}, "is no face its fourth pick can have")


def test_the_pick_phase_keeps_piles_in_order_and_picks_ascending() -> None:
    state = VARIANT.new_state(seed=4, start_player=0)
    state.apply(PickCard(-4, True))
    state.apply(PickCard(5, False))  # two 5s in each emblem set: the lower id is taken (S12)
    assert isinstance(state, SirensState)
    d = data_of(state)
    hand, pile = d["hands"][0], d["piles"][0]
    assert len(hand) == 2
    rejected(VARIANT, {**d, "piles": [pile[::-1], d["piles"][1]]}, "must stay in card id order")
    rejected(VARIANT, {**d, "hands": [hand[::-1], []]}, "not in ascending face order")
    faces = VARIANT.cards
    twin = next(c for c in pile if faces.face_of(c) == faces.face_of(hand[1]) and c > hand[1])
    swapped = sorted([c if c != twin else hand[1] for c in pile])
    rejected(VARIANT, {**d, "hands": [[hand[0], twin], []], "piles": [swapped, d["piles"][1]]}, "same face was left")


def _crew_after_a_play() -> SirensState:
    # Seat 0 plays a 0 (move-crew icon) to seat 1's side of 30, where the captain stands:
    # seat 1 chooses 28 or 32 (S5 step 2), then seat 0 draws.
    state = build(GAME, hands=([0, 5, 5, 5], FULL[1]), sides={(30, 1): [6]})
    state.apply(PlayCard(0, True, 30, 1))
    assert state.phase_name == "crew" and state.current_player == 1
    return state


def _crew_after_an_octopus_move() -> SirensState:
    # Seat 0's octopus moves the 0 from seat 1's side of 28 to its own side of 30.
    state = build(GAME, hands=FULL, sides={(28, 1): [0, 6], (30, 1): [6]})
    state.apply(MoveCard(0, True, 28, 1, 30, 0))
    assert state.phase_name == "crew" and state.current_player == 0
    return state


def test_a_pending_crew_move_follows_the_card_that_caused_it() -> None:
    state = _crew_after_a_play()
    reloads(GAME, state)
    d = data_of(state)
    pend = d["pending"]
    assert pend == {"ship": 1, "side": 1, "source": -1, "draw": True}
    rejected(GAME, {**d, "pending": {**pend, "draw": False}}, "a played card draws after the crew move")
    rejected(GAME, {**d, "pending": {**pend, "source": 0}}, "octopus move does not")
    # Put the 6 last on that side: it has no move-crew icon (S5 step 2 needs one).
    sides = [[list(s) for s in ship] for ship in d["sides"]]
    sides[1][1].reverse()
    rejected(GAME, {**d, "sides": sides}, "placed last, has no move-crew icon")


def test_a_pending_octopus_move_carries_the_movers_octopus() -> None:
    state = _crew_after_an_octopus_move()
    reloads(GAME, state)
    d = data_of(state)
    pend = d["pending"]
    assert pend == {"ship": 1, "side": 0, "source": 0, "draw": False}
    rejected(GAME, {**d, "pending": {**pend, "draw": True}}, "a played card draws after the crew move")
    six = d["sides"][0][1][0]
    rejected(GAME, {**d, "octopus": [six, -1]}, "must sit on the card it moved")
    rejected(GAME, {**d, "pending": {**pend, "source": -1, "draw": True}}, "carries no octopus")


def test_a_pending_octopus_source_could_hold_the_moved_card() -> None:
    # The -4 moved from seat 1's side of 28, which now holds 10 10 9 (29 >= 28): with the
    # -4 back it held 25 and had not scored, so 28 is scored after the crew move (S5).
    state = build(GAME, hands=FULL, sides={(28, 1): [-4, 10, 10, 9], (30, 1): [6]})
    state.apply(MoveCard(-4, True, 28, 1, 30, 0))
    assert state.phase_name == "crew"
    reloads(GAME, state)
    d = data_of(state)
    cards = GAME.cards.cards
    # A 5 more on that side: 34, and 30 with the -4 back (>= 28): it would have scored.
    sides = [[list(s) for s in ship] for ship in d["sides"]]
    five = next(c for c in d["piles"][0] if cards[c].value == 5)
    sides[0][1].append(five)
    piles = [[c for c in d["piles"][0] if c != five]]
    rejected(GAME, {**d, "sides": sides, "piles": piles}, "ship 0 cannot be where the moved card came from")
    state.apply(state.legal_actions()[0])
    assert state.view(0).ships[0].owner == 1  # scored after the crew move, source last


def test_a_pending_placement_did_not_score_before_it() -> None:
    # Seat 0 plays a 0 (move-crew icon) to its side of 30 holding the captain: 30 needs
    # the crew choice first. Had that side reached 30 before the 0 came, it would have
    # scored then.
    state = build(GAME, hands=([0, 5, 5, 5], FULL[1]), sides={(30, 0): [10, 10, 9]})
    state.apply(PlayCard(0, True, 30, 0))
    assert state.phase_name == "crew"
    reloads(GAME, state)
    d = data_of(state)
    cards = GAME.cards.cards
    ten = next(c for c in d["piles"][0] if cards[c].value == 10)
    nine = d["sides"][1][0][2]
    sides = [[list(s) for s in ship] for ship in d["sides"]]
    sides[1][0][2] = ten
    piles = [[nine if c == ten else c for c in d["piles"][0]]]
    rejected(GAME, {**d, "sides": sides, "piles": piles}, "would have been scored before the pending placement")
