"""The ``cruiselib`` command, run in-process as a user would type it."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import numpy as np
import pytest

import cruiselib
from cruiselib._registry import game_class
from cruiselib.cli import main, players_text
from tests.support import ANY_GAME

# The command line is a surface over the public API, the same on either core (-m "not surface"
# leaves it out of the pure-Python run).
pytestmark = pytest.mark.surface

TWO_SEATS = [name for name in cruiselib.games() if 2 in game_class(name).player_counts]
TWO = TWO_SEATS[0]
"""A game that seats two, played at two where a test counts seats."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games(capsys: pytest.CaptureFixture[str]) -> None:
    """Each game on a line of its own: name, title, player counts and the default."""
    code, out, _ = run(capsys, "games")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == len(cruiselib.games())
    for name, line in zip(cruiselib.games(), lines, strict=True):
        counts = game_class(name).player_counts
        game = cruiselib.make(name)
        assert line.startswith(name) and game.title in line
        assert re.search(rf"\b{min(counts)}(-{max(counts)})? players? \(default {game.num_players}\)", line), line


@pytest.mark.parametrize(
    ("counts", "text"),
    [
        ((2,), "2 players"),
        ((1,), "1 player"),
        ((1, 2, 3, 4), "1-4 players"),
        ((2, 3), "2-3 players"),
        ((2, 4), "2, 4 players"),
    ],
)
def test_players_text(counts: tuple[int, ...], text: str) -> None:
    assert players_text(counts) == text


# reStructuredText that a reader of plain text should never see.
REST_MARKUP = re.compile(r"``|:(mod|func|class|meth|attr|data|exc|ref|doc):`|\.\. \w+::|`[^`]+`_")


@pytest.mark.parametrize("command", [[], ["games"], ["play"], ["simulate"], ["demo"], ["schema"], ["serve"], ["web"]])
def test_help_is_plain_text(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    """``cruiselib --help`` and each command's own help show no reStructuredText markup."""
    with pytest.raises(SystemExit) as exc:
        main([*command, "--help"])
    out = capsys.readouterr().out
    assert exc.value.code == 0 and out.startswith("usage: cruiselib")
    assert not REST_MARKUP.search(out), REST_MARKUP.search(out)
    if not command:
        assert "Play the games against bots" in out and "cruiselib play GAME" in out


def test_simulate_random_in_the_core(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", TWO, "--players", "2", "--games", "3000", "--seed", "4")
    assert code == 0
    text = " ".join(out.split())  # the title wraps where the table is narrower than it
    assert "3,000 games" in text and "games/s" in text and "share" in text and "in the core" in text
    assert "95% CI" in out and "starts" in out and "fair share 50.0%" in out


def _table_rows(out: str) -> list[list[str]]:
    """The body rows of a rich table in the output, as their cells."""
    return [[cell.strip() for cell in line.strip("│").split("│")] for line in out.splitlines() if line.startswith("│")]


def test_simulate_counts_shared_wins_as_shares_and_the_start_player(capsys: pytest.CaptureFixture[str]) -> None:
    """Shared wins are shares (the win shares add up to at most 100%), each seat's starts are
    the games the core dealt it the start, and threads change nothing but the speed."""
    name = next(n for n in cruiselib.games() if max(game_class(n).player_counts) >= 3)
    players = max(game_class(name).player_counts)
    argv = ["simulate", name, "--players", str(players), "-n", "2000", "--seed", "3"]  # one batch
    code, one, _ = run(capsys, *argv)
    code2, two, _ = run(capsys, *argv, "--threads", "2")
    assert code == code2 == 0
    rows = _table_rows(one)
    assert rows == _table_rows(two)
    assert len(rows) == players
    total_share = sum(float(row[2].rstrip("%")) for row in rows)
    assert total_share <= 100.05
    starts = sum(int(row[5].replace(",", "")) for row in rows)
    assert starts == 2000
    game = cruiselib.make(name, players=players)
    result = game.playouts(2000, seed=3 * 1_000_003)
    counted = np.bincount(result.first_seats, minlength=players)
    assert [int(row[5].replace(",", "")) for row in rows] == counted.tolist()


class FirstLegalBot:
    """A user's own bot, as ``--bots module:factory`` names it: the first legal action."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.moves = 0

    def choose(self, state: object) -> int:
        self.moves += 1
        return int(state.legal_actions()[0])  # type: ignore[attr-defined]


MADE_BOTS: list[FirstLegalBot] = []


def first_legal_bot(seed: int | None = None) -> FirstLegalBot:
    """The factory ``simulate --bots tests.test_cli:first_legal_bot`` imports."""
    bot = FirstLegalBot(seed)
    MADE_BOTS.append(bot)
    return bot


def test_simulate_takes_a_bot_by_import_path(capsys: pytest.CaptureFixture[str]) -> None:
    """``--bots module:factory`` plays a user's bot in its seat, seeded like the built-in ones."""
    name = cruiselib.games()[0]
    seats = game_class(name).player_counts[0]
    path = f"{__name__}:first_legal_bot"
    MADE_BOTS.clear()
    bots = ",".join([path] + ["random"] * (seats - 1))
    code, out, _ = run(capsys, "simulate", name, "--players", str(seats), "-n", "3", "--seed", "2", "--bots", bots)
    assert code == 0 and "3 games" in out and path in " ".join(out.split())
    assert len(MADE_BOTS) == 1 and MADE_BOTS[0].seed == 2 * 7919 and MADE_BOTS[0].moves > 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", cruiselib.games()[0], "--bots", "no_such_module_here:bot"], "cannot import the bot"),
        (["simulate", cruiselib.games()[0], "--bots", "builtins:dict"], "did not give a bot"),
        (["simulate", TWO, "--players", "2", "--bots", "greedy,random,random"], "3 bots for 2 seats"),
        (["simulate", ANY_GAME, "--bots", "wizard"], "unknown bot"),
        (["simulate", ANY_GAME, "-o", "novalue"], "key=value"),
        (["simulate", ANY_GAME, "--games", "0"], "at least 1"),
        (["play", TWO, "--players", "2", "--seat", "3"], "seat 3 does not exist"),
    ],
)
def test_bad_arguments_are_reported_not_raised(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


@pytest.mark.parametrize("name", TWO_SEATS)
def test_play_a_whole_game(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 2000))
    code, out, _ = run(capsys, "play", name, "--players", "2", "--seed", "5", "--opponent", "random")
    assert code == 0 and re.search(r"Game over: (seat \d( \(you\))? wins|a draw) · seat \d", out)


def test_play_has_no_bot_option(capsys: pytest.CaptureFixture[str]) -> None:
    """The opponent is named by ``--opponent`` alone (``--bots`` is simulate's)."""
    with pytest.raises(SystemExit) as exc:
        main(["play", cruiselib.games()[0], "--bot", "random"])
    assert exc.value.code == 2 and "unrecognized arguments: --bot" in capsys.readouterr().err


def test_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema", ANY_GAME)
    schemas = json.loads(out)
    assert code == 0 and set(schemas[ANY_GAME]) == {"state", "view", "move", "position"}


def _match_seats(name: str) -> int:
    """The seats of the demo's bot match: two where the game has them, else its fewest."""
    counts = game_class(name).player_counts
    return 2 if 2 in counts else min(counts)


def test_demo_fits_a_screen_and_shows_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    """About one screen at 80 columns: each game's speed row and bot-match row, in the
    registry's order, the end of one match game, and the next commands to try."""
    code, out, _ = run(capsys, "demo", "--games", "500", "--bot-games", "4")
    lines = out.splitlines()
    assert code == 0 and len(lines) <= 50 and max(map(len, lines)) <= 80
    names = cruiselib.games()
    titles = [game_class(name).title for name in names]
    bots = ["rules" if game_class(name).rule_bot else "greedy" for name in names]
    rows = [line for line in lines if any(line.startswith(title) for title in titles)]
    speed, matches = rows[: len(names)], rows[len(names) :]
    assert [row.split()[len(title.split())] for row, title in zip(speed, titles, strict=True)] == list(names)
    for name, title, bot, row in zip(names, titles, bots, matches, strict=True):
        assert row.startswith(title)
        cells = row[len(title) :].split()
        seats = _match_seats(name)
        shares = [float(cell.rstrip("%")) for cell in cells[2:]]
        assert cells[0] == bot
        assert int(cells[1]) == seats and shares[3] == pytest.approx(100 / seats, abs=0.05)
        # The bot's share, every random seat's and the draws make up every game.
        assert shares[0] + (seats - 1) * shares[1] + shares[2] == pytest.approx(100, abs=0.2)
    # The last match game of the first game: game 3 seats the bot at 3 % seats.
    seats = _match_seats(names[0])
    seating = ", ".join(f"seat {p} {bots[0] if p == 3 % seats else 'random'}" for p in range(seats))
    assert f"The last {titles[0]} match game at its end ({seating})" in out
    assert sum(line.startswith("Game over: ") for line in lines) == 1
    assert "Try next" in out and f"cruiselib play {names[0]}" in out and "cruiselib web" in out
    assert f"cruiselib simulate {names[0]}" in out and f"cruiselib arena {names[0]}" in out


def test_demo_refuses_no_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "demo", "--bot-games", "0")
    assert code == 2 and "at least 1" in err


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


def _cli(*argv: str) -> list[str]:
    import sys

    return [sys.executable, "-m", "cruiselib.cli", *argv]


def test_a_closed_pipe_ends_quietly() -> None:
    import subprocess

    # `cruiselib schema | head -1` where the reader is gone before the output comes (the
    # whole output would fit in a pipe's buffer, so a slower reader would not show it).
    proc = subprocess.Popen(_cli("schema", ANY_GAME), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err
    assert proc.returncode == 1


def test_simulate_search_and_rule_bots(capsys: pytest.CaptureFixture[str]) -> None:
    name = next(n for n in TWO_SEATS if game_class(n).rule_bot)
    argv = ["simulate", name, "--players", "2", "-n", "2", "--bots", "ismcts,rules", "--iterations", "50"]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "ismcts vs rules" in out and "2 games" in out


SOLO = [name for name in cruiselib.games() if 1 in game_class(name).player_counts]


@pytest.mark.parametrize("name", SOLO)
def test_simulate_solo_counts_losses_not_draws(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out, _ = run(capsys, "simulate", name, "--players", "1", "-n", "30", "--seed", "2")
    assert code == 0 and re.search(r"30 games · fair share 100.0% · lost \d+", out) and "draws" not in out


def test_some_game_plays_alone() -> None:
    """The solo test above runs: some registered game has a solo mode."""
    assert SOLO


@pytest.mark.parametrize("argv", [["play", ANY_GAME, "--think", "0"], ["simulate", ANY_GAME, "--iterations", "x"]])
def test_bad_budgets_are_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2 and "must be" in capsys.readouterr().err


# --------------------------------------------------------------------------- arena, study


def _rows_without_wall_time(out_dir: Path) -> dict[str, list[object]]:
    """The rows a run wrote, column by column, without ``seconds`` (the one column of wall time)."""
    from cruiselib.arena.results import games_to_lists, read_games

    rows = games_to_lists(read_games(next(out_dir.glob("games.*"))))
    return {name: column for name, column in rows.items() if name != "seconds"}


def _has(module: str) -> bool:
    """Whether an optional package is installed (the checked wheels install the test extra only)."""
    import importlib.util

    return importlib.util.find_spec(module) is not None


def _same_run(command_dir: Path, api_dir: Path) -> None:
    """The command's outputs are those of ``cruiselib.arena.run`` on the same spec, but for the
    command line its summary's headline names (None from Python)."""
    assert (command_dir / "spec.json").read_bytes() == (api_dir / "spec.json").read_bytes()
    by_command = json.loads((command_dir / "summary.json").read_text())
    command = by_command["headline"]["who"].pop("command")
    assert command.startswith("cruiselib ") and "--out" in command
    by_api = json.loads((api_dir / "summary.json").read_text())
    assert by_api["headline"]["who"].pop("command") is None
    assert by_command == by_api
    assert _rows_without_wall_time(command_dir) == _rows_without_wall_time(api_dir)


def test_arena_runs_a_tournament_as_the_api_does(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from cruiselib.arena.plan import BotSpec, Tournament
    from cruiselib.arena.runner import run as arena_run

    name = cruiselib.games()[0]
    title = game_class(name).title
    argv = ["arena", name, "--bot", "rules", "--bot", "random,label=rnd", "--games", "4", "--seed", "3"]
    code, out, _ = run(capsys, *argv, "--backend", "serial", "--no-progress", "--out", str(tmp_path / "cli"))
    assert code == 0
    assert f"{title}: 4 games," in " ".join(out.split()) and "rules" in out and "rnd" in out
    written = ["spec.json", "summary.json"] + (["report.html"] if _has("matplotlib") else [])  # the report needs it
    assert all((tmp_path / "cli" / name).is_file() for name in written)
    spec = Tournament(game=name, participants=(BotSpec("rules"), BotSpec("random", label="rnd")), games=4, seed=3)
    arena_run(spec, tmp_path / "api", backend="serial", progress=False)
    _same_run(tmp_path / "cli", tmp_path / "api")


def _an_option_with_two_values() -> tuple[str, str, list[object]]:
    """A game, one of its options (not the player count) and two values the game's example
    configurations give it (the options as the game fills them in, defaults included)."""
    for name in cruiselib.games():
        cls = game_class(name)
        filled = [cruiselib.make(name, **config).options for config in cls.example_configurations]
        for key in filled[0]:
            values = list(dict.fromkeys(options[key] for options in filled))
            if key != "players" and len(values) >= 2:
                return name, key, values[:2]
    pytest.skip("no registered game has an option its example configurations vary")


def test_study_runs_a_study_as_the_api_does(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from cruiselib.arena.plan import Study
    from cruiselib.arena.runner import run as arena_run

    name, key, values = _an_option_with_two_values()
    players = min(game_class(name).player_counts)
    grid = f"{key}={json.dumps(values)}"
    argv = ["study", name, "--grid", grid, "--players", str(players), "--games", "50", "--seed", "2"]
    code, out, _ = run(capsys, *argv, "--workers", "1", "--no-progress", "--no-report", "--out", str(tmp_path / "cli"))
    assert code == 0
    text = " ".join(out.split())
    assert f"{game_class(name).title}: 100 games," in text and "seat 0" in text and str(values[1]) in text
    assert not (tmp_path / "cli" / "report.html").exists()
    spec = Study(game=name, grid={key: values}, players=(players,), games=50, seed=2)
    arena_run(spec, tmp_path / "api", backend="serial", progress=False)
    _same_run(tmp_path / "cli", tmp_path / "api")


def test_arena_and_study_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as top:
        main(["--help"])
    out = capsys.readouterr().out
    assert top.value.code == 0 and "a tournament of bots" in out and "a balance study" in out
    for command, flag in (("arena", "--bot"), ("study", "--grid")):
        with pytest.raises(SystemExit) as exit_:
            main([command, "--help"])
        out = capsys.readouterr().out
        assert exit_.value.code == 0 and f"usage: cruiselib {command}" in out and flag in out and "--out" in out


@pytest.mark.parametrize("command", ["arena", "study"])
def test_arena_and_study_exit_codes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    import cruiselib.arena.cli

    code, _, err = run(capsys, command, "nosuchgame", "--bot", "random", "--no-progress")
    assert code == 2 and f"cruiselib {command}: error:" in err and "nosuchgame" in err

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cruiselib.arena.cli, "run", interrupted)
    code, _, err = run(capsys, command, cruiselib.games()[0], "--no-progress")
    assert code == 130 and "again" in err

    def no_ray(*args: object, **kwargs: object) -> None:
        raise ImportError("the ray backend needs Ray: pip install 'cruiselib[ray]'")

    monkeypatch.setattr(cruiselib.arena.cli, "run", no_ray)
    code, _, err = run(capsys, command, cruiselib.games()[0], "--backend", "ray", "--no-progress")
    assert code == 2 and f"cruiselib {command}: error:" in err and "cruiselib[ray]" in err
