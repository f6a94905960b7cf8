"""Dream Islands: the rule-based bot (docs/dream_islands.md, "Rule-based bot").

Hand-built positions check that each heuristic fires (an independent brute force over
every split, tests/dream_islands/helpers.py, says what a move can reach); random games
check that the bot decides from the seat's view only, is deterministic, never changes
the state and always picks a legal action.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cruiselib.bots._types import Bot, Candidate
from cruiselib.bots.basic import RandomBot
from cruiselib.dream_islands import Cover, Draw, DreamIslandsGame, DreamIslandsState, PutUnder
from cruiselib.dream_islands import rulebot as rb
from cruiselib.dream_islands.rulebot import RuleBot
from tests.dream_islands.helpers import MISSION, build, game, oracle_results, result_of
from tests.dream_islands.positions import all_positions

G2 = game(2)
G4 = game(4)


def chosen(state: DreamIslandsState, seed: int = 0) -> object:
    return state.game.action_to_move(RuleBot(seed).choose(state))


def after(state: DreamIslandsState, action: int) -> DreamIslandsState:
    child = state.clone()
    child.apply(action)
    return child


def has_exactly(ring: list[int] | tuple[int, ...], k: int) -> bool:
    return k in Counter(p for p in ring if 1 <= p <= 8).values()


# --------------------------------------------------------------------------- heuristics


def test_completes_the_mission_it_can() -> None:
    # Seat 0's piece on island 3 and one leaving the airplane with 3 steps make exactly 2.
    state = build(G2, pieces={0: [3], 1: [2]}, hands={0: ["exact2", "run5", "exact5"]})
    assert not all(MISSION["exact2"] in after(state, a).view(0).seats[0].completed for a in state.legal_actions())
    child = after(state, RuleBot(0).choose(state))
    assert MISSION["exact2"] in child.view(0).seats[0].completed


def test_completes_two_missions_rather_than_one() -> None:
    # Two pieces on island 3 are exactly 2 and (2 players: 2 more than the opponent) a
    # majority there (I4); many moves make only one of them.
    state = build(G2, pieces={0: [3, 6], 1: [2]}, hands={0: ["exact2", "major3", "exact5"]})
    gains = [len(after(state, a).view(0).seats[0].completed) for a in state.legal_actions()]
    assert 1 in gains and max(gains) == 2
    child = after(state, RuleBot(0).choose(state))
    assert set(child.view(0).seats[0].completed) == {MISSION["exact2"], MISSION["major3"]}


def test_takes_the_three_point_island_when_no_mission_is_in_reach() -> None:
    state = build(G2, pieces={0: [8, 8, 8, 8, 8, 8], 1: [2]}, hands={0: ["exact5", "run5", "major1"]})
    child = after(state, RuleBot(0).choose(state))
    assert child.view(0).small_islands[0] == 0 and child.scores()[0] >= 3


def test_with_nothing_to_complete_keeps_its_card_in_reach_for_the_next_turn() -> None:
    # Only 2 and 3 are free now, and no split of them makes exactly 4 on an island; 4 of
    # the 21 moves leave a split of the next turn's number that does (I2: after this
    # turn only the other of 2 and 3 is free). Every mission but run 4 is completed or
    # in hand, so no draw is worth more than the card.
    ring = [0, 0, 0, 3, 4, 4]
    done = [0, 1, 4, 5, *range(8, 16)]
    state = build(
        G2, pieces={0: ring, 1: [8]}, hands={0: ["exact4", "run5", "exact5"]}, covered={0: [4, 5]},
        completed={0: done},
    )

    def prepares(move: Cover) -> bool:
        now = list(result_of(ring, move))
        nxt = [n for n in (2, 3) if n != move.number]
        return any(has_exactly(r, 4) for n in nxt for r in oracle_results(now, n))

    moves = [m for m in state.legal_moves() if isinstance(m, Cover)]
    assert not any(has_exactly(list(result_of(ring, m)), 4) for m in moves)
    assert sum(map(prepares, moves)) == 4 and len(moves) == 21
    move = chosen(state)
    assert isinstance(move, Cover) and prepares(move)


def test_puts_under_the_pile_a_card_it_cannot_complete() -> None:
    # Two pieces in the middle leave four on the board: exactly 5 on one island is out
    # of reach for good; exactly 2 is in reach next turn and is kept.
    state = build(
        G2, pieces={0: [3, 6, 7, 1], 1: [2]}, small=(0, 0, -1), hands={0: ["exact5", "exact2"]},
        covered={0: [4]}, phase="exchange",
    )
    assert chosen(state) == PutUnder(MISSION["exact5"])
    state.apply(state.game.move_to_action(PutUnder(MISSION["exact5"])))
    assert chosen(state) == Draw()


def test_keeps_a_hand_it_can_complete() -> None:
    state = build(
        G2, pieces={0: [3, 6, 7, 1], 1: [2]}, small=(0, 0, -1), hands={0: ["exact2"]}, covered={0: [4]},
        phase="exchange",
    )
    assert chosen(state) == Draw()


def ending(completed: dict[int, list[int]]) -> DreamIslandsState:
    # Five pieces in the middle: seat 0's piece on island 8 stepping in ends the game
    # after seat 1's turn (I7).
    return build(G2, pieces={0: [8, 2, 3], 1: [5, 6]}, small=(0, 1, 0), main={0: 1, 1: 1}, completed=completed)


def test_ends_the_game_when_it_stays_ahead() -> None:
    state = ending({0: [0, 1, 4, 5, 8, 9, 10]})
    assert state.scores()[0] > state.scores()[1] + 10
    child = after(state, RuleBot(0).choose(state))
    assert child.end_triggered


def test_does_not_end_the_game_when_behind() -> None:
    state = ending({1: [0, 1, 4, 5, 8, 9, 10, 11]})
    assert state.scores()[0] < state.scores()[1]
    assert any(after(state, a).end_triggered for a in state.legal_actions())
    child = after(state, RuleBot(0).choose(state))
    assert not child.end_triggered


def test_in_the_last_turn_takes_the_most_points() -> None:
    # The end is signalled and seat 1 plays last: only points now count.
    state = build(
        G2, pieces={0: [5, 6], 1: [8, 3]}, small=(0, 1, 0), main={0: 2, 1: 1},
        hands={1: ["exact2", "run5", "exact5"]}, cur=1,
    )
    assert state.end_triggered
    most = max(after(state, a).scores()[1] for a in state.legal_actions())
    child = after(state, RuleBot(0).choose(state))
    assert child.scores()[1] == most == state.scores()[1] + 3  # a mission and the middle


# --------------------------------------------------------------------------- the look-ahead


def config(ring: list[int], middle: int = 0) -> int:
    counts = [0] * 10
    for p in ring:
        counts[p] += 1
    counts[9] = middle
    return rb._pack(counts)


def own_missions(result: tuple[int, ...]) -> int:
    """Missions 0..7 (I4) of a result, the brute-force way."""
    c = Counter(p for p in result if 1 <= p <= 8)
    mask = sum(1 << (k - 2) for k in set(c.values()) if 2 <= k <= 5)
    occ = [i in c for i in range(1, 9)]
    if any(occ) and not all(occ):
        start = occ.index(False)
        run = 0
        for step in range(1, 9):
            if occ[(start + step) % 8]:
                run += 1
            else:
                if 2 <= run <= 5:
                    mask |= 1 << (run + 2)
                run = 0
    return mask


@pytest.mark.parametrize("steps", [2, 3, 4, 5])
def test_what_a_number_can_reach_matches_every_split(steps: int) -> None:
    rnd = random.Random(steps)
    for _ in range(25):
        ring = [rnd.choice(range(9)) for _ in range(rnd.randint(1, 5))]
        results = oracle_results(ring, steps)
        mask, most = rb._reach(config(ring, 6 - len(ring)), steps)
        assert mask == _union(own_missions(r) for r in results)
        for i in range(1, 9):
            assert (most >> (4 * i)) & 15 == max(r.count(i) for r in results)


def _union(masks: object) -> int:
    out = 0
    for m in masks:  # type: ignore[attr-defined]
        out |= m
    return out


# --------------------------------------------------------------------------- properties


def test_decides_from_the_view_alone() -> None:
    # States the seat cannot tell apart (a resample deals every hidden card anew, with
    # the table's memory of the hands, I16) get the same choice and analysis.
    differ = 0
    for i, (_, state) in enumerate(all_positions(14, seed=3)):
        if state.is_over:
            continue
        seat = state.current_player
        for k in range(2):
            other = state.resample(seat, 10 * i + k, recall=True)
            assert other.view(seat, recall=True) == state.view(seat, recall=True)
            differ += other.to_json() != state.to_json()
            assert RuleBot(i).choose(other) == RuleBot(i).choose(state)
            assert RuleBot(i).analyse(other) == RuleBot(i).analyse(state)
    assert differ > 50


def test_analyse_ranks_every_legal_action_once_and_choose_takes_the_first() -> None:
    for i, (g, state) in enumerate(all_positions(10, seed=4)):
        if state.is_over:
            continue
        before = state.to_json()
        cands = RuleBot(i).analyse(state)
        assert sorted(c.action for c in cands) == sorted(state.legal_actions())
        values = [c.value for c in cands]
        assert all(isinstance(v, float) for v in values)
        assert values == sorted(values, reverse=True)  # type: ignore[type-var]
        assert all(c == Candidate(c.action, str(g.action_to_move(c.action)), 0, c.value) for c in cands)
        assert RuleBot(i).choose(state) == cands[0].action
        assert state.to_json() == before  # neither call changed the state


def test_ties_are_broken_by_the_seed() -> None:
    # At the start several moves lead to equal outlooks (the top two tie); the seed
    # decides between them.
    state = build(G2, pieces={0: [1], 1: [2]}, hands={0: ["exact5", "run5", "exact4"]})
    values = [c.value for c in RuleBot(0).analyse(state)]
    assert values[0] == values[1]  # a tie at the top
    assert len({RuleBot(seed).choose(state) for seed in range(30)}) > 1


def play(g: DreamIslandsGame, seed: int, bots: list[Bot]) -> list[int]:
    state = g.new_state(seed=seed)
    actions = []
    while not state.is_over:
        action = bots[state.current_player].choose(state)
        assert action in state.legal_actions()
        actions.append(action)
        state.apply(action)
    return actions


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {}), (4, {}), (4, {"max_rounds": 4})])
def test_equal_seeds_give_equal_games_and_every_choice_is_legal(players: int, options: dict[str, int]) -> None:
    g = game(players, **options)
    for seed in range(3):
        rules = [RuleBot(seed + p) for p in range(players)]
        first = play(g, seed, rules)  # type: ignore[arg-type]
        assert first == play(g, seed, [RuleBot(seed + p) for p in range(players)])
        mixed: list[Bot] = [RandomBot(seed + p) if p % 2 else RuleBot(seed + p) for p in range(players)]
        play(g, seed, mixed)


def test_is_a_bot() -> None:
    assert isinstance(RuleBot(1), Bot) and RuleBot.name == "rules"


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_beats_the_random_bot(players: int) -> None:
    # 100 games, the rule bot's seat rotating; a shared win counts a share.
    g = game(players)
    points = 0.0
    for i in range(100):
        seat = i % players
        bots: list[Bot] = [RandomBot(10 * i + p) for p in range(players)]
        bots[seat] = RuleBot(i)
        state = g.new_state(seed=2000 + i)
        while not state.is_over:
            state.apply(bots[state.current_player].choose(state))
        winners = state.winners()
        if seat in winners:
            points += 1.0 / len(winners)
    assert points / 100 > 0.85
