"""`sandtable bench dataset` runs end to end on a tiny corpus: its last line is JSON with the
floor, the fresh and incremental runs and the memory of both sizes (figures, not asserts)."""
from __future__ import annotations

import json

import pytest

from table.app.cli import main

pytestmark = pytest.mark.processes


def test_the_dataset_benchmark_prints_its_figures(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["bench", "dataset", "--count", "4", "--more", "2", "--jobs", "2",
                 "--keep", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    result = json.loads(lines[-1])
    assert result["bench"] == "dataset" and result["sessions"] == 4
    assert result["added_logs_read"] == 2  # the incremental run read only the new logs
    assert result["floor_s"] > 0 and result["fresh_s"] > 0 and result["rss3x_mib"] > 0
    assert set(result["ok"]) == {"floor", "incremental", "memory"}
    assert any(line.startswith("decode floor:") for line in lines)
