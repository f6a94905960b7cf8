"""benchmarks/strength.py: the bot strength table played as cruiselib.arena tournaments
(rounds of whole deals, every rotation of each deal, resumable) and its Markdown table."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from benchmarks import strength

from cruiselib.arena.plan import cell_base, deal_seed
from cruiselib.arena.runner import run

TWO = next(config for config in strength.CONFIGS if config[2] == 2)
FOUR = next(config for config in strength.CONFIGS if config[2] == 4)


def test_a_result_is_a_win_share_and_a_two_player_draw_is_half() -> None:
    assert strength.result_of_a([1], seat_a=1, players=2) == 1.0
    assert strength.result_of_a([0], seat_a=1, players=2) == 0.0
    assert strength.result_of_a([0, 1], seat_a=1, players=2) == 0.5
    assert strength.result_of_a([], seat_a=1, players=2) == 0.5
    assert strength.result_of_a([], seat_a=1, players=4) == 0.0
    assert strength.result_of_a([0, 1, 3], seat_a=3, players=4) == pytest.approx(1 / 3)


def test_a_round_plays_its_deals_of_the_benchmark_seed_under_every_rotation() -> None:
    label, game, players = FOUR
    spec = strength.tournament(label, game, players, "rules", "random", first=3, deals=2)
    games = run(spec, backend="serial", progress=False).games()
    base = cell_base(strength.SEED, None)
    assert [(g.deal, g.mirror) for g in games] == [(d, r) for d in range(2) for r in range(players)]
    assert [g.deal_seed for g in games] == [deal_seed(base, 3 + g.deal) for g in games]
    for g in games:  # A once, B in every other seat, A in the seat of the rotation
        assert list(g.seats).index("rules") == g.mirror
        assert sorted(g.seats) == sorted(["rules", "random"] + ["filler:random"] * (players - 2))


def test_the_schedule_goes_round_by_round_in_whole_deals_and_skips_deals_on_file() -> None:
    (two, _, _), (four, _, _) = TWO, FOUR
    only = {two, four}
    rounds = list(strength.schedule(10, 4, only, {}, {"rules:random", "rules:greedy"}))
    # 10 games: 5 deals at 2 seats in rounds of 2, 3 deals at 4 seats (12 games) in rounds of 1.
    by_pairing: dict[tuple[str, str, str], list[tuple[int, int]]] = {}
    for label, _, _, a, b, first, count in rounds:
        by_pairing.setdefault((label, a, b), []).append((first, count))
    assert by_pairing[(two, "rules", "random")] == [(0, 2), (2, 2), (4, 1)]
    assert by_pairing[(four, "rules", "greedy")] == [(0, 1), (1, 1), (2, 1)]
    steps = {two: 2, four: 1}
    round_numbers = [first // steps[label] for label, *_, first, _ in rounds]
    assert round_numbers == sorted(round_numbers)  # every pairing's round k before any round k + 1
    done = {(two, "rules", "random"): {0, 1, 4}}
    left = [r for r in strength.schedule(10, 4, only, done, {"rules:random"}) if r[0] == two]
    assert [(first, count) for *_, first, count in left] == [(2, 2)]


def test_the_share_of_a_short_pairing_is_rounded_up_to_whole_deals() -> None:
    label = FOUR[0]
    rounds = list(strength.schedule(200, 200, {label}, {}, {"ismcts-100ms:rules"}))
    assert [(first, count) for *_, first, count in rounds] == [(0, 13)]  # 50 games -> 52


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_run_appends_each_game_once_and_resumes_a_round(tmp_path: Path) -> None:
    results = tmp_path / "strength.jsonl"
    label = TWO[0]
    argv = ["run", "--games", "4", "--batch", "2", "--jobs", "1", "--only", label, "--pairs", "rules:random"]
    assert strength.main([*argv, "--results", str(results)]) == 0
    played = lines(results)
    assert [(r["deal"], r["mirror"], r["seat_a"]) for r in played] == [(0, 0, 0), (0, 1, 1), (1, 0, 0), (1, 1, 1)]
    assert all(r["config"] == label and r["a"] == "rules" and r["b"] == "random" for r in played)
    assert all(r["result_a"] == strength.result_of_a(r["winners"], r["seat_a"], 2) for r in played)
    assert not results.with_suffix(".work").exists()  # each round's work directory is removed

    # Nothing left to play: the file is unchanged.
    assert strength.main([*argv, "--results", str(results)]) == 0
    assert lines(results) == played

    # A longer schedule plays only the new deals; a round interrupted earlier resumes from
    # its job files and gives the games a fresh round would.
    spec = strength.tournament(label, TWO[1], 2, "rules", "random", first=2, deals=2)
    work = results.with_suffix(".work") / f"{label}--rules--random--000002-2"
    run(spec, work, backend="serial", progress=False)
    assert strength.main([*argv[:2], "8", *argv[3:], "--results", str(results)]) == 0
    more = lines(results)
    assert more[:4] == played
    assert [(r["deal"], r["mirror"]) for r in more[4:]] == [(d, m) for d in (2, 3) for m in (0, 1)]
    assert [r["deal_seed"] for r in more[4:]] == [
        g.deal_seed for g in run(spec, backend="serial", progress=False).games()
    ]


def test_bad_counts_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        strength.main(["run", "--games", "0", "--results", str(tmp_path / "s.jsonl")])


def result_line(deal: int, mirror: int, result: float, a: str = "rules", b: str = "random") -> dict[str, Any]:
    """A line of the results file (the fields the report reads) of A's result on a deal."""
    return {"config": TWO[0], "a": a, "b": b, "deal": deal, "mirror": mirror, "seat_a": mirror, "result_a": result}


def test_report_writes_the_table_between_the_markers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    results = tmp_path / "strength.jsonl"
    # The rule-based bot wins 3 of 4 against random: two deals, each in both seatings.
    rows = [result_line(i // 2, i % 2, 1.0 if i < 3 else 0.0) for i in range(4)]
    rows.append(result_line(0, 0, 1.0))  # written twice: counted once
    rows += [result_line(0, m, 0.5, "ismcts", "rules") for m in range(2)]
    results.write_text("".join(json.dumps(r) + "\n" for r in rows))
    page = tmp_path / "page.md"
    page.write_text(f"before\n{strength.MARK}\nold table\n<!-- /strength-table -->\nafter\n")
    monkeypatch.setattr(strength, "PAGES", (page,))
    monkeypatch.setattr(strength, "PNG", tmp_path / "strength.png")
    assert strength.main(["report", "--results", str(results)]) == 0
    text = page.read_text()
    assert text.startswith(f"before\n{strength.MARK}\n| game | A vs B |") and text.endswith(
        "<!-- /strength-table -->\nafter\n"
    )
    assert "old table" not in text
    assert f"| {TWO[0]} | rule-based vs random | 4 | 75.0% | 30.1%–95.4% | 50% | not yet clear |" in text
    assert f"| {TWO[0]} | ISMCTS, 2,000 iterations vs rule-based | 2 | 50.0% |" in text
    elo = next(line for line in text.splitlines() if line.startswith(f"| {TWO[0]} | +0 |"))
    # random at 0, the rule-based bot above it (3 of 4), ISMCTS (even with it) above it too,
    # the bots that played nothing shown as dashes.
    cells = elo.strip("| ").split(" | ")  # game, random, greedy, rules, ISMCTS, 100 ms, OpenSpiel
    assert cells[1] == "+0" and float(cells[3]) > 0 and float(cells[4]) > 0
    assert cells[2] == cells[5] == cells[6] == "–"
    assert (tmp_path / "strength.png").exists()


def test_the_elo_prior_is_one_draw_against_the_random_bot() -> None:
    """3 wins in 4 against random, plus the prior's draw: 3.5 of 5, odds 7:3."""
    elo = strength.elo_fit([("rules", "random", 1.0)] * 3 + [("rules", "random", 0.0)])
    assert elo["random"] == 0.0
    assert elo["rules"] == pytest.approx(400 * math.log10(3.5 / 1.5), abs=1e-6)
    # A bot that lost its every game to one partner only sits by its draw with random.
    tied = strength.elo_fit([("a", "random", 1.0)] * 4 + [("a", "b", 1.0)] * 4)
    assert tied["b"] < 0 < tied["a"]
