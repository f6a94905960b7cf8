"""The optional extras: each spelled one way, which needs no normalising (pip before 23.3
compares extras as written, later ones normalised: ``open_spiel`` would match neither way
everywhere), and every extra the docs, the README, CI and error messages name exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"

pytestmark = pytest.mark.skipif(not PYPROJECT.exists(), reason="needs the source tree's pyproject.toml")

# `cruiselib[a,b]`, `".[a,b]"`, `$WHEEL[a,b]` and `'cruiselib[a]'` as the texts write them.
_INSTALL = re.compile(r"(?:cruiselib|\.|\$WHEEL|\.whl)\[([A-Za-z0-9_.,\- ]+)\]")


def _extras() -> dict[str, list[str]]:
    tomllib = pytest.importorskip("tomllib", reason="reads pyproject.toml with tomllib (Python 3.11+)")
    extras: dict[str, list[str]] = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]
    return extras


def test_every_extra_is_spelled_in_its_normal_form() -> None:
    for name in _extras():
        normal = re.sub(r"[-_.]+", "-", name).lower()  # PEP 685
        assert name == normal and "-" not in name, f"extra {name!r}: spell it {normal.replace('-', '')!r}"


def test_every_extra_named_in_the_texts_exists() -> None:
    extras = set(_extras())
    texts = [ROOT / "README.md", ROOT / ".ci" / "run", ROOT / "pyproject.toml"]
    texts += sorted((ROOT / "docs").glob("*.md")) + sorted((ROOT / "src" / "cruiselib").rglob("*.py"))
    texts += sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "examples").glob("*.py"))
    named = 0
    for path in texts:
        if path == Path(__file__):
            continue
        for match in _INSTALL.finditer(path.read_text(encoding="utf-8")):
            for extra in (part.strip() for part in match.group(1).split(",")):
                named += 1
                assert extra in extras, f"{path.relative_to(ROOT)} names extra {extra!r}; the extras: {sorted(extras)}"
    assert named > 10  # the pattern finds the install commands
