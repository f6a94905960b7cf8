"""The ``cruiselib`` command, run in-process as a user would type it."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest

import cruiselib
from cruiselib.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0 and all(cruiselib.make(name).title in out for name in cruiselib.games())


def test_simulate_random_in_the_core(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "sirens", "--games", "3000", "--seed", "4")
    assert code == 0
    assert "3,000 games" in out and "games/s" in out and "win rate" in out and "in the core" in out


def test_simulate_bots_from_python_with_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "sirens", "-n", "20", "--bots", "greedy,random", "-o", "variant=bow_to_rear")
    assert code == 0 and "greedy vs random" in out and "20 games" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "sirens", "--bots", "greedy,random,random"], "3 bots for 2 seats"),
        (["simulate", "sirens", "--bots", "wizard"], "unknown bot"),
        (["simulate", "sirens", "-o", "variant=upside_down"], "unknown variant"),
        (["simulate", "sirens", "-o", "novalue"], "key=value"),
        (["simulate", "sirens", "--games", "0"], "at least 1"),
        (["play", "sirens", "--seat", "3"], "seat 3 does not exist"),
    ],
)
def test_bad_arguments_are_reported_not_raised(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


def test_play_reprompts_on_bad_input_and_quits(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("hello\n0\n9999\n1\nq\n"))
    code, out, _ = run(capsys, "play", "sirens", "--seed", "3", "--seat", "0")  # seat 1 starts
    assert code == 0
    assert "no legal Sirens in Sight move reads 'hello'" in out
    assert out.count("the moves are numbered 1 to ") == 2  # 0 and 9999
    assert "seat 1 (greedy):" in out and out.rstrip().endswith("bye")


def test_play_a_whole_game(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    code, out, _ = run(capsys, "play", "sirens", "--seed", "5", "--opponent", "random")
    assert code == 0 and re.search(r"Game over: (seat \d( \(you\))? wins|a draw) · seat \d", out)


def test_play_has_no_bot_option(capsys: pytest.CaptureFixture[str]) -> None:
    """The opponent is named by ``--opponent`` alone (``--bots`` is simulate's)."""
    with pytest.raises(SystemExit) as exc:
        main(["play", cruiselib.games()[0], "--bot", "random"])
    assert exc.value.code == 2 and "unrecognized arguments: --bot" in capsys.readouterr().err


def test_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema", "sirens")
    schemas = json.loads(out)
    assert code == 0 and set(schemas["sirens"]) == {"state", "view", "move"}


def test_demo(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--games", "500", "--bot-games", "3")
    assert code == 0 and all(cruiselib.make(name).title in out for name in cruiselib.games())


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
    rows = re.findall(r"│\s*(\d)\s*│\s*(\d+)\s*│", out)
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


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("3", 3),
        ("true", True),
        ("False", False),
        ("1,3,6,10", (1, 3, 6, 10)),
        ("bow_to_rear", "bow_to_rear"),
        ("a,b", "a,b"),
        ("my_cards.json", "my_cards.json"),
    ],
)
def test_option_values(text: str, value: object) -> None:
    """`-o key=value` texts become ints, bools, tuples of ints, or stay text."""
    from cruiselib.cli import _parse_options

    assert _parse_options([f"key={text}"], None) == {"key": value}


def test_demo_includes_dream_cruise(capsys: pytest.CaptureFixture[str]) -> None:
    """The tour covers Dream Cruise: playouts, bot games and a finished position."""
    code, out, _ = run(capsys, "demo", "--games", "300", "--bot-games", "2")
    assert code == 0 and "dream_cruise" in cruiselib.games()
    assert "Dream Cruise (dream_cruise, 4 players, 15975 actions)" in out
    assert "game over after round" in out  # the last greedy-vs-random game, rendered


def _cli(*argv: str) -> list[str]:
    import sys

    return [sys.executable, "-m", "cruiselib.cli", *argv]


def test_a_closed_pipe_ends_quietly() -> None:
    import subprocess

    # `cruiselib schema | head -1` where the reader is gone before the output comes (the
    # whole output would fit in a pipe's buffer, so a slower reader would not show it).
    proc = subprocess.Popen(_cli("schema", "sirens"), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err
    assert proc.returncode == 1


def test_ctrl_c_at_the_prompt_exits_cleanly() -> None:
    import os
    import signal
    import subprocess
    import time

    if os.name == "nt":
        pytest.skip("SIGINT to a child process is POSIX")
    proc = subprocess.Popen(
        _cli("play", "sirens", "--seed", "3", "--seat", "1"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = ""
    deadline = time.monotonic() + 60
    while "Sirens in Sight" not in line and time.monotonic() < deadline:
        line = proc.stdout.readline()
    time.sleep(0.3)  # waiting at the prompt now
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "Traceback" not in err and "interrupted" in err


def test_play_against_ismcts_with_hints(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`--opponent ismcts --think` plays; `hint` shows the search's top three moves with their
    values and visits, the same moves the analysis ranks first; the game goes on after it."""
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\n1\nq\n"))
    code, out, _ = run(capsys, "play", "sirens", "--seed", "3", "--opponent", "ismcts", "--think", "0.02")
    assert code == 0
    hints = re.findall(r"\n\s+(\d+)  ([+-]\d\.\d\d)\s+(\d+) visits  (.+)", out)
    assert len(hints) == 3
    visits = [int(h[2]) for h in hints]
    assert visits == sorted(visits, reverse=True) and visits[0] > 0
    assert "seat 1 (ismcts):" in out and out.rstrip().endswith("bye")


def test_simulate_search_and_rule_bots(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "sirens", "-n", "2", "--bots", "ismcts,rules", "--iterations", "50")
    assert code == 0 and "ismcts vs rules" in out and "2 games" in out


def test_simulate_solo_counts_losses_not_draws(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "dream_cruise", "--players", "1", "-n", "30", "--seed", "2")
    assert code == 0 and re.search(r"30 games · lost \d+", out) and "draws" not in out


@pytest.mark.parametrize("argv", [["play", "sirens", "--think", "0"], ["simulate", "sirens", "--iterations", "x"]])
def test_bad_budgets_are_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2 and "must be" in capsys.readouterr().err
