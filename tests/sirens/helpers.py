"""Build Sirens in Sight positions for rule tests from readable descriptions."""

from __future__ import annotations

from typing import Any

import msgspec

import cruiselib
from cruiselib.sirens import Card, CardSet, SirensGame, SirensState

SHIPS = (28, 30, 32, 34, 36)
FULL = ([1, 2, 3, 4], [1, 2, 3, 4])  # four cards each (required while the pile has cards)
# One emblem set of the standard deck (S1), in an order that mixes high, low and
# move-crew (value <= 0) cards early, so that small sets cut from it play every rule.
_ORDER = (10, 0, 9, -4, 8, 7, -1, 6, 5, 4, -2, 3, 2, 1, -3, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)


def small_set(n: int, value: int | None = None, crew: bool | None = None, ships: tuple[int, ...] = SHIPS) -> CardSet:
    """The first ``n`` cards of the standard deck dealt in pairs (a seastar and a shell card
    of each value in turn), so an even ``n`` gives two identical emblem sets (S9). With
    ``value``, every card has that value (and the move-crew icon on every other pair, or
    as ``crew`` says). ``ships``: the ship values (low ones make scoring common)."""
    cards = []
    for i in range(n):
        pair = i // 2
        v = _ORDER[pair % len(_ORDER)] if value is None else value
        icon = (v <= 0) if value is None else (pair % 2 == 0 if crew is None else crew)
        cards.append(Card(v, "seastar" if i % 2 == 0 else "shell", icon))
    name = f"small-{n}" if value is None else f"all-{value}-{n}"
    if ships != SHIPS:
        name += "-ships-" + "-".join(map(str, ships))
    return CardSet(name=name, cards=tuple(cards), ships=(ships[0], ships[1], ships[2], ships[3], ships[4]))


def ship_index(value: int) -> int:
    return SHIPS.index(value)


def position(
    game: SirensGame | None = None,
    *,
    hands: tuple[list[int], list[int]] = ([], []),
    sides: dict[tuple[int, int], list[int]] | None = None,
    ships: dict[int, int] | None = None,
    crew: tuple[int | str, int | str] = (30, 34),
    rum: tuple[int | str, int | str] = ("held", "held"),
    octopus: tuple[tuple[int, int, int] | None, tuple[int, int, int] | None] = (None, None),
    turn: int = 0,
    phase: str = "main",
    passes: int = 0,
    pile: list[int] | None = None,
    removed: list[int] | None = None,
    start_player: int = 0,
) -> dict[str, Any]:
    """The saved state (schema version 1) of a position described by card *values*.

    ``sides`` maps (ship value, seat) to the values on that seat's side; ``ships`` maps a
    ship value to its status (0/1 won by seat, 2 removed); ``crew`` gives each token's ship
    value or "won0"/"won1"/"removed"; ``rum`` each seat's mug ("held", "spent" or a ship
    value); ``octopus`` each seat's octopus as (ship value, side seat, card value) or None;
    ``pile`` the values on top of the draw pile, bottom→top, and ``removed`` those of the
    removed cards. Without ``removed``, the ship cards out of play get the fewest cards
    they can have taken out of play (S6); every card no zone names goes to the bottom of
    the pile (to the removed cards when ``pile=[]``, or ``removed`` and ``pile`` are given).
    """
    game = game or cruiselib.make("sirens")
    assert isinstance(game, SirensGame)
    cards = game.cards.cards
    free = list(range(len(cards)))

    def take(value: int) -> int:
        for c in free:
            if cards[c].value == value:
                free.remove(c)
                return c
        raise ValueError(f"no card {value} left")

    hand_ids = [[take(v) for v in h] for h in hands]
    side_ids: list[list[list[int]]] = [[[] for _ in range(2)] for _ in range(5)]
    octo = [-1, -1]
    for (ship, seat), values in (sides or {}).items():
        side_ids[ship_index(ship)][seat] = [take(v) for v in values]
    for p, spec in enumerate(octopus):
        if spec is not None:
            ship, seat, value = spec
            ids = side_ids[ship_index(ship)][seat]
            octo[p] = next(c for c in ids if cards[c].value == value and c not in octo)
    status = [-1] * 5
    for value, st in (ships or {}).items():
        status[ship_index(value)] = st

    def crew_code(x: int | str) -> int:
        if isinstance(x, int):
            return ship_index(x)
        return {"won0": 5, "won1": 6, "removed": 7}[x]

    def rum_code(x: int | str) -> int:
        if isinstance(x, int):
            return ship_index(x)
        return {"held": -1, "spent": -2}[x]

    # Every ship card out of play took its cards with it (S6): 5 + 5 for a tie, at least
    # enough to reach its value for a won one; the loader checks this.
    best = max(c.value for c in cards)

    def taken(k: int, st: int) -> int:
        value = game.cards.ships[k]
        return -(-value // best) if st != 2 and best > 0 and value <= 5 * best else 10

    reserve = sum(taken(k, st) for k, st in enumerate(status) if st != -1)
    if removed is not None:
        removed_ids = [take(v) for v in removed]
        pile_ids = [take(v) for v in pile] if pile is not None else list(free)
        free = [*removed_ids, *free] if pile is not None else removed_ids
    elif pile is None:
        kept, free = free[:reserve], free[reserve:]
        pile_ids = list(free)
        free = kept
    elif not pile:
        pile_ids = []  # an empty pile: every card no zone names is removed
    else:
        # The given cards are the top of the pile; the cards no zone names lie under them.
        top = [take(v) for v in pile]
        kept, free = free[:reserve], free[reserve:]
        pile_ids = [*free, *top]
        free = kept
    data: dict[str, Any] = {
        "schema_version": 1,
        "game": "sirens",
        "variant": "standard",
        "card_set": game.cards.digest,
        "rng": 12345,
        "phase": phase,
        "start_player": start_player,
        "turn": turn,
        "current_player": -1 if phase == "over" else turn,
        "hands": hand_ids,
        "piles": [pile_ids],
        "sides": side_ids,
        "ships": status,
        "rum": [rum_code(r) for r in rum],
        "crew": [crew_code(c) for c in crew],
        "octopus": octo,
        "removed": list(free),
        "passes": passes,
        "picks": [0, 0],
        "pick_floor": [0, 0],
    }
    return data


def build(game: SirensGame | None = None, **description: Any) -> SirensState:
    """The position :func:`position` describes, loaded (and so validated) by ``game``."""
    game = game or cruiselib.make("sirens")
    assert isinstance(game, SirensGame)
    return game.load_state(msgspec.json.encode(position(game, **description)))


def values_on(state: SirensState, ship: int, seat: int) -> list[int]:
    view = state.view(0)
    return sorted(c.value for c in view.ships[ship_index(ship)].sides[seat])
