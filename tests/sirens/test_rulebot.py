"""Sirens in Sight: the rule-based bot (docs/sirens.md, "Rule-based bot").

Hand-built positions check that each heuristic fires; random games check that the bot
decides from the seat's view only, is deterministic, never changes the state and always
picks a legal action.
"""

from __future__ import annotations

import random

import pytest

import cruiselib
from cruiselib.bots._types import Bot, Candidate
from cruiselib.bots.basic import RandomBot
from cruiselib.sirens import EndTurn, MoveCard, MoveCrew, PickCard, PlayCard, SirensGame, SirensState, UseRum
from cruiselib.sirens.rulebot import RuleBot
from tests.sirens.helpers import build, small_set

GAME = cruiselib.make("sirens")
VARIANT = cruiselib.make("sirens", variant="bow_to_rear")
SMALL = cruiselib.make("sirens", cards=small_set(24))


def best(state: SirensState, seed: int = 0) -> object:
    return state.game.action_to_move(RuleBot(seed).choose(state))


def ranked(state: SirensState) -> list[object]:
    return [state.game.action_to_move(c.action) for c in RuleBot(0).analyse(state)]


# --------------------------------------------------------------------------- heuristics


def test_takes_the_ship_card_it_can_finish() -> None:
    # Seat 0's side of 32 holds 25: the 7 reaches the threshold (S6).
    state = build(hands=([7, 1, 2, 3], [4, 4, 4, 4]), sides={(32, 0): [10, 9, 6]})
    assert best(state) == PlayCard(7, False, 32, 0)


def test_of_two_ship_cards_it_can_finish_takes_the_one_with_a_crew_token() -> None:
    # 30 (the captain's, 2 points) and 32 (1 point) both need exactly 7.
    state = build(hands=([7, 1, 2, 3], [4, 4, 4, 4]), sides={(32, 0): [10, 9, 6], (30, 0): [10, 8, 5]})
    assert best(state) == PlayCard(7, False, 30, 0)


def test_finishes_with_the_smallest_card_that_is_enough() -> None:
    # 8, 9 and 10 all finish 32 (needs 7); the 10 and 9 are kept for later ship cards.
    state = build(hands=([8, 9, 10, 1], [4, 4, 4, 4]), sides={(32, 0): [10, 9, 6]})
    assert best(state) == PlayCard(8, False, 32, 0)


def test_builds_up_its_strongest_side() -> None:
    # Nothing can be finished; the 9 makes 27 of 34 where seat 0 has 18 already (and the
    # next card may finish it) rather than starting another side.
    state = build(hands=([9, 1, 1, 2], [4, 4, 4, 4]), sides={(34, 0): [10, 8]}, rum=(28, "held"),
                  octopus=((34, 0, 8), None))
    assert best(state) == PlayCard(9, False, 34, 0)


def test_never_hands_the_opponent_a_ship_card() -> None:
    # Any card of this hand on seat 1's side of 32 (25) would give seat 1 the ship card.
    state = build(hands=([7, 8, 9, 10], [4, 4, 4, 4]), sides={(32, 1): [10, 9, 6]})
    gifts = {PlayCard(v, False, 32, 1) for v in (7, 8, 9, 10)}
    moves = ranked(state)
    assert moves[0] not in gifts
    own_side = [i for i, m in enumerate(moves) if isinstance(m, PlayCard) and m.side == 0]
    assert max(own_side) < min(moves.index(m) for m in gifts)  # below every play to its own side


def test_spends_a_negative_card_on_the_side_the_opponent_is_closing_on() -> None:
    # Seat 1 needs 7 more on 34 (the mate's) with two places left; the -3 makes it 10
    # with one place. Seat 0's mug and octopus are spent, so the card is its only answer.
    state = build(
        hands=([-3, 1, 2, 2], [4, 4, 4, 4]),
        sides={(34, 1): [10, 9, 8], (28, 1): [5], (28, 0): [2]},
        octopus=((28, 1, 5), None),
        rum=(28, "held"),
    )
    assert best(state) == PlayCard(-3, True, 34, 1)


def test_uses_the_octopus_to_take_the_card_that_finishes_a_ship_card() -> None:
    # Seat 0 has 19 on 28; seat 1's 9 on 30 makes it 28 (S7), and no card in hand does.
    state = build(hands=([1, 1, 2, 2], [4, 4, 4, 4]), sides={(28, 0): [10, 9], (30, 1): [9]})
    assert best(state) == MoveCard(9, False, 30, 1, 28, 0)


def test_uses_the_octopus_to_break_a_threat() -> None:
    # Seat 1 needs 7 on 32 and holds four cards; seat 0 cannot finish anything. Taking
    # seat 1's 10 away (to seat 0's own side) is the best answer.
    state = build(hands=([1, 1, 2, 2], [4, 4, 4, 4]), sides={(32, 1): [10, 9, 6]}, rum=(28, "held"))
    move = best(state)
    assert isinstance(move, MoveCard) and (move.from_ship, move.from_side, move.value) == (32, 1, 10)


def test_puts_the_rum_mug_on_the_ship_card_the_opponent_is_closing_on() -> None:
    # After its main action seat 0 holds the mug; seat 1 needs 7 on 34 (2 points).
    state = build(
        hands=([1, 1, 2, 2], [4, 4, 4, 4]),
        sides={(34, 1): [10, 9, 8], (28, 0): [3]},
        octopus=((28, 0, 3), None),
        phase="after",
    )
    assert best(state) == UseRum(34)


def test_keeps_the_rum_mug_without_a_threat() -> None:
    state = build(
        hands=([1, 1, 2, 2], [4, 4, 4, 4]),
        sides={(34, 1): [1, 2], (28, 0): [3]},
        octopus=((28, 0, 3), None),
        phase="after",
    )
    assert best(state) == EndTurn()


def test_waits_for_the_after_decision_to_use_the_rum_mug() -> None:
    # S13: in the main phase the mug can still be used after the main action.
    state = build(hands=([1, 1, 2, 2], [4, 4, 4, 4]), sides={(34, 1): [10, 9, 8]})
    moves = ranked(state)
    assert not isinstance(moves[0], UseRum)
    assert all(isinstance(m, UseRum) for m in moves[-5:])


def test_moves_the_crew_token_to_the_ship_card_it_is_winning() -> None:
    # Seat 0 plays a move-crew card to seat 1's side of 30: seat 1 decides (S5) between
    # 28, where it needs 3, and 32, where seat 0 needs 3.
    state = build(
        hands=([0, 5, 5, 5], [4, 4, 4, 4]),
        sides={(28, 1): [10, 9, 6], (32, 0): [10, 10, 9]},
    )
    state.apply(PlayCard(0, True, 30, 1))
    assert state.current_player == 1 and state.view(1).crew_choice == [28, 32]
    assert best(state) == MoveCrew(28)


def test_picks_the_strongest_starting_cards() -> None:
    # S9, S14: the highest face offered each time, which makes 9, 9, 10, 10.
    state = VARIANT.new_state(seed=4, start_player=0)
    picks = []
    while state.phase_name == "pick" and state.current_player == 0:
        move = best(state)
        assert isinstance(move, PickCard)
        picks.append(move.value)
        state.apply(state.game.move_to_action(move))
    assert picks == [9, 9, 10, 10]


# --------------------------------------------------------------------------- properties


def positions(game: SirensGame, seed: int, count: int) -> list[SirensState]:
    """Positions of seeded games in which the rule bot and a random bot play."""
    rnd = random.Random(seed)
    out: list[SirensState] = []
    while len(out) < count:
        state = game.new_state(seed=rnd.randrange(2**32))
        bots: list[Bot] = [RuleBot(rnd.randrange(100)), RandomBot(rnd.randrange(100))]
        rnd.shuffle(bots)
        while not state.is_over and len(out) < count:
            if rnd.random() < 0.3:
                out.append(state.clone())
            state.apply(bots[state.current_player].choose(state))
    return out


@pytest.mark.parametrize("game", [GAME, VARIANT, SMALL], ids=["standard", "bow_to_rear", "small-set"])
def test_decides_from_the_view_alone(game: SirensGame) -> None:
    # Two states the seat cannot tell apart (a resample deals every hidden card anew)
    # get the same choice and the same analysis from bots of the same seed.
    differ = 0
    for i, state in enumerate(positions(game, 11, 60)):
        seat = state.current_player
        for k in range(3):
            other = state.resample(seat, 100 * i + k, recall=True)
            assert other.view(seat, recall=True) == state.view(seat, recall=True)
            differ += other.to_json() != state.to_json()
            assert RuleBot(i).choose(other) == RuleBot(i).choose(state)
            assert RuleBot(i).analyse(other) == RuleBot(i).analyse(state)
    assert differ > 100  # the hidden cards did change


@pytest.mark.parametrize("game", [GAME, VARIANT, SMALL], ids=["standard", "bow_to_rear", "small-set"])
def test_analyse_ranks_every_legal_action_once_and_choose_takes_the_first(game: SirensGame) -> None:
    for i, state in enumerate(positions(game, 12, 40)):
        before = state.to_json()
        cands = RuleBot(i).analyse(state)
        assert sorted(c.action for c in cands) == sorted(state.legal_actions())
        values = [c.value for c in cands]
        assert all(isinstance(v, float) for v in values)
        assert values == sorted(values, reverse=True)  # type: ignore[type-var]
        assert all(c == Candidate(c.action, str(game.action_to_move(c.action)), 0, c.value) for c in cands)
        assert RuleBot(i).choose(state) == cands[0].action
        assert state.to_json() == before  # neither call changed the state


def test_ties_are_broken_by_the_seed() -> None:
    # Zeros on an empty table change no sum: the ten plays tie (the crew moves they cause
    # lead to equal tables too).
    state = build(hands=([0, 0, 0, 0], [4, 4, 4, 4]))
    assert len({c.value for c in RuleBot(0).analyse(state) if c.move.startswith("play")}) == 1
    choices = {RuleBot(seed).choose(state) for seed in range(30)}
    assert len(choices) > 5
    assert all(RuleBot(seed).choose(state) == RuleBot(seed).choose(state) for seed in range(5))


def play(game: SirensGame, seed: int, bots: list[Bot]) -> list[int]:
    state = game.new_state(seed=seed)
    actions = []
    while not state.is_over:
        legal = state.legal_actions()
        action = bots[state.current_player].choose(state)
        assert action in legal
        actions.append(action)
        state.apply(action)
    return actions


@pytest.mark.parametrize("game", [GAME, VARIANT, SMALL], ids=["standard", "bow_to_rear", "small-set"])
def test_equal_seeds_give_equal_games_and_every_choice_is_legal(game: SirensGame) -> None:
    for seed in range(6):
        first = play(game, seed, [RuleBot(seed), RuleBot(seed + 1)])
        assert first == play(game, seed, [RuleBot(seed), RuleBot(seed + 1)])
        play(game, seed, [RuleBot(seed), RandomBot(seed)])
        play(game, seed, [RandomBot(seed), RuleBot(seed)])


def test_is_a_bot() -> None:
    assert isinstance(RuleBot(1), Bot) and RuleBot.name == "rules"


@pytest.mark.slow
@pytest.mark.parametrize("game", [GAME, VARIANT], ids=["standard", "bow_to_rear"])
def test_beats_the_random_bot(game: SirensGame) -> None:
    # 120 games, seats swapped every game: the rule bot wins far more than half.
    points = 0.0
    for i in range(120):
        seat = i % 2
        bots: list[Bot] = [RandomBot(i), RandomBot(i)]
        bots[seat] = RuleBot(i)
        state = game.new_state(seed=1000 + i)
        while not state.is_over:
            state.apply(bots[state.current_player].choose(state))
        winners = state.winners()
        points += 1.0 if winners == [seat] else 0.5 if not winners else 0.0
    assert points / 120 > 0.85
