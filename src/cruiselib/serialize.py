"""State interchange with msgspec: JSON and MessagePack, versioned, with JSON Schema.

Every game's full state is a ``msgspec.Struct`` (``forbid_unknown_fields``) that carries
``schema_version`` and ``game``. Decoding never raises anything but
:class:`cruiselib.InvalidStateError`; semantic checks (a duplicated card, an impossible
position) are the game's job after decoding.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any, TypeVar

import msgspec

from cruiselib.errors import InvalidStateError

__all__ = ["decode_state", "encode_json", "encode_msgpack", "export_schemas"]

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


def decode_state(data: Any, kind: type[T]) -> T:
    """Decode JSON text/bytes, MessagePack bytes or a mapping into ``kind``."""
    try:
        if isinstance(data, str):
            decoded: T = _json_decoder(kind).decode(data)
            return decoded
        if isinstance(data, (bytes, bytearray, memoryview)):
            if _looks_like_json(data):
                decoded = _json_decoder(kind).decode(data)
            else:
                decoded = _msgpack_decoder(kind).decode(data)
            return decoded
        if isinstance(data, Mapping):
            decoded = msgspec.convert(dict(data), kind)
            return decoded
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise InvalidStateError(f"not a valid {kind.__name__}: {exc}") from None
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:  # pragma: no cover
        raise InvalidStateError(f"not a valid {kind.__name__}: {exc}") from None
    raise InvalidStateError(
        f"a state is JSON text, JSON or MessagePack bytes, or a mapping, not {type(data).__name__}"
    )


def export_schemas(game_names: tuple[str, ...] | None = None) -> dict[str, Any]:
    """JSON Schemas of the state, view and move types of every (or the named) game."""
    import cruiselib

    names = game_names or cruiselib.games()
    return {name: cruiselib.make(name).json_schemas() for name in names}


def main() -> None:  # pragma: no cover - exercised through the CLI
    print(json.dumps(export_schemas(), indent=2, sort_keys=True))
