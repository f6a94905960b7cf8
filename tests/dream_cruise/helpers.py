"""Hand-built Dream Cruise positions for rule tests.

:func:`position` builds a state from a few fields: every card not placed anywhere goes to
its deck (in id order, the last drawn first unless ``*_deck`` is given), so a test names
only what matters. It loads with ``history=False`` (free positions no game need reach);
``check=True`` loads through ``game.load_state`` instead, with every check.
"""

from __future__ import annotations

from typing import Any

import msgspec

import cruiselib
from cruiselib.dream_cruise import CardSet, DreamCruiseGame, DreamCruiseState, SeatData, SetData
from cruiselib.dream_cruise.schema import DreamCruiseStateData

CARDS = CardSet.standard()


def fam(name: str) -> int:
    """The id of the family called ``name`` in the standard set."""
    return CARDS.family_index[name]


def loc(name: str) -> int:
    """The id of the location card called ``name``."""
    return CARDS.location_index[name]


def ship(name: str) -> int:
    """The id of the ship card called ``name``."""
    return CARDS.ship_index[name]


def starting(game: DreamCruiseGame, seat: int) -> list[int]:
    """The starting families of ``seat`` (letter A + seat, C21), in list order."""
    letter = "ABCD"[seat]
    return [i for i, f in enumerate(game.cards.families) if f.start == letter]


def seat_data(game: DreamCruiseGame, seat: int, **fields: Any) -> SeatData:
    """A seat: its starting families with every figure on the card, nothing else, then ``fields``."""
    families = fields.pop("families", None)
    if families is None:
        families = starting(game, seat)
    left = fields.pop("figures_left", None)
    if left is None:
        left = [game.cards.families[f].members if f >= 0 else 0 for f in families]
    base: dict[str, Any] = {
        "families": list(families),
        "figures_left": list(left),
        "additions": [-1] * game.additions,
        "addition_guests": [[] for _ in range(game.additions)],
        "location": -1,
        "activity_cards": [-1, -1],
        "location_guests": [[], [], []],
        "captain": -1,
        "played": [],
        "points_pile": [],
        "hand": [],
        "known": [],
        "drawn": [],
    }
    base.update(fields)
    if base["location"] >= 0 and base["location"] not in base["played"]:
        base["played"] = [*base["played"], base["location"]]
    base["hand"] = sorted(base["hand"])
    return SeatData(**base)


def position(
    game: DreamCruiseGame,
    *,
    seats: list[dict[str, Any]] | None = None,
    check: bool = False,
    **fields: Any,
) -> DreamCruiseState:
    """A state of ``game``: phase ``set_sail``, round 2, seat 0 first and to act unless the
    fields say otherwise; cards not placed elsewhere in their decks."""
    n = game.num_players
    seat_fields = seats or [{} for _ in range(n)]
    seat_list = [s if isinstance(s, SeatData) else seat_data(game, p, **s) for p, s in enumerate(seat_fields)]
    data: dict[str, Any] = {
        "schema_version": 1,
        "game": "dream_cruise",
        "players": n,
        "route_points": list(game.route_points),
        "sea_ship_draw": game.sea_ship_draw,
        "additions": game.additions,
        "difficulty": game.difficulty,
        "cards": game.cards.digest,
        "rng": "0123456789abcdef",
        "phase": "set_sail",
        "round": 2,
        "start_player": 0,
        "first_player": 0,
        "turn": 0,
        "final_round": False,
        "display": [],
        "family_discard": [],
        "family_box": [],
        "location_discard": [],
        "ship_discard": [],
        "jana_pile": [],
        "jana_locations": [],
    }
    data.update(fields)
    if data["phase"] == "entertainment" and not data["display"]:
        sets = 3 if n == 1 else (5 if n == 4 else 4)
        data["display"] = [SetData([]) for _ in range(sets)]
    data["display"] = [s if isinstance(s, SetData) else SetData(**s) for s in data["display"]]
    used_f: set[int] = set()
    used_l: set[int] = set()
    used_s: set[int] = set()
    for s in seat_list:
        used_f |= {f for f in s.families if f >= 0} | set(s.points_pile)
        used_l |= set(s.played)
        used_s |= set(s.hand) | {x for x in s.additions if x >= 0} | {x for x in s.activity_cards if x >= 0}
        if data["phase"] == "boarding":
            used_f |= set(s.drawn)
        elif data["phase"] == "set_course":
            used_l |= set(s.drawn)
    used_f |= set(data["family_discard"]) | set(data["family_box"]) | set(data["jana_pile"])
    used_l |= set(data["location_discard"]) | set(data["jana_locations"])
    used_s |= set(data["ship_discard"])
    for st in data["display"]:
        used_s |= set(st.cards)
    if "family_deck" not in data:  # starting families of absent letters stay out (C21)
        data["family_deck"] = [i for i, f in enumerate(game.cards.families) if i not in used_f and f.start is None]
    if "location_deck" not in data:
        data["location_deck"] = [i for i in range(len(game.cards.locations)) if i not in used_l]
    if "ship_deck" not in data:
        data["ship_deck"] = [i for i in range(len(game.cards.ships)) if i not in used_s]
    if "current_player" not in data:
        data["current_player"] = -1 if data["phase"] == "over" else (data["first_player"] + data["turn"]) % n
    data["seats"] = seat_list
    # Through JSON, so msgspec checks every type and range as load_state would.
    struct = msgspec.json.decode(msgspec.json.encode(data), type=DreamCruiseStateData)
    if check:
        return game.load_state(msgspec.json.encode(struct))
    state = game._state_class(game.rules, game)
    state._load(struct, history=False)
    state._start_history(struct, ())
    return state


def make(players: int = 2, **options: Any) -> DreamCruiseGame:
    return cruiselib.make("dream_cruise", players=players, **options)
