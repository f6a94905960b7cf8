"""``summary.json``: the numbers of a run, built from its rows with
:mod:`cruiselib.arena.stats`, in the shape :mod:`cruiselib.arena.report` reads (see its
module docstring).

A *share* is a win share: a game won by ``k`` seats gives each ``1/k`` and a draw gives
nobody anything, so the shares of one game sum to at most 1. ``low`` / ``high`` are the 95%
Wilson interval of the share and ``fair`` the share of a player with no edge, ``1/players``.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt

from . import stats
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


def _distribution(values: npt.NDArray[Any]) -> dict[str, float | None]:
    if values.size == 0:
        return {"mean": None, "std": None, "min": None, "p10": None, "median": None, "p90": None, "max": None}
    p10, median, p90 = np.percentile(values, [10, 50, 90])
    return {
        "mean": float(values.mean()),
        "std": float(values.std()),
        "min": float(values.min()),
        "p10": float(p10),
        "median": float(median),
        "p90": float(p90),
        "max": float(values.max()),
    }


def _seat_sections(shares: npt.NDArray[np.float64], start: npt.NDArray[np.int64], players: int) -> dict[str, Any]:
    """Per seat and per start seat win shares of one configuration's games."""
    fair = 1.0 / players
    games = shares.shape[0]
    seats = [_rate("seat", p, float(shares[:, p].sum()), games, fair) for p in range(players)]
    starters = []
    for p in range(players):
        mask = start == p
        starters.append(_rate("seat", p, float(shares[mask, p].sum()), int(mask.sum()), fair))
    return {"seats": seats, "start_players": starters}


def _cell_name(options: dict[str, Any], players: int) -> str:
    parts = [f"players={players}"]
    parts += [f"{key}={json.dumps(value)}" for key, value in sorted(options.items()) if key != "players"]
    return " ".join(parts)


def summarize(spec: Spec, rows: Games) -> dict[str, Any]:
    """The summary of a run's rows (:data:`~cruiselib.arena.results.Games`, all of them, in
    row order)."""
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
        **_seat_sections(shares, np.asarray(rows["start_player"], dtype=np.int64), players),
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


def _study(spec: Study, games: Games) -> dict[str, Any]:
    # Whole-column arithmetic: a study of in-core games has millions of rows.
    cell_of = scalar_column(games, "cell")
    players_of = scalar_column(games, "players")
    start_of = scalar_column(games, "start_player").astype(np.int64)
    length_of = scalar_column(games, "length").astype(np.float64)
    deal_of = scalar_column(games, "deal").astype(np.int64)
    score_values, score_offsets = list_column(games, "scores")
    winner_values, winner_offsets = list_column(games, "winners")
    # Each seat's win share, aligned with score_values: a game won by k seats gives each 1/k.
    winner_counts = np.diff(winner_offsets)
    won_rows = np.repeat(np.arange(len(cell_of)), winner_counts)
    share_values = np.zeros(len(score_values), dtype=np.float64)
    share_values[score_offsets[won_rows] + winner_values.astype(np.int64)] = 1.0 / winner_counts[won_rows]
    cells: list[dict[str, Any]] = []
    outcomes: dict[int, dict[str, npt.NDArray[np.float64]]] = {}
    deals: dict[int, npt.NDArray[np.int64]] = {}
    for cell in np.unique(cell_of).tolist():
        positions = np.flatnonzero(cell_of == cell)
        first = int(positions[0])
        players = int(players_of[first])
        options = json.loads(value_at(games, "options_json", first))
        seat_index = score_offsets[positions][:, None] + np.arange(players)
        shares = share_values[seat_index]
        scores = score_values[seat_index].astype(np.float64)
        start = start_of[positions]
        length = length_of[positions]
        cells.append(
            {
                "cell": cell,
                "name": _cell_name(options, players),
                "options": options,
                "players": players,
                "games": len(positions),
                **_seat_sections(shares, start, players),
                "draws": float((shares.sum(axis=1) == 0).mean()),
                "length": _distribution(length),
                "scores": [_distribution(scores[:, p]) for p in range(players)],
            }
        )
        deals[cell] = deal_of[positions]
        outcomes[cell] = {
            "seat 0 win share": shares[:, 0],
            "start player win share": shares[np.arange(len(positions)), start],
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
    outcomes: dict[int, dict[str, npt.NDArray[np.float64]]],
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
            estimate = msgspec.to_builtins(stats.paired_difference(values, outcomes[b][metric]))
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
