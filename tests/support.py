"""Checks shared by every game's tests: bad input leaves a state unchanged, and whatever a
decoder accepts is a state that can be played on."""

from __future__ import annotations

import functools
import random
import tracemalloc
import typing
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

import cruiselib
from cruiselib import _core
from cruiselib._registry import game_class

# The playouts' random-choice stream, as engine.py defines it (CoreState.c_playouts and
# _play_out): game g's stream starts at mix64(deal ^ CHOICE_SALT) and steps by GOLDEN.
GOLDEN, CHOICE_SALT = _core.load("engine").PLAYOUT_STREAM
MASK64 = 0xFFFFFFFFFFFFFFFF
mix64 = _core.load("rng").mix64


def unchanged_after(state: Any, call: Callable[[], Any], error: type[Exception], match: str) -> None:
    """``call()`` raises ``error`` matching ``match``, and ``state`` is exactly as it was."""
    before = state.to_json()
    with pytest.raises(error, match=match):
        call()
    assert state.to_json() == before


def load_and_play(game: Any, data: Any, state_class: type[Any]) -> None:
    """Load ``data``; if it loads, it is a ``state_class`` that plays 30 random moves and
    reloads after each (so the compiled core never sees an inconsistent position)."""
    try:
        state = game.load_state(data)
    except cruiselib.InvalidStateError:
        return
    assert isinstance(state, state_class)
    rnd = random.Random(0)
    for _ in range(30):
        if state.is_over:
            break
        legal = state.legal_actions()
        assert legal, "a loaded state that is not over must offer a move"
        state.apply(rnd.choice(legal))
        game.load_state(state.to_json())


def position_of(
    snapshot: dict[str, Any], seed: int | str, actions: list[int], start_player: int = -1
) -> dict[str, Any]:
    """A played game's snapshot without its record, after checking the record: the deal of
    ``new_state(seed)`` and the actions applied since."""
    position = dict(snapshot)
    deal, history = position.pop("deal"), position.pop("history")
    rng = cruiselib._core.load("rng").seed_state(seed)
    assert deal == {"rng": f"{rng:016x}", "start_player": start_player}
    assert history == actions
    return position


def replay_playout(state: Any, deal: int) -> tuple[list[int], int, list[int]]:
    """Play ``state`` out as a playout whose game was dealt (or reseeded) from ``deal``
    does: the same random value per step, through the public API. Scores, length, winners."""
    r = mix64(deal ^ CHOICE_SALT)
    steps = 0
    while not state.is_over:
        r = (r + GOLDEN) & MASK64
        action = state.random_action(mix64(r))
        assert state.is_legal(action)
        state.apply(action)
        steps += 1
    return state.scores(), steps, state.winners()


def assert_playout_row(result: Any, g: int, replayed: tuple[list[int], int, list[int]], players: int) -> None:
    """Row ``g`` of a ``Playouts`` is the replayed game (scores, length, wins)."""
    scores, steps, winners = replayed
    assert result.scores[g].tolist() == scores
    assert int(result.lengths[g]) == steps
    assert result.wins[g].tolist() == [1 if p in winners else 0 for p in range(players)]


def positions(
    game: Any, games: int, seed: int, every: int = 1, choose: Callable[[Any, random.Random, int], int] | None = None
) -> list[Any]:
    """Positions reached by play (the start, and every ``every``-th decision) in ``games``
    seeded games: uniformly random moves, or ``choose(state, rnd, g)`` in game ``g``."""
    rnd = random.Random(seed)
    out = []
    for g in range(games):
        state = game.new_state(seed=seed * 1000 + g)
        step = 0
        while not state.is_over:
            if step % every == 0:
                out.append(state.clone())
            state.apply(rnd.choice(state.legal_actions()) if choose is None else choose(state, rnd, g))
            step += 1
    return out


# Random values whose low three bits are not 0: a rollout policy's own choice, not its
# random one (the cores' policies take a uniformly random move when those bits are 0).
POLICY_DRAWS = [mix64(k) | 1 for k in range(6)]


def _by_policy_or_at_random(state: Any, rnd: random.Random, g: int) -> int:
    r = rnd.getrandbits(64)
    return int(state.rollout_action(r)) if g % 2 == 0 else rnd.choice(state.legal_actions())


def rollout_positions(game: Any, games: int, seed: int) -> list[Any]:
    """Every position of ``games`` games played by the rollout policy itself (half of them)
    and by uniformly random moves (the other half): the positions rollouts reach and the
    ones a search's tree reaches."""
    return positions(game, games, seed, choose=_by_policy_or_at_random)


def finished_game(game: Any, seed: int) -> Any:
    """A game played to its end by uniformly random moves, the deal and the moves both
    seeded by ``seed`` (the last position of ``random_game(game, seed)``)."""
    rnd = random.Random(seed)
    state = game.new_state(seed=seed)
    while not state.is_over:
        state.apply(rnd.choice(state.legal_actions()))
    return state


def random_game(game: Any, seed: int, every: int = 1) -> list[Any]:
    """Copies of every ``every``-th position of one game of uniformly random moves, its end
    included: the deal and the moves both seeded by ``seed``."""
    rnd = random.Random(seed)
    state = game.new_state(seed=seed)
    out = []
    step = 0
    while not state.is_over:
        if step % every == 0:
            out.append(state.clone())
        state.apply(rnd.choice(state.legal_actions()))
        step += 1
    out.append(state)
    return out


def plays_on_alike(
    first: Any, second: Any, seed: int, *, same: Callable[[Any], Any] | None = None, moves: int | None = None
) -> None:
    """The same seeded random moves take ``first`` and ``second`` (both changed) through the
    same legal moves and the same positions (``same`` of each, by default the snapshot
    without its history) to the same end, or through ``moves`` moves."""
    same = same or (lambda state: state._to_data())
    rnd = random.Random(seed)
    played = 0
    while not first.is_over and (moves is None or played < moves):
        legal = first.legal_actions()
        assert second.legal_actions() == legal, f"move {played}: the legal moves differ"
        action = rnd.choice(legal)
        first.apply(action)
        second.apply(action)
        played += 1
        assert same(first) == same(second), f"move {played} ({action}): the positions differ"
    assert first.is_over == second.is_over
    assert first.scores() == second.scores() and first.winners() == second.winners()


def checked_compact(game: Any, state: Any, player: int | None) -> str:
    """``game.render(state, player, compact=True)``, checked against the bounds every game
    keeps (``Game.COMPACT_ROWS`` lines of ``Game.COMPACT_COLUMNS``), without trailing
    spaces, in printable ASCII (every character one terminal column)."""
    text: str = game.render(state, player, compact=True)
    lines = text.split("\n")
    assert len(lines) <= game.COMPACT_ROWS, text
    for line in lines:
        assert len(line) <= game.COMPACT_COLUMNS, text
        assert line.isascii() and line.isprintable(), line
        assert line == line.rstrip(), line
    return text


def allocation_peak(call: Callable[[], Any], calls: int = 50, tries: int = 3) -> tuple[int, int]:
    """What ``calls`` calls of ``call`` allocate, traced by tracemalloc, beyond what was held
    before: (still held after them, the most held at once). The least over ``tries`` runs:
    tracemalloc also counts what other threads (the test runner's) allocate meanwhile, while
    an allocation of the call itself shows in every run."""
    call()  # caches filled before the count
    held, peak = -1, -1
    tracemalloc.start()
    try:
        for _ in range(tries):
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
            for _ in range(calls):
                call()
            current, most = tracemalloc.get_traced_memory()
            held = current - base if held < 0 else min(held, current - base)
            peak = most - base if peak < 0 else min(peak, most - base)
    finally:
        tracemalloc.stop()
    return held, peak


def player_counts(name: str) -> tuple[int, ...]:
    """The seat counts game ``name`` takes, as the game declares them (``Game.player_counts``:
    what ``make(players=...)`` accepts; tests/test_api.py checks the two agree)."""
    return game_class(name).player_counts


def configuration_id(name: str, options: Mapping[str, Any]) -> str:
    """A readable pytest id of a configuration: ``atlantic_star-players=3``, ``sirens-default``
    (a component set by its name)."""
    shown = [f"{key}={getattr(value, 'name', value)}" for key, value in options.items()]
    return "-".join([name, *shown]) if shown else f"{name}-default"


def example_configurations() -> list[tuple[str, dict[str, Any]]]:
    """Every registered game's example configurations (``Game.example_configurations``,
    which together reach every rule path worth testing): (name, options)."""
    return [(name, dict(options)) for name in cruiselib.games() for options in game_class(name).example_configurations]


def seat_configurations() -> list[tuple[str, dict[str, Any]]]:
    """Every registered game at every seat count it takes: (name, options)."""
    return [
        (name, {"players": n} if len(player_counts(name)) > 1 else {})
        for name in cruiselib.games()
        for n in player_counts(name)
    ]


def every_configuration() -> list[tuple[str, dict[str, Any]]]:
    """The example configurations, and each seat count none of them seats (with the game's
    other options at their defaults): (name, options)."""
    out = example_configurations()
    for name, options in seat_configurations():
        seated = {cruiselib.make(n, **o).num_players for n, o in out if n == name}
        if cruiselib.make(name, **options).num_players not in seated:
            out.append((name, options))
    return out


def other_configurations() -> list[tuple[str, dict[str, Any]]]:
    """Every configuration of :func:`every_configuration` that is not its game's default
    (what a cache of game configurations counts): (name, options)."""
    return [
        (name, options)
        for name, options in every_configuration()
        if cruiselib.make(name, **options) != cruiselib.make(name)
    ]


def one_per_game() -> list[tuple[str, dict[str, Any]]]:
    """One example configuration of every registered game, from the middle of its list (a
    middling seat count where the list goes by seats): (name, options)."""
    out = []
    for name in cruiselib.games():
        examples = game_class(name).example_configurations
        out.append((name, dict(examples[(len(examples) - 1) // 2])))
    return out


@functools.cache
def has_rollout_policy(name: str) -> bool:
    """Whether game ``name``'s core has a rollout policy of its own: its core state class
    overrides the engine's ``c_rollout_action`` (a uniformly random legal action). Read from
    the core's Python source, which the compiled core is built from, so what the tests
    expect does not come from the behaviour they check."""
    state_class = type(cruiselib.make(name).pure_twin().new_state(0))
    owner = next(cls for cls in state_class.__mro__ if "c_rollout_action" in vars(cls))
    return owner is not _core.pure_module("engine").CoreState


def component_options() -> list[tuple[str, str, type]]:
    """Every registered game's options that take a component set (cards, ships) read from a
    file: (game, option, the component class). Asked of the games' ``__init__`` signatures:
    an option whose type admits a class with ``standard()`` and ``from_file(path)``."""
    out = []
    for name in cruiselib.games():
        for option, hint in typing.get_type_hints(game_class(name).__init__).items():
            for member in typing.get_args(hint):
                if isinstance(member, type) and hasattr(member, "standard") and hasattr(member, "from_file"):
                    out.append((name, option, member))
    return out


CONFIGURATIONS: list[tuple[str, dict[str, Any]]] = example_configurations()
"""Every registered game's example configurations: what a suite covering every game plays."""
CONFIGURATION_IDS: list[str] = [configuration_id(name, options) for name, options in CONFIGURATIONS]

ANY_GAME: str = cruiselib.games()[0]
"""A registered game, for tests that need one whatever its rules."""


def unbounded_game() -> tuple[str, dict[str, Any]]:
    """A two-seat configuration of a game that plays on for as long as asked (its OpenSpiel
    declaration names an option without which the game has no length bound, ``unbounded``):
    (name, options)."""
    for name in cruiselib.games():
        spec = game_class(name).openspiel
        if spec is not None and spec.unbounded and 2 in player_counts(name):
            return name, {"players": 2}
    raise LookupError("no registered game declares an unbounded length")


def legal_moves_of_kind(positions: list[Any], kind: type, most: int) -> Iterator[tuple[Any, int, Any]]:
    """Up to ``most`` (state, action, move) of the legal moves of class ``kind`` in
    ``positions``, position by position."""
    found = 0
    for state in positions:
        for action in state.legal_actions():
            move = state.game.action_to_move(action)
            if isinstance(move, kind):
                yield state, action, move
                found += 1
                if found == most:
                    return
