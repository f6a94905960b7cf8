"""Toy Duel: a small game defined outside cruiselib, registered with ``cruiselib.register``.

It shows and tests the external route of docs/contract.md: a pure-Python core on the
core contract (``core.py``), the game and state classes (``game.py``), the schema, the
declarations (``integrations.py``), a rule bot and a drawer for the web page.

Rules:

- T1: 12 cards of values 1 to 12 are shuffled; each of the 2 seats gets 4 face down, the
  other 4 are a face-down stock. The deal draws the seat that leads first.
- T2: a trick: the leader plays a card from its hand, then the other seat follows, with a
  higher card if it holds one (else any card).
- T3: the higher card takes the trick, and its seat scores the values of both cards.
- T4: the trick's winner draws from the stock first, then the other seat (while it has
  cards); the winner leads the next trick.
- T5: after six tricks the hands are empty and the game ends: the most points wins;
  equal points are a draw.
"""

from tests.toy_game.game import ToyDuelGame, ToyDuelState
from tests.toy_game.schema import Play, ToyDuelStateData, ToyDuelView

__all__ = ["Play", "ToyDuelGame", "ToyDuelState", "ToyDuelStateData", "ToyDuelView"]
