"""cruiselib.openspiel on Sirens in Sight against hostile input: a state of another variant or
card set, damaged texts of a Sirens state, and a variant that is no text
(tests/test_openspiel_hostile.py holds what every game shares)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import cruiselib.openspiel as cos  # noqa: E402
from cruiselib.errors import InvalidOptionError, InvalidStateError  # noqa: E402
from tests.test_openspiel_hostile import (  # noqa: E402
    GAMES,
    check_another_configurations_state_is_refused,
    check_bad_parameter,
    played,
)

# A surface over the public API, as tests/test_openspiel_hostile.py (-m "not surface" leaves it out).
pytestmark = pytest.mark.surface


def test_another_variants_state_is_refused() -> None:
    check_another_configurations_state_is_refused("sirens", {"variant": "bow_to_rear"}, {}, "variant")


def test_another_card_set_is_refused(tmp_path: Path) -> None:
    """Card files are named by path, so the snapshot's fingerprint of the set decides."""
    cards = [{"value": 9, "emblem": e, "crew": False} for e in ["seastar"] * 4 + ["shell"] * 4]
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps({"name": "tiny", "ships": [1, 2, 3, 4, 5], "cards": cards}))
    tiny = cos.load_game("sirens", cards=path)
    copy = tmp_path / "copy.json"
    copy.write_bytes(path.read_bytes())
    state = tiny.new_initial_state()
    assert cos.load_game("sirens", cards=copy).deserialize_state(state.serialize()).cruiselib_state == (
        state.cruiselib_state
    )
    with pytest.raises(InvalidStateError, match="card set"):
        cos.load_game("sirens").deserialize_state(state.serialize())


def test_a_variant_that_is_no_text_is_refused() -> None:
    check_bad_parameter("sirens", {"variant": "\ud800"}, "variant")
    with pytest.raises(InvalidOptionError):
        cos.GAME_CLASSES["sirens"]({"variant": "\ud800"})


# --------------------------------------------------------------------------- damaged texts


def envelope_of(**changes: Any) -> str:
    """A Sirens text with some of its envelope's fields replaced (None: removed)."""
    envelope = json.loads(played(cos.load_game("sirens"), 3).serialize())
    for key, value in changes.items():
        if value is None:
            del envelope[key]
        else:
            envelope[key] = value
    return json.dumps(envelope)


def honest() -> str:
    """A Sirens state's text, as serialize() writes it."""
    return str(played(cos.load_game("sirens"), 3).serialize())


# Made when a test runs: each builds its text from a freshly serialized state.
DAMAGED: dict[str, Callable[[], Any]] = {
    "empty": lambda: "",
    "truncated": lambda: honest()[: len(honest()) // 2],
    "truncated by one": lambda: honest()[:-1],
    "random bytes": lambda: random.Random(0).randbytes(300),
    "invalid UTF-8": lambda: b'{"format": "\xff\xfe"}',
    "a lone surrogate": lambda: honest().replace('"standard"', '"\ud800"'),
    "a NUL": lambda: "\x00" + honest(),
    "JSON null": lambda: "null",
    "a JSON list": lambda: "[1, 2, 3]",
    "a JSON number": lambda: "12345678901234567890123456789",
    "an empty object": lambda: "{}",
    "another format": lambda: envelope_of(format="pickle"),
    "a later version": lambda: envelope_of(version=2),
    "a huge version": lambda: '{"format": "cruiselib-openspiel-state", "version": 1e400}',
    "no state": lambda: envelope_of(state=None),
    "no history": lambda: envelope_of(history=None),
    "an unknown field": lambda: envelope_of(extra=1),
    "the state a list": lambda: envelope_of(state=[]),
    "the state a string": lambda: envelope_of(state="eyJnYW1lIjogInNpcmVucyJ9"),
    "the state empty": lambda: envelope_of(state={}),
    "parameters a list": lambda: envelope_of(parameters=[2]),
    "a huge parameter": lambda: envelope_of(
        parameters={**cos.GAME_CLASSES["sirens"].spec.parameters, "players": 10**30}
    ),
    "an unknown parameter": lambda: envelope_of(
        parameters={**cos.GAME_CLASSES["sirens"].spec.parameters, "colour": "b"}
    ),
    "a missing parameter": lambda: envelope_of(parameters={"players": 2}),
    "a parameter of another type": lambda: envelope_of(
        parameters={**cos.GAME_CLASSES["sirens"].spec.parameters, "players": 2.0}
    ),
    "a huge action": lambda: envelope_of(history=[[0, 10**30]]),
    "an action beyond the game's": lambda: envelope_of(history=[[0, 10**6]]),
    "a negative action": lambda: envelope_of(history=[[0, -1]]),
    "a seat beyond the game's": lambda: envelope_of(history=[[2, 0]]),
    "a chance seat": lambda: envelope_of(history=[[-1, 0]]),
    "a history entry of three": lambda: envelope_of(history=[[0, 1, 2]]),
    "a history too long": lambda: envelope_of(history=[[0, 0]] * 269),
    "deep nesting": lambda: envelope_of(state=None)[:-1] + ', "state": ' + "[" * 50_000 + "]" * 50_000 + "}",
    "a huge number in the state": lambda: re.sub(r'"turn":\d+', '"turn":1' + "0" * 40, honest(), count=1),
    "not text": lambda: 12345,
    "None": lambda: None,
}


@pytest.mark.parametrize("what", DAMAGED)
def test_damaged_texts_are_refused(what: str) -> None:
    text = DAMAGED[what]()
    game = cos.load_game("sirens")
    with pytest.raises(InvalidStateError):
        game.deserialize_state(text)


def test_a_refused_text_leaves_the_game_unchanged() -> None:
    name, options = next(config for config in GAMES if config[0] != "sirens")
    game = cos.load_game(name, seed=4, **options)
    before = game.deals
    with pytest.raises(InvalidStateError):
        game.deserialize_state(envelope_of())  # a Sirens text
    assert game.deals == before
    assert (
        game.new_initial_state().cruiselib_state
        == cos.load_game(name, seed=4, **options).new_initial_state().cruiselib_state
    )
