"""Sirens in Sight's table as a picture (``SirensGame.picture``; :mod:`cruiselib._picture`):
the five ship cards between the two seats' sides, the seat's hand, the seats and the crew,
drawn from one seat's view alone."""

from __future__ import annotations

from typing import Any

from cruiselib._picture import (
    INK,
    LINE,
    MUTED,
    SEA,
    WHITE,
    Area,
    Canvas,
    line_height,
    seat_color,
    text_width,
    tint,
    wrap,
)
from cruiselib.sirens.schema import CardInfo, ShipInfo, SirensView

__all__ = ["draw"]

_EMBLEM_FILL = {"shell": (0xFD, 0xF2, 0xE9), "seastar": (0xEA, 0xF2, 0xF8)}
_EMBLEM_NAME = {"shell": "shell", "seastar": "star"}
_CREW = (0x7D, 0x3C, 0x98)
_RUM = (0xA0, 0x40, 0x00)
_EDGE = (0xAA, 0xB7, 0xC4)

_ROW = 68  # a ship's row
_CARD_W, _CARD_H = 40, 54  # a card on a side
_GAP = 5
_SHIP_W = 150


def _card(canvas: Canvas, x: float, y: float, card: CardInfo, w: int = _CARD_W, h: int = _CARD_H) -> None:
    """A card whose top left is ``(x, y)``: its value, its emblem, the move-crew icon and
    an octopus on it."""
    canvas.rect(
        (x, y, x + w, y + h),
        fill=_EMBLEM_FILL.get(card.emblem, WHITE),
        outline=_CREW if card.crew else _EDGE,
        width=2 if card.crew else 1,
        radius=4,
    )
    size = 17 if h >= 44 else 13
    value_y = y + (h - line_height(size)) / 2 - (3 if h >= 40 else 0)
    canvas.text(x + w / 2, value_y, str(card.value), size=size, bold=True, align="center")
    if h >= 40:
        canvas.text(
            x + w / 2, y + h - 15, _EMBLEM_NAME.get(card.emblem, card.emblem), size=10, color=MUTED, align="center"
        )
    if card.crew and h >= 40:  # a small card shows the icon by its border alone
        canvas.text(x + 2, y + 1, "⚓", size=11, color=_CREW)
    if card.octopus is not None:
        canvas.rect((x + w - 13, y - 4, x + w + 4, y + 9), fill=seat_color(card.octopus), radius=4)
        canvas.text(x + w - 4.5, y - 4, "oct", size=9, color=WHITE, align="center")


def _side(canvas: Canvas, ship: ShipInfo, seat: int, edge: float, y: float, toward_left: bool) -> None:
    """One seat's side of a ship: the total next to the ship card, then the cards."""
    if not ship.in_play:  # won or removed: its sides are empty
        return
    cards = ship.sides[seat]
    total = f"= {ship.totals[seat]}"
    mid = y + (_ROW - line_height(15)) / 2
    if toward_left:  # seat 0: the side ends at the ship card, on its left
        canvas.text(edge, mid, total, size=15, bold=True, align="right")
        x = edge - 52 - len(cards) * (_CARD_W + _GAP)
    else:
        canvas.text(edge, mid, total, size=15, bold=True)
        x = edge + 52
    for card in cards:
        _card(canvas, x, y + (_ROW - _CARD_H) / 2, card)
        x += _CARD_W + _GAP


def _ship(canvas: Canvas, ship: ShipInfo, left: float, y: float) -> None:
    """A ship card: its value, the total it needs (rum mugs raise it), the crew token on it
    and what became of it."""
    top, bottom = y + 3, y + _ROW - 3
    if ship.owner is not None:
        fill, edge = tint(seat_color(ship.owner), 0.8), seat_color(ship.owner)
    elif ship.removed or not ship.in_play:
        fill, edge = (0xF2, 0xF4, 0xF6), LINE
    else:
        fill, edge = WHITE, (0x5D, 0x6D, 0x7E)
    canvas.rect((left, top, left + _SHIP_W, bottom), fill=fill, outline=edge, width=2, radius=8)
    middle = left + _SHIP_W / 2
    canvas.text(left + 10, top + 4, str(ship.value), size=22, bold=True, color=INK if ship.in_play else MUTED)
    if ship.owner is not None:
        lines = [(f"won by seat {ship.owner}", seat_color(ship.owner))]
    elif ship.removed:
        lines = [("removed (a tie)", MUTED)]
    elif not ship.in_play:
        lines = [("not in play", MUTED)]
    else:
        lines = [(f"needs {ship.threshold}", INK)]
        if ship.rum:
            lines.append((f"rum x{ship.rum}", _RUM))
    right = left + _SHIP_W - 8
    line_y = top + 5
    for text, color in lines:
        canvas.text(right, line_y, text, size=12, color=color, align="right", bold=color == _RUM)
        line_y += 15
    if ship.crew:
        canvas.text(middle, bottom - 18, " + ".join(ship.crew), size=13, bold=True, color=_CREW, align="center")


def _crew_text(view: SirensView, k: int) -> str:
    crew = view.crew[k]
    if crew.removed:
        where = "removed"
    elif crew.owner is not None:
        where = f"won by seat {crew.owner}"
    elif crew.ship is not None:
        where = f"on ship {crew.ship}"
    else:
        where = "waiting"
    return f"{crew.name}: {where}"


def draw(canvas: Canvas, game: Any, view: SirensView, area: Area) -> None:
    """Draw ``view`` (one seat's) of a Sirens in Sight game into ``area``."""
    me = view.player
    phase = "game over" if view.phase == "over" else f"{view.phase} phase · seat {view.turn_player}'s turn"
    piles = " / ".join(map(str, view.pile_sizes))
    status = f"{phase} · draw pile{'s' if len(view.pile_sizes) > 1 else ''} {piles}"
    if view.passes:
        status += f" · passes {view.passes}"
    if view.variant != "standard":
        status += f" · variant {view.variant.replace('_', ' ')}"
    canvas.text(area.left, area.top, status, size=14, color=MUTED, width=area.width)

    # The ships, bow to rear, each between seat 0's side (left) and seat 1's (right).
    middle = (area.left + area.right) / 2
    ship_left = middle - _SHIP_W / 2
    head = area.top + 24
    canvas.seat_label(area.left + 4, head, 0, me, bold=True)
    canvas.text(middle, head, "ship cards", size=13, color=MUTED, align="center")
    width = 15 + text_width("seat 1 (you)" if me == 1 else "seat 1", bold=True)
    canvas.seat_label(area.right - 4 - width, head, 1, me, bold=True)
    y = head + 22
    for ship in view.ships:
        canvas.rect((area.left, y + 2, area.right, y + _ROW - 2), fill=SEA, radius=8)
        _side(canvas, ship, 0, ship_left - 10, y, toward_left=True)
        _side(canvas, ship, 1, ship_left + _SHIP_W + 10, y, toward_left=False)
        _ship(canvas, ship, ship_left, y)
        y += _ROW + 2

    # The seat's hand (and its own set while it picks), the seats, the crew.
    top = y + 6
    bottom = area.bottom
    hand_area = Area(area.left, top, area.left + 360, bottom)
    inner = canvas.panel(hand_area, "Your hand")
    # While the seat picks its starting card (the variant), its own set shows under the hand.
    width, height = (40, 54) if view.own_pile else (52, 70)
    x = inner.left
    for card in view.hand:
        _card(canvas, x, inner.top + 4, card, width, height)
        x += width + 8
    if not view.hand:
        canvas.text(inner.left, inner.top + 4, "empty", color=MUTED)
    if view.own_pile:
        y_pile = inner.top + height + 10
        canvas.text(inner.left, y_pile, f"your remaining cards ({len(view.own_pile)})", size=12, color=MUTED)
        x, y_pile = inner.left, y_pile + 17
        for card in view.own_pile:
            if x + 20 > inner.right:
                x, y_pile = inner.left, y_pile + 30
            if y_pile + 26 > inner.bottom:
                break
            _card(canvas, x, y_pile, card, 20, 26)
            x += 23

    seats_area = Area(hand_area.right + 10, top, hand_area.right + 300, bottom)
    inner = canvas.panel(seats_area, "Seats")
    y = inner.top + 2
    for p in range(2):
        canvas.seat_label(inner.left, y, p, me, bold=True)
        points = view.points[p]
        canvas.text(inner.right, y, f"{points} point{'' if points == 1 else 's'}", bold=True, align="right")
        y += 19
        cards = view.hand_sizes[p]
        canvas.text(inner.left + 16, y, f"{cards} card{'' if cards == 1 else 's'} in hand", size=13, color=MUTED)
        y += 17
        rum = "rum mug ready" if view.rum_held[p] else "rum mug used"
        octopus = "octopus ready" if view.octopus_held[p] else "octopus placed"
        canvas.text(inner.left + 16, y, f"{rum} · {octopus}", size=13, color=MUTED, width=inner.width - 16)
        y += 24

    crew_area = Area(seats_area.right + 10, top, area.right, bottom)
    inner = canvas.panel(crew_area, "Crew")
    y = inner.top + 2
    for k in range(len(view.crew)):
        canvas.text(inner.left, y, _crew_text(view, k), color=_CREW, width=inner.width)
        y += 19
    if view.crew_choice:
        canvas.text(
            inner.left,
            y,
            f"crew choice: ship {view.crew_choice[0]} or {view.crew_choice[1]}",
            size=13,
            width=inner.width,
        )
        y += 19
    y += 6
    removed = len(view.removed)
    canvas.text(inner.left, y, f"removed cards: {removed}", size=13, color=MUTED)
    y += 18
    values = " ".join(f"{c.value}{'⚓' if c.crew else ''}" for c in view.removed)
    if values:
        rows = max(1, int((inner.bottom - y) // line_height(12)))
        canvas.lines(inner.left, y, wrap(values, inner.width, 12, lines=rows), size=12, color=MUTED)
