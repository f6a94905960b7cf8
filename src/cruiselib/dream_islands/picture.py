"""Dream Islands' table as a picture (``DreamIslandsGame.picture``; :mod:`cruiselib._picture`):
the route from the airplane over the eight islands to the middle with every seat's pieces,
the seats and the seat's own missions, drawn from one seat's view alone."""

from __future__ import annotations

import itertools
from typing import Any

from cruiselib._picture import (
    ACCENT,
    INK,
    MUTED,
    WHITE,
    Area,
    Canvas,
    line_height,
    seat_color,
    tint,
)
from cruiselib.dream_islands.moves import MISSIONS
from cruiselib.dream_islands.schema import DreamIslandsView

__all__ = ["draw"]

_ISLAND = (0xE8, 0xF8, 0xF5)  # the web page's island, airplane and middle colours
_AIRPLANE = (0xF4, 0xF6, 0xF7)
_MIDDLE = (0xFC, 0xF3, 0xCF)
_ROUTE = (0xAE, 0xD6, 0xF1)
_SAND = (0xB7, 0x95, 0x0B)

_PLACE_H = 104
_PIP = 7  # a piece's radius


def _mission(m: int) -> str:
    return f"[{m}] {MISSIONS[m] if 0 <= m < len(MISSIONS) else f'mission {m}'}"


def _pieces(canvas: Canvas, x: float, y: float, width: float, counts: list[int]) -> float:
    """Each seat's pieces as discs of its colour, a row per seat with pieces there; returns
    the ``y`` below them."""
    step = 2 * _PIP + 3
    per_row = max(1, int((width + 3) // step))
    any_piece = False
    for seat, n in enumerate(counts):
        if not n:
            continue
        any_piece = True
        for k in range(n):
            row, col = divmod(k, per_row)
            canvas.circle(
                x + _PIP + col * step, y + _PIP + row * step, _PIP, fill=seat_color(seat), outline=tint(INK, 0.3)
            )
        y += step * ((n - 1) // per_row + 1)
    if not any_piece:
        canvas.text(x, y, "-", color=MUTED)
        y += line_height(14)
    return y


def _small_islands(canvas: Canvas, x: float, y: float, view: DreamIslandsView, values: tuple[int, ...]) -> float:
    """The three small islands of the middle, each with its points and the seat that holds it."""
    for value, owner in zip(values, view.small_islands, strict=False):
        label = f"{value} pts"
        w = 46
        if owner >= 0:
            canvas.rect((x, y, x + w, y + 20), fill=seat_color(owner), radius=10)
            canvas.text(x + w / 2, y + 2, label, size=12, bold=True, color=WHITE, align="center")
        else:
            canvas.rect((x, y, x + w, y + 20), fill=WHITE, outline=_SAND, radius=10)
            canvas.text(x + w / 2, y + 2, label, size=12, color=INK, align="center")
        x += w + 6
    return y + 26


def draw(canvas: Canvas, game: Any, view: DreamIslandsView, area: Area) -> None:
    """Draw ``view`` (one seat's) of a Dream Islands game into ``area``."""
    from cruiselib.dream_islands.game import SMALL_VALUES

    me = view.player
    rounds = f"round {view.rounds + 1}" + (f" of {view.max_rounds}" if view.max_rounds else "")
    if view.phase == "over":
        status = f"game over after {view.rounds} rounds"
    else:
        status = f"{rounds} · {view.phase} phase" + (" · last round" if view.end_triggered else "")
    canvas.text(area.left, area.top, status, size=14, color=MUTED, width=area.width)

    # The route: airplane, islands 1-4 left to right, then islands 5-8 and the middle back
    # right to left, joined by the sea lane the pieces travel.
    islands = len(view.seats[0].islands)
    places: list[tuple[str, list[int], tuple[int, int, int]]] = [
        ("airplane", [s.airplane for s in view.seats], _AIRPLANE)
    ]
    for i in range(islands):
        name = f"island {i + 1}" + (" ♥" if i == islands - 1 else "")
        places.append((name, [s.islands[i] for s in view.seats], _ISLAND))
    per_row = (len(places) + 2) // 2  # the middle ends the second row
    gap = 18
    width = (area.width - gap * (per_row - 1)) / per_row
    top = area.top + 26
    boxes: list[Area] = []
    for k in range(len(places) + 1):
        row, col = divmod(k, per_row)
        if row == 1:
            col = per_row - 1 - col
        left = area.left + col * (width + gap)
        y = top + row * (_PLACE_H + 30)
        boxes.append(Area(round(left), y, round(left + width), y + _PLACE_H))
    for a, b in itertools.pairwise(boxes):  # the lane, under the places
        canvas.line(
            (a.left + a.right) / 2,
            (a.top + a.bottom) / 2,
            (b.left + b.right) / 2,
            (b.top + b.bottom) / 2,
            color=_ROUTE,
            width=10,
        )
    for (name, counts, fill), box in zip(places, boxes, strict=False):
        canvas.rect(box, fill=fill, outline=tint(ACCENT, 0.6), radius=14)
        canvas.text(box.left + 10, box.top + 6, name, size=13, bold=True, color=ACCENT)
        _pieces(canvas, box.left + 10, box.top + 27, box.width - 20, counts)
    middle = boxes[-1]
    canvas.rect(middle, fill=_MIDDLE, outline=_SAND, radius=14)
    canvas.text(middle.left + 10, middle.top + 6, "middle", size=13, bold=True, color=_SAND)
    below = _small_islands(canvas, middle.left + 10, middle.top + 26, view, tuple(SMALL_VALUES))
    _pieces(canvas, middle.left + 10, below, middle.width - 20, [s.middle for s in view.seats])

    # The seats, then the seat's own missions.
    top = boxes[-1].bottom + 14
    half = area.left + (area.width - 10) // 2
    seats = Area(area.left, top, half, top + 70 + 21 * len(view.seats))
    inner = canvas.panel(seats, "Seats")
    columns = [("score", 125), ("missions", 192), ("shells", 212), ("hand", 336), ("pile", 382), ("under", 430)]
    for label, x in columns:
        canvas.text(
            inner.left + x, inner.top, label, size=12, color=MUTED, align="right" if label != "shells" else "left"
        )
    y = inner.top + 18
    for s in view.seats:
        if s.seat == view.current_player:
            canvas.rect((inner.left - 6, y - 1, inner.right + 4, y + 19), fill=tint(seat_color(s.seat), 0.85), radius=4)
        canvas.seat_label(inner.left, y, s.seat, me, bold=s.seat == me)
        cells = {
            "score": str(s.score),
            "missions": f"{len(s.completed)}/{len(MISSIONS)}",
            "hand": str(s.hand_size),
            "pile": str(s.pile_size),
            "under": str(s.under),
        }
        for label, x in columns:
            if label == "shells":
                for k, number in enumerate(range(2, 6)):
                    covered = number in s.covered
                    cx = inner.left + x + 8 + k * 19
                    canvas.circle(cx, y + 9, 8, fill=tint(MUTED, 0.5) if covered else WHITE, outline=_SAND)
                    canvas.text(cx, y + 1, str(number), size=12, color=WHITE if covered else INK, align="center")
            else:
                canvas.text(inner.left + x, y, cells[label], align="right", bold=label == "score")
        y += 21
    canvas.text(inner.left, y + 2, "shells: a grey one is covered", size=11, color=MUTED)

    mine = view.seats[me]
    done = Area(area.left, seats.bottom + 10, half, area.bottom)
    inner = canvas.panel(done, f"Your completed missions ({len(mine.completed)})")
    _mission_list(canvas, inner, mine.completed)

    right = half + 10
    hand = Area(right, top, area.right, top + 32 + 19 * 3)
    inner = canvas.panel(hand, "Your missions in hand")
    canvas.lines(inner.left, inner.top, [_mission(m) for m in view.hand] or ["none"], width=inner.width, spacing=2)
    pile = Area(right, hand.bottom + 10, area.right, area.bottom)
    under = len(view.under_pile)
    title = f"Your draw pile: {mine.pile_size} cards" + (f", the first {under} put under by you" if under else "")
    inner = canvas.panel(pile, title)
    _mission_list(canvas, inner, [*view.under_pile, *view.pile_unseen], known=under)


def _mission_list(canvas: Canvas, inner: Area, missions: list[int], known: int | None = None) -> None:
    """Missions in two columns, as many as fit; those from ``known`` on greyed (a pile's
    cards whose order the seat does not know)."""
    if not missions:
        canvas.text(inner.left, inner.top, "none", size=13, color=MUTED)
        return
    step = line_height(12) + 1
    rows = max(1, int(inner.height // step))
    column = (inner.width - 10) // 2
    for k, m in enumerate(missions[: 2 * rows]):
        col, row = divmod(k, rows)
        color = MUTED if known is not None and k >= known else INK
        canvas.text(
            inner.left + col * (column + 10), inner.top + row * step, _mission(m), size=12, width=column, color=color
        )
