"""Every public entry that reads text or bytes from outside raises a cruiselib error for
hostile input: invalid UTF-8, lone surrogates, NUL bytes, huge numbers, deep nesting,
empty input and wrong types, never UnicodeError, TypeError, RecursionError,
OverflowError, BufferError or KeyError.

A fixed list of inputs per entry, then seeded mutations of a valid input (a bounded
number, so the module runs in seconds): each call either raises the entry's own error or
returns normally (a mutation may leave the input valid).
"""

from __future__ import annotations

import array
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import cruiselib
from cruiselib import serialize
from cruiselib.errors import CruiseError, IllegalMoveError, InvalidOptionError, InvalidStateError
from tests.support import ANY_GAME, component_options

DEPTH = 100_000
"""Deeper than any decoder or Python comparison follows (the default recursion limit is 1,000)."""

HUGE = 10**5000
"""An int Python refuses to print whole (over 4,300 digits)."""


def _deep_list(depth: int = DEPTH) -> list[Any]:
    nested: list[Any] = []
    for _ in range(depth):
        nested = [nested]
    return nested


def _played(name: str, steps: int = 6) -> Any:
    game = cruiselib.make(name)
    state = game.new_state(5)
    rnd = random.Random(5)
    for _ in range(steps):
        state.apply(rnd.choice(state.legal_actions()))
    return state


STATES = {name: _played(name) for name in cruiselib.games()}
"""A position of every registered game: the state entries are tried on each."""
STATE = STATES[ANY_GAME]
SNAPSHOT = STATE.to_json()
RECORD = STATE.record().to_json()


def _hostile(valid: str) -> Iterator[tuple[str, Any]]:
    """Inputs no entry may take, built around the entry's own valid JSON text ``valid``."""
    tree = json.loads(valid)
    key = next(iter(tree))  # a field that exists, so its value is looked at
    yield "invalid UTF-8", valid.encode().replace(b'"', b'"\xff', 1)
    yield "invalid UTF-8 only", b"\xff\xfe\xfd"
    yield "a lone surrogate in a value", valid.replace('"', '"\ud800', 1)
    yield "a lone surrogate in a key", valid[:-1] + ', "\udfff": 1}'
    yield "a lone surrogate after a BOM", "\ufeff" + valid.replace('"', '"\udc80', 1)
    yield "a lone surrogate in a mapping", {**tree, key: "\ud800"}
    yield "a NUL in the text", valid.replace('"', '"\x00', 1)
    yield "NUL bytes", b"\x00" * 16
    yield "a huge number in the text", valid.replace("{", '{"_": ' + "9" * 5000 + ",", 1)
    yield "a huge number as a value", json.dumps({**tree, key: 1}).replace(": 1", ": " + "9" * 5000, 1)
    yield "a huge int in a mapping", {**tree, key: HUGE}
    yield "an infinite float", json.dumps({**tree, key: 1}).replace(": 1", ": 1e99999", 1)
    yield "NaN", json.dumps({**tree, key: 1}).replace(": 1", ": NaN", 1)
    yield "deep nesting", "[" * DEPTH + "]" * DEPTH
    yield "deep nesting in a field", json.dumps({**tree, key: 1}).replace(": 1", ": " + "[" * DEPTH + "]" * DEPTH, 1)
    yield "deep nesting in an object", '{"a": ' * DEPTH + "1" + "}" * DEPTH
    yield "deep nesting in bytes", b"[" * DEPTH + b"]" * DEPTH
    yield "deep nesting in a mapping", {**tree, key: _deep_list()}
    yield "an empty str", ""
    yield "empty bytes", b""
    yield "whitespace", " \n\t "
    yield "None", None
    yield "an int", 7
    yield "a float", 1.5
    yield "a list", [1, 2]
    yield "a set", {1}
    yield "an object", object()
    yield "a memoryview of garbage", memoryview(b"\xc1\xff\x00")
    yield "a memoryview of ints", memoryview(array.array("i", [1, 2, 3]))
    yield "a strided memoryview", memoryview(valid.encode())[::2]
    yield "a mapping with an int key", {**tree, 5: 1}


def _mutations(valid: str, rnd: random.Random, n: int) -> Iterator[tuple[str, Any]]:
    """``n`` seeded edits of ``valid``: a hostile piece put at a random place, or a cut."""
    pieces = ["\ud800", "\udfff", "\x00", "9" * 400, "[" * 3000, "\ufeff", "\\ud800", '"', "\\", "{"]
    for _ in range(n):
        at = rnd.randrange(len(valid) + 1)
        kind = rnd.randrange(4)
        if kind == 0:
            piece = rnd.choice(pieces)
            yield f"{piece[:6]!r} at {at}", valid[:at] + piece + valid[at:]
        elif kind == 1:
            raw = valid.encode()
            yield f"byte 0x{raw[at % len(raw)]:02x} at {at} made invalid", raw[:at] + b"\xff" + raw[at + 1 :]
        elif kind == 2:
            yield f"cut at {at}", valid[:at]
        else:
            yield f"cut at {at}, as a memoryview", memoryview(valid[:at].encode())


def _parse_move(state: Any) -> Callable[[Any], Any]:
    def parse(data: Any) -> Any:
        before = state.to_json()
        try:
            return state.parse_move(data)
        finally:
            assert state.to_json() == before  # a refused text leaves the state as it was

    return parse


def _state_entries(name: str) -> list[tuple[str, Callable[[Any], Any], type[CruiseError], str]]:
    """The entries that read a state, a record or a move, each with game ``name``'s own
    valid input: (entry, the call, the error it raises, the valid input)."""
    state = STATES[name]
    snapshot, record = state.to_json(), state.record().to_json()
    move = json.dumps({"move": str(state.legal_moves()[0])})
    return [
        (f"{name}-game.load_state", state.game.load_state, InvalidStateError, snapshot),
        (f"{name}-cruiselib.load_state", cruiselib.load_state, InvalidStateError, snapshot),
        (f"{name}-cruiselib.replay", cruiselib.replay, InvalidStateError, record),
        (f"{name}-GameRecord.from_json", cruiselib.GameRecord.from_json, InvalidStateError, record),
        (f"{name}-serialize.peek_game", serialize.peek_game, InvalidStateError, snapshot),
        (f"{name}-state.parse_move", _parse_move(state), IllegalMoveError, move),
        (f"{name}-game.parse_move", state.game.parse_move, IllegalMoveError, move),
    ]


def _component_entries(
    name: str, option: str, cls: Any
) -> list[tuple[str, Callable[[Any], Any], type[CruiseError], str]]:
    """The entries that read a component set of game ``name`` (``option``, a ``cls``): its
    JSON, and ``make`` given a path."""

    def make_with(data: Any) -> Any:
        return cruiselib.make(name, **{option: data})

    return [
        (f"{name}-{cls.__name__}.from_json", cls.from_json, InvalidOptionError, cls.standard().to_json().decode()),
        (f"{name}-make({option}=path)", make_with, InvalidOptionError, json.dumps({"path": f"{option}.json"})),
    ]


# (entry, the call, the error it raises, a valid input of its own to build hostile ones from)
ENTRIES: list[tuple[str, Callable[[Any], Any], type[CruiseError], str]] = [
    *[entry for name in cruiselib.games() for entry in _state_entries(name)],
    *[entry for name, option, cls in component_options() for entry in _component_entries(name, option, cls)],
]

PARAMS = [pytest.param(*entry, id=entry[0]) for entry in ENTRIES]


def _verdict(call: Callable[[Any], Any], error: type[CruiseError], data: Any, what: str) -> bool:
    """Whether ``call(data)`` refused with ``error`` (False: it accepted the input)."""
    try:
        call(data)
    except error:
        return True
    except Exception as exc:
        raise AssertionError(f"{what}: raised {type(exc).__name__} ({str(exc)[:120]}), not {error.__name__}") from exc
    return False


@pytest.mark.parametrize(("entry", "call", "error", "valid"), PARAMS)
def test_hostile_inputs_raise_the_entrys_own_error(
    entry: str, call: Callable[[Any], Any], error: type[CruiseError], valid: str
) -> None:
    for what, data in _hostile(valid):
        if "-make(" in entry and data is None:
            continue  # a component option of None is the standard set
        refused = _verdict(call, error, data, f"{entry}, {what}")
        # peek_game reads the game's name only: it may pass what the full load refuses.
        assert refused or entry.endswith("serialize.peek_game"), f"{entry} accepted {what}"


@pytest.mark.parametrize(("entry", "call", "error", "valid"), PARAMS)
def test_seeded_mutations_raise_the_entrys_own_error_or_load(
    entry: str, call: Callable[[Any], Any], error: type[CruiseError], valid: str
) -> None:
    rnd = random.Random(f"hostile {entry}")
    refused = 0
    for what, data in _mutations(valid, rnd, 60):
        refused += _verdict(call, error, data, f"{entry}, {what}")
    assert refused >= 30  # most edits break the input


def test_the_messages_name_the_problem() -> None:
    with pytest.raises(InvalidStateError, match="lone surrogate"):
        cruiselib.load_state(SNAPSHOT.replace(f'"{ANY_GAME}"', f'"{ANY_GAME[:3]}\ud800{ANY_GAME[3:]}"'))
    with pytest.raises(InvalidStateError, match="lone surrogate"):
        cruiselib.replay(RECORD.replace(f'"{ANY_GAME}"', '"\ud800"'))
    with pytest.raises(InvalidStateError, match="JSON text or bytes, not NoneType"):
        cruiselib.GameRecord.from_json(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="an int of 16610 bits"):
        STATE.game.load_state({**json.loads(SNAPSHOT), "schema_version": 1, "rng": HUGE})
    # A memoryview of a valid snapshot, contiguous or not, is still a snapshot.
    doubled = bytes(b for c in SNAPSHOT.encode() for b in (c, 0))
    assert STATE.game.load_state(memoryview(doubled)[::2]) == STATE
    assert cruiselib.replay(memoryview(RECORD.encode())) == STATE


@pytest.mark.parametrize(
    "cls", [pytest.param(cls, id=f"{name}-{cls.__name__}.from_json") for name, _, cls in component_options()]
)
def test_a_component_set_names_what_it_reads(cls: Any) -> None:
    with pytest.raises(InvalidOptionError, match="JSON text or bytes, not int"):
        cls.from_json(3)


OPTION_VALUES: list[Any] = [HUGE, [HUGE], -HUGE, "2", 2.5, None, [2], {"a": 1}, True, -1, 2**64, float("nan"), "\ud800"]


@pytest.mark.parametrize("name", sorted(cruiselib.games()))
def test_every_option_refuses_hostile_values_with_invalid_option_error(name: str) -> None:
    """``make`` with any option set to a hostile value raises InvalidOptionError (an int too
    long to print once escaped as a plain ValueError from the game's own message)."""
    import inspect

    from cruiselib._registry import game_class

    options = [p for p in inspect.signature(game_class(name).__init__).parameters if p != "self"]
    for option in options:
        for value in OPTION_VALUES:
            message = "accepted"
            try:
                cruiselib.make(name, **{option: value})
            except InvalidOptionError as exc:
                message = str(exc)  # the message itself can be printed
            assert message, (option, serialize.shown(value))
