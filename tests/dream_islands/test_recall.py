"""Dream Islands, ruling I16: what play shows everybody of a hand, remembered.

After its move a seat's hand holds no mission that holds then (I5, I13): the whole table
sees that. Without a new card since, the hand still holds none of them, and that stays
true through later turns, where the table shows nothing of it any more. The state keeps
these facts per seat as levels: level k lists missions of which at least k of the
hand's cards are none. They are exact through moves and completed missions, stay true
(losing only what depended on which card went) when a card goes under the pile, and new
cards add nothing. ``view(p, recall=True)``, ``information_state`` and
``resample(..., recall=True)`` use them.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

import cruiselib
from cruiselib.dream_islands import Cover, Draw, DreamIslandsGame, DreamIslandsState, Path, PutUnder
from tests.dream_islands.helpers import build, game
from tests.dream_islands.positions import all_positions, keeping_policy
from tests.dream_islands.test_views import levels_hold


def data_of(state: DreamIslandsState) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(state.to_json())
    return result


def bits(mask: int) -> list[int]:
    return [m for m in range(16) if (mask >> m) & 1]


def memory_of(d: dict[str, Any], seat: int) -> list[list[int]]:
    """A seat's hand memory in a snapshot (one mask per card) as lists of mission ids."""
    return [bits(mask) for mask in d["hand_avoids"][seat]]


def three_on_island_2(g: DreamIslandsGame, **kwargs: Any) -> DreamIslandsState:
    """Seat 0 has two pieces on island 2 and moves a third there next (cover 2)."""
    return build(g, pieces={0: [2, 2, 0, 0, 0, 0]}, **kwargs)


MOVE = Cover(2, (Path(0, 2),))


def holds_after_move(g: DreamIslandsGame) -> int:
    probe = three_on_island_2(g, hands={0: [13, 14, 15]})
    probe.apply(MOVE)
    return probe.mission_mask(0)


def test_I16_a_kept_hand_is_remembered_after_the_turn() -> None:
    g = game(2)
    state = three_on_island_2(g, hands={0: [4, 5, 6]})
    state.apply(MOVE)
    holds = state.mission_mask(0)
    assert (holds >> 1) & 1  # "exactly 3" holds, and seat 0 does not hold it (I5)
    state.apply(Draw())  # keeps its hand: no card under the pile, none drawn
    assert state.current_player == 1 and state.phase_name == "move"
    view = state.view(1, recall=True)
    assert state.view(1).recall is None
    assert view.recall is not None and view.recall[0].avoid == [bits(holds)] * 3
    assert view.recall[1].avoid == [[], [], []]  # seat 1 has not moved
    # Resampling with recall never deals seat 0 one of them; without, the table shows
    # nothing of seat 0's hand any more, and some deals do.
    with_recall = [data_of(state.resample(1, seed, recall=True))["hands"][0] for seed in range(60)]
    plain = [data_of(state.resample(1, seed))["hands"][0] for seed in range(60)]
    assert not any((holds >> c) & 1 for hand in with_recall for c in hand)
    assert any((holds >> c) & 1 for hand in plain for c in hand)


def test_I16_the_memory_is_the_same_for_every_seat() -> None:
    for g, state in list(all_positions(per_config=6, seed=3)):
        recalls = [state.view(p, recall=True).recall for p in range(g.num_players)]
        assert all(r == recalls[0] for r in recalls)


def random_levels(hand: list[int], rnd: random.Random) -> list[list[int]]:
    """Nested levels (each inside the one before) that the hand meets, at random."""
    while True:
        l3 = {c for c in range(16) if rnd.random() < 0.25}
        l2 = l3 | {c for c in range(16) if rnd.random() < 0.2}
        l1 = l2 | {c for c in range(16) if rnd.random() < 0.2}
        levels = [sorted(l1), sorted(l2), sorted(l3)]
        if levels_hold(hand, levels):
            return levels


def test_I16_a_move_updates_the_memory_exactly() -> None:
    # Brute force over every hand: after the move, the hands that meet the new memory are
    # exactly those left from a hand that met the old one, less the cards completed (seen
    # face up), holding none of the missions that hold now (I5, I13).
    g = game(2)
    holds = holds_after_move(g)
    rnd = random.Random(16)
    completed_some = 0
    for _ in range(60):
        hand = rnd.sample(range(16), 3)
        old = random_levels(hand, rnd)
        state = three_on_island_2(g, hands={0: hand}, avoids={0: old})
        state.apply(MOVE)
        d = data_of(state)
        gone = sorted(set(hand) & set(bits(holds)))
        assert d["completed"][0] == gone
        completed_some += bool(gone)
        if len(gone) == 3:
            continue  # an empty hand draws at once (I12): three new, unknown cards
        new = memory_of(d, 0)
        size = 3 - len(gone)
        assert len(new) == size
        rest = [c for c in range(16) if c not in gone]
        for h in itertools.combinations(rest, size):
            possible = not any((holds >> c) & 1 for c in h) and levels_hold([*h, *gone], old)
            assert levels_hold(h, new) == possible, (hand, old, h)
    assert completed_some > 10


def test_I16_a_card_put_under_the_pile_keeps_what_is_still_sure() -> None:
    # Nobody sees which card went: whatever it was, the cards left meet the new memory,
    # and level k + 1 became level k.
    g = game(2)
    holds = holds_after_move(g)
    rnd = random.Random(6)
    for _ in range(30):
        hand = rnd.sample([c for c in range(16) if not (holds >> c) & 1], 3)
        state = three_on_island_2(g, hands={0: hand}, avoids={0: random_levels(hand, rnd)})
        state.apply(MOVE)
        before = memory_of(data_of(state), 0)
        state.apply(PutUnder(rnd.choice(hand)))
        after = memory_of(data_of(state), 0)
        assert after == before[1:]
        for h in itertools.combinations(range(16), 3):
            if levels_hold(h, before):
                for x in h:
                    assert levels_hold([c for c in h if c != x], after)


def test_I16_new_cards_add_nothing() -> None:
    g = game(2)
    state = three_on_island_2(g, hands={0: [4, 5, 6]})
    state.apply(MOVE)
    state.apply(PutUnder(5))
    kept = memory_of(data_of(state), 0)
    state.apply(Draw())  # one new card from the top of the pile
    d = data_of(state)
    assert len(d["hands"][0]) == 3 and memory_of(d, 0) == [*kept, []]


def test_I16_the_memory_is_true_of_the_hands_through_whole_games() -> None:
    rnd = random.Random(1)
    remembered = 0
    for players in (2, 3, 4):
        g = game(players)
        for _ in range(4):
            state = g.new_state(seed=rnd.randrange(2**32))
            while not state.is_over:
                d = data_of(state)
                for q in range(players):
                    assert levels_hold(d["hands"][q], memory_of(d, q))
                    remembered += any(d["hand_avoids"][q])
                state.apply(keeping_policy(state, rnd))
            assert g.load_state(state.to_json()) == state
    assert remembered > 100


# --------------------------------------------------------------------------- loading


def remembering_state() -> tuple[DreamIslandsGame, dict[str, Any], int]:
    """A played position and a seat whose memory has two different non-empty levels."""
    for g, state in all_positions(per_config=30, seed=5):
        d = data_of(state)
        for q in range(g.num_players):
            levels = memory_of(d, q)
            if len(levels) == 3 and levels[0] and levels[0] != levels[2]:
                return g, d, q
    raise AssertionError("no such position")


def tampered(change: str) -> tuple[DreamIslandsGame, dict[str, Any]]:
    g, d, q = remembering_state()
    masks = d["hand_avoids"][q]
    levels = memory_of(d, q)
    if change == "one set short":
        masks.pop()
    elif change == "beyond 16 missions":
        masks[2] = 1 << 16
    elif change == "not nested":
        extra = next(c for c in range(16) if c not in levels[0] and c not in d["completed"][q])
        masks[2] |= 1 << extra
    elif change == "a completed mission":
        if not d["completed"][q]:
            pytest.skip("the seat has completed no mission yet")
        for k in range(3):
            masks[k] |= 1 << d["completed"][q][0]
    elif change == "false of the hand":
        masks[0] = sum(1 << c for c in range(16) if c not in d["completed"][q])
    return g, d


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ("one set short", "one per card"),
        ("beyond 16 missions", "<= 65535"),
        ("not nested", "must be part of"),
        ("a completed mission", "completed mission"),
        ("false of the hand", "not true of it"),
    ],
)
def test_I16_a_memory_that_is_not_true_or_not_canonical_is_rejected(change: str, match: str) -> None:
    g, d = tampered(change)
    with pytest.raises(cruiselib.InvalidStateError, match=match):
        g.load_state(json.dumps(d))


def test_I16_a_played_memory_loads() -> None:
    g, d, _ = remembering_state()
    assert data_of(g.load_state(json.dumps(d))) == d


def test_I16_nothing_is_remembered_of_a_seat_that_has_not_moved() -> None:
    g = game(3)
    d = data_of(g.new_state(seed=2))
    outside = next(c for c in range(16) if c not in d["hands"][1])
    d["hand_avoids"][1][0] = 1 << outside  # true of the hand, but nothing showed it yet
    with pytest.raises(cruiselib.InvalidStateError, match="has not moved yet"):
        g.load_state(json.dumps(d))
