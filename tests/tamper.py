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
:func:`check_tampered` is the verdict. ``tests/test_tamper.py`` runs a short campaign for
every game and both sweeps over a few positions; ``scripts/tamper_fuzz.py`` runs a long
campaign with a time budget.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec
from hypothesis import strategies as st

import cruiselib
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


def nudges(tree: dict[str, Any], steps: tuple[int, ...] = (-2, -1, 1, 2)) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every integer of ``tree`` moved by each of ``steps``, one at a time (not the header, nor
    the record of play, which the loader checks against the rules' action ids only).

    The random campaign draws from every kind of change; a count one or two off what play
    made is the change a loader's arithmetic is most likely to let through, so this tries
    all of them, in order."""
    for path, value in leaves(tree):
        if not path or path[0] in ("game", "schema_version", "history", "deal"):
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            continue
        where = "/".join(map(str, path))
        for step in steps:
            yield f"{where}: {value} -> {value + step}", _replace(tree, path, value + step)


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
    values = sorted({m - d for m in maxima for d in range(4) if m - d > 8})
    for path, value in leaves(tree):
        if not path or path[0] in ("game", "schema_version", "history", "deal"):
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            continue
        where = "/".join(map(str, path))
        for new in values:
            if new != value:
                yield f"{where}: {value} -> {new}", _replace(tree, path, new)


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
    stats = stats if stats is not None else TamperStats()
    stats.tried += 1
    data = msgspec.json.encode(tree)
    try:
        state = game.load_state(data)
    except cruiselib.InvalidStateError as exc:
        stats.add_refusal(str(exc))
        # The same verdict from MessagePack and from the pure core: one validation.
        for loader, other_data, what in (
            (game, msgspec.msgpack.encode(tree), "MessagePack"),
            (twin, data, "the pure core"),
        ):
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
    rnd = random.Random(seed)
    steps = 0
    while True:
        legal = state.legal_actions()
        if twin_state.legal_actions() != legal:
            raise AssertionError(f"{description}: step {steps}: compiled and pure cores offer different moves")
        if state.is_over != twin_state.is_over:
            raise AssertionError(f"{description}: step {steps}: the cores disagree on the end")
        if state.is_over:
            break
        if not legal:
            raise AssertionError(f"{description}: step {steps}: no legal move but the game is not over")
        a = rnd.choice(legal)
        state.apply(a)
        twin_state.apply(a)
        steps += 1
        snapshot = state.to_json()
        if twin_state.to_json() != snapshot:
            raise AssertionError(f"{description}: step {steps}: the cores' states differ after action {a}")
        try:
            game.load_state(snapshot)
        except cruiselib.InvalidStateError as exc:
            raise AssertionError(f"{description}: step {steps}: a state reached by play does not load: {exc}") from None
        bounds = game.score_bounds
        if bounds is not None and not all(bounds[0] <= v <= bounds[1] for v in state.scores()):
            raise AssertionError(f"{description}: step {steps}: scores {state.scores()} leave {bounds}")
        if steps > max_actions:
            raise AssertionError(f"{description}: no end after {max_actions} actions")
    stats.actions_played += steps
    winners, scores = state.winners(), state.scores()
    if any(scores[w] != max(scores) for w in winners):
        raise AssertionError(f"{description}: winners {winners} do not all have the best score {scores}")
