"""Every program in examples/ runs as its docstring says (the Node.js client is run by
tests/test_protocol.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import cruiselib

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# A surface over the public API: the README's pure-Python run leaves it out (-m "not surface").
pytestmark = [
    pytest.mark.surface,
    pytest.mark.skipif(not EXAMPLES.is_dir(), reason="needs examples/ (not among a wheel's test sources)"),
]


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_quickstart_plays_a_game_to_the_end() -> None:
    out = run(str(EXAMPLES / "quickstart.py"))
    assert out.count("seat ") > 10


def test_flat_monte_carlo_example_plays_its_games() -> None:
    out = run(str(EXAMPLES / "ismcts_lite.py"), "--games", "1", "--samples", "2")
    assert out.strip()


@pytest.mark.skipif(not cruiselib.compiled, reason="its 100 playouts a move are for the compiled core")
@pytest.mark.parametrize("name", cruiselib.games())
def test_the_bot_in_30_lines_plays_every_game(name: str) -> None:
    source = (EXAMPLES / "bot_in_30_lines.py").read_text()
    assert len(source.splitlines()) <= 30
    out = run(str(EXAMPLES / "bot_in_30_lines.py"), name)
    assert out.startswith(f"{name}: scores [") and "winners [" in out


def test_a_game_saved_in_one_process_ends_the_same_in_another(tmp_path: Path) -> None:
    snapshot = tmp_path / "game.json"
    saved = run(str(EXAMPLES / "save_resume.py"), "save", str(snapshot))
    assert saved.startswith("saved after 20 moves")
    resumed = run(str(EXAMPLES / "save_resume.py"), "resume", str(snapshot))
    straight = run(str(EXAMPLES / "save_resume.py"), "straight")
    assert resumed == straight and "winners [" in resumed
