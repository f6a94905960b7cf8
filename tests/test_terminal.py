"""``cruiselib play`` through a pseudo-terminal of 80×24, as a person types at it.

Each test starts ``python -m cruiselib.cli play …`` on the slave side of a pty (its
controlling terminal, so Ctrl-C is the terminal's own SIGINT), types lines on the master
side and reads the screen's text with the colour codes taken out."""

from __future__ import annotations

import contextlib
import os
import random
import re
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from rich.cells import cell_len

import cruiselib
from cruiselib._registry import game_class
from cruiselib._terminal import LIST_LIMIT, result_line

if sys.platform == "win32":  # pragma: no cover
    pytest.skip("pseudo-terminals are POSIX", allow_module_level=True)

import fcntl
import select
import struct
import subprocess
import termios

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


def test_the_prompt_stands_on_its_own_line(terminals: Start) -> None:
    """After a move played by typing its text, the bots' moves start on a line of their own."""
    t = terminals("atlantic_star", "--players", "2", "--seed", "3", "--opponent", "random")
    t.prompt()
    t.type("charter spica")
    after = t.prompt()
    before_bot = after[: after.index("seat 1 (random):")]
    assert before_bot.endswith("\n  ") and "seat 0 (you): charter" in after
    assert after.startswith("charter spica\n")  # the terminal's echo ends the prompt's line
    t.type("q")
    assert t.finish() == 0


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
