"""What to play: the spec Structs (:class:`BotSpec`, :class:`Tournament`, :class:`Study`) and
:func:`expand`, which turns a spec into deterministic :class:`Job` shards.

A spec is plain data, so it loads from a JSON file or a dict (:func:`load_spec`)::

    >>> spec = load_spec({"kind": "study", "game": "sirens", "grid": {"variant": ["standard", "bow_to_rear"]}})
    >>> [(job.options, job.games) for job in expand(spec)]
    [({'variant': 'standard'}, 10000), ({'variant': 'bow_to_rear'}, 10000)]

Deals. Every game is dealt from a 64-bit generator state (``deal_seed``): game ``g`` of a
cell is dealt from ``mix64(base + g)``, where ``base`` derives from the spec seed alone (and
from the cell for an unpaired study). That is the deal ``game.playouts(n, seed)`` gives its
game ``g``, so a bot game and an in-core random game of the same ``g`` share a deal, and
no sharding or worker count changes a row.

Tournaments. A pairing of two participants is played on ``games`` deals; with ``mirror``
(the default) each deal is played under every rotation of the seating, so each bot sits each
seat on the same deal. At more than two seats the seating is the pair plus ``filler`` bots
(the pair side by side, rotated together): the pair is what is measured, the filler is the
same for every pairing. A filler with a participant's label is labelled ``filler:<label>``.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import msgspec

import cruiselib
from cruiselib._core.rng import SPLITMIX64
from cruiselib._core.rng import mix64 as _core_mix64
from cruiselib._registry import game_class
from cruiselib.errors import CruiseError, InvalidOptionError

__all__ = [
    "BOT_CHECK_TIME_LIMIT",
    "DEFAULT_BOT_SHARD",
    "DEFAULT_PLAYOUT_SHARD",
    "BotSpec",
    "Job",
    "Spec",
    "Study",
    "Tournament",
    "cell_base",
    "deal_seed",
    "dump_spec",
    "expand",
    "load_spec",
]

GOLDEN, MIX1, MIX2, MASK64 = SPLITMIX64  # the generator's constants have one home: _core/rng.py
DEFAULT_BOT_SHARD = 16
"""Deals per job for bot games (each deal played once per rotation)."""
DEFAULT_PLAYOUT_SHARD = 100_000
"""Games per job for in-core random games."""


class BotSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A bot: a name of :data:`cruiselib.bots.BOTS` or an import path ``"module:attr"`` (a
    callable taking ``seed=`` and the options and returning a bot), its options, and the
    label it goes by in the results (default: the name, with the options if any)."""

    name: str
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    label: str | None = None

    @property
    def display(self) -> str:
        """The label of this bot in rows and summaries."""
        if self.label is not None:
            return self.label
        if not self.options:
            return self.name
        return f"{self.name}({json.dumps(self.options, sort_keys=True, separators=(',', ':'))})"


class Tournament(msgspec.Struct, frozen=True, tag="tournament", tag_field="kind", forbid_unknown_fields=True):
    """Bots against each other.

    ``mode``: ``round_robin`` (every pair), ``gauntlet`` (the first participant against each
    other one) or ``ab`` (exactly two participants). ``games``: games per pairing; with
    ``mirror`` it must be a multiple of ``players`` (each deal is played once per rotation).
    ``players``: the seat count (default: the game's smallest count of at least two).
    """

    game: str
    participants: tuple[BotSpec, ...]
    mode: Literal["round_robin", "gauntlet", "ab"] = "round_robin"
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    players: int | None = None
    games: int = 100
    seed: int = 0
    mirror: bool = True
    filler: BotSpec = BotSpec("random")
    shard: int = DEFAULT_BOT_SHARD
    name: str = "tournament"


class Study(msgspec.Struct, frozen=True, tag="study", tag_field="kind", forbid_unknown_fields=True):
    """A balance study: every cell of ``grid`` (option name -> values) times ``players``.

    ``bots``: empty (the default) plays uniformly random games in the compiled core
    (``game.playouts``); one bot plays every seat; else one bot per seat (the list as long
    as every player count). ``paired``: every cell uses the same deals (variants compared on
    the same deals); else each cell its own. ``players``: default every count of the game.
    """

    game: str
    grid: dict[str, list[Any]] = msgspec.field(default_factory=dict)
    players: tuple[int, ...] = ()
    bots: tuple[BotSpec, ...] = ()
    games: int = 10_000
    seed: int = 0
    paired: bool = True
    shard: int = 0
    """Games per job (0: 100,000 for in-core games, 16 for bot games)."""
    name: str = "study"


Spec = Tournament | Study


class Job(msgspec.Struct, frozen=True):
    """A shard of games with everything a worker needs.

    Deal ``g`` for ``g`` in ``range(first, first + deals)`` is dealt from
    ``deal_seed(base, g)``; bot games play it under each of ``seatings`` (``rotations``
    names which rotation index each seating is, recorded as the row's ``mirror``); an empty
    ``seatings`` means in-core random games.
    """

    index: int
    study: str
    game: str
    options: dict[str, Any]
    players: int
    cell: int
    base: int
    first: int
    deals: int
    seatings: tuple[tuple[BotSpec, ...], ...] = ()
    rotations: tuple[int, ...] = ()
    per_deal: bool = True
    """True: every deal is played under every seating; False: deal g under seating g % len."""

    @property
    def id(self) -> str:
        """The job's file stem: its index, zero-padded so files sort in job order."""
        return f"{self.index:06d}"

    @property
    def options_json(self) -> str:
        return json.dumps(self.options, sort_keys=True, separators=(",", ":"))

    @property
    def games(self) -> int:
        """How many games (rows) the job plays."""
        if self.seatings and self.per_deal:
            return self.deals * len(self.seatings)
        return self.deals


# --------------------------------------------------------------------------- deals


def mix64(z: int) -> int:
    """splitmix64's output function (the core's ``rng.mix64``), a bijection on 64 bits."""
    return int(_core_mix64(z & MASK64))


def cell_base(seed: int, cell: int | None) -> int:
    """The generator state deal 0 of a cell is mixed from: the spec seed's (as
    ``game.playouts(n, seed)`` takes it) for shared deals, else one mixed per cell."""
    from cruiselib._core import load

    base = int(load("rng").seed_state(seed))
    if cell is None:
        return base
    return mix64((base + (cell + 1) * GOLDEN) & MASK64)


def deal_seed(base: int, g: int) -> int:
    """The generator state that deals game ``g`` from ``base`` (``game.state_from_seed_state``)."""
    return mix64((base + g) & MASK64)


# --------------------------------------------------------------------------- loading


def load_spec(source: Mapping[str, Any] | str | Path | Spec) -> Spec:
    """A spec from a dict, a JSON text, or a path to a JSON file (``kind``: ``tournament``
    or ``study``). InvalidOptionError names what is wrong."""
    if isinstance(source, (Tournament, Study)):
        return source
    try:
        if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")):
            spec: Spec = msgspec.json.decode(Path(source).read_bytes(), type=Spec)
        elif isinstance(source, str):
            spec = msgspec.json.decode(source, type=Spec)
        else:
            spec = msgspec.convert(dict(source), type=Spec)
    except OSError as exc:
        raise InvalidOptionError(f"cannot read the spec file {source}: {exc.strerror}") from None
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise InvalidOptionError(f"bad spec: {exc}") from None
    return spec


def dump_spec(spec: Spec) -> bytes:
    """The spec as canonical JSON (sorted keys): equal specs give equal bytes."""
    return msgspec.json.format(msgspec.json.encode(msgspec.to_builtins(spec, order="sorted")), indent=2)


# --------------------------------------------------------------------------- checks


def _check_count(value: object, what: str, low: int = 1) -> int:
    if type(value) is not int or value < low:
        raise InvalidOptionError(f"{what} must be an int of at least {low}, not {value!r}")
    return value


def _make_options(game: str, options: Mapping[str, Any], players: int) -> dict[str, Any]:
    """``make`` options for ``players`` seats (a game of one seat count takes no ``players``);
    made once here so a bad option fails before any job runs."""
    counts = game_class(game).player_counts
    if "players" in options:
        raise InvalidOptionError("give the seat count as the spec's players, not as a game option")
    full = dict(options)
    if len(counts) > 1:
        full["players"] = players
    elif players != counts[0]:
        raise InvalidOptionError(f"{game} is a game for {counts[0]} players, not {players!r}")
    try:
        cruiselib.make(game, **full)
    except CruiseError:
        raise
    except (TypeError, ValueError) as exc:
        raise InvalidOptionError(f"bad options for {game}: {exc}") from None
    return full


def _check_game(game: object) -> str:
    """``game`` if it names a registered game (whose class the registry checked when it was
    registered), else the registry's InvalidOptionError."""
    if not isinstance(game, str):
        raise InvalidOptionError(
            f"unknown game {game!r}: a game is named by a str; games: {', '.join(cruiselib.games())}"
        )
    game_class(game)  # the registry's own error for a name it does not hold
    return game


BOT_CHECK_TIME_LIMIT = 60.0
"""Seconds that making a ``module:attr`` bot once, as a spec is expanded, may take (importing
its module and calling its factory) before the spec is refused."""


def _check_bot(bot: BotSpec) -> None:
    """Make the bot once, so an unknown name or option fails before any job runs. A
    ``module:attr`` bot is made on a thread of its own, given :data:`BOT_CHECK_TIME_LIMIT`
    seconds: a module that hangs at import is refused, not waited for (the thread is left to
    its hang)."""
    from .play import make_player

    if ":" not in bot.name:
        make_player(bot, seed=0)
        return
    outcome: list[BaseException | None] = []

    def make() -> None:
        try:
            make_player(bot, seed=0)
        except BaseException as error:  # given to the caller's thread
            outcome.append(error)
        else:
            outcome.append(None)

    thread = threading.Thread(target=make, name=f"cruiselib-make-{bot.name}", daemon=True)
    thread.start()
    thread.join(BOT_CHECK_TIME_LIMIT)
    if not outcome:
        raise InvalidOptionError(
            f"the bot {bot.name!r} was not made within {BOT_CHECK_TIME_LIMIT:g} s "
            "(importing its module and calling its factory with seed=0): does its module hang at import?"
        )
    if outcome[0] is not None:
        raise outcome[0]


# --------------------------------------------------------------------------- expand


def expand(spec: Spec) -> list[Job]:
    """The jobs of a spec, in a fixed order (job ``index`` 0, 1, ...): the same spec always
    gives the same jobs. InvalidOptionError for a spec that cannot run."""
    spec = load_spec(spec)
    if isinstance(spec, Tournament):
        return _expand_tournament(spec)
    return _expand_study(spec)


def _pairings(spec: Tournament) -> list[tuple[BotSpec, BotSpec]]:
    people = spec.participants
    if spec.mode == "ab":
        if len(people) != 2:
            raise InvalidOptionError(f"an ab tournament takes exactly two participants, not {len(people)}")
        return [(people[0], people[1])]
    if len(people) < 2:
        raise InvalidOptionError(f"a {spec.mode} tournament needs at least two participants")
    if spec.mode == "gauntlet":
        return [(people[0], other) for other in people[1:]]
    return list(itertools.combinations(people, 2))


def _expand_tournament(spec: Tournament) -> list[Job]:
    game = _check_game(spec.game)
    counts = game_class(game).player_counts
    players = spec.players
    if players is None:
        players = next((n for n in counts if n >= 2), counts[-1])
    _check_count(players, "players", 2)
    options = _make_options(game, spec.options, players)
    games = _check_count(spec.games, "games per pairing")
    shard = _check_count(spec.shard, "shard")
    labels = [bot.display for bot in spec.participants]
    if len(set(labels)) != len(labels):
        raise InvalidOptionError(f"participants need distinct labels, not {labels}")
    filler = spec.filler
    if filler.display in labels:  # the filler's seats must not count as the participant's
        filler = msgspec.structs.replace(filler, label=f"filler:{filler.display}")
    for bot in (*spec.participants, spec.filler):
        _check_bot(bot)
    if spec.mirror and games % players:
        raise InvalidOptionError(
            f"with mirror, games per pairing ({games}) must be a multiple of players ({players}): "
            "each deal is played once per rotation"
        )
    deals = games // players if spec.mirror else games
    base = cell_base(spec.seed, None)
    jobs: list[Job] = []
    for pairing, (a, b) in enumerate(_pairings(spec)):
        seating = (a, b, *([filler] * (players - 2)))
        rotations = tuple(range(players))
        seatings = tuple(seating[-r:] + seating[:-r] if r else seating for r in rotations)
        for first in range(0, deals, shard):
            jobs.append(
                Job(
                    index=len(jobs),
                    study=spec.name,
                    game=game,
                    options=options,
                    players=players,
                    cell=pairing,
                    base=base,
                    first=first,
                    deals=min(shard, deals - first),
                    seatings=seatings,
                    rotations=rotations,
                    per_deal=spec.mirror,
                )
            )
    return jobs


def _expand_study(spec: Study) -> list[Job]:
    game = _check_game(spec.game)
    counts = game_class(game).player_counts
    players_list = tuple(spec.players) or counts
    for players in players_list:
        if players not in counts:
            raise InvalidOptionError(f"{game} takes {', '.join(map(str, counts))} players, not {players!r}")
    games = _check_count(spec.games, "games per cell")
    for key, values in spec.grid.items():
        if not values:
            raise InvalidOptionError(f"the grid's {key!r} has no values")
    for bot in spec.bots:
        _check_bot(bot)
    if len(spec.bots) > 1 and any(n != len(spec.bots) for n in players_list):
        raise InvalidOptionError(f"{len(spec.bots)} bots, one per seat, need players {len(spec.bots)} only")
    shard = spec.shard or (DEFAULT_BOT_SHARD if spec.bots else DEFAULT_PLAYOUT_SHARD)
    _check_count(shard, "shard")
    keys = list(spec.grid)
    jobs: list[Job] = []
    cell = 0
    for players in players_list:
        for combo in itertools.product(*(spec.grid[k] for k in keys)):
            options = _make_options(game, dict(zip(keys, combo, strict=True)), players)
            base = cell_base(spec.seed, None if spec.paired else cell)
            seatings: tuple[tuple[BotSpec, ...], ...] = ()
            if spec.bots:
                seatings = (tuple(spec.bots) if len(spec.bots) > 1 else (spec.bots[0],) * players,)
            for first in range(0, games, shard):
                jobs.append(
                    Job(
                        index=len(jobs),
                        study=spec.name,
                        game=game,
                        options=options,
                        players=players,
                        cell=cell,
                        base=base,
                        first=first,
                        deals=min(shard, games - first),
                        seatings=seatings,
                        rotations=(0,) if seatings else (),
                    )
                )
            cell += 1
    return jobs
