"""The headline of a run: who played, and what the numbers say, in sentences.

A summary (:mod:`cruiselib.arena.summary`) is a table of win shares with intervals; a
designer wants the answer to "does the start player have an edge?" and "did the variant
change it?", a bot author "which bot is stronger?". :func:`headline` reads the summary and
states each answer with its size in percentage points (pp), its 95% interval and a verdict
that says what the interval allows: an edge, none, or "not detectable at this size" with the
number of games that would resolve one point. It is the first thing the command prints,
the ``headline`` of ``summary.json`` and the top of the report.

Every number comes from the summary: a share ``s`` of a fair share ``f`` with interval
``[low, high]`` is ``100 (s - f)`` pp with interval ``[100 (low - f), 100 (high - f)]``; a
paired variant's difference is already a difference of shares.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from cruiselib import __version__

from .plan import BotSpec, Spec, Study, Tournament
from .stats import wilson

__all__ = ["RESOLUTION_PP", "fair_share", "games_to_resolve", "headline", "who_played"]

RESOLUTION_PP = 1.0
"""The interval half-width (in percentage points) that "about N games would resolve" aims at."""

_Z95 = 1.959963984540054


def games_to_resolve(share: float, half_width_pp: float = RESOLUTION_PP) -> int:
    """Games whose 95% interval of a share near ``share`` is about +-``half_width_pp`` wide:
    ``z^2 p (1 - p) / w^2``, rounded up to a thousand (a planning figure, not a promise)."""
    p = min(max(share, 0.01), 0.99)
    width = half_width_pp / 100.0
    needed = _Z95 * _Z95 * p * (1.0 - p) / (width * width)
    return int(math.ceil(needed / 1000.0) * 1000)


def _pp(value: float) -> str:
    return f"{value:+.1f} pp"


def _interval(low: float, high: float) -> str:
    return f"({low:+.1f} to {high:+.1f})"


def _edge(share: float, low: float, high: float, fair: float, games: int) -> dict[str, Any]:
    """A share against its fair share, in pp, with the verdict its interval allows."""
    difference, lo, hi = 100.0 * (share - fair), 100.0 * (low - fair), 100.0 * (high - fair)
    if lo > 0.0:
        verdict = "an advantage"
    elif hi < 0.0:
        verdict = "a disadvantage"
    elif max(-lo, hi) <= RESOLUTION_PP:
        verdict = f"no edge: within {RESOLUTION_PP:g} pp of fair"
    else:
        verdict = (
            f"no difference detectable at this size ({games:,} games): about "
            f"{games_to_resolve(share):,} would resolve +-{RESOLUTION_PP:g} pp"
        )
    return {
        "share": share,
        "fair": fair,
        "difference_pp": difference,
        "low_pp": lo,
        "high_pp": hi,
        "games": games,
        "verdict": verdict,
    }


def fair_share(cell: dict[str, Any]) -> float:
    """A seat's share with no edge in this cell: the wins handed out per game, split evenly
    (``(1 - draws) / players``). Against ``1 / players`` a game with draws would show every
    seat at a disadvantage."""
    seats = cell["seats"]
    games = max(int(seats[0]["games"]), 1) if seats else 1
    handed_out = sum(float(entry["wins"]) for entry in seats) / games
    return handed_out / max(len(seats), 1)


def _pooled_start(cell: dict[str, Any], fair: float) -> dict[str, Any] | None:
    """The start player's win share over every game of a cell, whichever seat started."""
    starters = [entry for entry in cell["start_players"] if entry["games"]]
    games = sum(int(entry["games"]) for entry in starters)
    if not games:
        return None
    wins = sum(float(entry["wins"]) for entry in starters)
    share = wins / games
    low, high = wilson(wins, games)
    return _edge(share, low, high, fair, games)


def _seat_lines(cell: dict[str, Any], fair: float) -> list[dict[str, Any]]:
    out = []
    for entry in cell["seats"]:
        if not entry["games"] or entry["share"] is None:
            continue
        found = _edge(float(entry["share"]), float(entry["low"]), float(entry["high"]), fair, int(entry["games"]))
        found["seat"] = int(entry["seat"])
        out.append(found)
    return out


def _bots_of(spec: Spec, players: int) -> list[str]:
    """Who sat where: a label per seat (a study) or the participants (a tournament)."""
    if isinstance(spec, Study):
        if not spec.bots:
            return ["random (in the core)"] * players
        if len(spec.bots) == 1:
            return [spec.bots[0].display] * players
        return [bot.display for bot in spec.bots[:players]]
    return [bot.display for bot in spec.participants]


def _plays_at_random(bots: Sequence[BotSpec]) -> bool:
    return not bots or all(bot.name == "random" for bot in bots)


def who_played(spec: Spec, summary: dict[str, Any], command: str | None = None) -> dict[str, Any]:
    """The run's header: the game, the kind, the bots (per seat for a study, the participants
    and the filler for a tournament), the seed, the library version and the command (None
    from Python)."""
    players = summary.get("players")
    counts = players if isinstance(players, list) else [players or 2]
    out: dict[str, Any] = {
        "game": spec.game,
        "kind": "tournament" if isinstance(spec, Tournament) else "study",
        "seed": spec.seed,
        "version": __version__,
        "command": command,
    }
    if isinstance(spec, Study):
        out["seats"] = {str(count): _bots_of(spec, count) for count in counts}
        out["random_players"] = _plays_at_random(spec.bots)
    else:
        out["participants"] = _bots_of(spec, counts[0])
        out["mode"] = spec.mode
        out["filler"] = spec.filler.display if (counts[0] or 2) > 2 else None
        out["random_players"] = False
    return out


def headline(spec: Spec, summary: dict[str, Any], command: str | None = None) -> dict[str, Any]:
    """``{"who": who_played(...), "findings": [...], "lines": [...]}``: each finding a dict
    with its ``subject``, the numbers in pp and a ``verdict``; ``lines`` the same in words, as
    the command prints them."""
    who = who_played(spec, summary, command)
    findings: list[dict[str, Any]] = []
    cells = summary.get("cells", ())
    for cell in cells:
        fair = fair_share(cell)
        start = _pooled_start(cell, fair)
        if start is not None:
            findings.append({"subject": "start player", "cell": cell["name"], **start})
        for seat in _seat_lines(cell, fair):
            findings.append({"subject": f"seat {seat['seat']}", "cell": cell["name"], **seat})
    for bot in summary.get("bots", ()):
        if bot["share"] is None:
            continue
        fair = fair_share(cells[0]) if cells else float(bot["fair"])
        edge = _edge(float(bot["share"]), float(bot["low"]), float(bot["high"]), fair, int(bot["games"]))
        edge["verdict"] = {"an advantage": "ahead of a fair share", "a disadvantage": "behind a fair share"}.get(
            edge["verdict"], edge["verdict"]
        )
        findings.append({"subject": f"bot {bot['label']}", "cell": None, **edge})
    for variant in summary.get("variants", ()):
        if variant["metric"] == "length":
            continue
        difference, lo, hi = (100.0 * float(variant[key]) for key in ("difference", "low", "high"))
        if lo > 0.0:
            verdict = "raises it"
        elif hi < 0.0:
            verdict = "lowers it"
        elif max(-lo, hi) <= RESOLUTION_PP:
            verdict = f"no change: within {RESOLUTION_PP:g} pp"
        else:
            verdict = "no change detectable at this size"
        findings.append(
            {
                "subject": f"{variant['metric']}: {variant['name']} against {variant['baseline']}",
                "cell": variant["name"],
                "difference_pp": difference,
                "low_pp": lo,
                "high_pp": hi,
                "games": int(variant["games"]),
                "verdict": verdict,
                "paired": True,
            }
        )
    return {"who": who, "findings": findings, "lines": _lines(who, findings, summary)}


def _lines(who: dict[str, Any], findings: list[dict[str, Any]], summary: dict[str, Any]) -> list[str]:
    lines = [_who_line(who, summary)]
    if who.get("random_players"):
        lines.append(
            "  note: uniformly random players: a balance verdict needs players that play the game "
            "(--bot rules); random play can hide or invert an edge (docs: arena, 'Who plays')"
        )

    def per_seat(finding: dict[str, Any]) -> bool:
        return not finding.get("paired") and finding["subject"].startswith("seat ")

    for finding in findings:
        if per_seat(finding):
            continue  # said on the line under their cell's start player
        where = f"{finding['cell']}: " if finding.get("cell") and not finding.get("paired") else ""
        against = f" against a fair {finding['fair']:.1%}" if "fair" in finding else ""
        lines.append(
            f"  {where}{finding['subject']} {_pp(finding['difference_pp'])} "
            f"{_interval(finding['low_pp'], finding['high_pp'])}{against}: {finding['verdict']}"
        )
        if finding["subject"] == "start player":
            seats = [f for f in findings if f["cell"] == finding["cell"] and per_seat(f)]
            if seats:
                lines.append(
                    "    by seat: "
                    + ", ".join(
                        f"{f['subject']} {_pp(f['difference_pp'])} {_interval(f['low_pp'], f['high_pp'])}"
                        for f in seats
                    )
                )
    return lines


def _who_line(who: dict[str, Any], summary: dict[str, Any]) -> str:
    games = f"{summary.get('games', 0):,} games"
    if who["kind"] == "study":
        seatings = "; ".join(
            f"{count} players: {', '.join(bots)}" if len(set(bots)) > 1 else f"{count} players: {bots[0]} in every seat"
            for count, bots in who["seats"].items()
        )
        played = seatings
    else:
        played = f"{who['mode']} of {', '.join(who['participants'])}"
        if who.get("filler"):
            played += f", {who['filler']} in the other seats"
    return f"{games}, {played}; seed {who['seed']}, cruiselib {who['version']}"
