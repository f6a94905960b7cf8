"""The table as a picture: what the environments' ``render_mode="rgb_array"`` returns.

:func:`picture` draws one seat's view of a position into an RGB array of
:data:`WIDTH` × :data:`HEIGHT` pixels (the same size in every position, as a video needs):
a header with the game's title, whose turn it is (or the result) and the seat whose view
it is, the table in the middle, and the last moves at the bottom. The table is drawn by
the game's own drawer, which its class declares as ``Game.picture``
(``"package.module:function"``, a ``draw(canvas, game, view, area)`` that draws
``game``'s ``view`` of one seat into ``area`` of a :class:`Canvas`); a game that declares
none gets its compact board text (``game.render(state, seat, compact=True)``). A drawer
sees the seat's view alone and the header and footer say only what every seat may know
(whose turn it is, the result once the game is over, the public text of the other seats'
moves), so the picture shows the seat nothing it may not know.

Text is drawn with Pillow's built-in font (``ImageFont.load_default``), so nothing depends
on the fonts of the system, and the same position always gives the same bytes. Each text
is drawn a word at a time, each word rasterised once and kept (:func:`_word_mask`): a
frame takes milliseconds.

Pillow comes with the ``rl`` extra (``pip install 'cruiselib[rl]'``).
"""

from __future__ import annotations

import functools
import importlib
import math
import unicodedata
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError

try:
    from PIL import Image, ImageDraw, ImageFont
except ImportError:  # without the rl extra: picture() says what to install
    Image = ImageDraw = ImageFont = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from cruiselib._game import Game

__all__ = [
    "HEIGHT",
    "SEAT_COLORS",
    "WIDTH",
    "Area",
    "Canvas",
    "drawer_of",
    "picture",
]

WIDTH = 960
"""The width of every picture, in pixels (a multiple of 16, as video encoders want)."""
HEIGHT = 720
"""The height of every picture, in pixels."""

Color = tuple[int, int, int]

# The web page's colours (src/cruiselib/web/static/app.js, style.css).
SEAT_COLORS: tuple[Color, ...] = (
    (0xC0, 0x39, 0x2B),
    (0x24, 0x71, 0xA3),
    (0x22, 0x99, 0x54),
    (0xD6, 0x89, 0x10),
    (0x7D, 0x3C, 0x98),
    (0x14, 0x8F, 0x77),
)
"""Each seat's colour, by seat (the web page's)."""
INK: Color = (0x1B, 0x26, 0x31)
MUTED: Color = (0x7B, 0x8A, 0x97)
LINE: Color = (0xD5, 0xDD, 0xE5)
PAPER: Color = (0xF7, 0xF9, 0xFB)
WHITE: Color = (0xFF, 0xFF, 0xFF)
SEA: Color = (0xEA, 0xF2, 0xF8)
ACCENT: Color = (0x1F, 0x61, 0x8D)
HEADER: Color = (0x17, 0x3F, 0x5F)
GOLD: Color = (0xD6, 0x89, 0x10)

HEADER_HEIGHT = 56
FOOTER_LINES = 3  # the last moves shown
FOOTER_HEIGHT = 12 + 20 * FOOTER_LINES


def seat_color(seat: int) -> Color:
    """Seat ``seat``'s colour."""
    return SEAT_COLORS[seat % len(SEAT_COLORS)]


def tint(color: Color, amount: float) -> Color:
    """``color`` mixed with white: ``amount`` 0 is the colour, 1 is white."""
    r, g, b = color
    return (
        round(r + (255 - r) * amount),
        round(g + (255 - g) * amount),
        round(b + (255 - b) * amount),
    )


class Area(NamedTuple):
    """A rectangle of a canvas: ``left``, ``top`` (inclusive), ``right``, ``bottom`` (exclusive)."""

    left: int
    top: int
    right: int
    bottom: int

    @property
    def width(self) -> int:
        """The width in pixels."""
        return self.right - self.left

    @property
    def height(self) -> int:
        """The height in pixels."""
        return self.bottom - self.top


# ------------------------------------------------------------------------------- text

# Characters the built-in font draws as pictures (see _icon), and stand-ins for the other
# characters it has no glyph for (after accents are taken off: "Ålesund" is "Alesund").
ICONS = frozenset("★⚓♥✈")
_STAND_INS = {
    "ß": "ss",
    "æ": "ae",
    "Æ": "AE",
    "ø": "o",
    "Ø": "O",
    "œ": "oe",
    "Œ": "OE",
    "ł": "l",
    "Ł": "L",
    "đ": "d",
    "ð": "d",
    "þ": "th",
    "×": "x",
    "–": "-",
    "—": "-",
    "−": "-",
    "→": "->",
    "←": "<-",
    "↻": "",
    "\u00a0": " ",
}
# The glyphs of the built-in font beyond printable ASCII.
_EXTRA_GLYPHS = frozenset("©«°±´·»‘’“”…‹›⁄")


@functools.lru_cache(maxsize=4096)
def plain(text: str) -> str:
    """``text`` in characters the built-in font draws (or :data:`ICONS`): accents taken
    off, a few stand-ins (``ß`` → ``ss``, ``→`` → ``->``), ``?`` for anything else."""
    out = []
    for ch in text:
        if " " <= ch <= "~" or ch in _EXTRA_GLYPHS or ch in ICONS:
            out.append(ch)
        elif ch in _STAND_INS:
            out.append(_STAND_INS[ch])
        else:
            base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
            if base and all(" " <= c <= "~" for c in base):
                out.append(base)
            else:
                out.append(_STAND_INS.get(base, "?"))
    return "".join(out)


@functools.cache
def _font(size: int) -> Any:
    """The built-in font at ``size`` pixels."""
    return ImageFont.load_default(size=size)


def line_height(size: int) -> int:
    """The height of a line of text of ``size`` pixels (ascent and descent)."""
    ascent, descent = _font(size).getmetrics()
    return int(ascent + descent)


def _icon(draw: Any, ch: str, x: float, size: int, ascent: int) -> None:
    """Draw icon ``ch`` (one of :data:`ICONS`) at ``x`` on a text mask, sitting on the baseline."""
    s = size * 0.8
    cx, cy = x + s / 2, ascent - s / 2
    if ch == "★":
        r_out, r_in = s / 2, s / 5
        points = [
            (
                cx + (r_out if k % 2 == 0 else r_in) * math.sin(math.pi * k / 5),
                cy - (r_out if k % 2 == 0 else r_in) * math.cos(math.pi * k / 5),
            )
            for k in range(10)
        ]
        draw.polygon(points, fill=255)
    elif ch == "⚓":
        w = max(1, round(size / 10))
        top, bottom = cy - s / 2, cy + s / 2
        draw.ellipse((cx - s / 8, top, cx + s / 8, top + s / 4), outline=255, width=w)
        draw.line((cx, top + s / 4, cx, bottom), fill=255, width=w)
        draw.line((cx - s / 4, top + s * 0.42, cx + s / 4, top + s * 0.42), fill=255, width=w)
        draw.arc((cx - s / 2.3, bottom - s * 0.75, cx + s / 2.3, bottom), 20, 160, fill=255, width=w)
    elif ch == "♥":
        r = s / 4
        draw.ellipse((cx - 2 * r, cy - 1.6 * r, cx, cy + 0.4 * r), fill=255)
        draw.ellipse((cx, cy - 1.6 * r, cx + 2 * r, cy + 0.4 * r), fill=255)
        draw.polygon([(cx - 1.9 * r, cy - 0.3 * r), (cx + 1.9 * r, cy - 0.3 * r), (cx, cy + 2 * r)], fill=255)
    else:  # ✈: a small aeroplane seen from above
        draw.polygon(
            [(cx - s / 2, cy), (cx + s / 2, cy - s / 10), (cx + s / 2, cy + s / 10)],
            fill=255,
        )
        draw.polygon([(cx + s / 10, cy), (cx - s / 8, cy - s / 2), (cx - s / 4, cy - s / 2)], fill=255)
        draw.polygon([(cx + s / 10, cy), (cx - s / 8, cy + s / 2), (cx - s / 4, cy + s / 2)], fill=255)


def _runs(word: str) -> list[str]:
    """A word split into its text and its icons: ``"2★"`` is ``["2", "★"]``."""
    runs: list[str] = []
    start = 0
    for i, ch in enumerate(word):
        if ch in ICONS:
            if i > start:
                runs.append(word[start:i])
            runs.append(ch)
            start = i + 1
    if start < len(word):
        runs.append(word[start:])
    return runs


_STROKE = 0.35  # the outline that makes text bold


def _run_advance(run: str, size: int, bold: bool) -> float:
    if run in ICONS:
        return size * 0.8 + 2
    return float(_font(size).getlength(run)) + (2 * _STROKE if bold else 0.0)


@functools.lru_cache(maxsize=16384)
def _word_advance(word: str, size: int, bold: bool) -> float:
    """How far a word (no spaces, already :func:`plain`) moves the pen."""
    return sum(_run_advance(run, size, bold) for run in _runs(word))


@functools.lru_cache(maxsize=16384)
def _word_mask(word: str, size: int, bold: bool) -> Any:
    """A word (no spaces, already :func:`plain`) rasterised once: an "L" image, white where
    the word is. Text is drawn a word at a time, so a new text is mostly words already kept."""
    font = _font(size)
    ascent, descent = font.getmetrics()
    mask = Image.new("L", (math.ceil(_word_advance(word, size, bold)) + 2, ascent + descent), 0)
    draw = ImageDraw.Draw(mask)
    x = 0.0
    for run in _runs(word):
        if run in ICONS:
            _icon(draw, run, x + 1, size, ascent)
        else:
            stroke = _STROKE if bold else 0
            draw.text((x, 0), run, font=font, fill=255, stroke_width=stroke, stroke_fill=255)
        x += _run_advance(run, size, bold)
    return mask


@functools.cache
def _space(size: int) -> float:
    return float(_font(size).getlength(" "))


def _advance(text: str, size: int, bold: bool) -> float:
    """How far ``text`` (already :func:`plain`) moves the pen."""
    words = text.split(" ")
    return sum(_word_advance(word, size, bold) for word in words if word) + _space(size) * (len(words) - 1)


def text_width(text: str, size: int = 14, bold: bool = False) -> int:
    """The width in pixels of ``text`` drawn at ``size``."""
    return math.ceil(_advance(plain(text), size, bold))


def fit(text: str, width: int, size: int = 14, bold: bool = False) -> str:
    """``text``, cut short with ``…`` where it is wider than ``width`` pixels."""
    text = plain(text)
    if _advance(text, size, bold) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        mid = (low + high + 1) // 2
        if _advance(text[:mid].rstrip() + "…", size, bold) <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"


def wrap(text: str, width: int, size: int = 14, bold: bool = False, lines: int | None = None) -> list[str]:
    """``text`` broken at spaces into lines at most ``width`` pixels wide (a word longer
    than a line is cut short); at most ``lines`` lines, the last cut short with ``…``."""
    words = plain(text).split(" ")
    out: list[str] = []
    k = 0
    while k < len(words):
        if lines is not None and len(out) == lines - 1:
            out.append(fit(" ".join(words[k:]), width, size, bold))
            break
        line = words[k]
        k += 1
        while k < len(words) and _advance(f"{line} {words[k]}", size, bold) <= width:
            line = f"{line} {words[k]}"
            k += 1
        out.append(fit(line, width, size, bold))
    return out or [""]


# ----------------------------------------------------------------------------- canvas


class Canvas:
    """A picture being drawn: a Pillow RGB image and the few shapes the drawers use.

    Coordinates are pixels from the top left; a text's ``y`` is the top of its line
    (:func:`line_height` tall). Every method draws in the order called.
    """

    def __init__(self, width: int = WIDTH, height: int = HEIGHT, background: Color = PAPER) -> None:
        if Image is None:
            raise ImportError("drawing the table needs Pillow: pip install 'cruiselib[rl]'")
        self.width = width
        self.height = height
        self.image = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.image)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        *,
        size: int = 14,
        color: Color = INK,
        bold: bool = False,
        align: str = "left",
        width: int | None = None,
    ) -> int:
        """Draw ``text`` with its line's top at ``y``; ``x`` is its left end, its middle or
        its right end (``align`` ``"left"``, ``"center"``, ``"right"``). Cut short with ``…``
        to ``width`` pixels when given. Returns the width drawn."""
        shown = fit(text, width, size, bold) if width is not None else plain(text)
        total = _advance(shown, size, bold)
        if align == "center":
            x -= total / 2
        elif align == "right":
            x -= total
        top = round(y)
        space = _space(size)
        for word in shown.split(" "):
            if word:
                self.draw.bitmap((round(x), top), _word_mask(word, size, bold), fill=color)
                x += _word_advance(word, size, bold)
            x += space
        return math.ceil(total)

    def lines(
        self,
        x: float,
        y: float,
        texts: Sequence[str],
        *,
        size: int = 14,
        color: Color = INK,
        bold: bool = False,
        width: int | None = None,
        spacing: int = 0,
    ) -> float:
        """Draw ``texts`` one under the other from ``y``; returns the ``y`` below the last."""
        step = line_height(size) + spacing
        for text in texts:
            self.text(x, y, text, size=size, color=color, bold=bold, width=width)
            y += step
        return y

    def rect(
        self,
        area: Area | tuple[float, float, float, float],
        *,
        fill: Color | None = None,
        outline: Color | None = None,
        width: int = 1,
        radius: int = 0,
    ) -> None:
        """A rectangle (rounded by ``radius``) over ``area``: ``(left, top, right, bottom)``."""
        left, top, right, bottom = area
        box = (round(left), round(top), round(right) - 1, round(bottom) - 1)
        if radius:
            self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
        else:
            self.draw.rectangle(box, fill=fill, outline=outline, width=width)

    def circle(self, x: float, y: float, radius: float, *, fill: Color | None, outline: Color | None = None) -> None:
        """A disc of ``radius`` centred on ``(x, y)``."""
        self.draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill, outline=outline)

    def line(self, x0: float, y0: float, x1: float, y1: float, *, color: Color = LINE, width: int = 1) -> None:
        """A straight line."""
        self.draw.line((x0, y0, x1, y1), fill=color, width=width)

    def chip(self, x: float, y: float, seat: int, size: int = 14) -> int:
        """A small square of seat ``seat``'s colour whose top left is ``(x, y)`` (centred on a
        line of text of ``size`` drawn at ``y``); returns the room it takes."""
        side = round(size * 0.75)
        top = y + (line_height(size) - side) / 2
        self.rect((x, top, x + side, top + side), fill=seat_color(seat), radius=2)
        return side + 5

    def seat_label(
        self, x: float, y: float, seat: int, viewer: int | None, *, size: int = 14, bold: bool = False
    ) -> int:
        """``seat N`` (``seat N (you)`` for the viewing seat) after its colour chip; returns
        the width drawn."""
        used = self.chip(x, y, seat, size)
        label = f"seat {seat}" + (" (you)" if seat == viewer else "")
        return used + self.text(x + used, y, label, size=size, bold=bold)

    def panel(self, area: Area, title: str | None = None, *, fill: Color = WHITE, accent: Color | None = None) -> Area:
        """A white box with a title; returns the area inside it, below the title."""
        self.rect(area, fill=fill, outline=LINE, radius=6)
        if accent is not None:
            self.rect((area.left, area.top, area.right, area.top + 4), fill=accent, radius=2)
        top = area.top + 6
        if title:
            self.text(area.left + 10, top, title, size=13, bold=True, color=ACCENT, width=area.width - 20)
            top += line_height(13) + 3
        return Area(area.left + 10, top, area.right - 10, area.bottom - 6)

    def array(self) -> npt.NDArray[np.uint8]:
        """The picture: a new ``(height, width, 3)`` uint8 array."""
        return np.array(self.image, dtype=np.uint8)


# --------------------------------------------------------------------------- the frame

Drawer = Callable[["Canvas", Any, Any, Area], None]
"""A game's drawer: ``draw(canvas, game, view, area)`` draws ``view`` (one seat's
``state.view(seat)``) of ``game`` into ``area`` of ``canvas``."""


def drawer_of(game: Game[Any] | type[Game[Any]]) -> Drawer | None:
    """The drawer ``game``'s class declares (``Game.picture``), None for a game that
    declares none. InvalidOptionError, naming the game, for a declaration that names no
    function."""
    target = getattr(game, "picture", None)
    if target is None:
        return None
    name = getattr(game, "name", "?")
    module_name, sep, attr = target.partition(":") if isinstance(target, str) else ("", "", "")
    if not sep:
        raise InvalidOptionError(f"the game {name!r} declares picture {target!r}: give 'package.module:function'")
    try:
        function = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise InvalidOptionError(
            f"the game {name!r} declares picture {target!r}, which names no function: {exc}"
        ) from None
    if not callable(function):
        raise InvalidOptionError(f"the game {name!r} declares picture {target!r}, which names no function")
    drawer: Drawer = function
    return drawer


def picture(game: Game[Any], state: Any, seat: int) -> npt.NDArray[np.uint8]:
    """The table of ``state`` as seat ``seat`` sees it: a new ``(HEIGHT, WIDTH, 3)`` uint8
    RGB array (see the module's docstring). The same position always gives the same
    array. InvalidOptionError for a seat the game does not have."""
    seat = game.check_player(seat)
    canvas = Canvas()
    body = Area(0, HEADER_HEIGHT, WIDTH, HEIGHT - FOOTER_HEIGHT)
    draw = drawer_of(game)
    if draw is None:
        _board_text(canvas, game.render(state, seat, compact=True), body)
    else:
        draw(canvas, game, state.view(seat), Area(body.left + 12, body.top + 8, body.right - 12, body.bottom - 6))
    _header(canvas, game, state, seat)
    _footer(canvas, last_moves(state, seat, FOOTER_LINES), seat)
    return canvas.array()


def result_text(state: Any, viewer: int | None) -> str:
    """``Game over: seat 0 (you) wins · seat 0 (you) 12, seat 1 9``: the winners, then every
    party's score, best first (a solo game's own opponent, ``game.rival``, too)."""

    def party(seat: int) -> str:
        return f"seat {seat} (you)" if seat == viewer else f"seat {seat}"

    winners = list(state.winners())
    parties = [(party(p), int(s), p in winners) for p, s in enumerate(state.scores())]
    rival = state.game.rival(state)
    if rival is not None:
        parties.append((str(rival[0]), int(rival[1]), not winners))
    ranked = sorted(parties, key=lambda item: (not item[2], -item[1]))
    names = [name for name, _, won in ranked if won]
    if len(names) == 1:
        outcome = f"{names[0]} wins"
    elif names:
        outcome = f"{', '.join(names[:-1])} and {names[-1]} share the win"
    else:
        outcome = "a draw" if len(parties) > 1 else f"{party(0)} loses"
    return f"Game over: {outcome} · " + ", ".join(f"{name} {score}" for name, score, _ in ranked)


def _header(canvas: Canvas, game: Game[Any], state: Any, seat: int) -> None:
    """The title, whose turn it is (or the result) and whose view the picture is."""
    canvas.rect((0, 0, WIDTH, HEADER_HEIGHT), fill=HEADER)
    canvas.rect((0, HEADER_HEIGHT - 4, WIDTH, HEADER_HEIGHT), fill=seat_color(seat))
    canvas.text(16, 5, game.title, size=22, bold=True, color=WHITE, width=420)
    view_label = f"seat {seat}'s view"
    right = WIDTH - 16
    label_width = canvas.text(right, 8, view_label, size=15, color=WHITE, align="right")
    canvas.chip(right - label_width - 19, 8, seat, 15)
    players = game.num_players
    canvas.text(
        right, 29, f"{players} seat{'s' if players != 1 else ''}", size=12, color=tint(MUTED, 0.5), align="right"
    )
    if state.is_over:
        status, color = result_text(state, seat), (0xF9, 0xE7, 0x9F)
    else:
        player = int(state.current_player)
        status = f"seat {player} (you) to move" if player == seat else f"seat {player} to move"
        color = WHITE if player == seat else tint(MUTED, 0.6)
    canvas.text(16, 32, status, size=14, color=color, bold=state.is_over, width=WIDTH - 200)


def last_moves(state: Any, seat: int, count: int) -> list[tuple[int, str]]:
    """The last ``count`` moves (or fewer) of ``state``'s history, oldest first, each
    (the seat that made it, its text as ``seat`` may read it: its own moves in full, the
    others' public text). Empty for a state without a history (one made by ``resample``,
    or loaded from a snapshot without one)."""
    history = state.history
    if not history:
        return []
    count = min(count, len(history))
    earlier = state.clone()
    try:
        earlier.take_back(count)
    except (IllegalMoveError, InvalidStateError):  # a history that does not lead here
        return []
    out = []
    for action in history[-count:]:
        mover = int(earlier.current_player)
        out.append((mover, earlier.move_text(action, player=seat if mover == seat else None)))
        earlier.apply(action)
    return out


def _footer(canvas: Canvas, moves: list[tuple[int, str]], seat: int) -> None:
    """The last moves, the latest at the bottom."""
    top = HEIGHT - FOOTER_HEIGHT
    canvas.rect((0, top, WIDTH, HEIGHT), fill=(0xEE, 0xF2, 0xF5))
    canvas.line(0, top, WIDTH, top, color=LINE)
    canvas.text(16, top + 6, "last moves", size=12, color=MUTED, bold=True)
    if not moves:
        canvas.text(110, top + 6, "none yet", size=14, color=MUTED)
        return
    y = top + 6 + 20 * (FOOTER_LINES - len(moves))
    for k, (mover, text) in enumerate(moves):
        latest = k == len(moves) - 1
        x = 110 + canvas.chip(110, y, mover, 14)
        who = f"seat {mover} (you)" if mover == seat else f"seat {mover}"
        color = INK if latest else MUTED
        canvas.text(x, y, f"{who}: {text}", size=14, bold=latest, color=color, width=WIDTH - x - 16)
        y += 20


def _board_text(canvas: Canvas, text: str, area: Area) -> None:
    """A game's board text, one character a cell (the built-in font is not monospaced)."""
    lines = text.split("\n")
    columns = max((len(line) for line in lines), default=1)
    size = 16
    while size > 9 and (columns * size * 0.6 > area.width - 32 or len(lines) * line_height(size) > area.height - 32):
        size -= 1
    cell = size * 0.6
    y = area.top + 16
    for line in lines:
        for k, ch in enumerate(line):
            if ch != " ":
                canvas.text(area.left + 16 + k * cell + cell / 2, y, ch, size=size, align="center")
        y += line_height(size)
