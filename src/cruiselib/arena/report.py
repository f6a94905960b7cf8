"""A self-contained HTML report of a tournament or a balance study.

:func:`html_report` writes ONE HTML file: no scripts, no external style sheets, fonts or
images. Its plots are drawn by matplotlib's SVG canvas (no pyplot: no GUI backend, no global
figure state) and inlined as SVG; every plot is followed by a table of the same numbers. The file holds no
date, host or path, so the same rows and summary give the same bytes (on the same
matplotlib version), and it stays readable at 1280 pixels wide.

Every string taken from the rows or the summary (bot labels, option names and values, cell
and variant names) is HTML-escaped; inside the plots, matplotlib's SVG writer escapes the
text and mathtext is off, so a label such as ``$x$`` or ``<script>`` is shown as written.

The summary
-----------
``summary`` is the dict that ``summary.json`` holds. Every section is optional: a section
that is absent (or empty) is left out of the report. A *rate* below is a win share: a game
won by ``k`` seats counts ``1/k`` for each, so the shares of a game sum to at most 1;
``low`` / ``high`` are its 95% Wilson interval and ``fair`` the share of a player with no
edge (``1/players``)::

    {
      "kind": "tournament" | "study",
      "game": "sirens",
      "name": "tournament",             # the run's name
      "options": {...},                 # a tournament's game options; a study's grid
      "players": 2,                     # or a list of player counts (a study)
      "games": 1200,                    # games played in all
      "mode": "round_robin",            # a tournament's mode (shown in the header)
      "mirror": true,                   # a tournament: every deal under every seat rotation
      "bots": [                         # per participant (tournaments)
        {"label": "mcts", "games": 800, "share": 0.61, "low": 0.58, "high": 0.64, "fair": 0.5}
      ],
      "matrix": {                       # tournaments: share[i][j] = row i's win share
        "labels": ["mcts", "random"],   # against column j (null where they never met)
        "share": [[null, 0.9], [0.1, null]],
        "games": [[0, 400], [400, 0]]
      },
      "ratings": {"method": "Bradley-Terry (Elo scale)",
                  "names": [...], "values": [...], "low": [...], "high": [...]},
      "cells": [                        # one per configuration (a tournament has one)
        {"cell": 0, "name": "players=2 ships=3", "options": {...}, "players": 2, "games": 600,
         "seats": [{"seat": 0, "games": 600, "share": 0.52, "low": 0.48, "high": 0.56,
                    "fair": 0.5}, ...],
         "start_players": [...same shape as "seats", by the seat that acted first...]}
      ],
      "variants": [                     # studies: paired differences on the same deals
        {"name": "ships=4", "baseline": "ships=3", "metric": "seat 0 win share",
         "difference": 0.031, "low": 0.012, "high": 0.050, "games": 600}
      ]
    }

A summary without ``"cells"`` but with top-level ``"seats"`` / ``"start_players"`` is read as
a single cell. Rates may also be named ``"rate"`` instead of ``"share"``; a share of ``null``
(no games: a seat that never started) is shown as n/a. Other keys are ignored.

The rows
--------
``rows`` are the games: ``GameRow`` structs, mappings with the same keys, a mapping of
columns (the runner's ``Rows``: name -> one value per game; the fastest) or a pyarrow Table.
The report reads ``seats`` (bot labels by seat), ``scores``, ``length`` and, to split a
study by cell, ``cell`` (named as the summary's cell of that number), else ``options_json``
and ``players``. From them it draws the score distributions (per bot in a tournament, per
seat in each cell of a study) and the game length distribution, with tables of their mean,
standard deviation, minimum, median and maximum.
"""

from __future__ import annotations

import html
import io
import json
import math
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from cruiselib.errors import InvalidOptionError

from .results import partial_path

__all__ = ["html_report"]

# Plots and tables of this many cells at most; a larger study's remaining cells are still
# in the tables of the summary numbers, only their histograms are left out.
MAX_CELL_PLOTS = 24

_FIGURE_WIDTH = 11.0  # inches: 1,056 CSS pixels at 96 dpi, inside a 1,280-pixel window
_SVG_PROLOGUE = re.compile(r"\A.*?(?=<svg)", re.DOTALL)
_SVG_ID = re.compile(r'\b(id)="([^"]+)"')
_SVG_REFERENCE = re.compile(r"(url\(|href=\")#([^)\"]+)")


def html_report(
    rows: Any,
    summary: Mapping[str, Any],
    path: str | Path,
    title: str | None = None,
) -> Path:
    """Write the HTML report of ``rows`` and ``summary`` to ``path`` and return the path.

    ``rows`` are the games (see the module docstring: structs, mappings or a pyarrow Table),
    ``summary`` the dict of ``summary.json`` whose shape the module docstring describes.
    ``title`` defaults to "<game> tournament" or "<game> study". The parent directory of
    ``path`` must exist. Raises :class:`~cruiselib.errors.InvalidOptionError` on a summary
    or rows of the wrong shape, and :class:`ImportError` without matplotlib.
    """
    if not isinstance(summary, Mapping):
        raise InvalidOptionError(f"summary must be a mapping (the dict of summary.json), not {type(summary).__name__}")
    table = _RowColumns(rows)
    kind = str(summary.get("kind", "tournament"))
    game = str(summary.get("game", "")) or _first(table.column("game"), "")
    if title is None:
        title = f"{_game_title(game)} {kind}".strip()
    sections = [_header(summary, table, title, game, kind)]
    sections += _bot_sections(summary)
    sections += _cell_sections(summary)
    sections += _distribution_sections(summary, table, kind)
    sections += _variant_sections(summary)
    document = _PAGE.format(title=_esc(title), body="\n".join(sections))
    target = Path(path)
    # Bytes, not text: the newline convention must not depend on the platform. Written whole
    # under a name of its own, then renamed: a reader never sees half a report.
    partial = partial_path(target)
    try:
        partial.write_bytes(document.encode("utf-8"))
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


# --- rows -------------------------------------------------------------------------------


class _RowColumns:
    """Column access to rows given as structs, mappings or a pyarrow Table."""

    def __init__(self, rows: Any) -> None:
        self._columns: Mapping[str, Sequence[Any]] | None = None
        if hasattr(rows, "column_names") and hasattr(rows, "column"):
            self._table: Any = rows
            self._rows: Sequence[Any] = ()
            self.count = int(rows.num_rows)
        elif isinstance(rows, Mapping):
            # Columns: name -> one value per game (the runner's ``Rows``).
            lengths = {len(values) for values in rows.values()}
            if len(lengths) > 1:
                raise InvalidOptionError(f"row columns must have equal lengths, not {sorted(lengths)}")
            self._table = None
            self._rows = ()
            self._columns = rows
            self.count = lengths.pop() if lengths else 0
        elif isinstance(rows, Sequence) and not isinstance(rows, (str, bytes)):
            self._table = None
            self._rows = rows
            self.count = len(rows)
        else:
            raise InvalidOptionError(
                f"rows must be game rows, a mapping of columns or a pyarrow Table, not {type(rows).__name__}"
            )

    def games(self) -> Any:
        """The rows as the arena's columnar ``Games`` (a pyarrow Table or a mapping of columns)
        when given so with every column a study's distributions read, else None."""
        needed = ("cell", "players", "options_json", "scores", "length")
        if self._table is not None and all(name in self._table.column_names for name in needed):
            return self._table
        if self._columns is not None and all(name in self._columns for name in needed):
            return self._columns
        return None

    def column(self, name: str) -> list[Any]:
        """The values of field ``name``, one per row (``None`` where a row lacks it)."""
        if self._columns is not None:
            return list(self._columns.get(name) or [None] * self.count)
        if self._table is not None:
            if name not in self._table.column_names:
                return [None] * self.count
            return list(self._table.column(name).to_pylist())
        return [_field(row, name) for row in self._rows]


def _field(row: Any, name: str) -> Any:
    if isinstance(row, Mapping):
        return row.get(name)
    return getattr(row, name, None)


def _first(values: Sequence[Any], default: str) -> str:
    return str(values[0]) if values and values[0] is not None else default


def _cell_key(options_json: Any, players: Any) -> tuple[str, int]:
    """A row's configuration: its options (canonical JSON) and player count."""
    if isinstance(options_json, Mapping):
        options_json = json.dumps(options_json, sort_keys=True)
    return (str(options_json or "{}"), int(players) if players is not None else 0)


def _cell_title(key: tuple[str, int]) -> str:
    options_json, players = key
    try:
        options = json.loads(options_json)
    except ValueError:
        options = options_json
    if isinstance(options, Mapping):
        described = " ".join(f"{name}={_plain(value)}" for name, value in sorted(options.items()))
    else:
        described = str(options)
    return f"players={players} {described}".strip()


# --- sections ---------------------------------------------------------------------------


def _header(summary: Mapping[str, Any], table: _RowColumns, title: str, game: str, kind: str) -> str:
    games = summary.get("games", table.count)
    players = summary.get("players")
    if players is None:
        counts = sorted({int(p) for p in table.column("players") if p is not None})
        players = counts[0] if len(counts) == 1 else counts
    facts: list[tuple[str, str]] = [("Game", game), ("Kind", kind)]
    if summary.get("name") is not None:
        facts.append(("Name", str(summary["name"])))
    if summary.get("mode") is not None:
        facts.append(("Mode", str(summary["mode"])))
    if summary.get("mirror") is not None:
        facts.append(("Mirrored deals", "yes" if summary["mirror"] else "no"))
    facts.append(("Players", ", ".join(map(str, players)) if isinstance(players, list) else str(players)))
    facts.append(("Games", _count(games)))
    options = summary.get("options")
    if options:
        # A study's options are its grid: option name -> the values compared.
        facts.append(("Grid" if kind == "study" else "Options", json.dumps(options, sort_keys=True, default=str)))
    headline = summary.get("headline")
    who = headline.get("who") if isinstance(headline, Mapping) else None
    if isinstance(who, Mapping):
        facts += _who_facts(who)
    items = "".join(f"<tr><th>{_esc(name)}</th><td>{_esc(value)}</td></tr>" for name, value in facts)
    return f'<header><h1>{_esc(title)}</h1>{_findings(headline)}<table class="facts">{items}</table></header>'


def _who_facts(who: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Who played, the seed, the version and the command, from the summary's headline."""
    facts: list[tuple[str, str]] = []
    seats = who.get("seats")
    if isinstance(seats, Mapping):
        for count, bots in seats.items():
            if isinstance(bots, Sequence) and not isinstance(bots, str) and bots:
                names = [str(bot) for bot in bots]
                said = f"{names[0]} in every seat" if len(set(names)) == 1 else ", ".join(names)
                facts.append((f"Bots, {count} players", said))
    participants = who.get("participants")
    if isinstance(participants, Sequence) and not isinstance(participants, str):
        facts.append(("Bots", ", ".join(str(bot) for bot in participants)))
    if who.get("filler"):
        facts.append(("Other seats", str(who["filler"])))
    for key, name in (("seed", "Seed"), ("version", "cruiselib"), ("command", "Command")):
        if who.get(key) is not None:
            facts.append((name, str(who[key])))
    return facts


def _findings(headline: Any) -> str:
    """The headline's sentences (the first lines the command prints), as a list at the top."""
    if not isinstance(headline, Mapping):
        return ""
    lines = headline.get("lines")
    if not isinstance(lines, Sequence) or isinstance(lines, str) or len(lines) < 2:
        return ""
    items = "".join(f"<li>{_esc(str(line).strip())}</li>" for line in lines[1:])
    return f'<section class="findings"><h2>Findings</h2><p>{_esc(str(lines[0]))}</p><ul>{items}</ul></section>'


def _bot_sections(summary: Mapping[str, Any]) -> list[str]:
    sections = []
    matrix = summary.get("matrix")
    if matrix:
        sections.append(_matrix_section(matrix))
    ratings = summary.get("ratings")
    if ratings and ratings.get("names"):
        sections.append(_ratings_section(ratings))
    bots = summary.get("bots")
    if bots:
        cells = _cells(summary)
        entries = _with_fair(_rate_entries(bots, "label", "bots"), _fair_of(cells[0]) if len(cells) == 1 else None)
        svg = _rates_figure([("Win share by bot", entries)], "bots")
        sections.append(
            _section(
                "Win share by bot",
                svg,
                _rates_table(entries, "Bot"),
                _RATES_NOTE,
            )
        )
    return sections


def _matrix_section(matrix: Mapping[str, Any]) -> str:
    labels = [str(label) for label in matrix.get("labels", [])]
    share = _square(matrix.get("share", matrix.get("rate")), len(labels), "matrix share")
    games = _square(matrix.get("games"), len(labels), "matrix games") if matrix.get("games") is not None else None
    values = np.array([[math.nan if v is None else float(v) for v in row] for row in share], dtype=float)

    def draw(figure: Any) -> None:
        size = len(labels)
        axes = figure.add_subplot()
        # A mesh, not an image: vector cells stay sharp at any zoom (and no embedded PNG).
        image = axes.pcolormesh(np.ma.masked_invalid(values), cmap="RdBu", vmin=0.0, vmax=1.0, edgecolors="white")
        axes.set_xticks(np.arange(size) + 0.5, labels, rotation=30, ha="right")
        axes.set_yticks(np.arange(size) + 0.5, labels)
        axes.invert_yaxis()
        axes.set_aspect("equal")
        axes.set_xlabel("opponent")
        axes.set_ylabel("bot")
        for i in range(size):
            for j in range(size):
                if not math.isnan(values[i, j]):
                    dark = abs(values[i, j] - 0.5) > 0.3
                    axes.text(
                        j + 0.5,
                        i + 0.5,
                        f"{values[i, j]:.0%}",
                        ha="center",
                        va="center",
                        color="white" if dark else "black",
                    )
        figure.colorbar(image, ax=axes, label="win share of the row's bot")

    height = min(9.0, 2.0 + 0.5 * len(labels))
    svg = _svg(draw, "matrix", width=min(_FIGURE_WIDTH, 3.5 + 0.7 * len(labels)), height=height)
    head = "".join(f"<th>{_esc(label)}</th>" for label in labels)
    body = []
    for i, label in enumerate(labels):
        cells = []
        for j in range(len(labels)):
            value = share[i][j]
            text = "" if value is None else _pct(float(value))
            if games is not None and value is not None:
                text += f" ({_count(games[i][j])})"
            cells.append(f'<td class="num">{_esc(text)}</td>')
        body.append(f"<tr><th>{_esc(label)}</th>{''.join(cells)}</tr>")
    table = f"<table><thead><tr><th>bot \\ opponent</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    return _section("Win-rate matrix", svg, table, "Each cell: the row's win share against the column (games).")


def _ratings_section(ratings: Mapping[str, Any]) -> str:
    names = [str(name) for name in ratings["names"]]
    columns = [_floats(ratings.get(key), len(names), f"ratings {key}") for key in ("values", "low", "high")]
    order = sorted(range(len(names)), key=lambda i: (columns[0][i], names[i]))
    values, low, high = ([column[i] for i in order] for column in columns)
    ordered = [names[i] for i in order]

    def draw(figure: Any) -> None:
        axes = figure.add_subplot()
        positions = np.arange(len(ordered))
        errors = np.array([np.subtract(values, low), np.subtract(high, values)])
        axes.errorbar(values, positions, xerr=errors, fmt="o", capsize=4, color="tab:blue")
        axes.set_yticks(positions, ordered)
        axes.axvline(0.0, color="grey", linewidth=0.8)
        axes.set_xlabel("rating")
        axes.grid(axis="x", alpha=0.3)

    svg = _svg(draw, "ratings", height=min(9.0, 1.2 + 0.45 * len(names)))
    rows = "".join(
        f'<tr><td>{_esc(name)}</td><td class="num">{value:.1f}</td><td class="num">{lo:.1f} to {hi:.1f}</td></tr>'
        for name, value, lo, hi in reversed(list(zip(ordered, values, low, high, strict=True)))
    )
    table = (
        f"<table><thead><tr><th>Bot</th><th>Rating</th><th>95% interval</th></tr></thead><tbody>{rows}</tbody></table>"
    )
    method = str(ratings.get("method", "")) or "Ratings"
    return _section("Ratings", svg, table, f"{method}; bars: 95% intervals.")


def _cell_sections(summary: Mapping[str, Any]) -> list[str]:
    sections = []
    for index, cell in enumerate(_cells(summary)):
        panels = []
        tables = []
        fair = _fair_of(cell)
        for key, heading, column in (
            ("seats", "Win share by seat", "Seat"),
            ("start_players", "Win share by start player", "Start player"),
        ):
            if cell.get(key):
                entries = _with_fair(_rate_entries(cell[key], "seat", key), fair)
                panels.append((heading, entries))
                tables.append(f"<h3>{_esc(heading)}</h3>{_rates_table(entries, column)}")
        if not panels:
            continue
        name = str(cell.get("name", "")) or _cell_title(_cell_key(cell.get("options"), cell.get("players")))
        svg = _rates_figure(panels, f"cell{index}")
        games = f" ({_count(cell['games'])} games)" if cell.get("games") is not None else ""
        sections.append(
            _section(
                f"Seats and start player: {name}{games}",
                svg,
                "".join(tables),
                _RATES_NOTE,
            )
        )
    return sections


def _cells(summary: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    cells = summary.get("cells")
    if cells:
        if not isinstance(cells, Sequence) or not all(isinstance(cell, Mapping) for cell in cells):
            raise InvalidOptionError("summary cells must be a list of mappings")
        return list(cells)
    if summary.get("seats") or summary.get("start_players"):
        return [
            {"name": "", **{key: summary.get(key) for key in ("seats", "start_players", "games", "options", "players")}}
        ]
    return []


def _distribution_sections(summary: Mapping[str, Any], table: _RowColumns, kind: str) -> list[str]:
    if table.count == 0:
        return []
    games = table.games() if kind == "study" else None
    if games is not None:
        try:
            return _study_distribution_sections(summary, games)
        except (TypeError, ValueError, IndexError):
            pass  # columns not of the arena's shape: read row by row below
    seats = table.column("seats")
    scores = table.column("scores")
    lengths = table.column("length")
    keys = _row_cells(summary, table)
    sections = []
    groups: list[tuple[str, dict[str, list[float]]]] = []
    if kind == "study":
        by_cell: dict[tuple[int, str], dict[str, list[float]]] = {}
        for key, row_scores in zip(keys, scores, strict=True):
            per_seat = by_cell.setdefault(key, {})
            for seat, score in enumerate(row_scores or ()):
                per_seat.setdefault(f"seat {seat}", []).append(float(score))
        groups = [(key[1], by_cell[key]) for key in sorted(by_cell)[:MAX_CELL_PLOTS]]
    else:
        per_bot: dict[str, list[float]] = {}
        for labels, row_scores in zip(seats, scores, strict=True):
            for label, score in zip(labels or (), row_scores or (), strict=False):
                per_bot.setdefault(str(label), []).append(float(score))
        groups = [("", dict(sorted(per_bot.items())))]
    for index, (name, samples) in enumerate(groups):
        if samples:
            heading = f"Score distribution: {name}" if name else "Score distribution"
            svg = _histogram_figure(samples, "score", f"scores{index}")
            sections.append(_section(heading, svg, _stats_table(samples, "Bot" if kind != "study" else "Seat"), ""))
    by_length: dict[str, list[float]] = {}
    for key, length in zip(keys, lengths, strict=True):
        if length is not None:
            by_length.setdefault(key[1] if kind == "study" else "all games", []).append(float(length))
    if by_length:
        samples = dict(list(by_length.items())[:MAX_CELL_PLOTS])
        svg = _histogram_figure(samples, "game length (actions)", "lengths")
        sections.append(_section("Game length", svg, _stats_table(by_length, "Games"), ""))
    return sections


def _study_distribution_sections(summary: Mapping[str, Any], games: Any) -> list[str]:
    """:func:`_distribution_sections` of a study's columns, read whole as numpy arrays (a study
    has millions of rows and a few cells): the same sections, the same bytes."""
    from .results import list_column, scalar_column, value_at

    names: dict[Any, str] = {}
    for cell in _cells(summary):
        if cell.get("cell") is not None and cell.get("name"):
            names[cell["cell"]] = str(cell["name"])
    cell_of = np.asarray(scalar_column(games, "cell"), dtype=np.int64)
    players_of = np.asarray(scalar_column(games, "players"), dtype=np.int64)
    lengths = np.asarray(scalar_column(games, "length"), dtype=float)
    score_values, score_offsets = list_column(games, "scores")
    score_values = np.asarray(score_values, dtype=float)
    numbers, first_rows = np.unique(cell_of, return_index=True)
    appearance = [int(numbers[i]) for i in np.argsort(first_rows, kind="stable")]
    first_of = {int(number): int(row) for number, row in zip(numbers, first_rows, strict=True)}

    def name_of(number: int) -> str:
        row = first_of[number]
        key = _cell_key(value_at(games, "options_json", row), int(players_of[row]))
        return names.get(number) or _cell_title(key)

    sections = []
    for index, number in enumerate(sorted(first_of, key=lambda n: (n, name_of(n)))[:MAX_CELL_PLOTS]):
        rows = np.flatnonzero(cell_of == number)
        starts, ends = score_offsets[rows], score_offsets[rows + 1]
        samples: dict[str, Any] = {}
        for seat in range(int((ends - starts).max()) if rows.size else 0):
            present = ends - starts > seat
            samples[f"seat {seat}"] = score_values[starts[present] + seat]
        if samples:
            svg = _histogram_figure(samples, "score", f"scores{index}")
            sections.append(_section(f"Score distribution: {name_of(number)}", svg, _stats_table(samples, "Seat"), ""))
    by_length: dict[str, Any] = {}
    for number in appearance:
        by_length.setdefault(name_of(number), []).append(lengths[cell_of == number])
    merged = {name: np.concatenate(parts) for name, parts in by_length.items()}
    if merged:
        plotted = dict(list(merged.items())[:MAX_CELL_PLOTS])
        svg = _histogram_figure(plotted, "game length (actions)", "lengths")
        sections.append(_section("Game length", svg, _stats_table(merged, "Games"), ""))
    return sections


def _row_cells(summary: Mapping[str, Any], table: _RowColumns) -> list[tuple[int, str]]:
    """Each row's cell as (order, name): by the ``cell`` column, named as the summary's cell
    of that number, else by its options and player count."""
    names: dict[Any, str] = {}
    for cell in _cells(summary):
        if cell.get("cell") is not None and cell.get("name"):
            names[cell["cell"]] = str(cell["name"])
    cells = table.column("cell")
    options = table.column("options_json")
    players = table.column("players")
    found: dict[tuple[Any, Any, Any], tuple[int, str]] = {}
    keys = []
    for number, options_json, count in zip(cells, options, players, strict=True):
        raw = (number, options_json if isinstance(options_json, str) else repr(options_json), count)
        row_cell = found.get(raw)
        if row_cell is None:  # once a cell: a study has millions of rows and a few cells
            key = _cell_key(options_json, count)
            # Cells in order of their number (else of first appearance).
            order = number if isinstance(number, int) else len(found)
            row_cell = found[raw] = (order, names.get(number) or _cell_title(key))
        keys.append(row_cell)
    return keys


def _variant_sections(summary: Mapping[str, Any]) -> list[str]:
    variants = summary.get("variants")
    if not variants:
        return []
    entries = []
    for variant in variants:
        if not isinstance(variant, Mapping):
            raise InvalidOptionError("summary variants must be a list of mappings")
        try:
            entries.append(
                (
                    str(variant.get("name", "")),
                    str(variant.get("baseline", "")),
                    str(variant.get("metric", "")),
                    float(variant["difference"]),
                    float(variant["low"]),
                    float(variant["high"]),
                    variant.get("games"),
                )
            )
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidOptionError(f"a summary variant needs numeric difference, low and high: {error}") from None

    # One panel per metric: a share and a length do not share a scale.
    by_metric: dict[str, list[tuple[str, str, str, float, float, float, Any]]] = {}
    for entry in entries:
        by_metric.setdefault(entry[2], []).append(entry)

    def draw(figure: Any) -> None:
        heights = [len(group) + 1 for group in by_metric.values()]
        axes_list = figure.subplots(len(by_metric), 1, squeeze=False, height_ratios=heights)[:, 0]
        for axes, (metric, group) in zip(axes_list, by_metric.items(), strict=True):
            scale = 100.0 if _is_share(metric) else 1.0  # shares in points, lengths in actions
            positions = np.arange(len(group))
            centre = np.array([entry[3] for entry in group]) * scale
            low = np.array([entry[4] for entry in group]) * scale
            high = np.array([entry[5] for entry in group]) * scale
            axes.errorbar(centre, positions, xerr=[centre - low, high - centre], fmt="o", capsize=4, color="tab:purple")
            axes.axvline(0.0, color="black", linewidth=1.0)
            reach = max(float(np.max(np.abs(np.concatenate([low, high])))) * 1.15, 1.0 if scale > 1 else 1e-9)
            axes.set_xlim(-reach, reach)
            axes.xaxis.set_major_locator(_tick_locator())
            axes.xaxis.set_major_formatter(_points_formatter(signed=True))
            axes.set_xlabel("percentage points" if scale > 1 else "actions")
            axes.set_yticks(positions, [f"{entry[0]} vs {entry[1]}" for entry in group])
            axes.set_ylim(len(group) - 0.5, -0.5)
            axes.set_title(f"{metric}: variant - baseline")
            axes.grid(axis="x", alpha=0.3)

    rows_drawn = len(entries) + 1.2 * len(by_metric)
    svg = _svg(draw, "variants", height=min(14.0, 0.8 + 0.45 * rows_drawn))
    rows = "".join(
        f"<tr><td>{_esc(name)}</td><td>{_esc(base)}</td><td>{_esc(metric)}</td>"
        f'<td class="num">{_difference(metric, diff)}</td>'
        f'<td class="num">{_difference(metric, lo)} to {_difference(metric, hi)}</td>'
        f'<td class="num">{_esc(_count(games)) if games is not None else ""}</td></tr>'
        for name, base, metric, diff, lo, hi, games in entries
    )
    table = (
        "<table><thead><tr><th>Variant</th><th>Baseline</th><th>Metric</th><th>Difference</th>"
        f"<th>95% interval</th><th>Games</th></tr></thead><tbody>{rows}</tbody></table>"
    )
    return [
        _section(
            "Variants on the same deals",
            svg,
            table,
            _VARIANTS_NOTE,
        )
    ]


def _is_share(metric: str) -> bool:
    return metric.endswith("share")


def _difference(metric: str, value: float) -> str:
    """A variant's difference: in points for a share, as a number otherwise (a length)."""
    return _points(value) if _is_share(metric) else ("n/a" if math.isnan(value) else f"{value:+.4g}")


# --- rates ------------------------------------------------------------------------------

_RATES_NOTE = (
    "Points: each share's distance from the fair share (the wins handed out per game, split evenly: draws "
    "left out), with its 95% Wilson interval (green: above fair, red: below)."
)
_VARIANTS_NOTE = (
    "Points: the paired difference with its 95% interval (shares in percentage points, lengths in actions)."
)

_Rate = tuple[str, float, float, float, float, Any]  # name, share, low, high, fair, games


def _rate_entries(entries: Any, name_key: str, what: str) -> list[_Rate]:
    if not isinstance(entries, Sequence) or not all(isinstance(entry, Mapping) for entry in entries):
        raise InvalidOptionError(f"summary {what} must be a list of mappings")
    rates = []
    for position, entry in enumerate(entries):
        name = entry.get(name_key, entry.get("label", position))
        share = entry.get("share", entry.get("rate"))
        try:
            rates.append(
                (
                    f"seat {name}" if name_key == "seat" else str(name),
                    math.nan if share is None else float(share),  # None: no games (a seat never started)
                    float(entry["low"]),
                    float(entry["high"]),
                    float(entry["fair"]) if entry.get("fair") is not None else math.nan,
                    entry.get("games"),
                )
            )
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidOptionError(f"summary {what} entries need numeric share, low and high: {error}") from None
    return rates


def _rates_figure(panels: Sequence[tuple[str, list[_Rate]]], salt: str) -> str:
    """Each share as its distance from the fair share, in percentage points, with its interval:
    centred on fair, so a difference of half a point shows (bars from 0% would hide it).
    Entries with no games (a seat that never started) are left out of the plot."""

    def draw(figure: Any) -> None:
        axes_list = figure.subplots(1, len(panels), squeeze=False)[0]
        for axes, (heading, entries) in zip(axes_list, panels, strict=True):
            shown = [entry for entry in entries if not math.isnan(entry[1])]
            positions = np.arange(len(shown))
            # Against the fair share where the summary gives one, else the share itself (pp).
            reference = np.array([0.0 if math.isnan(entry[4]) else entry[4] for entry in shown])
            centre = (np.array([entry[1] for entry in shown]) - reference) * 100.0
            low = (np.array([entry[2] for entry in shown]) - reference) * 100.0
            high = (np.array([entry[3] for entry in shown]) - reference) * 100.0
            against_fair = all(not math.isnan(entry[4]) for entry in shown)
            colours = [
                "tab:green" if lo > 0 else "tab:red" if hi < 0 else "tab:blue" for lo, hi in zip(low, high, strict=True)
            ]
            for y, c, lo, hi, colour in zip(positions, centre, low, high, colours, strict=True):
                axes.errorbar([c], [y], xerr=[[c - lo], [hi - c]], fmt="o", capsize=4, color=colour)
            if against_fair:
                axes.axvline(0.0, color="black", linewidth=1.0)
                reach = max(1.0, float(np.max(np.abs(np.concatenate([low, high])))) * 1.15) if shown else 1.0
                axes.set_xlim(-reach, reach)
                axes.set_xlabel("percentage points from the fair share")
            else:
                axes.set_xlabel("win share (%)")
            axes.xaxis.set_major_locator(_tick_locator())
            axes.xaxis.set_major_formatter(_points_formatter(signed=against_fair))
            axes.set_yticks(positions, [entry[0] for entry in shown])
            axes.set_ylim(len(shown) - 0.5, -0.5)
            axes.set_title(heading)
            axes.grid(axis="x", alpha=0.3)

    rows = max(max(sum(1 for entry in entries if not math.isnan(entry[1])), 1) for _, entries in panels)
    return _svg(draw, salt, height=min(9.0, 1.6 + 0.4 * rows))


def _rates_table(entries: list[_Rate], column: str) -> str:
    """The shares, their intervals and their distance from fair in points. An entry with no
    games is one line saying so, not a row of n/a."""
    shown = [entry for entry in entries if not math.isnan(entry[1])]
    never = [entry[0] for entry in entries if math.isnan(entry[1])]
    rows = "".join(
        f'<tr><td>{_esc(name)}</td><td class="num">{_pct(share)}</td><td class="num">{_pct(low)} to {_pct(high)}</td>'
        f'<td class="num">{"" if math.isnan(fair) else _pct(fair)}</td>'
        f'<td class="num">{"" if math.isnan(fair) else _points(share - fair)}</td>'
        f'<td class="num">{_esc(_count(games)) if games is not None else ""}</td></tr>'
        for name, share, low, high, fair, games in shown
    )
    table = (
        f"<table><thead><tr><th>{_esc(column)}</th><th>Win share</th><th>95% Wilson</th><th>Fair share</th>"
        f"<th>From fair</th><th>Games</th></tr></thead><tbody>{rows}</tbody></table>"
    )
    if never:
        table += f'<p class="note">No games: {_esc(", ".join(never))} (never in that place).</p>'
    return table


def _fair_of(cell: Mapping[str, Any]) -> float | None:
    """The cell's fair share with its draws left out (the headline's,
    :func:`cruiselib.arena.findings.fair_share`), or None where its seats do not say."""
    from .findings import fair_share

    seats = cell.get("seats")
    try:
        return fair_share(dict(cell)) if seats and all("wins" in seat for seat in seats) else None
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return None


def _with_fair(entries: list[_Rate], fair: float | None) -> list[_Rate]:
    if fair is None:
        return entries
    return [(name, share, low, high, fair, games) for name, share, low, high, _, games in entries]


def _edge_colour(low: float, high: float) -> str:
    """Green for an interval above fair, red below, blue where it holds fair."""
    return "tab:green" if low > 0 else "tab:red" if high < 0 else "tab:blue"


def _tick_locator() -> Any:
    from matplotlib.ticker import MaxNLocator

    # Steps of 1, 2, 2.5, 5 or 10 (times a power of ten): ticks the labels can say exactly.
    return MaxNLocator(nbins=7, steps=[1, 2, 2.5, 5, 10])


def _points_formatter(signed: bool) -> Any:
    """Tick labels in points, with as many decimals as the ticks need (2.5 is "+2.5", not "+2")."""
    from matplotlib.ticker import FuncFormatter

    def label(value: float, _position: Any) -> str:
        if abs(value) < 1e-9:
            return "0"
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return f"+{text}" if signed and value > 0 else text

    return FuncFormatter(label)


def _points(difference: float) -> str:
    """A difference of shares in percentage points."""
    return "n/a" if math.isnan(difference) else f"{difference * 100:+.1f} pp"


# --- distributions ----------------------------------------------------------------------


def _histogram_figure(samples: Mapping[str, Any], label: str, salt: str) -> str:
    every = np.concatenate([np.asarray(values, dtype=float) for values in samples.values()])
    lowest, highest = float(every.min()), float(every.max())
    if np.all(every == np.round(every)) and highest - lowest <= 60:
        # Whole numbers over a short range: one bin per value, centred on it.
        edges = np.arange(lowest - 0.5, highest + 1.5)
    else:
        edges = np.histogram_bin_edges(every, bins=min(40, max(5, int(math.sqrt(every.size)))))

    def draw(figure: Any) -> None:
        axes = figure.add_subplot()
        for name, values in samples.items():
            # Counted by numpy (matplotlib's hist is slow on long lists); a step's height is
            # the share of the samples in its bin.
            counts, _ = np.histogram(np.asarray(values, dtype=float), bins=edges)
            axes.stairs(counts / max(len(values), 1), edges, linewidth=1.6, label=name)
        axes.set_xlabel(label)
        axes.set_ylabel("share of samples")
        axes.legend(loc="upper right", fontsize="small")
        axes.grid(alpha=0.3)

    return _svg(draw, salt, height=3.6)


def _stats_table(samples: Mapping[str, Any], column: str) -> str:
    rows = []
    for name, values in samples.items():
        array = np.asarray(values, dtype=float)
        numbers = (array.mean(), array.std(), array.min(), float(np.median(array)), array.max())
        cells = "".join(f'<td class="num">{_num(float(value))}</td>' for value in numbers)
        rows.append(f'<tr><td>{_esc(name)}</td><td class="num">{_count(array.size)}</td>{cells}</tr>')
    return (
        f"<table><thead><tr><th>{_esc(column)}</th><th>Samples</th><th>Mean</th><th>Std</th><th>Min</th>"
        f"<th>Median</th><th>Max</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


# --- drawing ----------------------------------------------------------------------------


@contextmanager
def _matplotlib_settings(salt: str) -> Iterator[Any]:
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError("the arena report draws with matplotlib: pip install matplotlib") from None
    settings: dict[str, Any] = {
        "svg.hashsalt": f"cruiselib-arena-{salt}",  # fixed ids: same input, same bytes
        "svg.fonttype": "none",  # text stays text: smaller, searchable, escaped by the writer
        "text.parse_math": False,  # a "$" in a bot label is not mathtext
        "font.size": 10.0,
        "axes.titlesize": 11.0,
    }
    rc: Any = settings  # matplotlib types its keys as literals; these are checked at run time
    with matplotlib.rc_context(rc):
        yield Figure


def _svg(draw: Callable[[Any], None], salt: str, width: float = _FIGURE_WIDTH, height: float = 4.0) -> str:
    """Run ``draw`` on a new figure and return the figure as an inline ``<svg>`` element."""
    with _matplotlib_settings(salt) as figure_class:
        figure = figure_class(figsize=(width, height), layout="constrained")
        draw(figure)
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    # Drop the XML declaration and DOCTYPE: the element is inlined into HTML.
    svg = _SVG_PROLOGUE.sub("", buffer.getvalue(), count=1).strip()
    # Every figure numbers its elements from 1 ("axes_1", "patch_1"): prefix the ids and the
    # references to them, so the ids stay unique in a page of many figures.
    svg = _SVG_ID.sub(lambda match: f'{match[1]}="{salt}-{match[2]}"', svg)
    return _SVG_REFERENCE.sub(lambda match: f"{match[1]}#{salt}-{match[2]}", svg)


# --- HTML -------------------------------------------------------------------------------


def _section(heading: str, svg: str, table: str, note: str) -> str:
    caption = f'<p class="note">{_esc(note)}</p>' if note else ""
    return f"<section><h2>{_esc(heading)}</h2><figure>{svg}</figure>{caption}{table}</section>"


def _square(values: Any, size: int, what: str) -> list[list[Any]]:
    if not isinstance(values, Sequence) or len(values) != size:
        raise InvalidOptionError(f"summary {what} must be a {size} x {size} list of lists")
    for row in values:
        if not isinstance(row, Sequence) or len(row) != size:
            raise InvalidOptionError(f"summary {what} must be a {size} x {size} list of lists")
    return [list(row) for row in values]


def _floats(values: Any, size: int, what: str) -> list[float]:
    if not isinstance(values, Sequence) or len(values) != size:
        raise InvalidOptionError(f"summary {what} must be a list of {size} numbers")
    try:
        return [float(value) for value in values]
    except (TypeError, ValueError):
        raise InvalidOptionError(f"summary {what} must be a list of {size} numbers") from None


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)


def _pct(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value * 100:.1f}%"


def _num(value: float) -> str:
    if math.isnan(value):
        return "n/a"
    return f"{value:.4g}" if abs(value) < 1e5 else f"{value:,.0f}"


def _count(value: Any) -> str:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    return f"{number:,.0f}" if number == int(number) else f"{number:,.2f}"


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto;
       max-width: 1120px; padding: 16px 24px; color: #1b1b1b; background: #fff; line-height: 1.4; }}
h1 {{ font-size: 1.6em; margin: 0.3em 0; }}
h2 {{ font-size: 1.25em; margin: 1.6em 0 0.4em; border-bottom: 1px solid #ddd; padding-bottom: 4px; }}
h3 {{ font-size: 1.05em; margin: 1em 0 0.3em; }}
figure {{ margin: 0; }}
figure svg {{ display: block; max-width: 100%; height: auto; }}
table {{ border-collapse: collapse; margin: 8px 0 16px; font-size: 0.9em; }}
th, td {{ border: 1px solid #ddd; padding: 3px 8px; text-align: left; overflow-wrap: anywhere; }}
thead th {{ background: #f3f3f3; }}
td.num {{ text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }}
table.facts th {{ background: #f3f3f3; width: 8em; }}
.note {{ color: #555; font-size: 0.9em; margin: 4px 0; }}
section.findings {{ background: #f6f8fa; border-left: 4px solid #3b6ea5; padding: 4px 16px; margin: 8px 0 12px; }}
section.findings h2 {{ border: none; margin: 0.4em 0 0.2em; }}
section.findings ul {{ margin: 4px 0 8px; padding-left: 1.2em; }}
</style>
</head>
<body>
{body}
</body>
</html>
"""


def _game_title(name: str) -> str:
    """A registered game's title (its name for a game not registered here)."""
    from cruiselib._registry import game_class

    try:
        return str(game_class(name).title)
    except InvalidOptionError:  # not a registered name
        return name
