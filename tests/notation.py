"""Helpers of the move-notation tests (tests/test_notation.py and each game's
``tests/<game>/test_notation.py``): texts as a person types them, and the checks that a
text reads as a move."""

from __future__ import annotations

import functools
import random
import re
import unicodedata
from collections.abc import Callable
from typing import Any

import pytest

import cruiselib
from cruiselib import IllegalMoveError

Typer = Callable[[Any, Any], list[str]]
"""The texts a person may type for a legal move (given the state and the move)."""


@functools.cache
def _make(name: str, options: tuple[tuple[str, Any], ...]) -> Any:
    return cruiselib.make(name, **dict(options))


def make(name: str, **options: Any) -> Any:
    """``cruiselib.make``, one game per configuration for the whole test run (a game builds
    its table of move texts once)."""
    return _make(name, tuple(sorted(options.items())))


def loud(text: str) -> str:
    """Upper case, doubled spaces, a tab at the end."""
    return "  " + text.upper().replace(" ", "  ") + "\t"


_ASCII = {"★": "*", "→": "->", "⚓": "a", "ø": "o", "Ø": "O"}


def ascii_typed(text: str) -> str:
    """As typed on a plain keyboard: ``*`` for ``★``, ``->`` for ``→``, ``a`` for ``⚓``,
    ``1000`` for ``1,000``, no accents (``Tromso``, ``Muller``)."""
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text)
    for symbol, typed in _ASCII.items():
        text = text.replace(symbol, typed)
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def reads(state: Any, typed: str, move: Any) -> None:
    """``typed`` reads as the legal ``move`` (as ``legal_moves()`` shows it), both ways."""
    game = state.game
    for got in (state.parse_move(typed), game.parse_move(typed, state)):
        assert got == move and str(got) == str(move), f"{typed!r} read as {str(got)!r}, not {str(move)!r}"
        assert type(got) is type(move)


def find_move(game: Any, kind: type, which: Callable[[Any, Any], bool], games: int = 200) -> tuple[Any, Any]:
    """The first position of seeded random games with a legal move of ``kind`` that
    ``which(state, move)`` picks, and that move."""
    rnd = random.Random(3)
    for g in range(games):
        state = game.new_state(seed=300 + g)
        while not state.is_over:
            for move in state.legal_moves():
                if isinstance(move, kind) and which(state, move):
                    return state, move
            state.apply(rnd.choice(state.legal_actions()))
    raise AssertionError(f"no {kind.__name__} move in {games} games of {game!r}")


def check_tolerance(game: Any, kind: type, which: Callable[[Any, Any], bool], typer: Typer) -> None:
    """A move of ``kind`` that ``which`` picks reads from every text ``typer`` gives (each
    different from the move's own text), and reading changes nothing."""
    state, move = find_move(game, kind, which)
    before = state.to_json()
    typed = typer(state, move)
    assert len(set(typed)) == len(typed) and str(move) not in typed
    for text in typed:
        reads(state, text, move)
    assert state.to_json() == before


def check_reads_without_state(game: Any, text: str, expected: str) -> None:
    """``text`` names a move by itself: ``game.parse_move`` reads it as ``expected``."""
    move = game.parse_move(text)
    assert str(move) == expected
    assert move == game.action_to_move(game.move_to_action(move))


def check_needs_state(game: Any, text: str, needs: str) -> None:
    """``text`` names what only a position shows: without a state it is refused, saying
    what (``needs``) needs the state."""
    with pytest.raises(IllegalMoveError, match=f"{re.escape(repr(text))} without a position: .*{needs} need the state"):
        game.parse_move(text)
