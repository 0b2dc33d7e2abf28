"""The report over a corpus of legal sessions with planted effects recovers each effect within
its 95% interval, flags only the planted rule slips, and shows n, intervals, splits and results.

The corpus (table.bench.legal_corpus) is played by scripted players who keep the rules; what it
plants is known exactly, so every expected rate below is computed from the plan, not guessed.
"""
from __future__ import annotations

import csv
import re

import pytest

from table.bench.legal_corpus import Plan, Truth, generate
from table.report import aggregate as agg
from table.report.build import build_report, write_csv

PLAN = Plan()
COUNT = 150  # 50 sessions of each built-in game


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("corpus")
    truths = generate(folder, COUNT, seed=1, plan=PLAN)
    report = build_report([folder], folder / "report.html", jobs=1, show_progress=False)
    return truths, report


def win_chance(truth: Truth, seat: int) -> float:
    """The planted chance that `seat` wins this session (given it is finished)."""
    strong = PLAN.strong_group.get(truth.game)
    edge = PLAN.order_edge.get(truth.game)
    weights = {}
    for position, s in enumerate(truth.order, start=1):
        w = PLAN.strong_weight if truth.groups[s] == strong else 1.0
        if edge == (len(truth.order), position):
            w *= PLAN.order_weight
        weights[s] = w
    return weights[seat] / sum(weights.values())


def expected(truths: list[Truth], game: str, pick) -> float:  # type: ignore[no-untyped-def]
    """Mean planted chance over the seat-games `pick(truth, seat)` selects (finished only)."""
    chances = [win_chance(t, s) for t in truths if t.game == game and t.how != "unfinished"
               for s in t.order if pick(t, s)]
    return sum(chances) / len(chances)


def sessions_of(report, game):  # type: ignore[no-untyped-def]
    return [s for s in report.sessions if s.game == game]


def test_every_session_is_read_and_results_come_from_the_end_op(corpus) -> None:  # type: ignore[no-untyped-def]
    truths, report = corpus
    assert len(report.sessions) == COUNT and not report.skipped
    by_name = {s.name: s for s in report.sessions}
    for t in truths:
        s = by_name[t.path.name]
        if t.how == "unfinished":
            assert not s.finished and not s.winners
        else:
            assert s.winners == {t.winner} and s.how == t.how
    unfinished = sum(1 for t in truths if t.how == "unfinished")
    assert unfinished and len(agg.unfinished(report.sessions)) == unfinished
    assert "unfinished" in report.html


@pytest.mark.parametrize(("game", "group"), [("gauntlet", "Military"),
                                             ("dead-to-rites", "Grave Choir")])
def test_the_stronger_group_is_recovered_within_its_interval(corpus, game, group) -> None:  # type: ignore[no-untyped-def]
    truths, report = corpus
    rates = {r.label: r for r in agg.win_rates(sessions_of(report, game), agg.by_group)}
    strong = rates[group]
    truth = expected(truths, game, lambda t, s: t.groups[s] == group)
    assert strong.low <= truth <= strong.high, (strong, truth)
    assert truth > strong.fair and strong.rate > strong.fair  # planted, and it shows


def test_seat_order_is_split_by_player_count(corpus) -> None:  # type: ignore[no-untyped-def]
    truths, report = corpus
    game = "mantle-of-the-keeper"
    split = agg.order_rates_by_players(sessions_of(report, game))
    assert set(split) == {2, 3, 4}
    planted = PLAN.order_edge[game]
    for count, rates in split.items():
        for r in rates:
            position = int(r.label[0])
            truth = expected(truths, game, lambda t, s, c=count, p=position:
                             len(t.order) == c and t.order.index(s) + 1 == p)
            if (count, position) == planted:
                low, high = r.low, r.high  # the planted effect: its own 95% interval
            else:  # nine control cells at once: 95% for the family (Bonferroni, z = 2.81)
                low, high = agg.wilson(r.wins, r.games, z=2.807)
            assert low <= truth <= high, (count, r, truth)
            assert r.fair == pytest.approx(1 / count)
    third = next(r for r in split[3] if r.label == "3rd")
    assert third.verdict == "above"  # the planted edge at 3 players stands out ...
    for r in split[4]:  # ... and 4 players stay fair (four cells: 95% for the family)
        low, high = agg.wilson(r.wins, r.games, z=2.498)
        assert low <= r.fair <= high, r
    html = report.html
    assert "3 players" in html and "4 players" in html and "Never pooled" in html


def test_the_loaded_die_is_caught_and_its_bias_measured(corpus) -> None:  # type: ignore[no-untyped-def]
    _truths, report = corpus
    (d6,) = agg.dice(sessions_of(report, PLAN.loaded_game))
    assert d6.p_value < 1e-6
    low, high = agg.wilson(d6.counts[5], d6.total)
    assert low <= PLAN.loaded_six <= high
    fair = [d for d in agg.dice(sessions_of(report, "gauntlet")) if d.sides == 6]
    assert not fair or fair[0].p_value > 0.01  # the other games' dice are fair


def test_flags_are_exactly_the_planted_slips(corpus) -> None:  # type: ignore[no-untyped-def]
    truths, report = corpus
    by_name = {s.name: s for s in report.sessions}
    slip_rule = {"gauntlet": "GAU-HAND-LIMIT", "mantle-of-the-keeper": "MAN-HAND-LIMIT",
                 "dead-to-rites": "DTR-DAWN-INCOME"}
    for t in truths:
        s = by_name[t.path.name]
        assert not s.flags_why, s.flags_why  # the assist ran on every session
        # every slip planted is one flag, and nothing else is flagged (legal play, costs paid)
        assert dict(s.flags) == t.planted, (t.path.name, s.flags, t.planted)
        assert (slip_rule[t.game] in t.planted) == t.slipped
    for game, rule in slip_rule.items():
        (rate,) = [r for r in agg.flag_rates(sessions_of(report, game)) if r.label == rule]
        assert rate.low <= PLAN.slip_rate <= rate.high, (game, rate)
    planted = {rule: sum(t.planted.get(rule, 0) for t in truths)
               for rule in ("MAN-INCOME", "DTR-DAMAGE-CLEAR-DUSK")}
    assert all(planted.values()), planted  # the corpus plants both
    totals = {rule: sum(s.flags.get(rule, 0) for s in report.sessions) for rule in planted}
    assert totals == planted
    assert not any(s.flags.get("MAN-ACTION-LIMIT") for s in report.sessions)


def test_the_page_names_the_group_header_and_shows_n_and_intervals(corpus) -> None:  # type: ignore[no-untyped-def]
    _truths, report = corpus
    html = report.html
    for title in ("Win rate by faction", "Win rate by chosen", "Win rate by crown"):
        assert title in html
    military = agg.win_rates(sessions_of(report, "gauntlet"), agg.by_group)
    row = next(r for r in military if r.label == "Military")
    cell = re.search(r"<td[^>]*>Military</td><td[^>]*>(\d+)</td><td[^>]*>(\d+)</td>", html)
    assert cell is not None and (int(cell[1]), int(cell[2])) == (row.games, row.wins)
    assert f"{round(row.low * 100)}%–{round(row.high * 100)}%" in html
    assert "Matchups" in html and "Sessions (" in html


def test_an_unplayed_group_is_absent_not_zero(corpus, tmp_path) -> None:  # type: ignore[no-untyped-def]
    truths, _report = corpus
    keep = [t.path for t in truths if t.game == "gauntlet" and "Mystics" not in t.groups.values()]
    report = build_report(keep, tmp_path / "r.html", jobs=1, show_progress=False, assist=False)
    rates = {r.label: r for r in agg.win_rates(report.sessions, agg.by_group,
                                               ["Military", "Mystics"])}
    assert rates["Mystics"].absent and rates["Mystics"].games == 0
    row = re.search(r"<td[^>]*>Mystics</td>(.*?)</tr>", report.html)
    assert row is not None and "absent" in row[1] and "0%" not in row[1]


def test_card_plays_follow_the_module_and_lift_is_against_the_own_group(corpus) -> None:  # type: ignore[no-untyped-def]
    from table.games import find_module

    _truths, report = corpus
    module = find_module("gauntlet")
    stats = agg.card_stats(sessions_of(report, "gauntlet"), module)
    types = {module.cards[c.card].type for c in stats}
    # the scripted players play Actions; Cleanup discards and setup Territories are not plays
    assert types == {"Action"}
    for c in stats:  # neutral cards are measured against every seat
        assert c.baseline is not None
        assert c.baseline.label == (c.group if c.group != module.neutral else "all")
    # a Military card's lift is measured against Military seats, not the fair share
    military_rate = next(r for r in agg.win_rates(sessions_of(report, "gauntlet"), agg.by_group)
                         if r.label == "Military")
    military = [c for c in stats if c.group == "Military" and c.seat_games]
    assert military
    for c in military:
        assert (c.baseline.games, c.baseline.wins) == (military_rate.games, military_rate.wins)
        assert c.lift == pytest.approx(c.win_rate - military_rate.rate)
        if c.seat_games >= 5:  # no planted card effect: the lift stays within the noise
            low, high = c.interval
            assert low <= military_rate.rate <= high
    dtr = agg.card_stats(sessions_of(report, "dead-to-rites"), find_module("dead-to-rites"))
    assert dtr and {find_module("dead-to-rites").cards[c.card].type for c in dtr} == {"Champion"}


def test_csv_has_one_row_per_session_and_per_seat(corpus, tmp_path) -> None:  # type: ignore[no-untyped-def]
    truths, report = corpus
    sessions_csv, seats_csv, _cards_csv, _stories_csv = write_csv(report.sessions,
                                                                   tmp_path / "csv")
    with open(sessions_csv, newline="") as f:
        rows = list(csv.DictReader(f))
    with open(seats_csv, newline="") as f:
        seats = list(csv.DictReader(f))
    assert len(rows) == COUNT and len(seats) == sum(t.seats for t in truths)
    assert {"date", "draft", "players", "groups", "winner", "turns", "minutes", "flags",
            "notes"} <= set(rows[0])
    won = [r for r in seats if r["won"] == "1"]
    assert len(won) == sum(1 for t in truths if t.how != "unfinished")


def test_mantle_plays_are_exactly_the_attack_and_defense_cards(corpus) -> None:  # type: ignore[no-untyped-def]
    from table.core.replica import Replica

    _truths, report = corpus
    mantle = sessions_of(report, "mantle-of-the-keeper")
    assert any(s.played for s in mantle)  # no longer "No card was played"
    for s in mantle:
        replica = Replica.from_log(s.path)
        declared = sum(1 for r in replica.records() if r.op.kind == "mark"
                       and r.op.args.get("what") == "declare"
                       and r.op.args.get("value") in ("attack", "defense"))
        # each attack or defense plays one card; hand-limit discards at End of turn do not count
        assert sum(len(cards) for cards in s.played.values()) == declared, s.name
