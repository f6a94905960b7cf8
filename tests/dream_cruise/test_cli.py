"""The ``cruiselib`` command with Dream Cruise: the solo game against Jana (C9) typed
through stdin, and options of every kind from the command line."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

import cruiselib
from tests.test_cli import run


def _dream_cruise_answers(seed: int, varied: bool) -> tuple[list[int], Any]:
    """The numbers a player types in a solo Dream Cruise game and the position they lead
    to (no bots: the solo game has one seat, C9). Each number is a listed move: the first
    one, or with ``varied`` one spread over the list (two-digit numbers in phase 4)."""
    state: Any = cruiselib.make("dream_cruise", players=1).new_state(seed=seed)
    answers: list[int] = []
    while not state.is_over:
        moves = state.legal_moves()
        k = (7 * len(answers) + 3) % len(moves) if varied else 0
        answers.append(k + 1)
        state.apply(moves[k])
    return answers, state


@pytest.mark.parametrize(("seed", "varied", "result"), [(6, False, "seat 0 (you) wins"), (0, True, "Jana wins")])
def test_play_a_solo_dream_cruise_game_to_the_end(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, seed: int, varied: bool, result: str
) -> None:
    """`cruiselib play dream_cruise --players 1` through stdin: every number typed picks a
    listed move, the game ends, and the result against Jana (who wins ties, C9) is told."""
    answers, final = _dream_cruise_answers(seed, varied)
    assert bool(final.winners()) == (result == "seat 0 (you) wins")
    assert not varied or max(answers) >= 10  # long phase 4 lists: two-digit numbers too
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{a}\n" for a in answers) + "q\n"))
    code, out, _ = run(capsys, "play", "dream_cruise", "--players", "1", "--seed", str(seed))
    assert code == 0 and "Dream Cruise" in out
    assert out.count("seat 0, your move [") == len(answers)
    assert "no move" not in out and not out.rstrip().endswith("bye")  # not quit: over
    jana = final.view(0).jana.score
    ranked = [f"seat 0 (you) {final.scores()[0]}", f"Jana {jana}"]
    assert f"Game over: {result} · {', '.join(ranked if final.winners() else ranked[::-1])}" in out
    assert "Jana:" in out and f"game over after round {final.view(0).round}" in out


def test_simulate_dream_cruise_in_the_core(capsys: pytest.CaptureFixture[str]) -> None:
    """Random games in the core, a row per seat; every game has one winner (C8's ties)."""
    code, out, _ = run(capsys, "simulate", "dream_cruise", "--games", "200", "--seed", "3")
    assert code == 0
    assert "Dream Cruise" in out and "200 games" in out and "in the core" in out
    rows = re.findall(r"^│\s*(\d)\s*│\s*(\d+)\s*│", out, flags=re.MULTILINE)  # seat, wins
    assert [seat for seat, _ in rows] == ["0", "1", "2", "3"]
    assert sum(int(wins) for _, wins in rows) == 200 and "draws 0 " in out  # ties are broken (C8)


def test_simulate_dream_cruise_options_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Options of every kind reach the game: an int, a bool (C2) and a list of ints (C1)."""
    code, out, err = run(
        capsys,
        "simulate",
        "dream_cruise",
        "--players",
        "2",
        "-n",
        "4",
        "--bots",
        "greedy,random",
        "-o",
        "additions=3",
        "-o",
        "sea_ship_draw=true",
        "-o",
        "route_points=1,3,6,10",
    )
    assert code == 0, err
    assert "greedy vs random" in out and "4 games" in out
