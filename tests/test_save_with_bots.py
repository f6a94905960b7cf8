"""A game saved with its bots resumes exactly (docs/bots.md, "Saving a game with its bots"):
pickled bots keep their generators, new bots start again, and the engine protocol's
``save``/``load`` keeps no bots, so a seed fixed by the position resumes exactly there."""

from __future__ import annotations

import pickle
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cruiselib
from cruiselib._registry import game_class
from cruiselib.bots import BOTS, SearchBot, make_bot
from cruiselib.protocol.engine import Engine

ROOT = Path(__file__).resolve().parent.parent
STOP = 8  # actions played before the game is saved


def _seats(name: str) -> int:
    counts = game_class(name).player_counts
    return 2 if 2 in counts else min(counts)


def _bots(bot: str, seats: int) -> list[Any]:
    options = {"iterations": 20} if issubclass(BOTS[bot], SearchBot) else {}
    return [make_bot(bot, seed=1 + p, **options) for p in range(seats)]


def _play(name: str, bot: str, resume: str | None) -> list[int]:
    """The actions of a seeded game of ``bot`` against itself, stopped after ``STOP``
    actions and resumed with the pickled bots ("pickled"), new bots ("new"), or not
    stopped (None)."""
    seats = _seats(name)
    state: Any = cruiselib.make(name, players=seats).new_state(seed=5)
    bots = _bots(bot, seats)
    while not state.is_over:
        if len(state.history) == STOP and resume == "pickled":
            state, bots = pickle.loads(pickle.dumps((state, bots)))
        elif len(state.history) == STOP and resume == "new":
            state, bots = pickle.loads(pickle.dumps(state)), _bots(bot, seats)
        state.apply(bots[state.current_player].choose(state))
    history: list[int] = state.history
    return history


@pytest.mark.parametrize("bot", list(BOTS))
@pytest.mark.parametrize("name", cruiselib.games())
def test_bots_pickled_with_the_game_play_on_as_if_never_stopped(name: str, bot: str) -> None:
    assert _play(name, bot, "pickled") == _play(name, bot, None)


@pytest.mark.parametrize("name", cruiselib.games())
def test_new_bots_of_the_same_seeds_play_on_differently(name: str) -> None:
    """What the docs warn of: the random bot's generator starts again."""
    assert _play(name, "random", "new") != _play(name, "random", None)


def _docs_example() -> str:
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = text.split("## Saving a game with its bots", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None, "the section has no Python example"
    return found.group(1)


def test_the_docs_example_resumes_exactly() -> None:
    source = _docs_example()
    assert "pickle.dumps((state, bots))" in source and "pickle.loads(saved)" in source
    resumed: dict[str, Any] = {}
    exec(compile(source, "bots.md", "exec"), resumed)
    # The same program without the save and load: the game never stopped.
    straight_source = "\n".join(line for line in source.splitlines() if "saved" not in line)
    straight: dict[str, Any] = {}
    exec(compile(straight_source, "bots.md", "exec"), straight)
    assert resumed["state"].is_over and resumed["state"].history == straight["state"].history


@pytest.mark.surface  # an example run as a program: the compiled run tests it (136 s as pure Python)
@pytest.mark.skipif(not (ROOT / "examples").is_dir(), reason="needs examples/")
def test_the_example_resumes_in_another_process_as_if_never_stopped(tmp_path: Path) -> None:
    script = str(ROOT / "examples" / "save_with_bots.py")

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, script, *args], capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    saved = tmp_path / "game.pickle"
    assert run("save", str(saved)).startswith(f"saved after {20} moves")
    straight = run("straight")
    assert run("resume", str(saved)) == straight and "winners [" in straight
    assert run("fresh", str(saved)) != straight


def _engine_game(name: str, seed_of: Any, save_at: int | None) -> list[int]:
    """A game of the rule-based bot through the engine protocol, each ``bot`` request
    seeded ``seed_of(ply)``, saved and loaded again at ply ``save_at``."""
    engine = Engine()
    reply = engine.handle({"cmd": "new", "game": name, "seed": 3, "options": {"players": _seats(name)}})
    game_id, actions = reply["game_id"], list[int]()
    while True:
        if len(actions) == save_at:
            snapshot = engine.handle({"cmd": "save", "game_id": game_id, "record": False})["snapshot"]
            game_id = engine.handle({"cmd": "load", "snapshot": snapshot})["game_id"]
        reply = engine.handle(
            {"cmd": "bot", "game_id": game_id, "bot": "rules", "seed": seed_of(len(actions)), "apply": True}
        )
        assert reply["ok"], reply
        actions.append(reply["action"])
        if reply["is_over"]:
            return actions


@pytest.mark.parametrize("name", cruiselib.games())
def test_the_protocol_resumes_exactly_with_seeds_the_position_fixes(name: str) -> None:
    """docs/protocol.md: ``load`` makes the bots anew; a seed per ply resumes exactly."""
    assert _engine_game(name, lambda ply: ply, save_at=10) == _engine_game(name, lambda ply: ply, save_at=None)


def test_the_protocol_keeps_no_bots_in_a_saved_game() -> None:
    """One fixed seed: the loaded game's bot starts its sequence again and plays on
    differently, in some game of the registry."""
    assert any(
        _engine_game(name, lambda ply: 5, save_at=10) != _engine_game(name, lambda ply: 5, save_at=None)
        for name in cruiselib.games()
    )
