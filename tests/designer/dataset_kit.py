"""Helpers for the dataset tests: every table of a dataset folder as comparable rows."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

TABLES = ("sessions", "seats", "ops", "flags", "cards", "draws", "notes", "hands")


def rows(folder: Path, table: str) -> list[str]:
    """A table's rows, each as canonical JSON, sorted: equal lists, equal tables."""
    out: list[str] = []
    for part in sorted((folder / table).glob("*.parquet")):
        for row in pq.read_table(part).to_pylist():
            out.append(json.dumps(row, sort_keys=True, default=str))
    return sorted(out)


def dataset_rows(folder: Path) -> dict[str, list[str]]:
    return {table: rows(folder, table) for table in TABLES}


def assert_same_dataset(a: Path, b: Path) -> None:
    left, right = dataset_rows(a), dataset_rows(b)
    for table in TABLES:
        assert left[table] == right[table], (table, len(left[table]), len(right[table]))
    assert left["sessions"] and left["ops"]


def query(folder: Path, sql: str) -> list[tuple[Any, ...]]:
    from table.dataset.examples import views

    return views(folder).execute(sql).fetchall()
