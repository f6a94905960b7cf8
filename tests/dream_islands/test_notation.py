"""Dream Islands' move notation (docs/dream_islands.md, "Notation"): the texts each move kind
reads from, and texts that name a move without a position. The checks every game passes are
in tests/test_notation.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cruiselib.dream_islands import moves as im
from tests.notation import Typer, check_reads_without_state, check_tolerance, make


def _place(p: int) -> str:
    return {0: "plane", 9: "mid"}.get(p, str(p))


def _next_place(u: int, end: int) -> int:
    """The place a piece on ``u`` reaches first on its way to ``end`` (rules I2)."""
    if u == 8:
        return 9 if end == 9 else 1
    return u + 1


def _cover_typed(state: Any, m: im.Cover) -> list[str]:
    paths = list(m.paths)
    arrows = ", ".join(f"{p.pieces} pieces {im.place_name(p.start)} -> {im.place_name(p.end)}" for p in reversed(paths))
    short = " ".join(
        (f"{p.pieces} pieces " if p.pieces > 1 else "") + f"{_place(p.start)} to {_place(p.end)}" for p in paths
    )
    singles = ", ".join(f"{im.place_name(p.start)}→{im.place_name(p.end)}" for p in paths for _ in range(p.pieces))
    stops = []  # each path through its first stop: another split of the same result (I3)
    for p in paths:
        stop = _next_place(p.start, p.end)
        if stop == p.end:
            stops.append(f"{p.pieces} pieces {_place(p.start)}→{_place(p.end)}")
        else:
            stops += [
                f"{p.pieces} pieces {_place(p.start)}→{_place(stop)}",
                f"{p.pieces} pieces {_place(stop)}→{_place(p.end)}",
            ]
    return [
        f"Cover {m.number}: {arrows}",
        f"COVER {m.number} {short}",
        f"cover {m.number}: {singles}",
        f"cover {m.number}: {', '.join(stops)}",
    ]


# (options, label, move kind, which moves of the kind, the texts that read as it)
TOLERANCE: list[tuple[dict[str, Any], str, type, Callable[[Any, Any], bool], Typer]] = [
    (
        {"players": 3},
        "cover",
        im.Cover,
        lambda s, m: (
            len(m.paths) >= 2
            and any(p.pieces > 1 for p in m.paths)
            and any(_next_place(p.start, p.end) != p.end for p in m.paths)
        ),
        _cover_typed,
    ),
    ({"players": 3}, "cover-one", im.Cover, lambda s, m: len(m.paths) == 1, _cover_typed),
    (
        {"players": 3},
        "put",
        im.PutUnder,
        lambda s, m: True,
        lambda s, m: [
            f"put {im.mission_name(m.mission)}",
            f"PUT '{im.mission_name(m.mission)}' UNDER",
            f"put “{im.mission_name(m.mission)}” under the pile",
        ],
    ),
    ({"players": 3}, "draw", im.Draw, lambda s, m: True, lambda s, m: ["draw", "Draw up to 3."]),
]


@pytest.mark.parametrize(
    ("options", "kind", "which", "typer"), [t[:1] + t[2:] for t in TOLERANCE], ids=[t[1] for t in TOLERANCE]
)
def test_a_move_reads_from_the_texts_its_notation_allows(
    options: dict[str, Any], kind: type, which: Callable[[Any, Any], bool], typer: Typer
) -> None:
    check_tolerance(make("dream_islands", **options), kind, which, typer)


def test_every_move_kind_has_tolerance_examples() -> None:
    assert set(im.MOVE_TYPES) <= {kind for _, _, kind, _, _ in TOLERANCE}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cover 3: island 1->3, 1 piece airplane->island 1", "cover 3: 1 piece airplane→island 3"),
        ("cover 4: 2 pieces 2 to 4", "cover 4: 2 pieces island 2→4"),
        ("cover 4: 1 piece 2->3, 1 piece 2->3, 2 pieces 3->4", "cover 4: 2 pieces island 2→4"),
        ("cover 2", "cover 2 (no piece can move)"),
        ("put majority on island 3", "put 'majority on island 3' under the draw pile"),
        ("draw", "draw up to 3"),
    ],
)
def test_a_text_that_names_the_move_by_itself_needs_no_state(text: str, expected: str) -> None:
    check_reads_without_state(make("dream_islands", players=3), text, expected)
