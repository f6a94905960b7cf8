"""``summary.json`` has a typed shape (cruiselib.arena.schema) and a published JSON Schema
(docs/summary.schema.json): every summary a run writes reads back into it, the published
file is the module's schema, and a summary of another shape is refused with a clear error,
by read_summary and by load_run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import cruiselib
from cruiselib.arena.plan import BotSpec, Study, Tournament
from cruiselib.arena.runner import load_run, run
from cruiselib.arena.schema import StudySummary, TournamentSummary, read_summary, summary_schema
from cruiselib.errors import InvalidStateError
from tests.support import ANY_GAME, player_counts

PUBLISHED = Path(__file__).resolve().parents[2] / "docs" / "summary.schema.json"
SEVERAL_COUNTS = next(game for game in cruiselib.games() if len(player_counts(game)) > 1)


def specs() -> list[Any]:
    counts = list(player_counts(SEVERAL_COUNTS)[:2])
    return [
        Study(game=SEVERAL_COUNTS, players=tuple(counts), games=40, seed=1),  # random, in the core
        Study(game=SEVERAL_COUNTS, players=(counts[0],), bots=(BotSpec("greedy"), BotSpec("random")), games=8),
        Tournament(game=ANY_GAME, players=2, participants=(BotSpec("greedy"), BotSpec("random")), games=8),
        Tournament(
            game=SEVERAL_COUNTS,
            players=max(counts),
            participants=(BotSpec("greedy"), BotSpec("random")),
            games=max(counts) * 2,
        ),
    ]


@pytest.mark.parametrize("spec", specs(), ids=["study", "study-bots", "tournament", "tournament-filler"])
def test_every_summary_reads_back_typed(spec: Any, tmp_path: Path) -> None:
    result = run(spec, tmp_path / "run", backend="serial", progress=False)
    typed = read_summary(tmp_path / "run" / "summary.json")
    assert isinstance(typed, StudySummary if isinstance(spec, Study) else TournamentSummary)
    assert typed.games == result.game_count
    assert read_summary(result.summary) == typed
    assert load_run(tmp_path / "run").summary == json.loads((tmp_path / "run" / "summary.json").read_text())


def test_the_published_schema_is_the_modules() -> None:
    assert json.loads(PUBLISHED.read_text()) == json.loads(json.dumps(summary_schema())), (
        "docs/summary.schema.json is out of date: write json.dumps(summary_schema(), indent=2, sort_keys=True)"
    )


def tampered(summary: dict[str, Any], change: str) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(summary))
    if change == "a share as text":
        copy["cells"][0]["seats"][0]["share"] = "half"
    elif change == "an unknown field":
        copy["cells"][0]["surprise"] = 1
    elif change == "a missing field":
        del copy["headline"]
    elif change == "an unknown kind":
        copy["kind"] = "league"
    return copy


@pytest.mark.parametrize("change", ["a share as text", "an unknown field", "a missing field", "an unknown kind"])
def test_a_summary_of_another_shape_is_refused(change: str, tmp_path: Path) -> None:
    run(specs()[0], tmp_path / "run", backend="serial", progress=False)
    summary_file = tmp_path / "run" / "summary.json"
    summary_file.write_text(json.dumps(tampered(json.loads(summary_file.read_text()), change)))
    with pytest.raises(InvalidStateError, match="not a summary"):
        read_summary(summary_file)
    with pytest.raises(InvalidStateError, match=r"summary\.json is not a summary"):
        load_run(tmp_path / "run")


def test_bytes_that_are_not_json_are_refused() -> None:
    with pytest.raises(InvalidStateError, match="not a summary"):
        read_summary(b"\xff{not json")
