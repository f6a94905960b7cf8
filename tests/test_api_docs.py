"""The API reference (docs/api.md, built by docs/conf.py) covers the public surface of
``Game``, ``State`` and ``Playouts`` and hides the internals."""

from __future__ import annotations

import re
import runpy
from pathlib import Path
from typing import Any

import pytest

import cruiselib

DOCS = Path(__file__).resolve().parent.parent / "docs"
pytestmark = pytest.mark.skipif(
    not (DOCS / "conf.py").is_file(), reason="needs docs/ (not among a wheel's test sources)"
)


@pytest.fixture(scope="module")
def conf() -> dict[str, Any]:
    return runpy.run_path(str(DOCS / "conf.py"))


def _public(cls: type) -> set[str]:
    names = {name for name in dir(cls) if not name.startswith("_")}
    return names | {name for name in getattr(cls, "__annotations__", {}) if not name.startswith("_")}


def _block(api: str, directive: str) -> str:
    """The eval-rst block of api.md that holds ``directive``."""
    found = re.search(r"```\{eval-rst\}\n(?:(?!```).)*?" + re.escape(directive) + r".*?```", api, re.S)
    assert found is not None, f"api.md has no {directive}"
    return found.group(0)


def test_every_public_member_of_game_has_an_entry(conf: dict[str, Any]) -> None:
    block = _block((DOCS / "api.md").read_text(encoding="utf-8"), ".. autoclass:: cruiselib.Game")
    listed = set(re.findall(r"\.\. auto(?:attribute|property|method):: (\w+)", block))
    missing = _public(cruiselib.Game) - conf["INTERNAL_MEMBERS"] - listed
    assert not missing, f"add to docs/api.md's Game entry (or to conf.py's INTERNAL_MEMBERS): {sorted(missing)}"
    assert not listed & conf["INTERNAL_MEMBERS"]


def test_internals_are_hidden_and_the_cores_undocumented_properties_shown(conf: dict[str, Any]) -> None:
    skip = conf["_skip_member"]
    for name in ("c_playouts", "core_rules", "check_action", "schema_migrations"):
        assert skip(None, "class", name, None, False, {}) is True
    for name in ("is_over", "phase_name"):
        assert skip(None, "class", name, None, True, {}) is False
    assert skip(None, "module", "rules", None, False, {}) is None  # only members of classes
    lines: list[str] = []
    conf["_process_docstring"](None, "attribute", "cruiselib.sirens.SirensState.is_over", None, {}, lines)
    assert lines and "ended" in lines[0]


def test_the_state_entry_lists_what_the_core_gives_every_state(conf: dict[str, Any]) -> None:
    members = conf["_core_members"]()
    assert {"current_player", "is_over", "phase_name", "legal_actions", "apply", "scores", "winners"} <= set(members)
    assert not set(members) & conf["INTERNAL_MEMBERS"]
    rst = "\n".join(conf["_core_members_rst"]())
    assert ".. py:property:: is_over\n   :type: bool\n\n   Whether the game has ended" in rst
    assert ".. py:property:: phase_name\n   :type: str" in rst
    assert ".. py:method:: view(player: int, *, recall: bool=False) -> ViewT" in rst
    assert ".. py:method:: game" not in rst and ".. py:property:: game" not in rst  # the mixin's own entry


def test_the_cores_signatures_read_as_python(conf: dict[str, Any]) -> None:
    state = cruiselib.make(cruiselib.games()[0]).new_state(0)
    method = type(state).random_action
    signature, _ = conf["_process_signature"](None, "method", "x", method, {}, "(self, unsigned long long r)", "-> int")
    assert signature == "(r)"
    assert conf["_process_signature"](None, "method", "x", len, {}, "(self, x)", None) is None  # not the core's


def test_game_and_playouts_fields_have_docstrings() -> None:
    pycode = pytest.importorskip("sphinx.pycode")
    game_docs = pycode.ModuleAnalyzer.for_module("cruiselib._game").find_attr_docs()
    for name in ("name", "title", "num_players", "num_actions"):
        assert ("Game", name) in game_docs, name
    playouts_docs = pycode.ModuleAnalyzer.for_module("cruiselib._playouts").find_attr_docs()
    for name in cruiselib.Playouts.__struct_fields__:
        assert ("Playouts", name) in playouts_docs, name
    for name in ("games", "mean_scores", "mean_length", "win_rates", "draw_rate"):
        assert getattr(cruiselib.Playouts, name).__doc__, name
