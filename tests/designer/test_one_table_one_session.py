"""One table, one session: copies of a table's log are one session; a fork of it (played on
from a point) is a session of its own."""
from __future__ import annotations

import shutil
from pathlib import Path

from table.bench.legal_corpus import Plan, play
from table.core import actions as act
from table.core.replica import Replica
from table.core.seek import fork_table
from table.games import find_module
from table.report.build import build_report


def test_copies_are_one_session_and_a_fork_is_another(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    truth = play(find_module("gauntlet"), 2, 4, folder / "table.sandlog", Plan())
    shutil.copy(truth.path, folder / "copy-on-a-usb-stick.sandlog")
    report = build_report([folder], tmp_path / "r.html", show_progress=False, jobs=1)
    [session] = report.sessions
    assert len(session.logs) == 2 and not session.disagree
    assert "2 log(s) -&gt; 1 session(s)" in report.html
    # a fork from op 120, played on by one more move: a session of its own
    fork = fork_table(Replica.from_log(truth.path), 120, folder / "fork.sandlog")
    seat = fork.state.turn.get("seat") or 1
    act.mark(fork, "turn", for_seat=3 - seat, seat=seat)
    fork.close()
    report = build_report([folder], tmp_path / "r.html", show_progress=False, jobs=1)
    assert sorted(len(s.logs) for s in report.sessions) == [1, 2]
    assert "3 log(s) -&gt; 2 session(s)" in report.html
