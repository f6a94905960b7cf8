"""Game records: a whole game as its deal, options and actions, replayed exactly.

A record is to a cruiselib game what a PGN file is to a chess game: small, readable JSON
that any version of the library which plays the same rules replays move for move::

    record = state.record()                   # or GameRecord.from_json(text)
    text = record.to_json()
    again = cruiselib.replay(text)            # the same position, history included
    assert again == state

Each record names the game and its options, the generator state the game was dealt from
(``deal``; what ``new_state(seed)`` makes of its seed) and the start seat asked for, the
action ids in order with each move's text (for people reading the record; replay checks
that they agree), and, for a finished game, its result, which replay checks as well.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec
from msgspec import Meta

from cruiselib import serialize
from cruiselib.errors import CruiseError, InvalidOptionError, InvalidStateError

if TYPE_CHECKING:
    from cruiselib._api import Game, State

__all__ = ["GameRecord", "RecordResult", "load_state", "replay"]


class RecordResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The end of a recorded game: every seat's score and the winning seats."""

    scores: list[Annotated[int, Meta(ge=-(2**31), le=2**31 - 1)]]
    winners: list[Annotated[int, Meta(ge=0, le=7)]]


class GameRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One game, from its deal to its last action (see the module docs)."""

    format: Literal["cruiselib-record"] = "cruiselib-record"
    version: Literal[1] = 1
    game: Annotated[str, Meta(max_length=64, description="the game's name, as cruiselib.make takes it")]
    options: dict[str, Any] = {}
    deal: serialize.RngText
    start_player: Annotated[int, Meta(ge=-1, le=7, description="-1: drawn in the deal")] = -1
    actions: serialize.History = []
    moves: Annotated[
        list[Annotated[str, Meta(max_length=200)]],
        Meta(max_length=serialize.HISTORY_LIMIT, description="each action's move as text, for readers"),
    ] = []
    result: RecordResult | None = None

    def to_json(self) -> str:
        """The record as JSON text."""
        return serialize.encode_json(self).decode()

    @classmethod
    def from_json(cls, data: str | bytes | bytearray | memoryview) -> GameRecord:
        """Read a record from JSON text or UTF-8 bytes (InvalidStateError for anything
        that is not one, whatever its type)."""
        if isinstance(data, str):
            raw = serialize.text_of(data, "game record")
        elif isinstance(data, (bytes, bytearray, memoryview)):
            raw = serialize.bytes_of(data)
        else:
            raise InvalidStateError(f"a game record is JSON text or bytes, not {type(data).__name__}")
        try:
            return _record_decoder.decode(raw)
        except msgspec.DecodeError as exc:
            raise InvalidStateError(f"not a valid game record: {exc}") from None
        except serialize.BAD_INPUT_ERRORS as exc:  # nesting too deep for the decoder
            raise InvalidStateError(f"not a valid game record: {type(exc).__name__}: {exc}") from None


_record_decoder = msgspec.json.Decoder(GameRecord)


def record_of(state: State) -> GameRecord:
    """The record of ``state``'s game so far (``State.record``)."""
    origin = state._origin()
    if type(origin) is not tuple:
        raise InvalidStateError(
            "this state does not know its deal (made by resample, or loaded from a snapshot without one)"
        )
    deal, start = origin
    game = state.game
    actions = state._history()
    _check_leads_to(state, deal, start, actions)
    result = None
    if state.is_over:
        result = RecordResult(scores=state.scores(), winners=state.winners())
    return GameRecord(
        game=game.name,
        options=msgspec.to_builtins(game.options),
        deal=serialize.rng_to_text(deal),
        start_player=start,
        actions=actions,
        moves=[str(game.action_to_move(a)) for a in actions],
        result=result,
    )


def _check_leads_to(state: State, deal: int, start: int, actions: list[int]) -> None:
    """InvalidStateError unless the deal and ``actions`` replay to exactly ``state``.

    A snapshot's history is not replayed when it loads (loading is hot: searches and
    fuzzers load many), so a snapshot whose history was edited loads with it; a record
    made of that history would replay to another game. Replaying a whole game costs a
    few milliseconds, and records are made rarely.
    """
    lost = "this state's history does not lead to it; no record can be made"
    try:
        replayed = state.game.state_from_seed_state(deal, start)
        for i, action in enumerate(actions):
            try:
                replayed.apply(action)
            except CruiseError as exc:
                raise InvalidStateError(f"{lost} (action {i + 1}, {action}, is illegal there: {exc})") from None
    except InvalidOptionError as exc:
        raise InvalidStateError(f"{lost} ({exc})") from None
    if replayed._to_data() != state._to_data():
        raise InvalidStateError(f"{lost} (its {len(actions)} actions replay to another position)")


def replay(
    record: GameRecord | str | bytes | bytearray | memoryview | Mapping[str, Any], *, game: Game[Any] | None = None
) -> State:
    """The state a record ends in, replayed from its deal (its history is the record's).

    ``game``: a game to replay in if it is the record's own (its name, and its options as
    the record writes them), which saves making the game again; otherwise the record's
    game is made as without it.

    Raises InvalidStateError when the record is malformed, names an unknown game or bad
    options, holds an illegal action, or when its move texts or its result disagree with
    the replay.
    """
    from cruiselib._registry import make

    rec = _as_record(record)
    if game is None or game.name != rec.game or not _same_options(game, rec.options):
        try:
            game = make(rec.game, **_options(rec.game, rec.options))
        except InvalidOptionError as exc:
            raise InvalidStateError(f"game record: {exc}") from None
        except serialize.BAD_INPUT_ERRORS as exc:  # an option value no game expects (a huge int)
            raise InvalidStateError(f"game record: its options are not valid ({type(exc).__name__})") from None
    try:
        state = game.state_from_seed_state(serialize.rng_from_text(rec.deal), rec.start_player)
    except InvalidOptionError as exc:
        raise InvalidStateError(f"game record: {exc}") from None
    if rec.moves and len(rec.moves) != len(rec.actions):
        raise InvalidStateError(f"game record: {len(rec.actions)} actions but {len(rec.moves)} move texts")
    for i, action in enumerate(rec.actions):
        try:
            state.apply(action)
        except CruiseError as exc:
            raise InvalidStateError(f"game record: action {i + 1} ({action}) is illegal there: {exc}") from None
        if rec.moves and str(game.action_to_move(action)) != rec.moves[i]:
            raise InvalidStateError(
                f"game record: action {i + 1} is {game.action_to_move(action)}, the record says {rec.moves[i]!r}"
            )
    if rec.result is not None:
        if not state.is_over:
            raise InvalidStateError("game record: it has a result, but the game is not over after its actions")
        if rec.result.scores != state.scores() or rec.result.winners != state.winners():
            raise InvalidStateError(
                f"game record: the result says scores {rec.result.scores} and winners {rec.result.winners}, "
                f"the replay gives {state.scores()} and {state.winners()}"
            )
    return state


def decode_snapshot(data: str | bytes | bytearray | memoryview | Mapping[str, Any]) -> tuple[str, Any, Any]:
    """A snapshot of any game decoded and migrated to its game's current schema, not yet
    checked against the rules: the game's name, its class and the decoded data.

    Raises InvalidStateError for a snapshot that names no registered game or that its
    game's schema refuses.
    """
    from cruiselib._registry import game_class

    name = serialize.peek_game(data)
    try:
        cls = game_class(name)
    except InvalidOptionError:
        raise InvalidStateError(f"the snapshot names no known game: {name!r}") from None
    return name, cls, serialize.decode_state(data, cls.state_data_type, cls.schema_migrations)


def load_state(
    data: str | bytes | bytearray | memoryview | Mapping[str, Any],
) -> State:
    """A state from a snapshot of any game, its game and options read from the snapshot.

    For the default components of each game (a custom card or ship list is only named
    by its fingerprint in a snapshot: load those with that game's ``load_state``).
    Raises InvalidStateError as ``Game.load_state`` does.
    """
    from cruiselib._registry import make

    name, cls, decoded = decode_snapshot(data)
    try:
        game = make(name, **cls._options_of_snapshot(decoded))
    except InvalidOptionError as exc:
        raise InvalidStateError(f"the snapshot's options are not valid: {exc}") from None
    return game._load_decoded(decoded)


def _as_record(record: object) -> GameRecord:
    if isinstance(record, GameRecord):
        return record
    if isinstance(record, (str, bytes, bytearray, memoryview)):
        return GameRecord.from_json(record)
    if isinstance(record, Mapping):
        try:
            return msgspec.convert(dict(record), GameRecord)
        except msgspec.ValidationError as exc:
            raise InvalidStateError(f"not a valid game record: {exc}") from None
        except serialize.BAD_INPUT_ERRORS as exc:
            raise InvalidStateError(f"not a valid game record: {type(exc).__name__}") from None
    raise InvalidStateError(f"a game record is a GameRecord, JSON or a mapping, not {type(record).__name__}")


def _same_options(game: Game[Any], options: dict[str, Any]) -> bool:
    """Whether ``options`` (a record's) are ``game``'s own, as a record writes them."""
    try:
        return bool(msgspec.to_builtins(game.options) == options)
    except RecursionError:  # a record's options nested deeper than Python compares
        return False


def _options(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """A record's JSON options as the game's constructor takes them (component lists as
    their Struct types)."""
    from cruiselib._registry import game_class

    types = game_class(name).option_types
    out = dict(options)
    for key, kind in types.items():
        if key in out:
            try:
                out[key] = msgspec.convert(out[key], kind)
            except (msgspec.ValidationError, InvalidOptionError) as exc:
                raise InvalidOptionError(f"option {key!r}: {exc}") from None
    return out
