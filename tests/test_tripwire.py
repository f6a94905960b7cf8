"""A tripwire for every registered game: each declares and ships everything the
integrations read (docs/contract.md, "Adding a game"). A game that misses one fails here,
with a message naming the game and what is missing, before an integration trips over it.

``check_declarations`` holds for any game, one registered from outside cruiselib too
(tests/test_register.py runs it on the test game); ``check_repository_files`` asks for
the files a built-in game adds to the repository.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn

import pytest

import cruiselib
from cruiselib._registry import game_class
from cruiselib.errors import InvalidOptionError
from cruiselib.integration import OpenSpielSpec, SearchDefaults, WebBoard, resolve_rule_bot

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
TESTS = ROOT / "tests"


def _fail(name: str, what: str) -> NoReturn:
    pytest.fail(f"game {name!r}: {what}", pytrace=False)


def _makes(name: str, options: Any, what: str) -> Any:
    try:
        return cruiselib.make(name, **options)
    except Exception as exc:  # any failure is the finding
        _fail(name, f"{what}: make({name!r}, **{options!r}) raises {type(exc).__name__}: {exc}")


def check_player_counts(name: str) -> None:
    """Non-empty, ascending, each accepted by make; one below the lowest and one above the
    highest refused with InvalidOptionError."""
    counts = game_class(name).player_counts
    if not counts or list(counts) != sorted(set(counts)) or not all(type(n) is int for n in counts):
        _fail(name, f"player_counts must be a non-empty ascending tuple of distinct ints, not {counts!r}")
    for n in counts:
        game = _makes(name, {"players": n}, f"declared player count {n}")
        if game.num_players != n:
            _fail(name, f"make(players={n}) gives a game of {game.num_players} seats")
    for n in (counts[0] - 1, counts[-1] + 1):
        try:
            cruiselib.make(name, players=n)
        except InvalidOptionError:
            continue
        _fail(name, f"make(players={n}) is accepted, but player_counts is {counts!r}")


def check_example_configurations(name: str) -> None:
    """Each example configuration makes a game that deals."""
    examples = game_class(name).example_configurations
    if not examples:
        _fail(name, "example_configurations is empty: the cross-game suites would play nothing")
    for options in examples:
        _makes(name, options, "example configuration").new_state(seed=1)


def check_rule_bot(name: str) -> None:
    """The rule bot imports, and its choose and analyse answer a new deal."""
    target = game_class(name).rule_bot
    try:
        bot_class = resolve_rule_bot(game_class(name))
    except cruiselib.InvalidOptionError as exc:
        _fail(name, str(exc))
    state = cruiselib.make(name).new_state(seed=2)
    bot = bot_class(seed=0)
    action = bot.choose(state)
    if action not in state.legal_actions():
        _fail(name, f"rule_bot {target!r} chose {action!r}, not a legal action")
    ranked = bot.analyse(state)
    if not ranked or {c.action for c in ranked} - set(state.legal_actions()):
        _fail(name, f"rule_bot {target!r} analysed {ranked!r}: not a non-empty list of legal candidates")


def check_search(name: str) -> None:
    if not isinstance(game_class(name).search, SearchDefaults):
        _fail(name, "search must be a cruiselib.integration.SearchDefaults")


def check_openspiel(name: str) -> None:
    """The spec's parameters name players and seed, and its options make the game."""
    spec = game_class(name).openspiel
    if not isinstance(spec, OpenSpielSpec):
        _fail(name, f"openspiel must be a cruiselib.integration.OpenSpielSpec, not {spec!r}")
    missing = {"players", "seed"} - set(spec.parameters)
    if missing:
        _fail(name, f"the OpenSpiel parameters {dict(spec.parameters)!r} lack {sorted(missing)}")
    options = spec.options({k: v for k, v in spec.parameters.items() if k != "seed"})
    game = _makes(name, options, "the OpenSpiel spec's options of its default parameters")
    if not spec.max_length(game) > 0:
        _fail(name, "the OpenSpiel spec's max_length of its default game is not positive")


def check_web(name: str) -> None:
    """The web board's drawer script exists in its package."""
    web = game_class(name).web
    if not isinstance(web, WebBoard):
        _fail(name, f"web must be a cruiselib.integration.WebBoard, not {web!r}")
    package, file = web.drawer
    try:
        found = resources.files(package).joinpath(file).is_file()
    except ModuleNotFoundError:
        found = False
    if not found:
        _fail(name, f"the web drawer {file!r} is not a file of the package {package!r}")
    web.catalog(cruiselib.make(name))  # the catalog of the default game answers


def check_declarations(name: str) -> None:
    """Everything an integration reads from the game class, checked by using it."""
    check_player_counts(name)
    check_example_configurations(name)
    check_rule_bot(name)
    check_search(name)
    check_openspiel(name)
    check_web(name)
    if not isinstance(game_class(name).annotated_moves, bool):
        _fail(name, "annotated_moves must be a bool")


def check_repository_files(name: str) -> None:
    """The files a built-in game adds: schema, docs page listed in the index, tests folder."""
    if not (DOCS / "schemas" / f"{name}.json").is_file():
        _fail(name, f"no schema docs/schemas/{name}.json (CRUISELIB_REGENERATE_SCHEMAS=1 pytest tests/test_schemas.py)")
    if not (DOCS / f"{name}.md").is_file():
        _fail(name, f"no docs page docs/{name}.md")
    index = (DOCS / "index.md").read_text()
    if not re.search(rf"^{re.escape(name)}$", index, re.MULTILINE) or f"<{name}>" not in index:
        _fail(name, f"docs/index.md does not list docs/{name}.md (its games table and toctree)")
    folder = TESTS / name
    if not folder.is_dir() or not any(folder.glob("test_*.py")):
        _fail(name, f"no tests folder tests/{name}/ with test_*.py files")


@pytest.mark.parametrize("name", cruiselib.games())
def test_declarations(name: str) -> None:
    check_declarations(name)


@pytest.mark.parametrize("name", cruiselib.games())
def test_repository_files(name: str) -> None:
    check_repository_files(name)


def test_the_tripwire_names_the_game_and_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose drawer is gone fails the tripwire with a message naming both."""
    name = cruiselib.games()[0]
    cls = game_class(name)
    web = cls.web
    assert web is not None
    monkeypatch.setattr(cls, "web", WebBoard(drawer=(web.drawer[0], "gone.js"), catalog=web.catalog))
    with pytest.raises(pytest.fail.Exception, match=rf"game '{name}': the web drawer 'gone.js'"):
        check_web(name)
    monkeypatch.setattr(cls, "player_counts", (*cls.player_counts, cls.player_counts[-1] + 5))
    with pytest.raises(pytest.fail.Exception, match=rf"game '{name}': declared player count"):
        check_player_counts(name)
