"""Dream Cruise's move notation (docs/dream_cruise.md, "Notation"): the texts each move kind
reads from, texts that name a move without a position, texts that need one, and an
ambiguous build's message. The checks every game passes are in tests/test_notation.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cruiselib import IllegalMoveError
from cruiselib.dream_cruise import moves as cm
from tests.notation import (
    Typer,
    ascii_typed,
    check_needs_state,
    check_reads_without_state,
    check_tolerance,
    find_move,
    make,
)


def _bare(activity: str | None) -> str:
    """An activity without its kind in parentheses and without ``Open Sea:``."""
    assert activity is not None
    return activity.rsplit(" (", 1)[0].removeprefix(cm.OPEN_SEA)


# (options, label, move kind, which moves of the kind, the texts that read as it)
TOLERANCE: list[tuple[dict[str, Any], str, type, Callable[[Any, Any], bool], Typer]] = [
    (
        {"players": 2},
        "board",
        cm.Board,
        lambda s, m: True,
        lambda s, m: [f"BOARD {ascii_typed(m.name)}", f"board the {m.name.lower()} family".replace(" family", "")],
    ),
    (
        {"players": 2},
        "keep-sea",
        cm.Keep,
        lambda s, m: m.name.startswith(cm.OPEN_SEA),
        lambda s, m: [
            f"keep {m.name.removeprefix(cm.OPEN_SEA)}",
            f"Keep open sea - {m.name.removeprefix(cm.OPEN_SEA).lower()}",
        ],
    ),
    (
        {"players": 2},
        "keep",
        cm.Keep,
        lambda s, m: not m.name.startswith(cm.OPEN_SEA),
        lambda s, m: [f"keep {ascii_typed(m.name).lower()}", f"KEEP {m.name.upper()}"],
    ),
    (
        {"players": 2},
        "take",
        cm.Take,
        lambda s, m: m.set > 0,
        lambda s, m: [
            f"take set {m.set}",
            f"take {' + '.join(reversed(m.cards))}",
            f"Take {' and '.join(m.cards).lower()}",
            f"take set {m.set}: {', '.join(reversed(m.cards))}",
        ],
    ),
    (
        {"players": 2},
        "take-face-down",
        cm.Take,
        lambda s, m: m.set == 0,
        lambda s, m: ["take facedown", "take the face down set", "take set 0"],
    ),
    (
        {"players": 2},
        "send",
        cm.Place,
        lambda s, m: True,
        lambda s, m: [
            f"send {m.family} to {_bare(m.activity)}",
            f"send a {m.family} guest to {cm.spot_name(m.spot)}",
            f"send a guest from the {cm.CABIN_NAMES[m.cabin]} cabin to {cm.spot_name(m.spot)}",
            f"send {m.family} to {m.activity}",
        ],
    ),
    (
        {"players": 2},
        "send-sea",
        cm.Place,
        lambda s, m: (m.activity or "").startswith(cm.OPEN_SEA),
        lambda s, m: [f"send {m.family} to {_bare(m.activity)}"],
    ),
    ({"players": 2}, "plan", cm.Plan, lambda s, m: True, lambda s, m: [f"PLAN {m.name.lower()}"]),
    (
        {"players": 2},
        "build",
        cm.Build,
        lambda s, m: m.replaces is None,
        lambda s, m: [f"build {m.name} paying {m.payment_name}", f"Build {m.name.upper()}, paying {m.payment_name}."],
    ),
    (
        {"players": 2},
        "build-replacing",
        cm.Build,
        lambda s, m: m.replaces is not None,
        lambda s, m: [
            f"build {m.name} paying {m.payment_name} replacing addition {m.replaces + 1}",
            f"build {m.name}, paying {m.payment_name}, replacing {m.replaced_name.lower()}",
        ],
    ),
    (
        {"players": 2},
        "captain",
        cm.Captain,
        lambda s, m: True,
        lambda s, m: [
            f"captain to {cm.spot_name(m.spot)}, paying {m.payment_name}",
            f"Captain to {_bare(m.activity)} paying {m.payment_name}",
        ],
    ),
    ({"players": 2}, "done", cm.Done, lambda s, m: True, lambda s, m: ["DONE", "end turn", "End."]),
]


@pytest.mark.parametrize(
    ("options", "kind", "which", "typer"), [t[:1] + t[2:] for t in TOLERANCE], ids=[t[1] for t in TOLERANCE]
)
def test_a_move_reads_from_the_texts_its_notation_allows(
    options: dict[str, Any], kind: type, which: Callable[[Any, Any], bool], typer: Typer
) -> None:
    check_tolerance(make("dream_cruise", **options), kind, which, typer)


def test_every_move_kind_has_tolerance_examples() -> None:
    assert set(cm.MOVE_TYPES) <= {kind for _, _, kind, _, _ in TOLERANCE}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("BOARD MULLER", "board Müller"),
        ("keep Tromso", "keep Tromsø"),
        ("keep reykjavik", "keep Reykjavík"),
        ("keep Greenland Sea", "keep Open Sea: Greenland Sea"),
        ("take facedown", "take the face-down set"),
        ("send a guest from the balcony cabin to location top", "send a guest from the balcony cabin to location top"),
        ("plan legs, bums and tums", "plan Legs Bums & Tums"),
        (
            "build Arcade paying Wine Tasting replacing addition 2",
            "build Arcade, paying Wine Tasting, replacing addition 2",
        ),
        ("captain to second sea slot paying zumba", "captain to second sea slot, paying Zumba"),
        ("end turn", "done"),
    ],
)
def test_a_text_that_names_the_move_by_itself_needs_no_state(text: str, expected: str) -> None:
    check_reads_without_state(make("dream_cruise"), text, expected)


@pytest.mark.parametrize(
    ("text", "needs"),
    [
        ("take set 1: Theater + Deck Jogging", "the cards of a set"),
        ("send an Adler guest to Livorno top (country for 2)", "a family or an activity"),
        ("captain to Livorno top, paying Zumba", "an activity"),
        ("build Arcade, paying Zumba, replacing Cinema", "the addition replaced"),
    ],
)
def test_a_text_naming_what_the_position_shows_says_it_needs_the_state(text: str, needs: str) -> None:
    check_needs_state(make("dream_cruise"), text, needs)


def test_an_ambiguous_build_lists_the_additions_it_may_replace() -> None:
    game = make("dream_cruise", players=2)

    def several(state: Any, move: Any) -> bool:
        return (
            move.replaces is not None
            and sum(
                isinstance(b, cm.Build) and (b.addition, b.payment) == (move.addition, move.payment)
                for b in state.legal_moves()
            )
            >= 2
        )

    state, move = find_move(game, cm.Build, several)
    same = [
        str(b)
        for b in state.legal_moves()
        if isinstance(b, cm.Build) and (b.addition, b.payment) == (move.addition, move.payment)
    ]
    text = f"build {move.name}, paying {move.payment_name}"
    with pytest.raises(IllegalMoveError, match=f"is ambiguous: it reads as {len(same)} legal moves") as info:
        state.parse_move(text)
    assert all(repr(t) in str(info.value) for t in same)
