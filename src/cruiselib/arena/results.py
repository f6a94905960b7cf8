"""The rows of a run: :class:`GameRow` (one per game, the contract every reader relies on),
and reading and writing them as Parquet (pyarrow) or, without pyarrow, CSV.

Columns, in this order: ``study, job, index, cell, game, options_json, players, deal,
deal_seed, mirror, seats, start_player, scores, winners, length, seconds``. ``seats``,
``scores`` and ``winners`` are lists (JSON text in CSV). ``deal_seed`` is the 64-bit
generator state the game was dealt from: ``cruiselib.make(game, **json.loads(options_json))
.state_from_seed_state(deal_seed)`` is the game's first position. Every column but
``seconds`` (wall time) is the same on every backend and worker count.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

from .plan import Job
from .play import JobRows

try:
    import pyarrow as pa  # type: ignore[import-untyped]  # pyarrow ships no stubs
    import pyarrow.parquet as pq  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - pyarrow is optional: CSV then
    pa = None
    pq = None

__all__ = [
    "COLUMNS",
    "HAVE_PYARROW",
    "GameRow",
    "Rows",
    "concat_rows",
    "job_rows",
    "read_rows",
    "rows_to_games",
    "write_rows",
]

HAVE_PYARROW = pa is not None


class GameRow(msgspec.Struct, frozen=True):
    """One game. ``mirror``: the seating's rotation (0 unmirrored); ``seats``: the bot label of
    each seat; ``start_player``: the seat that acted first; ``winners``: the winning seats
    (several for a shared win, none for a draw); ``length``: actions applied."""

    study: str
    job: int
    index: int
    cell: int
    game: str
    options_json: str
    players: int
    deal: int
    deal_seed: int
    mirror: int
    seats: list[str]
    start_player: int
    scores: list[int]
    winners: list[int]
    length: int
    seconds: float


COLUMNS = tuple(GameRow.__struct_fields__)
LIST_COLUMNS = ("seats", "scores", "winners")

Rows = dict[str, list[Any]]
"""Rows as columns: column name -> one value per game (lists for the list columns)."""

Games = Any
"""The games of a run: a pyarrow Table of :data:`COLUMNS` (with pyarrow), else :data:`Rows`."""


def job_rows(job: Job, rows: JobRows) -> Rows:
    """The rows of a finished job as columns, in row order."""
    n = rows.games
    if job.seatings:
        labels = [[bot.display for bot in seating] for seating in job.seatings]
        seats = [labels[s] for s in rows.seating.tolist()]
    else:
        seats = [["random"] * job.players for _ in range(n)]
    # The winners of each game through its bit mask of winning seats: one lookup a game.
    players = rows.wins.shape[1]
    masks = (rows.wins.astype(np.int64) << np.arange(players, dtype=np.int64)).sum(axis=1)
    by_mask = {int(m): [p for p in range(players) if m >> p & 1] for m in np.unique(masks)}
    winners = [list(by_mask[m]) for m in masks.tolist()]
    return {
        "study": [job.study] * n,
        "job": [job.index] * n,
        "index": list(range(n)),
        "cell": [job.cell] * n,
        "game": [job.game] * n,
        "options_json": [job.options_json] * n,
        "players": [job.players] * n,
        "deal": rows.deal.tolist(),
        "deal_seed": rows.deal_seed.tolist(),
        "mirror": np.maximum(rows.seating, 0).tolist(),
        "seats": seats,
        "start_player": rows.start_player.tolist(),
        "scores": rows.scores.tolist(),
        "winners": winners,
        "length": rows.length.tolist(),
        "seconds": rows.seconds.tolist(),
    }


def job_table(job: Job, rows: JobRows) -> Any:
    """The rows of a finished job as a pyarrow Table, built from the arrays at C speed (the
    in-core games of a study come by the hundred thousand)."""
    n, players = rows.games, job.players
    seat_offsets = pa.array(np.arange(0, n * players + 1, players, dtype=np.int32))
    if job.seatings:
        labels = pa.array([bot.display for seating in job.seatings for bot in seating], pa.string())
        picks = (rows.seating.astype(np.int64)[:, None] * players + np.arange(players)).ravel()
        seat_labels = labels.take(pa.array(picks))
    else:
        seat_labels = pa.array(["random"]).take(pa.array(np.zeros(n * players, dtype=np.int64)))
    won_rows, won_seats = np.nonzero(rows.wins)  # row-major: each row's winners in seat order
    winner_offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(np.bincount(won_rows, minlength=n), out=winner_offsets[1:])
    columns = {
        "study": pa.array([job.study]).take(pa.array(np.zeros(n, dtype=np.int64))),
        "job": np.full(n, job.index, dtype=np.int32),
        "index": np.arange(n, dtype=np.int32),
        "cell": np.full(n, job.cell, dtype=np.int32),
        "game": pa.array([job.game]).take(pa.array(np.zeros(n, dtype=np.int64))),
        "options_json": pa.array([job.options_json]).take(pa.array(np.zeros(n, dtype=np.int64))),
        "players": np.full(n, players, dtype=np.int8),
        "deal": rows.deal.astype(np.int64),
        "deal_seed": rows.deal_seed.astype(np.uint64),
        "mirror": np.maximum(rows.seating, 0).astype(np.int16),
        "seats": pa.ListArray.from_arrays(seat_offsets, seat_labels),
        "start_player": rows.start_player.astype(np.int8),
        "scores": pa.ListArray.from_arrays(seat_offsets, pa.array(rows.scores.astype(np.int32).ravel())),
        "winners": pa.ListArray.from_arrays(pa.array(winner_offsets), pa.array(won_seats.astype(np.int8))),
        "length": rows.length.astype(np.int32),
        "seconds": rows.seconds.astype(np.float64),
    }
    schema = _schema()
    return pa.Table.from_arrays([pa.array(columns[f.name], f.type) for f in schema], schema=schema)


def job_games(job: Job, rows: JobRows) -> Games:
    """The rows of a finished job as :data:`Games`."""
    return job_table(job, rows) if HAVE_PYARROW else job_rows(job, rows)


def _is_table(games: Games) -> bool:
    return not isinstance(games, dict)


def concat_games(parts: Sequence[Games]) -> Games:
    """Several job's games as one, in the order given."""
    if parts and all(_is_table(part) for part in parts):
        return pa.concat_tables(parts).combine_chunks()
    if not parts and HAVE_PYARROW:
        return _schema().empty_table()
    return concat_rows(games_to_lists(part) for part in parts)


def game_count(games: Games) -> int:
    return int(games.num_rows) if _is_table(games) else len(games["job"])


def games_to_lists(games: Games) -> Rows:
    """The games as :data:`Rows` (Python lists)."""
    if _is_table(games):
        data: Rows = games.to_pydict()
        return data
    return dict(games)


def scalar_column(games: Games, name: str) -> np.ndarray[Any, Any]:
    """A scalar column as a numpy array."""
    if _is_table(games):
        return np.asarray(games.column(name).to_numpy())
    return np.asarray(games[name])


def value_at(games: Games, name: str, row: int) -> Any:
    """One value of a column."""
    if _is_table(games):
        return games.column(name)[row].as_py()
    return games[name][row]


def list_column(games: Games, name: str) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """A list column as (values, offsets): row i holds ``values[offsets[i]:offsets[i + 1]]``."""
    if _is_table(games):
        column = games.column(name).combine_chunks()
        offsets = np.asarray(column.offsets.to_numpy(), dtype=np.int64)
        values = np.asarray(column.flatten().to_numpy(zero_copy_only=False))
        return values, offsets - offsets[0]
    lists = games[name]
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    np.cumsum([len(item) for item in lists], out=offsets[1:])
    return np.asarray([value for item in lists for value in item]), offsets


def concat_rows(parts: Iterable[Rows]) -> Rows:
    """Several row sets as one, in the order given."""
    out: Rows = {name: [] for name in COLUMNS}
    for part in parts:
        for name in COLUMNS:
            out[name].extend(part[name])
    return out


def rows_to_games(games: Games) -> list[GameRow]:
    """The rows (:data:`Games`) as :class:`GameRow` objects."""
    rows = games_to_lists(games)
    n = len(rows["job"])
    return [GameRow(**{name: rows[name][i] for name in COLUMNS}) for i in range(n)]


def _schema() -> Any:
    return pa.schema(
        [
            ("study", pa.string()),
            ("job", pa.int32()),
            ("index", pa.int32()),
            ("cell", pa.int32()),
            ("game", pa.string()),
            ("options_json", pa.string()),
            ("players", pa.int8()),
            ("deal", pa.int64()),
            ("deal_seed", pa.uint64()),
            ("mirror", pa.int16()),
            ("seats", pa.list_(pa.string())),
            ("start_player", pa.int8()),
            ("scores", pa.list_(pa.int32())),
            ("winners", pa.list_(pa.int8())),
            ("length", pa.int32()),
            ("seconds", pa.float64()),
        ]
    )


def to_table(rows: Rows) -> Any:
    """The rows as a pyarrow Table (needs pyarrow)."""
    return pa.Table.from_pydict(rows, schema=_schema())


def write_rows(rows: Games, path: Path) -> Path:
    """Write rows (:data:`Games`) to ``path`` with its suffix replaced by ``.parquet`` (or
    ``.csv`` without pyarrow), atomically: a reader never sees half a file. Returns the path
    written."""
    path = path.with_suffix(".parquet" if HAVE_PYARROW else ".csv")
    partial = path.with_name(path.name + ".partial")
    if HAVE_PYARROW:
        pq.write_table(rows if _is_table(rows) else to_table(rows), partial)
    else:
        rows = games_to_lists(rows)
        with partial.open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(COLUMNS)
            n = len(rows["job"])
            for i in range(n):
                writer.writerow([json.dumps(rows[c][i]) if c in LIST_COLUMNS else rows[c][i] for c in COLUMNS])
    os.replace(partial, path)
    return path


_CSV_TYPES: dict[str, type] = {
    "study": str,
    "game": str,
    "options_json": str,
    "seconds": float,
}


def read_games(path: Path) -> Games:
    """Games from a file :func:`write_rows` wrote: a Table from Parquet, Rows from CSV."""
    if path.suffix == ".parquet":
        if not HAVE_PYARROW:
            raise RuntimeError(f"reading {path} needs pyarrow")
        return pq.read_table(path, schema=_schema())
    return read_rows(path)


def read_rows(path: Path) -> Rows:
    """Rows from a file :func:`write_rows` wrote (Parquet or CSV by its suffix)."""
    if path.suffix == ".parquet":
        return games_to_lists(read_games(path))
    with path.open(newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        out: Rows = {name: [] for name in header}
        for record in reader:
            for name, text in zip(header, record, strict=True):
                if name in LIST_COLUMNS:
                    out[name].append(json.loads(text))
                else:
                    out[name].append(_CSV_TYPES.get(name, int)(text))
    return out
