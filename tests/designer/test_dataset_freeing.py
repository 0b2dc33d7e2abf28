"""A session's fold is freed by reference counting as soon as its rows are made: the dataset
runs with the cycle collector paused (build._work), so a reference cycle anywhere in a folded
replica would keep every session's whole fold for a collector pass to find (thousands of
objects a session, traversed again and again)."""
from __future__ import annotations

import gc
from pathlib import Path

from table.bench.legal_corpus import generate
from table.dataset.collected import Rows
from table.dataset.rows import session_rows
from table.dataset.sources import find_logs, group_logs


def test_a_folded_session_leaves_no_cycle_for_the_collector(tmp_path: Path) -> None:
    generate(tmp_path, 4, seed=3)  # one of each game, and a second of the first
    logs, _skipped = find_logs([tmp_path])
    sessions = list(group_logs(logs))
    rows = Rows()
    session_rows(sessions[0], rows)  # a first session: modules and plugins load, caches fill
    gc.collect()
    collecting = gc.isenabled()
    gc.disable()
    try:
        for session in sessions[1:]:
            session_rows(session, rows)  # the rules assist attached, as the dataset runs
            # a fold is thousands of objects: a cycle through the replica leaves them all
            assert gc.collect() < 50, session.paths[0].name
    finally:
        if collecting:
            gc.enable()
    assert len(rows.tables["sessions"]["session"]) == len(sessions)
