"""Move notation, checked on every game: every move's text reads back (``state.parse_move``,
``game.parse_move``), also typed loosely as each game page's "Notation" section allows; a
text that names no legal move raises IllegalMoveError saying why, and leaves the state as it
was. What each game's notation reads is tested in tests/<game>/test_notation.py."""

from __future__ import annotations

import functools
import random
import re
from typing import Any

import pytest

import cruiselib
from cruiselib import IllegalMoveError, InvalidOptionError

from .notation import ascii_typed, loud, make, reads
from .support import CONFIGURATIONS, configuration_id, every_configuration, one_per_game, positions, unchanged_after

CONFIGS = every_configuration()
IDS = [configuration_id(name, options) for name, options in CONFIGS]
ONE_PER_GAME = one_per_game()

GAMES = 6
"""Random games per configuration for the round trip: 150-1,000 positions each on the
compiled core (every second decision), half as many on the slower pure-Python one (every
fourth)."""


# --- the round trip ----------------------------------------------------------------------


def _round_trip(
    name: str, options: dict[str, Any], games: int, every: int, per_state: int, loose: int, free: int
) -> int:
    """Every position of ``games`` random games (each ``every``-th decision): ``per_state``
    of its legal moves (all, when fewer) read back from their text with and without the
    state, and in every ``loose``-th position from the text typed loudly or in ascii
    (which compares the texts of every legal move there); ``free`` of the texts naming what
    only the position shows are read without a state (the move, or an error saying a state
    is needed). The number of positions."""
    game = make(name, **options)
    rnd = random.Random(7)
    states = positions(game, games, seed=31, every=every)
    annotated: dict[str, Any] = {}
    for n, state in enumerate(states):
        before = state.to_json()
        actions, moves = state.legal_actions(), state.legal_moves()
        assert len(actions) == len(moves)
        picks = range(len(moves)) if len(moves) <= per_state else rnd.sample(range(len(moves)), per_state)
        for k, i in enumerate(picks):
            move, text = moves[i], str(moves[i])
            reads(state, text, move)
            if n % loose == 0:  # typed loosely: every legal move's texts are compared
                typed = ascii_typed(text) if k % 2 else loud(text)
                got = state.parse_move(typed if typed != text else loud(text))
                assert got == move and str(got) == text, f"{typed!r} read as {str(got)!r}, not {text!r}"
                assert game.move_to_action(got) == actions[i]
            plain = game.action_to_move(actions[i])
            assert game.parse_move(str(plain)) == plain and str(game.parse_move(loud(str(plain)))) == str(plain)
            if str(plain) != text:
                annotated.setdefault(text, plain)
        assert state.to_json() == before
    for text in rnd.sample(sorted(annotated), min(free, len(annotated))):
        try:
            got = game.parse_move(text)
        except IllegalMoveError as e:
            message = str(e)
        else:
            assert got == annotated[text]
            continue
        assert "need the state" in message and repr(text) in message
    return len(states)


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_every_legal_move_text_reads_back(name: str, options: dict[str, Any]) -> None:
    every, per_state, loose = (2, 8, 3) if cruiselib.compiled else (4, 2, 2)
    assert _round_trip(name, options, GAMES, every, per_state, loose, free=4) >= 280 // every


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_every_legal_move_text_reads_back_long(name: str, options: dict[str, Any]) -> None:
    """Every legal move of every decision of 3 games per configuration."""
    assert _round_trip(name, options, 3, 1, 10_000, 1, free=20) >= 150


def test_a_finished_game_reads_no_move() -> None:
    for name in cruiselib.games():
        game = make(name)
        state = positions(game, 1, seed=2)[-1]
        state.apply(state.legal_actions()[0])
        while not state.is_over:
            state.apply(state.legal_actions()[0])
        text = str(game.action_to_move(0))
        unchanged_after(state, functools.partial(state.parse_move, text), IllegalMoveError, "the game is over")
        assert game.parse_move(text) == game.action_to_move(0)


# --- errors ------------------------------------------------------------------------------


def _typo(text: str) -> str:
    """The first word with two different letters after its first swapped (``paly``,
    ``cvoer``), or an x added to it (``rumx``)."""
    word, rest = text.split(" ", 1) if " " in text else (text, "")
    i = next((i for i in range(1, len(word) - 1) if word[i] != word[i + 1] and word[i + 1].isalpha()), None)
    word = word + "x" if i is None else word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return f"{word} {rest}".strip()


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=[n for n, _ in ONE_PER_GAME])
def test_a_typo_lists_close_matches(name: str, options: dict[str, Any]) -> None:
    game = make(name, **options)
    rnd = random.Random(5)
    for state in rnd.sample(positions(game, 2, seed=8), 6):
        move = rnd.choice(state.legal_moves())
        typo = _typo(str(move))
        unchanged_after(
            state,
            functools.partial(state.parse_move, typo),
            IllegalMoveError,
            f"no legal .* move reads {re.escape(repr(typo))}; did you mean .*{re.escape(repr(str(move)))}",
        )
        plain = str(game.action_to_move(game.move_to_action(move)))
        with pytest.raises(IllegalMoveError, match=f"did you mean .*{re.escape(repr(plain))}"):
            game.parse_move(_typo(plain))


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_a_move_that_is_not_legal_now_says_so(name: str, options: dict[str, Any]) -> None:
    game = make(name, **options)
    rnd = random.Random(9)
    for state in rnd.sample(positions(game, 1, seed=4), 3):
        legal = set(state.legal_actions())
        for a in rnd.sample([a for a in range(game.num_actions) if a not in legal], 3):
            text = str(game.action_to_move(a))
            for typed in (text, loud(text)):
                unchanged_after(
                    state,
                    functools.partial(state.parse_move, typed),
                    IllegalMoveError,
                    f"^{re.escape(repr(typed))} names the .* move {re.escape(repr(text))}, not legal now",
                )


GARBAGE: list[Any] = [
    "",
    "   ",
    "\t\n",
    "\x00\x01\x1f\x7f",
    "🐙",
    "🐙 ⚓ ★",
    "\u0301\u0301",
    "\u200f\u200e",
    "\ufeff",
    "\ud800",
    "play \udfff",
    "ship 28",
    "-",
    "*",
    "->",
    "1,000",
    "x" * 1000,
    "pass " * 200,
    "x" * 1_000_001,
    "play 3 to ship 28, seat 0's side" * 40,
    None,
    7,
    2.5,
    True,
    b"pass",
    bytearray(b"pass"),
    ["pass"],
    ("pass",),
    {"type": "pass"},
    object(),
]


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=[n for n, _ in ONE_PER_GAME])
def test_garbage_raises_illegal_move_error_and_changes_nothing(name: str, options: dict[str, Any]) -> None:
    game = make(name, **options)
    state = positions(game, 1, seed=6, every=7)[2]
    for text in GARBAGE:
        for call in (
            functools.partial(state.parse_move, text),
            functools.partial(game.parse_move, text, state),
            functools.partial(game.parse_move, text),
        ):
            unchanged_after(state, call, IllegalMoveError, r"\w")
    with pytest.raises(IllegalMoveError, match="a text of 1,000,001 characters"):
        state.parse_move("x" * 1_000_001)
    with pytest.raises(IllegalMoveError, match="is a str, not NoneType"):
        game.parse_move(None)
    with pytest.raises(IllegalMoveError, match="the text has no words"):
        state.parse_move(" \x00 🐙 ")


def test_a_state_of_another_game_or_configuration_is_refused() -> None:
    for name, options in CONFIGURATIONS:
        game = make(name, **options)
        text = str(game.action_to_move(0))
        for other_name, other_options in CONFIGURATIONS:
            if (other_name, other_options) == (name, options):
                continue
            other = make(other_name, **other_options).new_state(1)
            with pytest.raises(InvalidOptionError, match="state must be a state of"):
                game.parse_move(text, other)
        with pytest.raises(InvalidOptionError):
            game.parse_move(text, "a state")
