"""The pictures of docs/rl.md, "Rendering": each game's ``render_mode="rgb_array"`` frame.

    python scripts/render_pictures.py [--out docs/images] [--seed K] [--share F] [GAME ...]

For each game (every registered one without names), a configuration from the middle of
its example configurations is dealt from seed K and played by the game's rule bot at
every seat for the share F of a whole game's moves (the same game played to its end
first), on to the next position where seat 0 is to move; ``render-<game>.png`` is that
position as seat 0 sees it (``cruiselib._picture.picture``, what the environments'
``render()`` returns), reduced to 256 colours to stay small. Needs the ``rl`` extra.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cruiselib  # noqa: E402
from cruiselib._picture import picture  # noqa: E402
from cruiselib._registry import game_class  # noqa: E402
from cruiselib.bots import make_bot  # noqa: E402


def position(game: Any, seed: int, share: float) -> Any:
    """The position of the rule bots' game dealt from ``seed`` after ``share`` of its moves,
    on to seat 0's next turn."""
    bots = [make_bot("rules", seed=seed + seat) for seat in range(game.num_players)]
    whole = game.new_state(seed=seed)
    while not whole.is_over:
        whole.apply(bots[whole.current_player].choose(whole))
    actions = whole.history
    state = game.new_state(seed=seed)
    for action in actions[: int(len(actions) * share)]:
        state.apply(action)
    for action in actions[len(state.history) :]:
        if state.current_player == 0:
            break
        state.apply(action)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="games (default: every registered game)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--share", type=float, default=0.45)
    args = parser.parse_args()
    from PIL import Image

    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.games or cruiselib.games():
        examples = game_class(name).example_configurations
        game = cruiselib.make(name, **examples[(len(examples) - 1) // 2])
        state = position(game, args.seed, args.share)
        image = Image.fromarray(picture(game, state, 0)).quantize(256, dither=Image.Dither.NONE)
        path = args.out / f"render-{name}.png"
        image.save(path, optimize=True)
        print(f"{path}: {game!r}, {len(state.history)} moves, {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
