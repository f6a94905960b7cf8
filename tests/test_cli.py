"""The ``cruiselib`` command, run in-process as a user would type it."""

from __future__ import annotations

import io
import json

import pytest

import cruiselib
from cruiselib.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0 and "Sirens in Sight" in out


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
    assert out.count("please type a number") == 3
    assert "seat 1 (greedy):" in out and out.rstrip().endswith("bye")


def test_play_a_whole_game(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    code, out, _ = run(capsys, "play", "sirens", "--seed", "5", "--bot", "random")
    assert code == 0 and "game over:" in out


def test_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema", "sirens")
    schemas = json.loads(out)
    assert code == 0 and set(schemas["sirens"]) == {"state", "view", "move"}


def test_demo(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--games", "500", "--bot-games", "3")
    assert code == 0 and all(cruiselib.make(name).title in out for name in cruiselib.games())


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
