"""A bot author's workflow: ``cruiselib arena GAME --bot mybot:make`` run from the folder
that holds ``mybot.py`` finds it (as ``python -m`` would), without ``PYTHONPATH``, in the
command's own process and in its spawned workers; a module found nowhere is said in one
line naming the folder looked in. A finished run reads back with one call (``load_run``);
the command prints the ratings and, with ``--sprt``, the sequential test's verdict."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import msgspec
import pytest

from cruiselib.arena.cli import arena_main
from cruiselib.arena.plan import BotSpec, Tournament, expand
from cruiselib.arena.results import read_games, rows_to_games
from cruiselib.arena.runner import RunResult, load_run, run
from cruiselib.arena.stats import SPRT, sprt_of_games
from cruiselib.errors import InvalidOptionError, InvalidStateError
from tests.support import ANY_GAME

BOT_MODULE = """\
from helper_of_mybot import first_legal  # a neighbour module: found because the folder is on sys.path


class FirstLegal:
    name = "first-legal"

    def choose(self, state):
        return first_legal(state)

    def analyse(self, state):
        return []


def make(seed=None):
    return FirstLegal()
"""

HELPER_MODULE = """\
def first_legal(state):
    return state.legal_actions()[0]
"""


def console_script() -> Path:
    """The installed ``cruiselib`` command: its ``sys.path`` starts with its own folder, not the
    current one (unlike ``python -m cruiselib``), which is the case the import must handle."""
    script = Path(sysconfig.get_path("scripts")) / "cruiselib"
    if not script.exists():
        pytest.skip("the cruiselib console script is not installed")
    return script


def run_command(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run(
        [str(console_script()), *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("backend", ["serial", "local"])
def test_a_bot_module_in_the_current_folder_is_found(tmp_path: Path, backend: str) -> None:
    (tmp_path / "mybot.py").write_text(BOT_MODULE)
    (tmp_path / "helper_of_mybot.py").write_text(HELPER_MODULE)
    done = run_command(
        tmp_path,
        "arena",
        ANY_GAME,
        "--bot",
        "mybot:make",
        "--bot",
        "random",
        "--games",
        "2",
        "--backend",
        backend,
        "--workers",
        "1",
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    assert "mybot:make" in done.stdout
    assert ": 2 games," in done.stdout


def test_a_bot_module_found_nowhere_is_one_line(tmp_path: Path) -> None:
    done = run_command(tmp_path, "arena", ANY_GAME, "--bot", "nobot_here:make", "--bot", "random", "--games", "2")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "No module named 'nobot_here'" in lines[0]
    assert str(tmp_path) in lines[0]
    assert "PYTHONPATH" in lines[0]


def test_a_missing_import_inside_the_bot_module_names_that_module(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text(BOT_MODULE)  # its helper module is not there
    done = run_command(tmp_path, "arena", ANY_GAME, "--bot", "mybot:make", "--bot", "random", "--games", "2")
    assert done.returncode == 2
    assert "No module named 'helper_of_mybot'" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_python_api_finds_it_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cruiselib.arena.plan import BotSpec
    from cruiselib.arena.play import make_player

    (tmp_path / "mybot_api.py").write_text(BOT_MODULE.replace("helper_of_mybot", "helper_of_mybot_api"))
    (tmp_path / "helper_of_mybot_api.py").write_text(HELPER_MODULE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    bot = make_player(BotSpec("mybot_api:make"), seed=0)
    assert bot.name == "first-legal"
    assert sys.path[0] == str(tmp_path)
    for name in ("mybot_api", "helper_of_mybot_api"):
        sys.modules.pop(name, None)


# --- a finished run read back, the SPRT from the command line -------------------------


def ab_match(out_dir: Path | None = None) -> RunResult:
    spec = Tournament(
        game=ANY_GAME,
        players=2,
        mode="ab",
        participants=(BotSpec("greedy"), BotSpec("random")),
        games=40,
        shard=10,
        seed=3,
    )
    return run(spec, out_dir, backend="serial", progress=False)


def test_a_finished_run_reads_back_from_text_or_path(tmp_path: Path) -> None:
    played = ab_match(tmp_path / "run")
    for folder in (str(tmp_path / "run"), tmp_path / "run"):
        loaded = load_run(folder)
        assert loaded.spec == played.spec
        assert loaded.summary == json.loads((tmp_path / "run" / "summary.json").read_text())
        assert [msgspec.structs.replace(g, seconds=0.0) for g in loaded.games()] == [
            msgspec.structs.replace(g, seconds=0.0) for g in played.games()
        ]
        assert (loaded.played, loaded.resumed) == (0, len(expand(played.spec)))
    assert rows_to_games(read_games(str(tmp_path / "run" / "games.parquet"))) == loaded.games()


def test_a_folder_without_a_finished_run_is_said(tmp_path: Path) -> None:
    with pytest.raises(InvalidStateError, match="no finished run"):
        load_run(tmp_path)
    ab_match(tmp_path / "run")
    (tmp_path / "run" / "summary.json").write_text("{not json")
    with pytest.raises(InvalidStateError, match="is not a summary"):
        load_run(tmp_path / "run")


def test_the_sprt_of_games_is_the_documented_loop() -> None:
    games = ab_match().games()

    def score(game: Any, label: str) -> float:
        if not game.winners:
            return 0.5
        return 1 / len(game.winners) if game.seats.index(label) in game.winners else 0.0

    by_hand = SPRT(elo0=0, elo1=50)
    used = 0
    for first, second in zip(games[::2], games[1::2], strict=True):
        by_hand.update(score(first, "greedy") + score(second, "greedy"))
        used += 1
        if by_hand.decided:
            break
    verdict = sprt_of_games(games, "greedy", 0, 50)
    assert verdict.used == used
    assert verdict.available == len(games) // 2
    assert verdict.test.accepted == by_hand.accepted
    assert verdict.test.llr == pytest.approx(by_hand.llr)
    with pytest.raises(InvalidOptionError, match="no game has the bot"):
        sprt_of_games(games, "nobody", 0, 50)


def test_the_command_prints_ratings_and_the_sprt_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [ANY_GAME, "--bot", "greedy", "--bot", "random", "--mode", "ab", "--games", "40", "--seed", "3"]
    assert arena_main([*argv, "--backend", "serial", "--no-progress", "--sprt", "0,50"]) == 0
    out = capsys.readouterr().out
    assert "ratings, Bradley-Terry" in out
    verdict = sprt_of_games(ab_match().games(), "greedy", 0, 50)
    assert f"SPRT of greedy (elo0 0, elo1 50): {verdict.text}" in out


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--bot", "rules", "--sprt", "0,50"], "give exactly two bots"),
        (["--sprt", "50,0"], "finite ELO0 < ELO1"),
        (["--sprt", "zero,50"], "two numbers"),
    ],
)
def test_a_wrong_sprt_request_is_one_line(extra: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [ANY_GAME, "--bot", "greedy", "--bot", "random", "--games", "2", "--backend", "serial", "--no-progress"]
    with contextlib.suppress(SystemExit):
        status = arena_main([*argv, *extra])
        assert status == 2
    err = capsys.readouterr().err
    assert said in err
    assert "Traceback" not in err
