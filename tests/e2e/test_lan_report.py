"""One table, one session: the report over a LAN table's peers' logs counts the table once.

Two, three and four `sandtable host/join` peers (separate processes, real sockets on
127.0.0.1, zeroconf on 127.0.0.1 only) play a scripted Mantle of the Keeper table: draws, plays,
rolls, notes, and an end-of-game op. The report over every peer's log, over the merged log
(`sandtable log merge`), and over both together counts one session each time, with the same
figures (ops, turns, result, flags, notes, dice, cards played).
"""
from __future__ import annotations

import json
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from table.report.build import build_report
from table.report.session import Session
from tests.e2e.test_lan_play import LOOPBACK, ROOT, Proc, _same_status

pytestmark = pytest.mark.processes


def _script(path: Path, seat: int, host: bool) -> Path:
    lines: list[dict[str, Any]] = [{"after": 0.3, "op": "note",
                                    "text": f"seat {seat}: setup felt long"}]
    for _ in range(4):
        lines += [
            {"after": 0.05, "op": "draw", "from": f"p{seat}.deck", "to": f"p{seat}.hand"},
            {"op": "move", "card": f"p{seat}.hand:top", "to": f"p{seat}.discard",
             "face_up": True},
            {"op": "roll", "sides": 6},
            {"op": "counter", "id": f"p{seat}.favor", "add": 1},
        ]
    if host:  # the result, once the others are done
        lines.append({"after": 3.0, "op": "end", "winners": [1], "how": "time"})
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


def _play(folder: Path, peers: int) -> list[Path]:
    """A table of `peers` peers, played to its end; returns every peer's log."""
    folder.mkdir()
    name = "report " + secrets.token_hex(3)
    common = ["--headless", "--interfaces", LOOPBACK, "--passphrase", "one table", "--status",
              "--fast"]
    logs = [folder / f"p{seat}.sandlog" for seat in range(1, peers + 1)]
    procs = [Proc("host", "--game", "mantle-of-the-keeper", "--table", name, "--seats",
                  str(peers), "--seat", "1", "--log", str(logs[0]), "--script",
                  str(_script(folder / "s1.jsonl", 1, True)), *common)]
    try:
        procs[0].wait_line("TABLE", 20)
        for seat in range(2, peers + 1):
            procs.append(Proc("join", "--table", name, "--seat", str(seat), "--log",
                              str(logs[seat - 1]), "--script",
                              str(_script(folder / f"s{seat}.jsonl", seat, False)), *common))
        for p in procs:
            p.wait_line("SCRIPT DONE", 60)
        _same_status(procs, 30)
        for p in procs:
            code, _last = p.terminate()
            assert code == 0, p.errors[-10:]
    finally:
        for p in procs:
            p.kill()
    return logs


def _figures(s: Session) -> dict[str, Any]:
    return {"ops": s.ops, "turns": s.turns, "winners": s.winners, "how": s.how,
            "seats": [(x.seat, x.group) for x in s.seats], "flags": dict(s.flags),
            "salvaged_flags": dict(s.salvaged_flags),
            "notes": sorted(n.text for n in s.notes),
            "rolls": sorted(s.rolls, key=repr), "played": s.played,
            "minutes": round(s.minutes, 6), "hidden_unknown": s.hidden_unknown}


@pytest.mark.parametrize("peers", [2, 3, 4])
def test_a_lan_tables_logs_are_one_session(tmp_path: Path, peers: int) -> None:
    logs = _play(tmp_path / "table", peers)
    merged = tmp_path / "merged" / "table.sandlog"
    merged.parent.mkdir()
    done = subprocess.run([sys.executable, "-m", "table.app.cli", "log", "merge",
                           *map(str, logs), "--out", str(merged)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    figures = []
    for inputs, count in (([tmp_path / "table"], peers), ([merged], 1),
                          ([tmp_path / "table", merged], peers + 1)):
        report = build_report(inputs, tmp_path / "r.html", show_progress=False, jobs=1)
        assert not report.skipped
        assert len(report.sessions) == 1, [s.name for s in report.sessions]
        [session] = report.sessions
        assert len(session.logs) == count and not session.disagree
        assert f"{count} log(s) -&gt; 1 session(s)" in report.html
        figures.append(_figures(session))
    assert figures[0] == figures[1] == figures[2]
    result = figures[0]
    assert result["winners"] == {1} and result["how"] == "time"
    assert len(result["notes"]) == peers and len(result["rolls"]) == 4 * peers
    assert result["hidden_unknown"] == 0  # every peer's secrets: every hidden card known


def test_a_peer_that_left_early_is_merged_and_named(tmp_path: Path) -> None:
    """Logs of one table that disagree (one lacks ops) are one session, not two, and the page
    names the log that lacks them."""
    logs = _play(tmp_path / "table", 2)
    short = tmp_path / "table" / "p2.sandlog"
    data = short.read_bytes()
    short.write_bytes(data[:len(data) * 2 // 3])  # the tail of peer 2's log never written
    report = build_report([tmp_path / "table"], tmp_path / "r.html", show_progress=False,
                          jobs=1)
    [session] = report.sessions
    assert len(session.logs) == 2
    [(name, lacking)] = session.disagree
    assert name == "p2.sandlog" and lacking > 0
    assert "p2.sandlog lacks" in report.html and "the logs disagree" in report.html
    whole = build_report([logs[0]], tmp_path / "p1.html", show_progress=False, jobs=1)
    assert session.ops == whole.sessions[0].ops and session.winners == {1}
