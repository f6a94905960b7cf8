"""Dream Islands: views and resampling, built by the core.

The view is compared with the reference below, the Python view the game had before the
core built it (from the raw arrays), over many random positions; a resample keeps the
seat's view, deals the unseen cards anew (the same cards), uniformly among the deals
consistent with what the seat knows (I13, and with ``recall`` I16), and gives a state that
loads and plays on.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.dream_islands import Cover, DreamIslandsGame, DreamIslandsState, DreamIslandsView, Path, SeatInfo
from tests.dream_islands.helpers import build, game
from tests.dream_islands.positions import all_positions, keeping_policy

PHASES = ("move", "exchange", "over")
COVERED = tuple(tuple(n for n in range(2, 6) if (m >> (n - 2)) & 1) for m in range(16))


def reference_view(state: DreamIslandsState, player: int) -> DreamIslandsView:
    """The view as the game's Python code made it before the core did (the oracle)."""
    raw = state._get_raw()
    scores = state.scores()
    small = raw["small"]
    n = state.game.num_players
    seats = [
        SeatInfo(
            seat=p,
            airplane=raw["pieces"][p][0],
            islands=raw["pieces"][p][1:],
            middle=raw["main"][p] + small.count(p),
            covered=list(COVERED[raw["covered"][p]]),
            completed=[x for x in range(16) if (raw["done"][p] >> x) & 1],
            hand_size=len(raw["hands"][p]),
            pile_size=len(raw["piles"][p]),
            under=raw["known"][p],
            score=scores[p],
        )
        for p in range(n)
    ]
    pile = raw["piles"][player]
    known = raw["known"][player]
    return DreamIslandsView(
        player=player,
        players=n,
        max_rounds=state.game.max_rounds or 0,
        phase=PHASES[raw["phase"]],  # type: ignore[arg-type]
        current_player=state.current_player,
        rounds=raw["rounds"],
        end_triggered=state.end_triggered,
        seats=seats,
        small_islands=small,
        hand=sorted(raw["hands"][player]),
        under_pile=list(reversed(pile[:known])),
        pile_unseen=sorted(pile[known:]),
        legal_actions=state.legal_actions() if state.current_player == player else [],
    )


def data_of(state: DreamIslandsState) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(state.to_json())
    return result


def cards_unseen(state: DreamIslandsState, seat: int) -> list[Counter[int]]:
    """Per seat, the multiset of its cards that ``seat`` cannot see."""
    d = data_of(state)
    out = []
    for q in range(len(d["hands"])):
        if q == seat:
            out.append(Counter(d["piles"][q][d["known"][q] :]))
        else:
            out.append(Counter(d["hands"][q] + d["piles"][q]))
    return out


def levels_hold(hand: Sequence[int], levels: Sequence[Sequence[int]]) -> bool:
    """Whether at least k of ``hand`` are outside ``levels[k - 1]``, for every k (I13, I16)."""
    return all(sum(c not in level for c in hand) >= k for k, level in enumerate(levels, start=1))


POSITIONS = list(all_positions(per_config=24))


# --------------------------------------------------------------------------- views


def test_the_view_is_the_reference_view_for_every_seat_of_many_positions() -> None:
    phases: Counter[str] = Counter()
    for g, state in POSITIONS:
        phases[state.phase_name] += 1
        for p in range(g.num_players):
            expected = reference_view(state, p)
            view = state.view(p)
            assert view == expected
            assert view.recall is None
            assert msgspec.json.encode(view) == msgspec.json.encode(expected)
            # With recall the same, plus the hand memory of every seat (I16).
            recalled = state.view(p, recall=True)
            assert msgspec.structs.replace(recalled, recall=None) == expected
            assert recalled.recall is not None
            assert [m.seat for m in recalled.recall] == list(range(g.num_players))
            assert [len(m.avoid) for m in recalled.recall] == [s.hand_size for s in view.seats]
    assert min(phases[ph] for ph in PHASES) >= 5  # every phase is among them


def test_the_view_lists_legal_actions_for_the_seat_to_move_only() -> None:
    g, state = next((g, s) for g, s in POSITIONS if s.phase_name == "move")
    for p in range(g.num_players):
        assert state.view(p).legal_actions == (state.legal_actions() if p == state.current_player else [])


@pytest.mark.parametrize("seat", [-1, 2, 4, 1.0, True, "0", None])
def test_view_checks_the_seat(seat: Any) -> None:
    state = game(2).new_state(seed=1)
    with pytest.raises(cruiselib.InvalidOptionError, match=r"seat|player"):
        state.view(seat)
    with pytest.raises(cruiselib.InvalidOptionError, match=r"seat|player"):
        state.view(seat, recall=True)


def test_view_takes_recall_as_a_keyword_only() -> None:
    state = game(2).new_state(seed=1)
    with pytest.raises(TypeError):
        state.view(0, True)  # type: ignore[call-arg]


# --------------------------------------------------------------------------- resample


@pytest.mark.parametrize("recall", [False, True])
def test_a_resample_keeps_the_view_and_the_unseen_cards_and_deals_them_anew(recall: bool) -> None:
    rnd = random.Random(7)
    for g, state in POSITIONS:
        before = state.to_json()
        for p in range(g.num_players):
            seed = rnd.randrange(2**32)
            other = state.resample(p, seed, recall=recall)
            assert state.to_json() == before  # the original is unchanged
            assert other.view(p) == state.view(p)
            if recall:
                assert other.view(p, recall=True) == state.view(p, recall=True)
            assert cards_unseen(other, p) == cards_unseen(state, p)
            if p == state.current_player or state.phase_name == "move":
                assert other.legal_actions() == state.legal_actions()
            assert state.resample(p, seed, recall=recall) == other  # the same seed, the same deal
            assert g.load_state(other.to_json()) == other  # the memory is true of the new hands


@pytest.mark.parametrize("recall", [False, True])
def test_the_seats_exchange_shows_the_table_what_its_hand_is_not(recall: bool) -> None:
    # I13: during the mover's exchange, no resample deals it a mission that holds now.
    checked = 0
    for g, state in POSITIONS:
        if state.phase_name != "exchange":
            continue
        cur = state.current_player
        holds = state.mission_mask(cur)
        for p in range(g.num_players):
            if p == cur:
                continue
            for seed in range(5):
                hand = data_of(state.resample(p, seed, recall=recall))["hands"][cur]
                assert not any((holds >> c) & 1 for c in hand)
                checked += 1
    assert checked > 50


def test_a_resample_with_recall_keeps_what_play_showed_of_the_hands() -> None:
    # I16: every hand dealt with recall meets every seat's memory; without recall only the
    # table's facts are kept, and for some positions that deals a hand memory would refuse.
    refused = 0
    for g, state in POSITIONS:
        recalled = state.view(0, recall=True).recall
        assert recalled is not None
        for p in range(g.num_players):
            for seed in range(3):
                with_recall = data_of(state.resample(p, seed, recall=True))
                plain = data_of(state.resample(p, seed))
                for q in range(g.num_players):
                    assert levels_hold(with_recall["hands"][q], recalled[q].avoid)
                    refused += not levels_hold(plain["hands"][q], recalled[q].avoid)
    assert refused > 0


def test_a_resample_varies_with_the_seed() -> None:
    for g, state in POSITIONS[::7]:
        if state.is_over:
            continue
        for p in range(g.num_players):
            for recall in (False, True):
                deals = {state.resample(p, seed, recall=recall).to_json() for seed in range(12)}
                assert len(deals) > 1


def test_the_own_cards_put_under_the_pile_stay_where_they_are() -> None:
    for g, state in POSITIONS[::3]:
        d = data_of(state)
        for p in range(g.num_players):
            other = data_of(state.resample(p, 11))
            k = d["known"][p]
            assert other["piles"][p][:k] == d["piles"][p][:k]
            # In id order, as the view lists it (resample depends on the view alone).
            assert other["hands"][p] == sorted(d["hands"][p])


@pytest.mark.parametrize("recall", [False, True])
def test_a_resampled_state_plays_on_to_the_end_and_reloads(recall: bool) -> None:
    rnd = random.Random(3)
    for g, state in POSITIONS[::5]:
        for p in range(g.num_players):
            other = state.resample(p, rnd.randrange(2**32), recall=recall)
            steps = 0
            while not other.is_over:
                other.apply(keeping_policy(other, rnd))
                steps += 1
                if steps % 7 == 0:
                    assert g.load_state(other.to_json()) == other
            assert g.load_state(other.to_json()) == other
            assert other.winners()


def test_the_pure_twin_resamples_alike() -> None:
    if not cruiselib.compiled:
        pytest.skip("compares the compiled core with its pure twin")
    for g, state in POSITIONS[::9]:
        twin = g.pure_twin()
        copy = twin.load_state(state.to_json())
        for p in range(g.num_players):
            for recall in (False, True):
                assert copy.resample(p, 5, recall=recall).to_json() == state.resample(p, 5, recall=recall).to_json()
                assert copy.view(p, recall=recall) == state.view(p, recall=recall)


# --------------------------------------------------------------------------- uniformity


def consistent_deals(state: DreamIslandsState, seat: int, recall: bool) -> set[tuple[Any, ...]]:
    """Every deal of the cards ``seat`` cannot see that keeps what it knows, by brute force:
    its own pile above the cards it put under in any order; each other seat's hand (in any
    order) and pile from their cards, the hand meeting the table's facts (I13: the mover in
    its exchange holds no mission that holds now) and with ``recall`` the memory (I16)."""
    d = data_of(state)
    n = len(d["hands"])
    memory = state.view(seat, recall=True).recall
    assert memory is not None
    parts: list[list[tuple[Any, ...]]] = []
    for q in range(n):
        hand, pile, k = d["hands"][q], d["piles"][q], d["known"][q]
        if q == seat:
            parts.append([(tuple(hand), tuple(pile[:k]) + top) for top in set(itertools.permutations(pile[k:]))])
            continue
        held = state.mission_mask(q) if (d["phase"] == "exchange" and d["current_player"] == q) else 0
        options = []
        for order in set(itertools.permutations(hand + pile)):
            new_hand = order[: len(hand)]
            if any((held >> c) & 1 for c in new_hand):
                continue
            if recall and not levels_hold(new_hand, memory[q].avoid):
                continue
            options.append((new_hand, order[len(hand) :]))
        parts.append(options)
    return set(itertools.product(*parts))


def deal_of(state: DreamIslandsState) -> tuple[Any, ...]:
    d = data_of(state)
    return tuple((tuple(h), tuple(p)) for h, p in zip(d["hands"], d["piles"], strict=True))


def assert_uniform(state: DreamIslandsState, seat: int, recall: bool, per_deal: int) -> int:
    """Resample with fixed seeds: every consistent deal comes up, nothing else does, and the
    counts pass a chi-square test with a bound far in the tail (about six standard
    deviations above the mean of the statistic): deterministic, and a sampler that favours
    any deal by a few tens of percent fails it. Returns the number of deals."""
    deals = consistent_deals(state, seat, recall)
    k = len(deals)
    draws = per_deal * k
    counts = Counter(deal_of(state.resample(seat, seed, recall=recall)) for seed in range(draws))
    assert set(counts) == deals
    chi2 = sum((c - per_deal) ** 2 / per_deal for c in counts.values())
    df = k - 1
    assert chi2 < df + 6 * math.sqrt(2 * df) + 10, (chi2, df)
    return k


def small_pools(g: DreamIslandsGame, **kwargs: Any) -> DreamIslandsState:
    """Both seats of a 2-player game with 11 missions done: 5 cards each in hand and pile."""
    done = list(range(11))
    return build(g, hands={0: [11, 12, 13], 1: [11, 12, 13]}, completed={0: done, 1: done}, **kwargs)


def test_every_deal_consistent_with_the_view_is_equally_likely() -> None:
    state = small_pools(game(2))
    # Seat 0 sees its pile of 2 (2 orders), seat 1's 5 cards are dealt anew (5 * 4 * 3 * 2).
    assert assert_uniform(state, 0, False, per_deal=30) == 2 * 120


def test_every_deal_consistent_with_the_memory_is_equally_likely() -> None:
    # I16: at least one of seat 1's cards is not 13, 14 or 15, and two are not 14 or 15.
    state = small_pools(game(2), avoids={1: [[13, 14, 15], [14, 15], []]})
    assert levels_hold([11, 12, 13], [[13, 14, 15], [14, 15], []])
    # 7 of the 10 hands of 3 out of 5 are left (not 13 14 15, 11 14 15 or 12 14 15), in 6
    # orders each, 2 orders of its pile, 2 of seat 0's own pile.
    assert assert_uniform(state, 0, True, per_deal=40) == 2 * 7 * 6 * 2
    # Without recall the memory is not used: every hand comes up again.
    assert assert_uniform(state, 0, False, per_deal=30) == 2 * 120


def test_every_deal_consistent_with_an_exchange_is_equally_likely() -> None:
    # I13: seat 0 moves a third piece to island 2, so "exactly 3" and the majority on
    # island 2 hold, and the table knows that no card left in its hand is one of them.
    g = game(2)
    done = [0, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12]  # not 1 ("exactly 3") nor 9 (majority on 2)
    state = build(
        g,
        pieces={0: [2, 2, 0, 0, 0, 0]},
        hands={0: [13, 14, 15], 1: [11, 12, 13]},
        completed={0: done, 1: list(range(11))},
    )
    state.apply(Cover(2, (Path(0, 2),)))
    assert state.phase_name == "exchange" and state.current_player == 0
    d = data_of(state)
    holds = state.mission_mask(0)
    assert (holds >> 1) & 1 and (holds >> 9) & 1 and d["hands"][0] == [13, 14, 15]
    # Seat 0's cards 1, 9, 13, 14, 15: its hand is 13, 14 and 15 (6 orders), its pile 1 and
    # 9 (2 orders); seat 1's own pile has 2 orders.
    assert assert_uniform(state, 1, False, per_deal=60) == 2 * 6 * 2
