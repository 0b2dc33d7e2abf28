"""`sandtable dataset --notebook`: a starter Jupyter notebook inside the dataset's folder, with
the example queries (DuckDB) and two charts, reading the tables relative to itself."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .examples import DUCKDB_PRELUDE, EXAMPLES

NAME = "explore.ipynb"

_CHARTS = [
    ("Win rate by deck group", """import matplotlib.pyplot as plt

rates = duckdb.sql('''
SELECT s.game || ' · ' || st."group" AS label, avg(st.won::INT) AS win_rate
FROM seats st JOIN sessions s USING (session)
WHERE len(s.winners) > 0 AND st."group" IS NOT NULL
GROUP BY label ORDER BY label''').df()
rates.plot.barh(x="label", y="win_rate", legend=False, title="Win rate by deck group")
plt.show()"""),
    ("Turns per session, by game", """turns = duckdb.sql("SELECT game, turns FROM sessions").df()
turns.pivot(columns="game", values="turns").plot.hist(bins=20, alpha=0.6,
                                                      title="Turns per session")
plt.show()"""),
]


def _cell(kind: str, text: str) -> dict[str, Any]:
    cell: dict[str, Any] = {"cell_type": kind, "metadata": {}, "source": text.splitlines(True)}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def notebook() -> dict[str, Any]:
    cells = [_cell("markdown", "# Playtest sessions\n\nThe tables of this Sandtable dataset "
                               "(docs/dataset.md has every column). Each query below is plain "
                               "SQL over DuckDB views; `.df()` turns a result into pandas."),
             _cell("code", DUCKDB_PRELUDE.format(folder="."))]
    for title, sql, _polars in EXAMPLES:
        cells.append(_cell("markdown", f"## {title}"))
        cells.append(_cell("code", f'duckdb.sql("""\n{sql}\n""")'))
    for title, code in _CHARTS:
        cells.append(_cell("markdown", f"## Chart: {title}"))
        cells.append(_cell("code", code))
    return {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3",
                                                        "language": "python", "name": "python3"},
                                         "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def write_notebook(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / NAME
    path.write_text(json.dumps(notebook(), indent=1) + "\n", encoding="utf-8")
    return path
