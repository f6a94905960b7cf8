"""Atlantic Star's table as a picture (``AtlanticStarGame.picture``; :mod:`cruiselib._picture`):
the four seas with their plaques, the charter agency, the seats and the seat's own ships,
drawn from one seat's view alone."""

from __future__ import annotations

from typing import Any

from cruiselib._picture import (
    ACCENT,
    GOLD,
    INK,
    LINE,
    MUTED,
    SEA,
    WHITE,
    Area,
    Canvas,
    line_height,
    seat_color,
    tint,
    wrap,
)
from cruiselib.atlantic_star.schema import AtlanticStarView, PlaqueInfo, SeaInfo, ShipInfo

__all__ = ["draw"]

_MAIL = (0xFE, 0xF9, 0xE7)
_EDGE = (0xAA, 0xB7, 0xC4)
_OPERATOR = (0x95, 0xA5, 0xA6)


def _marks(amount: int) -> str:
    return f"{amount:,}"


def _plaque(canvas: Canvas, plaque: PlaqueInfo, box: Area, me: int) -> None:
    """A plaque: its field's victory points, the voyage's value and loan, whose it is and
    its ships."""
    color = _OPERATOR if plaque.seat is None else seat_color(plaque.seat)
    canvas.rect(box, fill=WHITE if plaque.seat != me else tint(color, 0.88), outline=LINE, radius=4)
    canvas.rect((box.left, box.top, box.left + 6, box.bottom), fill=color, radius=2)
    left = box.left + 12
    owner = "operator" if plaque.seat is None else f"seat {plaque.seat}" + (" (you)" if plaque.seat == me else "")
    used = canvas.text(left, box.top + 2, f"{plaque.victory_points} VP", size=13, bold=True)
    details = f"value {plaque.value} · {owner}" + (f" · loan {_marks(plaque.loan)}" if plaque.loan else "")
    canvas.text(left + used + 6, box.top + 2, details, size=12, width=box.right - left - used - 10)
    canvas.text(left, box.top + 18, ", ".join(plaque.ships), size=11, color=MUTED, width=box.right - left - 4)


def _sea(canvas: Canvas, sea: SeaInfo, box: Area, me: int) -> None:
    """A sea: its name, legs and star class, and its plaques, top field first."""
    canvas.rect(box, fill=SEA, outline=GOLD if sea.full else tint(ACCENT, 0.6), width=2 if sea.full else 1, radius=8)
    used = canvas.text(box.left + 10, box.top + 6, sea.name, size=16, bold=True, color=ACCENT)
    info = f"{sea.legs} legs" + (f" · {'★' * sea.stars}" if sea.stars else "") + (" · full" if sea.full else "")
    canvas.text(box.left + 16 + used, box.top + 9, info, size=12, color=GOLD if sea.full else MUTED)
    y = box.top + 32
    height = min(36, (box.bottom - y - 4) // 6)
    if not sea.plaques:
        canvas.text(box.left + 10, y, "no voyage yet", size=13, color=MUTED)
    for plaque in sea.plaques:
        _plaque(canvas, plaque, Area(box.left + 6, y, box.right - 6, y + height - 3), me)
        y += height


def _ship(canvas: Canvas, ship: ShipInfo | None, box: Area, price: int | None = None) -> None:
    """A ship card (with its agency price), or an empty agency space."""
    canvas.rect(box, fill=_MAIL if ship is not None and ship.mail else WHITE, outline=_EDGE, radius=6)
    left, y = box.left + 8, box.top + 4
    reserved = 16
    if price is not None:
        reserved += 8 + canvas.text(
            box.right - 8, y, _marks(price) if price else "free", size=12, bold=True, color=GOLD, align="right"
        )
    if ship is None:
        canvas.text(left, y, "empty", size=13, color=MUTED)
        return
    canvas.text(left, y, ship.name, size=14, bold=True, width=box.width - reserved)
    legs = "mail ship: 1 on any leg" if ship.mail else " · ".join(ship.legs)
    canvas.text(left, y + 19, legs, size=11 if box.width < 150 else 12, color=MUTED, width=box.width - 14)


def draw(canvas: Canvas, game: Any, view: AtlanticStarView, area: Area) -> None:
    """Draw ``view`` (one seat's) of an Atlantic Star game into ``area``."""
    me = view.player
    phase = "game over" if view.phase == "over" else f"{view.phase} phase"
    status = f"{phase} · pack {view.deck_size} ships · discard pile {len(view.discard)} · free classes "
    used = canvas.text(area.left, area.top, status, size=14, color=MUTED)
    classes = "  ".join("★" * n for n in view.free_classes) or "none"
    canvas.text(area.left + used, area.top, classes, size=14, color=GOLD, bold=True)

    # The four seas side by side.
    gap = 10
    seas = len(view.seas) or 1
    width = (area.width - gap * (seas - 1)) / seas
    top = area.top + 24
    for k, sea in enumerate(view.seas):
        left = area.left + k * (width + gap)
        _sea(canvas, sea, Area(round(left), top, round(left + width), top + 250), me)

    # The charter agency and the seats, then the seat's own ships.
    top += 260
    players = len(view.money)
    seats_height = 50 + 19 * players
    agency = Area(area.left, top, area.left + 560, top + max(seats_height, 100))
    inner = canvas.panel(agency, "Charter agency (refresh: 2,000)")
    card_w = (inner.width - 3 * 8) / 4
    for k, space in enumerate(view.agency):
        left = inner.left + k * (card_w + 8)
        _ship(canvas, space.ship, Area(round(left), inner.top + 2, round(left + card_w), inner.top + 58), space.price)

    seats = Area(agency.right + 10, top, area.right, agency.bottom)
    inner = canvas.panel(seats, "Seats")
    columns = [("marks", 150), ("VP", 190), ("hand", 230), ("voyages", 290), ("loans", inner.width)]
    for label, x in columns:
        canvas.text(inner.left + x, inner.top, label, size=12, color=MUTED, align="right")
    y = inner.top + 17
    for p in range(players):
        if p == view.current_player:
            canvas.rect((inner.left - 6, y - 1, inner.right + 4, y + 18), fill=tint(seat_color(p), 0.85), radius=4)
        canvas.seat_label(inner.left, y, p, me, size=13, bold=p == me)
        cells = [
            _marks(view.money[p]),
            str(view.scores[p]),
            str(view.hand_sizes[p]),
            str(view.voyages_left[p]),
            _marks(sum(view.loans[p])),
        ]
        for (label, x), text in zip(columns, cells, strict=True):
            canvas.text(inner.left + x, y, text, size=13, align="right", bold=label == "VP")
        y += 19

    hand = Area(area.left, agency.bottom + 10, agency.right, area.bottom)
    inner = canvas.panel(hand, f"Your ships ({len(view.hand)})")
    if not view.hand:
        canvas.text(inner.left, inner.top, "none", size=13, color=MUTED)
    per_row = 4
    card_w = (inner.width - (per_row - 1) * 8) / per_row
    card_h = 44
    rows = max(1, int((inner.height + 6) // (card_h + 6)))
    for k, ship in enumerate(view.hand[: per_row * rows]):
        row, col = divmod(k, per_row)
        left = inner.left + col * (card_w + 8)
        y = inner.top + 2 + row * (card_h + 6)
        _ship(canvas, ship, Area(round(left), round(y), round(left + card_w), round(y + card_h)))
    if len(view.hand) > per_row * rows:
        canvas.text(
            inner.right, hand.top + 6, f"+{len(view.hand) - per_row * rows} more", size=12, color=INK, align="right"
        )

    # The discard pile, face up: the latest first.
    pile = Area(hand.right + 10, hand.top, area.right, area.bottom)
    inner = canvas.panel(pile, f"Discard pile ({len(view.discard)})")
    names = ", ".join(ship.name for ship in reversed(view.discard)) or "empty"
    rows = max(1, int(inner.height // line_height(12)))
    lines = wrap(names, inner.width, 12, lines=rows)
    canvas.lines(inner.left, inner.top, lines, size=12, color=MUTED if not view.discard else INK)
