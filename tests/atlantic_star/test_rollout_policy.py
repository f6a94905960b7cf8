"""Atlantic Star's rollout policy (docs/atlantic_star.md, "Rollout policy"): the loan, the
voyage, the charter or refresh it takes, and the search's prior toward it. The contract
every game's policy keeps is in tests/test_rollout_policy.py."""

from __future__ import annotations

from typing import Any

import pytest

import cruiselib
from cruiselib._core import load
from tests.support import POLICY_DRAWS, rollout_positions


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


def test_the_prior_puts_more_root_visits_on_the_policys_move() -> None:
    """With ``prior_weight`` the search visits the policy's move at the root more often."""
    # The policy's move is the same in every determinization here: the root seat's own
    # hand decides it.
    module = load("ismcts")
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
