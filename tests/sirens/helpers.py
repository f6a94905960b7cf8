"""Build Sirens in Sight positions for rule tests from readable descriptions."""

from __future__ import annotations

from typing import Any

import msgspec

import cruiselib
from cruiselib.sirens import SirensGame, SirensState

SHIPS = (28, 30, 32, 34, 36)


def ship_index(value: int) -> int:
    return SHIPS.index(value)


def build(
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
) -> SirensState:
    """A position of the standard game described by card *values*.

    ``sides`` maps (ship value, seat) to the values on that seat's side; ``ships`` maps a
    ship value to its status (0/1 won by seat, 2 removed); ``crew`` gives each token's ship
    value or "won0"/"won1"/"removed"; ``rum`` each seat's mug ("held", "spent" or a ship
    value); ``octopus`` each seat's octopus as (ship value, side seat, card value) or None;
    ``pile`` the values of the draw pile bottom→top (default: every unused card by id,
    or empty when ``pile=[]``). All other cards are removed from play.
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

    pile_ids = [take(v) for v in pile] if pile is not None else list(free)
    if pile is None:
        free.clear()
    data: dict[str, Any] = {
        "schema_version": 1,
        "game": "sirens",
        "variant": "standard",
        "card_set": game.cards.digest,
        "rng": 12345,
        "phase": phase,
        "start_player": 0,
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
    return game.load_state(msgspec.json.encode(data))


def values_on(state: SirensState, ship: int, seat: int) -> list[int]:
    view = state.view(0)
    return sorted(c.value for c in view.ships[ship_index(ship)].sides[seat])
