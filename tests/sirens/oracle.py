"""Reference implementations the core is checked against: the view and the resample as
the Python layer built them before they moved into the core (from ``_get_raw()`` dicts).

Slow and plain on purpose: they say what the core's ``_view`` and ``c_resample`` must do.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from cruiselib.sirens import SirensState, SirensView
from cruiselib.sirens.schema import CardInfo, CrewInfo, ShipInfo

PHASES = ("pick", "main", "after", "crew", "over")
NSHIP = 5
CREW_WON = 5
CREW_REMOVED = 7
SHIP_REMOVED = 2
CREW_NAMES = ("captain", "mate")


def _card_info(state: SirensState, card: int, octo: list[int] | None = None) -> CardInfo:
    c = state.game.cards.cards[card]
    owner = None
    if octo is not None:
        owner = 0 if octo[0] == card else 1 if octo[1] == card else None
    return CardInfo(card, c.value, c.crew, c.emblem, owner)


def reference_view(state: SirensState, player: int) -> SirensView:
    """Seat ``player``'s view, built as the Python layer built it before the core did."""
    game = state.game
    raw = state._get_raw()
    ships = game.cards.ships
    octo = raw["octo"]
    variant = game.variant == "bow_to_rear"
    rum_count = [sum(1 for r in raw["rum"] if r == k) for k in range(NSHIP)]
    crew = raw["crew"]
    ship_infos = []
    for k in range(NSHIP):
        status = raw["ship_status"][k]
        sides = [[_card_info(state, c, octo) for c in side] for side in raw["sides"][k]]
        ship_infos.append(
            ShipInfo(
                value=ships[k],
                in_play=status == -1,
                owner=status if status in (0, 1) else None,
                removed=status == SHIP_REMOVED,
                rum=rum_count[k],
                threshold=ships[k] + 3 * rum_count[k],
                crew=[CREW_NAMES[t] for t in range(2) if crew[t] == k],  # type: ignore[misc]
                sides=sides,
                totals=[sum(ci.value for ci in side) for side in sides],
            )
        )
    crew_infos = [
        CrewInfo(
            name=CREW_NAMES[t],  # type: ignore[arg-type]
            ship=ships[crew[t]] if crew[t] < NSHIP else None,
            owner=crew[t] - CREW_WON if crew[t] in (CREW_WON, CREW_WON + 1) else None,
            removed=crew[t] == CREW_REMOVED,
        )
        for t in range(2)
    ]
    pending = raw["pending"]
    choice = None
    if pending is not None:
        token = 0 if crew[0] == pending[0] else 1
        choice = sorted(ships[k] for k in state._crew_options(pending[0], token))
    own_pile = None
    if variant:
        own_pile = [_card_info(state, c) for c in sorted(raw["piles"][player])]
    piles = raw["piles"]
    return SirensView(
        player=player,
        variant=game.variant,  # type: ignore[arg-type]
        phase=PHASES[raw["phase"]],  # type: ignore[arg-type]
        current_player=state.current_player,
        turn_player=raw["turn"],
        hand=[_card_info(state, c) for c in sorted(raw["hands"][player])],
        hand_sizes=[len(h) for h in raw["hands"]],
        pile_sizes=[len(p) for p in piles],
        own_pile=own_pile,
        ships=ship_infos,
        crew=crew_infos,
        points=state.scores(),
        rum_held=[r == -1 for r in raw["rum"]],
        octopus_held=[o == -1 for o in octo],
        removed=[_card_info(state, c) for c in raw["removed"]],
        crew_choice=choice,
        passes=raw["passes"],
        picks=raw["picks"],
        legal_actions=state.legal_actions() if state.current_player == player else [],
    )


def unseen(state: SirensState, player: int) -> Counter[int]:
    """The cards ``player`` cannot see where they are (a multiset of card ids): the other
    hand and the piles whose order or content is hidden. In the variant the own pile is
    seen as a set (not in order), so it is not counted here."""
    raw = state._get_raw()
    cards = list(raw["hands"][1 - player])
    piles = raw["piles"]
    if len(piles) == 1:
        cards += piles[0]
    else:
        cards += piles[1 - player]
    return Counter(cards)


def hidden_deal(state: SirensState, player: int) -> tuple[Any, ...]:
    """Everything a resample of ``player`` may change: the other hand (as dealt, in order),
    every pile in order, the other seat's pick floor."""
    raw = state._get_raw()
    return (
        tuple(raw["hands"][1 - player]),
        tuple(tuple(p) for p in raw["piles"]),
        raw["pick_floor"][1 - player],
    )


def pick_distribution(state: SirensState, player: int) -> dict[tuple[int, ...], Fraction]:
    """The exact distribution of the other seat's picks that a resample of ``player`` makes
    during the pick phase (S12, S14): each pick a uniform face among those offered, taking
    the lowest card id of that face. Keys are the picked card ids in pick order."""
    game = state.game
    opp = 1 - player
    raw = state._get_raw()
    face = game.rules.face_of
    left0 = sorted(raw["hands"][opp] + raw["piles"][opp])
    n = len(raw["hands"][opp])
    out: dict[tuple[int, ...], Fraction] = {}

    def walk(left: list[int], picked: tuple[int, ...], floor: int, p: Fraction) -> None:
        i = len(picked)
        if i == n:
            out[picked] = out.get(picked, Fraction(0)) + p
            return
        offered = sorted({face(c) for c in left if face(c) >= floor and sum(face(d) >= face(c) for d in left) >= 4 - i})
        for f in offered:
            card = next(c for c in left if face(c) == f)
            rest = [c for c in left if c != card]
            walk(rest, (*picked, card), f, p / len(offered))

    walk(left0, (), 0, Fraction(1))
    return out
