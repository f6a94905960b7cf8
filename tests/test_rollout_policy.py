"""The contract's rollout policy (``rollout_action``): legal everywhere, the same on both
cores, uniformly random where a game has no policy, and what Atlantic Star's and Dream
Cruise's policies promise (docs/atlantic_star.md and docs/dream_cruise.md, "Rollout
policy")."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cruiselib
from cruiselib._core import load, pure_module
from cruiselib.bots import ISMCTSBot

from .support import MASK64, mix64, positions

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("sirens", {}),
    ("sirens", {"variant": "bow_to_rear"}),
    ("dream_islands", {"players": 3}),
    ("atlantic_star", {"players": 2}),
    ("atlantic_star", {"players": 3}),
    ("atlantic_star", {"players": 5}),
    ("dream_cruise", {"players": 1}),
    ("dream_cruise", {"players": 2}),
    ("dream_cruise", {"players": 4}),
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in opts.items()) or 'default'}" for name, opts in CONFIGS]
# Random values whose low three bits are not 0: the policy's own choice, not its random one.
POLICY_DRAWS = [mix64(k) | 1 for k in range(6)]


def _by_policy_or_at_random(state: Any, rnd: random.Random, g: int) -> int:
    r = rnd.getrandbits(64)
    return int(state.rollout_action(r)) if g % 2 == 0 else rnd.choice(state.legal_actions())


def rollout_positions(game: Any, games: int, seed: int) -> list[Any]:
    """Every position of ``games`` games played by the rollout policy itself (half of them)
    and by uniformly random moves (the other half): the positions rollouts reach and the
    ones a search's tree reaches."""
    return positions(game, games, seed, choose=_by_policy_or_at_random)


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_rollout_action_is_legal_and_both_cores_agree(name: str, options: dict[str, Any]) -> None:
    game = cruiselib.make(name, **options)
    twin = game.pure_twin()
    rnd = random.Random(3)
    for k, state in enumerate(rollout_positions(game, 4, 5)):
        legal = set(state.legal_actions())
        draws = [rnd.getrandbits(64) for _ in range(4)]
        chosen = [state.rollout_action(r) for r in draws]
        assert set(chosen) <= legal
        if k % 9 == 0:
            pure = twin.load_state(state.to_json())
            assert [pure.rollout_action(r) for r in draws] == chosen
    over = state.clone()
    while not over.is_over:
        over.apply(over.rollout_action(7))
    with pytest.raises(cruiselib.IllegalMoveError, match="over"):
        over.rollout_action(7)


@pytest.mark.parametrize("name", ["sirens", "dream_islands"])
def test_without_a_policy_the_rollout_is_the_random_playout(name: str) -> None:
    game = cruiselib.make(name)
    for state in rollout_positions(game, 2, 8)[::5]:
        for r in [*POLICY_DRAWS, 0, 8, MASK64]:
            assert state.rollout_action(r) == state.random_action(r)


def test_atlantic_star_policy() -> None:
    """Never a loan or a refresh; a voyage is the best the hand can stage in its sea (A5),
    taken whenever its value reaches 6 a leg or no ship can be chartered, in the sea's class
    or a free one; otherwise a ship is chartered."""
    game = cruiselib.make("atlantic_star", players=3)
    rules = game.rules
    voyages = charters = 0
    for state in rollout_positions(game, 6, 17):
        seat = state.current_player
        legal = state.legal_actions()
        can_charter = any(rules.a_charter <= a < rules.a_voyage for a in legal)
        for r in POLICY_DRAWS:
            a = state.rollout_action(r)
            assert a > rules.a_refresh or (not can_charter and not any(a2 >= rules.a_voyage for a2 in legal))
            if a >= rules.a_voyage:
                voyages += 1
                code = (a - rules.a_voyage) % 37
                sea = (a - rules.a_voyage) // 37 // 5
                value, best = state.best_voyage_code(seat, sea)
                assert code == best
            else:
                charters += 1
                # A ship is chartered only when no voyage the hand can stage reaches par.
                hand = len(state.view(seat).hand)
                for sea in {(a2 - rules.a_voyage) // 37 // 5 for a2 in legal if a2 >= rules.a_voyage}:
                    value, _ = state.best_voyage_code(seat, sea)
                    legs = rules.sea_legs(sea)
                    assert value < 6 * legs - (legs if hand == legs + 2 else 0)
    assert voyages > 50 and charters > 200


def test_dream_cruise_policy() -> None:
    """In the sailing phase a guest goes to an activity whenever one can; otherwise the
    policy plans an activity card or ends the phase, never building or placing the captain."""
    game = cruiselib.make("dream_cruise", players=3)
    rules = game.rules
    placed = other = 0
    for state in rollout_positions(game, 4, 19):
        legal = state.legal_actions()
        placements = [a for a in legal if rules.a_place <= a < rules.a_plan]
        sailing = any(a == rules.a_done for a in legal)
        for r in [*POLICY_DRAWS, 9, 15]:
            a = state.rollout_action(r)
            if not sailing:
                continue
            if placements:
                assert a in placements
                placed += 1
            else:
                assert a == rules.a_done or rules.a_plan <= a < rules.a_build
                other += 1
    assert placed > 100 and other > 50


def test_search_rolls_out_with_the_policy_unless_told_not_to() -> None:
    """``policy`` changes the search only where the game has a policy; the two cores build
    the same tree with it."""
    module = load("ismcts")
    for name, differs in (("sirens", False), ("atlantic_star", True), ("dream_cruise", True)):
        game = cruiselib.make(name)
        state = rollout_positions(game, 1, 29)[6]
        with_policy = module.Search(state, 1.0, True, True, 4, 201)
        with_policy.run(200)
        random_rollouts = module.Search(state, 1.0, True, True, 4, 201, 0.0, False)
        random_rollouts.run(200)
        assert with_policy.policy and not random_rollouts.policy
        assert (with_policy.children() != random_rollouts.children()) == differs
        pure = pure_module("ismcts").Search(game.pure_twin().load_state(state.to_json()), 1.0, True, True, 4, 201)
        pure.run(200)
        assert pure.children() == with_policy.children()


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_prior_action_is_the_policy_without_its_random_moves(name: str, options: dict[str, Any]) -> None:
    """``prior_action`` is legal or -1, agrees on both cores, is -1 throughout a game without
    a policy, and is the rollout's choice whenever the rollout takes the policy's own move."""
    game = cruiselib.make(name, **options)
    twin = game.pure_twin()
    has_policy = name in ("atlantic_star", "dream_cruise")
    preferred = 0
    for k, state in enumerate(rollout_positions(game, 3, 41)):
        legal = set(state.legal_actions())
        priors = [state.prior_action(r) for r in POLICY_DRAWS]
        for r, a in zip(POLICY_DRAWS, priors, strict=True):
            if not has_policy:
                assert a == -1
            elif a >= 0:
                assert a in legal
                assert state.rollout_action(r) == a
                preferred += 1
        if k % 7 == 0:
            pure = twin.load_state(state.to_json())
            assert [pure.prior_action(r) for r in POLICY_DRAWS] == priors
    assert (preferred > 0) == has_policy
    while not state.is_over:
        state.apply(state.rollout_action(3))
    with pytest.raises(cruiselib.IllegalMoveError, match="over"):
        state.prior_action(3)


def test_dream_cruise_prior_is_a_placement_or_none() -> None:
    """Dream Cruise's prior is a guest placement where one is legal, and no preference
    (-1) everywhere else: outside the sailing phase and when only plans, builds, captains
    and the end of the phase are left."""
    game = cruiselib.make("dream_cruise", players=2)
    rules = game.rules
    seen = {"placement": 0, "none": 0}
    for state in rollout_positions(game, 3, 43):
        placements = [a for a in state.legal_actions() if rules.a_place <= a < rules.a_plan]
        for r in POLICY_DRAWS:
            a = state.prior_action(r)
            if placements and rules.a_done in state.legal_actions():
                assert a in placements
                seen["placement"] += 1
            else:
                assert a == -1
                seen["none"] += 1
    assert min(seen.values()) > 20


def test_the_prior_biases_the_search_only_where_a_game_has_a_policy() -> None:
    """``prior_weight`` leaves a game without a policy searched exactly as before (the same
    tree); in Atlantic Star it changes the tree and puts more visits on the policy's move;
    both cores build the same tree with it; a weight below 0, NaN or infinite is refused."""
    module = load("ismcts")
    # Dream Cruise's prior draws from the random value (a random placement): both cores
    # must draw the same one, deep in the tree too.
    for name, differs in (
        ("sirens", False),
        ("dream_islands", False),
        ("atlantic_star", True),
        ("dream_cruise", True),
    ):
        game = cruiselib.make(name)
        state = rollout_positions(game, 1, 29)[6]
        plain = module.Search(state, 1.0, True, True, 4, 401)
        plain.run(400)
        biased = module.Search(state, 1.0, True, True, 4, 401, 0.0, True, 8.0)
        biased.run(400)
        assert biased.prior_weight == 8.0
        assert (biased.children() != plain.children()) == differs
        if cruiselib.compiled:  # in the pure run both searches above are the pure one already
            pure = pure_module("ismcts").Search(
                game.pure_twin().load_state(state.to_json()), 1.0, True, True, 4, 401, 0.0, True, 8.0
            )
            pure.run(400)
            assert pure.children() == biased.children()
    # At the root, the policy's move (the same in every determinization here: the root
    # seat's own hand decides it) gets more visits with the bias than without.
    checked = 0
    for state in rollout_positions(cruiselib.make("atlantic_star", players=2), 2, 31)[1:40:6]:
        choice = state.prior_action(POLICY_DRAWS[0])
        if choice < 0 or len(state.legal_actions()) < 3:
            continue
        checked += 1
        visits = {}
        for weight in (0.0, 8.0):
            tree = module.Search(state, 1.0, True, True, 4, 401, 0.0, True, weight)
            tree.run(400)
            visits[weight] = {a: v for a, v, _, _ in tree.children()}.get(choice, 0)
        assert visits[8.0] > visits[0.0]
    assert checked >= 3
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(cruiselib.InvalidOptionError, match="prior_weight"):
            module.Search(state, 1.0, True, True, 4, 401, 0.0, True, bad)
        with pytest.raises(cruiselib.InvalidOptionError, match="prior_weight"):
            ISMCTSBot(iterations=10, prior_weight=bad)
