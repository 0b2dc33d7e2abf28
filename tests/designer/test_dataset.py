"""`sandtable dataset`: one session per table, incremental by log content, sharded by table id,
damaged and foreign input, the command line and the notebook."""
from __future__ import annotations

import json
import shutil

import pyarrow.parquet as pq
import pytest

from table.app.cli import main
from table.bench.legal_corpus import generate
from table.dataset.build import build_dataset

from .dataset_kit import TABLES, assert_same_dataset, dataset_rows, query

pytestmark = pytest.mark.processes

COUNT, MORE = 60, 5


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("logs")
    generate(folder / "logs", COUNT, seed=3)
    fresh = folder / "fresh"
    outcome = build_dataset([folder / "logs"], fresh, jobs=2)
    assert outcome.logs_read == COUNT and outcome.total == COUNT
    return folder / "logs", fresh


def test_every_table_is_written_and_joins_on_the_session(corpus) -> None:  # type: ignore[no-untyped-def]
    _logs, fresh = corpus
    for table in TABLES:
        assert list((fresh / table).glob("*.parquet")), table
    (sessions,) = query(fresh, "SELECT count(*) FROM sessions")[0]
    assert sessions == COUNT
    orphans = query(fresh, "SELECT count(*) FROM ops WHERE session NOT IN "
                           "(SELECT session FROM sessions)")[0][0]
    assert orphans == 0
    # the module's cards.csv joins the play: every played card has its row, with its columns
    missing = query(fresh, "SELECT count(*) FROM ops o JOIN sessions s USING (session) "
                           "LEFT JOIN cards c ON c.module_hash = s.module_hash AND c.id = o.card "
                           "WHERE o.card IS NOT NULL AND c.id IS NULL")[0][0]
    assert missing == 0
    assert {"cost", "faction", "chosen", "text"} <= {r[0] for r in query(
        fresh, "SELECT column_name FROM (DESCRIBE cards)")}
    seats = query(fresh, "SELECT count(*), count(DISTINCT session) FROM seats")[0]
    assert seats[1] == COUNT and seats[0] >= 2 * COUNT


def test_a_run_writes_its_rows_in_whole_row_groups_not_one_per_chunk(corpus) -> None:  # type: ignore[no-untyped-def]
    _logs, fresh = corpus
    (part,) = (fresh / "ops").glob("part-*.parquet")  # one run, one part per table
    with pq.ParquetFile(part) as ops:
        # 60 sessions reach the writer in 8 chunks; their few thousand ops are one row group
        assert ops.metadata.num_rows > 1000 and ops.metadata.num_row_groups == 1


def test_a_second_run_reads_only_new_logs_and_equals_a_fresh_run(corpus, tmp_path,
                                                                 capsys) -> None:  # type: ignore[no-untyped-def]
    logs, fresh = corpus
    inc, everything = tmp_path / "inc", tmp_path / "logs"
    shutil.copytree(fresh, inc)
    shutil.copytree(logs, everything)
    assert main(["dataset", str(everything), "--out", str(inc), "--quiet"]) == 0
    assert "read 0 log(s)" in capsys.readouterr().out  # nothing new: nothing read
    generate(everything, MORE, seed=4)
    assert main(["dataset", str(everything), "--out", str(inc), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"read {MORE} log(s) ({MORE} new or changed session(s)); {COUNT} session(s) " \
           f"unchanged, 0 dropped" in out, out
    again = tmp_path / "again"
    build_dataset([everything], again, jobs=1)
    assert_same_dataset(inc, again)


def test_a_changed_log_is_read_again_and_a_removed_one_dropped(corpus, tmp_path) -> None:  # type: ignore[no-untyped-def]
    logs, fresh = corpus
    inc, folder = tmp_path / "inc", tmp_path / "logs"
    shutil.copytree(fresh, inc)
    shutil.copytree(logs, folder)
    victims = sorted(folder.glob("*.sandlog"))
    victims[0].write_bytes(victims[0].read_bytes()[:-40])  # a log cut short: changed content
    victims[1].unlink()
    outcome = build_dataset([folder], inc, jobs=1)
    assert (outcome.logs_read, outcome.kept, outcome.dropped) == (1, COUNT - 2, 1)
    fresh_again = tmp_path / "fresh"
    build_dataset([folder], fresh_again, jobs=1)
    assert_same_dataset(inc, fresh_again)


def test_shards_in_one_folder_equal_one_unsharded_run(corpus, tmp_path) -> None:  # type: ignore[no-untyped-def]
    logs, fresh = corpus
    parts = tmp_path / "parts"
    counts = []
    for i in (1, 2, 3):
        assert main(["dataset", str(logs), "--out", str(parts), "--shard", f"{i}/3",
                     "--quiet", "--jobs", "1"]) == 0
        counts.append(len(dataset_rows(parts)["sessions"]))
    assert counts[0] < counts[1] < counts[2] == COUNT  # each shard added its own slice
    assert_same_dataset(parts, fresh)
    # and shards written on three "machines", then copied together, are the same dataset
    copied = tmp_path / "copied"
    for i in (1, 2, 3):
        machine = tmp_path / f"machine{i}"
        build_dataset([logs], machine, shard=(i, 3), jobs=1)
        shutil.copytree(machine, copied, dirs_exist_ok=True)
    assert_same_dataset(copied, fresh)


def test_rows_made_another_way_or_by_other_code_are_read_again(corpus, tmp_path,
                                                              monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A session's rows are kept only when the same logs were read by the same code the same
    way: a run without the assist over a dataset with flags reads every log again (and leaves
    no flag behind), and so does a run after the code that makes rows has changed (a new assist
    rule would otherwise never reach the sessions already read)."""
    import table.dataset.reader as reader

    logs, fresh = corpus
    out = tmp_path / "out"
    shutil.copytree(fresh, out)
    assert query(out, "SELECT count(*) FROM flags")[0][0] > 0
    bare = build_dataset([logs], out, jobs=1, assist=False)
    assert bare.logs_read == COUNT and bare.total == COUNT
    assert query(out, "SELECT count(*) FROM flags")[0][0] == 0
    assert build_dataset([logs], out, jobs=1, assist=False).logs_read == 0
    monkeypatch.setattr(reader, "code_stamp", lambda: "an updated reader")
    again = build_dataset([logs], out, jobs=1, assist=True)
    assert again.logs_read == COUNT and again.total == COUNT
    monkeypatch.undo()
    assert build_dataset([logs], out, jobs=1).logs_read == COUNT  # back to this code's rows
    assert_same_dataset(out, fresh)


def test_three_shard_processes_at_once_into_one_folder(corpus, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    logs, fresh = corpus
    parts = tmp_path / "parts"
    procs = [subprocess.Popen([sys.executable, "-m", "table.app.cli", "dataset", str(logs),
                               "--out", str(parts), "--shard", f"{i}/3", "--jobs", "1",
                               "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for i in (1, 2, 3)]
    for proc in procs:
        _out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
    assert_same_dataset(parts, fresh)
    assert not [p for p in parts.rglob("*") if p.name.endswith(".tmp")]


def test_a_damaged_log_is_read_as_far_as_it_goes_and_a_foreign_file_is_named(
        corpus, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    logs, _fresh = corpus
    folder = tmp_path / "logs"
    shutil.copytree(logs, folder)
    victim = sorted(folder.glob("*.sandlog"))[2]
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one flipped byte in the middle: one record lost
    victim.write_bytes(bytes(data))
    (folder / "stray.sandlog").write_bytes(b"PK\x03\x04 not a log at all")
    notes = tmp_path / "notes.txt"
    notes.write_text("a designer's notes, not a log\n")
    out = tmp_path / "ds"
    assert main(["dataset", str(folder), str(notes), "--out", str(out), "--quiet"]) == 0
    captured = capsys.readouterr()
    skipped = [line for line in captured.err.splitlines() if line.startswith("skipped ")]
    assert len(skipped) == 2
    assert any(str(folder / "stray.sandlog") in line and "not a Sandtable log" in line
               for line in skipped)
    assert any(str(notes) in line for line in skipped)
    assert "damaged session" in captured.err
    assert f"{COUNT} session(s)" in captured.out  # nothing else lost
    (row,) = query(out, f"SELECT damaged, damage, ops FROM sessions "
                        f"WHERE list_contains(sources, '{victim}')")
    assert row[0] is True and row[1] and "checksum mismatch" in row[1][0]
    assert row[2] > 50  # read as far as it goes: the ops after the damage are there too
    (clean,) = query(out, "SELECT count(*) FROM sessions WHERE NOT damaged")[0]
    assert clean == COUNT - 1


def test_several_peers_logs_of_one_table_are_one_session(corpus, tmp_path) -> None:  # type: ignore[no-untyped-def]
    logs, fresh = corpus
    folder = tmp_path / "logs"
    shutil.copytree(logs, folder)
    first = sorted(folder.glob("*.sandlog"))[0]
    shutil.copy(first, folder / "copy-from-another-peer.sandlog")  # the same table twice
    out = tmp_path / "ds"
    outcome = build_dataset([folder], out, jobs=1)
    assert outcome.total == COUNT
    (row,) = query(out, f"SELECT recorded_as, len(sources) FROM sessions "
                        f"WHERE list_contains(sources, '{first}')")
    assert row == ("merged", 2)
    # the merged session holds the same ops as the single log did
    ops = "SELECT count(*) FROM ops o JOIN sessions s USING (session) WHERE " \
          "list_contains(s.sources, '{}')"
    assert query(out, ops.format(first)) == query(fresh, ops.format(logs / first.name))


def test_the_notebook_runs_its_queries(corpus, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    _logs, fresh = corpus
    folder = tmp_path / "ds"
    shutil.copytree(fresh, folder)
    assert main(["dataset", "--out", str(folder), "--notebook"]) == 0
    book = json.loads((folder / "explore.ipynb").read_text())
    assert book["nbformat"] == 4
    code = ["".join(c["source"]) for c in book["cells"] if c["cell_type"] == "code"]
    assert len(code) >= 12 and any("plot" in c for c in code)
    monkeypatch.chdir(folder)  # the notebook reads the tables relative to itself
    scope: dict[str, object] = {}
    for cell in code:
        if "plt" in cell:
            compile(cell, "chart", "exec")  # charts need matplotlib: compiled, not run
            continue
        result = eval(cell, scope) if cell.startswith("duckdb.sql") else exec(cell, scope)
        if result is not None:
            assert result.fetchall() is not None  # type: ignore[attr-defined]


def test_bad_shard_and_no_input_are_refused(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["dataset", str(tmp_path), "--out", str(tmp_path / "o"), "--shard", "4/3"]) == 2
    assert "--shard '4/3'" in capsys.readouterr().err
    assert main(["dataset", "--out", str(tmp_path / "o")]) == 2


def test_a_mistyped_input_leaves_the_dataset_as_it_is(corpus, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """Sessions no longer in the inputs leave the dataset; an input that holds no log at all (a
    typo, an empty folder) would take every session with it: refused, nothing written."""
    logs, _fresh = corpus
    out = tmp_path / "ds"
    assert main(["dataset", str(logs), "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    empty = tmp_path / "empty"
    empty.mkdir()
    for inputs in ([str(logs) + "-typo"], [str(logs), str(empty)]):
        assert main(["dataset", *inputs, "--out", str(out), "--quiet"]) == 1
        err = capsys.readouterr().err
        assert "Traceback" not in err and "is left as it is" in err
        assert query(out, "SELECT count(*) FROM sessions")[0][0] == COUNT
