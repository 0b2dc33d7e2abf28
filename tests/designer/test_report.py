"""`sandtable report` over generated sessions: bad input, drafts, flags, notes; export columns."""
from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from assist.api import Flag, Plugin, RuleInfo
from table.app.cli import main
from table.bench.report import draft_of
from table.bench.simulated_sessions import generate, play_session
from table.core.logfile import LogWriter, make_header
from table.games import find_module
from table.report import aggregate as agg
from table.report.build import Progress, build_report
from table.report.session import read_session


class EveryRoll(Plugin):
    """A test plugin: flags every die roll (rule TEST-ROLL)."""

    game_id = "gauntlet"

    def rules(self) -> list[RuleInfo]:
        return [RuleInfo("TEST-ROLL", "warning", "Dice", "every roll")]

    def check(self, ctx):  # type: ignore[no-untyped-def]
        if ctx.op.kind == "roll":
            return [Flag("TEST-ROLL", "warning", "a die was rolled", "Dice")]
        return []


@pytest.fixture(scope="module")
def logs(tmp_path_factory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("logs")
    gauntlet = find_module("gauntlet")
    generate(gauntlet, 6, folder / "g", seed=3)
    generate(draft_of(gauntlet, tmp_path_factory.mktemp("mods")), 3, folder / "g-draft", seed=40,
             prefix="draft")
    generate(find_module("mantle-of-the-keeper"), 4, folder / "m", seed=7)
    return folder


def test_report_covers_the_rest_and_lists_what_it_skipped(logs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "mixed"
    shutil.copytree(logs / "g", bad / "g")
    good = sorted((bad / "g").glob("*.sandlog"))
    corrupt = bad / "g" / "corrupt.sandlog"
    data = good[0].read_bytes()
    corrupt.write_bytes(data[:8] + b"\xff" * 40 + data[48:])  # the header frame is damaged
    (bad / "notalog.sandlog").write_text("hello")
    truncated = bad / "truncated.sandlog"
    truncated.write_bytes(good[1].read_bytes()[:-7])  # the last op is cut: the rest is read
    unknown = bad / "unknown.sandlog"
    writer = LogWriter(unknown, make_header("t", "p", "no-such-game", "abc"))
    writer.append(["p", 1, 1, "hello", {"name": "x"}, {}, 1.0, None, None])
    writer.close()
    out = tmp_path / "report.html"
    report = build_report([str(bad), str(tmp_path / "missing")], out, show_progress=False)
    skipped = {Path(p).name: why for p, why in report.skipped}
    assert "notalog.sandlog" in skipped and "corrupt.sandlog" not in skipped
    assert "not installed" in skipped["unknown.sandlog"]
    assert "no such file" in skipped["missing"]
    # the copies (a damaged header, a cut tail) are logs of tables already there: one table,
    # one session, and the cut copy is named as lacking what the others hold
    assert len(report.sessions) == len(good)
    by_log = {Path(log).name: s for s in report.sessions for log in s.logs}
    assert len(by_log["corrupt.sandlog"].logs) == 2 and by_log["corrupt.sandlog"].header_recovered
    cut = by_log["truncated.sandlog"]
    assert len(cut.logs) == 2 and ("truncated.sandlog", 1) in cut.disagree
    assert any("truncated" in d for d in cut.damage)
    html = out.read_text()
    assert "input(s) skipped" in html and "unknown.sandlog" in html and "not installed" in html
    # self-contained: charts inline, the one script (sorting the card tables) inline too
    assert "<script src" not in html and "<svg" in html and "http" not in html.split("<svg")[0]


def test_report_groups_drafts_and_counts_notes_flags_and_winners(logs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    report = build_report([str(logs)], tmp_path / "r.html", show_progress=False,
                          plugins={"gauntlet": EveryRoll()})
    sessions = report.sessions
    assert len(sessions) == 13 and not report.skipped
    g = [s for s in sessions if s.game == "gauntlet"]
    assert len(agg.versions(g)) == 2  # the installed module and its draft
    assert all(s.winner is not None for s in sessions)
    rolls = sum(len(s.rolls) for s in g)
    assert sum(s.flags["TEST-ROLL"] for s in g) >= 1
    assert sum(s.flags["TEST-ROLL"] for s in g) <= rolls
    html = report.html
    assert "Drafts compared" in html and "-draft" in html
    assert "TEST-ROLL" in html and "Win rate by faction" in html and "Win rate by leader" in html
    assert "Win rate by chosen" in html  # Mantle's decks name their Chosen
    assert "Designer notes" in html
    for s in sessions:
        assert s.turns > 0 and s.minutes > 0 and s.actions_per_turn > 0
        assert all(seat.order for seat in s.seats)


def test_notes_are_counted(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "n.sandlog"
    r = play_session(find_module("gauntlet"), 2, 2, path, turns=3, note_rate=0.0)
    notes_before = sum(1 for x in r.records() if x.op.kind == "note")
    from table.core.replica import Replica

    again = Replica.from_log(path, reopen=True)
    again.issue("note", {"text": "rule unclear here"}, seat=1)
    again.close()
    session = read_session(path)
    assert len(session.notes) == notes_before + 1
    assert session.notes[-1].text == "rule unclear here"


def test_one_peer_log_says_what_it_could_not_know(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from table.core.replica import Replica

    path = tmp_path / "hot.sandlog"
    r = play_session(find_module("gauntlet"), 2, 4, path, turns=4)
    # a LAN peer's log: another peer that played seat 2 only, with no secrets of seat 1
    peer = Replica(r.table_id, "peer-two", log_path=tmp_path / "peer.sandlog", game=r.game,
                   game_hash=r.game_hash, header_extra=r.header_extra)
    peer.receive_many([x.op.to_wire() for x in r.records()])
    peer.issue("seat", {"seat": 2, "name": "Player B", "force": True})
    peer.close()
    session = read_session(tmp_path / "peer.sandlog")
    assert session.kind == "one peer"
    assert session.hidden_unknown > 0
    assert any("never revealed" in m for m in session.incomplete)


def test_export_has_designer_columns(logs, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    log = sorted((logs / "g").glob("*.sandlog"))[0]
    out = tmp_path / "ops.csv"
    assert main(["log", "export", str(log), "--format", "csv", "--out", str(out)]) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    for column in ("turn", "phase", "seat", "active_seat", "cards", "flags", "text", "void"):
        assert column in rows[0]
    played = [r for r in rows if r["kind"] == "move" and "face up" in r["text"]]
    assert played and all(r["cards"] for r in played)  # card names where known
    assert any(r["phase"] for r in rows) and max(int(r["turn"]) for r in rows) > 1
    assert main(["log", "export", str(log), "--out", str(tmp_path / "ops.jsonl")]) == 0
    first = json.loads((tmp_path / "ops.jsonl").read_text().splitlines()[-1])
    assert isinstance(first["cards"], list) and isinstance(first["flags"], list)


def test_report_command_and_progress(logs, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "cli.html"
    assert main(["report", str(logs / "m"), "--out", str(out), "--no-progress"]) == 0
    assert "4 session(s)" in capsys.readouterr().out and out.exists()
    stream = io.StringIO()
    bar = Progress(3, "reading logs", stream, force=True)
    for _ in range(3):
        bar.step("x")
    bar.close()
    assert "3/3" in stream.getvalue()


def test_chi_square_survival() -> None:
    assert agg.chi2_sf(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    assert agg.chi2_sf(11.07, 5) == pytest.approx(0.05, abs=1e-3)
    assert agg.chi2_sf(1.0, 5) == pytest.approx(0.9626, abs=1e-3)
    fair = agg.Dice(6, [100] * 6)
    assert fair.p_value == pytest.approx(1.0)
    loaded = agg.Dice(6, [50, 50, 50, 50, 50, 250])
    assert loaded.p_value < 0.001
