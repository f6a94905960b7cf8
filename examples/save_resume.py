"""Save a game in one process and finish it in another, exactly as if never stopped.

    python examples/save_resume.py save game.json      # play 20 moves, write the snapshot
    python examples/save_resume.py resume game.json    # load it and play on to the end
    python examples/save_resume.py straight            # the same game without a stop

The snapshot (``state.to_json()``) holds everything: the position, the hidden cards, the
generator state and the history, so the resumed game draws the same cards. The bots are
seeded per move number, so every run makes the same choices. All three commands print the
same final line.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import cruiselib
from cruiselib.bots import make_bot

GAME = cruiselib.make("atlantic_star", players=3)
STOP_AFTER = 20


def play(state: Any, until: int | None = None) -> None:
    """Play with the rule-based bot, the bot of move k seeded with k, up to ``until`` moves."""
    while not state.is_over and (until is None or len(state.history) < until):
        bot = make_bot("rules", seed=len(state.history))
        state.apply(bot.choose(state))


def final_line(state: Any) -> str:
    return f"{len(state.history)} moves, scores {state.scores()}, winners {state.winners()}"


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "straight"
    if command == "save" and len(argv) == 2:
        state = GAME.new_state(seed=11)
        play(state, until=STOP_AFTER)
        Path(argv[1]).write_text(state.to_json())
        print(f"saved after {len(state.history)} moves to {argv[1]}")
    elif command == "resume" and len(argv) == 2:
        state = GAME.load_state(Path(argv[1]).read_text())
        play(state)
        print(final_line(state))
    elif command == "straight":
        state = GAME.new_state(seed=11)
        play(state)
        print(final_line(state))
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
