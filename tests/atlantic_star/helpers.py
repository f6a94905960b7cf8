"""Helpers for the Atlantic Star tests: build exact positions through ``load_state``."""

from __future__ import annotations

import importlib
import itertools
from functools import cache
from typing import Any

import cruiselib
from cruiselib.atlantic_star import LEGS, SEAS, AtlanticStarGame, AtlanticStarState


def set_raw(state: Any, raw: dict[str, Any]) -> None:
    """Write ``raw`` (a dict as ``state._get_raw()`` returns it, edited) into ``state``,
    unchecked: the core's one setter, ``atlantic_star_snapshot.set_raw``, of the flavour
    (compiled or pure) ``state``'s core class comes from."""
    core = next(cls for cls in type(state).__mro__ if cls.__name__ == "AtlanticCore")
    importlib.import_module(f"{core.__module__}_snapshot").set_raw(state, raw)


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


def turn_plan(
    g: AtlanticStarGame,
    base: list[int],
    left: list[int],
    limits: list[int],
    fixed: set[int],
    current: int,
    start: int | None,
) -> tuple[int, list[int]]:
    """(start seat, ships to add to each hand) that make the seats' turn counts agree with
    ``current`` being the seat to move (A9), with as few added ships as possible.

    A seat's turns so far = its hand + the ships it played + its voyages (``base`` without
    the hand for seats not in ``fixed``; their hands are filled up to ``limits``)."""
    n = g.num_players
    best: tuple[int, int, list[int]] | None = None
    for st in [start] if start is not None else range(n):
        pc = (current - st) % n
        for r in range(60):
            pad = [0] * n
            ok = True
            for p in range(n):
                expect = r + 1 if (p - st) % n < pc else r
                if not left[p]:
                    ok = ok and base[p] <= expect
                elif p in fixed:
                    ok = ok and base[p] == expect
                else:
                    pad[p] = expect - base[p]
                    ok = ok and 0 <= pad[p] <= limits[p]
            if ok and (best is None or sum(pad) < best[0]):
                best = (sum(pad), st, pad)
    if best is None:
        raise ValueError(f"no start seat gives seat {current} the move with turns {base}")
    return best[1], best[2]


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
    start: int | None = None,
    known: dict[int, list[str]] | None = None,
) -> AtlanticStarState:
    """A position from a short description. Plaques of a sea, top field first:
    ``("seat", seat, voyage, [ship names], loan_marks)`` or ``("op", set)``.
    Unnamed ships go to the pack (``deck_top`` on top, last name topmost) unless ``deck``
    names the whole pack.

    The position must be one play can reach, so the seats' turn counts must fit
    ``current`` being the seat to move (A9): the start seat (unless given) is chosen and
    the hands of seats not in ``hands`` are filled with the highest free ship ids.

    Every held ship is known to all (chartered face up, A14) unless ``known`` names, per
    seat, the ships of its hand that are (the others' hands stay fully known)."""
    n = g.num_players
    used: set[int] = set()

    def ids(names: list[str]) -> list[int]:
        out = [sid(g, x) for x in names]
        used.update(out)
        return out

    hand_ids = [sorted(ids((hands or {}).get(p, []))) for p in range(n)]
    sea_data: list[dict[str, Any]] = []
    ops = g.rules.num_ops
    base = [len(h) for h in hand_ids]
    done = [[0] * 4 for _ in range(n)]
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
                base[seat] += LEGS[s] + 1
                done[seat][s] += 1
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
    left = [4 * g.sets - sum(done[p]) for p in range(n)]
    limits = [
        max((LEGS[s] for s in range(4) if done[p][s] < g.sets), default=0) + 2 for p in range(n)
    ]
    start, pad = turn_plan(g, base, left, limits, set(hands or {}), current, start)
    if agency is None:
        free = [i for i in range(len(g.ships.ships)) if i not in used]
        agency_ids = free[:4]
        used.update(agency_ids)
    else:
        agency_ids = ids(agency)
    disc = ids(discard or [])
    named_deck = ids(deck) if deck is not None else None
    top = ids(deck_top or [])
    spare = [i for i in range(len(g.ships.ships)) if i not in used]
    for p in range(n):
        if pad[p]:
            if len(spare) < pad[p]:
                raise ValueError("not enough free ships to fill the hands")
            hand_ids[p] = sorted(spare[-pad[p] :])
            del spare[-pad[p] :]
    deck_ids = named_deck if named_deck is not None else spare + top
    known_ids = [
        sorted(sid(g, x) for x in known[p]) if known is not None and p in known else list(hand_ids[p])
        for p in range(n)
    ]
    data = {
        "schema_version": 3,
        "game": "atlantic_star",
        "players": n,
        "ship_list": g.ships.digest,
        "board": [list(c) for c in g.board],
        "rng": f"{rng:016x}",
        "phase": phase,
        "start_player": start,
        "current_player": current,
        "money": money or [g.rules.start_money * 1000] * n,
        "hands": hand_ids,
        "known": known_ids,
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


# Target values of filler voyages per sea (bonus voyages, found by find_voyage).
FILLER_VALUE = {"Baltic": 9, "Mediterranean": 12, "Atlantic": 15, "Pacific": 18}


def sailed(
    g: AtlanticStarGame, spec: dict[str, tuple[int, list[int]]], used: set[str]
) -> dict[str, tuple[int, list[tuple[Any, ...]]]]:
    """Seas for :func:`build`: per sea its stars and the seats that sailed it once (each a
    fresh bonus voyage, the first seat's worth most), with the package operators, in board
    order (A7). The ships are added to ``used``."""
    out: dict[str, tuple[int, list[tuple[Any, ...]]]] = {}
    # Longest voyages first: they need the most distinct ships.
    for sea, (stars, seats) in sorted(spec.items(), key=lambda kv: -LEGS[SEAS.index(kv[0])]):
        s = SEAS.index(sea)
        rows: list[tuple[int, int, tuple[Any, ...]]] = []
        for j in range(g.rules.num_ops):
            rows.append((g.rules.operator_value(j, s), 0, ("op", j)))
        for i, seat in enumerate(seats):
            first = FILLER_VALUE[sea] + len(seats) - i
            for target in [first, *range(first + 8, 2 * LEGS[s] - 1, -1)]:
                try:
                    names = find_voyage(g, sea, target, exclude=used)
                except LookupError:
                    continue
                break
            else:
                raise LookupError(f"no more {sea} voyages")
            used.update(names)
            rows.append((target, 1 + i, ("seat", seat, 0, names, 0)))
        rows.sort(key=lambda r: (-r[0], r[1]))
        out[sea] = (stars, [r[2] for r in rows])
    return out
