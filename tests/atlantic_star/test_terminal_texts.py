"""The terminal with Atlantic Star's own move texts typed at its prompt."""

from __future__ import annotations

import pytest

from tests.test_terminal import Start, terminals  # noqa: F401 (the fixture)

pytestmark = pytest.mark.surface


def test_the_prompt_stands_on_its_own_line(terminals: Start) -> None:  # noqa: F811 (the fixture)
    """After a move played by typing its text, the bots' moves start on a line of their own."""
    t = terminals("atlantic_star", "--players", "2", "--seed", "3", "--opponent", "random")
    t.prompt()
    t.type("charter spica")
    after = t.prompt()
    before_bot = after[: after.index("seat 1 (random):")]
    assert before_bot.endswith("\n  ") and "seat 0 (you): charter" in after
    assert after.startswith("charter spica\n")  # the terminal's echo ends the prompt's line
    t.type("q")
    assert t.finish() == 0
