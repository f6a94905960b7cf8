"""How strong the bots are: seat-rotated matches, win rates with 95% intervals, an Elo fit.

    python benchmarks/strength.py run [--jobs 2] [--games 200] [--only sirens-2p] [--hours 2]
    python benchmarks/strength.py report        # the Markdown table and the PNG

``run`` plays the schedule below as :mod:`cruiselib.arena` tournaments (``ab`` mode, the
local backend of ``--jobs`` processes) and appends one JSON line per finished game to
``benchmarks/results/strength.jsonl``. It is resumable: stop it any time (Ctrl-C) and run it
again to go on. Games are played in rounds of ``--batch`` per pairing, so a partial run
covers every pairing evenly; a round is one arena run in a work directory beside the results
file (the arena resumes it job by job), removed once its games are on file.

Deals. Deal ``d`` of a configuration is the arena's deal ``d`` of spec seed :data:`SEED`
(``cruiselib.arena.plan.deal_seed``): every pairing of a configuration plays the same deals,
and each deal is played once per rotation of the seating, so A sits every seat on it. A
pairing "A vs B" at N players seats A once and B in every other seat (the arena's filler).
Pairings are played in whole deals: a pairing's games are rounded up to a multiple of N.

``report`` reads the file and writes the table between the ``strength-table`` markers of
``docs/bots.md`` and ``docs/images/strength.png`` (needs matplotlib). A's
result in a game is its win share (a game won by k seats gives each winner 1/k), and at 2
players a game nobody wins is half a win each; the interval is
:func:`cruiselib.arena.stats.wilson`. The Elo fit is
:func:`cruiselib.arena.stats.bradley_terry` on the 2-player results of each configuration,
random bot at 0 (every bot also plays one virtual draw against the random bot, which keeps
unbeaten bots finite).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: the bot factory below is imported as benchmarks.strength
    sys.path.insert(0, str(ROOT))

RESULTS = ROOT / "benchmarks" / "results" / "strength.jsonl"
PAGES = (ROOT / "docs" / "bots.md",)
PNG = ROOT / "docs" / "images" / "strength.png"
MARK = "<!-- strength-table -->"

# The seat counts the matches are played at, where a game takes them.
SEATS = (2, 4)
# The arena spec seed every configuration's deals come from.
SEED = 1


def configurations() -> list[tuple[str, str, int]]:
    """Every registered game at each of SEATS it takes, as (label, game, players): all the
    2-player configurations first, labelled ``<game>-2p``."""
    import cruiselib
    from cruiselib._registry import game_class

    out = []
    for seats in SEATS:
        for name in cruiselib.games():
            if seats in game_class(name).player_counts:
                out.append((f"{name}-{seats}p", name, seats))
    return out


# Configurations: (label, game, players).
CONFIGS: list[tuple[str, str, int]] = configurations()
# Pairings (A, B, games wanted as a share of --games).
PAIRINGS: list[tuple[str, str, float]] = [
    ("rules", "random", 1.0),
    ("rules", "greedy", 1.0),
    ("ismcts", "rules", 1.0),
    ("ismcts", "greedy", 1.0),
    ("ismcts", "random", 1.0),
    ("ismcts-100ms", "rules", 0.25),
    ("ismcts-100ms", "openspiel-ismcts-100ms", 0.25),
    ("policy", "random", 1.0),
    ("policy", "greedy", 1.0),
    ("policy", "rules", 1.0),
]
BOT_LABELS = {
    "random": "random",
    "greedy": "greedy (one ply)",
    "rules": "rule-based",
    "ismcts": "ISMCTS, 2,000 iterations",
    "ismcts-100ms": "ISMCTS, 100 ms",
    "openspiel-ismcts-100ms": "OpenSpiel ISMCTS, 100 ms",
    "policy": "policy network (PPO)",
}


def openspiel_ismcts(seed: int, game: str, players: int, seconds: float) -> Any:
    """OpenSpiel's ISMCTS with a time budget (it needs the game, which an arena bot factory
    gets as options): the arena imports it as ``benchmarks.strength:openspiel_ismcts``."""
    import cruiselib
    from cruiselib._registry import game_class
    from cruiselib.openspiel import TimedISMCTS

    options = {"players": players} if len(game_class(game).player_counts) > 1 else {}
    return TimedISMCTS(cruiselib.make(game, **options), seconds=seconds, seed=seed)


def bot_spec(key: str, game: str, players: int) -> Any:
    """The arena BotSpec of a bot of the schedule, labelled with its key."""
    from cruiselib.arena.plan import BotSpec

    specs: dict[str, tuple[str, dict[str, Any]]] = {
        "random": ("random", {}),
        "greedy": ("greedy", {}),
        "rules": ("rules", {}),
        "ismcts": ("ismcts", {"iterations": 2000}),
        "ismcts-100ms": ("ismcts", {"iterations": None, "seconds": 0.1}),
        "openspiel-ismcts-100ms": (
            "benchmarks.strength:openspiel_ismcts",
            {"game": game, "players": players, "seconds": 0.1},
        ),
        "policy": ("policy", {}),
    }
    name, options = specs[key]
    return BotSpec(name, options, label=key)


def available(key: str, game: str, players: int) -> bool:
    """Whether a bot of the schedule can play this configuration here (OpenSpiel is an
    optional extra; the policy bot plays the configurations its game ships weights for)."""
    if key.startswith("openspiel"):
        try:
            from cruiselib.openspiel import TimedISMCTS  # noqa: F401
        except ImportError:
            return False
    if key == "policy":
        import cruiselib
        from cruiselib.bots.policy import shipped_weights

        try:
            shipped_weights(cruiselib.make(game, **({"players": players} if len(_counts(game)) > 1 else {})))
        except cruiselib.InvalidOptionError:
            return False
    return True


def deals_for(games: int, players: int) -> int:
    """Deals that give at least ``games`` games when each is played under every rotation."""
    return max(1, math.ceil(games / players))


def tournament(label: str, game: str, players: int, a: str, b: str, first: int, deals: int) -> Any:
    """The arena tournament of deals ``first`` to ``first + deals - 1`` of pairing A vs B:
    each deal played under every rotation of (A, B, B, ...)."""
    import cruiselib
    from cruiselib.arena.plan import Tournament, cell_base
    from cruiselib.arena.play import playout_seed_for

    # The spec seed whose deal 0 is deal ``first`` of SEED: rounds of any size share the deals.
    made = cruiselib.make(game, **({"players": players} if len(_counts(game)) > 1 else {}))
    seed = playout_seed_for(made, cell_base(SEED, None), first)
    return Tournament(
        game=game,
        participants=(bot_spec(a, game, players), bot_spec(b, game, players)),
        mode="ab",
        players=players,
        games=deals * players,
        seed=seed,
        mirror=True,
        filler=bot_spec(b, game, players),
        shard=1,
        name=f"{label} {a} vs {b} deals {first}-{first + deals - 1}",
    )


def _counts(game: str) -> tuple[int, ...]:
    from cruiselib._registry import game_class

    return tuple(game_class(game).player_counts)


def result_of_a(winners: Sequence[int], seat_a: int, players: int) -> float:
    """A's result: its win share, and half a win for a game nobody wins at 2 players."""
    from cruiselib.arena import stats

    if not winners:
        return 0.5 if players == 2 else 0.0
    return float(stats.win_shares([winners], players)[0, seat_a])


def game_lines(label: str, a: str, b: str, first: int, rows: Sequence[Any]) -> list[dict[str, Any]]:
    """The JSON lines of a round's arena rows (GameRow), deals numbered from ``first``."""
    import cruiselib

    out = []
    for row in rows:
        seat_a = list(row.seats).index(a)
        out.append(
            {
                "config": label,
                "a": a,
                "b": b,
                "deal": first + row.deal,
                "mirror": row.mirror,
                "seat_a": seat_a,
                "deal_seed": row.deal_seed,
                "seats": list(row.seats),
                "start_player": row.start_player,
                "winners": list(row.winners),
                "scores": list(row.scores),
                "result_a": result_of_a(row.winners, seat_a, row.players),
                "actions": row.length,
                "seconds": round(row.seconds, 3),
                "compiled": cruiselib.compiled,
                "version": cruiselib.__version__,
            }
        )
    return out


def _key(row: dict[str, Any]) -> tuple[Any, ...]:
    """A game's identity: its pairing, deal and rotation."""
    return (row["config"], row["a"], row["b"], row["deal"], row["mirror"])


def load_results(path: Path = RESULTS) -> list[dict[str, Any]]:
    """The games on file, each once (two runs side by side may both write a game)."""
    if not path.exists():
        return []
    rows = []
    seen = set()
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            key = _key(row)
            if key not in seen:
                seen.add(key)
                rows.append(row)
    return rows


Round = tuple[str, str, int, str, str, int, int]
"""(label, game, players, A, B, first deal, deals)."""


def schedule(
    games: int,
    batch: int,
    only: set[str] | None,
    done: dict[tuple[str, str, str], set[int]],
    pairs: set[str] | None = None,
) -> Iterator[Round]:
    """The rounds still to play: ``batch`` games (whole deals) per pairing a round, every
    pairing's round k before any round k + 1, a round skipped once all its deals are on file."""
    wanted = {}
    for label, name, players in CONFIGS:
        if only and label not in only and name not in only:
            continue
        for a, b, share in PAIRINGS:
            if pairs and f"{a}:{b}" not in pairs:
                continue
            if available(a, name, players) and available(b, name, players):
                total = deals_for(max(1, round(games * share)), players)
                wanted[(label, name, players, a, b)] = (total, deals_for(batch, players))
    rounds = max((math.ceil(total / step) for total, step in wanted.values()), default=0)
    for k in range(rounds):
        for (label, name, players, a, b), (total, step) in wanted.items():
            first = k * step
            count = min(step, total - first)
            if count > 0 and not set(range(first, first + count)) <= done.get((label, a, b), set()):
                yield (label, name, players, a, b, first, count)


def _done_deals(rows: list[dict[str, Any]]) -> dict[tuple[str, str, str], set[int]]:
    """The deals on file of each pairing with every rotation played."""
    rotations: dict[tuple[str, str, str, int], set[int]] = defaultdict(set)
    for r in rows:
        rotations[(r["config"], r["a"], r["b"], r["deal"])].add(r["mirror"])
    players = {label: n for label, _, n in CONFIGS}
    done: dict[tuple[str, str, str], set[int]] = defaultdict(set)
    for (label, a, b, deal), seen in rotations.items():
        if len(seen) >= players.get(label, 0):
            done[(label, a, b)].add(deal)
    return done


def run(args: argparse.Namespace) -> int:
    from cruiselib.arena.backends import LocalBackend, SerialBackend
    from cruiselib.arena.runner import run as arena_run

    args.results.parent.mkdir(parents=True, exist_ok=True)
    rows = load_results(args.results)
    only = set(args.only) if args.only else None
    todo = list(schedule(args.games, args.batch, only, _done_deals(rows), set(args.pairs) if args.pairs else None))
    print(f"{len(rows)} games on file, {len(todo)} rounds to play on {args.jobs} processes", flush=True)
    deadline = time.monotonic() + args.hours * 3600 if args.hours else math.inf
    work = args.results.with_suffix(".work")
    # One process: no pool to start for every round.
    backend = SerialBackend() if args.jobs == 1 else LocalBackend(args.jobs)
    finished = 0
    try:
        for label, name, players, a, b, first, count in todo:
            if time.monotonic() >= deadline:
                break
            spec = tournament(label, name, players, a, b, first, count)
            out_dir = work / f"{label}--{a}--{b}--{first:06d}-{count}"
            result = arena_run(spec, out_dir, backend=backend, resume=True, progress=False)
            lines = game_lines(label, a, b, first, result.games())
            with args.results.open("a") as out:
                out.writelines(json.dumps(line) + "\n" for line in lines)
            shutil.rmtree(out_dir)
            finished += len(lines)
            print(f"  {finished} games played ({label}: {a} vs {b}, deals {first}-{first + count - 1})", flush=True)
    except KeyboardInterrupt:
        print("stopped; the games finished so far are on file (a round in progress resumes)", flush=True)
        return 130
    if work.exists() and not any(work.iterdir()):
        work.rmdir()
    print(f"{finished} games played", flush=True)
    return 0


# --------------------------------------------------------------------------- the report


def summarize(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A's win rate and its Wilson interval for each pairing on file, in schedule order."""
    from cruiselib.arena import stats

    by: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by[(r["config"], r["a"], r["b"])].append(r)
    order = {label: i for i, (label, _, _) in enumerate(CONFIGS)}
    pair_order = {(a, b): i for i, (a, b, _) in enumerate(PAIRINGS)}
    out = []
    keys = sorted(by, key=lambda k: (order.get(k[0], 99), pair_order.get(k[1:], 99)))
    for config, a, b in keys:
        games = by[(config, a, b)]
        n = len(games)
        score = sum(g["result_a"] for g in games)
        players = int(config.rsplit("-", 1)[1].rstrip("p"))
        lo, hi = stats.wilson(score, n)
        out.append(
            {
                "config": config,
                "a": a,
                "b": b,
                "games": n,
                "rate": score / n,
                "low": lo,
                "high": hi,
                "fair": 1 / players,
            }
        )
    return out


def elo_fit(results: list[tuple[str, str, float]], anchor: str = "random") -> dict[str, float]:
    """Bradley–Terry Elo of the bots in (a, b, score of a) results, ``anchor`` at 0. A draw is
    half a win each; a prior of one draw of every bot against the anchor keeps unbeaten bots
    finite (and ties a bot that met one other bot only to the anchor, not to the field)."""
    import numpy as np

    from cruiselib.arena import stats

    names = sorted({x for a, b, _ in results for x in (a, b)} | {anchor})
    index = {name: i for i, name in enumerate(names)}
    wins = np.zeros((len(names), len(names)))
    for a, b, score in results:
        wins[index[a], index[b]] += score
        wins[index[b], index[a]] += 1 - score
    for i in range(len(names)):
        if i != index[anchor]:  # the prior: one draw against the anchor
            wins[i, index[anchor]] += 0.5
            wins[index[anchor], i] += 0.5
    ratings = stats.bradley_terry(wins, names, prior=0.0, anchor=index[anchor])
    return dict(zip(ratings.names, ratings.values, strict=True))


def table(rows: list[dict[str, Any]], summary: list[dict[str, Any]]) -> tuple[str, dict[str, dict[str, float]]]:
    """The Markdown of the strength table and the Elo of each 2-player configuration."""
    lines = [
        "| game | A vs B | games | A's win rate | 95% interval | fair share | A above it? |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in summary:
        verdict = "yes" if s["low"] > s["fair"] else ("no (below)" if s["high"] < s["fair"] else "not yet clear")
        lines.append(
            f"| {s['config']} | {BOT_LABELS.get(s['a'], s['a'])} vs {BOT_LABELS.get(s['b'], s['b'])} | {s['games']} "
            f"| {s['rate']:.1%} | {s['low']:.1%}–{s['high']:.1%} | {s['fair']:.0%} | {verdict} |"
        )
    elo_lines = [
        "",
        "Elo (Bradley–Terry fit of the 2-player results, random = 0):",
        "",
        "| game | " + " | ".join(BOT_LABELS[b] for b in BOT_LABELS) + " |",
        "|---|" + "---|" * len(BOT_LABELS),
    ]
    elos: dict[str, dict[str, float]] = {}
    for label, _, players in CONFIGS:
        if players != 2:
            continue
        results = [(r["a"], r["b"], r["result_a"]) for r in rows if r["config"] == label]
        if not results:
            continue
        elo = elos[label] = elo_fit(results)
        elo_lines.append(f"| {label} | " + " | ".join(f"{elo[b]:+.0f}" if b in elo else "–" for b in BOT_LABELS) + " |")
    text = "\n".join(lines + elo_lines)
    text += (
        "\n\nA bot measured against one other bot only (the 100 ms pairing) is tied to the rest by"
        " the fit's prior alone: read its Elo against its partner's. The 100 ms bots search as"
        " far as the machine lets them in that time: their results depend on its speed and load."
        f"\n\n{len(rows):,} games on file ({time.strftime('%Y-%m-%d')}); reproduce with "
        "`python benchmarks/strength.py run` and `python benchmarks/strength.py report`."
    )
    return text, elos


def report(args: argparse.Namespace) -> int:
    rows = load_results(args.results)
    if not rows:
        print("no results yet: run `python benchmarks/strength.py run` first")
        return 1
    summary = summarize(rows)
    text, elos = table(rows, summary)
    for page in PAGES:  # the table between the markers of each page
        content = page.read_text()
        if MARK in content:
            start, end = content.index(MARK), content.index(MARK.replace("<!-- ", "<!-- /"))
            page.write_text(content[: start + len(MARK)] + "\n" + text + "\n" + content[end:])
    print(text)
    _plot(summary, elos)
    return 0


def _plot(summary: list[dict[str, Any]], elos: dict[str, dict[str, float]]) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no PNG (pip install matplotlib)")
        return
    PNG.parent.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(10, 0.32 * len(summary) + 1.2))
    labels = [f"{s['config']}: {s['a']} vs {s['b']}" for s in summary]
    y = list(range(len(summary)))[::-1]
    rates = [s["rate"] for s in summary]
    errors = [[max(0.0, s["rate"] - s["low"]) for s in summary], [max(0.0, s["high"] - s["rate"]) for s in summary]]
    ax.barh(y, rates, xerr=errors, color="#3b7dd8", ecolor="#333", capsize=2)
    for yi, s in zip(y, summary, strict=True):
        ax.plot([s["fair"], s["fair"]], [yi - 0.4, yi + 0.4], color="#d83b3b", lw=1.5)
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate of A (95% interval); red: the fair share")
    ax.set_title("cruiselib bots, seat-rotated matches")
    fig.tight_layout()
    fig.savefig(PNG, dpi=110)
    plt.close(fig)
    print(f"wrote {PNG.relative_to(ROOT) if PNG.is_relative_to(ROOT) else PNG}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    p_run = sub.add_parser("run", help="play (more of) the schedule; resumable")
    p_run.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    p_run.add_argument("--batch", type=int, default=10, help="games per pairing per round")
    p_run.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p_run.add_argument("--only", nargs="*", help="configurations or games to play (e.g. sirens-2p dream_islands)")
    p_run.add_argument("--pairs", nargs="*", help="pairings to play, as A:B (e.g. ismcts:rules)")
    p_run.add_argument("--hours", type=float, default=None, help="stop starting rounds after this long")
    sub.add_parser("report", help="write the table and the PNG")
    for p in (p_run, sub.choices["report"]):
        p.add_argument("--results", type=Path, default=RESULTS, help="the JSON-lines file of results")
    args = parser.parse_args(argv)
    if args.command == "run":
        for option in ("games", "batch", "jobs"):
            if getattr(args, option) < 1:
                parser.error(f"--{option} must be at least 1")
    command: Callable[[argparse.Namespace], int] = run if args.command == "run" else report
    return command(args)


if __name__ == "__main__":
    sys.exit(main())
