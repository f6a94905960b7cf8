"""Helpers for the Atlantic Star tests: build exact positions through ``load_state``."""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

import cruiselib
from cruiselib.atlantic_star import LEGS, SEAS, AtlanticStarGame, AtlanticStarState


@cache
def game(players: int = 4) -> AtlanticStarGame:
    g = cruiselib.make("atlantic_star", players=players)
    assert isinstance(g, AtlanticStarGame)
    return g


def sid(g: AtlanticStarGame, name: str) -> int:
    return g.ships.index[name]


def find_voyage(
    g: AtlanticStarGame,
    sea: str,
    target: int,
    exclude: set[str] | frozenset[str] = frozenset(),
    bonus: bool = True,
) -> list[str]:
    """Names of ships (one suited ship per leg, no mail) whose voyage in ``sea`` is worth
    exactly ``target`` (with the bonus: every leg properly covered)."""
    s = SEAS.index(sea)
    per_leg: list[list[tuple[int, str]]] = [[] for _ in range(LEGS[s])]
    for ship in g.ships.ships:
        if ship.mail or ship.name in exclude:
            continue
        for e in ship.legs:
            if e.sea == sea:
                per_leg[e.leg - 1].append((e.value, ship.name))
    need = target - (LEGS[s] if bonus else 0)
    for combo in itertools.product(*per_leg):
        names = [n for _, n in combo]
        if sum(v for v, _ in combo) == need and len(set(names)) == len(names):
            value, got_bonus, _ = g.voyage_value(names, sea)
            if value == target and got_bonus == bonus:
                return names
    raise LookupError(f"no {sea} voyage worth {target}")


def build(
    g: AtlanticStarGame,
    *,
    hands: dict[int, list[str]] | None = None,
    seas: dict[str, tuple[int, list[tuple[Any, ...]]]] | None = None,
    money: list[int] | None = None,
    current: int = 0,
    phase: str = "loan",
    agency: list[str] | None = None,
    deck_top: list[str] | None = None,
    discard: list[str] | None = None,
    deck: list[str] | None = None,
    rng: int = 12345,
) -> AtlanticStarState:
    """A position from a short description. Plaques of a sea, top field first:
    ``("seat", seat, voyage, [ship names], loan_marks)`` or ``("op", set)``.
    Unnamed ships go to the pack (``deck_top`` on top, last name topmost) unless ``deck``
    names the whole pack."""
    n = g.num_players
    used: set[int] = set()

    def ids(names: list[str]) -> list[int]:
        out = [sid(g, x) for x in names]
        used.update(out)
        return out

    hand_ids = [sorted(ids((hands or {}).get(p, []))) for p in range(n)]
    sea_data: list[dict[str, Any]] = []
    ops = g.rules.num_ops
    for s, name in enumerate(SEAS):
        if not seas or name not in seas:
            sea_data.append({"stars": None, "plaques": []})
            continue
        stars, plaques = seas[name]
        rows = []
        for pl in plaques:
            if pl[0] == "op":
                rows.append({"operator": pl[1], "value": g.rules.operator_value(pl[1], s)})
            else:
                _, seat, voyage, names, loan = pl
                value, _bonus, by_leg = g.voyage_value(names, name)
                rows.append(
                    {
                        "seat": seat,
                        "voyage": voyage,
                        "value": value - loan // 1000,
                        "loan": loan,
                        "ships": ids(by_leg),
                    }
                )
        assert sum(1 for r in rows if "operator" in r) == ops
        sea_data.append({"stars": stars, "plaques": rows})
    if agency is None:
        free = [i for i in range(len(g.ships.ships)) if i not in used]
        agency_ids = free[:4]
        used.update(agency_ids)
    else:
        agency_ids = ids(agency)
    disc = ids(discard or [])
    if deck is not None:
        deck_ids = ids(deck)
    else:
        top = ids(deck_top or [])
        rest = [i for i in range(len(g.ships.ships)) if i not in used]
        deck_ids = rest + top
    data = {
        "schema_version": 1,
        "game": "atlantic_star",
        "players": n,
        "ship_list": g.ships.digest,
        "board": [list(c) for c in g.board],
        "rng": rng,
        "phase": phase,
        "start_player": 0,
        "current_player": current,
        "money": money or [g.rules.start_money * 1000] * n,
        "hands": hand_ids,
        "agency": agency_ids,
        "deck": deck_ids,
        "discard": disc,
        "seas": sea_data,
    }
    return g.load_state(data)


def regular_ships(
    g: AtlanticStarGame, count: int, exclude: set[str] | frozenset[str] = frozenset()
) -> list[str]:
    return [s.name for s in g.ships.ships if not s.mail and s.name not in exclude][:count]


def mail_ships(g: AtlanticStarGame) -> list[str]:
    return [s.name for s in g.ships.ships if s.mail]


def plaque_order(state: AtlanticStarState, sea: str) -> list[tuple[Any, int]]:
    """(owner, value) top first; owner is ("seat", s) or ("op", j)."""
    data = state.to_data()
    sea_data = data.seas[SEAS.index(sea)]
    return [
        ((("op", p.operator) if p.seat is None else ("seat", p.seat)), p.value)
        for p in sea_data.plaques
    ]
