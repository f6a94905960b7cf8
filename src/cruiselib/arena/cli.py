"""The arena commands: :func:`arena_main` (a tournament of bots) and :func:`study_main` (a
balance study of game options), each ``(argv) -> exit status``::

    cruiselib arena dream_islands --bot greedy --bot rules --bot "ismcts,iterations=200,label=mcts" \\
        --players 3 --games 60 --out runs/di
    cruiselib study atlantic_star --players 2,4 --grid ships='[3,4]' --games 100000 --out runs/as
    cruiselib arena --spec tournament.json --out runs/t --workers 4

A bot is ``NAME[,key=value...]`` (a name of ``cruiselib.bots.BOTS`` or ``module:attr``;
``label=`` names it in the results, every other key is a bot option). Option values are read
as JSON where they parse (``3``, ``true``, ``[1,2]``), else as text. ``--move-time-limit
SECONDS`` stops the run, naming the bot, the deal and the move, when a bot takes longer on
one move (the rows of a run that completes do not depend on it). ``--spec FILE.json``
takes the whole spec from a file (its ``kind`` must match the command); the spec flags
cannot be given with it. Writes ``out/games.parquet``, ``out/summary.json`` and, with
matplotlib, ``out/report.html``; a second run with the same ``--out`` resumes.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from cruiselib._registry import game_class
from cruiselib.errors import CruiseError, InvalidOptionError

from .backends import Backend, make_backend
from .plan import BotSpec, Spec, Study, Tournament, load_spec
from .runner import RunResult, run
from .stats import sprt_of_games

__all__ = ["arena_main", "study_main"]


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _pairs(items: Sequence[str], what: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise InvalidOptionError(f"{what} must be key=value, not {item!r}")
        out[key] = _value(value)
    return out


def parse_bot(text: str) -> BotSpec:
    """A bot from ``NAME[,key=value...]`` (``label=`` is its label)."""
    name, *rest = text.split(",")
    if not name:
        raise InvalidOptionError(f"a bot is NAME[,key=value...], not {text!r}")
    options = _pairs(rest, "a bot option")
    label = options.pop("label", None)
    return BotSpec(name=name, options=options, label=None if label is None else str(label))


def _counts(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"players must be numbers separated by commas, not {text!r}") from None


def _run_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--spec", type=Path, help="the whole spec from this JSON file")
    parser.add_argument("--out", type=Path, help="output directory (resumable; default: nothing written)")
    parser.add_argument("--backend", default="local", help="local (processes), serial or ray (default local)")
    parser.add_argument("--workers", type=int, default=None, help="local processes (default: the CPU count)")
    parser.add_argument("--no-resume", action="store_true", help="replace what --out holds instead of resuming")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--no-report", action="store_true", help="no report.html in --out")
    parser.add_argument(
        "--ray-address",
        default=None,
        metavar="ADDRESS",
        help="with --backend ray: the cluster to join, HOST:PORT of its head, auto (the one `ray start` started "
        "here), ray://HOST:PORT or local (default: RAY_ADDRESS, else the one `ray start` started here, else a new "
        "local Ray)",
    )
    parser.add_argument(
        "--ray-timeout",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="with --backend ray: seconds to join the cluster or start a local Ray (default 60)",
    )
    parser.add_argument(
        "--move-time-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop the run when a bot takes longer on one move (default: no limit)",
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"a number of seconds above 0, not {text!r}")
    return value


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr)


# Spec flags: (dest, what --spec conflicts with). Their defaults are None, so a given flag shows.
_ARENA_SPEC_FLAGS = ("game", "bot", "mode", "option", "players", "games", "seed", "mirror", "filler", "shard", "name")
_STUDY_SPEC_FLAGS = ("game", "grid", "players", "bot", "games", "seed", "unpaired", "shard", "name")


def _arena_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cruiselib arena", description="A tournament of bots.")
    parser.add_argument("game", nargs="?", default=None)
    parser.add_argument("--bot", action="append", default=None, help="a participant, NAME[,key=value...]")
    parser.add_argument("--mode", choices=["round_robin", "gauntlet", "ab"], default=None)
    parser.add_argument("-o", "--option", action="append", default=None, help="a game option, key=value")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=None, help="games per pairing (default 100)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--no-mirror", dest="mirror", action="store_false", default=None, help="one seating per deal")
    parser.add_argument("--filler", default=None, help="the bot of the other seats beyond two (default random)")
    parser.add_argument("--shard", type=int, default=None, help="deals per job")
    parser.add_argument("--name", default=None, help="the run's name in the rows")
    parser.add_argument(
        "--sprt",
        type=_elo_pair,
        default=None,
        metavar="ELO0,ELO1",
        help="a sequential test of the first bot against the second over the games, in order: is it at "
        "least ELO1 stronger (H1) or at most ELO0 (H0)? (two bots; alpha = beta = 0.05)",
    )
    _run_flags(parser)
    return parser


def _elo_pair(text: str) -> tuple[float, float]:
    parts = text.split(",")
    try:
        elo0, elo1 = (float(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--sprt is ELO0,ELO1 (two numbers, e.g. 0,50), not {text!r}") from None
    if not (math.isfinite(elo0) and math.isfinite(elo1) and elo0 < elo1):
        raise argparse.ArgumentTypeError(f"--sprt needs finite ELO0 < ELO1, not {text!r}")
    return elo0, elo1


def _study_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cruiselib study", description="A balance study of game options.")
    parser.add_argument("game", nargs="?", default=None)
    parser.add_argument("--grid", action="append", default=None, help="option=JSON list of values (or one value)")
    parser.add_argument("--players", type=_counts, default=None, help="player counts, e.g. 2,3,4 (default all)")
    parser.add_argument("--bot", action="append", default=None, help="one bot for every seat, or one per seat")
    parser.add_argument("--games", type=int, default=None, help="games per cell (default 10,000)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--unpaired", action="store_true", default=None, help="each cell its own deals")
    parser.add_argument("--shard", type=int, default=None, help="games per job")
    parser.add_argument("--name", default=None, help="the run's name in the rows")
    _run_flags(parser)
    return parser


def _spec_from_args(args: argparse.Namespace, kind: str, flags: tuple[str, ...]) -> Spec:
    given = [flag for flag in flags if getattr(args, flag) is not None]
    if args.spec is not None:
        if given:
            raise InvalidOptionError(f"--spec takes the whole spec: drop {', '.join(given)}")
        spec = load_spec(args.spec)
        if spec.__struct_config__.tag != kind:
            raise InvalidOptionError(f"{args.spec} holds a {spec.__struct_config__.tag}, not a {kind}")
        return spec
    if args.game is None:
        raise InvalidOptionError("name the game (or give --spec FILE.json)")
    fields: dict[str, Any] = {"game": args.game}
    for flag in ("games", "seed", "shard", "name", "players", "mode"):
        if getattr(args, flag, None) is not None:
            fields[flag] = getattr(args, flag)
    if kind == "tournament":
        fields["participants"] = [parse_bot(text) for text in args.bot or ()]
        if args.option:
            fields["options"] = _pairs(args.option, "a game option")
        if args.mirror is not None:
            fields["mirror"] = args.mirror
        if args.filler is not None:
            fields["filler"] = parse_bot(args.filler)
        return Tournament(**fields)
    if args.bot:
        fields["bots"] = tuple(parse_bot(text) for text in args.bot)
    if args.grid:
        fields["grid"] = {
            key: value if isinstance(value, list) else [value]
            for key, value in _pairs(args.grid, "a grid entry").items()
        }
    if args.unpaired:
        fields["paired"] = False
    return Study(**fields)


def _print_summary(result: RunResult, out: TextIO) -> None:
    summary = result.summary
    title = game_class(summary["game"]).title
    lines = summary.get("headline", {}).get("lines") or [f"{summary['games']:,} games"]
    print(f"{title}: {lines[0]}", file=out)
    for line in lines[1:]:
        print(line, file=out)
    print(file=out)
    for bot in summary.get("bots", ()):
        print(_rate_line(bot["label"], bot), file=out)
    ratings = summary.get("ratings")
    if ratings and ratings.get("names"):
        print(f"ratings, {ratings['method']}, with 95% intervals:", file=out)
        for name, value, low, high in zip(
            ratings["names"], ratings["values"], ratings["low"], ratings["high"], strict=True
        ):
            print(f"  {name:<22} {value:+8.1f}  ({low:+.1f} to {high:+.1f})", file=out)
    for cell in summary.get("cells", ()):
        print(f"{cell['name']} ({cell['games']:,} games)", file=out)
        for seat in cell["seats"]:
            print(_rate_line(f"  seat {seat['seat']}", seat), file=out)
        for seat in cell["start_players"]:
            if seat["games"]:
                print(_rate_line(f"  seat {seat['seat']} starting", seat), file=out)
    for variant in summary.get("variants", ()):
        print(
            f"{variant['name']} - {variant['baseline']}: {variant['metric']} "
            f"{variant['difference']:+.4f} ({variant['low']:+.4f} to {variant['high']:+.4f})",
            file=out,
        )
    if result.out_dir is not None:
        if result.resumed or result.replayed:
            again = f", {result.replayed} played again over a refused checkpoint" if result.replayed else ""
            print(f"{result.resumed} of {result.resumed + result.played} jobs resumed{again}", file=out)
        print(f"wrote {result.out_dir}", file=out)


def _rate_line(name: str, entry: dict[str, Any]) -> str:
    share = entry["share"]
    if share is None:
        return f"{name:<24} no games"
    return (
        f"{name:<24} {share:7.2%}  95% {entry['low']:.2%} to {entry['high']:.2%}  "
        f"fair {entry['fair']:.2%}  ({entry['games']:,} games)"
    )


def _main(parser: argparse.ArgumentParser, kind: str, flags: tuple[str, ...], argv: Sequence[str] | None) -> int:
    args = parser.parse_args(argv)
    backend: Backend | None = None
    try:
        spec = _spec_from_args(args, kind, flags)
        sprt = getattr(args, "sprt", None)
        if sprt is not None and (not isinstance(spec, Tournament) or len(spec.participants) != 2):
            raise InvalidOptionError("--sprt tests the first bot against the second: give exactly two bots")
        try:
            backend = make_backend(
                args.backend,
                args.workers,
                move_time_limit=args.move_time_limit,
                ray_address=args.ray_address,
                ray_timeout=args.ray_timeout,
                notify=_to_stderr,
            )
        except ImportError as exc:  # --backend ray without Ray
            raise InvalidOptionError(str(exc)) from None
        result = run(
            spec,
            args.out,
            backend=backend,
            resume=not args.no_resume,
            progress=not args.no_progress,
            command=shlex.join([*parser.prog.split(), *(sys.argv[1:] if argv is None else argv)]),
        )
    except CruiseError as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)  # as argparse words its own
        return 2
    except KeyboardInterrupt:
        print("stopped; the finished jobs are kept: run the same command again to go on", file=sys.stderr)
        return 130
    finally:
        close = getattr(backend, "close", None)
        if callable(close):  # a Ray this command started is shut down
            close()
    if args.out is not None and not args.no_report:
        _write_report(result, args.out)
    _print_summary(result, sys.stdout)
    if sprt is not None:
        tested = result.spec.participants[0].display  # type: ignore[union-attr]  # a Tournament, checked above
        verdict = sprt_of_games(result.games(), tested, *sprt)
        print(f"SPRT of {tested} (elo0 {sprt[0]:g}, elo1 {sprt[1]:g}): {verdict.text}")
    return 0


def _write_report(result: RunResult, out_dir: Path) -> None:
    try:
        from .report import html_report

        rows = result.games() if isinstance(result.rows, dict) else result.rows  # a Table as it is
        html_report(rows, result.summary, out_dir / "report.html")
    except ImportError as exc:  # matplotlib is optional
        print(f"no report.html ({exc})", file=sys.stderr)


def arena_main(argv: Sequence[str] | None = None) -> int:
    """``cruiselib arena``: run a tournament and print each bot's win share."""
    return _main(_arena_parser(), "tournament", _ARENA_SPEC_FLAGS, argv)


def study_main(argv: Sequence[str] | None = None) -> int:
    """``cruiselib study``: run a balance study and print each cell's seat win shares."""
    return _main(_study_parser(), "study", _STUDY_SPEC_FLAGS, argv)
