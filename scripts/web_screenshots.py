"""The screenshots of docs/web.md: ``cruiselib web`` in headless Chromium, one per game
the page offers (every registered game with a web board).

    python scripts/web_screenshots.py [--out docs/images] [--chromium /usr/bin/chromium]
        [--players N] [--seat S] [--seed K] [--moves M | --to-end] [GAME ...]

Starts the server on a free loopback port, opens the page in the system's Chromium through
Playwright (as tests/test_web.py does), plays some moves of each game against the ``rules``
bot by clicking the hint's best move, asks for one more hint, and saves ``web-<game>.png``;
``--to-end`` plays to the end instead (by the first move button), to show the final scores.
docs/web.md gives the command of each of its pictures. Needs the ``web`` extra and
Playwright (``pip install -e '.[dev,web]'``).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_web import chromium_path, click, open_game, play_by_clicking  # noqa: E402
from tests.web_support import free_port  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--chromium", default=None, help="the browser (default: chromium on PATH)")
    parser.add_argument("--players", type=int, default=None, help="seats (default: the game's fewest of two or more)")
    parser.add_argument("--seat", type=int, default=0, help="the seat played by clicks (default 0)")
    parser.add_argument("--seed", type=int, default=1, help="the deal (default 1)")
    parser.add_argument("--moves", type=int, default=10, help="hinted moves before the picture (default 10)")
    parser.add_argument("--to-end", action="store_true", help="play to the end instead, for the final scores")
    parser.add_argument("games", nargs="*", help="the games to picture (default: every game the page offers)")
    args = parser.parse_args(argv)
    import uvicorn
    from playwright.sync_api import sync_playwright

    from cruiselib._registry import game_class
    from cruiselib.web import create_app
    from cruiselib.web.app import offered_games

    offered = offered_games()
    unknown = [name for name in args.games if name not in offered]
    if unknown:
        sys.exit(f"the page does not offer {', '.join(unknown)}; it offers {', '.join(offered)}")

    path = args.chromium or chromium_path()
    if path is None:
        sys.exit("no Chromium found: apt-get install chromium, or give --chromium")
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    base = f"http://127.0.0.1:{port}"
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox"])
            for game in args.games or offered:
                players = args.players
                if players is None:
                    counts = game_class(game).player_counts
                    players = next((n for n in counts if n >= 2), counts[0])
                page = browser.new_page(viewport={"width": 1280, "height": 860})
                open_game(page, base, game, players, args.seat, args.seed, opponent="rules", think=0.1)
                if args.to_end:
                    play_by_clicking(page)
                else:
                    for _ in range(args.moves):
                        _, state = click(page, '[data-action="hint"]')
                        _, state = click(page, '#hints [data-action="hint-move"] >> nth=0')
                        if state == "over":
                            break
                    else:
                        click(page, '[data-action="hint"]')
                target = args.out / f"web-{game}.png"
                page.screenshot(path=str(target), full_page=True)
                print(target.relative_to(ROOT) if target.is_relative_to(ROOT) else target)
                page.close()
            browser.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
