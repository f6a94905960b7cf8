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


def concat_rows(parts: Iterable[Rows]) -> Rows:
    """Several row sets as one, in the order given."""
    out: Rows = {name: [] for name in COLUMNS}
    for part in parts:
        for name in COLUMNS:
            out[name].extend(part[name])
    return out


def rows_to_games(rows: Rows) -> list[GameRow]:
    """The rows as :class:`GameRow` objects."""
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


def write_rows(rows: Rows, path: Path) -> Path:
    """Write rows to ``path`` with its suffix replaced by ``.parquet`` (or ``.csv`` without
    pyarrow), atomically: a reader never sees half a file. Returns the path written."""
    path = path.with_suffix(".parquet" if HAVE_PYARROW else ".csv")
    partial = path.with_name(path.name + ".partial")
    if HAVE_PYARROW:
        pq.write_table(to_table(rows), partial)
    else:
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


def read_rows(path: Path) -> Rows:
    """Rows from a file :func:`write_rows` wrote (Parquet or CSV by its suffix)."""
    if path.suffix == ".parquet":
        if not HAVE_PYARROW:
            raise RuntimeError(f"reading {path} needs pyarrow")
        table = pq.read_table(path)
        return {name: table.column(name).to_pylist() for name in COLUMNS}
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


def row_count(rows: Rows) -> int:
    return len(rows["job"])


def select(rows: Rows, keep: Sequence[int]) -> Rows:
    """The rows at positions ``keep``."""
    return {name: [values[i] for i in keep] for name, values in rows.items()}
