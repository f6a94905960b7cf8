"""Save a game together with its bots, and finish it in another process exactly as if never
stopped.

    python examples/save_with_bots.py save game.pickle [GAME]    # play 20 moves, pickle game and bots
    python examples/save_with_bots.py resume game.pickle          # unpickle both and play on to the end
    python examples/save_with_bots.py straight [GAME]             # the same game without a stop
    python examples/save_with_bots.py fresh game.pickle           # resume with newly made bots instead

GAME is a name of ``cruiselib.games()`` (default: the first). A bot keeps a random
generator (and a search bot the number of searches it ran) from move to move, so a game
resumed with new bots of the same seeds plays on differently: the bots start their
sequences again. A pickle of the state and the bots together holds both, so ``save`` then
``resume`` prints the final line of ``straight``; ``fresh`` usually does not. Unpickle
only files you wrote yourself: a pickle can run any code when it is loaded.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path
from typing import Any

import cruiselib
from cruiselib.bots import make_bot

STOP_AFTER = 20


def new_game(name: str) -> tuple[Any, list[Any]]:
    """A seeded deal of ``name`` at two seats (or its fewest) and one seeded bot per seat:
    a search bot with a small budget, then the rule-based bot."""
    counts = type(cruiselib.make(name)).player_counts
    seats = 2 if 2 in counts else min(counts)
    game = cruiselib.make(name, players=seats)
    bots = [make_bot("ismcts", seed=1, iterations=200)] + [make_bot("rules", seed=2 + p) for p in range(1, seats)]
    return game.new_state(seed=11), bots


def play(state: Any, bots: list[Any], until: int | None = None) -> None:
    """Let the bots play, up to ``until`` actions in the game's history (to the end for None)."""
    while not state.is_over and (until is None or len(state.history) < until):
        state.apply(bots[state.current_player].choose(state))


def final_line(state: Any) -> str:
    return f"{state.game.name}: {len(state.history)} moves, scores {state.scores()}, winners {state.winners()}"


def main(argv: list[str]) -> int:
    command, rest = (argv[0], argv[1:]) if argv else ("straight", [])
    if command == "save" and len(rest) in (1, 2):
        state, bots = new_game(rest[1] if len(rest) == 2 else cruiselib.games()[0])
        play(state, bots, until=STOP_AFTER)
        Path(rest[0]).write_bytes(pickle.dumps((state, bots)))  # the bots' generators go with them
        print(f"saved after {len(state.history)} moves to {rest[0]}")
    elif command in ("resume", "fresh") and len(rest) == 1:
        state, bots = pickle.loads(Path(rest[0]).read_bytes())
        if command == "fresh":
            bots = new_game(state.game.name)[1]  # the same seeds, but their sequences start again
        play(state, bots)
        print(final_line(state))
    elif command == "straight" and len(rest) <= 1:
        state, bots = new_game(rest[0] if rest else cruiselib.games()[0])
        play(state, bots)
        print(final_line(state))
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
