"""``summary.json``: the numbers of a run, built from its rows with
:mod:`cruiselib.arena.stats`, in the shape :mod:`cruiselib.arena.report` reads (see its
module docstring).

A *share* is a win share: a game won by ``k`` seats gives each ``1/k`` and a draw gives
nobody anything, so the shares of one game sum to at most 1. ``low`` / ``high`` are the 95%
Wilson interval of the share and ``fair`` the share of a player with no edge, ``1/players``.
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt

from . import stats
from .findings import headline
from .plan import Spec, Study, Tournament, dump_spec
from .results import Games, Rows, game_count, games_to_lists, list_column, scalar_column, value_at

__all__ = ["summarize"]


def _rate(label_key: str, label: Any, shares: float, games: int, fair: float) -> dict[str, Any]:
    low, high = stats.wilson(shares, games) if games else (0.0, 1.0)
    return {
        label_key: label,
        "games": games,
        "wins": shares,
        "share": shares / games if games else None,
        "low": low,
        "high": high,
        "fair": fair,
    }


def _percentiles(values: npt.NDArray[Any], quantiles: Sequence[float]) -> list[float]:
    """``np.percentile(values, quantiles)`` (linear interpolation), found for integers of a
    modest range by counting (a pass of ``bincount``, not a partition of a copy)."""
    if values.dtype.kind not in "iu":
        return [float(v) for v in np.percentile(values, quantiles)]
    low = int(values.min())
    span = int(values.max()) - low + 1
    if span > 4 * values.size + 1024:
        return [float(v) for v in np.percentile(values, quantiles)]
    ranked = np.cumsum(np.bincount((values - low).astype(np.intp), minlength=span))
    n = values.size
    out = []
    for q in quantiles:
        # numpy's "linear" method: the virtual index (n - 1) q, between two order statistics.
        virtual = (n - 1) * (q / 100)
        below = min(max(int(np.floor(virtual)), 0), n - 1)
        above = min(below + 1, n - 1)
        gamma = virtual - below
        a = float(low + int(np.searchsorted(ranked, below, side="right")))
        b = float(low + int(np.searchsorted(ranked, above, side="right")))
        out.append(float(b - (b - a) * (1 - gamma) if gamma >= 0.5 else a + (b - a) * gamma))
    return out


def _distribution(values: npt.NDArray[Any]) -> dict[str, float | None]:
    if values.size == 0:
        return {"mean": None, "std": None, "min": None, "p10": None, "median": None, "p90": None, "max": None}
    p10, median, p90 = _percentiles(values, (10, 50, 90))
    return {
        "mean": float(values.mean(dtype=np.float64)),
        "std": float(values.std(dtype=np.float64)),
        "min": float(values.min()),
        "p10": p10,
        "median": median,
        "p90": p90,
        "max": float(values.max()),
    }


def _starter_shares(shares: npt.NDArray[np.float64], start: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
    """Each game's share of the seat that started it (``shares[g, start[g]]``), picked
    without an index array of the games."""
    if shares.shape[1] > 32:  # past np.choose's limit
        return np.asarray(shares[np.arange(shares.shape[0]), start.astype(np.intp)], dtype=np.float64)
    return np.asarray(np.choose(start, shares.T), dtype=np.float64)


def _seat_sections(
    shares: npt.NDArray[np.float64],
    start: npt.NDArray[np.intp],
    players: int,
    starter_shares: npt.NDArray[np.float64] | None = None,
) -> dict[str, Any]:
    """Per seat and per start seat win shares of one configuration's games
    (``starter_shares``: each game's share of its start seat, if already at hand)."""
    fair = 1.0 / players
    games = shares.shape[0]
    if starter_shares is None:
        starter_shares = _starter_shares(shares, start)
    seat_sums = shares.sum(axis=0)
    start_sums = np.bincount(start, weights=starter_shares, minlength=players)
    start_games = np.bincount(start, minlength=players)
    seats = [_rate("seat", p, float(seat_sums[p]), games, fair) for p in range(players)]
    starters = [_rate("seat", p, float(start_sums[p]), int(start_games[p]), fair) for p in range(players)]
    return {"seats": seats, "start_players": starters}


def _cell_name(options: dict[str, Any], players: int) -> str:
    parts = [f"players={players}"]
    parts += [f"{key}={json.dumps(value)}" for key, value in sorted(options.items()) if key != "players"]
    return " ".join(parts)


def summarize(spec: Spec, rows: Games, command: str | None = None) -> dict[str, Any]:
    """The summary of a run's rows (:data:`~cruiselib.arena.results.Games`, all of them, in
    row order), its ``headline`` (:func:`cruiselib.arena.findings.headline`) naming
    ``command``, the command line that ran it (None from Python)."""
    summary = _summarize(spec, rows)
    summary["headline"] = headline(spec, summary, command)
    return summary


def _summarize(spec: Spec, rows: Games) -> dict[str, Any]:
    header: dict[str, Any] = {
        "kind": "tournament" if isinstance(spec, Tournament) else "study",
        "name": spec.name,
        "game": spec.game,
        "games": game_count(rows),
        "spec": msgspec.json.decode(dump_spec(spec)),
    }
    if isinstance(spec, Tournament):
        # Bot games are few (each takes milliseconds): plain lists will do.
        return header | _tournament(spec, games_to_lists(rows))
    return header | _study(spec, rows)


def _tournament(spec: Tournament, rows: Rows) -> dict[str, Any]:
    players = int(rows["players"][0]) if rows["players"] else spec.players or 2
    shares = stats.win_shares(rows["winners"], players)
    seats: list[list[str]] = rows["seats"]
    labels = [bot.display for bot in spec.participants]
    index = {label: i for i, label in enumerate(labels)}
    fair = 1.0 / players
    bot_share = np.zeros(len(labels))
    bot_games = np.zeros(len(labels), dtype=np.int64)
    pair_share = np.zeros((len(labels), len(labels)))
    pair_games = np.zeros((len(labels), len(labels)), dtype=np.int64)
    scores_by_bot: dict[str, list[int]] = defaultdict(list)
    pairwise_wins = np.zeros((len(labels), len(labels)))
    for g, seating in enumerate(seats):
        present = [(index[label], seat) for seat, label in enumerate(seating) if label in index]
        for i, seat in present:
            bot_share[i] += shares[g, seat]
            bot_games[i] += 1
            for j, _ in present:
                if i != j:
                    pair_share[i, j] += shares[g, seat]
                    pair_games[i, j] += 1
                    if players == 2:  # draws and shared wins count half to each
                        pairwise_wins[i, j] += shares[g, seat] if shares[g].sum() else 0.5
        for seat, label in enumerate(seating):
            scores_by_bot[label].append(rows["scores"][g][seat])
    bots = [_rate("label", label, float(bot_share[i]), int(bot_games[i]), fair) for i, label in enumerate(labels)]
    with np.errstate(invalid="ignore", divide="ignore"):
        matrix_share = np.where(pair_games > 0, pair_share / np.maximum(pair_games, 1), np.nan)
    matrix = {
        "labels": labels,
        "share": [[None if np.isnan(v) else float(v) for v in row] for row in matrix_share],
        "games": pair_games.tolist(),
    }
    options = json.loads(rows["options_json"][0]) if rows["options_json"] else dict(spec.options)
    cell = {
        "name": _cell_name(options, players),
        "options": options,
        "players": players,
        "games": len(seats),
        **_seat_sections(shares, np.asarray(rows["start_player"], dtype=np.intp), players),
        "length": _distribution(np.asarray(rows["length"], dtype=np.float64)),
    }
    return {
        "mode": spec.mode,
        "options": options,
        "players": players,
        "mirror": spec.mirror,
        "bots": bots,
        "matrix": matrix,
        "ratings": _ratings(players, labels, pairwise_wins, seats, shares),
        "cells": [cell],
        "scores": {
            label: _distribution(np.asarray(values, dtype=np.float64)) for label, values in scores_by_bot.items()
        },
        "length": cell["length"],
    }


def _ratings(
    players: int,
    labels: list[str],
    pairwise_wins: npt.NDArray[np.float64],
    seats: list[list[str]],
    shares: npt.NDArray[np.float64],
) -> dict[str, Any] | None:
    """Bradley-Terry on the pairwise results at two seats; else Plackett-Luce on the games
    (winners ranked first, the rest tied second), filler bots included."""
    if not seats:
        return None
    if players == 2:
        found = msgspec.to_builtins(stats.bradley_terry(pairwise_wins, names=labels))
        method = "Bradley-Terry (Elo scale, mean 0)"
    else:
        games = [
            (seating, [0 if shares[g, seat] > 0 else 1 for seat in range(players)]) for g, seating in enumerate(seats)
        ]
        found = msgspec.to_builtins(stats.multiplayer_ratings(games))
        method = "Plackett-Luce (openskill)"
    return {"method": method, **found}


def _cell_groups(cell_of: npt.NDArray[Any]) -> list[tuple[int, slice | npt.NDArray[np.intp]]]:
    """Each cell with its rows: a slice when the cells come in runs (a run's rows are sorted
    by job, and a job is one cell: the usual case), else the row positions."""
    if cell_of.size == 0:
        return []
    if bool(np.all(cell_of[1:] >= cell_of[:-1])):
        cuts = [0, *(np.flatnonzero(cell_of[1:] != cell_of[:-1]) + 1).tolist(), int(cell_of.size)]
        return [(int(cell_of[lo]), slice(lo, hi)) for lo, hi in itertools.pairwise(cuts)]
    order = np.argsort(cell_of, kind="stable")
    ordered = cell_of[order]
    cuts = [0, *(np.flatnonzero(ordered[1:] != ordered[:-1]) + 1).tolist(), int(ordered.size)]
    return [(int(ordered[lo]), order[lo:hi]) for lo, hi in itertools.pairwise(cuts)]


def _seat_block(
    values: npt.NDArray[Any], offsets: npt.NDArray[np.int64], rows: slice | npt.NDArray[np.intp], players: int
) -> npt.NDArray[Any]:
    """The per-seat values of ``rows`` as a (games, players) array: a view of a run of rows,
    else gathered."""
    if isinstance(rows, slice):
        lo, hi = int(offsets[rows.start]), int(offsets[rows.stop])
        if hi - lo == (rows.stop - rows.start) * players:
            return values[lo:hi].reshape(-1, players)
        rows = np.arange(rows.start, rows.stop)
    gathered: npt.NDArray[Any] = values[offsets[rows][:, None] + np.arange(players)]
    return gathered


def _study(spec: Study, games: Games) -> dict[str, Any]:
    # Whole-column arithmetic on views of the columns: a study of in-core games has
    # millions of rows, and its cells come in runs.
    cell_of = scalar_column(games, "cell")
    players_of = scalar_column(games, "players")
    start_of = scalar_column(games, "start_player")
    length_of = scalar_column(games, "length")
    deal_of = scalar_column(games, "deal")
    score_values, score_offsets = list_column(games, "scores")
    winner_values, winner_offsets = list_column(games, "winners")
    # Each seat's win share, aligned with score_values: a game won by k seats gives each 1/k.
    # (Few temporaries: each is millions of values.)
    winner_counts = np.diff(winner_offsets)
    share_values = np.zeros(len(score_values), dtype=np.float64)
    if winner_values.size:
        per_winner = 1.0 / np.maximum(winner_counts, 1)
        won_at = np.repeat(score_offsets[:-1], winner_counts)
        won_at += winner_values
        share_values[won_at] = np.repeat(per_winner, winner_counts)
    cells: list[dict[str, Any]] = []
    outcomes: dict[int, dict[str, npt.NDArray[Any]]] = {}
    deals: dict[int, npt.NDArray[np.int64]] = {}
    for cell, rows in _cell_groups(cell_of):
        first = rows.start if isinstance(rows, slice) else int(rows[0])
        players = int(players_of[first])
        options = json.loads(value_at(games, "options_json", first))
        shares = _seat_block(share_values, score_offsets, rows, players)
        scores = _seat_block(score_values, score_offsets, rows, players)
        start = start_of[rows]
        length = length_of[rows]
        games_here = len(start)
        starter_shares = _starter_shares(shares, start)
        cells.append(
            {
                "cell": cell,
                "name": _cell_name(options, players),
                "options": options,
                "players": players,
                "games": games_here,
                **_seat_sections(shares, start, players, starter_shares),
                "draws": float(np.count_nonzero(winner_counts[rows] == 0) / games_here),
                "length": _distribution(length),
                "scores": [_distribution(scores[:, p]) for p in range(players)],
            }
        )
        deals[cell] = deal_of[rows]
        outcomes[cell] = {
            "seat 0 win share": shares[:, 0],
            "start player win share": starter_shares,
            "length": length,
        }
    return {
        "options": dict(spec.grid),
        "players": sorted({cell["players"] for cell in cells}),
        "cells": cells,
        "variants": _variants(spec, cells, outcomes, deals),
    }


def _variants(
    spec: Study,
    cells: list[dict[str, Any]],
    outcomes: dict[int, dict[str, npt.NDArray[Any]]],
    deals: dict[int, npt.NDArray[np.int64]],
) -> list[dict[str, Any]]:
    """Each cell against the first cell of its player count, paired on the same deals (a
    paired study only: else the deals differ and a paired difference means nothing)."""
    if not spec.paired:
        return []
    baselines: dict[int, dict[str, Any]] = {}
    out = []
    for cell in cells:
        base = baselines.setdefault(cell["players"], cell)
        if base is cell:
            continue
        a, b = cell["cell"], base["cell"]
        if len(deals[a]) < 2 or not np.array_equal(deals[a], deals[b]):
            continue
        for metric, values in outcomes[a].items():
            estimate = msgspec.to_builtins(
                stats.paired_difference(values.astype(np.float64), outcomes[b][metric].astype(np.float64))
            )
            out.append(
                {
                    "name": cell["name"],
                    "baseline": base["name"],
                    "metric": metric,
                    "difference": estimate["value"],
                    "low": estimate["low"],
                    "high": estimate["high"],
                    "games": cell["games"],
                }
            )
    return out
