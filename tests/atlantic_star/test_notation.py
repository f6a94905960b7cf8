"""Atlantic Star's move notation (docs/atlantic_star.md, "Notation"): the texts each move kind
reads from, texts that name a move without a position, texts that need one, and an
ambiguous text's message. The checks every game passes are in tests/test_notation.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cruiselib import IllegalMoveError
from cruiselib.atlantic_star import moves as am
from tests.notation import Typer, check_needs_state, check_reads_without_state, check_tolerance, find_move, make
from tests.support import unchanged_after


def _voyage_alone(state: Any, m: am.Voyage) -> bool:
    """The only legal voyage of its sea and class (so the sea and class name it)."""
    same = [v for v in state.legal_moves() if isinstance(v, am.Voyage) and (v.sea, v.stars) == (m.sea, m.stars)]
    return same == [m]


def _keeps(m: am.Voyage) -> str:
    return f"hand slot{'s' if len(m.keep) > 1 else ''} {', '.join(map(str, reversed(m.keep)))}"


SHORT = {"Baltic": "Bal", "Mediterranean": "med", "Atlantic": "ATL", "Pacific": "Pac"}


# (options, label, move kind, which moves of the kind, the texts that read as it)
TOLERANCE: list[tuple[dict[str, Any], str, type, Callable[[Any, Any], bool], Typer]] = [
    (
        {"players": 3},
        "loan",
        am.Loan,
        lambda s, m: m.voyage == 0,
        lambda s, m: [
            f"loan {m.amount} on the {SHORT[m.sea]}",
            f"LOAN {m.amount // 1000}k ON {m.sea}",
            f"loan {m.amount:,} on the first {m.sea} voyage (value now {m.value})",
            f"loan {m.amount:_} on {m.sea}",
        ],
    ),
    (
        {"players": 3},
        "loan-second",
        am.Loan,
        lambda s, m: m.voyage == 1,
        lambda s, m: [
            f"loan {m.amount} on the second {SHORT[m.sea]}",
            f"loan {m.amount:,} on the second {m.sea} voyage",
        ],
    ),
    (
        {"players": 3},
        "refresh",
        am.Refresh,
        lambda s, m: True,
        lambda s, m: ["refresh", "Refresh the agency", "refresh the agency for 2000"],
    ),
    (
        {"players": 3},
        "charter",
        am.Charter,
        lambda s, m: m.price > 0,
        lambda s, m: [
            f"charter {m.ship.split(' (')[0]}",
            f"CHARTER {m.ship.split(' (')[0]} FOR {m.price}",
            f"charter the ship for {m.price:,}",
            f"charter for {m.price // 1000}k",
        ],
    ),
    (
        {"players": 3},
        "charter-free",
        am.Charter,
        lambda s, m: m.price == 0,
        lambda s, m: ["charter free", f"charter {m.ship.split(' (')[0].lower()}", "charter the ship free"],
    ),
    (
        {"players": 3},
        "voyage-keeps",
        am.Voyage,
        lambda s, m: bool(m.kept),
        lambda s, m: [
            f"voyage {SHORT[m.sea]} {m.stars}* with {', '.join(reversed(m.ships))}",
            f"voyage {m.sea} {m.stars} stars keeping {' and '.join(m.kept)}",
            f"voyage {m.sea} {m.stars}★ with {', '.join(m.ships)}: {m.points} points",
            f"voyage {m.sea} {m.stars}* keeping {_keeps(m)}",
        ],
    ),
    (
        {"players": 3},
        "voyage-alone",
        am.Voyage,
        _voyage_alone,
        lambda s, m: [
            f"voyage {SHORT[m.sea]} {m.stars}*",
            f"voyage {m.sea} {m.stars}☆",
            f"voyage {m.sea} {m.stars} star with {' '.join(m.ships)}",
        ],
    ),
    (
        {"players": 3},
        "voyage-whole-hand",
        am.Voyage,
        lambda s, m: not m.keep,
        lambda s, m: [
            f"voyage {m.sea} {m.stars}★ with the whole hand",
            f"voyage {SHORT[m.sea]} {m.stars}* keeping nothing",
        ],
    ),
]


@pytest.mark.parametrize(
    ("options", "kind", "which", "typer"), [t[:1] + t[2:] for t in TOLERANCE], ids=[t[1] for t in TOLERANCE]
)
def test_a_move_reads_from_the_texts_its_notation_allows(
    options: dict[str, Any], kind: type, which: Callable[[Any, Any], bool], typer: Typer
) -> None:
    check_tolerance(make("atlantic_star", **options), kind, which, typer)


def test_every_move_kind_has_tolerance_examples() -> None:
    assert set(am.MOVE_TYPES) <= {kind for _, _, kind, _, _ in TOLERANCE}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("loan 3000 on the second pac", "loan 3,000 on the second Pacific voyage"),
        ("refresh", "refresh the agency for 2,000"),
        ("charter for 1000", "charter the ship for 1,000"),
        ("voyage Med 3* with the whole hand", "voyage Mediterranean 3★ with the whole hand"),
        ("voyage pac 2 stars keeping hand slots 1, 0", "voyage Pacific 2★ keeping hand slots 0, 1"),
    ],
)
def test_a_text_that_names_the_move_by_itself_needs_no_state(text: str, expected: str) -> None:
    check_reads_without_state(make("atlantic_star", players=3), text, expected)


@pytest.mark.parametrize(
    ("text", "needs"),
    [
        ("charter Vesta for 1,000", "a ship"),
        ("loan 1,000 on the Baltic voyage (value now 3)", "the value after the loan"),
        ("voyage Baltic 2★ with Rhea, Hera: 12 points", "ships or points"),
        ("voyage Pacific 4* keeping Juno", "ships or points"),
    ],
)
def test_a_text_naming_what_the_position_shows_says_it_needs_the_state(text: str, needs: str) -> None:
    check_needs_state(make("atlantic_star"), text, needs)


def test_an_ambiguous_text_lists_the_moves_it_reads_as() -> None:
    game = make("atlantic_star", players=3)

    def several_voyages(state: Any, move: am.Voyage) -> bool:
        return sum(isinstance(v, am.Voyage) and v.sea == move.sea for v in state.legal_moves()) > 1

    state, move = find_move(game, am.Voyage, several_voyages)
    candidates = [str(v) for v in state.legal_moves() if isinstance(v, am.Voyage) and v.sea == move.sea]
    unchanged_after(
        state,
        lambda: state.parse_move(f"voyage {move.sea}"),
        IllegalMoveError,
        f"'voyage {move.sea}' is ambiguous: it reads as {len(candidates)} legal moves",
    )
    with pytest.raises(IllegalMoveError) as info:
        game.parse_move(f"VOYAGE {move.sea}", state)
    for text in candidates[:6]:
        assert repr(text) in str(info.value)
    # without a state: a sea and class name 37 voyages (the whole hand, or keeping 1 or 2 slots)
    with pytest.raises(
        IllegalMoveError, match=r"'voyage Med 3\*' is ambiguous: it reads as 37 moves, .*\(and 31 more\)"
    ):
        game.parse_move("voyage Med 3*")
