"""The tamper fuzzer, shared by every game: mutate one field of a state reached by play.

A snapshot that a user stores (a database, a file, a message) may come back changed. For
any such change the engine must either refuse the state with ``InvalidStateError`` or
accept a state that is as good as one reached by play:

* it passes :func:`cruiselib.testing.check_state` (copies, round-trips, illegal input,
  views, resampling);
* it exports exactly as it was given (a loader never silently repairs a field);
* it plays to the end with the same random choices identically in the compiled and the
  pure-Python core (same legal actions at every step, the same final snapshot), the
  snapshot after every step loads again, and scores stay within the game's bounds;
* its winners have the best score.

:func:`positions` collects states reached by play (the first, some in the middle, the last
of several games); :func:`mutation` is a hypothesis strategy of one change to a decoded
snapshot tree; :func:`nudges` moves every integer of one by a step or two, in turn,
:func:`near_the_top` sets each to the schema's bounds and just below them, and
:func:`flips` flips every flag (a boolean, or an integer the schema bounds to 0..1);
:func:`check_tampered` is the verdict. The sweeps take their changes a path at a time
(:func:`nudge_edits`, :func:`top_edits`) as bytes (:func:`encoded`: the encodings of the
changed trees, without building each) and give them to :func:`check_encoded`, the same
verdict. ``tests/test_tamper.py`` runs a short campaign for every game and both sweeps
over a few positions; ``scripts/tamper_fuzz.py`` runs a long campaign with a time budget.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec
from hypothesis import strategies as st

import cruiselib
from cruiselib import serialize
from cruiselib.testing import check_state

# Integers worth trying in any integer field: the edges of every C type the cores use,
# small values around 0 and values near what the field held.
EDGE_INTS = (
    0,
    1,
    -1,
    2,
    3,
    4,
    5,
    7,
    8,
    63,
    64,
    127,
    128,
    255,
    256,
    2**15 - 1,
    2**15,
    2**31 - 1,
    2**31,
    -(2**31) - 1,
    2**32,
    2**53,
    2**63 - 1,
    2**63,
    2**64 - 1,
)

Path = tuple[str | int, ...]


def leaves(tree: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every node of a decoded snapshot with its path (containers as well as scalars)."""
    yield path, tree
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from leaves(value, (*path, key))
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            yield from leaves(value, (*path, i))


def _replace(tree: Any, path: Path, value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(tree, dict):
        return {**tree, head: _replace(tree[head], rest, value)}
    out = list(tree)
    out[head] = _replace(tree[head], rest, value)  # type: ignore[index]
    return out


@st.composite
def mutation(draw: st.DrawFn, tree: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """One change to ``tree``: a described edit of one node (a number, a flag, a string, a
    list's elements), never of the header (game, schema version) that the decoder checks first."""
    nodes = [(p, v) for p, v in leaves(tree) if p and p[0] not in ("game", "schema_version")]
    path, value = draw(st.sampled_from(nodes))
    where = "/".join(map(str, path))
    if isinstance(value, bool):
        return f"{where}: flip", _replace(tree, path, not value)
    if isinstance(value, int):
        new = draw(
            st.one_of(
                st.sampled_from(EDGE_INTS),
                st.integers(value - 3, value + 3),
                st.integers(-(2**8), 2**8),
            )
        )
        return f"{where}: {value} -> {new}", _replace(tree, path, new)
    if isinstance(value, str):
        others = sorted({v for _, v in leaves(tree) if isinstance(v, str) and v != value})
        new_text = draw(st.one_of(st.sampled_from(others or [""]), st.text(max_size=20)))
        return f"{where}: {value!r} -> {new_text!r}", _replace(tree, path, new_text)
    if isinstance(value, list) and value:
        kind = draw(st.sampled_from(("drop", "duplicate", "swap", "append", "clear", "reverse")))
        items = list(value)
        i = draw(st.integers(0, len(items) - 1))
        j = draw(st.integers(0, len(items) - 1))
        if kind == "drop":
            del items[i]
        elif kind == "duplicate":
            items.insert(j, items[i])
        elif kind == "swap":
            items[i], items[j] = items[j], items[i]
        elif kind == "append":
            items.append(draw(st.sampled_from([items[i], *EDGE_INTS[:9]])))
        elif kind == "clear":
            items = []
        else:
            items.reverse()
        return f"{where}: {kind} ({i}, {j})", _replace(tree, path, items)
    if isinstance(value, list):
        filler = draw(st.sampled_from([0, 1, -1, [], [0]]))
        return f"{where}: append {filler!r} to []", _replace(tree, path, [filler])
    if isinstance(value, dict) and value:
        key = draw(st.sampled_from(sorted(value)))
        return f"{where}: drop key {key}", _replace(tree, path, {k: v for k, v in value.items() if k != key})
    return f"{where}: set to null", _replace(tree, path, None)


def _integers(tree: dict[str, Any]) -> Iterator[tuple[Path, int]]:
    """Every integer of ``tree`` with its path, in order, but those of the header and of the
    record of play (which the loader checks against the rules' action ids only)."""
    for path, value in leaves(tree):
        if not path or path[0] in ("game", "schema_version", "history", "deal"):
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            continue
        yield path, value


# One path's changes: the path, the value the tree holds there, the values put there in turn.
Edits = Iterator[tuple[Path, Any, list[Any]]]


def nudge_edits(tree: dict[str, Any], steps: tuple[int, ...] = (-2, -1, 1, 2)) -> Edits:
    """The changes :func:`nudges` makes, a path at a time."""
    for path, value in _integers(tree):
        yield path, value, [value + step for step in steps]


def top_edits(tree: dict[str, Any], maxima: set[int]) -> Edits:
    """The changes :func:`near_the_top` makes, a path at a time."""
    values = sorted({m - d for m in maxima for d in range(4) if m - d > 8})
    for path, value in _integers(tree):
        yield path, value, [new for new in values if new != value]


def _trees(tree: dict[str, Any], edits: Edits) -> Iterator[tuple[str, dict[str, Any]]]:
    for path, value, news in edits:
        where = "/".join(map(str, path))
        for new in news:
            yield f"{where}: {value} -> {new}", _replace(tree, path, new)


def nudges(tree: dict[str, Any], steps: tuple[int, ...] = (-2, -1, 1, 2)) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every integer of ``tree`` moved by each of ``steps``, one at a time (not the header, nor
    the record of play, which the loader checks against the rules' action ids only).

    The random campaign draws from every kind of change; a count one or two off what play
    made is the change a loader's arithmetic is most likely to let through, so this tries
    all of them, in order."""
    return _trees(tree, nudge_edits(tree, steps))


def schema_maxima(schema: Any) -> set[int]:
    """Every integer bound (``maximum``) of a JSON Schema, wherever it stands."""
    found: set[int] = set()
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "maximum" and isinstance(value, int) and not isinstance(value, bool):
                found.add(value)
            found |= schema_maxima(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= schema_maxima(value)
    return found


def near_the_top(tree: dict[str, Any], maxima: set[int]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every integer of ``tree`` set, in turn, to each bound of the schema and the three below
    it (those above 8): a counter that loads just under its bound must not be pushed past
    it by play, or the state reached stops loading."""
    return _trees(tree, top_edits(tree, maxima))


# A value no snapshot holds, put where a change goes to find where its encoding stands.
_MARK = "<tamper: the changed value>"


def _around(encoded: bytes, mark: bytes) -> tuple[bytes, bytes] | None:
    """What stands before and after the one occurrence of ``mark`` in ``encoded`` (None
    unless it occurs exactly once)."""
    if encoded.count(mark) != 1:
        return None
    before, _, after = encoded.partition(mark)
    return before, after


def encoded(tree: dict[str, Any], edits: Edits) -> Iterator[tuple[str, bytes, bytes]]:
    """Each change of ``edits`` as :func:`nudges` and :func:`near_the_top` describe it, with
    the changed tree encoded as JSON and as MessagePack: exactly the bytes
    ``msgspec.json.encode`` and ``msgspec.msgpack.encode`` give for it.

    The encodings of one path's changes differ only where the value stands: neither format
    says how many bytes a container holds (MessagePack counts its elements, JSON none), and
    a scalar encodes the same wherever it stands. So the rest of the tree is encoded once a
    path (with a marker where the value goes) and each value's own encoding is put between
    the two parts, instead of building and encoding a whole tree per change (the sweeps
    make hundreds of thousands). If the marker's encoding is not found exactly once, the
    trees are built and encoded as they were. ``tests/test_tamper.py`` checks the bytes
    against encoding the trees of :func:`nudges` and :func:`near_the_top`."""
    json_mark, msgpack_mark = msgspec.json.encode(_MARK), msgspec.msgpack.encode(_MARK)
    for path, value, news in edits:
        where = "/".join(map(str, path))
        marked = _replace(tree, path, _MARK)
        json_parts = _around(msgspec.json.encode(marked), json_mark)
        msgpack_parts = _around(msgspec.msgpack.encode(marked), msgpack_mark)
        for new in news:
            if json_parts is None or msgpack_parts is None:
                changed = _replace(tree, path, new)
                data, packed = msgspec.json.encode(changed), msgspec.msgpack.encode(changed)
            else:
                data = msgspec.json.encode(new).join(json_parts)
                packed = msgspec.msgpack.encode(new).join(msgpack_parts)
            yield f"{where}: {value} -> {new}", data, packed


def _resolve(node: Any, defs: dict[str, Any]) -> Any:
    """A schema node with its ``$ref`` followed (msgspec refers to ``#/$defs/Name``)."""
    while isinstance(node, dict) and "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    return node


def _branch(node: Any, value: Any, defs: dict[str, Any]) -> Any:
    """The ``anyOf`` branch of a schema node that describes ``value`` (the node itself if none)."""
    node = _resolve(node, defs)
    if not isinstance(node, dict) or "anyOf" not in node:
        return node
    wanted = (
        "boolean"
        if isinstance(value, bool)
        else "integer"
        if isinstance(value, int)
        else "object"
        if isinstance(value, dict)
        else "array"
        if isinstance(value, list)
        else "string"
        if isinstance(value, str)
        else "null"
    )
    for option in node["anyOf"]:
        option = _resolve(option, defs)
        if isinstance(option, dict) and option.get("type") == wanted:
            return option
    return {}


def _with_schema(tree: Any, node: Any, defs: dict[str, Any], path: Path = ()) -> Iterator[tuple[Path, Any, Any]]:
    """Every node of a decoded snapshot with its path and the schema node that describes it."""
    node = _branch(node, tree, defs)
    yield path, tree, node
    if isinstance(tree, dict):
        props = node.get("properties", {}) if isinstance(node, dict) else {}
        for key, value in tree.items():
            yield from _with_schema(value, props.get(key, {}), defs, (*path, key))
    elif isinstance(tree, list):
        prefix = node.get("prefixItems", []) if isinstance(node, dict) else []
        items = node.get("items", {}) if isinstance(node, dict) else {}
        for i, value in enumerate(tree):
            yield from _with_schema(value, prefix[i] if i < len(prefix) else items, defs, (*path, i))


def flips(tree: dict[str, Any], schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every flag of ``tree`` flipped, one at a time: each boolean, and each integer that the
    snapshot schema (``msgspec.json.schema`` of the game's state type) bounds to 0..1 (not
    the header, nor the record of play).

    A flag the rest of a snapshot decides (a last round, a pending draw) is the change a
    loader most easily takes as given; flipped, it must be refused or play out as if play
    had set it (a Dream Cruise round marked not the last played on into a round that no
    longer loaded)."""
    defs = schema.get("$defs", {})
    for path, value, node in _with_schema(tree, schema, defs):
        if not path or path[0] in ("game", "schema_version", "history", "deal"):
            continue
        where = "/".join(map(str, path))
        if isinstance(value, bool):
            yield f"{where}: flip {value} -> {not value}", _replace(tree, path, not value)
        elif (
            isinstance(value, int)
            and value in (0, 1)
            and isinstance(node, dict)
            and node.get("type") == "integer"
            and node.get("minimum") == 0
            and node.get("maximum") == 1
        ):
            yield f"{where}: toggle {value} -> {1 - value}", _replace(tree, path, 1 - value)


def positions(game: Any, n_games: int = 6, seed: int = 0, every: int = 11) -> list[dict[str, Any]]:
    """Decoded snapshots of states reached by random play: first, every ``every``-th, last."""
    out = []
    rnd = random.Random(seed)
    for g in range(n_games):
        state = game.new_state(seed=seed * 1000 + g)
        step = 0
        while not state.is_over:
            if step % every == 0:
                out.append(msgspec.to_builtins(state.to_data()))
            state.apply(rnd.choice(state.legal_actions()))
            step += 1
        out.append(msgspec.to_builtins(state.to_data()))
    return out


@dataclass
class TamperStats:
    """What a campaign did: mutations tried, refused, accepted (and played to the end)."""

    tried: int = 0
    refused: int = 0
    accepted: int = 0
    actions_played: int = 0
    reasons: dict[str, int] = field(default_factory=dict)

    def add_refusal(self, message: str) -> None:
        self.refused += 1
        key = message.split(":")[1].strip() if message.count(":") >= 1 else message
        key = key[:60]
        self.reasons[key] = self.reasons.get(key, 0) + 1


def _decoder_refused(exc: BaseException) -> bool:
    """Whether ``exc``, raised by ``Game.load_state``, came out of its first step: the call of
    ``serialize.decode_state`` (the typed decode, shared by both cores), before
    ``_load_decoded`` handed the snapshot to a core. Read from the traceback: the frame of
    ``Game.load_state`` whose next frame is ``decode_state``."""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code is _LOAD_STATE_CODE:
            return tb.tb_next is not None and tb.tb_next.tb_frame.f_code is _DECODE_STATE_CODE
        tb = tb.tb_next
    return False


_LOAD_STATE_CODE = cruiselib.Game.load_state.__code__
_DECODE_STATE_CODE = serialize.decode_state.__code__


def _same_decoder(game: Any, twin: Any) -> bool:
    """Whether ``twin.load_state`` starts with exactly the decode that ``game.load_state``
    starts with: the same ``Game.load_state``, whose first step is
    ``serialize.decode_state(data, self.state_data_type, self.schema_migrations)``, with the
    same Struct type and the same migrations (the twin copies the game's attributes and
    changes only its core). ``decode_state`` is a function of those arguments and the data."""
    return (
        type(game).load_state is cruiselib.Game.load_state
        and type(twin).load_state is cruiselib.Game.load_state
        and twin.state_data_type is game.state_data_type
        and twin.schema_migrations is game.schema_migrations
    )


def check_tampered(
    game: Any,
    twin: Any,
    tree: dict[str, Any],
    description: str,
    stats: TamperStats | None = None,
    *,
    seed: int = 0,
    max_actions: int = 20_000,
) -> None:
    """The verdict on one tampered snapshot (raises AssertionError with ``description``)."""
    check_encoded(
        game,
        twin,
        msgspec.json.encode(tree),
        lambda: msgspec.msgpack.encode(tree),
        description,
        stats,
        seed=seed,
        max_actions=max_actions,
    )


def check_encoded(
    game: Any,
    twin: Any,
    data: bytes,
    packed: bytes | Callable[[], bytes],
    description: str,
    stats: TamperStats | None = None,
    *,
    seed: int = 0,
    max_actions: int = 20_000,
) -> None:
    """:func:`check_tampered` of the tampered snapshot whose JSON is ``data`` and whose
    MessagePack is ``packed`` (or what it returns: only a refused snapshot needs it)."""
    stats = stats if stats is not None else TamperStats()
    stats.tried += 1
    try:
        state = game.load_state(data)
    except cruiselib.InvalidStateError as exc:
        stats.add_refusal(str(exc))
        # The same verdict from MessagePack and from the pure core: one validation.
        # The pure core is asked unless the compiled core never saw the snapshot: a refusal
        # that came out of load_state's typed decode (``_decoder_refused``), when the twin's
        # load_state begins with that very decode call (``_same_decoder``), is the twin's
        # verdict too, reached by the same function on the same arguments before either
        # core is involved; asking again would run msgspec's decoder twice, not the pure core.
        others: list[tuple[Any, bytes, str]] = [
            (game, packed if isinstance(packed, bytes) else packed(), "MessagePack")
        ]
        if not (_decoder_refused(exc) and _same_decoder(game, twin)):
            others.append((twin, data, "the pure core"))
        for loader, other_data, what in others:
            try:
                loader.load_state(other_data)
            except cruiselib.InvalidStateError:
                continue
            raise AssertionError(f"{description}: refused as JSON by the compiled core, accepted by {what}") from None
        return
    except Exception as exc:  # anything but InvalidStateError is a bug
        raise AssertionError(f"{description}: load_state raised {type(exc).__name__}: {exc}") from exc
    stats.accepted += 1
    # A loader that accepts a snapshot takes it as it is: silently recomputing a field
    # (a count the board implies, a flag the phase implies) hides a tampered snapshot.
    # (Compared with the typed decode, which fills in fields that have defaults.)
    exported = msgspec.to_builtins(state.to_data())
    given = msgspec.to_builtins(msgspec.json.decode(data, type=game.state_data_type))
    if exported != given:
        changed = [k for k in given if exported.get(k) != given.get(k)]
        raise AssertionError(f"{description}: accepted, but the state exports differently (fields {changed})")
    try:
        twin_state = twin.load_state(data)
    except cruiselib.InvalidStateError as exc:
        raise AssertionError(f"{description}: accepted by the compiled core, refused by the pure core: {exc}") from None
    try:
        check_state(game, state, random.Random(seed), where=description)
    except Exception as exc:
        raise AssertionError(f"{description}: the accepted state fails check_state: {exc}") from exc
    _play_out(game, state, twin_state, description, stats, seed, max_actions)


def _play_out(
    game: Any, state: Any, twin_state: Any, description: str, stats: TamperStats, seed: int, max_actions: int
) -> None:
    """Play ``state`` (compiled) and ``twin_state`` (pure) to the end with the same random
    choices, comparing them after every action (raises AssertionError with ``description``).

    Each step compares the two snapshots as the bytes of ``to_json`` (``serialize.encode_json``
    of ``to_data()``, which ``to_json`` decodes to text: equal bytes, equal text) and loads the
    compiled core's bytes back (``load_state`` decodes JSON bytes as it decodes JSON text).
    The score bounds are a property of the game's options, the same at every step."""
    encode = serialize.encode_json
    load = game.load_state
    bounds = game.score_bounds
    rnd = random.Random(seed)
    steps = 0
    while True:
        legal = state.legal_actions()
        if twin_state.legal_actions() != legal:
            raise AssertionError(f"{description}: step {steps}: compiled and pure cores offer different moves")
        over = state.is_over
        if over != twin_state.is_over:
            raise AssertionError(f"{description}: step {steps}: the cores disagree on the end")
        if over:
            break
        if not legal:
            raise AssertionError(f"{description}: step {steps}: no legal move but the game is not over")
        a = rnd.choice(legal)
        state.apply(a)
        twin_state.apply(a)
        steps += 1
        snapshot = encode(state.to_data())
        if encode(twin_state.to_data()) != snapshot:
            raise AssertionError(f"{description}: step {steps}: the cores' states differ after action {a}")
        try:
            load(snapshot)
        except cruiselib.InvalidStateError as exc:
            raise AssertionError(f"{description}: step {steps}: a state reached by play does not load: {exc}") from None
        if bounds is not None:
            scores = state.scores()
            if not all(bounds[0] <= v <= bounds[1] for v in scores):
                raise AssertionError(f"{description}: step {steps}: scores {scores} leave {bounds}")
        if steps > max_actions:
            raise AssertionError(f"{description}: no end after {max_actions} actions")
    stats.actions_played += steps
    winners, scores = state.winners(), state.scores()
    if any(scores[w] != max(scores) for w in winners):
        raise AssertionError(f"{description}: winners {winners} do not all have the best score {scores}")
