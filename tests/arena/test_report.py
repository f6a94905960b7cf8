"""The arena's HTML report: one self-contained file of plots and tables, escaped, reproducible."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import cruiselib

pytest.importorskip("matplotlib")

from cruiselib._registry import game_class
from cruiselib.arena.report import html_report
from cruiselib.errors import InvalidOptionError
from tests.support import ANY_GAME, player_counts

HOSTILE = "<script>alert('x')</script>"


def _rate(name_key: str, name: Any, share: float, fair: float, games: int = 40) -> dict[str, Any]:
    return {name_key: name, "games": games, "share": share, "low": share - 0.1, "high": share + 0.1, "fair": fair}


def tournament_rows(labels: list[str]) -> list[dict[str, Any]]:
    """Two-seat games of every ordered pair of ``labels``, scores and lengths varying by game."""
    rows = []
    for job, (a, b) in enumerate((a, b) for a in labels for b in labels if a != b):
        for game in range(10):
            winner = game % 3 % 2
            rows.append(
                {
                    "study": "t",
                    "job": job,
                    "game": ANY_GAME,
                    "options_json": "{}",
                    "players": 2,
                    "deal_seed": game,
                    "mirror": 0,
                    "seats": [a, b],
                    "start_player": game % 2,
                    "scores": [10 + game - 3 * winner, 8 + 2 * winner],
                    "winners": [winner],
                    "length": 20 + game,
                    "seconds": 0.01,
                }
            )
    return rows


def tournament_summary(labels: list[str]) -> dict[str, Any]:
    size = len(labels)
    return {
        "kind": "tournament",
        "game": ANY_GAME,
        "options": {"variant": HOSTILE},
        "players": 2,
        "games": 10 * size * (size - 1),
        "mode": "round_robin",
        "bots": [_rate("label", label, 0.3 + 0.2 * i, 0.5) for i, label in enumerate(labels)],
        "matrix": {
            "labels": labels,
            "share": [[None if i == j else 0.5 + 0.1 * (i - j) for j in range(size)] for i in range(size)],
            "games": [[0 if i == j else 20 for j in range(size)] for i in range(size)],
        },
        "ratings": {
            "method": "Bradley-Terry (Elo scale)",
            "names": labels,
            "values": [-50.0 + 50 * i for i in range(size)],
            "low": [-120.0 + 50 * i for i in range(size)],
            "high": [20.0 + 50 * i for i in range(size)],
        },
        "cells": [
            {
                "name": "players=2",
                "players": 2,
                "games": 10 * size * (size - 1),
                "seats": [_rate("seat", 0, 0.55, 0.5), _rate("seat", 1, 0.45, 0.5)],
                "start_players": [_rate("seat", 0, 0.6, 0.5), _rate("seat", 1, 0.4, 0.5)],
            }
        ],
    }


def study_rows() -> list[dict[str, Any]]:
    rows = []
    for players, options in ((2, {"ships": 3}), (3, {"ships": 4})):
        for game in range(30):
            rows.append(
                {
                    "seats": ["random"] * players,
                    "options_json": json.dumps(options),
                    "players": players,
                    "scores": [float(game % (seat + 3)) for seat in range(players)],
                    "winners": [game % players],
                    "length": 40 + game % 7,
                }
            )
    return rows


def study_summary() -> dict[str, Any]:
    return {
        "kind": "study",
        "game": ANY_GAME,
        "players": [2, 3],
        "games": 60,
        "cells": [
            {
                "name": "players=2 ships=3",
                "players": 2,
                "games": 30,
                "seats": [_rate("seat", s, 0.5, 0.5, 30) for s in range(2)],
                "start_players": [_rate("seat", s, 0.5, 0.5, 30) for s in range(2)],
            },
            {
                "name": "players=3 ships=4",
                "players": 3,
                "games": 30,
                "seats": [_rate("seat", s, 0.33, 1 / 3, 30) for s in range(3)],
            },
        ],
        "variants": [
            {
                "name": "ships=4",
                "baseline": "ships=3",
                "metric": "seat 0 win share",
                "difference": 0.03,
                "low": -0.01,
                "high": 0.07,
                "games": 30,
            },
            {
                "name": "ships=4",
                "baseline": "ships=3",
                "metric": "length",
                "difference": -2.5,
                "low": -4.0,
                "high": -1.0,
                "games": 30,
            },
        ],
    }


LABELS = ["mcts", "greedy", HOSTILE, "$x^2$ & co"]


def test_tournament_report_has_every_plot_and_table(tmp_path: Path) -> None:
    path = html_report(tournament_rows(LABELS), tournament_summary(LABELS), tmp_path / "report.html")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    for heading in (
        "Win-rate matrix",
        "Ratings",
        "Win share by bot",
        "Seats and start player: players=2",
        "Score distribution",
        "Game length",
    ):
        assert f"<h2>{heading}" in text
    # A plot per section (matrix, ratings, bots, seats, scores, lengths), each followed by its table.
    assert text.count("<svg") == 6
    assert text.count("<table") >= 7
    assert "Bradley-Terry (Elo scale)" in text
    # Ratings best first, to one decimal.
    assert '<tbody><tr><td>$x^2$ &amp; co</td><td class="num">100.0</td><td class="num">30.0 to 170.0</td>' in text
    assert "55.0%" in text  # seat 0's share in the seats table
    assert "Variants" not in text  # no variants in a tournament summary


def test_report_is_self_contained(tmp_path: Path) -> None:
    text = html_report(tournament_rows(LABELS), tournament_summary(LABELS), tmp_path / "r.html").read_text()
    assert not re.search(r"<(script|link|img|iframe)\b", text, re.IGNORECASE)
    assert not re.search(r"\bsrc\s*=", text, re.IGNORECASE)
    # Links only within the page (an SVG element reusing another's shape) or inline data
    # (the colour bar's gradient).
    targets = re.findall(r'href="([^"]*)"', text)
    assert targets
    assert all(target.startswith(("#", "data:image/png;base64,")) for target in targets)
    assert "@import" not in text
    assert "url(" not in text.replace("url(#", "")  # only references inside an inline SVG


def test_hostile_labels_are_escaped(tmp_path: Path) -> None:
    text = html_report(tournament_rows(LABELS), tournament_summary(LABELS), tmp_path / "r.html").read_text()
    assert "<script" not in text.lower()
    assert "&lt;script&gt;" in text  # shown, in the tables and in the plots' text
    assert text.count("&lt;script&gt;") > 5
    assert "$x^2$ &amp; co" in text  # mathtext off: the label is drawn as written


def test_hostile_title_is_escaped(tmp_path: Path) -> None:
    text = html_report([], {"game": ANY_GAME}, tmp_path / "r.html", title=HOSTILE).read_text()
    assert "<script" not in text.lower()
    assert "<title>&lt;script&gt;" in text


def test_same_input_gives_the_same_bytes(tmp_path: Path) -> None:
    first = html_report(tournament_rows(LABELS), tournament_summary(LABELS), tmp_path / "a.html").read_bytes()
    second = html_report(tournament_rows(LABELS), tournament_summary(LABELS), tmp_path / "b.html").read_bytes()
    assert first == second
    other = tournament_summary(LABELS)
    other["bots"][0]["share"] = 0.31
    third = html_report(tournament_rows(LABELS), other, tmp_path / "c.html").read_bytes()
    assert third != first


def test_no_date_in_the_report(tmp_path: Path) -> None:
    text = html_report(study_rows(), study_summary(), tmp_path / "r.html").read_text()
    assert not re.search(r"\b20\d\d-\d\d-\d\d", text)
    assert "<dc:date>" not in text


def test_plots_have_unique_ids(tmp_path: Path) -> None:
    text = html_report(study_rows(), study_summary(), tmp_path / "r.html").read_text()
    ids = re.findall(r'\bid="([^"]+)"', text)
    assert len(ids) == len(set(ids))


def test_study_report_has_cells_distributions_and_variants(tmp_path: Path) -> None:
    text = html_report(study_rows(), study_summary(), tmp_path / "r.html").read_text()
    assert f"<h1>{game_class(ANY_GAME).title} study</h1>" in text
    assert "<h2>Seats and start player: players=2 ships=3 (30 games)" in text
    assert "<h2>Seats and start player: players=3 ships=4 (30 games)" in text
    assert "<h2>Score distribution: players=2 ships=3" in text
    assert "<h2>Score distribution: players=3 ships=4" in text
    assert "<h2>Variants on the same deals" in text
    assert "seat 2" in text  # per-seat histograms of the three-player cell
    # Two cells (two panels, one panel), two score plots, one length plot, one variants plot.
    assert text.count("<svg") == 6
    assert "Win-rate matrix" not in text


def test_a_pyarrow_table_of_rows_gives_the_same_report(tmp_path: Path) -> None:
    pyarrow = pytest.importorskip("pyarrow")
    rows = tournament_rows(LABELS)
    from_dicts = html_report(rows, tournament_summary(LABELS), tmp_path / "a.html").read_bytes()
    from_table = html_report(pyarrow.Table.from_pylist(rows), tournament_summary(LABELS), tmp_path / "b.html")
    assert from_table.read_bytes() == from_dicts


def test_top_level_seats_are_read_as_one_cell(tmp_path: Path) -> None:
    summary = {"game": ANY_GAME, "seats": [_rate("seat", 0, 0.7, 0.5), _rate("seat", 1, 0.3, 0.5)]}
    text = html_report([], summary, tmp_path / "r.html").read_text()
    assert "Win share by seat" in text
    assert "70.0%" in text


@pytest.mark.parametrize(
    ("summary", "message"),
    [
        ([], "summary must be a mapping"),
        ({"matrix": {"labels": ["a", "b"], "share": [[None, 0.5]]}}, "2 x 2"),
        ({"ratings": {"names": ["a"], "values": [1.0], "low": [0.0]}}, "ratings high"),
        ({"bots": [{"label": "a", "share": "most"}]}, "numeric share"),
        ({"variants": [{"name": "v", "difference": 0.1}]}, "difference, low and high"),
        ({"cells": ["players=2"]}, "cells must be a list of mappings"),
    ],
)
def test_bad_summaries_are_refused(tmp_path: Path, summary: Any, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        html_report([], summary, tmp_path / "r.html")


def test_bad_rows_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidOptionError, match="rows must be"):
        html_report(42, {}, tmp_path / "r.html")


def test_row_columns_give_the_same_report_as_row_mappings(tmp_path: Path) -> None:
    rows = tournament_rows(LABELS)
    columns = {name: [row[name] for row in rows] for name in rows[0]}
    from_rows = html_report(rows, tournament_summary(LABELS), tmp_path / "a.html").read_bytes()
    assert html_report(columns, tournament_summary(LABELS), tmp_path / "b.html").read_bytes() == from_rows
    with pytest.raises(InvalidOptionError, match="equal lengths"):
        html_report({"length": [1, 2], "players": [2]}, {}, tmp_path / "c.html")


def test_a_share_of_no_games_is_said_once_not_drawn_as_a_row(tmp_path: Path) -> None:
    never = {"seat": 1, "games": 0, "share": None, "low": 0.0, "high": 1.0, "fair": 0.5}
    summary = {"game": ANY_GAME, "start_players": [_rate("seat", 0, 0.5, 0.5), never]}
    text = html_report([], summary, tmp_path / "r.html").read_text()
    assert "<td>seat 1</td>" not in text  # no row of n/a, 0-100%
    assert "No games: seat 1 (never in that place)." in text
    assert "<td>seat 0</td>" in text


def test_shares_are_drawn_around_the_fair_share_in_points(tmp_path: Path) -> None:
    """A 0.5-point edge shows: the axis is centred on fair, ticks are points said exactly."""
    seats = [
        {"seat": 0, "games": 100_000, "share": 0.5050, "low": 0.5019, "high": 0.5081, "fair": 0.5},
        {"seat": 1, "games": 100_000, "share": 0.4950, "low": 0.4919, "high": 0.4981, "fair": 0.5},
    ]
    text = html_report([], {"game": ANY_GAME, "seats": seats}, tmp_path / "r.html").read_text()
    assert "percentage points from the fair share" in text
    assert '<td class="num">+0.5 pp</td>' in text and '<td class="num">-0.5 pp</td>' in text
    ticks = [t for t in re.findall(r"<text[^>]*>([^<]*)</text>", text) if re.fullmatch(r"[+-]?[\d.]+", t)]
    assert "+0.5" in ticks or "+0.25" in ticks, ticks
    assert all(abs(float(tick)) < 1.5 for tick in ticks), ticks


def test_variant_shares_are_in_points_and_lengths_in_actions(tmp_path: Path) -> None:
    variants = [
        {
            "name": "b",
            "baseline": "a",
            "metric": "start player win share",
            "difference": 0.025,
            "low": 0.01,
            "high": 0.04,
        },
        {"name": "b", "baseline": "a", "metric": "length", "difference": 7.4, "low": 7.3, "high": 7.5},
    ]
    text = html_report([], {"game": ANY_GAME, "variants": variants}, tmp_path / "r.html").read_text()
    assert "+2.5 pp" in text and "+1.0 pp to +4.0 pp" in text
    assert "+7.4</td>" in text


def test_study_cells_take_the_summarys_names(tmp_path: Path) -> None:
    rows = study_rows()
    for row in rows:
        row["cell"] = 7 if row["players"] == 2 else 3
    summary = study_summary()
    summary["cells"][0]["cell"], summary["cells"][0]["name"] = 7, "two seats"
    summary["cells"][1]["cell"], summary["cells"][1]["name"] = 3, "three seats"
    text = html_report(rows, summary, tmp_path / "r.html").read_text()
    # Histograms in cell order (3 before 7), under the summary's names.
    assert text.index("<h2>Score distribution: three seats") < text.index("<h2>Score distribution: two seats")


def test_variants_get_a_panel_per_metric(tmp_path: Path) -> None:
    text = html_report(study_rows(), study_summary(), tmp_path / "r.html").read_text()
    assert "seat 0 win share: variant - baseline" in text
    assert "length: variant - baseline" in text


@pytest.mark.parametrize("kind", ["tournament", "study"])
def test_the_report_of_a_real_run(tmp_path: Path, kind: str) -> None:
    from cruiselib.arena.plan import BotSpec, Study, Tournament
    from cruiselib.arena.runner import run

    spec: Tournament | Study
    if kind == "tournament":
        spec = Tournament(
            game=ANY_GAME, participants=(BotSpec("random"), BotSpec("greedy", label=HOSTILE)), games=4, seed=1
        )
    else:
        spec = Study(game=ANY_GAME, grid={}, games=200, seed=1, players=(2,))
    result = run(spec, out_dir=tmp_path / "run", backend="serial", progress=False)
    # As the runner writes it: summary.json read back.
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    text = html_report(result.rows, summary, tmp_path / "r.html").read_text()
    assert "<h2>Seats and start player" in text
    assert "<h2>Score distribution" in text
    assert "<h2>Game length" in text
    assert "<script" not in text.lower()
    if kind == "tournament":
        assert "<h2>Win-rate matrix" in text
        assert "<h2>Ratings" in text


def test_distribution_tables_hold_the_rows_numbers(tmp_path: Path) -> None:
    rows = [
        {"seats": ["a", "b"], "scores": [score, 10], "winners": [0], "length": 30 + score, "players": 2}
        for score in (1, 2, 3, 6)
    ]
    text = html_report(rows, {"game": ANY_GAME}, tmp_path / "r.html").read_text()
    numbers = '<td class="num">4</td><td class="num">3</td><td class="num">1.871</td>'
    assert f"<td>a</td>{numbers}" in text  # samples, mean, std
    assert '<td class="num">1</td><td class="num">2.5</td><td class="num">6</td></tr>' in text  # min, median, max
    assert '<td>all games</td><td class="num">4</td><td class="num">33</td>' in text


def test_a_study_reads_its_columns_whole_with_the_same_bytes(tmp_path: Path) -> None:
    """A study's distributions are read from whole numpy columns (a study has millions of rows)
    and give the same report, byte for byte, as the same games read row by row."""
    from cruiselib.arena.results import games_to_lists
    from cruiselib.arena.runner import run

    # A game of several player counts: cells of different widths of the scores lists.
    name = next(game for game in cruiselib.games() if len(player_counts(game)) > 1)
    spec = {"kind": "study", "game": name, "players": list(player_counts(name)[:2]), "games": 300, "seed": 1}
    result = run(spec, None, backend="serial", progress=False)
    whole = html_report(result.rows, result.summary, tmp_path / "whole.html").read_bytes()
    assert html_report(games_to_lists(result.rows), result.summary, tmp_path / "columns.html").read_bytes() == whole
    assert html_report(result.games(), result.summary, tmp_path / "rows.html").read_bytes() == whole
