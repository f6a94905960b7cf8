"""How strong the bots are: seat-rotated matches, win rates with 95% intervals, an Elo fit.

    python benchmarks/strength.py run [--jobs 2] [--games 200] [--only sirens-2p] [--hours 2]
    python benchmarks/strength.py report        # the Markdown table and the PNG

``run`` plays the schedule below and appends one JSON line per finished game to
``benchmarks/results/strength.jsonl``; it is resumable: a game already in the file is not
played again, so stop it any time (Ctrl-C) and run it again to go on. Games are played in
rounds of ``--batch`` per pairing, so a partial run covers every pairing evenly.

``report`` reads the file and writes the table between the ``strength-table`` markers of
``docs/bots.md`` and ``README.md`` and ``docs/images/strength.png`` (needs matplotlib). A pairing
"A vs B" at N players seats A once and B in every other seat, rotating A through the seats;
A's result is 1 for a win, 0.5 for a draw at 2 players, 0 otherwise. The Elo fit is a
Bradley–Terry maximum-likelihood fit of the 2-player results of each game, random bot at 0.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "strength.jsonl"
DOC = ROOT / "docs" / "bots.md"
PNG = ROOT / "docs" / "images" / "strength.png"
MARK = "<!-- strength-table -->"

# The seat counts the matches are played at, where a game takes them.
SEATS = (2, 4)


def configurations() -> list[tuple[str, str, dict[str, Any]]]:
    """Every registered game at each of SEATS it takes, as (label, game, options): all the
    2-player configurations first, labelled ``<game>-2p`` (a game of one seat count is made
    with its default options)."""
    import cruiselib
    from cruiselib._registry import game_class

    out = []
    for seats in SEATS:
        for name in cruiselib.games():
            counts = game_class(name).player_counts
            if seats in counts:
                out.append((f"{name}-{seats}p", name, {"players": seats} if len(counts) > 1 else {}))
    return out


# Configurations: (label, game, options).
CONFIGS: list[tuple[str, str, dict[str, Any]]] = configurations()
# Pairings (A, B, games wanted as a share of --games).
PAIRINGS: list[tuple[str, str, float]] = [
    ("rules", "random", 1.0),
    ("rules", "greedy", 1.0),
    ("ismcts", "rules", 1.0),
    ("ismcts", "greedy", 1.0),
    ("ismcts", "random", 1.0),
    ("ismcts-100ms", "rules", 0.25),
    ("ismcts-100ms", "openspiel-ismcts-100ms", 0.25),
]
BOT_LABELS = {
    "random": "random",
    "greedy": "greedy (one ply)",
    "rules": "rule-based",
    "ismcts": "ISMCTS, 2,000 iterations",
    "ismcts-100ms": "ISMCTS, 100 ms",
    "openspiel-ismcts-100ms": "OpenSpiel ISMCTS, 100 ms",
}


def make_player(spec: str, game: Any, seed: int) -> Any:
    """A bot from its label in the schedule."""
    from cruiselib.bots import ISMCTSBot, make_bot

    if spec == "ismcts":
        return ISMCTSBot(iterations=2000, seed=seed)
    if spec == "ismcts-100ms":
        return ISMCTSBot(iterations=None, seconds=0.1, seed=seed)
    if spec == "openspiel-ismcts-100ms":
        from cruiselib.openspiel import TimedISMCTS

        return TimedISMCTS(game, seconds=0.1, seed=seed)
    return make_bot(spec, seed=seed)


def available(spec: str) -> bool:
    if spec.startswith("openspiel"):
        try:
            from cruiselib.openspiel import TimedISMCTS  # noqa: F401
        except ImportError:
            return False
    return True


def play_one(label: str, name: str, options: dict[str, Any], a: str, b: str, index: int) -> dict[str, Any]:
    """Game ``index`` of pairing A vs B: A sits in seat index % players."""
    import cruiselib

    game = cruiselib.make(name, **options)
    n = game.num_players
    seat_a = index % n
    seed = 1_000_003 * index + 7
    bots = [make_player(a if p == seat_a else b, game, seed + 31 * p) for p in range(n)]
    state = game.new_state(seed=seed)
    thinking = [0.0] * n
    start = time.perf_counter()
    while not state.is_over:
        seat = state.current_player
        t = time.perf_counter()
        action = bots[seat].choose(state)
        thinking[seat] += time.perf_counter() - t
        state.apply(action)
    winners = state.winners()
    if seat_a in winners:
        result = 1.0
    elif not winners and n == 2:
        result = 0.5
    else:
        result = 0.0
    return {
        "config": label,
        "a": a,
        "b": b,
        "index": index,
        "seat_a": seat_a,
        "seed": seed,
        "winners": winners,
        "scores": state.scores(),
        "result_a": result,
        "actions": len(state.history),
        "seconds": round(time.perf_counter() - start, 3),
        "seconds_a": round(thinking[seat_a], 3),
        "compiled": cruiselib.compiled,
        "version": cruiselib.__version__,
    }


def load_results(path: Path = RESULTS) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    rows = []
    seen = set()
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            key = (row["config"], row["a"], row["b"], row["index"])
            if key not in seen:  # two runs side by side may both play a game: count it once
                seen.add(key)
                rows.append(row)
    return rows


def schedule(
    games: int,
    batch: int,
    only: set[str] | None,
    done: set[tuple[str, str, str, int]],
    pairs: set[str] | None = None,
) -> Iterator[tuple[Any, ...]]:
    """The games still to play, in rounds of ``batch`` per pairing (so every pairing grows)."""
    wanted = {}
    for label, name, options in CONFIGS:
        if only and label not in only and name not in only:
            continue
        for a, b, share in PAIRINGS:
            if pairs and f"{a}:{b}" not in pairs:
                continue
            if available(a) and available(b):
                wanted[(label, name, a, b)] = (options, max(1, round(games * share)))
    for lo in range(0, games, batch):
        for (label, name, a, b), (options, total) in wanted.items():
            for index in range(lo, min(lo + batch, total)):
                if (label, a, b, index) not in done:
                    yield (label, name, options, a, b, index)


def run(args: argparse.Namespace) -> int:
    args.results.parent.mkdir(parents=True, exist_ok=True)
    done = {(r["config"], r["a"], r["b"], r["index"]) for r in load_results(args.results)}
    only = set(args.only) if args.only else None
    todo = list(schedule(args.games, args.batch, only, done, set(args.pairs) if args.pairs else None))
    print(f"{len(done)} games on file, {len(todo)} to play on {args.jobs} processes", flush=True)
    deadline = time.monotonic() + args.hours * 3600 if args.hours else math.inf
    pending: dict[Future[dict[str, Any]], tuple[Any, ...]] = {}
    queue = iter(todo)
    finished = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool, args.results.open("a") as out:
        try:
            while True:
                while len(pending) < 2 * args.jobs and time.monotonic() < deadline:
                    task = next(queue, None)
                    if task is None:
                        break
                    pending[pool.submit(play_one, *task)] = task
                if not pending:
                    break
                ready, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in ready:
                    pending.pop(future)
                    row = future.result()
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    finished += 1
                    if finished % 20 == 0:
                        print(f"  {finished} games played ({row['config']}: {row['a']} vs {row['b']})", flush=True)
        except KeyboardInterrupt:
            print("stopped; the games finished so far are on file", flush=True)
            for future in pending:
                future.cancel()
            return 130
    print(f"{finished} games played", flush=True)
    return 0


# --------------------------------------------------------------------------- statistics


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score 95% interval of a win rate (draws count half)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_fit(results: list[tuple[str, str, float]], anchor: str = "random", rounds: int = 2000) -> dict[str, float]:
    """Bradley–Terry strengths by the minorization–maximization iteration (Hunter 2004) on
    (a, b, score of a) results, as Elo points with ``anchor`` at 0. A draw is half a win each;
    a prior of one draw against the anchor keeps unbeaten bots finite."""
    players = sorted({x for a, b, _ in results for x in (a, b)} | {anchor})
    wins: dict[str, float] = defaultdict(float)
    games: dict[tuple[str, str], float] = defaultdict(float)
    for a, b, s in results:
        wins[a] += s
        wins[b] += 1 - s
        games[(a, b)] += 1
        games[(b, a)] += 1
    for p in players:
        if p != anchor:  # the prior: one draw against the anchor
            wins[p] += 0.5
            wins[anchor] += 0.5
            games[(p, anchor)] += 1
            games[(anchor, p)] += 1
    gamma = dict.fromkeys(players, 1.0)
    for _ in range(rounds):
        new = {}
        for p in players:
            denom = sum(games[(p, q)] / (gamma[p] + gamma[q]) for q in players if q != p and games[(p, q)])
            new[p] = wins[p] / denom if denom else gamma[p]
        scale = new[anchor]
        gamma = {p: g / scale for p, g in new.items()}
    return {p: 400 * math.log10(g) for p, g in gamma.items()}


def summarize(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
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
        lo, hi = wilson(score, n)
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
                "seconds_a": sum(g["seconds_a"] for g in games) / max(1, sum(g["actions"] for g in games)) * players,
            }
        )
    return out


def report(args: argparse.Namespace) -> int:
    rows = load_results(args.results)
    if not rows:
        print("no results yet: run `python benchmarks/strength.py run` first")
        return 1
    summary = summarize(rows)
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
    for label, _, _ in CONFIGS:
        if not label.endswith("-2p"):
            continue
        results = [(r["a"], r["b"], r["result_a"]) for r in rows if r["config"] == label]
        if not results:
            continue
        elo = elos[label] = elo_fit(results)
        elo_lines.append(f"| {label} | " + " | ".join(f"{elo[b]:+.0f}" if b in elo else "–" for b in BOT_LABELS) + " |")
    table = "\n".join(lines + elo_lines)
    stamp = time.strftime("%Y-%m-%d")
    table += (
        "\n\nA bot measured against one other bot only (the 100 ms pairing) is tied to the rest by"
        " the fit's prior alone: read its Elo against its partner's."
        f"\n\n{len(rows):,} games on file ({stamp}); reproduce with "
        "`python benchmarks/strength.py run` and `python benchmarks/strength.py report`."
    )
    for page in (DOC, ROOT / "README.md"):  # the table between the markers of each page
        text = page.read_text()
        if MARK in text:
            start, end = text.index(MARK), text.index(MARK.replace("<!-- ", "<!-- /"))
            page.write_text(text[: start + len(MARK)] + "\n" + table + "\n" + text[end:])
    print(table)
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
    print(f"wrote {PNG.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    p_run = sub.add_parser("run", help="play (more of) the schedule; resumable")
    p_run.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    p_run.add_argument("--batch", type=int, default=10, help="games per pairing per round")
    p_run.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p_run.add_argument("--only", nargs="*", help="configurations or games to play (e.g. sirens-2p dream_islands)")
    p_run.add_argument("--pairs", nargs="*", help="pairings to play, as A:B (e.g. ismcts:rules)")
    p_run.add_argument("--hours", type=float, default=None, help="stop starting games after this long")
    sub.add_parser("report", help="write the table and the PNG")
    for p in (p_run, sub.choices["report"]):
        p.add_argument("--results", type=Path, default=RESULTS, help="the JSON-lines file of results")
    args = parser.parse_args(argv)
    command: Callable[[argparse.Namespace], int] = run if args.command == "run" else report
    return command(args)


if __name__ == "__main__":
    sys.exit(main())
