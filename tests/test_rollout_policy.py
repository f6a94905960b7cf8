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


def _expected_charter_or_refresh(state: Any, legal: list[int]) -> int:
    """The policy's charter (or refresh) worked out from the seat's view, as the docs say:
    the sea the hand builds is the one whose legs have the most value above 4 (each leg at
    its best ship of the hand); a ship is worth what it adds to the best value on one leg
    of that sea, or with no such sea its best value on a leg of a sea still to sail (2 more
    on a leg the hand has nothing for); half a point per 1,000 marks of its price (a point
    with 6,000 marks or less), ties to the cheaper space; a refresh when no ship is worth
    a point after its price and the seat holds 10,000 marks or more."""
    game = state.game
    rules = game.rules
    seat = state.current_player
    view = state.view(seat)
    hand = [ship.id for ship in view.hand]
    money = view.money[seat] // 1000
    done = [0] * 4
    for sea, info in enumerate(view.seas):
        done[sea] = sum(1 for plaque in info.plaques if plaque.seat == seat)
    open_seas = [s for s in range(4) if done[s] < rules.sets and rules.sea_legs(s) + 2 > len(hand)]

    def best_on(s: int, leg: int) -> int:
        return max((rules.ship_value(c, s, leg) for c in hand), default=0)

    focus = {s: sum(max(0, best_on(s, leg) - 4) for leg in range(rules.sea_legs(s))) for s in open_seas}
    target = max(open_seas, key=lambda s: (focus[s], -s), default=-1)
    if target >= 0 and focus[target] == 0:
        target = -1
    best_action, best_gain = -1, -(10**9)
    for space, agency in enumerate(view.agency):
        price = 3 - space
        if agency.ship is None or money < price:
            continue
        c = agency.ship.id
        gain = 0
        seas = [target] if target >= 0 else open_seas
        for s in seas:
            for leg in range(rules.sea_legs(s)):
                if not rules.ship_suited(c, s, leg):
                    continue
                if target >= 0:
                    g = 2 * (rules.ship_value(c, s, leg) - best_on(s, leg))
                else:
                    covered = any(rules.ship_suited(h, s, leg) for h in hand)
                    g = 2 * (rules.ship_value(c, s, leg) + (0 if covered else 2))
                gain = max(gain, g)
        gain -= price * (1 if money > 6 else 2)
        if gain >= best_gain:
            best_action, best_gain = rules.a_charter + space, gain
    if best_gain < 2 and money >= 10 and rules.a_refresh in legal:
        return int(rules.a_refresh)
    return best_action


def _expected_loan(state: Any, legal: list[int]) -> int:
    """The policy's loan, from the seat's view: with less than 8,000 marks at the start of
    a turn, the largest legal loan that leaves the plaque above the one ranked below it."""
    rules = state.game.rules
    seat = state.current_player
    view = state.view(seat)
    if view.phase != "loan" or view.money[seat] >= 8000:
        return -1
    best, best_amount = -1, 0
    for a in legal:
        if a >= rules.a_refresh:
            continue
        k, amount = divmod(a - rules.a_loan, 10)
        sea, voyage = divmod(k, rules.sets)
        plaques = view.seas[sea].plaques
        i = next(i for i, q in enumerate(plaques) if q.seat == seat and q.voyage == voyage)
        below = plaques[i + 1].value if i + 1 < len(plaques) else -1
        if plaques[i].value - (amount + 1) > below and amount + 1 > best_amount:
            best, best_amount = a, amount + 1
    return best


@pytest.mark.parametrize("players", [2, 3, 4])
def test_atlantic_star_policy(players: int) -> None:
    """A loan only when money runs short and only one that keeps the plaque's rank; a voyage
    is the best the hand can stage in its sea (A5), taken whenever its value reaches 6 a
    leg or no ship can be chartered, in the sea's class or a free one; otherwise the charter
    or refresh the docs describe (worked out here from the seat's view)."""
    game = cruiselib.make("atlantic_star", players=players)
    rules = game.rules
    kinds = {"loan": 0, "refresh": 0, "voyage": 0, "charter": 0}
    for state in rollout_positions(game, 6, 17):
        seat = state.current_player
        legal = state.legal_actions()
        can_charter = any(rules.a_charter <= a < rules.a_voyage for a in legal)
        loan = _expected_loan(state, legal)
        for r in POLICY_DRAWS:
            a = state.rollout_action(r)
            assert a == state.prior_action(r)
            if loan >= 0:
                assert a == loan
                kinds["loan"] += 1
                continue
            assert a >= rules.a_refresh
            if a >= rules.a_voyage:
                kinds["voyage"] += 1
                code = (a - rules.a_voyage) % 37
                sea = (a - rules.a_voyage) // 37 // 5
                value, best = state.best_voyage_code(seat, sea)
                assert code == best
                continue
            kinds["charter" if a > rules.a_refresh else "refresh"] += 1
            assert can_charter and a == _expected_charter_or_refresh(state, legal)
            # A ship is chartered (or the agency refreshed) only when no voyage the hand can
            # stage reaches par.
            hand = len(state.view(seat).hand)
            for sea in {(a2 - rules.a_voyage) // 37 // 5 for a2 in legal if a2 >= rules.a_voyage}:
                value, _ = state.best_voyage_code(seat, sea)
                legs = rules.sea_legs(sea)
                assert value < 6 * legs - (legs if hand == legs + 2 else 0)
    assert kinds["voyage"] > 50 and kinds["charter"] > 200
    assert kinds["loan"] > 0 and kinds["refresh"] > 0


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
