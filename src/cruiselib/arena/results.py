"""The rows of a run: :class:`GameRow` (one per game, the contract every reader relies on),
and reading and writing them as Parquet (pyarrow) or, without pyarrow, CSV.

Columns, in this order: ``study, job, index, cell, game, options_json, players, deal,
deal_seed, mirror, seats, start_player, scores, winners, length, seconds``. ``seats``,
``scores`` and ``winners`` are lists (JSON text in CSV). ``deal_seed`` is the 64-bit
generator state the game was dealt from: ``cruiselib.make(game, **json.loads(options_json))
.state_from_seed_state(deal_seed)`` is the game's first position. Every column but
``seconds`` (wall time) is the same on every backend and worker count.

The rows of in-core games come by the million, so they never pass through a Python object
a game: :func:`jobs_table` builds the Table from the jobs' numpy arrays, :class:`TableWriter`
does so chunk by chunk as a run goes (each chunk a row group of the Parquet file), and a
finished job's arrays are kept as a ``.npz`` checkpoint (:func:`write_job_rows`).
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import os
import secrets
import stat
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

from cruiselib.errors import InvalidOptionError, InvalidStateError

from .plan import Job
from .play import JobRows, mix64_array

try:
    import pyarrow as pa  # type: ignore[import-untyped]  # pyarrow ships no stubs
    import pyarrow.parquet as pq  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - pyarrow is optional: CSV then
    pa = None
    pq = None

__all__ = [
    "COLUMNS",
    "HAVE_PYARROW",
    "CheckpointError",
    "GameRow",
    "Rows",
    "TableWriter",
    "concat_rows",
    "job_digest",
    "job_rows",
    "jobs_table",
    "partial_path",
    "read_games",
    "read_job_rows",
    "read_rows",
    "rows_to_games",
    "spec_digest",
    "write_job_rows",
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
    """The rows of a finished job as a pyarrow Table (see :func:`jobs_table`)."""
    return jobs_table([job], [rows])


MAX_TEXT_BYTES = 2**31 - 1
"""The most bytes of text in one column of a chunk of rows (a string array's offsets are
32-bit)."""


def _strings(runs: Sequence[tuple[str, int]]) -> Any:
    """A pyarrow string array of ``count`` copies of each ``value`` of ``runs``, in order,
    built from its two buffers: a run of one label over a million rows costs a memory copy,
    not a million string objects (nor pyarrow.compute, a fifth of a second to import)."""
    encoded = [(value.encode(), count) for value, count in runs if count]
    total = sum(count for _, count in encoded)
    sizes = {len(data) for data, _ in encoded}
    if len(sizes) <= 1 and total * max(sizes, default=0) <= MAX_TEXT_BYTES:
        offsets = np.arange(total + 1, dtype=np.int32) * np.int32(max(sizes, default=0))
    else:
        lengths = np.array([len(data) for data, _ in encoded], dtype=np.int64)
        ends = np.cumsum(np.repeat(lengths, [count for _, count in encoded]))
        if ends.size and ends[-1] > MAX_TEXT_BYTES:
            raise InvalidOptionError(
                f"{total:,} rows of text are too many for one chunk of the rows: give the spec a smaller shard"
            )
        offsets = np.concatenate([np.zeros(1, dtype=np.int32), ends.astype(np.int32)])
    data = encoded[0][0] * encoded[0][1] if len(encoded) == 1 else b"".join(d * c for d, c in encoded)
    return pa.StringArray.from_buffers(total, pa.py_buffer(offsets), pa.py_buffer(data))


def _add_run(runs: list[tuple[str, int]], value: str, count: int) -> None:
    """Append ``count`` copies of ``value`` to ``runs`` (merged with the last run if equal)."""
    if runs and runs[-1][0] == value:
        runs[-1] = (value, runs[-1][1] + count)
    else:
        runs.append((value, count))


def _dictionary(runs: Sequence[tuple[str, int]]) -> Any:
    """The values of :func:`_strings` as a pyarrow dictionary array (indices into the distinct
    values): Parquet writes its dictionary from it without hashing every value."""
    ids: dict[str, int] = {}
    index = [ids.setdefault(value, len(ids)) for value, count in runs if count]
    counts = [count for _, count in runs if count]
    if len(ids) == 1:  # one value throughout (a study's name, a game...): zeros cost no pass
        indices = np.zeros(sum(counts), dtype=np.int32)
    else:
        indices = np.repeat(np.asarray(index, dtype=np.int32), counts)
    return pa.DictionaryArray.from_arrays(pa.array(indices, pa.int32()), pa.array(list(ids), pa.string()))


def jobs_table(jobs: Sequence[Job], parts: Sequence[JobRows]) -> Any:
    """The rows of finished jobs (``parts[i]`` played ``jobs[i]``), in that order, as one
    pyarrow Table built from the job arrays a job at a time: no Python object per game, as
    the in-core games of a study come by the million."""
    return _jobs_tables(jobs, parts, for_file=False)[0]


def _jobs_tables(jobs: Sequence[Job], parts: Sequence[JobRows], for_file: bool) -> tuple[Any, Any]:
    """:func:`jobs_table`, and with ``for_file`` the same rows as :class:`TableWriter` gives
    them to Parquet (the text columns as dictionary arrays), else None."""
    n = sum(part.games for part in parts)
    seats = sum(part.games * job.players for job, part in zip(jobs, parts, strict=True))
    seat_offsets = np.empty(n + 1, dtype=np.int32)
    seat_offsets[n] = seats
    winner_offsets = np.empty(n + 1, dtype=np.int32)
    winner_seats: list[np.ndarray[Any, Any]] = []
    study: list[tuple[str, int]] = []
    game: list[tuple[str, int]] = []
    options: list[tuple[str, int]] = []
    labels: list[tuple[str, int]] = []
    row = seat = won = 0
    for job, part in zip(jobs, parts, strict=True):
        games, players = part.games, job.players
        seat_offsets[row : row + games] = np.arange(seat, seat + games * players, players, dtype=np.int32)
        # The winning seats, row-major: each row's winners in seat order.
        won_rows, won_seats = np.divmod(np.flatnonzero(part.wins), players)
        won_here = np.bincount(won_rows, minlength=games).astype(np.int32)
        winner_offsets[row : row + games] = won + np.cumsum(won_here) - won_here
        winner_seats.append(won_seats.astype(np.int8))
        _add_run(study, job.study, games)
        _add_run(game, job.game, games)
        _add_run(options, job.options_json, games)
        if job.seatings:
            by_seating = [[bot.display for bot in seating] for seating in job.seatings]
            for s in part.seating.tolist():
                for label in by_seating[s]:
                    _add_run(labels, label, 1)
        else:
            _add_run(labels, "random", games * players)
        row, seat, won = row + games, seat + games * players, won + won_rows.size
    winner_offsets[n] = won

    def column(name: str, dtype: Any) -> np.ndarray[Any, Any]:
        arrays = [np.asarray(getattr(part, name), dtype=dtype).ravel() for part in parts]
        return np.concatenate(arrays) if arrays else np.zeros(0, dtype=dtype)

    def per_job(values: Sequence[int], dtype: Any) -> np.ndarray[Any, Any]:
        return np.repeat(np.asarray(values, dtype=dtype), [part.games for part in parts])

    seat_list_offsets = pa.array(seat_offsets)
    columns = {
        "study": _strings(study),
        "job": per_job([job.index for job in jobs], np.int32),
        "index": np.concatenate([np.arange(part.games, dtype=np.int32) for part in parts] or [np.zeros(0, np.int32)]),
        "cell": per_job([job.cell for job in jobs], np.int32),
        "game": _strings(game),
        "options_json": _strings(options),
        "players": per_job([job.players for job in jobs], np.int8),
        "deal": column("deal", np.int64),
        "deal_seed": column("deal_seed", np.uint64),
        "mirror": np.maximum(column("seating", np.int16), 0),
        "seats": pa.ListArray.from_arrays(seat_list_offsets, _strings(labels)),
        "start_player": column("start_player", np.int8),
        "scores": pa.ListArray.from_arrays(seat_list_offsets, pa.array(column("scores", np.int32))),
        "winners": pa.ListArray.from_arrays(
            pa.array(winner_offsets), pa.array(np.concatenate(winner_seats or [np.zeros(0, np.int8)]))
        ),
        "length": column("length", np.int32),
        "seconds": column("seconds", np.float64),
    }
    schema = _schema()
    table = pa.Table.from_arrays([pa.array(columns[f.name], f.type) for f in schema], schema=schema)
    if not for_file:
        return table, None
    # The same columns but for the text, which Parquet keeps as a dictionary of a few values
    # over millions of rows: given as dictionary arrays, nothing is hashed row by row.
    text = {
        "study": _dictionary(study),
        "game": _dictionary(game),
        "options_json": _dictionary(options),
        "seats": pa.ListArray.from_arrays(seat_list_offsets, _dictionary(labels)),
    }
    arrays = [text.get(name, table.column(name)) for name in schema.names]
    return table, pa.Table.from_arrays(arrays, names=schema.names)


def jobs_games(jobs: Sequence[Job], parts: Sequence[JobRows]) -> Games:
    """The rows of finished jobs (``parts[i]`` played ``jobs[i]``), in that order, as
    :data:`Games`."""
    if HAVE_PYARROW:
        return jobs_table(jobs, parts)
    return concat_rows(job_rows(job, part) for job, part in zip(jobs, parts, strict=True))


def _is_table(games: Games) -> bool:
    return not isinstance(games, dict)


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
        offsets = np.asarray(column.offsets.to_numpy())
        # The backing values sliced by the offsets (ListArray.flatten would import
        # pyarrow.compute, a fifth of a second).
        backing = column.values.to_numpy(zero_copy_only=False)
        values = np.asarray(backing[offsets[0] : offsets[-1]])
        return values, offsets - offsets[0] if offsets[0] else offsets
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


_COLUMN_PATHS = (
    *("study", "job", "index", "cell", "game", "options_json", "players", "deal", "deal_seed", "mirror"),
    *("seats.list.element", "start_player", "scores.list.element", "winners.list.element", "length", "seconds"),
)
"""The Parquet path of each column (a list column's values are ``<name>.list.element``)."""

PARQUET_OPTIONS: dict[str, Any] = {
    # Dictionaries pay only for the text columns (a few distinct values over millions of
    # rows); tried on a column of distinct integers (deal, deal_seed) they cost a third of
    # the write for nothing.
    "use_dictionary": ["study", "game", "options_json", "seats.list.element"],
    # The row numbers and deals count up: their differences take a few bits (a third of the
    # file, and of its writing, less than plain values compressed).
    "column_encoding": {"index": "DELTA_BINARY_PACKED", "deal": "DELTA_BINARY_PACKED"},
    # Minimum and maximum where a reader filters on them (a job, a cell, a deal, a seat...);
    # over the text, the lists, the seeds and the times they are work for nothing.
    "write_statistics": ["job", "index", "cell", "players", "deal", "mirror", "start_player", "length"],
    # Snappy but for the deal seeds, 64 random bits each that it cannot shrink.
    "compression": {path: "none" if path == "deal_seed" else "snappy" for path in _COLUMN_PATHS},
    # The text columns are written from dictionary arrays (TableWriter): the file keeps no
    # Arrow schema of them, so every reader gets text, as Parquet's own types say.
    "store_schema": False,
}
"""How :func:`write_rows` and :class:`TableWriter` write Parquet: 1M in-core Sirens games in
17 MB and about 0.17 s of CPU (pyarrow's defaults: 25 MB, 0.24 s)."""


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
    partial = partial_path(path)
    if HAVE_PYARROW:
        pq.write_table(rows if _is_table(rows) else to_table(rows), partial, **PARQUET_OPTIONS)
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


JOB_ARRAYS = tuple(name for name in JobRows.__struct_fields__ if name != "job")

JOB_DTYPES: dict[str, np.dtype[Any]] = {
    "deal": np.dtype(np.int64),
    "deal_seed": np.dtype(np.uint64),
    "seating": np.dtype(np.int16),
    "start_player": np.dtype(np.int16),
    "scores": np.dtype(np.int32),
    "wins": np.dtype(np.int8),
    "length": np.dtype(np.int32),
    "seconds": np.dtype(np.float64),
}
"""The dtype of each array of a job (a checkpoint with another is refused)."""

PER_SEAT_ARRAYS = ("scores", "wins")
"""The arrays of one row of ``players`` values a game; the others hold one value a game."""

CHECKPOINT_FORMAT = 1
"""The version of a checkpoint's identity record (its ``meta`` array)."""

MAX_META_BYTES = 4096
"""The most bytes of a checkpoint's identity record."""

_MAX_NPY_HEADER = 1024
_MEMBER_SLACK = 2048  # an array's zip entry beyond its data: the .npy header and the zip headers


class CheckpointError(InvalidStateError):
    """A job checkpoint that cannot be used: unreadable, truncated, of another job or of
    another run. ``path`` is the file, ``reason`` says why; the runner plays the job again."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def partial_path(path: Path) -> Path:
    """A name of this process's own for the file ``path`` is written to before it is
    renamed to ``path``: two writers of one file never write into one partial file."""
    return path.with_name(f"{path.name}.{os.getpid()}-{secrets.token_hex(4)}.partial")


def spec_digest(spec_json: bytes) -> str:
    """The digest of a spec's canonical JSON (:func:`~cruiselib.arena.plan.dump_spec`) that
    a checkpoint records."""
    return hashlib.sha256(spec_json).hexdigest()


def job_digest(job: Job) -> str:
    """The digest of everything a job plays (its index, game, options, deals, seatings...)
    that its checkpoint records."""
    return hashlib.sha256(msgspec.json.encode(msgspec.to_builtins(job, order="sorted"))).hexdigest()


def _identity(job: Job, spec: str | None) -> dict[str, Any]:
    return {
        "format": CHECKPOINT_FORMAT,
        "job": job.id,
        "job_digest": job_digest(job),
        "spec_digest": spec,
        "games": job.games,
    }


def write_job_rows(rows: JobRows, path: Path, job: Job | None = None, spec: str | None = None) -> Path:
    """Write a finished job's arrays to ``path`` with its suffix replaced by ``.npz``
    (uncompressed numpy arrays, never pickled: a checkpoint costs a memory copy),
    atomically. With ``job``, the file records which job it holds (its index, the digest of
    the job and ``spec``, a :func:`spec_digest`), which :func:`read_job_rows` checks. Returns
    the path written."""
    path = path.with_suffix(".npz")
    partial = partial_path(path)
    arrays: dict[str, Any] = {name: getattr(rows, name) for name in JOB_ARRAYS}
    if job is not None:
        record = json.dumps(_identity(job, spec), sort_keys=True).encode()
        arrays["meta"] = np.frombuffer(record, dtype=np.uint8)
    try:
        with partial.open("wb") as handle:
            np.savez(handle, job=np.int64(rows.job), **arrays)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def read_job_rows(path: Path, job: Job | None = None, spec: str | None = None) -> JobRows:
    """A job's arrays from a file :func:`write_job_rows` wrote.

    The file is read as hostile input: never unpickled, never more read than the file
    holds, and with ``job`` never more than that job's arrays take. Every array must have
    its dtype and a shape that agree with the others. With ``job``, the file must also be
    that job's checkpoint: its identity record names the job (and ``spec``, if given), its
    arrays have the job's sizes, and its deals, deal seeds and seatings are the job's.
    Anything else raises :class:`CheckpointError` naming the file and why."""
    players = None if job is None else job.players
    games = None if job is None else job.games
    expected: dict[str, tuple[np.dtype[Any], tuple[int | None, ...]]] = {"job": (np.dtype(np.int64), ())}
    for name, dtype in JOB_DTYPES.items():
        expected[name] = (dtype, (games, players) if name in PER_SEAT_ARRAYS else (games,))
    limit = None
    if job is not None:
        data_bytes = sum(
            dtype.itemsize * math.prod(dim for dim in shape if dim is not None) for dtype, shape in expected.values()
        )
        limit = data_bytes + MAX_META_BYTES + _MEMBER_SLACK * (len(expected) + 1)
    try:
        arrays = _read_npz(path, expected, limit)
    except CheckpointError:
        raise
    except (OSError, EOFError, ValueError, KeyError, RuntimeError, NotImplementedError, zipfile.BadZipFile) as exc:
        raise CheckpointError(path, f"cannot be read ({type(exc).__name__}: {exc})") from None
    meta = arrays.pop("meta", None)
    number = int(arrays.pop("job"))
    n = arrays["deal"].shape[0]
    for name, array in arrays.items():
        width = arrays["scores"].shape[1] if name in PER_SEAT_ARRAYS else None
        if array.shape != ((n, width) if width is not None else (n,)):
            raise CheckpointError(path, f"its {name} array has shape {array.shape}, the deal array {n} rows")
    if job is not None:
        _check_identity(path, meta, job, spec)
        if number != job.index:
            raise CheckpointError(path, f"it holds the rows of job {number}, not {job.index}")
        rows = JobRows(job=number, **arrays)
        _check_rows(path, rows, job)
        return rows
    return JobRows(job=number, **arrays)


def _read_npz(
    path: Path, expected: dict[str, tuple[np.dtype[Any], tuple[int | None, ...]]], limit: int | None
) -> dict[str, np.ndarray[Any, Any]]:
    """The arrays of the .npz at ``path``: exactly the names of ``expected`` (and ``meta``),
    each of its dtype and shape (None: any size), stored uncompressed, read with no more
    memory than the file holds (and the file at most ``limit`` bytes)."""
    expected = expected | {"meta": (np.dtype(np.uint8), (None,))}
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with open(fd, "rb") as handle:  # the file, not what a FIFO would wait for
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise CheckpointError(path, "not a regular file")
        if limit is not None and info.st_size > limit:
            raise CheckpointError(path, f"{info.st_size:,} bytes, more than this job's checkpoint takes ({limit:,})")
        arrays: dict[str, np.ndarray[Any, Any]] = {}
        with zipfile.ZipFile(handle) as archive:
            members = archive.infolist()
            names = [member.filename for member in members]
            wanted = {f"{name}.npy" for name in expected}
            if len(set(names)) != len(names) or not set(names) <= wanted:
                raise CheckpointError(path, f"not a job checkpoint (it holds {', '.join(sorted(names))[:200]})")
            if "meta.npy" not in names and limit is not None:
                raise CheckpointError(path, "it has no identity record (a checkpoint of an older cruiselib)")
            missing = wanted - set(names) - {"meta.npy"}
            if missing:
                raise CheckpointError(path, f"it lacks {', '.join(sorted(missing))}")
            for member in members:
                name = member.filename.removesuffix(".npy")
                arrays[name] = _read_member(path, archive, member, *expected[name], info.st_size)
    return arrays


def _read_member(
    path: Path,
    archive: zipfile.ZipFile,
    member: zipfile.ZipInfo,
    dtype: np.dtype[Any],
    shape: tuple[int | None, ...],
    file_size: int,
) -> np.ndarray[Any, Any]:
    """One array of a checkpoint: its header checked before any of its data is read."""
    name = member.filename
    if member.compress_type != zipfile.ZIP_STORED or member.flag_bits & 0x1:
        raise CheckpointError(path, f"{name} is compressed or encrypted")
    if member.file_size > file_size:
        raise CheckpointError(path, f"{name} claims {member.file_size:,} bytes in a file of {file_size:,}")
    with archive.open(member) as stream:
        version = np.lib.format.read_magic(stream)
        if version == (1, 0):
            found_shape, fortran, found_dtype = np.lib.format.read_array_header_1_0(
                stream, max_header_size=_MAX_NPY_HEADER
            )
        elif version == (2, 0):
            found_shape, fortran, found_dtype = np.lib.format.read_array_header_2_0(
                stream, max_header_size=_MAX_NPY_HEADER
            )
        else:
            raise CheckpointError(path, f"{name} is of .npy format {version}")
        if found_dtype != dtype:
            raise CheckpointError(path, f"{name} holds {found_dtype}, not {dtype}")
        if len(found_shape) != len(shape) or any(
            dim < 0 or (want is not None and dim != want) for dim, want in zip(found_shape, shape, strict=True)
        ):
            want_text = tuple("any" if dim is None else dim for dim in shape)
            raise CheckpointError(path, f"{name} has shape {found_shape}, not {want_text}")
        if fortran and len(found_shape) > 1:
            raise CheckpointError(path, f"{name} is in Fortran order")
        size = math.prod(found_shape) * dtype.itemsize
        if size > member.file_size:
            raise CheckpointError(path, f"{name} claims {size:,} bytes of data in {member.file_size:,}")
        buffer = bytearray(size)
        done = 0
        while done < size:
            chunk = stream.read(min(size - done, 1 << 20))
            if not chunk:
                raise CheckpointError(path, f"{name} is truncated ({done:,} of {size:,} bytes)")
            buffer[done : done + len(chunk)] = chunk
            done += len(chunk)
        if stream.read(1):  # reading to the end also checks the member's CRC
            raise CheckpointError(path, f"{name} has bytes after its data")
    return np.frombuffer(buffer, dtype=dtype).reshape(found_shape)


def _check_identity(path: Path, meta: np.ndarray[Any, Any] | None, job: Job, spec: str | None) -> None:
    """Refuse a checkpoint whose identity record does not name ``job`` (and ``spec``)."""
    if meta is None:
        raise CheckpointError(path, "it has no identity record (a checkpoint of an older cruiselib)")
    if meta.size > MAX_META_BYTES:
        raise CheckpointError(path, f"its identity record has {meta.size:,} bytes, more than {MAX_META_BYTES:,}")
    try:
        record = json.loads(meta.tobytes().decode())
    except ValueError:
        raise CheckpointError(path, "its identity record is not JSON") from None
    if not isinstance(record, dict) or record.get("format") != CHECKPOINT_FORMAT:
        raise CheckpointError(path, "its identity record is not one this cruiselib writes")
    if record.get("job") != job.id:
        raise CheckpointError(path, f"it is the checkpoint of job {str(record.get('job'))[:20]!r}, not {job.id!r}")
    if record.get("job_digest") != job_digest(job):
        raise CheckpointError(path, f"it is the checkpoint of another job {job.id} (of another spec)")
    if spec is not None and record.get("spec_digest") != spec:
        raise CheckpointError(path, "it is a checkpoint of another run's spec")
    if record.get("games") != job.games:
        raise CheckpointError(path, f"it records {str(record.get('games'))[:20]} games, not {job.games}")


def job_order(job: Job) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The deal and the seating (its rotation; -1 for in-core games) of each row of ``job``,
    in the order :func:`~cruiselib.arena.play.play_job` plays them."""
    deals = np.arange(job.first, job.first + job.deals, dtype=np.int64)
    if not job.seatings:
        return deals, np.full(job.deals, -1, dtype=np.int16)
    rotations = np.asarray(job.rotations, dtype=np.int16)
    if job.per_deal:
        return np.repeat(deals, len(job.seatings)), np.tile(rotations, job.deals)
    return deals, rotations[deals % len(job.seatings)]


def _check_rows(path: Path, rows: JobRows, job: Job) -> None:
    """Refuse rows that are not those ``job`` plays: other deals, deal seeds or seatings,
    or values out of range."""
    deals, seatings = job_order(job)
    if not np.array_equal(rows.deal, deals):
        raise CheckpointError(path, f"its deals are not job {job.id}'s")
    with np.errstate(over="ignore"):
        seeds = np.uint64(job.base) + deals.astype(np.uint64)
    if not np.array_equal(rows.deal_seed, mix64_array(seeds)):
        raise CheckpointError(path, f"its deal seeds are not job {job.id}'s")
    if not np.array_equal(rows.seating, seatings):
        raise CheckpointError(path, f"its seatings are not job {job.id}'s")
    if rows.games and not (rows.start_player.min() >= 0 and rows.start_player.max() < job.players):
        raise CheckpointError(path, f"its start players are not seats of {job.players}")
    if not np.all((rows.wins == 0) | (rows.wins == 1)):
        raise CheckpointError(path, "its wins are not all 0 or 1")
    if rows.games and rows.length.min() < 0:
        raise CheckpointError(path, "it has negative game lengths")
    if not np.all(np.isfinite(rows.seconds) & (rows.seconds >= 0)):
        raise CheckpointError(path, "its times are not all finite and positive")


class TableWriter:
    """The rows Table of a run built chunk by chunk as its jobs finish, each chunk also
    appended to ``path`` (a Parquet file, with its suffix replaced by ``.parquet``) as a row
    group if given. :meth:`finish` makes the file whole (a reader never sees half of it)
    and returns the Table; :meth:`abort` drops the partial file. Needs pyarrow.

    :meth:`add` is :meth:`build` then :meth:`write`: a caller may build a chunk's Table on one
    thread and write it on another (in row order), then :meth:`close` the file."""

    def __init__(self, path: Path | None) -> None:
        self.path = None if path is None else path.with_suffix(".parquet")
        self._partial = None if self.path is None else partial_path(self.path)
        self._writer: Any = None
        self._chunks: list[Any] = []

    def build(self, jobs: Sequence[Job], parts: Sequence[JobRows]) -> tuple[Any, Any]:
        """The rows of ``jobs`` (played as ``parts``) as a Table, and as :meth:`write` takes
        them (None without a file)."""
        return _jobs_tables(jobs, parts, for_file=self._partial is not None)

    def write(self, written: Any) -> None:
        """Append a chunk :meth:`build` made to the file, the next in row order."""
        if self._partial is None or written is None:
            return
        if self._writer is None:
            self._writer = pq.ParquetWriter(self._partial, written.schema, **PARQUET_OPTIONS)
        self._writer.write_table(written)

    def add(self, jobs: Sequence[Job], parts: Sequence[JobRows]) -> None:
        """Append the rows of ``jobs`` (played as ``parts``), the next in row order."""
        table, written = self.build(jobs, parts)
        self.write(written)
        self._chunks.append(table)

    def finish(self) -> Any:
        """The Table of every row added (one chunk an :meth:`add`), the file made whole."""
        table = concat_tables(self._chunks)
        self.close()
        return table

    def close(self) -> None:
        """Make the file whole: close it (or write an empty one if nothing was written) and
        rename it into place."""
        if self._partial is None or self.path is None:
            return
        if self._writer is None:
            pq.write_table(_schema().empty_table(), self._partial, **PARQUET_OPTIONS)
        else:
            self._writer.close()
            self._writer = None
        os.replace(self._partial, self.path)

    def abort(self) -> None:
        """Close and remove the partial file (an interrupted run)."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._partial is not None:
            self._partial.unlink(missing_ok=True)


def concat_tables(chunks: Sequence[Any]) -> Any:
    """Rows Tables as one, in order (the empty Table of the rows' schema for none)."""
    return pa.concat_tables(chunks) if chunks else _schema().empty_table()


_CSV_TYPES: dict[str, type] = {
    "study": str,
    "game": str,
    "options_json": str,
    "seconds": float,
}


def read_games(path: str | os.PathLike[str]) -> Games:
    """Games from a file :func:`write_rows` wrote (a path as text or a Path): a pyarrow Table
    from Parquet, :data:`Rows` from CSV. :func:`rows_to_games` turns either into
    :class:`GameRow` objects; ``cruiselib.arena.runner.load_run`` reads a whole output folder."""
    path = Path(path)
    if path.suffix == ".parquet":
        if not HAVE_PYARROW:
            raise RuntimeError(f"reading {path} needs pyarrow")
        return pq.read_table(path, schema=_schema())
    return read_rows(path)


def read_rows(path: str | os.PathLike[str]) -> Rows:
    """Rows from a file :func:`write_rows` wrote (Parquet or CSV by its suffix)."""
    path = Path(path)
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
