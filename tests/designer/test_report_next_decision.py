"""The report for the designer's next decision, over generated sessions with planted truth:
one seat's die loaded in a known 5% of sessions (the page must single out those sessions, and
few others), and two drafts of Gauntlet whose figures stand side by side with intervals and
the list of what the draft changed."""
from __future__ import annotations

import csv
import random
import re
from pathlib import Path

import pytest

from table.bench.report import draft_of
from table.bench.simulated_sessions import generate
from table.games import find_module
from table.report import aggregate as agg
from table.report import compare, dice
from table.report.build import Report, build_report, write_csv

pytestmark = pytest.mark.processes

SESSIONS_A, SESSIONS_B = 60, 40


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Report, set[str], Path]:
    folder = tmp_path_factory.mktemp("next-decision")
    module = find_module("gauntlet")
    rnd = random.Random(23)
    # 5 of 100 sessions: one seat's die comes up 6 three times in five
    loaded_a = {i: (rnd.choice((1, 2)), 0.6) for i in rnd.sample(range(SESSIONS_A), 3)}
    loaded_b = {i: (rnd.choice((1, 2)), 0.6) for i in rnd.sample(range(SESSIONS_B), 2)}
    paths_a = generate(module, SESSIONS_A, folder / "a", seed=3, turns=30, loaded=loaded_a)
    draft = draft_of(module, folder / "modules")  # hand_limit 3 -> 4, version -draft
    paths_b = generate(draft, SESSIONS_B, folder / "b", seed=9, turns=30, loaded=loaded_b,
                       prefix="gauntlet-draft")
    loaded = {paths_a[i].name for i in loaded_a} | {paths_b[i].name for i in loaded_b}
    report = build_report([folder / "a", folder / "b"], folder / "report.html")
    return report, loaded, folder


def test_the_loaded_dice_are_found_by_session(planted: tuple[Report, set[str], Path]) -> None:
    report, loaded, _folder = planted
    assert len(report.sessions) == SESSIONS_A + SESSIONS_B and len(loaded) == 5
    found, tested = dice.suspects(report.sessions)
    names = {x.die.session.path.name for x in found}
    assert tested == len(report.sessions)
    assert len(names & loaded) >= 4  # most of them
    assert len(names - loaded) <= 2  # and few others
    # the page lists them, with the seat and the face that came up too often
    html = report.html
    section = html.split("<h3>Dice by session and seat")[1].split("</table>")[0]
    assert f"{len(found)} of {tested} session(s) singled out" in html
    for x in found:
        assert x.die.session.path.name in section
    assert all(x.die.most == 6 for x in found if x.die.session.path.name in loaded)


def test_two_drafts_stand_side_by_side_with_intervals(planted: tuple[Report, set[str], Path]
                                                      ) -> None:
    report, _loaded, _folder = planted
    drafts = compare.reference_first(agg.versions(report.sessions))
    assert [len(x) for _v, _h, x in drafts] == [SESSIONS_A, SESSIONS_B]
    rows = compare.rows(drafts)
    labels = {(r.section, r.label) for r in rows}
    assert ("2 players", "first player wins (fair 50%)") in labels
    assert ("flags", "flags per session") in labels
    assert any(label.endswith(" wins") and label != "first player wins (fair 50%)"
               for _s, label in labels)  # per group
    assert any(label.startswith("sessions with GAU-") for _s, label in labels)  # per rule
    for row in rows:
        ref, other = row.cells
        if ref.text == "—" or other.text == "—":
            continue
        assert re.search(r"\(.+–.+, n=\d+\)", ref.text) and other.diff is not None
        d, low, high = other.diff
        assert low <= d <= high
    html = report.html
    assert "Drafts side by side" in html
    assert "rules hand_limit 3 -&gt; 4" in html  # what the draft changed
    # the hand limit went up by one: the draft's sessions are flagged for it less often
    hand = next(r for r in rows if r.label == "sessions with GAU-HAND-LIMIT")
    assert hand.cells[1].diff is not None and hand.cells[1].diff[0] < 0


def test_cards_csv_has_intervals_on_win_rate_and_lift(planted: tuple[Report, set[str], Path]
                                                      ) -> None:
    report, _loaded, folder = planted
    written = write_csv(report.sessions, folder / "csv")
    assert [p.name for p in written] == ["sessions.csv", "seats.csv", "cards.csv",
                                         "card_stories.csv"]
    with open(folder / "csv" / "cards.csv", encoding="utf-8") as f:
        cards = list(csv.DictReader(f))
    played = [row for row in cards if int(row["sessions"])]
    assert played
    for row in cards:
        assert int(row["copies_played"]) >= int(row["sessions"])
        if row["win_rate"]:
            assert float(row["win_low"]) <= float(row["win_rate"]) <= float(row["win_high"])
        if row["lift"]:
            assert float(row["lift_low"]) <= float(row["lift"]) <= float(row["lift_high"])
        if row["in_hand_win_rate"]:
            assert float(row["in_hand_low"]) <= float(row["in_hand_win_rate"]) <= \
                float(row["in_hand_high"])
    # Gauntlet's cards are played from the hand: every seat that played one held it
    assert all(int(r["held_seat_games"]) >= int(r["seat_games"]) for r in played)
    # the page lists every card of the module, not the most played
    from table.games import find_module

    shown = re.search(r"Every card's story \((\d+) cards", report.html)
    assert shown and int(shown.group(1)) >= len(find_module("gauntlet").cards)


def test_notes_are_grouped_and_lengths_are_per_player_count(
        planted: tuple[Report, set[str], Path]) -> None:
    report, _loaded, _folder = planted
    html = report.html
    from table.report.notes import group_notes

    remarks = group_notes([(s, n) for s in report.sessions for n in s.notes])
    assert re.search(rf"Designer notes in context \(\d+, {len(remarks)} different remarks\)",
                     html)
    assert "First player and game length, per player count" in html
    assert "first player wins (n=" not in html  # no pooled first-player figure
