"""Sirens in Sight's move notation (docs/sirens.md, "Notation"): the texts each move kind
reads from, texts that name a move without a position, and a typo's hint. The checks every
game passes are in tests/test_notation.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cruiselib import IllegalMoveError
from cruiselib.sirens import moves as sm
from tests.notation import Typer, check_reads_without_state, check_tolerance, make

# (options, label, move kind, which moves of the kind, the texts that read as it)
TOLERANCE: list[tuple[dict[str, Any], str, type, Callable[[Any, Any], bool], Typer]] = [
    (
        {},
        "play-crew",
        sm.PlayCard,
        lambda s, m: m.crew,
        lambda s, m: [
            f"PLAY {m.value}⚓ TO SHIP {m.ship}, SEAT {m.side}'S SIDE",
            f"play {m.value}a to {m.ship}, seat {m.side}",
            f"play {m.value} anchor to ship {m.ship} seat {m.side}",
            f"play {m.value} to {m.ship}, seat {m.side}'s side",
            f"play {m.value} to {m.ship} seat {m.side}".replace("-", "\u2212"),
        ],
    ),
    (
        {},
        "play",
        sm.PlayCard,
        lambda s, m: not m.crew,
        lambda s, m: [
            f"Play {m.value} to {m.ship}, seat {m.side}",
            f"play {m.value} to ship {m.ship} seat {m.side} side",
        ],
    ),
    (
        {},
        "octopus",
        sm.MoveCard,
        lambda s, m: True,
        lambda s, m: [
            f"move {m.value}{'a' if m.crew else ''} from ship {m.from_ship}/seat {m.from_side} "
            f"to ship {m.to_ship}/seat {m.to_side}",
            f"Octopus move {m.value} from ship {m.from_ship} seat {m.from_side} to ship {m.to_ship} seat {m.to_side}",
        ],
    ),
    (
        {},
        "rum",
        sm.UseRum,
        lambda s, m: True,
        lambda s, m: [f"rum {m.ship}", f"Rum on {m.ship}", f"rum on the ship {m.ship}."],
    ),
    ({}, "end", sm.EndTurn, lambda s, m: True, lambda s, m: ["end", "END TURN", "end the turn"]),
    ({"variant": "bow_to_rear"}, "pass", sm.Pass, lambda s, m: True, lambda s, m: ["Pass.", " PASS "]),
    (
        {},
        "crew",
        sm.MoveCrew,
        lambda s, m: True,
        lambda s, m: [f"crew to {m.to_ship}", f"move crew to {m.to_ship}", f"Move the crew to ship {m.to_ship}"],
    ),
    (
        {"variant": "bow_to_rear"},
        "pick",
        sm.PickCard,
        lambda s, m: m.crew,
        lambda s, m: [f"pick {m.value}a", f"PICK {m.value} ANCHOR", f"pick {m.value}", f"Pick {m.value}⚓"],
    ),
]


@pytest.mark.parametrize(
    ("options", "kind", "which", "typer"), [t[:1] + t[2:] for t in TOLERANCE], ids=[t[1] for t in TOLERANCE]
)
def test_a_move_reads_from_the_texts_its_notation_allows(
    options: dict[str, Any], kind: type, which: Callable[[Any, Any], bool], typer: Typer
) -> None:
    check_tolerance(make("sirens", **options), kind, which, typer)


def test_every_move_kind_has_tolerance_examples() -> None:
    assert set(sm.MOVE_TYPES) <= {kind for _, _, kind, _, _ in TOLERANCE}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("play -2a to 28, seat 1", "play -2⚓ to ship 28, seat 1's side"),
        (
            "Octopus: move 10 from ship 36/seat 0 to ship 28/seat 1",
            "octopus: move 10 from ship 36/seat 0 to ship 28/seat 1",
        ),
        ("rum 30", "rum on ship 30"),
        ("end", "end turn"),
        ("crew to 34", "move crew to ship 34"),
        ("pick -3 anchor", "pick -3⚓"),
    ],
)
def test_a_text_that_names_the_move_by_itself_needs_no_state(text: str, expected: str) -> None:
    check_reads_without_state(make("sirens"), text, expected)


def test_a_typo_lists_at_most_three_close_matches() -> None:
    game = make("sirens")
    with pytest.raises(IllegalMoveError) as info:
        game.parse_move("plya 3 to ship 30, seat 1's side")
    hint = str(info.value).split("did you mean ", 1)[1]
    assert hint.count("play ") == 3 and '"play 3 to ship 30, seat 1\'s side"' in hint
