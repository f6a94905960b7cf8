"""The text of a serialized OpenSpiel state, and the guard on OpenSpiel's own loader of
game-and-state texts (which would unpickle a Python state's attributes)."""

from __future__ import annotations

import threading
from typing import Annotated, Any

import msgspec
import pyspiel  # type: ignore[import-not-found,unused-ignore]  # no type information

from cruiselib.errors import InvalidStateError
from cruiselib.integration import OpenSpielSpec, path_value
from cruiselib.openspiel._parameters import INT_MAX, INT_MIN

STATE_FORMAT = "cruiselib-openspiel-state"
"""The ``format`` field of the text ``state.serialize()`` writes."""

STATE_FORMAT_VERSION = 1
"""The ``version`` field of that text: ``deserialize_state`` reads this version only."""

_CInt = Annotated[int, msgspec.Meta(ge=INT_MIN, le=INT_MAX)]
_Name = Annotated[str, msgspec.Meta(max_length=64)]
_ParameterValue = bool | _CInt | float | str  # strings unbounded: a game's own (a path, a board) must load again

encode_json = msgspec.json.Encoder().encode


def parameters_not_compared(spec: OpenSpielSpec) -> frozenset[str]:
    """The parameters a loaded text may give another value: the seed only picks the deals
    of new initial states (a state carries its own generator), and a component file is
    named by its path (a parameter written by ``path_value``), so the snapshot's
    fingerprint of the set decides instead."""
    return frozenset({"seed", *(key for key, write in spec.to_parameter.items() if write is path_value)})


class _StateTextHeader(msgspec.Struct):
    """The first fields of a serialized state, read on their own to word the error for a
    text of another format or version."""

    format: _Name
    version: int


class StateText(msgspec.Struct, forbid_unknown_fields=True):
    """The text of ``OpenSpielState.serialize``: versioned, naming its game and parameters."""

    format: _Name
    version: int
    game: _Name
    parameters: Annotated[dict[_Name, _ParameterValue], msgspec.Meta(max_length=64)]
    history: list[tuple[_CInt, _CInt]]
    state: msgspec.Raw  # cruiselib's JSON snapshot, left for the game's load_state to validate


def decode_state_text(text: object) -> StateText:
    """The envelope of a serialized state, its snapshot still raw; InvalidStateError for
    anything else. Never unpickles: JSON only."""
    if isinstance(text, str):
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidStateError(f"a serialized state is Unicode text, not text with {exc.reason}") from None
    elif isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
    else:
        raise InvalidStateError(f"a serialized state is a str (or its UTF-8 bytes), not {type(text).__name__}")
    try:
        header = msgspec.json.decode(data, type=_StateTextHeader)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
        if data.startswith((b"history=", b"\x80")):
            raise InvalidStateError(
                "this is OpenSpiel's pickled form of a Python state, which is never loaded (unpickling runs "
                "any code the text names): cruiselib states load from the JSON text of state.serialize()"
            ) from None
        raise InvalidStateError(
            f"not a serialized cruiselib state (the JSON text of state.serialize(), format {STATE_FORMAT!r}): {exc}"
        ) from None
    if header.format != STATE_FORMAT:
        raise InvalidStateError(f"the text's format is {header.format!r}, not {STATE_FORMAT!r}")
    if header.version != STATE_FORMAT_VERSION:
        raise InvalidStateError(
            f"the text is {STATE_FORMAT} version {header.version}; this cruiselib reads version {STATE_FORMAT_VERSION}"
        )
    try:
        return msgspec.json.decode(data, type=StateText)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
        raise InvalidStateError(f"not a valid {STATE_FORMAT} text: {exc}") from None


# OpenSpiel's C++ loader of a game-and-state text (pyspiel.deserialize_game_and_state) makes a
# new initial state of the game it names and unpickles the state part into its attributes;
# no Python method is asked first. While it runs, cruiselib's games refuse to make that state
# (new_initial_state raises SpielError), so a text naming one of them is never unpickled.
_openspiel_text_loading = threading.local()
# OpenSpiel's own function; a reload of this module (same globals) keeps the one found first.
_openspiel_deserialize_game_and_state = globals().get(
    "_openspiel_deserialize_game_and_state", pyspiel.deserialize_game_and_state
)


def loading_openspiel_text() -> bool:
    """Whether this thread is inside OpenSpiel's loader of a game-and-state text."""
    return bool(getattr(_openspiel_text_loading, "depth", 0))


def _deserialize_game_and_state(text: str) -> Any:
    depth = getattr(_openspiel_text_loading, "depth", 0)
    _openspiel_text_loading.depth = depth + 1
    try:
        return _openspiel_deserialize_game_and_state(text)
    finally:
        _openspiel_text_loading.depth = depth


_deserialize_game_and_state.__doc__ = (
    f"{_openspiel_deserialize_game_and_state.__doc__}\n\n"
    "(cruiselib.openspiel: a cruiselib game's text is refused with SpielError before its state is unpickled.)"
)
pyspiel.deserialize_game_and_state = _deserialize_game_and_state
