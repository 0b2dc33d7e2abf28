"""The report's headline figures, computed by DuckDB queries over the dataset, equal the
report's own (table.report) and the truth the corpus generator planted.

The corpus is the report's (table.bench.legal_corpus): legal sessions of the three built-in
games with a stronger group, a seat-order edge, a loaded die and rule slips at known rates.
"""
from __future__ import annotations

from collections import Counter

import pytest

from table.bench.legal_corpus import GAMES, Plan, generate
from table.dataset.build import build_dataset
from table.report import aggregate as agg
from table.report.build import build_report

from .dataset_kit import query

pytestmark = pytest.mark.processes

PLAN = Plan()
COUNT = 90  # 30 sessions of each built-in game


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("corpus")
    truths = generate(folder / "logs", COUNT, seed=5, plan=PLAN)
    report = build_report([folder / "logs"], None, jobs=2, show_progress=False)
    build_dataset([folder / "logs"], folder / "ds", jobs=2)
    return truths, report, folder / "ds"


def _of(report, game):  # type: ignore[no-untyped-def]
    return [s for s in report.sessions if s.game == game]


def test_sessions_and_results(corpus) -> None:  # type: ignore[no-untyped-def]
    truths, report, ds = corpus
    counts = dict(query(ds, "SELECT game, count(*) FROM sessions GROUP BY game"))
    assert counts == Counter(s.game for s in report.sessions) == Counter(t.game for t in truths)
    rows = {src[0].rsplit("/", 1)[-1]: (winners, how, unfinished) for src, winners, how, unfinished
            in query(ds, "SELECT sources, winners, how, unfinished FROM sessions")}
    for t in truths:
        winners, how, unfinished = rows[t.path.name]
        if t.how == "unfinished":  # planted: no end op, no result
            assert unfinished and winners == [] and how == ""
        else:
            assert winners == [t.winner] and how == t.how
    by_name = {s.name: s for s in report.sessions}
    for name, (winners, how, _u) in rows.items():
        assert set(winners) == by_name[name].winners and how == by_name[name].how
    turns = dict(query(ds, "SELECT game, sum(turns) FROM sessions GROUP BY game"))
    assert turns == {g: sum(s.turns for s in _of(report, g)) for g in GAMES}


@pytest.mark.parametrize("game", GAMES)
def test_win_rates_by_group_and_by_seat_order(corpus, game) -> None:  # type: ignore[no-untyped-def]
    truths, report, ds = corpus
    sql = """SELECT st."group", count(*), sum(st.won::INT) FROM seats st
             JOIN sessions s USING (session)
             WHERE s.game = ? AND len(s.winners) > 0 AND st."group" IS NOT NULL
             GROUP BY st."group" """
    from table.dataset.examples import views

    con = views(ds)
    mine = {g: (n, w) for g, n, w in con.execute(sql, [game]).fetchall()}
    theirs = {r.label: (r.games, r.wins) for r in agg.win_rates(_of(report, game), agg.by_group)}
    assert mine == theirs and mine
    # the planted stronger group: its seats are exactly the truth's, and they win more
    strong = PLAN.strong_group.get(game)
    if strong is not None:
        planted = sum(1 for t in truths if t.game == game and t.how != "unfinished"
                      for s in t.order if t.groups[s] == strong)
        assert mine[strong][0] == planted
    order = """SELECT s.players, st.turn_order, count(*), sum(st.won::INT) FROM seats st
               JOIN sessions s USING (session) WHERE s.game = ? AND len(s.winners) > 0
               GROUP BY ALL"""
    mine_order = {(p, o): (n, w) for p, o, n, w in con.execute(order, [game]).fetchall()}
    theirs_order = {(count, int(r.label[0])): (r.games, r.wins) for count, rates in
                    agg.order_rates_by_players(_of(report, game)).items() for r in rates}
    assert mine_order == theirs_order
    for t in truths:  # the planted seat order is the dataset's turn order
        if t.game != game:
            continue
        got = dict(con.execute("SELECT seat, turn_order FROM seats JOIN sessions USING "
                               "(session) WHERE list_contains(sources, ?)",
                               [str(t.path)]).fetchall())
        assert [s for s, _o in sorted(got.items(), key=lambda kv: kv[1])] == t.order


def test_flags_per_rule_are_the_reports_and_the_planted_slips(corpus) -> None:  # type: ignore[no-untyped-def]
    truths, report, ds = corpus
    mine = {(r, n, k) for r, n, k in query(
        ds, "SELECT rule, count(*), count(DISTINCT session) FROM flags GROUP BY rule")}
    assert mine == set(agg.flags_by_rule(report.sessions))
    per_session = {src[0].rsplit("/", 1)[-1]: rules for src, rules in query(
        ds, "SELECT s.sources, list(f.rule ORDER BY f.op) FILTER (f.rule IS NOT NULL) "
            "FROM sessions s LEFT JOIN flags f USING (session) GROUP BY s.sources")}
    for t in truths:
        planted = sorted(rule for rule, n in t.planted.items() for _ in range(n))
        assert sorted(per_session[t.path.name] or []) == planted, t.path
    (unchecked,) = query(ds, "SELECT count(*) FROM sessions WHERE NOT flags_checked")[0]
    assert unchecked == 0


@pytest.mark.parametrize("game", GAMES)
def test_card_plays_are_the_reports(corpus, game) -> None:  # type: ignore[no-untyped-def]
    from table.dataset.examples import views
    from table.games import find_module

    _truths, report, ds = corpus
    con = views(ds)
    plays = {c: (n, k) for c, n, k in con.execute(
        "SELECT o.card, count(*), count(DISTINCT o.session) FROM ops o "
        "JOIN sessions s USING (session) WHERE s.game = ? AND o.play GROUP BY o.card",
        [game]).fetchall()}
    stats = agg.card_stats(_of(report, game), find_module(game))
    assert plays == {c.card: (c.plays, c.sessions) for c in stats} and plays
    if game == "mantle-of-the-keeper":  # each attack or defense declared plays one card
        (declared,) = con.execute(
            "SELECT count(*) FROM ops o JOIN sessions s USING (session) WHERE s.game = ? AND "
            "o.kind = 'mark' AND o.what = 'declare' AND o.value IN ('attack', 'defense') "
            "AND NOT o.void",
            [game]).fetchone()
        assert sum(n for n, _k in plays.values()) == declared


def test_dice_are_the_reports_and_the_loaded_die_shows(corpus) -> None:  # type: ignore[no-untyped-def]
    _truths, report, ds = corpus
    for game in GAMES:
        faces = dict(query(ds, f"SELECT value, count(*) FROM draws JOIN sessions "
                               f"USING (session) WHERE game = '{game}' AND kind = 'roll' "
                               f"AND sides = 6 GROUP BY value"))
        (d6,) = [d for d in agg.dice(_of(report, game)) if d.sides == 6] or [None]
        assert (d6 is None and not faces) or faces == {i + 1: n for i, n in
                                                       enumerate(d6.counts) if n}
    six = dict(query(ds, f"SELECT value = 6, count(*) FROM draws JOIN sessions USING "
                         f"(session) WHERE game = '{PLAN.loaded_game}' AND kind = 'roll' "
                         f"GROUP BY ALL"))
    # the loaded die comes up 6 near the planted rate (a 99.9% interval: no flaky seed)
    low, high = agg.wilson(six[True], six[True] + six[False], z=3.29)
    assert low <= PLAN.loaded_six <= high and low > 1 / 6
