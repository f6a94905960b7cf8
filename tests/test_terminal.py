"""``cruiselib play`` through a pseudo-terminal of 80×24, as a person types at it.

Each test starts ``python -m cruiselib.cli play …`` on the slave side of a pty (its
controlling terminal, so Ctrl-C is the terminal's own SIGINT), types lines on the master
side and reads the screen's text with the colour codes taken out."""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console

import cruiselib
from cruiselib._registry import game_class
from cruiselib._terminal import (
    HINT_HEAD,
    LIST_LIMIT,
    PlaySession,
    in_board_notation,
    move_text,
    play_session,
    result_line,
)
from cruiselib.bots import make_bot

from .support import one_per_game

if sys.platform == "win32":  # pragma: no cover
    pytest.skip("pseudo-terminals are POSIX", allow_module_level=True)

import fcntl
import select
import struct
import subprocess
import termios

# A surface over the public API: the README's pure-Python run leaves it out (-m "not surface").
pytestmark = pytest.mark.surface

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
PROMPT = re.compile(r"seat \d, your move \[1-\d+, help\]: $")
COLUMNS, ROWS = 80, 24


class Terminal:
    """A ``cruiselib`` process on a pty of 80×24."""

    def __init__(self, *argv: str) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR")}
        env["TERM"] = "xterm-256color"

        def controlling_tty() -> None:  # runs in the child, a new session's leader
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cruiselib.cli", *argv],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
            preexec_fn=controlling_tty,  # the test process starts no threads
        )
        os.close(slave)
        self.master = master
        self.text = ""  # everything shown so far, colour codes removed
        self.seen = 0  # how far expect() has read

    def read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        if not data:
            return False
        self.text += ANSI.sub("", data.decode("utf-8", "replace"))
        return True

    def expect(self, pattern: str | re.Pattern[str], timeout: float = 60) -> str:
        """The screen text up to and including the next match of ``pattern`` (a regex)."""
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        deadline = time.monotonic() + timeout
        while not (match := regex.search(self.text, self.seen)):
            if time.monotonic() > deadline or not self.read(0.2):
                raise AssertionError(f"no {regex.pattern!r} in:\n{self.text[self.seen :]}")
        chunk = self.text[self.seen : match.end()]
        self.seen = match.end()
        return chunk

    def prompt(self) -> str:
        """The screen up to the next move prompt."""
        return self.expect(PROMPT)

    def type(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\r")

    def end_input(self, timeout: float = 60) -> int:
        """Ctrl-D at an empty prompt, again each second until the program ends (the first
        may come while the prompt still sets the terminal up for line editing, and a loaded
        machine can lose it then); the exit code."""
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                os.write(self.master, b"\x04")
            again = time.monotonic() + 1.0
            while time.monotonic() < again and self.proc.poll() is None and self.read(0.1):
                pass
        return self.finish(max(1.0, deadline - time.monotonic()))

    def finish(self, timeout: float = 60) -> int:
        """Read to the end; the exit code."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.read(0.2):
            if self.proc.poll() is not None:
                while self.read(0.05) and select.select([self.master], [], [], 0)[0]:
                    pass
                break
        code = self.proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        os.close(self.master)
        return code

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        with contextlib.suppress(OSError):
            os.close(self.master)


Start = Callable[..., Terminal]


@pytest.fixture
def terminals() -> Iterator[Start]:
    started: list[Terminal] = []

    def start(*argv: str) -> Terminal:
        t = Terminal("play", *argv)
        started.append(t)
        return t

    yield start
    for t in started:
        t.close()


def screen_lines(chunk: str) -> list[str]:
    return chunk.split("\n")


def flat(chunk: str) -> str:
    """The text with its line breaks (the terminal's wrapping) as single spaces."""
    return " ".join(chunk.split())


def test_a_turn_fits_80_by_24_and_moves_by_number_text_and_prefix(terminals: Start) -> None:
    """The board and a short grouped summary fit the screen; one rule for text: a number, a
    move's text and a text naming one move each play at once, a text naming several lists
    them and plays nothing; a typo lists close matches."""
    t = terminals("sirens", "--seed", "3", "--seat", "0", "--opponent", "random")
    turn = t.prompt()
    assert "Traceback" not in turn
    lines = screen_lines(turn[turn.rindex("\n\n") + 2 :])  # the board, the summary, the prompt
    assert len(lines) <= ROWS and all(cell_len(line) <= COLUMNS for line in lines)
    summary = next(line for line in lines if line.startswith("Your move, seat 0:"))
    assert re.fullmatch(r"Your move, seat 0: \d+ moves \(\d+ play card, .*\)", summary)
    listed = [line for line in lines if re.match(r"\s+\d+  ", line)]
    assert 0 < len(listed) <= LIST_LIMIT and "more: `moves play card` lists a kind" in turn

    # A typo: parse_move's close matches, no move played.
    t.type("plya 3 to ship 28, seat 0's side")
    assert 'did you mean "play 3 to ship 28' in flat(t.prompt())
    # Text naming several moves: they are listed, numbered as in the turn, none played.
    t.type("play 3 to ship 3")
    shown = t.prompt()
    assert "8 moves match 'play 3 to ship 3'; type a number:" in shown
    assert re.search(r"\n\s+13  play 3 to ship 30 \(captain\), seat 0's side: total 0 → 3, needs 30\n", shown)
    # A number plays that move at once (then the turn goes on: rum or its end).
    t.type("13")
    after = t.prompt()
    assert "seat 0 (you): play 3 to ship 30" in after
    assert re.search(r"3 \(=3\) \|\s+30 captain", after) and re.search(r"\n\s+\d+  end turn\n", after)
    # A move's text plays it, whatever its case.
    t.type("End Turn")
    after = t.prompt()
    assert "seat 0 (you): end turn" in after and "seat 1 (random):" in after and "Your move, seat 0:" in after
    # A text that one move starts with plays it at once, as a whole text does.
    t.type("rum on ship 2")
    assert "28 (+3 rum)" in flat(t.prompt()) or "28 +3 rum" in t.text
    t.type("quit")
    assert t.finish() == 0 and "bye" in t.text and "Traceback" not in t.text


def turn_screen(chunk: str) -> list[str]:
    """A turn's screen: the board (after the blank line that starts it), the move summary,
    the move lines and the prompt."""
    lines = screen_lines(chunk)
    summary = max(i for i, line in enumerate(lines) if line.startswith("Your move, seat"))
    start = max(i for i in range(summary) if not lines[i].strip()) + 1
    return lines[start:]


def play_argv(name: str, options: dict[str, Any]) -> tuple[str, ...]:
    """``cruiselib play`` arguments of a configuration: ``--players n`` and ``-o key=value``."""
    argv = [name]
    for key, value in options.items():
        if key == "players":
            argv += ["--players", str(value)]
        elif isinstance(value, bool):
            argv += ["-o", f"{key}={str(value).lower()}"]
        elif isinstance(value, (tuple, list)):
            argv += ["-o", f"{key}={','.join(map(str, value))}"]
        else:
            argv += ["-o", f"{key}={value}"]
    return tuple(argv)


# Every game's first and last example configurations (its fewest and most seats where the
# list goes by seats): the smallest and the most crowded boards.
SCREEN_GAMES: list[tuple[str, ...]] = [
    play_argv(name, dict(examples[i]))
    for name in cruiselib.games()
    for examples in [game_class(name).example_configurations]
    for i in sorted({0, len(examples) - 1})
]


@pytest.mark.parametrize("game", SCREEN_GAMES, ids=lambda argv: "-".join(argv[:1] + argv[2::2]))
def test_every_game_keeps_board_moves_and_prompt_on_80_by_24(terminals: Start, game: tuple[str, ...]) -> None:
    """In every game and player count, each turn's board (compact where the full one does
    not fit), move summary, move lines and prompt fit one 80×24 screen; ``show`` prints the
    full board."""
    t = terminals(*game, "--seed", "5", "--seat", "0", "--opponent", "random")
    for turn in range(8):
        screen = turn_screen(t.prompt())
        assert len(screen) <= ROWS and all(cell_len(line) <= COLUMNS for line in screen), "\n".join(screen)
        board = screen[: next(i for i, line in enumerate(screen) if line.startswith("Your move"))]
        assert len(board) >= 2 and "Traceback" not in "".join(screen)
        if turn == 0:
            t.type("show")
            full = t.prompt()
            assert len(screen_lines(full)) >= len(board)
        t.type("1")
    t.type("quit")
    assert t.finish() == 0 and "Traceback" not in t.text


def test_commands_help_moves_hint_undo(terminals: Start) -> None:
    """help explains, `moves <kind>` lists a kind, hint ranks three moves with values and
    numbers, undo takes back the player's move and the bot's reply."""
    t = terminals("atlantic_star", "--players", "2", "--seed", "3", "--opponent", "random", "--think", "0.05")
    first = t.prompt()
    assert "Your move, seat 0: 5 moves (1 refresh, 4 charter)" in first
    t.type("help")
    helptext = t.prompt()
    for word in ("moves [TEXT]", "hint", "undo", "legend", "quit", "when it names one move"):
        assert word in helptext
    t.type("moves charters")
    chunk = t.prompt()
    assert "4 moves match 'charters'" in chunk and len(re.findall(r"\n\s+\d  charter ", chunk)) == 4
    t.type("hint")
    hints = re.findall(r"\n\s+(\d)  ([+-]\d\.\d\d)\s+(\d+) visits  (.+)", t.prompt())
    visits = [int(v) for _, _, v, _ in hints]
    assert len(hints) == 3 and visits == sorted(visits, reverse=True)
    t.type("charter spica")  # a move's text, with a part left out
    second = t.prompt()
    assert "seat 1 (random):" in second and "hand: Spica" in second
    t.type("undo")
    back = flat(t.prompt())
    assert "took back your move charter Spica" in back and "1 move after it" in back
    assert "Your move, seat 0: 5 moves (1 refresh, 4 charter)" in back and "hand: (empty)" in back
    t.type("undo")
    assert "nothing to undo" in t.prompt()
    t.type("q")
    assert t.finish() == 0 and "Traceback" not in t.text


def test_ctrl_c_and_end_of_input_exit_cleanly(terminals: Start) -> None:
    t = terminals("dream_islands", "--seed", "2")
    t.prompt()
    time.sleep(0.2)
    os.write(t.master, b"\x03")  # Ctrl-C: the terminal sends SIGINT
    code = t.finish()
    assert code == 130 and "interrupted" in t.text and "Traceback" not in t.text
    t = terminals("dream_islands", "--seed", "2")
    t.prompt()
    code = t.end_input()  # Ctrl-D at the start of a line: end of input
    assert code == 0 and t.text.rstrip().endswith("bye") and "Traceback" not in t.text


def _first_answers(seed: int) -> tuple[int, Any]:
    state: Any = cruiselib.make("dream_cruise", players=1).new_state(seed=seed)
    n = 0
    while not state.is_over:
        state.apply(state.legal_actions()[0])
        n += 1
    return n, state


def test_a_whole_solo_game_to_the_result_line(terminals: Start) -> None:
    """A solo Dream Cruise game played to its end (always move 1) ends with the one
    result line, Jana's score included."""
    n, final = _first_answers(6)
    t = terminals("dream_cruise", "--players", "1", "--seed", "6")
    for _ in range(n):
        t.prompt()
        t.type("1")
    code = t.finish()
    line = result_line(final, 0)
    assert code == 0 and line in t.text and "Traceback" not in t.text
    party = r"(seat 0 \(you\)|Jana)"
    assert re.fullmatch(rf"Game over: {party} wins · {party} \d+, {party} \d+", line)


def test_result_lines_are_alike_in_every_game() -> None:
    """Win, draw and shared wins read the same in every game; scores best first."""
    for name in (n for n in cruiselib.games() if 2 in game_class(n).player_counts):
        game = cruiselib.make(name, players=2)
        state = game.new_state(seed=1)
        chooser = random.Random(1)
        while not state.is_over:
            state.apply(chooser.choice(state.legal_actions()))
        line = result_line(state, 0)
        scores, winners = state.scores(), state.winners()
        assert line.startswith("Game over: ")
        if len(winners) == 1:
            assert f"seat {winners[0]}{' (you)' if winners[0] == 0 else ''} wins · " in line
        elif not winners:
            assert "a draw · " in line
        assert f"seat 0 (you) {scores[0]}" in line and f"seat 1 {scores[1]}" in line


# --------------------------------------------------------------------------- scripted games

ALL_CONFIGURATIONS = [
    (name, dict(options)) for name in cruiselib.games() for options in game_class(name).example_configurations
]
PROMPT_LINE = re.compile(r"seat \d, your move \[1-(\d+), help\]: (.*)")
MOVE_LINE = re.compile(r"(\s+)(\d+)  (.*)")
SCRIPT = ["legend", "hint", "show", "", "1", "1", "1", "hint", "1", "1", "1"]


class Boards:
    """A game whose ``render`` remembers, for each text it drew, whether it was the compact
    board, and the texts of the legal moves of the reader's turn it was drawn in."""

    def __init__(self, game: Any, human: int, monkeypatch: pytest.MonkeyPatch) -> None:
        self.kinds: dict[str, set[bool]] = {}
        self.moves: dict[str, list[str]] = {}
        real = game.render

        def render(state: Any, player: int | None = None, *, compact: bool = False) -> str:
            text: str = real(state, player, compact=compact)
            self.kinds.setdefault(text, set()).add(compact)
            if player == human and not state.is_over and state.current_player == human:
                self.moves[text] = [
                    in_board_notation(game, move_text(state, move, human), compact) for move in state.legal_moves()
                ]
            return text

        monkeypatch.setattr(game, "render", render)


def scripted_game(name: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[str, Boards]:
    """A game at seat 0 against random bots, played by ``SCRIPT`` on a console 80×24 wide
    and a piped stdin; the transcript and what the board texts were made of."""
    game = cruiselib.make(name, **options)
    boards = Boards(game, 0, monkeypatch)
    state = game.new_state(seed=4)
    bots = {p: make_bot("random", seed=p) for p in range(1, game.num_players)}
    hinter = make_bot("ismcts", seed=1, iterations=100)
    screen = io.StringIO()
    out = Console(file=screen, width=COLUMNS, height=ROWS, color_system=None, force_terminal=False)
    stdin = io.StringIO("".join(f"{line}\n" for line in SCRIPT))
    assert play_session(game, state, 0, bots, "random", hinter, out, stdin) == 0
    return screen.getvalue(), boards


def listed_moves(lines: list[str]) -> dict[int, str]:
    """The numbered move lines of a listing, each with its wrapped lines joined."""
    moves: dict[int, str] = {}
    last = None
    for line in lines:
        if match := MOVE_LINE.fullmatch(line):
            last = int(match[2])
            moves[last] = match[3]
        elif last is not None and line.startswith(" " * 5) and not line.lstrip().startswith("…"):
            moves[last] += " " + line.strip()
        else:
            last = None
    return moves


@pytest.mark.parametrize(("name", "options"), ALL_CONFIGURATIONS, ids=lambda v: str(v) if isinstance(v, str) else "")
def test_a_scripted_game_reads_well_at_80_by_24(
    name: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every example configuration, solo included, played from a script at 80 columns: no
    line is wider, each prompt stands on its own line with only the answer after it, the
    hint shows the three moves it promises, every turn shows the same kind of board, and
    each listed move is said with what it acts on (``move_text`` in its position), in the
    board's notation (the compact board's stand-ins, ``Game.COMPACT_SYMBOLS``)."""
    transcript, boards = scripted_game(name, options, monkeypatch)
    lines = transcript.splitlines()
    assert "Traceback" not in transcript and lines[-1] == "bye"
    assert all(cell_len(line) <= COLUMNS for line in lines), max(lines, key=cell_len)

    prompts = [(i, PROMPT_LINE.fullmatch(line)) for i, line in enumerate(lines) if "your move [1-" in line]
    assert all(match for _, match in prompts), [lines[i] for i, m in prompts if not m]
    assert [m[2] for _, m in prompts if m] == [*SCRIPT, ""][: len(prompts)]  # "": the end of input

    # Each hint lists three moves (or every move of a shorter turn), the search's first.
    hints = [i for i, line in enumerate(lines) if line == HINT_HEAD]
    assert len(hints) == SCRIPT.count("hint")
    for at in hints:
        asked = max(i for i, _ in prompts if i < at)
        end = next(i for i, _ in prompts if i > at)
        hinted = [line for line in lines[at:end] if MOVE_LINE.fullmatch(line)]
        legal = int(PROMPT_LINE.fullmatch(lines[asked])[1])  # type: ignore[index]
        assert len(hinted) == min(3, legal), lines[at:end]

    kinds: set[bool] = set()
    turns = [i for i, line in enumerate(lines) if line.startswith("Your move, seat 0:")]
    for turn in turns:
        start = max(i for i in range(turn) if not lines[i].strip()) + 1
        board = "\n".join(lines[start:turn])
        assert board in boards.kinds, board
        kinds |= boards.kinds[board]
        end = next(i for i, _ in prompts if i > turn)
        texts = boards.moves[board]
        for n, text in listed_moves(lines[turn + 1 : end]).items():
            assert " ".join(text.split()) == " ".join(texts[n - 1].split())
    assert len(turns) >= 2 and len(kinds) == 1
    # One notation for each card: with the compact board, the moves (listed, and each
    # played) use its stand-ins too.
    said = [line for line in lines if MOVE_LINE.fullmatch(line) or line.startswith("  seat ")]
    if kinds == {True}:
        for symbol in game_class(name).COMPACT_SYMBOLS:
            assert not [line for line in said if symbol in line]


def test_a_long_move_wraps_under_its_text() -> None:
    """A move text wider than the terminal goes on under its own start, nothing cut off."""
    screen = io.StringIO()
    out = Console(file=screen, width=40, height=ROWS, color_system=None, force_terminal=False)
    game = cruiselib.make(cruiselib.games()[0])
    session = PlaySession(game, game.new_state(seed=1), 0, {}, "random", make_bot("random"), out, io.StringIO())
    session.texts = ["word " * 15]
    session.show_moves([1])
    assert screen.getvalue().splitlines() == [
        "  1  " + "word " * 6 + "word",
        *["     " + "word " * 6 + "word"],
        "     word",
    ]


def _games_with_events() -> list[str]:
    """The registered games with a solo configuration that say what their rules do on their
    own (``Game.event_lines`` declared)."""
    return [
        name
        for name in cruiselib.games()
        if 1 in game_class(name).player_counts and game_class(name).event_lines is not cruiselib.Game.event_lines
    ]


@pytest.mark.parametrize("name", _games_with_events())
def test_the_rules_own_turns_are_said_between_moves(name: str) -> None:
    """A solo game whose rules act on their own (an automatic rival): after each move, the
    terminal says what they did, as ``Game.event_lines`` says it for the seat, in order;
    the first line names the options the game was made with (its difficulty, say)."""
    web = game_class(name).web
    options = {option.name: option.choices[-1] for option in (web.options if web else ())}
    game: Any = cruiselib.make(name, players=1, **options)
    state: Any = game.new_state(seed=3)
    expected: list[str] = []
    moves = 0
    while not state.is_over and moves < 40:
        before = state.clone()
        state.apply(state.legal_actions()[0])
        expected += game.event_lines(before, state, 0)
        moves += 1
    assert expected  # the rival acted in these moves
    screen = io.StringIO()
    out = Console(file=screen, width=COLUMNS, height=ROWS, color_system=None, force_terminal=False)
    session = PlaySession(
        game, game.new_state(seed=3), 0, {}, "random", make_bot("random"), out, io.StringIO("1\n" * moves)
    )
    assert session.run() == 0
    lines = screen.getvalue().splitlines()
    text = " ".join(line.strip() for line in lines)  # a long line wraps under its start
    at = 0
    for line in expected:  # each said once, in order
        found = text.find(line, at)
        assert found >= 0, line
        at = found + len(line)
    assert all(f"{key} {value}" in lines[0] for key, value in options.items())


@pytest.mark.parametrize(("name", "options"), one_per_game(), ids=lambda v: str(v) if isinstance(v, str) else "")
def test_the_end_says_why_the_game_ended(name: str, options: dict[str, Any]) -> None:
    """How to win shows under the first line and again on ``rules``; a game played to its
    end says why it ended (``Game.end_reason``: the rule, by its id) before the result
    line."""
    game: Any = cruiselib.make(name, **options)
    answers = ["rules"]
    state: Any = game.new_state(seed=2)
    bots = {p: make_bot("random", seed=p) for p in range(1, game.num_players)}
    replay: Any = state.clone()
    while not replay.is_over:  # the same game: the bots' choices, the person's first move
        seat = replay.current_player
        replay.apply(bots[seat].choose(replay) if seat else replay.legal_actions()[0])
        answers += [] if seat else ["1"]
    reason = game.end_reason(replay)
    assert reason and re.search(r"\([A-Z]\d+(, [A-Z]\d+)*\)", reason)
    screen = io.StringIO()
    out = Console(file=screen, width=COLUMNS, height=ROWS, color_system=None, force_terminal=False)
    bots = {p: make_bot("random", seed=p) for p in range(1, game.num_players)}
    stdin = io.StringIO("".join(f"{answer}\n" for answer in answers))
    assert play_session(game, state, 0, bots, "random", make_bot("random"), out, stdin) == 0
    lines = screen.getvalue().splitlines()
    text = flat(screen.getvalue())
    assert "rules for how to win" in flat(" ".join(lines[:2]))  # the first line (wrapped) says so
    assert text.count(flat("How to win: " + game.how_to_win)) == 2  # at the start, and on `rules`
    assert text.count(flat("The end: " + game.how_it_ends)) == 2
    assert lines[-1] == result_line(replay, 0)
    assert flat(text).endswith(flat(reason) + " " + lines[-1])  # the reason, then the result
