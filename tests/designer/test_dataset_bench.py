"""`sandtable bench dataset` runs end to end on a tiny corpus: its last line is JSON with the
floors (decode, and the fold by the core alone), the fresh dataset against the fold floor
(`fresh_vs_fold`), the incremental run and the memory of both sizes (figures, not asserts)."""
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
    assert set(result["ok"]) == {"fold", "incremental", "memory"}
    # the last key: the fresh dataset against the fold floor (a tiny corpus: a figure, no target)
    assert result["fold_s"] > 0 and result["fresh_vs_fold"] > 0
    assert list(result)[-1] == "fresh_vs_fold"
    assert any(line.startswith("decode floor:") for line in lines)
    assert any(line.startswith("fold floor:") for line in lines)


def test_the_report_benchmark_prints_its_floor_and_ratio(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from table.bench.report import main as bench_report

    assert bench_report(["--count", "6", "--jobs", "1", "--keep", str(tmp_path / "logs")]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    result = json.loads(lines[-1])
    assert result["bench"] == "report" and result["sessions"] == 6
    assert result["floor_s"] > 0 and result["report_floor_ratio"] > 0
    assert result["warm_logs_read"] == 0  # the second report found its dataset up to date
    assert set(result["ok"]) == {"seconds", "floor"}
    assert any(line.startswith("decode floor:") for line in lines)
