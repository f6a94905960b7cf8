"""The headline of a run (cruiselib.arena.findings): each verdict follows from its interval,
the fair share allows for draws, the numbers are the summary's in percentage points, and the
command, the summary and the report lead with it, naming who played."""

from __future__ import annotations

import math
from typing import Any

import pytest

import cruiselib
from cruiselib.arena.findings import RESOLUTION_PP, fair_share, games_to_resolve, headline
from cruiselib.arena.plan import BotSpec, Study, Tournament
from cruiselib.arena.runner import run
from cruiselib.arena.stats import wilson
from tests.support import ANY_GAME


def rate(seat: int, wins: float, games: int, fair: float) -> dict[str, Any]:
    low, high = wilson(wins, games)
    return {"seat": seat, "games": games, "wins": wins, "share": wins / games, "low": low, "high": high, "fair": fair}


def cell(seat_wins: list[float], start_wins: list[float], start_games: list[int], name: str = "c") -> dict[str, Any]:
    games = sum(start_games)
    fair = 1 / len(seat_wins)
    return {
        "cell": 0,
        "name": name,
        "players": len(seat_wins),
        "games": games,
        "seats": [rate(p, w, games, fair) for p, w in enumerate(seat_wins)],
        "start_players": [
            rate(p, w, g, fair) if g else {"seat": p, "games": 0, "wins": 0.0, "share": None, "fair": fair}
            for p, (w, g) in enumerate(zip(start_wins, start_games, strict=True))
        ],
    }


def study_summary(*cells: dict[str, Any], variants: tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
    return {"games": sum(c["games"] for c in cells), "players": [2], "cells": list(cells), "variants": list(variants)}


SPEC = Study(game=ANY_GAME, players=(2,), bots=(BotSpec("rules"),), seed=5)


def finding(summary: dict[str, Any], subject: str) -> dict[str, Any]:
    return next(f for f in headline(SPEC, summary)["findings"] if f["subject"] == subject)


def test_the_start_player_pools_every_seat_that_started() -> None:
    # Seat 0 started 600 games and won 360, seat 1 started 400 and won 260: 620 of 1,000.
    summary = study_summary(cell([360 + 140, 260 + 240], [360, 260], [600, 400]))
    start = finding(summary, "start player")
    low, high = wilson(620, 1000)
    assert start["share"] == pytest.approx(0.62)
    assert start["difference_pp"] == pytest.approx(12.0)
    assert (start["low_pp"], start["high_pp"]) == pytest.approx((100 * (low - 0.5), 100 * (high - 0.5)))
    assert start["verdict"] == "an advantage"


def test_each_verdict_follows_from_its_interval() -> None:
    behind = finding(study_summary(cell([450, 550], [450, 0], [1000, 0])), "start player")
    assert behind["high_pp"] < 0 and behind["verdict"] == "a disadvantage"
    level = finding(study_summary(cell([50_100, 49_900], [50_100, 0], [100_000, 0])), "start player")
    assert max(-level["low_pp"], level["high_pp"]) <= RESOLUTION_PP
    assert level["verdict"] == f"no edge: within {RESOLUTION_PP:g} pp of fair"
    unsure = finding(study_summary(cell([52, 48], [52, 0], [100, 0])), "start player")
    assert unsure["low_pp"] < 0 < unsure["high_pp"]
    assert unsure["verdict"].startswith("no difference detectable at this size (100 games): about 10,000 would")


def test_the_fair_share_leaves_out_the_draws() -> None:
    # 10% draws: each seat wins 45% with no edge; against 50% both would look behind.
    even = cell([450, 450], [450, 0], [1000, 0])
    assert fair_share(even) == pytest.approx(0.45)
    start = finding(study_summary(even), "start player")
    assert start["fair"] == pytest.approx(0.45)
    assert start["difference_pp"] == pytest.approx(0.0)
    assert "disadvantage" not in start["verdict"]


def test_games_to_resolve_is_the_interval_width_solved_for_n() -> None:
    n = games_to_resolve(0.5, 1.0)
    assert n == 10_000  # 1.96^2 / 4 / 0.01^2 = 9,604, rounded up to a thousand
    assert 1.96 * math.sqrt(0.25 / n) <= 0.01 + 1e-12


def test_variants_are_in_points_with_their_own_verdict() -> None:
    variant = {
        "name": "v=1",
        "baseline": "v=0",
        "metric": "start player win share",
        "difference": 0.031,
        "low": 0.012,
        "high": 0.050,
        "games": 600,
    }
    summary = study_summary(cell([300, 300], [300, 0], [600, 0]), variants=(variant,))
    found = finding(summary, "start player win share: v=1 against v=0")
    assert (found["difference_pp"], found["low_pp"], found["high_pp"]) == pytest.approx((3.1, 1.2, 5.0))
    assert found["verdict"] == "raises it" and found["paired"]


def test_who_played_is_named() -> None:
    lines = headline(SPEC, study_summary(cell([300, 300], [300, 0], [600, 0])), "cruiselib study x")["lines"]
    assert lines[0] == f"600 games, 2 players: rules in every seat; seed 5, cruiselib {cruiselib.__version__}"
    random_spec = Study(game=ANY_GAME, players=(2,))
    random_lines = headline(random_spec, study_summary(cell([300, 300], [300, 0], [600, 0])))["lines"]
    assert "random (in the core) in every seat" in random_lines[0]
    assert "random players" in random_lines[1]


def test_a_run_leads_with_its_headline(tmp_path: Any) -> None:
    spec = Tournament(game=ANY_GAME, players=2, participants=(BotSpec("greedy"), BotSpec("random")), games=20, seed=1)
    result = run(spec, tmp_path / "run", backend="serial", progress=False, command="cruiselib arena ...")
    found = result.summary["headline"]
    assert found["who"]["participants"] == ["greedy", "random"]
    assert found["who"]["command"] == "cruiselib arena ..."
    assert {f["subject"] for f in found["findings"]} >= {"start player", "bot greedy", "bot random"}
    report = (tmp_path / "run" / "report.html").read_text() if (tmp_path / "run" / "report.html").exists() else None
    if report is None:
        pytest.importorskip("matplotlib")
        from cruiselib.arena.report import html_report

        report = html_report(result.games(), result.summary, tmp_path / "report.html").read_text()
    assert '<section class="findings">' in report
    assert report.index("Findings") < report.index("Win share")
