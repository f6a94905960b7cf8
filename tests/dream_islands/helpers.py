"""Build Dream Islands positions for rule tests from readable descriptions, and an
independent oracle for the distinct moves of a number (brute force over every split)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

import cruiselib
from cruiselib.dream_islands import DreamIslandsGame, DreamIslandsState, DreamIslandsStateData

MISSION = {
    **{f"exact{k}": k - 2 for k in range(2, 6)},
    **{f"run{k}": k + 2 for k in range(2, 6)},
    **{f"major{i}": i + 7 for i in range(1, 9)},
}


def game(players: int = 4, **options: Any) -> DreamIslandsGame:
    g = cruiselib.make("dream_islands", players=players, **options)
    assert isinstance(g, DreamIslandsGame)
    return g


def build(
    g: DreamIslandsGame | None = None,
    *,
    pieces: Mapping[int, Sequence[int]] | None = None,
    small: tuple[int, int, int] = (-1, -1, -1),
    main: Mapping[int, int] | None = None,
    hands: Mapping[int, Sequence[str | int]] | None = None,
    completed: Mapping[int, Sequence[str | int]] | None = None,
    under: Mapping[int, Sequence[str | int]] | None = None,
    covered: Mapping[int, Sequence[int]] | None = None,
    cur: int = 0,
    phase: str = "move",
    rounds: int = 0,
    avoids: Mapping[int, Sequence[Sequence[int]]] | None = None,
) -> DreamIslandsState:
    """A position described by places: ``pieces[seat]`` lists the places of that seat's
    pieces on the board (0 airplane, 1..8 islands); pieces not listed, in the middle or
    on the main island, make up six (the rest go on the airplane). Missions are names
    from MISSION or ids; ``under`` lists the cards a seat put under its pile, next drawn
    first; every other card lies in the pile (ascending ids, the highest on top).
    ``avoids[seat]`` is that seat's hand memory (I16; default: nothing remembered).

    Rule positions are set up freely, so most are not reachable by play (six pieces on
    the airplane, missions completed without turns): the core loads them with every
    consistency check but without the checks of what the turns played allow
    (``_load(..., history=False)``); ``load_state`` would refuse them."""
    g = g or game()
    n = g.num_players
    main = main or {}
    data_pieces = []
    for p in range(n):
        counts = [0] * 9
        listed = (pieces or {}).get(p)
        in_middle = main.get(p, 0) + small.count(p)
        if listed is None:
            listed = [0] * (6 - in_middle)
        for place in listed:
            counts[place] += 1
        counts[0] += 6 - in_middle - len(listed)
        data_pieces.append(counts)

    def ids(xs: Sequence[str | int]) -> list[int]:
        return [MISSION[x] if isinstance(x, str) else x for x in xs]

    # Default hands: three missions that no test position completes by accident.
    hand_ids = [ids((hands or {}).get(p, ["exact5", "run5", "exact4"])) for p in range(n)]
    done_ids = [ids((completed or {}).get(p, [])) for p in range(n)]
    under_ids = [ids((under or {}).get(p, [])) for p in range(n)]
    piles = []
    for p in range(n):
        used = set(hand_ids[p]) | set(done_ids[p]) | set(under_ids[p])
        rest = [x for x in range(16) if x not in used]
        piles.append(list(reversed(under_ids[p])) + rest)
    data = {
        "schema_version": 3,
        "game": "dream_islands",
        "players": n,
        "max_rounds": g.max_rounds or 0,
        "rng": f"{12345:016x}",
        "phase": phase,
        "current_player": -1 if phase == "over" else cur,
        "rounds": rounds,
        "pieces": data_pieces,
        "small_islands": list(small),
        "main_island": [main.get(p, 0) for p in range(n)],
        "covered": [list((covered or {}).get(p, [])) for p in range(n)],
        "hands": hand_ids,
        "piles": piles,
        "known": [len(u) for u in under_ids],
        "hand_avoids": [
            [sum(1 << m for m in set(level)) for level in (avoids or {}).get(p, [[] for _ in hand_ids[p]])]
            for p in range(n)
        ],
        "completed": done_ids,
    }
    decoded = msgspec.json.decode(msgspec.json.encode(data), type=DreamIslandsStateData)
    state = g._state_class(g.rules, g)
    state._load(decoded, False)
    return state


def places(state: DreamIslandsState, seat: int) -> list[int]:
    """The sorted places of a seat's pieces (9 = middle)."""
    view = state.view(seat)
    info = view.seats[seat]
    out = [0] * info.airplane
    for i, c in enumerate(info.islands, start=1):
        out += [i] * c
    return out + [9] * info.middle


def destinations(place: int, steps: int) -> list[int]:
    """Where one piece can end after exactly ``steps`` steps (I1, I3): from the airplane,
    island k; on the ring forward with 8 -> 1; into the middle only from island 8 as the
    last step."""
    if place == 0:
        return [steps]
    out = [(place - 1 + steps) % 8 + 1]
    if place + steps == 9:
        out.append(9)
    return out


def oracle_results(movable: list[int], number: int) -> set[tuple[int, ...]]:
    """Every distinct result of splitting ``number`` over the pieces at ``movable``."""
    results: set[tuple[int, ...]] = set()
    for split in itertools.product(range(number + 1), repeat=len(movable)):
        if sum(split) != number:
            continue
        options = [destinations(p, s) if s else [p] for p, s in zip(movable, split, strict=True)]
        for ends in itertools.product(*options):
            results.add(tuple(sorted(ends)))
    return results


def result_of(movable: list[int], move: Any) -> tuple[int, ...]:
    """The sorted places after applying a typed Cover move's paths to ``movable``."""
    c = Counter(movable)
    for path in move.paths:
        c[path.start] -= path.pieces
        c[path.end] += path.pieces
        assert c[path.start] >= 0
    return tuple(sorted(c.elements()))
