"""The pictures of docs/web.md: each game's page in headless Chromium at desktop width and at
phone width, played on the board, mid-game and at the end.

    python scripts/web_board_pictures.py [--out docs/images] [--moves M] [--seed K] [GAME ...]

Starts the server on a free loopback port, opens the page in the system's Chromium through
Playwright (as tests/test_web.py does), plays M moves of the person's seat by clicks on the
board against the ``rules`` bot, then clicks a board object that several moves act on (so
that the picture shows the choice beside it) and saves ``web-<game>-desktop.png`` and
``web-<game>-phone.png`` (390 px wide); then plays on to the end and saves
``web-<game>-desktop-end.png`` and ``web-<game>-phone-end.png`` (the final scores and why
the game ended). Each is reduced to 256 colours to stay small. The table is the game's
fewest seats of two or more, and a game with a solo configuration is pictured solo too
(``web-<game>-solo-…``). The "How to win" box, open at a first game, is closed for the
pictures but the first one's. Needs the ``web`` extra, Playwright and Pillow.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_web import (  # noqa: E402
    MAX_CLICKS,
    PHONE,
    choose_on_the_board,
    chromium_path,
    open_game,
    two_or_more,
    wait_idle,
)
from tests.web_support import serving  # noqa: E402

DESKTOP: Any = {"width": 1280, "height": 860}


def show_a_choice(page: Any) -> None:
    """Click the first board object that several legal moves act on (a choice opens next to
    it); nothing when every object plays a single move."""
    keys = page.evaluate(
        """() => {
            const count = new Map();
            for (const info of S.onBoard) {
                for (const key of info ? info.objects : []) count.set(key, (count.get(key) || 0) + 1);
            }
            return [...count].filter(([, n]) => n > 1).map(([key]) => key);
        }"""
    )
    for node in page.locator("#board [data-object].playable").all():
        if node.get_attribute("data-object") in keys:
            node.click()
            return


def save(page: Any, target: Path, *, end: bool = False) -> None:
    """The page's screenshot at ``target``, in 256 colours: from the top of the page (down to
    the choice when one is shown), or at the ``end`` with the final scores in view."""
    from PIL import Image

    if end:
        page.locator("#result").scroll_into_view_if_needed()
    else:  # the top of the page, or down to the choice shown (beside the objects it marks)
        page.evaluate("window.scrollTo(0, 0)")
        if page.is_visible("#choice"):
            page.evaluate("document.querySelector('#choice').scrollIntoView({block: 'end'})")
    page.screenshot(path=str(target))
    with Image.open(target) as image:
        image.convert("RGB").quantize(256).save(target, optimize=True)
    print(target.relative_to(ROOT) if target.is_relative_to(ROOT) else target)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--moves", type=int, default=6, help="moves played on the board first (default 6)")
    parser.add_argument("--seed", type=int, default=3, help="the deal and the clicks (default 3)")
    parser.add_argument("games", nargs="*", help="the games to picture (default: every game the page offers)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from cruiselib.web.app import offered_games

    unknown = [name for name in args.games if name not in offered_games()]
    if unknown:
        sys.exit(f"the page does not offer {', '.join(unknown)}; it offers {', '.join(offered_games())}")
    path = chromium_path()
    if path is None:
        sys.exit("no Chromium found: apt-get install chromium (or set CRUISELIB_CHROMIUM)")
    args.out.mkdir(parents=True, exist_ok=True)
    from cruiselib._registry import game_class

    first = True
    with serving() as served, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox"])
        for game in args.games or offered_games():
            tables = [(two_or_more(game), "")]
            if 1 in game_class(game).player_counts and two_or_more(game) != 1:
                tables.append((1, "-solo"))
            for players, solo in tables:
                for width, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                    page = browser.new_page(viewport=viewport)
                    open_game(page, served.base, game, players, 0, args.seed, opponent="rules", think=0.05)
                    if not first and page.is_visible("#rules"):
                        page.click('[data-action="close-rules"]')
                    first = False
                    rnd = random.Random(args.seed)
                    renders, state = wait_idle(page)
                    for _ in range(args.moves):
                        if state == "over":
                            break
                        choose_on_the_board(page, rnd)
                        renders, state = wait_idle(page, renders)
                    if state != "over":
                        show_a_choice(page)
                    save(page, args.out / f"web-{game}{solo}-{width}.png")
                    page.keyboard.press("Escape")
                    for _ in range(MAX_CLICKS):
                        if state == "over":
                            break
                        choose_on_the_board(page, rnd)
                        renders, state = wait_idle(page, renders)
                    save(page, args.out / f"web-{game}{solo}-{width}-end.png", end=True)
                    page.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
