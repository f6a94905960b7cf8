"""``cruiselib play``: one game against bots in a terminal (80×24 is enough).

Each of your turns shows the other seats' moves since your last one, the board (the
game's own ``render`` for your seat: the full picture when it fits the terminal with the
move list below it, else the game's compact one, at most 80×10), a summary of the legal
moves grouped by kind and at most ``LIST_LIMIT`` numbered moves, then the prompt: on an
80×24 terminal the board, the moves and the prompt are all in view. Every move keeps its number for the
whole turn (its place in ``state.legal_moves()``), so a number read from any listing
works. What you type, in this order:

* a command: ``help`` (or ``?``), ``hint`` (or ``h``: the hint bot's top three moves,
  with their numbers, values and visits), ``undo`` (take back your last move and the
  other seats' moves after it), ``show`` (the full board, however long),
  ``moves [filter]`` (list the moves, or those the filter
  matches, numbered), ``quit`` (or ``q``, ``exit``);
* a move's number;
* a move's text, read tolerantly by ``state.parse_move`` (case, punctuation, accents,
  the parts a game's notation lets you leave out);
* anything else is a filter: the moves of that kind (``charter``, ``charters``,
  ``play card``), else the moves whose text starts with it (``play 3``), else those with
  a word starting with each of its words (``spica``, ``28 1``). The matches are listed;
  when exactly one move matches it is shown alone and Enter plays it (the filter never
  plays a move by itself). No match at all prints ``parse_move``'s close matches.

An empty line plays the move when the last listing showed exactly one, otherwise it shows
the board again. Ctrl-C leaves with exit code 130, end of input with 0, both without a
traceback. The game ends with one line, the same in every game::

    Game over: seat 0 (you) wins · seat 0 (you) 12, seat 1 9
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

import cruiselib
from cruiselib._api import normalize_move_text
from cruiselib.bots import Bot
from cruiselib.errors import IllegalMoveError

__all__ = ["LIST_LIMIT", "PlaySession", "kind_label", "result_line"]

LIST_LIMIT = 10  # move lines a turn shows at most (a filter or `moves` shows all its matches)
# The lines of a turn besides the board: the blank line before it, the summary, the move
# lines, the "more" line and the prompt. A board fits when it leaves room for them.
TURN_LINES = LIST_LIMIT + 4
SAMPLE = 8  # moves sampled across kinds when a turn has more than LIST_LIMIT
HINT_MOVES = 3
QUIT = frozenset({"q", "quit", "exit"})
HELP = frozenset({"?", "help"})
HINT = frozenset({"h", "hint"})

HELP_TEXT = """\
Type one of:
  12            the move numbered 12 (numbers hold for the whole turn)
  play 3 to ship 28, seat 0's side
                a move's text (case, punctuation and accents do not matter)
  play 3        a filter: the moves of a kind or starting with it, listed;
                when one move is left, Enter plays it
  moves [filter]  list every move (or the filter's matches), numbered
  hint          the hint bot's three best moves, with values and visits
  undo          take back your last move and the moves after it
  show          the full board, however long (each turn shows a short one
                when the full one does not fit the screen)
  help          this text
  quit          leave the game (Ctrl-C and end of input leave too)
Enter on an empty line shows the board again."""


def kind_label(move: Any) -> str:
    """A move's kind in words, from its class name: ``PlayCard`` → ``play card``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", type(move).__name__).lower()


def _party(seat: int, human: int) -> str:
    return f"seat {seat} (you)" if seat == human else f"seat {seat}"


def result_line(state: Any, human: int) -> str:
    """The one line that ends every game: who won, then every party's score, best first.

    ``Game over: seat 0 (you) wins · seat 0 (you) 12, seat 1 9``; a draw (no winner among
    several seats) is ``Game over: a draw · …``; a shared win names every winner; a solo
    game against the game's own opponent (``game.rival``, Dream Cruise's Jana) lists its score too."""
    scores: list[int] = list(state.scores())
    winners: list[int] = list(state.winners())
    parties: list[tuple[str, int, bool]] = [(_party(p, human), s, p in winners) for p, s in enumerate(scores)]
    rival = state.game.rival(state)
    if rival is not None:
        parties.append((rival[0], rival[1], not winners))
    ranked = sorted(parties, key=lambda party: (not party[2], -party[1]))  # stable: seat order within ties
    names = [name for name, _, won in ranked if won]
    if len(names) == 1:
        outcome = f"{names[0]} wins"
    elif names:
        outcome = f"{', '.join(names[:-1])} and {names[-1]} share the win"
    else:
        outcome = "a draw" if len(parties) > 1 else "seat 0 (you) loses"
    return f"Game over: {outcome} · " + ", ".join(f"{name} {score}" for name, score, _ in ranked)


@dataclass
class PlaySession:
    """One game of ``cruiselib play``: the state, the bots, what was last listed."""

    game: Any
    state: Any
    human: int
    bots: dict[int, Bot]
    opponent: str
    hinter: Bot
    out: Any  # a rich Console
    stdin: TextIO
    interactive: bool = False  # read with input() (line editing) rather than stdin.readline()
    seats: list[int] = field(default_factory=list)  # who applied each action of the history
    shown: list[int] = field(default_factory=list)  # the move numbers the last listing showed

    # ----------------------------------------------------------------- output

    def line(self, text: str = "", *, style: str | None = None, crop: bool = False) -> None:
        """Plain text (never read as markup: boards and moves contain brackets)."""
        self.out.print(
            text, markup=False, highlight=False, style=style, no_wrap=crop, overflow="ellipsis" if crop else None
        )

    def board(self, player: int | None, room: int) -> str:
        """The full render when it fits the terminal's width and ``room`` lines, else the
        game's compact one."""
        full: str = self.game.render(self.state, player)
        rows = full.splitlines()
        width, height = self.out.size
        if len(rows) <= max(height - room, self.game.COMPACT_ROWS) and max(map(len, rows), default=0) <= width:
            return full
        compact: str = self.game.render(self.state, player, compact=True)
        return compact

    def show_board(self) -> None:
        self.line()
        self.line(self.board(self.human, TURN_LINES))

    def show_moves(self, moves: Sequence[Any], numbers: Sequence[int], *, heading: str | None = None) -> None:
        """Numbered move lines (cropped to the terminal's width); they become the last listing."""
        if heading:
            self.line(heading)
        width = len(str(len(moves)))
        for n in numbers:
            self.line(f"  {n:>{width}}  {moves[n - 1]}", crop=True)
        self.shown = list(numbers)

    def show_turn(self, moves: Sequence[Any]) -> None:
        """The summary of a turn's moves by kind and at most LIST_LIMIT move lines."""
        kinds: dict[str, list[int]] = {}
        for n, move in enumerate(moves, 1):
            kinds.setdefault(kind_label(move), []).append(n)
        counts = ", ".join(f"{len(ns)} {kind}" for kind, ns in kinds.items())
        self.line(f"Your move, seat {self.human}: {len(moves)} {'move' if len(moves) == 1 else 'moves'} ({counts})")
        if len(moves) <= LIST_LIMIT:
            self.show_moves(moves, range(1, len(moves) + 1))
            return
        # A few moves of every kind, in the turn's order, then what is left of each kind.
        picked: set[int] = set()
        queues = [list(ns) for ns in kinds.values()]
        while len(picked) < SAMPLE and any(queues):
            for queue in queues:
                if queue and len(picked) < SAMPLE:
                    picked.add(queue.pop(0))
        self.show_moves(moves, sorted(picked))
        more = len(moves) - len(picked)
        example = next(kind for kind, ns in kinds.items() if not picked.issuperset(ns))
        self.line(f"  … {more} more: `moves {example}` lists a kind; or type the start of a move", crop=True)

    def prompt(self, moves: Sequence[Any]) -> str | None:
        text = f"seat {self.human}, your move [1-{len(moves)}, help]: "
        if self.interactive:
            try:
                return self.out.input(text, markup=False).strip()  # type: ignore[no-any-return]
            except EOFError:
                return None
        self.out.print(text, end="", markup=False, highlight=False)
        answer = self.stdin.readline()
        return answer.strip() if answer else None

    # ----------------------------------------------------------------- moves

    def filter(self, moves: Sequence[Any], text: str) -> list[int]:
        """The numbers of the moves a filter names: a kind, else a text prefix, else words."""
        norm = normalize_move_text(text)
        if not norm:
            return []
        squashed = norm.replace(" ", "")
        by_kind = [
            n
            for n, move in enumerate(moves, 1)
            if squashed in (kind_label(move).replace(" ", ""), kind_label(move).replace(" ", "") + "s")
        ]
        if by_kind:
            return by_kind
        texts = [normalize_move_text(str(move)) for move in moves]
        for prefixed in (
            [n for n, t in enumerate(texts, 1) if t == norm or t.startswith(norm + " ")],  # whole words first
            [n for n, t in enumerate(texts, 1) if t.startswith(norm)],
        ):
            if prefixed:
                return prefixed
        words = norm.split()
        hits = []
        for n, (move, t) in enumerate(zip(moves, texts, strict=True), 1):
            have = (normalize_move_text(kind_label(move)) + " " + t).split()
            if all(any(h.startswith(w) for h in have) for w in words):
                hits.append(n)
        return hits

    def list_matches(self, moves: Sequence[Any], text: str, numbers: list[int], *, limit: int | None = None) -> None:
        """A filter's matches, numbered; past ``limit`` lines, how many more there are."""
        if len(numbers) == 1:
            self.show_moves(moves, numbers, heading=f"one move matches {text!r} (Enter plays it):")
            return
        self.show_moves(moves, numbers[:limit], heading=f"{len(numbers)} moves match {text!r}:")
        if limit is not None and len(numbers) > limit:
            self.line(f"  … {len(numbers) - limit} more: type more of the text, or `moves {text}`", crop=True)

    def apply(self, move: Any) -> None:
        self.state.apply(move, player=self.human)
        self.seats.append(self.human)

    def undo(self) -> bool:
        """Take back your last move and the other seats' moves after it (False: none yet)."""
        if self.human not in self.seats:
            self.line("nothing to undo: you have not moved yet", style="yellow")
            return False
        others = 0
        while True:
            seat = self.seats.pop()
            action = self.state.undo()
            if seat == self.human:
                break
            others += 1
        after = f" and {others} {'move' if others == 1 else 'moves'} after it" if others else ""
        mine = self.state.legal_moves()[list(self.state.legal_actions()).index(action)]  # its full text
        self.line(f"took back your move {mine}{after}", style="yellow")
        return True

    def hint(self, moves: Sequence[Any]) -> None:
        """The hint bot's best moves for you, best first, with their numbers in the turn."""
        self.line(f"  thinking ({self.hinter.name})...", style="dim")
        actions: list[int] = list(self.state.legal_actions())
        candidates = self.hinter.analyse(self.state)[:HINT_MOVES]
        self.line("hints, best first (number, value, visits, move):", style="green")
        width = len(str(len(moves)))
        for c in candidates:
            value = "     " if c.value is None else f"{c.value:+.2f}"
            visits = f"{c.visits:>6} visits  " if c.visits else ""
            self.line(f"  {actions.index(c.action) + 1:>{width}}  {value}  {visits}{c.move}", style="green", crop=True)
        self.shown = [actions.index(c.action) + 1 for c in candidates]

    # ----------------------------------------------------------------- the game

    def bots_move(self) -> None:
        while not self.state.is_over and self.state.current_player != self.human:
            seat = self.state.current_player
            action = self.bots[seat].choose(self.state)
            self.line(f"  seat {seat} ({self.opponent}): {self.game.action_to_move(action)}", crop=True)
            self.state.apply(action)
            self.seats.append(seat)

    def turn(self) -> bool:
        """Your turn, until a move is played (True) or you quit (False)."""
        moves = self.state.legal_moves()
        self.show_board()
        self.show_turn(moves)
        while True:
            answer = self.prompt(moves)
            if answer is None:
                self.line()
                self.line("bye")
                return False
            word, _, rest = answer.partition(" ")
            low = word.lower()
            if not answer:
                if len(self.shown) == 1:
                    self.apply(moves[self.shown[0] - 1])
                    return True
                self.show_board()
                self.show_turn(moves)
            elif low in QUIT and not rest:
                self.line("bye")
                return False
            elif low in HELP and not rest:
                self.line(HELP_TEXT)
            elif low in HINT and not rest:
                self.hint(moves)
            elif low == "show" and not rest:
                self.line(self.game.render(self.state, self.human))
            elif low == "undo" and not rest:
                if self.undo():
                    return True
            elif low == "moves":
                wanted = rest.strip()
                if not wanted:
                    self.show_moves(moves, range(1, len(moves) + 1))
                elif numbers := self.filter(moves, wanted):
                    self.list_matches(moves, wanted, numbers)
                else:
                    self.line(f"no move matches {wanted!r}", style="red")
            elif answer.isdigit():
                n = int(answer)
                if 1 <= n <= len(moves):
                    self.apply(moves[n - 1])
                    return True
                self.line(f"no move {n}: the moves are numbered 1 to {len(moves)}", style="red")
            else:
                try:
                    move = self.state.parse_move(answer)
                except IllegalMoveError as exc:
                    numbers = self.filter(moves, answer)
                    if numbers:
                        self.list_matches(moves, answer, numbers, limit=LIST_LIMIT)
                    else:
                        self.line(str(exc), style="red")
                        self.line("type help for what you can type, moves to list the moves", style="dim")
                else:
                    self.apply(move)
                    return True

    def run(self) -> int:
        others = f"the others are {self.opponent} bots" if self.game.num_players > 1 else "you play alone"
        self.line(f"{self.game.title}: you are seat {self.human}; {others}. Type help for help.", style="bold")
        while True:
            self.bots_move()
            if self.state.is_over:
                break
            if not self.turn():
                return 0
        self.line()
        self.line(self.board(None, 3))  # the blank line, the result line and the shell's prompt
        self.line(result_line(self.state, self.human), style="bold")
        return 0


def play_session(
    game: cruiselib.Game[Any],
    state: Any,
    human: int,
    bots: dict[int, Bot],
    opponent: str,
    hinter: Bot,
    out: Any,
    stdin: TextIO | None = None,
) -> int:
    """Play ``state`` to its end (0), or to a quit (0) or Ctrl-C (130), in the terminal."""
    interactive = stdin is None and sys.stdin.isatty()
    if interactive:
        with contextlib.suppress(ImportError):  # line editing and history for input()
            import readline  # noqa: F401
    session = PlaySession(game, state, human, bots, opponent, hinter, out, stdin or sys.stdin, interactive)
    try:
        return session.run()
    except KeyboardInterrupt:
        out.print()
        print("cruiselib: interrupted", file=sys.stderr)
        return 130
