"""``cruiselib play``: one game against bots in a terminal (80×24 is enough).

Each of your turns shows the other seats' moves since your last one, the board (the
game's own ``render`` for your seat), a summary of the legal moves grouped by kind and at
most ``LIST_LIMIT`` lines of numbered moves, then the prompt on its own line: on an 80×24
terminal the board, the moves and the prompt are all in view. The board is the full
picture or the game's compact one (at most 80×10), chosen once for the whole game: the
full one only where it fits the terminal in every position of a sample game. Moves are
said in their position (``state.move_text``: the card, the ship, the family they act on);
a long line wraps under its own text rather than being cut. Every move keeps its number
for the whole turn (its place in ``state.legal_moves()``), so a number read from any
listing works. What you type, in this order:

* a command: ``help`` (or ``?``), ``rules`` (how to win and how the game ends: the game's
  ``how_to_win`` and ``how_it_ends``, also shown under the first line), ``legend`` (what
  the compact board's short forms mean: the game's ``COMPACT_LEGEND``, where it declares
  one), ``hint`` (or ``h``: the hint bot's top three moves, with their numbers, values
  (-1 a loss to +1 a win) and visits; where the search tried fewer, the game's rule bot
  names the rest), ``undo`` (take back your last move and the other seats' moves after
  it), ``show`` (the full board, however long), ``moves [filter]`` (list the moves, or
  those the filter matches, numbered), ``quit`` (or ``q``, ``exit``);
* a move's number;
* any other text. One rule: text that names exactly one move plays it at once; text that
  names several lists them, numbered, and plays nothing. A text names the move
  ``state.parse_move`` reads in it (case, punctuation, accents and the parts a game's
  notation lets you leave out do not matter), else the moves of that kind (``charter``,
  ``charters``, ``play card``), else the moves whose text starts with it (``play 3``),
  else those with a word starting with each of its words (``spica``, ``28 1``). No match
  at all prints ``parse_move``'s close matches.

An empty line shows the board again. Each move played is echoed as a line of its own, yours
too, and so is what the rules did on their own in between (``Game.event_lines``: Dream
Cruise's Jana drawing a family, taking location cards). The first line names the game's
options (a solo game's difficulty: ``--option difficulty=2``). Ctrl-C leaves with exit
code 130, end of input with 0, both without a traceback. The game ends with why it ended
(``Game.end_reason``: the rule that ended it) and one line, the same in every game::

    Seat 0 reached 4 points: 4 points win at once (S8).
    Game over: seat 0 (you) wins · seat 0 (you) 12, seat 1 9
"""

from __future__ import annotations

import contextlib
import random
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from rich.text import Text

import cruiselib
from cruiselib._api import normalize_move_text
from cruiselib._registry import game_class
from cruiselib.bots import Bot, make_bot
from cruiselib.errors import IllegalMoveError

__all__ = ["LIST_LIMIT", "PlaySession", "in_board_notation", "kind_label", "move_text", "result_line"]

LIST_LIMIT = 10  # move lines a turn shows at most (a filter or `moves` shows all its matches)
# The lines of a turn besides the board: the blank line before it, the summary, the move
# lines, the "more" line and the prompt. A board fits when it leaves room for them.
TURN_LINES = LIST_LIMIT + 4
SAMPLE = 8  # moves sampled across kinds when a turn has more than LIST_LIMIT
HINT_MOVES = 3
# The search's value of a move is the mean result it found after it for the seat to move.
HINT_HEAD = "hints, best first (number, value: -1 a loss to +1 a win, visits, move):"
PROBE_ACTIONS = 600  # the most positions of the sample game that chooses the board
QUIT = frozenset({"q", "quit", "exit"})
HELP = frozenset({"?", "help"})
HINT = frozenset({"h", "hint"})
RULES = frozenset({"rules", "rule"})

HELP_TEXT = """\
Type one of:
  12            the move numbered 12 (numbers hold for the whole turn)
  TEXT          a move's text or a part of it (its kind, its start, some of
                its words): when it names one move, that move is played at
                once; when it names several, they are listed, numbered, and
                none is played (case, punctuation and accents do not matter)
  moves [TEXT]  list every move (or those the text names), numbered
  hint          the hint bot's three best moves, with the search's value of each
                (its mean result after the move: -1 a loss, +1 a win) and how
                often it tried it
  undo          take back your last move and the moves after it
  show          the full board, however long
  position      this position as your seat sees it, in the game's compact
                position text (cruiselib advise and play --position read it)
  rules         how to win and how the game ends
  legend        what the board's short forms mean
  help          this text
  quit          leave the game (Ctrl-C and end of input leave too)
Enter on an empty line shows the board again."""


def kind_label(move: Any) -> str:
    """A move's kind in words, from its class name: ``PlayCard`` → ``play card``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", type(move).__name__).lower()


def move_text(state: Any, move: Any, player: int | None = None) -> str:
    """A legal move's text in ``state``, the position it is played from (take it before the
    move is applied): ``state.move_text`` names what the move acts on; ``player``, the seat
    making the move, may be told what it alone knows (``None``: the public text)."""
    return str(state.move_text(move, player=player))


def in_board_notation(game: Any, text: str, compact: bool) -> str:
    """A move's ``text`` as the board shown says its cards: with the compact board, the
    game's stand-ins for the symbols too wide for it (``Game.COMPACT_SYMBOLS``), so a card
    reads the same on the board and in the moves."""
    if compact:
        for symbol, stand_in in game.COMPACT_SYMBOLS.items():
            text = text.replace(symbol, stand_in)
    return text


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


def full_board_fits(game: Any, state: Any, player: int, columns: int, rows: int) -> bool:
    """Whether the game's full board for ``player`` fits ``columns`` × ``rows`` in every
    position of a sample game from ``state`` (random moves, the same every time, at most
    ``PROBE_ACTIONS``): the terminal keeps one kind of board for the whole game."""
    sample = state.clone()
    chooser = random.Random(0)
    for _ in range(PROBE_ACTIONS):
        lines = game.render(sample, player).splitlines()
        if len(lines) > rows or any(Text(line).cell_len > columns for line in lines):
            return False
        if sample.is_over:
            break
        sample.apply(chooser.choice(sample.legal_actions()))
    return True


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
    texts: list[str] = field(default_factory=list)  # the texts of the turn's moves, in order
    compact: bool | None = None  # the board of every turn: the compact one (None: not chosen yet)
    took_back: bool = False  # the last turn ended with an undo (no events to say)

    # ----------------------------------------------------------------- output

    def line(self, text: str = "", *, style: str | None = None) -> None:
        """Plain text (never read as markup: boards and moves contain brackets)."""
        self.out.print(text, markup=False, highlight=False, style=style, no_wrap=True, overflow="ellipsis")

    def wrapped(self, head: str, text: str, *, style: str | None = None) -> int:
        """``head`` then ``text``, wrapped at the terminal's width under the text's own
        start (a move's destination is never cut off); the number of lines printed."""
        width = max(self.out.size.width - len(head), 20)
        pieces = Text(text).wrap(self.out, width) or [Text("")]
        for i, piece in enumerate(pieces):
            self.line((head if i == 0 else " " * len(head)) + str(piece).rstrip(), style=style)
        return len(pieces)

    def height(self, head: str, text: str) -> int:
        """The lines :meth:`wrapped` takes for ``head`` and ``text``."""
        width = max(self.out.size.width - len(head), 20)
        return max(len(Text(text).wrap(self.out, width)), 1)

    def board(self, player: int | None) -> str:
        """The board of every turn: the full render or the game's compact one, whichever
        was chosen at the start (:func:`full_board_fits`)."""
        if self.compact is None:
            width, height = self.out.size
            fits = full_board_fits(self.game, self.state, self.human, width, height - TURN_LINES)
            self.compact = not fits
        text: str = self.game.render(self.state, player, compact=self.compact)
        return text

    def said(self, text: str) -> str:
        """A move text in the notation of the board shown (:func:`in_board_notation`)."""
        return in_board_notation(self.game, text, bool(self.compact))

    def show_board(self) -> None:
        self.line()
        self.block(self.board(self.human))

    def number_head(self, n: int) -> str:
        return f"  {n:>{len(str(len(self.texts)))}}  "

    def show_moves(self, numbers: Sequence[int], *, heading: str | None = None) -> None:
        """Numbered move lines, each wrapped under its text."""
        if heading:
            self.line(heading)
        for n in numbers:
            self.wrapped(self.number_head(n), self.texts[n - 1])

    def show_turn(self, moves: Sequence[Any]) -> None:
        """The summary of a turn's moves by kind and at most LIST_LIMIT lines of moves."""
        kinds: dict[str, list[int]] = {}
        for n, move in enumerate(moves, 1):
            kinds.setdefault(kind_label(move), []).append(n)
        counts = ", ".join(f"{len(ns)} {kind}" for kind, ns in kinds.items())
        plural = "move" if len(moves) == 1 else "moves"
        self.wrapped("", f"Your move, seat {self.human}: {len(moves)} {plural} ({counts})")
        heights = [self.height(self.number_head(n), text) for n, text in enumerate(self.texts, 1)]
        if sum(heights) <= LIST_LIMIT:
            self.show_moves(range(1, len(moves) + 1))
            return
        # A few moves of every kind, in the turn's order, in the lines a "more" line leaves.
        picked: set[int] = set()
        used = 0
        queues = [list(ns) for ns in kinds.values()]
        while any(queues) and len(picked) < SAMPLE:
            for queue in queues:
                if queue and len(picked) < SAMPLE and used + heights[queue[0] - 1] <= LIST_LIMIT - 1:
                    n = queue.pop(0)
                    picked.add(n)
                    used += heights[n - 1]
                elif queue:
                    queue.clear()  # this kind's next move does not fit: the others may
        self.show_moves(sorted(picked))
        more = len(moves) - len(picked)
        example = next(kind for kind, ns in kinds.items() if not picked.issuperset(ns))
        self.wrapped("  ", f"… {more} more: `moves {example}` lists a kind; or type the start of a move")

    def prompt(self, moves: Sequence[Any]) -> str | None:
        """Your answer (None at the end of input). The prompt stands on its own line and
        what follows it starts on the next: a typed line's Enter ends the line on a
        terminal; read from a pipe or a file, the answer is echoed after the prompt."""
        text = f"seat {self.human}, your move [1-{len(moves)}, help]: "
        if self.interactive:
            try:
                return self.out.input(text, markup=False).strip()  # type: ignore[no-any-return]
            except EOFError:
                self.line()
                return None
        self.out.print(text, end="", markup=False, highlight=False)
        answer = self.stdin.readline()
        self.line(answer.rstrip("\r\n"))
        return answer.strip() if answer else None

    # ----------------------------------------------------------------- moves

    def filter(self, moves: Sequence[Any], text: str) -> list[int]:
        """The numbers of the moves a text names: a kind, else a text prefix, else words
        (each move read by its plain text and by its text in the position)."""
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
        texts = [
            (normalize_move_text(str(move)), normalize_move_text(said))
            for move, said in zip(moves, self.texts, strict=True)
        ]
        for prefixed in (
            [n for n, ts in enumerate(texts, 1) if any(t == norm or t.startswith(norm + " ") for t in ts)],
            [n for n, ts in enumerate(texts, 1) if any(t.startswith(norm) for t in ts)],
        ):
            if prefixed:
                return prefixed
        words = norm.split()
        hits = []
        for n, (move, ts) in enumerate(zip(moves, texts, strict=True), 1):
            have = (normalize_move_text(kind_label(move)) + " " + " ".join(ts)).split()
            if all(any(h.startswith(w) for h in have) for w in words):
                hits.append(n)
        return hits

    def list_matches(self, text: str, numbers: list[int], *, limit: int | None = None) -> None:
        """A text's matches, numbered; past ``limit`` lines, how many more there are."""
        self.show_moves(numbers[:limit], heading=f"{len(numbers)} moves match {text!r}; type a number:")
        if limit is not None and len(numbers) > limit:
            self.wrapped("  ", f"… {len(numbers) - limit} more: type more of the text, or `moves {text}`")

    def apply(self, n: int) -> None:
        """Play your move numbered ``n`` and say it, as the other seats' moves are said."""
        action = self.state.legal_actions()[n - 1]
        self.wrapped(f"  seat {self.human} (you): ", self.texts[n - 1])
        self.state.apply(action, player=self.human)
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
        mine = self.said(move_text(self.state, action, self.human))  # in the position it was played in
        self.wrapped("", f"took back your move {mine}{after}", style="yellow")
        return True

    def hint(self) -> None:
        """The hint bot's best moves for you, best first, with their numbers in the turn;
        where the search tried fewer than ``HINT_MOVES``, the rule bot's next choices."""
        self.line(f"  thinking ({self.hinter.name})...", style="dim")
        actions: list[int] = list(self.state.legal_actions())
        candidates = self.hinter.analyse(self.state)[:HINT_MOVES]
        self.line(HINT_HEAD, style="green")
        for c in candidates:
            value = "     " if c.value is None else f"{c.value:+.2f}"
            visits = f"{c.visits:>6} visits  " if c.visits else ""
            n = actions.index(c.action) + 1
            self.wrapped(f"{self.number_head(n)}{value}  {visits}", self.texts[n - 1], style="green")
        chosen = [c.action for c in candidates]
        wanted = min(HINT_MOVES, len(actions)) - len(chosen)
        if wanted <= 0:
            return
        tried = f"the search tried {len(chosen)} of the {len(actions)} moves"
        if game_class(self.game.name).rule_bot is None:
            self.line(f"{tried}; no other ranks the rest", style="green")
            return
        ranked = [c.action for c in make_bot("rules", seed=0).analyse(self.state) if c.action not in chosen]
        self.line(f"{tried}; the rule bot's next {'choice' if wanted == 1 else 'choices'}:", style="green")
        for action in ranked[:wanted]:
            n = actions.index(action) + 1
            self.wrapped(self.number_head(n), self.texts[n - 1], style="green")

    # ----------------------------------------------------------------- the game

    def bots_move(self) -> None:
        while not self.state.is_over and self.state.current_player != self.human:
            seat = self.state.current_player
            action = self.bots[seat].choose(self.state)
            said = self.said(move_text(self.state, action))  # before the move: the position it is said in
            self.wrapped(f"  seat {seat} ({self.opponent}): ", said)
            self.state.apply(action)
            self.seats.append(seat)

    def turn(self) -> bool:
        """Your turn, until a move is played (True) or you quit (False)."""
        moves = self.state.legal_moves()
        self.texts = [self.said(move_text(self.state, move, self.human)) for move in moves]
        self.show_board()
        self.show_turn(moves)
        while True:
            answer = self.prompt(moves)
            if answer is None:
                self.line("bye")
                return False
            word, _, rest = answer.partition(" ")
            low = word.lower()
            if not answer:
                self.show_board()
                self.show_turn(moves)
            elif low in QUIT and not rest:
                self.line("bye")
                return False
            elif low in HELP and not rest:
                self.line(HELP_TEXT)
            elif low == "legend" and not rest:
                self.show_legend()
            elif low in RULES and not rest:
                self.show_rules()
            elif low in HINT and not rest:
                self.hint()
            elif low == "show" and not rest:
                self.block(self.game.render(self.state, self.human))
            elif low == "position" and not rest:
                self.show_position()
            elif low == "undo" and not rest:
                if self.undo():
                    self.took_back = True
                    return True
            elif low == "moves":
                wanted = rest.strip()
                if not wanted:
                    self.show_moves(range(1, len(moves) + 1))
                elif numbers := self.filter(moves, wanted):
                    self.list_matches(wanted, numbers)
                else:
                    self.line(f"no move matches {wanted!r}", style="red")
            elif answer.isascii() and answer.isdigit():  # not '²', which int() refuses
                n = int(answer)
                if 1 <= n <= len(moves):
                    self.apply(n)
                    return True
                self.line(f"no move {n}: the moves are numbered 1 to {len(moves)}", style="red")
            elif (named := self.named(moves, answer)) is not None:
                self.apply(named)
                return True

    def named(self, moves: Sequence[Any], answer: str) -> int | None:
        """The number of the one move a text names; None after listing several or none."""
        try:
            move = self.state.parse_move(answer)
        except IllegalMoveError as exc:
            numbers = self.filter(moves, answer)
            if len(numbers) == 1:
                return numbers[0]
            if numbers:
                self.list_matches(answer, numbers, limit=LIST_LIMIT)
            else:
                self.wrapped("", str(exc), style="red")
                self.line("type help for what you can type, moves to list the moves", style="dim")
            return None
        return list(self.state.legal_actions()).index(self.game.move_to_action(move)) + 1

    def legend(self) -> str:
        """What the board's short forms mean: the game's ``COMPACT_LEGEND`` where the turns
        show its compact board ("" where it has none or the full board is shown)."""
        text: str = getattr(self.game, "COMPACT_LEGEND", "")
        return text if self.compact else ""

    def show_rules(self) -> None:
        """How to win and how the game ends, as the game declares them (``how_to_win``,
        ``how_it_ends``); a line saying so where it declares none."""
        if not self.game.how_to_win:
            self.line("the game says no rules of its own here", style="dim")
            return
        self.wrapped("How to win: ", self.game.how_to_win)
        if self.game.how_it_ends:
            self.wrapped("The end: ", self.game.how_it_ends)

    def show_position(self) -> None:
        """The position as the human's seat sees it, in the game's compact text (a game
        without position set-up says so)."""
        if type(self.game).positions is None:
            self.line("this game offers no position text", style="dim")
            return
        # One line, never cut or wrapped by us, so that it copies whole.
        self.out.print(self.game.position_text(self.state, self.human), markup=False, highlight=False, soft_wrap=True)

    def show_legend(self) -> None:
        legend = self.legend()
        if not legend:
            self.line("the board says everything in words: no legend needed", style="dim")
            return
        for row in legend.splitlines():
            self.wrapped("  ", row)

    def block(self, text: str) -> None:
        """A board: each line wrapped under its own indentation (nothing cut off)."""
        for row in text.splitlines():
            body = row.lstrip(" ")
            self.wrapped(row[: len(row) - len(body)], body)

    def say_events(self, before: Any) -> None:
        """What the rules did on their own since ``before`` (a line each, the game's
        ``event_lines`` for your seat)."""
        for text in self.game.event_lines(before, self.state, self.human):
            self.wrapped("  ", text, style="magenta")

    def welcome(self) -> str:
        """The first line: the game, its options (a solo game's difficulty), your seat."""
        others = f"the others are {self.opponent} bots" if self.game.num_players > 1 else "you play alone"
        scalar = (bool, int, float, str)
        chosen = {k: v for k, v in self.game.options.items() if k != "players" and isinstance(v, scalar)}
        options = f" ({', '.join(f'{k} {v}' for k, v in chosen.items())})" if chosen else ""
        legend = ", legend for the board's short forms" if self.legend() else ""
        rules = ", rules for how to win" if self.game.how_to_win else ""
        return f"{self.game.title}{options}: you are seat {self.human}; {others}. Type help for help{rules}{legend}."

    def run(self) -> int:
        self.board(self.human)  # chooses the board of every turn, before the first line says so
        self.wrapped("", self.welcome(), style="bold")
        if self.game.how_to_win:
            self.show_rules()
        before: Any = None
        while True:
            self.bots_move()
            if before is not None and not self.took_back:
                self.say_events(before)
            self.took_back = False
            if self.state.is_over:
                break
            before = self.state.clone()
            if not self.turn():
                return 0
        self.line()
        self.block(self.board(None))
        reason = self.game.end_reason(self.state)
        if reason:
            self.wrapped("", reason, style="bold")
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
