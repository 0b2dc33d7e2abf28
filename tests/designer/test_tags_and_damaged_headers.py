"""What a session is, said after the game (`sandtable log tag`, an op in the log), slices the
report (`report --by group`); and a log whose magic bytes and header are damaged keeps its
table id (read back from the header's copy) and merges with its peer's log into one session."""
from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from table.app.cli import main
from table.bench.legal_corpus import Plan, play
from table.core.replica import Replica
from table.dataset.build import build_dataset
from table.dataset.examples import views
from table.games import find_module


def test_log_tag_then_report_by_group(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    gauntlet = find_module("gauntlet")
    paths = [logs / f"g{seed}.sandlog" for seed in (1, 2, 3)]
    for seed, path in zip((1, 2, 3), paths, strict=True):
        play(gauntlet, 2, seed, path, Plan(), group="Tuesday club")
    assert main(["log", "tag", str(paths[0]), "--group", "Saturday crew", "--event",
                 "Spring con", "--tag", "blind", "--player", "1=Ana"]) == 0
    said = capsys.readouterr().out
    assert "tagged the session: group Saturday crew; event Spring con; seat 1: Ana; +blind" \
        in said
    tags = Replica.from_log(paths[0]).state.tags  # the log is the record
    assert tags["group"] == "Saturday crew" and tags["tags"] == ["blind"]
    out = tmp_path / "r.html"
    assert main(["report", str(logs), "--by", "group", "--out", str(out), "--jobs", "1",
                 "--cache", str(tmp_path / "ds"), "--no-progress", "--csv",
                 str(tmp_path / "csv")]) == 0
    html = unescape(out.read_text(encoding="utf-8"))
    summary = html.split("<h3>By group: 2 slice(s)</h3>", 1)[1].split("</table>", 1)[0]
    rows = dict(re.findall(r"<tr><td[^>]*>([^<]+)</td><td[^>]*>(\d+)</td>", summary))
    assert rows == {"Saturday crew": "1", "Tuesday club": "2"}
    assert "Gauntlet · group Saturday crew</h2>" in html
    assert "Gauntlet · group Tuesday club</h2>" in html
    con = views(tmp_path / "ds")  # the dataset slices too
    assert con.execute("SELECT playtest_group, event, tags FROM sessions WHERE "
                       "playtest_group = 'Saturday crew'").fetchall() == [
        ("Saturday crew", "Spring con", ["blind"])]
    assert con.execute("SELECT player FROM seats JOIN sessions USING (session) WHERE "
                       "playtest_group = 'Saturday crew' AND seat = 1").fetchall() == [("Ana",)]
    capsys.readouterr()
    assert main(["report", str(logs), "--sql", "--by", "group", "--cache",
                 str(tmp_path / "ds"), "--no-progress"]) == 0
    sliced = capsys.readouterr().out  # every headline figure, per slice of the dataset
    saturday = sliced.split("-- group 'Saturday crew'", 1)[1].split("-- group 'Tuesday", 1)[0]
    assert "-- gauntlet | 1\n" in saturday  # one session in that slice
    assert main(["log", "tag", str(paths[1])]) == 1  # nothing to say: a clear refusal
    assert "needs --group" in capsys.readouterr().err


def _two_peers(folder: Path) -> tuple[Path, Path]:
    """Two peers' logs of one table (each holds every op)."""
    folder.mkdir()
    a = Replica("table-7f3a", "peer-a", log_path=folder / "a.sandlog", game="gauntlet")
    b = Replica("table-7f3a", "peer-b", log_path=folder / "b.sandlog", game="gauntlet")
    a.receive(b.issue("seat", {"seat": 2}).to_wire())
    b.receive(a.issue("seat", {"seat": 1}).to_wire())
    for i in range(12):
        who, other, seat = (a, b, 1) if i % 2 else (b, a, 2)
        other.receive(who.issue("note", {"text": f"note {i}"}, seat=seat).to_wire())
    a.close()
    b.close()
    return folder / "a.sandlog", folder / "b.sandlog"


def test_damaged_magic_and_header_keep_the_table_and_merge_with_a_peer(tmp_path: Path) -> None:
    _a, b = _two_peers(tmp_path / "logs")
    data = b.read_bytes()
    b.write_bytes(b"\x00BADMAG\x07" + b"\xff" * 24 + data[32:])  # magic and the header frame
    out = build_dataset([tmp_path / "logs"], tmp_path / "ds", jobs=1)
    assert out.total == 1 and not out.skipped  # one table, one session: nothing lost
    con = views(tmp_path / "ds")
    (session, sources, recorded, notes, recovered, damage) = con.execute(
        "SELECT session, sources, recorded_as, (SELECT count(*) FROM notes), "
        "header_recovered, damage FROM sessions").fetchone()
    assert session == "table-7f3a" and recorded == "merged"
    assert sorted(Path(p).name for p in sources) == ["a.sandlog", "b.sandlog"]
    assert notes == 12
    assert any("header's copy" in line for line in recovered)
    assert any("damaged magic" in line for line in damage)
