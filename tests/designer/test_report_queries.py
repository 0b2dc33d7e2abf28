"""The report is built from the dataset: every headline figure on its page equals the same
figure from this test's own DuckDB query over the dataset the report kept, and equals the
truth the corpus generator planted where it knows it; a second report over the same logs
reads nothing new; `--sql` prints the queries the report runs, with their answers.
"""
from __future__ import annotations

import re
from collections import Counter
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from table.bench.legal_corpus import GAMES, Plan, Truth, generate
from table.dataset.examples import views
from table.report.build import Report, build_report
from table.report.queries import FIGURES, LOADS

pytestmark = pytest.mark.processes  # the report's pool (jobs=2)

COUNT = 60  # 20 sessions of each built-in game


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Truth], Report, Path]:
    folder = tmp_path_factory.mktemp("queries")
    truths = generate(folder / "logs", COUNT, seed=9, plan=Plan())
    report = build_report([folder / "logs"], folder / "r.html", jobs=2, show_progress=False,
                          cache=folder / "ds")
    return truths, report, folder / "ds"


def _cells(row: str) -> list[str]:
    return [unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]


def _overview(html: str) -> dict[str, list[str]]:
    """The Overview table's rows by game name."""
    table = html.split("<h3>Overview</h3>", 1)[1].split("</table>", 1)[0]
    return {cells[0]: cells[1:] for cells in map(_cells, re.findall(r"<tr>(.*?)</tr>", table))
            if cells}


def _kpis(html: str, game: str) -> dict[str, str]:
    """A game section's figure cards: label -> figure."""
    section = html.split(f'<h2 id="{game}">', 1)[1].split("<h2 ", 1)[0]
    return {unescape(label): value for value, label in re.findall(
        r'<div class="kpi"><b>([^<]*)</b><span>([^<]*)</span></div>', section)}


def _one(con: Any, sql: str, game: str) -> Any:
    return con.execute(sql, [game]).fetchone()[0]


_MINE = {  # this test's own queries, one value per game
    "sessions": "SELECT count(*) FROM sessions WHERE game = ?",
    "drafts": "SELECT count(DISTINCT module_hash) FROM sessions WHERE game = ?",
    "turns": "SELECT avg(turns) FROM sessions WHERE game = ?",
    "minutes": "SELECT avg(duration_s) / 60 FROM sessions WHERE game = ?",
    "flags": "SELECT count(*) FROM flags JOIN sessions USING (session) "
             "WHERE game = ? AND NOT flags.salvaged",
    "notes": "SELECT count(*) FROM notes JOIN sessions USING (session) WHERE game = ?",
    "decided": "SELECT count(*) FROM sessions WHERE game = ? AND len(winners) > 0",
    "unfinished": "SELECT count(*) FROM sessions WHERE game = ? AND how = ''",
    "damaged": "SELECT count(*) FROM sessions WHERE game = ? AND (damaged OR salvaged > 0)",
    "salvaged_flags": "SELECT count(*) FROM salvaged_flags JOIN sessions USING (session) "
                      "WHERE game = ?",
    "dismissed": "SELECT count(*) FROM flags e JOIN sessions USING (session) WHERE game = ? "
                 "AND e.rule IN (SELECT rule FROM dismissals)",
    "seconds_per_turn": "SELECT avg(coalesce(list_avg(turn_seconds), 0)) FROM sessions "
                        "WHERE game = ?",
}


@pytest.mark.parametrize("game", GAMES)
def test_the_overview_and_figure_cards_are_the_datasets_and_the_truth(
        corpus: tuple[list[Truth], Report, Path], game: str) -> None:
    truths, report, ds = corpus
    con = views(ds)
    mine = {k: _one(con, sql, game) for k, sql in _MINE.items()}
    name = con.execute("SELECT any_value(module_name) FROM sessions WHERE game = ?",
                       [game]).fetchone()[0]
    row = _overview(report.html)[name]
    sessions = mine["sessions"]
    assert row == [str(sessions), str(mine["drafts"]), f"{mine['turns']:.1f}",
                   f"{mine['minutes']:.0f}", f"{mine['flags'] / sessions:.1f}",
                   str(mine["notes"]), str(mine["decided"]), str(mine["unfinished"]),
                   str(mine["damaged"]), str(mine["salvaged_flags"]), str(mine["dismissed"])]
    cards = _kpis(report.html, game)
    assert cards == {"sessions": str(sessions), "decided (a winner)": str(mine["decided"]),
                     "unfinished (no result)": str(mine["unfinished"]),
                     "turns per game (mean)": f"{mine['turns']:.1f}",
                     "minutes per game (mean)": f"{mine['minutes']:.0f}",
                     "seconds per turn (mean)": f"{mine['seconds_per_turn']:.0f}",
                     "flags raised": str(mine["flags"]),
                     "designer notes": str(mine["notes"])}
    # the planted truth: sessions, results, slips; the corpus' logs are intact
    planted = [t for t in truths if t.game == game]
    assert sessions == len(planted)
    assert mine["unfinished"] == sum(1 for t in planted if t.how == "unfinished")
    assert mine["decided"] == sum(1 for t in planted if t.winner is not None
                                  and t.how != "unfinished")
    assert mine["flags"] == sum(n for t in planted for n in t.planted.values())
    assert mine["damaged"] == 0 == mine["salvaged_flags"]
    assert mine["drafts"] == 1


def test_the_reports_own_figure_queries_agree_with_the_page(
        corpus: tuple[list[Truth], Report, Path]) -> None:
    _truths, report, ds = corpus
    con = views(ds)
    answers = {figure: con.execute(sql).fetchall() for figure, sql in FIGURES}
    by_game = Counter(s.game for s in report.sessions)
    assert dict(answers["sessions per game (Overview: Sessions)"]) == by_game
    flags = {(g, r): (n, k) for g, r, n, k in
             answers["rules flagged most: flags and sessions per rule (the flags chart)"]}
    from table.report import aggregate as agg

    for game in GAMES:
        ss = [s for s in report.sessions if s.game == game]
        assert {r: (n, k) for (g, r), (n, k) in flags.items() if g == game} == {
            r: (n, k) for r, n, k in agg.flags_by_rule(ss)}
        groups = {grp: (n, w) for g, grp, n, w in answers[
            "win rate by deck group, decided sessions (Win rate by group)"] if g == game}
        assert groups == {r.label: (r.games, r.wins)
                          for r in agg.win_rates(ss, agg.by_group) if r.games}
    for _name, _what, sql in LOADS:  # every load runs as printed
        con.execute(sql).fetchall()


def test_a_second_report_reads_nothing_new(corpus: tuple[list[Truth], Report, Path]) -> None:
    _truths, report, ds = corpus
    assert report.logs_read == COUNT and report.dataset == ds
    again = build_report([ds.parent / "logs"], None, jobs=1, show_progress=False, cache=ds)
    assert again.logs_read == 0 and again.logs == COUNT
    # (all but the time it was made and the charts' random element ids)
    strip = re.compile(r"made \d{4}-\d\d-\d\d \d\d:\d\d|chart-[0-9a-f-]{36}")
    assert strip.sub("", again.html) == strip.sub("", report.html)


def test_report_sql_prints_the_queries_and_their_answers(
        corpus: tuple[list[Truth], Report, Path], capsys: pytest.CaptureFixture[str]) -> None:
    from table.app.cli import main

    _truths, _report, ds = corpus
    assert main(["report", "--sql"]) == 0
    out = capsys.readouterr().out
    assert all(sql.strip() in out for _n, _w, sql in LOADS)
    assert main(["report", str(ds.parent / "logs"), "--sql", "--cache", str(ds)]) == 0
    out = capsys.readouterr().out
    for figure, sql in FIGURES:
        assert f"-- {figure}" in out and sql.strip() in out
    assert f"-- gauntlet | {COUNT // 3}" in out  # the answer under its query


def test_the_doc_lists_every_query() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "report.md").read_text("utf-8")
    for _name, _what, sql in LOADS:
        assert sql in text
    for figure, sql in FIGURES:
        assert figure in text and sql in text


@pytest.mark.parametrize("missing", ["pyarrow", "duckdb"])
def test_without_parquet_or_duckdb_the_report_says_so_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        missing: str) -> None:
    import sys

    from table.app.cli import main

    monkeypatch.setitem(sys.modules, missing, None)  # as in the desktop bundle
    log = tmp_path / "g.sandlog"
    log.write_bytes(b"")
    assert main(["report", str(log), "--out", str(tmp_path / "r.html")]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and "pyarrow and duckdb" in err[0]
    assert not (tmp_path / "r.html").exists()


def test_a_new_log_in_the_folder_is_the_only_one_read(
        corpus: tuple[list[Truth], Report, Path], tmp_path: Path) -> None:
    import shutil

    truths, _report, _ds = corpus
    folder = tmp_path / "logs"
    folder.mkdir()
    for t in truths[:4]:
        shutil.copy(t.path, folder / t.path.name)
    first = build_report([folder], None, jobs=1, show_progress=False, cache=tmp_path / "ds")
    assert first.logs_read == 4 and len(first.sessions) == 4
    shutil.copy(truths[4].path, folder / truths[4].path.name)
    second = build_report([folder], None, jobs=1, show_progress=False, cache=tmp_path / "ds")
    assert second.logs_read == 1 and len(second.sessions) == 5
    fresh = build_report([folder], None, jobs=1, show_progress=False, cache=tmp_path / "fresh")
    assert [s.name for s in fresh.sessions] == [s.name for s in second.sessions]
    assert [(s.flags, s.winners, s.turns) for s in fresh.sessions] == \
        [(s.flags, s.winners, s.turns) for s in second.sessions]
