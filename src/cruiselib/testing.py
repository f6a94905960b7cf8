"""The public conformance suite: :func:`check_game` runs seeded random games and checks, at
every step, the invariants every cruiselib game must keep: the contract between a game's
core and the library (docs/contract.md) and the public API built on it (legal actions,
moves, snapshots, views, tensors, resampling, playouts, history and records), and, once,
what the game declares for the integrations (:func:`check_declarations`).

Use it on your own card sets and options, or on a game you register yourself::

    >>> import cruiselib
    >>> from cruiselib.testing import check_game
    >>> report = check_game(cruiselib.make("sirens"), n_games=3, seed=1)
    >>> report.games
    3
"""

from __future__ import annotations

import itertools
import pickle
import random
from dataclasses import dataclass, field
from typing import Any

import msgspec
import numpy as np

from cruiselib import _core
from cruiselib._api import Game, State
from cruiselib._registry import make
from cruiselib.errors import CruiseError, IllegalMoveError, InvalidOptionError
from cruiselib.integration import declaration_problems, resolve_rule_bot
from cruiselib.records import replay as cruiselib_replay
from cruiselib.serialize import JS_SAFE_INT

__all__ = [
    "CheckReport",
    "ConformanceError",
    "check_bounds",
    "check_declarations",
    "check_game",
    "check_playouts",
    "check_state",
    "resample_varies",
]


class ConformanceError(AssertionError):
    """A game broke one of the invariants :func:`check_game` checks."""


@dataclass
class CheckReport:
    """What :func:`check_game` ran."""

    games: int = 0
    actions: int = 0
    deep_checks: int = 0
    longest_game: int = 0
    finished_by_seat: list[int] = field(default_factory=list)

    @property
    def mean_length(self) -> float:
        return self.actions / self.games if self.games else 0.0


def _fail(game: Game[Any], seed: Any, step: int, msg: str) -> ConformanceError:
    return ConformanceError(f"{game!r}, game seed {seed!r}, step {step}: {msg}")


def _numbers(tree: Any) -> list[int | float]:
    if isinstance(tree, dict):
        return [n for v in tree.values() for n in _numbers(v)]
    if isinstance(tree, list):
        return [n for v in tree for n in _numbers(v)]
    if isinstance(tree, (int, float)) and not isinstance(tree, bool):
        return [tree]
    return []


def check_state(game: Game[Any], state: State, rnd: random.Random, *, where: str = "") -> None:
    """The deep checks of one state: copies, round-trips, illegal input, is_legal over every
    action id, views, tensors (within the game's bounds too), resampling."""
    st: Any = state
    snapshot = st.to_json()

    def unchanged(what: str) -> None:
        if st.to_json() != snapshot:
            raise ConformanceError(f"{where}: {what} changed the state")

    # Clone: equal and independent.
    twin = st.clone()
    if twin != st or twin.to_json() != snapshot:
        raise ConformanceError(f"{where}: clone differs from the original")
    legal = st.legal_actions()
    if legal:
        twin.apply(rnd.choice(legal))
        unchanged("applying an action to a clone")

    # Safe for every JSON reader: JavaScript keeps integers exactly only up to 2**53.
    unsafe = [n for n in _numbers(msgspec.json.decode(snapshot)) if abs(n) > JS_SAFE_INT]
    if unsafe:
        raise ConformanceError(f"{where}: the JSON snapshot has numbers beyond ±2**53: {unsafe[:3]}")

    # Round-trips: JSON text, JSON bytes, MessagePack, mapping, pickle.
    for label, data in (
        ("JSON", snapshot),
        ("JSON bytes", snapshot.encode()),
        ("MessagePack", st.to_msgpack()),
        ("mapping", msgspec.to_builtins(st.to_data())),
    ):
        loaded = game.load_state(data)
        if loaded != st or loaded.to_json() != snapshot:
            raise ConformanceError(f"{where}: {label} round-trip differs")
        if loaded.legal_actions() != legal:
            raise ConformanceError(f"{where}: {label} round-trip changed the legal actions")
    if pickle.loads(pickle.dumps(st)) != st:
        raise ConformanceError(f"{where}: pickle round-trip differs")

    # Illegal input raises IllegalMoveError and leaves the state unchanged.
    legal_set = set(legal)
    probes = [-1, game.num_actions, game.num_actions + 7]
    # Random ids, and the ids at the edges of the action space and of the listed range
    # (where an off-by-one hides or adds an action).
    edges = [0, game.num_actions - 1]
    if legal:
        edges += [legal[0] - 1, legal[-1] + 1]
    for a in [rnd.randrange(game.num_actions) for _ in range(6)] + edges:
        if 0 <= a < game.num_actions and a not in legal_set and a not in probes:
            probes.append(a)
    for a in probes:
        if 0 <= a < game.num_actions and st.is_legal(a):
            raise ConformanceError(f"{where}: is_legal({a}) is True for an action not listed")
        try:
            st.apply(a)
        except IllegalMoveError:
            pass
        else:
            label = f" ({game.action_to_move(a)})" if 0 <= a < game.num_actions else ""
            raise ConformanceError(f"{where}: illegal action {a}{label} was accepted")
        unchanged(f"the rejected action {a}")
    if legal:
        a = legal[0]
        if not st.is_legal(a):
            raise ConformanceError(f"{where}: is_legal({a}) is False for a listed action")
        wrong = [p for p in range(game.num_players) if p != st.current_player]
        for p in wrong[:1]:
            try:
                st.apply(a, player=p)
            except IllegalMoveError:
                pass
            else:
                raise ConformanceError(f"{where}: seat {p} moved out of turn")
            unchanged("a move for the wrong seat")

    # The contract: c_check agrees with c_legal on every action id, not only on samples.
    listed = [a for a in range(game.num_actions) if st.is_legal(a)]
    if listed != legal:
        raise ConformanceError(f"{where}: is_legal over every action id differs from legal_actions()")
    # What apply accepts is what the core's own check accepts: asked through the core
    # class, so a state class that overrides legal_actions, action_mask and is_legal
    # alike cannot hide an action that apply still takes.
    core_is_legal = _core_is_legal(st)
    if getattr(type(st), "is_legal", None) is core_is_legal:  # not overridden: the pass above asked the core
        accepted = listed
    else:
        accepted = [a for a in range(game.num_actions) if core_is_legal(st, a)]
    if accepted != legal:
        hidden = sorted(set(accepted) - legal_set)
        extra = sorted(legal_set - set(accepted))
        named = "; ".join(
            f"{what}: {', '.join(f'{a} ({game.action_to_move(a)})' for a in ids[:3])}"
            for what, ids in (("accepted by apply but not listed", hidden), ("listed but refused by apply", extra))
            if ids
        )
        raise ConformanceError(f"{where}: the core's legality check differs from legal_actions(): {named}")

    # Views, resampling and tensors: a resampled state looks the same to that seat.
    obs_fields = game.observation_fields()  # covers the tensor exactly, or raises
    game.information_state_fields()  # the same for the information state
    if not obs_fields and game.observation_shape[0]:
        raise ConformanceError(f"{where}: the observation tensor has no named fields")
    check_bounds(game, st, where=where)  # within the ranges the game declares
    recall = game.distinct_information_state
    for p in range(game.num_players):
        obs = st.observation(p)
        info = st.information_state(p)
        if obs.dtype != np.float32 or obs.shape != game.observation_shape:
            raise ConformanceError(f"{where}: observation({p}) has dtype {obs.dtype} shape {obs.shape}")
        if info.dtype != np.float32 or info.shape != game.information_state_shape:
            raise ConformanceError(f"{where}: information_state({p}) has dtype {info.dtype} shape {info.shape}")
        buf = np.full(game.observation_shape, np.nan, dtype=np.float32)
        if st.observation(p, out=buf) is not buf or not np.array_equal(buf, obs):
            raise ConformanceError(f"{where}: observation({p}, out=buf) does not fill buf with the observation")
        if not np.isfinite(obs).all() or not np.isfinite(info).all():
            raise ConformanceError(f"{where}: a tensor of seat {p} has NaN or infinite entries")
        if not recall and not np.array_equal(info, obs):
            raise ConformanceError(f"{where}: the information state differs from the observation, undeclared")
        unchanged("observation and information_state")

        view = st.view(p)
        if not isinstance(view, msgspec.Struct):
            raise ConformanceError(f"{where}: view({p}) is not a msgspec Struct")
        msgspec.json.encode(view)
        if st.view(p) != view:
            raise ConformanceError(f"{where}: view({p}) is not deterministic")
        seed = rnd.randrange(2**32)
        other = st.resample(p, seed)
        unchanged(f"resample({p})")
        if other.view(p) != view:
            raise ConformanceError(f"{where}: resample({p}, {seed}) is not consistent with view({p})")
        if other.legal_actions() != legal and other.current_player == p:
            raise ConformanceError(f"{where}: resample({p}) changed seat {p}'s legal actions")
        if game.load_state(other.to_json()) != other:
            raise ConformanceError(f"{where}: resample({p}) gave a state that does not load back")
        if st.resample(p, seed) != other:
            raise ConformanceError(f"{where}: resample({p}, {seed}) is not deterministic")
        # Tensors are functions of what the seat knows: equal for the resampled state.
        if not np.array_equal(other.observation(p), obs):
            raise ConformanceError(f"{where}: observation({p}) differs after resample({p}): it sees hidden cards")
        if recall:
            known = st.view(p, recall=True)
            remembered = st.resample(p, seed, recall=True)
            unchanged(f"resample({p}, recall=True)")
            if remembered.view(p, recall=True) != known or remembered.view(p) != view:
                raise ConformanceError(f"{where}: resample({p}, recall=True) is not consistent with what {p} knows")
            if not np.array_equal(remembered.information_state(p), info):
                raise ConformanceError(f"{where}: information_state({p}) differs after resample({p}, recall=True)")
            if game.load_state(remembered.to_json()) != remembered:
                raise ConformanceError(f"{where}: resample({p}, recall=True) gave a state that does not load back")


def check_bounds(game: Game[Any], state: State, *, where: str = "") -> None:
    """Every seat's observation and information state of ``state`` lie within the game's
    :meth:`~cruiselib.Game.observation_bounds` and
    :meth:`~cruiselib.Game.information_state_bounds` (float32 arrays of the tensor's shape,
    ``low <= high``). Raises :class:`ConformanceError` naming the seat, the field, the
    entry within it, the value and its bounds."""
    st: Any = state
    tensors = (
        ("observation", st.observation, game.observation_shape, game.observation_bounds, game.observation_fields),
        (
            "information_state",
            st.information_state,
            game.information_state_shape,
            game.information_state_bounds,
            game.information_state_fields,
        ),
    )
    for what, tensor, shape, bounds, fields in tensors:
        low, high = bounds()
        if any(b.dtype != np.float32 or b.shape != shape for b in (low, high)) or not (low <= high).all():
            raise ConformanceError(f"{where}: the {what} bounds are not float32 arrays of {shape} with low <= high")
        for p in range(game.num_players):
            values = tensor(p)
            # Written so that NaN counts as outside.
            outside = np.flatnonzero(~((values >= low) & (values <= high)))
            if outside.size:
                i = int(outside[0])
                name, part = next((n, f) for n, f in fields().items() if f.start <= i < f.stop)
                raise ConformanceError(
                    f"{where}: {what}({p})[{i}] = {values[i]!r}, entry {i - part.start} of field {name!r}, "
                    f"lies outside its bounds [{low[i]!r}, {high[i]!r}]"
                )


def resample_varies(state: State, player: int, seed: int, tries: int = 16) -> bool:
    """Whether ``tries`` seeds give more than one resampled deal for ``player``."""
    st: Any = state
    first = st.resample(player, seed)
    return any(st.resample(player, seed + k) != first for k in range(1, tries))


def check_playouts(game: Game[Any], state: State, seed: int, n: int = 3) -> None:
    """The contract's playouts from ``state``: each is a Python loop of the same random
    choices, threads give the results of one thread, and the state is left as it was.

    Playout g starts from the generator state ``mix64(seed_state(seed) + g)`` and takes
    each action as ``random_action(mix64(stream))``, its stream starting at ``mix64(start
    ^ CHOICE_SALT)`` and advanced by the golden ratio constant per action (the constants
    of ``engine.PLAYOUT_STREAM``; docs/contract.md, "Playouts")."""
    from cruiselib import _core

    st: Any = state
    mix64 = _core.load("rng").mix64
    golden, salt = _core.load("engine").PLAYOUT_STREAM
    mask = 2**64 - 1
    before = st.to_json()
    result = st.playouts(n, seed)
    threaded = st.playouts(n, seed, threads=2)
    if st.to_json() != before:
        raise ConformanceError("state.playouts changed the state")
    if not (np.array_equal(result.scores, threaded.scores) and np.array_equal(result.lengths, threaded.lengths)):
        raise ConformanceError("state.playouts on 2 threads differs from one thread")
    base = _core.load("rng").seed_state(seed)
    for g in range(n):
        work = st.clone()
        start = mix64((base + g) & mask)
        work._reseed(start)
        r = mix64(start ^ salt)
        steps = 0
        while not work.is_over:
            r = (r + golden) & mask
            work.apply(work.random_action(mix64(r)))
            steps += 1
        if work.scores() != result.scores[g].tolist() or steps != int(result.lengths[g]):
            raise ConformanceError(f"playout {g} of state.playouts differs from a Python loop of the same choices")


def check_declarations(game: Game[Any]) -> None:
    """The declarations ``game`` makes for the integrations (:mod:`cruiselib.integration`)
    have the shapes the integrations read: ``player_counts`` an ascending tuple of seat
    counts that holds ``game.num_players``; every one of ``example_configurations`` (at
    least one) a mapping of options that ``cruiselib.make(game.name, ...)`` turns into a
    game of this class with a declared seat count; ``rule_bot`` None or
    ``"package.module:Class"`` naming a class with ``choose`` and ``analyse``; ``search``
    a :class:`~cruiselib.integration.SearchDefaults`; ``openspiel`` None or an
    :class:`~cruiselib.integration.OpenSpielSpec`; ``web`` None or a
    :class:`~cruiselib.integration.WebBoard`; ``annotated_moves`` a bool; the schema types
    (``schema_version``, ``state_data_type``, ``view_type``, ``move_classes``) as
    :func:`cruiselib.integration.declaration_problems`, the one check of the shapes, wants them.

    Read through ``game``, so a declaration set on the game object counts. Raises
    :class:`ConformanceError` naming the declaration.
    """
    if not isinstance(game, Game):
        raise InvalidOptionError(f"check_declarations needs a cruiselib game (cruiselib.make(...)), not {game!r}")
    where = f"{game!r}: the declaration"
    problems = declaration_problems(game)
    if problems:
        raise ConformanceError(f"{where} {problems[0]}")
    counts = game.player_counts
    if game.num_players not in counts:
        raise ConformanceError(f"{where} player_counts {counts} leaves out this game's {game.num_players} seats")
    for options in game.example_configurations:
        try:
            made = make(game.name, **options)
        except CruiseError as exc:
            raise ConformanceError(f"{where} example configuration {dict(options)!r} is refused: {exc}") from None
        # The registry's class for this name, or a base of the game's own class.
        if not isinstance(game, type(made)):
            raise ConformanceError(
                f"{where} example configuration {dict(options)!r} makes a {type(made).__name__}, "
                f"not a game of this class ({type(game).__name__})"
            )
        if made.num_players not in counts:
            raise ConformanceError(
                f"{where} example configuration {dict(options)!r} has {made.num_players} seats, "
                f"not one of player_counts {counts}"
            )
    if game.rule_bot is not None:
        try:
            resolve_rule_bot(game)
        except InvalidOptionError as exc:
            raise ConformanceError(f"{where} {exc}") from None


def _check_int(name: str, value: Any, low: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or (low is not None and value < low):
        kind = "an int" if low is None else f"an int >= {low}"
        raise InvalidOptionError(f"check_game: {name} must be {kind}, not {value!r}")
    return int(value)


def _core_is_legal(state: Any) -> Any:
    """The ``is_legal`` of the core class under ``state``'s class (what ``apply`` checks
    with), called unbound so that no override in a Python subclass answers instead."""
    kind: Any = type(state)
    for cls in kind.__mro__:
        if cls.__module__.startswith(f"{_core.__name__}."):
            return cls.is_legal
    raise ConformanceError(f"{type(state).__name__} is not built on a cruiselib core state class")


def check_game(
    game: Game[Any],
    n_games: int = 100,
    seed: int = 0,
    *,
    deep_every: int = 7,
    max_actions: int = 100_000,
) -> CheckReport:
    """Play ``n_games`` seeded random games of ``game`` and check every invariant.

    Cheap checks run at every step: legal actions sorted, unique, in range and equal to
    the mask; the chosen action's typed move maps back to it; scores have one entry per
    seat within the game's bounds. Deep checks (:func:`check_state`) run on
    every ``deep_every``-th step (with every legal move mapped both ways) and on the first
    and last state of every game. Each game
    is replayed from its seed and must end identically. At the end: the final state
    round-trips (JSON, MessagePack, pickle), its winners are seats with the best score and
    there is at least one unless the game has draws (``game.draws_possible``). A new deal
    hides cards from every seat, so resampling it must give different deals for different
    seeds. On the first game, playouts from the new deal must be a Python loop of the same
    random choices and give the same results on two threads (:func:`check_playouts`).
    Deep checks also compare ``is_legal`` on every action id with ``legal_actions()``, and
    so the core's own check (what ``apply`` accepts, asked past any override of
    ``legal_actions``, ``action_mask`` or ``is_legal`` in the state class), and
    check the tensors: float32 of the game's shapes, within the game's bounds
    (:func:`check_bounds`), ``out=`` filled in place, equal for a resampled state (a
    function of what the seat sees; with ``recall=True`` for the information state where
    the game has one). Every game's history is its actions, its
    record replays to its final state and ``undo()`` gives the state before the last action.
    Before the first game, the game's declarations for the integrations are checked
    (:func:`check_declarations`).
    Raises :class:`ConformanceError`; wrong arguments raise :class:`cruiselib.InvalidOptionError`.
    """
    if not isinstance(game, Game):
        raise InvalidOptionError(f"check_game needs a cruiselib game (cruiselib.make(...)), not {game!r}")
    n_games = _check_int("n_games", n_games, 0)
    seed = _check_int("seed", seed, None)
    deep_every = _check_int("deep_every", deep_every, 1)
    max_actions = _check_int("max_actions", max_actions, 1)
    check_declarations(game)
    rnd = random.Random(seed)
    report = CheckReport(finished_by_seat=[0] * game.num_players)
    bounds = game.score_bounds
    for g in range(n_games):
        game_seed = seed * 1_000_003 + g
        state: Any = game.new_state(seed=game_seed)
        if game.new_state(seed=game_seed) != state:
            raise _fail(game, game_seed, 0, "the same seed dealt two different games")
        for p in range(game.num_players):
            if not resample_varies(state, p, rnd.randrange(2**32)):
                raise _fail(game, game_seed, 0, f"resample({p}) of a new deal gives the same deal for 16 seeds")
        if g == 0:
            try:
                check_playouts(game, state, rnd.randrange(2**32))
            except ConformanceError as exc:
                raise _fail(game, game_seed, 0, str(exc)) from None
        actions: list[int] = []
        step = 0
        while True:
            where = f"{game!r}, game seed {game_seed}, step {step}"
            legal = state.legal_actions()
            if state.is_over:
                break
            if not legal:
                raise _fail(game, game_seed, step, "no legal action but the game is not over")
            if any(b <= a for a, b in itertools.pairwise(legal)) or legal[0] < 0 or legal[-1] >= game.num_actions:
                raise _fail(game, game_seed, step, f"legal actions not sorted, unique and in range: {legal}")
            mask = state.action_mask()
            if mask.dtype != np.int8 or mask.shape != (game.num_actions,):
                raise _fail(game, game_seed, step, f"mask has dtype {mask.dtype} shape {mask.shape}")
            # The set bits are exactly the legal ids (counting is cheaper than listing them).
            if np.count_nonzero(mask) != len(legal) or not (mask[legal] == 1).all():
                raise _fail(game, game_seed, step, "mask differs from legal_actions()")
            deep = step == 0 or step % deep_every == 0
            a = rnd.choice(legal)
            # Typed moves: every legal move on deep steps, the chosen one on the others.
            moves = state.legal_moves() if deep else [game.action_to_move(a)]
            for b, m in zip(legal if deep else [a], moves, strict=True):
                if game.move_to_action(m) != b or game.action_to_move(b) != m or not str(m):
                    raise _fail(game, game_seed, step, f"move {m!r} does not map to action {b}")
            if not 0 <= state.current_player < game.num_players:
                raise _fail(game, game_seed, step, f"current_player {state.current_player} out of range")
            scores = state.scores()
            if len(scores) != game.num_players or (
                bounds is not None and not all(bounds[0] <= s <= bounds[1] for s in scores)
            ):
                raise _fail(game, game_seed, step, f"scores {scores} out of bounds {bounds}")
            if deep:
                check_state(game, state, rnd, where=where)
                report.deep_checks += 1
            state.apply(a)
            actions.append(a)
            step += 1
            if step > max_actions:
                raise _fail(game, game_seed, step, f"no end after {max_actions} actions")
        # The end: no moves, a -1 seat, winners among the seats, scores in bounds.
        if state.current_player != -1 or state.legal_actions() or state.action_mask().any():
            raise _fail(game, game_seed, step, "a finished game still offers moves")
        winners = state.winners()
        if not all(0 <= w < game.num_players for w in winners):
            raise _fail(game, game_seed, step, f"winners {winners} are not seats")
        final_scores = state.scores()
        if any(final_scores[w] != max(final_scores) for w in winners):
            raise _fail(game, game_seed, step, f"winners {winners} do not all have the best score: {final_scores}")
        if not winners and not game.draws_possible:
            raise _fail(game, game_seed, step, "the game ended without a winner, and it has no draws")
        if len(set(winners)) != len(winners) or list(winners) != sorted(winners):
            raise _fail(game, game_seed, step, f"winners {winners} are not sorted distinct seats")
        for w in winners:
            report.finished_by_seat[w] += 1
        try:
            state.apply(0)
        except IllegalMoveError:
            pass
        else:
            raise _fail(game, game_seed, step, "a finished game accepted an action")
        check_state(game, state, rnd, where=f"{game!r}, game seed {game_seed}, final state")
        report.deep_checks += 1
        # Same seed and same actions => same game; the history, the record and undo agree.
        replay: Any = game.new_state(seed=game_seed)
        for a in actions[:-1]:
            replay.apply(a)
        before_last = replay.clone()
        if actions:
            replay.apply(actions[-1])
        if replay != state:
            raise _fail(game, game_seed, step, "replaying the same actions from the same seed differs")
        if state.history != actions:
            raise _fail(game, game_seed, step, "state.history is not the actions applied")
        if cruiselib_replay(state.record().to_json()) != state:
            raise _fail(game, game_seed, step, "the game's record does not replay to its final state")
        if actions:
            undone = state.clone()
            if undone.undo() != actions[-1] or undone != before_last or undone.history != actions[:-1]:
                raise _fail(game, game_seed, step, "undo() of the last action does not give the state before it")
        report.games += 1
        report.actions += step
        report.longest_game = max(report.longest_game, step)
    return report
