"""games.parquet as the runner writes it: chunk by chunk on a thread, its text columns given
to Parquet as dictionaries, read back as the rows of the run by any Parquet reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from cruiselib.arena import results, runner
from cruiselib.arena.plan import BotSpec, Study, Tournament, expand
from cruiselib.arena.play import play_job
from cruiselib.arena.runner import run
from tests.support import ANY_GAME

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def test_the_file_reads_back_as_the_rows_with_text_as_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Small chunks: several row groups, each with its own dictionary of seat labels.
    monkeypatch.setattr(runner, "CHUNK_ROWS", 5)
    spec = Tournament(
        game=ANY_GAME,
        players=2,
        participants=(BotSpec("random"), BotSpec("greedy"), BotSpec("random", label="other")),
        games=4,
        shard=2,
        seed=2,
        name="file",
    )
    result = run(spec, tmp_path / "out", backend="serial", progress=False)
    path = tmp_path / "out" / "games.parquet"
    metadata = pq.ParquetFile(path).metadata
    assert metadata.num_row_groups > 1
    chunks = {chunk.path_in_schema: chunk for chunk in map(metadata.row_group(0).column, range(metadata.num_columns))}
    assert set(chunks) == set(results._COLUMN_PATHS)  # every column has its settings
    assert {path for path, chunk in chunks.items() if chunk.compression != "SNAPPY"} == {"deal_seed"}
    assert {path for path, chunk in chunks.items() if chunk.is_stats_set} == set(
        results.PARQUET_OPTIONS["write_statistics"]
    )
    plain = pq.read_table(path)  # no schema given: what any reader gets
    for name in ("study", "game", "options_json"):
        assert plain.schema.field(name).type == pa.string()
    assert plain.schema.field("seats").type.value_type == pa.string()
    assert plain.to_pydict() == result.rows.to_pydict()
    assert results.read_games(path).equals(result.rows)


def test_the_table_is_given_before_the_last_rows_are_written(tmp_path: Path) -> None:
    jobs = expand(Study(game=ANY_GAME, games=6, shard=2, seed=1, players=(2,)))
    rows = runner._Rows(jobs, tmp_path / "games")
    rows.add({job.index: play_job(job) for job in jobs})
    table = rows.finish()
    assert table.num_rows == 6
    rows.close()
    assert pq.read_table(tmp_path / "games.parquet").to_pydict() == table.to_pydict()
    assert not list(tmp_path.glob("*.partial"))


def test_a_run_of_no_rows_writes_an_empty_file(tmp_path: Path) -> None:
    writer = results.TableWriter(tmp_path / "games")
    assert writer.finish().num_rows == 0
    assert pq.read_table(tmp_path / "games.parquet").num_rows == 0
