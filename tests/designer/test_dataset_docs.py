"""docs/dataset.md stays true: its ten example queries are the ones in table.dataset.examples,
each runs on DuckDB and on Polars over a generated dataset, and the two engines agree; its
schema tables name every column the dataset writes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from table.bench.legal_corpus import generate
from table.dataset.build import build_dataset
from table.dataset.examples import DUCKDB_PRELUDE, EXAMPLES, POLARS_PRELUDE, views
from table.dataset.schema import SESSION_TABLES

pytestmark = pytest.mark.processes

DOC = Path(__file__).resolve().parents[2] / "docs" / "dataset.md"


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("docs")
    truths = generate(folder / "logs", 30, seed=7)
    damaged = truths[0].path  # one damaged log, for the query of sessions to look at
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    build_dataset([folder / "logs"], folder / "ds", jobs=2)
    return folder / "ds"


def _normal(rows: list[tuple]) -> list[tuple]:  # type: ignore[type-arg]
    def cell(v):  # type: ignore[no-untyped-def]
        return round(float(v), 4) if isinstance(v, float) else v
    return sorted((tuple(cell(v) for v in row) for row in rows), key=repr)


def test_the_doc_shows_every_example_and_prelude() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert len(EXAMPLES) == 10
    for title, sql, polars in EXAMPLES:
        assert title in text and sql in text and polars in text, title
    assert DUCKDB_PRELUDE.format(folder="DIR") in text
    assert POLARS_PRELUDE.format(folder="DIR") in text


def test_the_doc_describes_every_column() -> None:
    text = DOC.read_text(encoding="utf-8")
    for table, schema in SESSION_TABLES.items():
        section = text.split(f"### {table}\n", 1)[1].split("\n### ", 1)[0]
        described = set(re.findall(r"^\| (\w+) \|", section, re.M)) - {"column"}
        assert described == set(schema.names), (table, described ^ set(schema.names))


@pytest.mark.parametrize("index", range(10))
def test_each_example_gives_the_same_rows_on_duckdb_and_polars(dataset, index) -> None:  # type: ignore[no-untyped-def]
    import polars as pl

    title, sql, polars = EXAMPLES[index]
    con = views(dataset)
    rows = con.execute(sql).fetchall()
    assert rows, title  # every example finds something in a corpus of the three games
    scope: dict[str, object] = {}
    exec(POLARS_PRELUDE.format(folder=dataset.as_posix()), scope)
    frame = eval(polars, scope)
    assert isinstance(frame, pl.DataFrame)
    assert _normal(frame.rows()) == _normal(rows), title
    # the DuckDB prelude of the doc itself works too
    import duckdb

    scope = {}
    exec(DUCKDB_PRELUDE.format(folder=dataset.as_posix()), scope)
    assert _normal(duckdb.sql(sql).fetchall()) == _normal(rows)
