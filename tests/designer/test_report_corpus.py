"""The report over a corpus of legal sessions with planted effects recovers each effect within
its 95% interval, flags only the planted rule slips, and shows n, intervals, splits and results;
and it answers the designer's questions against the generator's truth: which draft is more
balanced (the page's first sentence), which playtest group's die is loaded (`--by group`),
which rule is slipped most per occasion, which cards are dead; a dismissed rule leaves the
ranking.

The corpus (table.bench.legal_corpus, with corpus_plan.DESIGNER) is played by scripted players
who keep the rules; what it plants is known exactly, so every expected rate below is computed
from the plan, not guessed.
"""
from __future__ import annotations

import csv
import re
from html import unescape

import pytest

from table.bench.corpus_plan import DESIGNER
from table.bench.legal_corpus import Truth, generate
from table.report import aggregate as agg
from table.report.build import build_report, write_csv

PLAN = DESIGNER
COUNT = 150  # 50 sessions of each built-in game
DRAFTED = 100  # and as many more of the game played under two drafts (75 of each draft)
SEED = 2  # fixed: each planted effect is checked at 95%, so a few seeds' samples miss one


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("corpus")
    truths = generate(folder / "logs", COUNT, seed=SEED, plan=PLAN)
    truths += generate(folder / "logs", DRAFTED, seed=SEED + 100, plan=PLAN,
                       games=(PLAN.draft_game,))
    report = build_report([folder / "logs"], folder / "report.html", jobs=1,
                          show_progress=False, cache=folder / "ds")
    return truths, report


def win_chance(truth: Truth, seat: int) -> float:
    """The planted chance that `seat` wins this session (given it is finished)."""
    strong = None if truth.draft == "B" else PLAN.strong_group.get(truth.game)
    weight = PLAN.draft_weight if truth.draft == "A" else PLAN.strong_weight
    edge = PLAN.order_edge.get(truth.game)
    weights = {}
    for position, s in enumerate(truth.order, start=1):
        w = weight if truth.groups[s] == strong else 1.0
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
    assert len(report.sessions) == COUNT + DRAFTED and not report.skipped
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
    game = sessions_of(report, PLAN.loaded_game)
    (d6,) = agg.dice([s for s in game if s.group == PLAN.loaded_group])
    assert d6.p_value < 1e-3  # one group's tables: a third of the game's rolls
    low, high = agg.wilson(d6.counts[5], d6.total)
    assert low <= PLAN.loaded_six <= high
    (elsewhere,) = agg.dice([s for s in game if s.group != PLAN.loaded_group])
    assert elsewhere.p_value > 0.01  # the other groups' tables roll fair dice
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
        if t.game != "dead-to-rites":  # there the Dawn slips at a rate per Dawn instead
            assert (slip_rule[t.game] in t.planted) == t.slipped
    for game, rule in slip_rule.items():
        if game == "dead-to-rites":
            continue
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
    assert len(rows) == COUNT + DRAFTED and len(seats) == sum(t.seats for t in truths)
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


# --- the designer's questions, each against the generator's truth -------------------------

def _first_sentence(html: str) -> str:
    answer = re.search(r'<div class="answer"><p>(.*?)</p>', html, re.S)
    assert answer, "the page opens with its answer"
    text = unescape(re.sub(r"<[^>]+>", "", answer.group(1)))
    return text.split(". ")[0]


def _true_spread(truths: list[Truth], draft: str) -> float:
    """The planted spread of the factions' win rates in one draft (from the plan's odds)."""
    rates = {}
    for group in {g for t in truths if t.draft == draft for g in t.groups.values()}:
        rates[group] = expected([t for t in truths if t.draft == draft], PLAN.draft_game,
                                lambda t, s, g=group: t.groups[s] == g)
    return max(rates.values()) - min(rates.values())


def test_the_page_opens_naming_the_more_balanced_draft_with_its_interval(corpus) -> None:  # type: ignore[no-untyped-def]
    from table.report.balance_page import contrasts, sets_of
    from table.report.html import version_label

    truths, report = corpus
    game = sessions_of(report, PLAN.draft_game)
    name = {s.name: s for s in game}
    label = {t.draft: version_label(name[t.path.name].version, name[t.path.name].game_hash)
             for t in truths if t.draft}
    sentence = _first_sentence(report.html)
    # the truth: draft B was planted balanced, draft A with a stronger faction
    assert sentence.startswith(f"Gauntlet: draft {label['B']} is more balanced than draft "
                               f"{label['A']}: it narrows the faction spread from"), sentence
    assert "95% interval" in sentence and "holds after Holm's correction" in sentence
    (c,) = contrasts(sets_of(game), "faction")
    # the answer is the same whichever set is the reference (the larger set, or the newer)
    assert c.sentence("Gauntlet") == c.reversed().sentence("Gauntlet")
    if c.b != label["B"]:
        c = c.reversed()
    spread = c.find(2, "spread:faction")
    assert spread is not None and spread.holds and spread.high < 0
    numbers = f"{spread.diff * 100:+.0f} points, 95% interval {spread.low * 100:+.0f} to " \
              f"{spread.high * 100:+.0f}"
    assert numbers in sentence
    # the difference's interval holds the planted one (B's true spread is 0)
    assert _true_spread(truths, "B") == 0.0 and c.b == label["B"]
    assert spread.low <= -_true_spread(truths, "A") <= spread.high


def test_the_group_with_the_loaded_die_is_singled_out_by_group(corpus) -> None:  # type: ignore[no-untyped-def]
    from table.report import page, slices

    _truths, report = corpus
    html = page.render(report.sessions, [], inputs=["corpus"], by="group")
    section = html.split('<h2 id="dead-to-rites">', 1)[1].split("<h2 ", 1)[0]
    dice = section.split("<h3>Dice per group</h3>", 1)[1].split("</table>", 1)[0]
    loaded = {m for m in re.findall(r"<tr><td[^>]*>([^<]+)</td>(?:(?!</tr>).)*loaded\?", dice)}
    assert loaded == {PLAN.loaded_group}, loaded
    assert f"group {PLAN.loaded_group}: face 6 came up" in unescape(section)
    tested = slices.slice_dice(slices.slices(sessions_of(report, PLAN.loaded_game), "group"))
    (x,) = [x for x in tested if x.loaded]
    low, high = agg.wilson(x.dice.counts[5], x.dice.total)
    assert x.label == PLAN.loaded_group and low <= PLAN.loaded_six <= high
    for group in PLAN.groups:  # every figure, per group
        assert f"Dead to Rites · group {group}</h2>" in unescape(html)


def test_a_rule_planted_per_occasion_ranks_by_its_rate(corpus) -> None:  # type: ignore[no-untyped-def]
    from table.report.confusion import rule_rates

    truths, report = corpus
    ranked, _bare = rule_rates(sessions_of(report, "dead-to-rites"))
    rates = {r.rule: r for r in ranked}
    dawn = rates["DTR-DAWN-INCOME"]
    dtr = [t for t in truths if t.game == "dead-to-rites"]
    # every Dawn the players went through is an occasion, every forgotten Favor a slip
    assert dawn.occasions == sum(t.occasions["DTR-DAWN-INCOME"] for t in dtr)
    assert dawn.slips == sum(t.planted.get("DTR-DAWN-INCOME", 0) for t in dtr)
    low, high = dawn.interval
    assert low <= PLAN.dawn_slips <= high
    assert [r.rate for r in ranked] == sorted((r.rate for r in ranked), reverse=True)
    # a Dusk slip comes once a session at most, at rarer Dusks (with damage on a Champion): fewer
    # flags than the Dawn's, a higher rate per occasion, so it ranks above
    dusk = rates["DTR-DAMAGE-CLEAR-DUSK"]
    assert dusk.slips < dawn.slips and dusk.rate > dawn.rate
    assert ranked.index(dusk) < ranked.index(dawn)  # ranked per occasion, not by flags
    table = report.html.split("Confusion per occasion", 1)[1].split("</table>", 1)[0]
    assert table.index("DTR-DAMAGE-CLEAR-DUSK") < table.index("DTR-DAWN-INCOME")


def test_held_never_played_cards_appear_as_dead(corpus) -> None:  # type: ignore[no-untyped-def]
    from table.games import find_module
    from table.report.card_stories import stories

    _truths, report = corpus
    for game, planted in PLAN.dead_cards.items():
        module = find_module(game)
        rows = stories(sessions_of(report, game), module)
        assert {c.card for c in rows} >= set(module.cards)  # every card of the module
        dead = [c for c in rows if c.dead]
        assert rows[:len(dead)] == dead  # dead cards first
        for card in planted:
            story = next(c for c in rows if c.card == card)
            assert story.dead and story.held_in > 0 and story.played == 0, story
        section = report.html.split(f'<h2 id="{game}">', 1)[1].split("<h2 ", 1)[0]
        listed = section.split("<b>Dead cards:</b>", 1)[1].split("</p>", 1)[0]
        for card in planted:
            assert module.cards[card].name in unescape(listed)


def test_a_dismissed_rule_leaves_the_ranking_and_is_counted_apart(corpus) -> None:  # type: ignore[no-untyped-def]
    from table.report.confusion import rule_rates

    truths, report = corpus
    logs = report.sessions[0].path.parent
    dawns = sum(t.planted.get("DTR-DAWN-INCOME", 0) for t in truths)
    one = next(s for s in sessions_of(report, "gauntlet") if s.flags)
    rule = next(iter(one.flags))
    (logs / "dismissals.toml").write_text(
        f'[[dismiss]]\nflag = "{rule}@{one.table_id}#{one.flag_first[rule]}"\n'
        f'why = "a card effect"\n', encoding="utf-8")
    try:
        again = build_report([logs], None, jobs=1, show_progress=False, cache=report.dataset,
                             dismiss=["DTR-DAWN-INCOME"])
    finally:
        (logs / "dismissals.toml").unlink()
    assert again.logs_read == 0  # the dataset is reused; only the dismissals are new
    dtr = sessions_of(again, "dead-to-rites")
    ranked, bare = rule_rates(dtr)
    assert "DTR-DAWN-INCOME" not in {r.rule for r in ranked + bare if r.slips}
    assert sum(s.dismissed_flags["DTR-DAWN-INCOME"] for s in dtr) == dawns
    assert not any(s.flags.get("DTR-DAWN-INCOME") for s in dtr)
    mine = next(s for s in again.sessions if s.table_id == one.table_id)
    assert mine.dismissed_flags[rule] == 1 and mine.flags[rule] == one.flags[rule] - 1
    html = unescape(again.html)
    assert f"DTR-DAWN-INCOME</b>: {dawns} flag(s)" in html  # counted apart, on the page
    overview = html.split("<h3>Overview</h3>", 1)[1].split("</table>", 1)[0]
    assert f"<td class=\"n\">{dawns}</td></tr>" in overview  # Dead to Rites's dismissed column
