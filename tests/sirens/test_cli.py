"""The ``cruiselib`` command on Sirens in Sight: its options, its prompt and its bots' hints,
run in-process as a user would type them (tests/test_cli.py holds what every game shares)."""

from __future__ import annotations

import io
import re

import pytest

from tests.test_cli import _cli, run

# The command line is a surface over the public API, the same on either core (-m "not surface"
# leaves it out of the pure-Python run).
pytestmark = pytest.mark.surface


def test_simulate_bots_from_python_with_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "sirens", "-n", "20", "--bots", "greedy,random", "-o", "variant=bow_to_rear")
    assert code == 0 and "greedy vs random" in out and "20 games" in out


def test_an_unknown_variant_is_reported_not_raised(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", "sirens", "-o", "variant=upside_down")
    assert code == 2 and "unknown variant" in err


def test_play_reprompts_on_bad_input_and_quits(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("hello\n²\n0\n9999\n1\nq\n"))
    code, out, _ = run(capsys, "play", "sirens", "--seed", "3", "--seat", "0")  # seat 1 starts
    assert code == 0
    assert "no legal Sirens in Sight move reads 'hello'" in out
    assert "moves match '²'" in out  # a digit, but no move number: read as text (as "2")
    assert out.count("the moves are numbered 1 to ") == 2  # 0 and 9999
    assert "seat 1 (greedy):" in out and out.rstrip().endswith("bye")


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
