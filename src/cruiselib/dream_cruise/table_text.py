"""Dream Cruise's table in words for a person at play: Jana's turns (the solo game, C9,
C23) said as lines of the moves played. Her turns are automatic rules, not moves: they are
read by comparing what the seat sees before and after. The web page's drawer
(``board.js``, its ``events`` hook) says them in the same words."""

from __future__ import annotations

from typing import Any

__all__ = ["jana_lines", "location_text"]


def location_text(card: Any) -> str:
    """A location card's name and its route: ``Piraeus (east med shore)``, ``Open Sea: Alboran
    Sea (open sea: joins one route)``."""
    where = "open sea: joins one route" if card.kind == "sea" else f"{str(card.region).replace('_', ' ')} shore"
    return f"{card.name} ({where})"


def jana_lines(before: Any, after: Any, cards: Any) -> list[str]:
    """What Jana did between the views ``before`` and ``after`` (a seat's views of a solo
    game, ``state.view(0)``), a line each: the families she drew into her points pile, the
    location cards she took and her routes' points, her final score. Empty for a game
    without Jana."""
    was, now = before.jana, after.jana
    if was is None or now is None:
        return []
    lines = []
    drew = now.pile_size - was.pile_size
    if drew > 0:
        what = "a family" if drew == 1 else f"{drew} families"
        lines.append(f"Jana draws {what} into her points pile, face down ({now.pile_size} there now)")
    taken = [location_text(cards.locations[x]) for x in list(now.locations)[len(was.locations) :]]
    if taken:
        gained = now.route_points - was.route_points
        plus = f" (+{gained})" if gained > 0 else ""
        lines.append(f"Jana takes {' and '.join(taken)}: her routes score {now.route_points}{plus}")
    if now.score is not None and was.score is None:
        lines.append(f"Jana scores {now.score}: her points pile and her longest route")
    return lines
