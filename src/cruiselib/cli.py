"""The ``cruiselib`` command: play against a bot, simulate bot-vs-bot games, export schemas.

    cruiselib games
    cruiselib demo
    cruiselib play sirens [--seat 0] [--opponent ismcts] [--think 0.2] [--seed 7] [-o variant=bow_to_rear]
    cruiselib play sirens --position TEXT   (from a described position: the game's page, "Setting up a position")
    cruiselib advise sirens TEXT [--think 2] (the best moves for the seat to move in a described position)
    cruiselib simulate sirens --games 10000 --seed 1 [--bots ismcts,rules] [--iterations 2000]
    cruiselib arena sirens --bot rules --bot greedy --games 100 --out runs/t   (a tournament: docs/arena.md)
    cruiselib study sirens --grid variant='["standard","bow_to_rear"]' --out runs/s   (a balance study)
    cruiselib schema sirens
    cruiselib serve                  (the JSON-lines engine protocol on stdin/stdout: docs/protocol.md)
    cruiselib web [--host 127.0.0.1] [--port 8000] [--allow-host NAME]   (play in a web browser: docs/web.md)

Needs the ``cli`` extra (``pip install 'cruiselib[cli]'``) for its tables and progress bars.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

import numpy as np

import cruiselib
from cruiselib.bots import BOTS, Bot, SearchBot, make_bot
from cruiselib.errors import CruiseError

__all__ = ["main"]

BATCH = 2000  # in-core playouts per progress-bar step
HINT_ITERATIONS = 2000  # a hint's search budget without --think


def _bot(name: str, seed: int | None, think: float | None, iterations: int | None) -> Bot:
    """A bot by name; the search bots get a time budget (``think`` seconds a move) or an
    iteration budget (``iterations``, default 2000)."""
    if name in BOTS and issubclass(BOTS[name], SearchBot):
        if think is not None:
            return make_bot(name, seed=seed, iterations=iterations, seconds=think)
        return make_bot(name, seed=seed, iterations=iterations or HINT_ITERATIONS)
    return make_bot(name, seed)


def _positive(kind: type, what: str) -> Any:
    """An argparse type: a number of ``kind`` above 0."""

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a number, not {text!r}") from None
        if not (0 < value < math.inf):  # also refuses nan
            raise argparse.ArgumentTypeError(f"{what} must be above 0, not {text!r}")
        return value

    return parse


def _non_negative_int(text: str) -> int:
    """An argparse type: a whole number, 0 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text!r}")
    return value


def _rich() -> Any:
    try:
        import rich.console
        import rich.progress
        import rich.table
    except ImportError:  # pragma: no cover - depends on the environment
        sys.exit("the cruiselib command needs the 'cli' extra: pip install 'cruiselib[cli]'")
    return rich


def _option_value(text: str) -> Any:
    """An option's value from its text: an int, true/false, a comma-separated list of ints
    (e.g. Dream Cruise's ``route_points=1,3,6,10``), or the text itself."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        pass
    parts = text.split(",")
    if len(parts) > 1:
        try:
            return tuple(int(part) for part in parts)
        except ValueError:
            pass
    return text


def _parse_options(pairs: Sequence[str], players: int | None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise cruiselib.InvalidOptionError(f"options look like key=value, not {pair!r}")
        options[key] = _option_value(value)
    if players is not None:
        options["players"] = players
    return options


def _make_game(args: argparse.Namespace) -> cruiselib.Game[Any]:
    game: cruiselib.Game[Any] = cruiselib.make(args.game, **_parse_options(args.option, args.players))
    return game


# --------------------------------------------------------------------------- play


def play(args: argparse.Namespace, stdin: TextIO | None = None) -> int:
    """``cruiselib play``: the terminal session of :mod:`cruiselib._terminal`."""
    from cruiselib._terminal import play_session

    rich = _rich()
    out = rich.console.Console(highlight=False)
    game = _make_game(args)
    described = None if args.position is None else game.read_position(args.position)
    view_seat = None if described is None else described.seat
    human = game.check_player(args.seat if args.seat is not None else view_seat if view_seat is not None else 0)
    opponent = args.opponent or "greedy"
    if opponent not in BOTS:
        raise cruiselib.InvalidOptionError(f"unknown bot {opponent!r}; bots: {', '.join(BOTS)}")
    bots: dict[int, Bot] = {
        p: _bot(opponent, None if args.seed is None else args.seed + p, args.think, None)
        for p in range(game.num_players)
        if p != human
    }
    hinter = _bot("ismcts", None if args.seed is None else args.seed + 101, args.think, None)
    state: Any = game.new_state(seed=args.seed) if described is None else game.from_position(described, args.seed)
    return play_session(game, state, human, bots, opponent, hinter, out, stdin)


# --------------------------------------------------------------------------- advise

ADVICE_MOVES = 5  # moves ``cruiselib advise`` ranks by default


def win_chance(value: float) -> int:
    """A search value (the mean result after the move, -1 a loss .. +1 a win) as a chance to
    win in whole percent: how the terminal and the web page say a hint's value."""
    return round((max(-1.0, min(1.0, value)) + 1.0) / 2.0 * 100.0)


def advise(args: argparse.Namespace) -> int:
    """``cruiselib advise``: the table a described position sets up, as the seat to move sees
    it, and the search's best moves for that seat, best first, each with its chance to win.
    A seat's view (hidden cards as counts) gets advice for that seat: its turn or nothing."""
    game = _make_game(args)
    described = game.read_position(args.position)
    state: Any = game.from_position(described, seed=args.seed)
    if state.is_over:
        reason = game.end_reason(state)
        print(f"The game is over{': ' + reason if reason else '.'}")
        return 0
    mover = state.current_player
    if described.seat is not None and described.seat != mover:
        raise cruiselib.InvalidOptionError(
            f"this is seat {described.seat}'s view, but seat {mover} is to move: advice is for the seat to move"
        )
    bot = _bot(args.bot, args.seed, args.think, args.iterations)
    print(game.render(state, mover, compact=True))
    print()
    candidates = bot.analyse(state)[: args.count]
    budget = f"{args.think:g} s" if args.think is not None else f"{args.iterations or HINT_ITERATIONS} iterations"
    print(f"Best moves for seat {mover} ({bot.name}, {budget}):")
    for rank, candidate in enumerate(candidates, 1):
        said = "" if candidate.value is None else f"  about {win_chance(candidate.value)}% to win"
        tried = f", tried {candidate.visits} times" if candidate.visits else ""
        print(f"{rank:>3}. {state.move_text(candidate.action, player=mover)}{said}{tried}")
    return 0


# --------------------------------------------------------------------------- simulate


def _summary_table(rich: Any, game: cruiselib.Game[Any], title: str, played: Any, seconds: float) -> tuple[Any, str]:
    """A per-seat results table and a line of totals (draws, lengths, speed).

    A game won by k seats gives each a share of 1/k, so the shares of a game add up to
    at most one win (the rates never pass 100% in total); "shared" counts the games a seat
    won together with others. "95% CI" is Wilson's interval of the share; the fair share is
    one seat's share of an even game. "starts" counts the games a seat acted first in (the
    start player as the core dealt it) and "as start" is its win share in those games;
    "score" is the mean score.
    """
    from cruiselib.arena.stats import wilson

    scores, lengths, wins, first_seats = played.scores, played.length, played.wins, played.start_player
    n = len(lengths)
    players = game.num_players
    winners_per_game = wins.sum(axis=1, dtype=np.int64)
    shares = np.where(winners_per_game[:, None] > 0, wins / np.maximum(winners_per_game, 1)[:, None], 0.0)
    table = rich.table.Table(title=title)
    for column in ("seat", "wins", "share", "95% CI", "shared", "starts", "as start", "score"):
        table.add_column(column, justify="right")
    for p in range(players):
        won = float(shares[:, p].sum())
        low, high = wilson(won, n) if n else (0.0, 1.0)
        starting = first_seats == p
        started = int(starting.sum())
        as_start = f"{shares[starting, p].mean():.1%}" if started else "-"
        shared = int(((wins[:, p] == 1) & (winners_per_game > 1)).sum())
        table.add_row(
            str(p),
            f"{won:,.1f}" if shared else f"{won:,.0f}",
            f"{won / max(n, 1):.1%}",
            f"{100 * low:.1f}-{100 * high:.1f}%",
            f"{shared:,}",
            f"{started:,}",
            as_start,
            f"{scores[:, p].mean():.2f}",
        )
    fair = 1 / players
    draws = int((winners_per_game == 0).sum())
    # Alone, a game without a win is lost to the game's own opponent (Dream Cruise's Jana, C9).
    no_winner = "lost" if game.num_players == 1 else "draws"
    return table, (
        f"{n:,} games · fair share {fair:.1%} · {no_winner} {draws:,} ({draws / max(n, 1):.1%})"
        f" · mean length {lengths.mean():.1f} actions"
        f" (min {lengths.min()}, max {lengths.max()}) · {n / seconds:,.0f} games/s · "
        f"{lengths.sum() / seconds:,.0f} actions/s"
        if n
        else "no games"
    )


def _print_summary(out: Any, summary: tuple[Any, str]) -> None:
    table, totals = summary
    out.print(table)
    out.print(totals)


def _sim_bot(name: str, seed: int, think: float | None, iterations: int | None) -> Bot:
    """A seat's bot for ``simulate``: a name of ``BOTS``, or ``module:factory`` made as
    ``cruiselib arena`` makes its bots (the factory called with ``seed=``)."""
    if ":" in name:
        from cruiselib.arena.plan import BotSpec
        from cruiselib.arena.play import make_player

        return make_player(BotSpec(name=name), seed=seed)
    return _bot(name, seed, think, iterations)


def simulate(args: argparse.Namespace) -> int:
    """``cruiselib simulate``: bot-vs-bot games (random against random in the core), then a
    per-seat summary table."""
    from cruiselib.arena.play import join_played, play_games, played_from_playouts

    rich = _rich()
    out = rich.console.Console(highlight=False)
    game = _make_game(args)
    names = [b.strip() for b in args.bots.split(",")]
    if len(names) == 1:
        names = names * game.num_players
    if len(names) != game.num_players:
        raise cruiselib.InvalidOptionError(f"--bots names {len(names)} bots for {game.num_players} seats")
    for name in names:
        if name not in BOTS and ":" not in name:
            raise cruiselib.InvalidOptionError(
                f"unknown bot {name!r}; bots: {', '.join(BOTS)}, or an import path module:factory"
            )
    n = args.games
    if n < 1:
        raise cruiselib.InvalidOptionError("--games must be at least 1")
    in_core = all(name == "random" for name in names)
    # Made before the games start, so a bot that cannot be imported fails at once.
    bots = (
        []
        if in_core
        else [_sim_bot(bot, args.seed * 7919 + p, args.think, args.iterations) for p, bot in enumerate(names)]
    )
    progress = rich.progress.Progress(
        rich.progress.TextColumn("[progress.description]{task.description}"),
        rich.progress.BarColumn(),
        rich.progress.MofNCompleteColumn(),
        rich.progress.TimeRemainingColumn(),
        console=out,
        transient=True,
    )
    start = time.perf_counter()
    with progress:
        task = progress.add_task(f"{game.name}: {' vs '.join(names)}", total=n)
        if in_core:
            # Random against random runs entirely in the compiled core, in batches.
            batches = []
            for lo in range(0, n, BATCH):
                hi = min(n, lo + BATCH)
                batch_start = time.perf_counter()
                batch = game.playouts(hi - lo, seed=args.seed * 1_000_003 + lo, threads=args.threads)
                batches.append(played_from_playouts(batch, time.perf_counter() - batch_start))
                progress.update(task, completed=hi)
            played = join_played(batches)
        else:

            def deal(g: int) -> tuple[Any, list[Bot]]:
                return game.new_state(seed=args.seed * 1_000_003 + g), bots

            def shown(g: int, state: Any) -> None:
                if g % 50 == 49 or g == n - 1:
                    progress.update(task, completed=g + 1)

            played = play_games(n, game.num_players, deal, done=shown)
    seconds = time.perf_counter() - start
    mode = "compiled core" if cruiselib.compiled else "pure-Python core"
    where = "in the core" if in_core else "driven from Python"
    title = f"{game.title} · {' vs '.join(names)} · seed {args.seed} · {mode}, {where}"
    _print_summary(out, _summary_table(rich, game, title, played, seconds))
    return 0


# --------------------------------------------------------------------------- demo


def _seat_counts(counts: Sequence[int]) -> str:
    """``2-6`` for a run of seat counts, ``2`` for one, ``2,4`` otherwise."""
    if len(counts) > 1 and tuple(counts) == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    return ",".join(map(str, counts))


def _docs_url() -> str:
    """Where the documentation is: the installed package's Documentation URL, if it has one."""
    from importlib import metadata

    try:
        urls: list[str] = metadata.metadata("cruiselib").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        urls = []
    for entry in map(str, urls):
        label, _, url = entry.partition(",")
        if label.strip().lower() == "documentation":
            return url.strip()
    return "docs/index.md in the source"


def _bot_match(game: Any, bot_name: str, n: int, seed: int) -> tuple[Any, Any]:
    """The demo's match of ``n`` games: ``bot_name`` against random, its seat turning every
    game. Its :class:`~cruiselib.arena.play.PlayedGames` and the last game's final state."""
    from cruiselib.arena.play import play_games

    seats = game.num_players
    ends: list[Any] = []

    def deal(g: int) -> tuple[Any, list[Bot]]:
        bots = [make_bot(bot_name if p == g % seats else "random", seed=seed * 7919 + g * 8 + p) for p in range(seats)]
        return game.new_state(seed=seed * 1_000_003 + g), bots

    def keep(g: int, state: Any) -> None:
        ends[:] = [state]

    return play_games(n, seats, deal, done=keep), ends[0]


def demo(args: argparse.Namespace) -> int:
    """A tour in about one screen: every game of the registry with its speed in the core, one
    bot match per game, the end of one of those games, and the commands to try next."""
    from cruiselib._registry import game_class
    from cruiselib._terminal import result_line

    if args.games < 1 or args.bot_games < 1:
        raise cruiselib.InvalidOptionError("--games and --bot-games must be at least 1")
    rich = _rich()
    out = rich.console.Console(highlight=False)
    names = cruiselib.games()
    mode = "compiled core" if cruiselib.compiled else "pure-Python core (no compiled core installed: slower)"
    out.print(f"[bold]cruiselib {cruiselib.__version__}[/bold] · {len(names)} games · {mode}")
    out.print()
    out.print(f"[bold]{'game':<18}{'make(...)':<16}{'players':>8}{'random games/s':>16}{'moves/game':>12}[/bold]")
    for name in names:
        game: Any = cruiselib.make(name)
        start = time.perf_counter()
        result = game.playouts(args.games, seed=args.seed)
        rate = args.games / max(time.perf_counter() - start, 1e-9)
        players = f"{_seat_counts(game_class(name).player_counts)} ({game.num_players})"
        out.print(f"{game.title:<18}{name:<16}{players:>8}{rate:>16,.0f}{result.mean_length:>12.1f}")
    out.print(f"{args.games:,} random games each at the seat count in brackets, played to the end")
    out.print("in the compiled core on one thread, with no Python between moves.")

    # One match per game: the game's rule bot (else greedy) against random, at two seats
    # where the game has them, the bot's seat turning every game so no seat is favoured.
    out.print()
    out.print(f"[bold]Bot matches: {args.bot_games:,} games each, the bot's seat turning every game[/bold]")
    out.print(f"{'game':<18}{'bot':<8}{'seats':>6}{'bot wins':>10}{'each random':>13}{'draws':>8}{'fair share':>12}")
    shown: tuple[Any, Any, list[str]] | None = None
    for name in names:
        counts = game_class(name).player_counts
        seats = 2 if 2 in counts else min(counts)
        bot_name = "rules" if game_class(name).rule_bot else "greedy"
        game = cruiselib.make(name, players=seats)
        played, end = _bot_match(game, bot_name, args.bot_games, args.seed)
        bot_share = random_share = draws = 0.0
        for g in range(args.bot_games):
            seat = g % seats
            winners = np.flatnonzero(played.wins[g]).tolist()
            if not winners:
                draws += 1
            elif seat in winners:
                bot_share += 1 / len(winners)
            random_share += sum(1 / len(winners) for w in winners if w != seat)
        if shown is None:
            last = args.bot_games - 1
            shown = (game, end, [bot_name if p == last % seats else "random" for p in range(seats)])
        n = args.bot_games
        others = max(seats - 1, 1)
        out.print(
            f"{game.title:<18}{bot_name:<8}{seats:>6}{bot_share / n:>10.1%}{random_share / others / n:>13.1%}"
            f"{draws / n:>8.1%}{1 / seats:>12.1%}"
        )
    out.print("A win shared by k seats counts 1/k to each; in an even match every seat wins")
    out.print("the fair share.")

    if shown is not None:
        game, state, labels = shown
        seating = ", ".join(f"seat {p} {label}" for p, label in enumerate(labels))
        out.print()
        out.print(f"[bold]The last {game.title} match game at its end[/bold] ({seating})")
        out.print(game.render(state, None, compact=True))
        out.print(result_line(state, -1))

    first = names[0]
    out.print()
    out.print("[bold]Try next[/bold]")
    for what, command in (
        ("play against a bot in the terminal", f"cruiselib play {first}"),
        ("play in a web browser (the web extra)", "cruiselib web"),
        ("bots of your choice, or your own", f"cruiselib simulate {first} --bots rules -n 100"),
        ("a tournament with ratings", f"cruiselib arena {first} --bot rules --bot greedy"),
    ):
        out.print(f"  {what}:")
        out.print(f"      {command}")
    out.print(f"  Documentation: {_docs_url()}")
    return 0


# --------------------------------------------------------------------------- arena, study

#: The commands whose arguments :mod:`cruiselib.arena.cli` parses, with their one-line help.
ARENA_COMMANDS = {
    "arena": "a tournament of bots: every seat rotated, win shares, ratings, a report (docs/arena.md)",
    "study": "a balance study of game options and player counts: seat and start-player win shares",
}


def arena_command(command: str, argv: Sequence[str]) -> int:
    """``cruiselib arena`` / ``cruiselib study``: the rest of the command line goes to
    :func:`cruiselib.arena.cli.arena_main` / :func:`~cruiselib.arena.cli.study_main`, which
    print their own ``--help``. A missing optional package (Ray for ``--backend ray``) is an
    error of the command line, exit status 2, not a traceback."""
    from cruiselib.arena.cli import arena_main, study_main

    try:
        return (arena_main if command == "arena" else study_main)(list(argv))
    except ImportError as exc:
        print(f"cruiselib {command}: error: {exc}", file=sys.stderr)
        return 2


# --------------------------------------------------------------------------- entry


#: ``cruiselib --help``: plain text (the module's docstring is reStructuredText).
DESCRIPTION = "Play the games against bots, simulate bot-vs-bot games, export schemas."
EPILOG = """\
examples:
  cruiselib games                      the games and their player counts
  cruiselib play GAME                  you against greedy bots in the terminal
  cruiselib play GAME --players 1      a game alone, where the game has a solo mode
  cruiselib advise GAME TEXT           the best moves in a described position
  cruiselib simulate GAME --games 10000 --bots ismcts,rules
  cruiselib COMMAND --help             a command's own options

The arena and study commands are documented in docs/arena.md, serve in
docs/protocol.md, web in docs/web.md. Tables and progress bars need the cli
extra: pip install 'cruiselib[cli]'."""


def players_text(counts: Sequence[int]) -> str:
    """A game's player counts in words: ``1-4 players``, ``2 players``, ``2, 4 players``."""
    ordered = sorted(counts)
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]}-{ordered[-1]} players"
    if len(ordered) == 2 and ordered[1] == ordered[0] + 1:
        return f"{ordered[0]}-{ordered[1]} players"
    return f"{', '.join(map(str, ordered))} {'player' if ordered == [1] else 'players'}"


def games_command() -> int:
    """``cruiselib games``: each game's name, title, player counts (with the default) and
    number of actions."""
    from cruiselib._registry import game_class

    for name in cruiselib.games():
        game = cruiselib.make(name)
        counts = players_text(game_class(name).player_counts)
        print(f"{name:<15} {game.title:<18} {counts} (default {game.num_players}), {game.num_actions} actions")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cruiselib",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"cruiselib {cruiselib.__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("games", help="list the games")

    def game_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("game", choices=cruiselib.games())
        p.add_argument("--players", type=int, default=None, help="number of players")
        p.add_argument(
            "--option",
            "-o",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="a game option, e.g. variant=bow_to_rear (repeatable)",
        )

    p_play = sub.add_parser(
        "play",
        help="play against bots in the terminal",
        description="Play a game against bots in the terminal (80x24 is enough). At the prompt type a move's"
        " number or its text, or help for the commands and the board's legend.",
    )
    game_args(p_play)
    p_play.add_argument(
        "--seat", type=int, default=None, help="your seat (default 0, or the seat whose view --position describes)"
    )
    p_play.add_argument("--opponent", choices=list(BOTS), default=None, help="the other seats' bot (default greedy)")
    p_play.add_argument(
        "--think",
        type=_positive(float, "--think"),
        default=None,
        metavar="SECONDS",
        help="seconds a search bot (ismcts, cheating_mcts, and hints) thinks per move (default: 2000 iterations)",
    )
    p_play.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    p_play.add_argument(
        "--position",
        default=None,
        metavar="TEXT",
        help="start from a described position (a whole table, or one seat's view whose hidden cards are dealt"
        " from --seed): the game's page, 'Setting up a position'",
    )

    p_advise = sub.add_parser(
        "advise",
        help="the best moves in a described position, for the seat to move",
        description="Set up a described position (the game's compact position text: a whole table, or what"
        " one seat sees at a real table, hidden cards as counts) and print the search's best moves for the seat"
        " to move, each with its chance to win.",
    )
    game_args(p_advise)
    p_advise.add_argument("position", metavar="TEXT", help="the position's compact text")
    p_advise.add_argument("--bot", choices=list(BOTS), default="ismcts", help="the bot that ranks the moves")
    p_advise.add_argument(
        "--think", type=_positive(float, "--think"), default=None, metavar="SECONDS", help="search seconds"
    )
    p_advise.add_argument(
        "--iterations",
        type=_positive(int, "--iterations"),
        default=None,
        help=f"search iterations ({HINT_ITERATIONS})",
    )
    p_advise.add_argument(
        "--count", type=_positive(int, "--count"), default=ADVICE_MOVES, help=f"moves to show ({ADVICE_MOVES})"
    )
    p_advise.add_argument("--seed", type=int, default=0, help="seed of the hidden cards' deal and the search (0)")

    p_sim = sub.add_parser("simulate", help="bot-vs-bot games with a summary table")
    game_args(p_sim)
    p_sim.add_argument("--games", "-n", type=int, default=1000)
    p_sim.add_argument("--seed", type=int, default=0)
    p_sim.add_argument(
        "--threads",
        type=_positive(int, "--threads"),
        default=1,
        help="random games in the core: threads to spread each batch over (the results are the same)",
    )
    p_sim.add_argument(
        "--bots",
        default="random",
        help=f"one bot for all seats or one per seat, comma-separated: {', '.join(BOTS)},"
        " or module:factory (a callable taking seed= that returns a bot)",
    )
    p_sim.add_argument(
        "--iterations", type=_positive(int, "--iterations"), default=None, help="search bots: iterations a move (2000)"
    )
    p_sim.add_argument(
        "--think", type=_positive(float, "--think"), default=None, metavar="SECONDS", help="search bots: seconds a move"
    )

    p_demo = sub.add_parser("demo", help="a one-screen tour: the games, their speed, bot matches, what to try next")
    p_demo.add_argument("--games", type=int, default=100_000, help="in-core random games per game")
    p_demo.add_argument("--bot-games", type=int, default=100, help="rule-bot-against-random games per game")
    p_demo.add_argument("--seed", type=int, default=1)

    p_schema = sub.add_parser("schema", help="print the JSON Schemas of states, views and moves")
    p_schema.add_argument("game", nargs="?", choices=cruiselib.games())

    p_serve = sub.add_parser("serve", help="speak the JSON-lines engine protocol on stdin/stdout (docs/protocol.md)")
    p_serve.add_argument(
        "--poll-us",
        type=_non_negative_int,
        default=200,
        help="microseconds to poll a piped stdin for the next request before sleeping (0: sleep at once)",
    )

    for command, summary in ARENA_COMMANDS.items():
        # Listed here for `cruiselib --help`; main() hands their arguments on before parsing.
        p_arena = sub.add_parser(command, help=summary, add_help=False)
        p_arena.add_argument("arguments", nargs=argparse.REMAINDER, help=f"see cruiselib {command} --help")

    p_web = sub.add_parser("web", help="play in a web browser (needs the 'web' extra; docs/web.md)")
    p_web.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p_web.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p_web.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name (or name:port) the page may be opened by, besides localhost and the address"
        " listened on; repeatable (needed for names when listening on 0.0.0.0)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0] in ARENA_COMMANDS:
        args = argparse.Namespace(command=arguments[0], arguments=arguments[1:])
    else:
        args = build_parser().parse_args(arguments)
    try:
        if args.command in ARENA_COMMANDS:
            return arena_command(args.command, args.arguments)
        if args.command == "games":
            return games_command()
        if args.command == "play":
            return play(args)
        if args.command == "advise":
            return advise(args)
        if args.command == "simulate":
            return simulate(args)
        if args.command == "demo":
            return demo(args)
        if args.command == "schema":
            from cruiselib.serialize import export_schemas

            names = (args.game,) if args.game else None
            print(json.dumps(export_schemas(names), indent=2, sort_keys=True))
            return 0
        if args.command == "serve":
            from cruiselib.protocol import serve

            return serve(poll=args.poll_us * 1e-6)
        if args.command == "web":
            try:
                from cruiselib.web import run
            except ImportError as exc:
                print(f"cruiselib web needs the 'web' extra: pip install 'cruiselib[web]' ({exc})", file=sys.stderr)
                return 2
            return run(args.host, args.port, allowed_hosts=args.allow_host)
    except CruiseError as exc:
        print(f"cruiselib: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: leave quietly, as a shell command does
        print("\ncruiselib: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`cruiselib schema | head`)
        # Point stdout at /dev/null so the interpreter's final flush cannot fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 2  # pragma: no cover - argparse requires a command


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
