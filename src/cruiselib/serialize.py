"""State interchange with msgspec: JSON and MessagePack, versioned, with JSON Schema.

Every game's full state is a ``msgspec.Struct`` (``forbid_unknown_fields``) that carries
``schema_version`` and ``game``. Decoding never raises anything but
:class:`cruiselib.InvalidStateError`; semantic checks (a duplicated card, an impossible
position) are the game's job after decoding.

Snapshots are safe for every JSON reader: no number in them is beyond ±2**53 (what a
JavaScript ``JSON.parse`` keeps exactly), so the 64-bit generator state is written as
16 hex digits (:data:`RngText`). Older schema versions still load: a game lists a
migration per old version (``Game.schema_migrations``) that turns the decoded
builtins of that version into the current version's, which are then validated as usual.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Annotated, Any, TypeVar

import msgspec
from msgspec import Meta

from cruiselib import _core
from cruiselib.errors import InvalidStateError

__all__ = [
    "BAD_INPUT_ERRORS",
    "JS_SAFE_INT",
    "RngText",
    "bytes_of",
    "decode_state",
    "encode_json",
    "encode_msgpack",
    "export_schemas",
    "peek_game",
    "rng_from_text",
    "rng_to_text",
    "shown",
    "text_of",
    "upgrade_rng_to_text",
]

JS_SAFE_INT = 2**53 - 1
"""The largest integer every JSON reader keeps exactly (JavaScript's Number.MAX_SAFE_INTEGER)."""

RngText = Annotated[
    str,
    Meta(
        pattern="^[0-9a-f]{16}$",
        description="splitmix64 generator state: 64 bits as 16 lower-case hex digits (JSON-safe)",
    ),
]

HISTORY_LIMIT: int = _core.load("engine").HISTORY_LIMIT
"""The most actions a snapshot's history holds (a longer game keeps no record)."""


class Deal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How a game began: the generator state it was dealt from, and the start seat."""

    rng: RngText
    start_player: Annotated[int, Meta(ge=-1, le=7, description="the start seat asked for; -1: drawn in the deal")]


ActionId = Annotated[int, Meta(ge=0, le=2**31 - 1)]
History = Annotated[
    list[ActionId],
    Meta(max_length=HISTORY_LIMIT, description="the action ids applied since the deal, oldest first"),
]

Migration = Callable[[dict[str, Any]], dict[str, Any]]


def rng_to_text(rng: int) -> str:
    """The generator state as it is serialized (:data:`RngText`)."""
    return f"{rng & 0xFFFFFFFFFFFFFFFF:016x}"


def rng_from_text(text: str) -> int:
    """The generator state of a serialized :data:`RngText` (already pattern-checked)."""
    return int(text, 16)


def shown(value: object) -> str:
    """``repr(value)`` for an error message, kept short: an int too long to print whole
    (Python refuses to convert one of over 4,300 digits) is named by its size."""
    if isinstance(value, int) and not -(10**30) < value < 10**30:
        return f"an int of {value.bit_length()} bits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # a container of such ints, or nested too deep
        return f"a {type(value).__name__}"
    return text if len(text) <= 80 else f"{text[:77]}..."


def upgrade_rng_to_text(data: dict[str, Any]) -> dict[str, Any]:
    """Schema version 1 to 2, shared by every game: the generator state becomes hex text.

    Version 1 wrote it as a 64-bit JSON number, which JavaScript readers round.
    """
    rng = data.get("rng")
    if isinstance(rng, bool) or not isinstance(rng, int) or not 0 <= rng <= 0xFFFFFFFFFFFFFFFF:
        raise InvalidStateError(f"schema version 1: rng must be a 64-bit unsigned int, not {shown(rng)}")
    return {**data, "schema_version": 2, "rng": rng_to_text(rng)}


T = TypeVar("T", bound=msgspec.Struct)

_json_encoder = msgspec.json.Encoder()
_msgpack_encoder = msgspec.msgpack.Encoder()

encode_json = _json_encoder.encode
encode_msgpack = _msgpack_encoder.encode


@cache
def _json_decoder(kind: type[T]) -> msgspec.json.Decoder[T]:
    return msgspec.json.Decoder(kind)


@cache
def _msgpack_decoder(kind: type[T]) -> msgspec.msgpack.Decoder[T]:
    return msgspec.msgpack.Decoder(kind)


def _looks_like_json(data: bytes | bytearray | memoryview) -> bool:
    # A JSON document of a Struct starts with "{" (after optional whitespace); a
    # MessagePack map starts with a byte 0x80-0x8f, 0xde or 0xdf.
    for byte in bytes(data[:64]):
        if byte in b" \t\r\n":
            continue
        return byte == ord("{")
    return True


_BOM = b"\xef\xbb\xbf"

BAD_INPUT_ERRORS: tuple[type[BaseException], ...] = (
    msgspec.DecodeError,
    msgspec.ValidationError,
    ValueError,  # UnicodeError among them: a str with a lone surrogate is no UTF-8 text
    TypeError,
    OverflowError,
    RecursionError,  # nesting deeper than the decoder follows
    BufferError,  # a memoryview that is not contiguous
    KeyError,
)
"""What decoding outside data may raise besides cruiselib's own errors: every entry point
that reads text or bytes from outside turns these into a cruiselib error (a CruiseError
is a ValueError too: handlers re-raise it first)."""


def text_of(data: str, what: str) -> bytes:
    """``data`` as UTF-8, or InvalidStateError naming the first character that has none
    (a lone surrogate: a str can hold one, no JSON text can)."""
    try:
        return data.encode()
    except UnicodeEncodeError as exc:
        raise InvalidStateError(
            f"not a valid {what}: character {exc.start} ({data[exc.start]!r}) is a lone surrogate, not text"
        ) from None


def bytes_of(data: bytes | bytearray | memoryview) -> bytes:
    """A bytes-like input as bytes (a memoryview of any shape, contiguous or not)."""
    return data if type(data) is bytes else bytes(data)


def decode_state(data: Any, kind: type[T], migrations: Mapping[int, Migration] | None = None) -> T:
    """Decode JSON text/bytes, MessagePack bytes or a mapping into ``kind``.

    A UTF-8 byte-order mark before JSON is ignored (RFC 8259 §8.1 allows readers to).
    Data of an older schema version fails the typed decode; if ``migrations`` has a step
    from its version, the data is decoded untyped, migrated step by step to the current
    version and validated then.
    """
    if type(data) is bytes or type(data) is str:
        # The common case first: current-version JSON, straight to the typed decoder.
        # Anything it refuses (MessagePack, a BOM, an older version, a bad state, a str
        # that is no UTF-8 text) takes the full path below, which also words the error.
        try:
            fast: T = _json_decoder(kind).decode(data)
            return fast
        except BAD_INPUT_ERRORS:
            pass
    what = kind.__name__
    text = isinstance(data, str)  # JSON whatever it looks like; bytes may be MessagePack
    if text:
        data = text_of(data.removeprefix("\ufeff"), what)
    try:
        if isinstance(data, (bytes, bytearray, memoryview)):
            data = bytes_of(data)
            if not text and data[:3] == _BOM:
                data = data[3:]
            decoded: T
            if text or _looks_like_json(data):
                decoded = _json_decoder(kind).decode(data)
            else:
                decoded = _msgpack_decoder(kind).decode(data)
            return decoded
        if isinstance(data, Mapping):
            decoded = msgspec.convert(dict(data), kind)
            return decoded
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        if migrations:
            migrated = _migrate(data, kind, migrations, text)
            if migrated is not None:
                return migrated
        raise InvalidStateError(f"not a valid {what}: {exc}") from None
    except InvalidStateError:
        raise
    except BAD_INPUT_ERRORS as exc:
        raise InvalidStateError(f"not a valid {what}: {type(exc).__name__}: {_message(exc)}") from None
    raise InvalidStateError(f"a state is JSON text, JSON or MessagePack bytes, or a mapping, not {type(data).__name__}")


def _message(exc: BaseException) -> str:
    text = str(exc)
    return text if len(text) <= 200 else f"{text[:197]}..."


class _Header(msgspec.Struct):
    game: Annotated[str, Meta(max_length=64)]


def peek_game(data: Any) -> str:
    """The ``game`` field of a snapshot (JSON text/bytes, MessagePack or a mapping).

    Raises InvalidStateError for anything else, as :func:`decode_state` does.
    """
    if isinstance(data, str):
        data = text_of(data.removeprefix("\ufeff"), "cruiselib state snapshot")
    try:
        if isinstance(data, Mapping):
            return msgspec.convert(dict(data), _Header).game
        if isinstance(data, (bytes, bytearray, memoryview)):
            raw = bytes_of(data).removeprefix(_BOM)
            if _looks_like_json(raw):
                return msgspec.json.decode(raw, type=_Header).game
            return msgspec.msgpack.decode(raw, type=_Header).game
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise InvalidStateError(f"not a cruiselib state snapshot: {exc}") from None
    except BAD_INPUT_ERRORS as exc:
        raise InvalidStateError(f"not a cruiselib state snapshot: {type(exc).__name__}: {_message(exc)}") from None
    raise InvalidStateError(f"a state is JSON text, JSON or MessagePack bytes, or a mapping, not {type(data).__name__}")


def _migrate(data: Any, kind: type[T], migrations: Mapping[int, Migration], text: bool) -> T | None:
    """``data`` (a mapping, or bytes: JSON if ``text``, else JSON or MessagePack as they
    look) of an older schema version, migrated and validated; None if it is not one."""
    try:
        if isinstance(data, Mapping):
            tree: Any = dict(data)
        elif text or _looks_like_json(data):
            tree = msgspec.json.decode(data)
        else:
            tree = msgspec.msgpack.decode(data)
    except BAD_INPUT_ERRORS:
        return None
    if not isinstance(tree, dict):
        return None
    version = tree.get("schema_version")
    if type(version) is not int or version not in migrations:
        return None
    try:
        while type(version) is int and version in migrations:
            tree = migrations[version](tree)
            version = tree.get("schema_version")
        return msgspec.convert(tree, kind)
    except InvalidStateError:
        raise
    except BAD_INPUT_ERRORS as exc:  # a migration step meeting a tree it does not expect
        raise InvalidStateError(
            f"not a valid {kind.__name__} (migrated from an older version): {_message(exc)}"
        ) from None


def export_schemas(game_names: tuple[str, ...] | None = None) -> dict[str, Any]:
    """JSON Schemas of the state, view and move types of every (or the named) game."""
    import cruiselib

    names = game_names or cruiselib.games()
    return {name: cruiselib.make(name).json_schemas() for name in names}
