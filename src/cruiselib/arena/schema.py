"""The shape of ``summary.json``, typed: :data:`Summary` is a tournament's or a study's
summary as msgspec structs, tagged by ``kind``. :func:`read_summary` reads one (a file, its
bytes or the dict :func:`~cruiselib.arena.summary.summarize` returns) into those structs,
checking every field (each struct knows all its fields and refuses others), and
:func:`summary_schema` gives its JSON Schema, published as ``docs/summary.schema.json``.

The runner writes the summary as the dict :mod:`cruiselib.arena.summary` builds; every summary
it writes reads back as a :data:`Summary` (the test suite checks both kinds, and that the
published schema is this module's).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import msgspec

from cruiselib.errors import InvalidStateError

__all__ = [
    "Cell",
    "Distribution",
    "Finding",
    "Headline",
    "Matrix",
    "Rate",
    "Ratings",
    "StudySummary",
    "Summary",
    "TournamentSummary",
    "Variant",
    "Who",
    "read_summary",
    "summary_schema",
]


class Rate(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A win share: ``wins`` of ``games`` (a shared win counts 1/k), ``share`` (None without
    games), its 95% Wilson interval ``low``..``high`` and the ``fair`` share ``1/players``.
    Named by ``seat`` (seats and start players) or ``label`` (a tournament's bots)."""

    games: int
    wins: float
    share: float | None
    low: float
    high: float
    fair: float
    seat: int | None = None
    label: str | None = None


class Distribution(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Mean, standard deviation, minimum, 10th percentile, median, 90th percentile and
    maximum (all None without values)."""

    mean: float | None
    std: float | None
    min: float | None
    p10: float | None
    median: float | None
    p90: float | None
    max: float | None


class Cell(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One configuration: its options and player count, win shares by seat and by start
    player, game lengths; a study's cells also their number, draws and scores by seat."""

    name: str
    options: dict[str, Any]
    players: int
    games: int
    seats: list[Rate]
    start_players: list[Rate]
    length: Distribution
    cell: int | None = None
    draws: float | None = None
    scores: list[Distribution] | None = None


class Variant(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A study cell against the first cell of its player count, on the same deals: the mean
    of ``metric`` (cell minus baseline) with its 95% interval."""

    name: str
    baseline: str
    metric: str
    difference: float
    low: float
    high: float
    games: int


class Matrix(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``share[i][j]``: bot i's win share in its games with bot j (None where they never met)."""

    labels: list[str]
    share: list[list[float | None]]
    games: list[list[int]]


class Ratings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Ratings with 95% intervals, by ``method`` (Bradley-Terry on the Elo scale, or
    openskill's Plackett-Luce)."""

    method: str
    names: list[str]
    values: list[float]
    low: list[float]
    high: list[float]


class Who(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Who played: the bots by player count (a study) or the participants, mode and filler (a
    tournament), the seed, the library version and the command (None from Python)."""

    game: str
    kind: str
    seed: int
    version: str
    command: str | None
    random_players: bool
    seats: dict[str, list[str]] | None = None
    participants: list[str] | None = None
    mode: str | None = None
    filler: str | None = None


class Finding(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One answer of the headline: a ``subject`` ("start player", "seat 0", "bot rules", or
    a variant's metric against its baseline), its distance from fair (or change) in
    percentage points with the 95% interval, and the ``verdict`` that interval allows."""

    subject: str
    cell: str | None
    difference_pp: float
    low_pp: float
    high_pp: float
    games: int
    verdict: str
    share: float | None = None
    fair: float | None = None
    seat: int | None = None
    paired: bool = False


class Headline(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the command prints first: who played, the findings, and the same as lines."""

    who: Who
    findings: list[Finding]
    lines: list[str]


class TournamentSummary(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="tournament", tag_field="kind"):
    """The summary of a tournament (bots against each other)."""

    name: str
    game: str
    games: int
    spec: dict[str, Any]
    options: dict[str, Any]
    players: int
    mode: str
    mirror: bool
    bots: list[Rate]
    matrix: Matrix
    ratings: Ratings | None
    cells: list[Cell]
    scores: dict[str, Distribution]
    length: Distribution
    headline: Headline


class StudySummary(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="study", tag_field="kind"):
    """The summary of a balance study (a grid of options times player counts)."""

    name: str
    game: str
    games: int
    spec: dict[str, Any]
    options: dict[str, list[Any]]
    players: list[int]
    cells: list[Cell]
    variants: list[Variant]
    headline: Headline


Summary = TournamentSummary | StudySummary
"""A ``summary.json``, typed: the struct of its ``kind``."""


def read_summary(source: str | os.PathLike[str] | bytes | dict[str, Any]) -> Summary:
    """A summary as :data:`Summary`: from a ``summary.json`` path, its bytes, or the dict a run
    returned. Every field is checked: a summary of another shape, or a file that is not one,
    raises :class:`cruiselib.InvalidStateError` saying where."""
    try:
        if isinstance(source, dict):
            summary: Summary = msgspec.convert(source, type=Summary)
            return summary
        data = source if isinstance(source, bytes) else Path(source).read_bytes()
        decoded: Summary = msgspec.json.decode(data, type=Summary)
        return decoded
    except msgspec.ValidationError as exc:
        raise InvalidStateError(f"not a summary of this version: {exc}") from None
    except msgspec.DecodeError as exc:
        raise InvalidStateError(f"not a summary (JSON): {exc}") from None
    except OSError as exc:
        raise InvalidStateError(f"cannot read the summary: {exc}") from None


def summary_schema() -> dict[str, Any]:
    """The JSON Schema of ``summary.json`` (published as ``docs/summary.schema.json``)."""
    schema: dict[str, Any] = msgspec.json.schema(Summary)
    return schema
