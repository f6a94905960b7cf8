"""Dream Cruise's table as a picture (``DreamCruiseGame.picture``; :mod:`cruiselib._picture`):
every seat's ship board (cabins, additions, location card), the seat's hand, what it has
drawn, the display and Jana, drawn from one seat's view alone."""

from __future__ import annotations

from typing import Any

from cruiselib._picture import (
    GOLD,
    INK,
    LINE,
    MUTED,
    WHITE,
    Area,
    Canvas,
    line_height,
    seat_color,
    text_width,
    wrap,
)
from cruiselib.dream_cruise.cards import Activity, CardSet
from cruiselib.dream_cruise.schema import DreamCruiseView, SeatView

__all__ = ["draw"]

CABINS = ("inner", "oceanview", "balcony")
_CABIN_COLORS = ((0x5D, 0x6D, 0x7E), (0x2E, 0x86, 0xC1), (0xCA, 0x6F, 0x1E))  # the web page's
_CAPTAIN = (0x1F, 0x61, 0x8D)
_SEA_CARD = (0xEA, 0xF2, 0xF8)
_SHORE_CARD = (0xFD, 0xF2, 0xE9)
_FAMILY_CARD = (0xF4, 0xEC, 0xF7)
_EDGE = (0xAA, 0xB7, 0xC4)


def _activity(activity: Activity | None) -> str:
    return f"{activity.type} for {activity.capacity}" if activity is not None else ""


def _guests(canvas: Canvas, x: float, y: float, guests: list[int]) -> float:
    """A guest per cabin it came from, as a square of the cabin's colour; returns the x after."""
    for cabin in guests:
        canvas.rect((x, y + 4, x + 10, y + 14), fill=_CABIN_COLORS[cabin % 3], radius=2)
        x += 13
    return x


def _board(cards: CardSet, view: DreamCruiseView, s: SeatView, box: Area, canvas: Canvas, up: int) -> None:
    """One seat's ship board: its cabins' families, its additions, its location card and
    the location cards it kept, in type ``up`` pixels larger than the smallest. A board as
    wide as the table has its location card on the right, the cabins on the left."""
    me = view.player
    color = seat_color(s.seat)
    to_move = s.seat == view.current_player
    canvas.rect(box, fill=WHITE, outline=color if to_move else LINE, width=2 if to_move else 1, radius=6)
    canvas.rect((box.left, box.top, box.right, box.top + 5), fill=color, radius=2)
    left, right = box.left + 10, box.right - 10
    wide = box.width > 700
    y = box.top + 9 + up
    used = canvas.seat_label(left, y, s.seat, me, size=14 + up, bold=True)
    facts = f"score {s.score} · routes {s.route_points} · hand {s.hand_size}"
    if s.drawn_size:
        facts += f" · drawn {s.drawn_size}"
    if s.seat == view.start_player:
        facts += " · start player"
    canvas.text(left + used + 10, y + 1, facts, size=13 + up, color=MUTED, width=right - left - used - 10)
    y += 22 + 2 * up
    below_header = y
    full_right = right
    if wide:  # the cabins on the left, the location card on the right
        right = left + round((right - left) * 0.56)
    step = 17 + 2 * up
    name_x, count_x, wants_x = (left + 100, left + 205, left + 310) if up else (left + 90, left + 182, left + 270)
    for c, family_id in enumerate(s.families):
        middle = y + line_height(12 + up) / 2
        canvas.rect((left, middle - 5, left + 10, middle + 5), fill=_CABIN_COLORS[c], radius=2)
        canvas.text(left + 15, y, CABINS[c], size=12 + up, color=MUTED)
        if family_id < 0:
            canvas.text(name_x, y, "empty", size=13 + up, color=MUTED)
        else:
            family = cards.families[family_id]
            canvas.text(name_x, y, family.name, size=13 + up, bold=True, width=count_x - name_x - 4)
            canvas.text(count_x, y, f"{s.figures_left[c]}/{family.members} to place", size=12 + up)
            wants = ", ".join(family.wants)
            canvas.text(wants_x, y, wants, size=12 + up, color=MUTED, width=right - wants_x - 40 - 4 * up)
            canvas.text(right, y, f"{family.points} pts", size=12 + up, align="right")
        y += step
    for j, addition in enumerate(s.additions):
        if addition < 0:
            continue
        ship = cards.ships[addition]
        text = f"+ {ship.name} ({_activity(ship.activity)})"
        used = canvas.text(left, y, text, size=12 + up, width=right - left - 50)
        _guests(canvas, left + used + 6, y + up / 2, s.addition_guests[j])
        y += step - 1
    y += 4
    if wide:
        left, right, y = right + 20, full_right, below_header
    location = s.location
    if location is None:
        canvas.text(left, y, "no location card", size=13 + up, color=MUTED)
    else:
        card = cards.locations[location.card]
        spots: list[tuple[int, str]] = []
        for spot in range(3):
            if spot == 0:
                spots.append((spot, f"top: {_activity(card.top)}"))
            elif location.activity_cards[spot - 1] >= 0:
                ship = cards.ships[location.activity_cards[spot - 1]]
                spots.append((spot, f"{ship.name} ({_activity(ship.activity)})"))
            elif spot == 1 and card.bottom is not None:
                spots.append((spot, f"bottom: {_activity(card.bottom)}"))
        fill = _SEA_CARD if card.kind == "sea" else _SHORE_CARD
        spot_step = 15 + 2 * up
        canvas.rect((left, y, right, y + 24 + 2 * up + spot_step * len(spots)), fill=fill, outline=LINE, radius=5)
        where = "sea" if card.kind == "sea" else (card.region or "").replace("_", " ")
        used = canvas.text(left + 8, y + 3, card.name, size=13 + up, bold=True, width=right - left - 90)
        canvas.text(left + 14 + used, y + 4, where, size=12 + up, color=MUTED)
        y += 21 + 2 * up
        for spot, text in spots:
            x = left + 14 + canvas.text(left + 14, y, text, size=12 + up, width=right - left - 150)
            if location.captain == spot:
                x += 6 + canvas.text(x + 6, y, "⚓ captain", size=12 + up, bold=True, color=_CAPTAIN)
            _guests(canvas, x + 8, y + up / 2, location.guests[spot])
            y += spot_step
    left, right = box.left + 10, full_right
    played = ", ".join(cards.locations[x].name for x in s.played) or "-"
    families = len(s.points_pile)
    pile = f"points pile: {families} famil{'y' if families == 1 else 'ies'}"
    small = 11 + up // 2
    canvas.text(right, box.bottom - 8 - line_height(small), pile, size=small, color=MUTED, align="right")
    room = right - left - text_width(pile, small) - 16
    lines = wrap(f"kept: {played}", room, small, lines=2 if box.bottom - y > 60 else 1)
    canvas.lines(left, box.bottom - 8 - line_height(small) * len(lines), lines, size=small, color=MUTED)


def _cards(canvas: Canvas, inner: Area, shown: list[tuple[str, str, str, tuple[int, int, int]]]) -> None:
    """Cards (name, kind, what it does, colour) in rows, as many as fit."""
    width, height, gap = 168, 56, 8
    per_row = max(1, int((inner.width + gap) // (width + gap)))
    rows = max(1, int((inner.height + gap) // (height + gap)))
    for k, (name, kind, detail, fill) in enumerate(shown[: per_row * rows]):
        row, col = divmod(k, per_row)
        x, y = inner.left + col * (width + gap), inner.top + row * (height + gap)
        canvas.rect((x, y, x + width, y + height), fill=fill, outline=_EDGE, radius=6)
        canvas.text(x + 8, y + 4, name, size=14, bold=True, width=width - 14)
        canvas.text(x + 8, y + 22, kind, size=11, color=MUTED, width=width - 14)
        canvas.text(x + 8, y + 36, detail, size=12, width=width - 14)
    if len(shown) > per_row * rows:
        canvas.text(inner.right, inner.top - 19, f"+{len(shown) - per_row * rows} more", size=12, align="right")


def draw(canvas: Canvas, game: Any, view: DreamCruiseView, area: Area) -> None:
    """Draw ``view`` (one seat's) of a Dream Cruise game into ``area``."""
    cards: CardSet = game.cards
    phase = "game over" if view.phase == "over" else f"{view.phase.replace('_', ' ')} phase"
    status = (
        f"round {view.round}{' (final)' if view.final_round else ''} · {phase} · decks: families {view.family_deck},"
        f" locations {view.location_deck}, ships {view.ship_deck}"
    )
    canvas.text(area.left, area.top, status, size=14, color=MUTED, width=area.width)

    # The seats' boards: one or two across the table, one above the other; three or four
    # two to a row.
    seats = len(view.seats)
    columns = 1 if seats <= 2 else 2
    rows = (seats + columns - 1) // columns
    gap = 10
    top = area.top + 24
    board_h = {1: 250, 2: 186}.get(seats, 218)
    board_w = (area.width - gap * (columns - 1)) / columns
    for k, s in enumerate(view.seats):
        row, col = divmod(k, columns)
        left = area.left + col * (board_w + gap)
        board_top = top + row * (board_h + gap)
        box = Area(round(left), board_top, round(left + board_w), board_top + board_h)
        _board(cards, view, s, box, canvas, up={1: 2, 2: 1}.get(seats, 0))
    top += rows * (board_h + gap)

    # The seat's hand and what it drew, the display and Jana: beside the last board where
    # it has no neighbour.
    right_w = 330
    if seats == 3:
        board_top = top - board_h - gap
        side = Area(round(area.left + board_w + gap), board_top, area.right, board_top + board_h)
        hand = Area(area.left, top, area.right, area.bottom)
    else:
        hand = Area(area.left, top, area.right - right_w - gap, area.bottom)
        side = Area(hand.right + gap, top, area.right, area.bottom)
    title = f"Your hand ({len(view.hand)})" + (f" and what you drew ({len(view.drawn)})" if view.drawn else "")
    inner = canvas.panel(hand, title)
    shown = [
        (cards.ships[x].name, f"{cards.ships[x].kind} card", _activity(cards.ships[x].activity), WHITE)
        for x in view.hand
    ]
    for x in view.drawn:  # the families (boarding) or location cards (set course) it drew
        if view.phase == "boarding":
            family = cards.families[x]
            detail = f"{family.members} members, {family.points} pts"
            shown.append((family.name, "drawn family: " + ", ".join(family.wants), detail, _FAMILY_CARD))
        else:
            location = cards.locations[x]
            detail = _activity(location.top) + (f" / {_activity(location.bottom)}" if location.bottom else "")
            fill = _SEA_CARD if location.kind == "sea" else _SHORE_CARD
            shown.append((location.name, "drawn location card", detail, fill))
    if shown:
        _cards(canvas, inner, shown)
    else:
        canvas.text(inner.left, inner.top, "empty", size=13, color=MUTED)

    inner = canvas.panel(side, "Display" if view.display else "Cards")
    y = float(inner.top)
    step = line_height(12) + 1
    for k, offered in enumerate(view.display):
        if offered.taken_by >= 0:
            text, color = f"set {k}: taken by seat {offered.taken_by}", MUTED
        elif offered.face_down:
            text, color = f"set {k}: face down ({offered.size} cards)", INK
        else:
            text, color = f"set {k}: " + ", ".join(cards.ships[x].name for x in offered.cards), INK
        canvas.text(inner.left, y, text, size=12, color=color, width=inner.width)
        y += step
    y += 4
    lines = [
        f"discards: {len(view.family_discard)} families, {len(view.location_discard)} location cards,"
        f" {len(view.ship_discard)} ship cards",
        f"families out of the game: {view.family_box}",
    ]
    y = canvas.lines(inner.left, y, lines, size=12, color=MUTED, width=inner.width, spacing=1)
    jana = view.jana
    if jana is not None:
        y += 4
        canvas.text(inner.left, y, "Jana", size=13, bold=True, color=GOLD)
        y += step + 2
        facts = (
            f"{jana.pile_size} families face down · {len(jana.locations)} location cards · routes {jana.route_points}"
        )
        canvas.text(inner.left, y, facts, size=12, width=inner.width)
        y += step
        if jana.score is not None:
            canvas.text(inner.left, y, f"score {jana.score}", size=12, bold=True)
