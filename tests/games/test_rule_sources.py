"""Rule numbers with one source: a draft's changed [rules] value takes effect (or `validate`
and the draft watcher say why it cannot), and the assist judges each op by the value in force
there."""
from __future__ import annotations

import csv
import io
import re
import shutil
from pathlib import Path

import pytest

from assist.runner import AssistRunner, load_plugin
from table.app.cli import main
from table.core import actions as act
from table.core.replica import Replica
from table.core.rng import Rng
from table.core.views import ALL
from table.games import ModuleError, load_deck, load_module
from table.games.reload import apply_change, plan_change
from table.games.rule_sources import effective, shadow_warnings
from table.games.setup import new_table
from table.games.watch import DraftWatcher, Reloaded

REPO = Path(__file__).resolve().parents[2]
CAP_RULES = {"DTR-FAVOR-CAP", "DTR-FAVOR-OVERCAP-LOST"}


def _draft(tmp_path: Path, game: str) -> Path:
    root = tmp_path / "draft" / game
    shutil.copytree(REPO / "assets" / game, root)
    _edit(root / "game.toml", r'^version = "([^"]+)"', r'version = "\1-draft"')
    return root


def _edit(path: Path, pattern: str, repl: str) -> None:
    text, n = re.subn(pattern, repl, path.read_text(encoding="utf-8"), count=1, flags=re.M)
    assert n == 1, pattern
    path.write_text(text, encoding="utf-8")


def _every_crown_sets(root: Path, column: str, value: str) -> None:
    """The module as it shipped before: every Crown row repeats the number in its column."""
    path = root / "cards.csv"
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    at = rows[0].index(column)
    for row in rows[1:]:
        if row[2] == "Crown" and not row[at]:
            row[at] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")


def _dtr_flags(r: Replica, module) -> list[str]:  # type: ignore[no-untyped-def]
    runner = AssistRunner.for_replica(r, module, load_plugin("dead-to-rites", []), seat=ALL)
    return [e.flag.rule for e in runner.entries(include_acked=True, include_undone=True)]


def _gain_to(r: Replica, seat: int, favor: int) -> None:
    """The seat's Dawns, one Favor each, up to `favor` (legal while under the cap)."""
    act.mark(r, "phase", value="Dawn", seat=seat)
    counter = r.state.objs[f"p{seat}.favor"]
    while counter.counters.get("value", 0) < favor:
        act.counter(r, f"p{seat}.favor", add=1, seat=seat)


def test_the_shipped_module_states_the_favor_cap_once() -> None:
    from table.games import find_module

    module = find_module("dead-to-rites")
    assert shadow_warnings(module) == []
    crowns = {c.name: c for c in module.cards.values() if c.type == "Crown"}
    assert effective(module, "favor_cap", crowns["Hollow Market"]) == 7
    assert effective(module, "favor_cap", crowns["Ember Court"]) == 6
    assert effective(module, "blocked_draw", crowns["Grave Choir"]) == 3
    assert effective(module, "blocked_draw", crowns["Last Vigil"]) == 2
    favor = {c.id: c.max for c in module.counters_for(4)}
    assert favor["p1.favor"] == 6 and favor["p1.step"] == 5  # both from [rules]


def test_a_favor_cap_7_draft_played_legally_to_7_raises_no_cap_flag(tmp_path: Path) -> None:
    root = _draft(tmp_path, "dead-to-rites")
    _edit(root / "game.toml", r"^favor_cap = 6\b", "favor_cap = 7")
    draft = load_module(root)
    ember = load_deck(draft, (root / "decks" / "ember-court.txt").read_text(encoding="utf-8"))
    r = new_table(draft, 4, {s: ember for s in range(1, 5)}, rng=Rng(3))
    assert r.state.objs["p1.favor"].props["max"] == 7  # the table's tracker follows the rule
    _gain_to(r, 1, 7)
    assert not CAP_RULES & set(_dtr_flags(r, draft))
    act.counter(r, "p1.favor", add=1, seat=1)  # 8 is over the draft's cap
    assert "DTR-FAVOR-OVERCAP-LOST" in _dtr_flags(r, draft)


def test_validate_warns_where_every_crown_shadows_the_rule(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    root = _draft(tmp_path, "dead-to-rites")
    _edit(root / "game.toml", r"^favor_cap = 6\b", "favor_cap = 7")
    _every_crown_sets(root, "favor_cap", "6")
    assert main(["validate", str(root)]) == 0  # it loads: a warning, not a problem
    out = capsys.readouterr().out
    line = next(i for i, text in enumerate((root / "game.toml").read_text().splitlines(), 1)
                if text.startswith("favor_cap = 7"))
    assert (f"dead-to-rites/game.toml:{line}: warning: rules favor_cap = 7 has no effect: "
            "every Crown's favor_cap column sets it") in out
    assert "(1 warning(s))" in out
    # and the assist does what the module says: the Crown's 6 wins, so 7 Favor is over it
    draft = load_module(root)
    ember = load_deck(draft, (root / "decks" / "ember-court.txt").read_text(encoding="utf-8"))
    r = new_table(draft, 4, {s: ember for s in range(1, 5)}, rng=Rng(3))
    _gain_to(r, 1, 7)
    assert "DTR-FAVOR-OVERCAP-LOST" in _dtr_flags(r, draft)


def test_validate_names_a_crown_repeating_the_rule_on_its_row(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _draft(tmp_path, "dead-to-rites")
    _edit(root / "cards.csv", r"^(grave-choir,Grave Choir,Crown,Grave Choir,,,,,false,false,"
          r"false,false,,),", r"\1,6")  # favor_cap 6 on Grave Choir's row
    assert main(["validate", str(root)]) == 0
    out = capsys.readouterr().out
    row = next(i for i, text in enumerate((root / "cards.csv").read_text().splitlines(), 1)
               if text.startswith("grave-choir,"))
    assert (f"dead-to-rites/cards.csv:{row}: warning: Crown Grave Choir: favor_cap 6 repeats "
            "rules favor_cap = 6") in out


@pytest.mark.parametrize(("toml", "message"), [
    ('[rules.overrides]\nfavor_cap = { card_type = "Crown", column = "no_such" }',
     "[rules.overrides] favor_cap: 'no_such' is not an int column"),
    ('[rules.overrides]\nno_rule = { card_type = "Crown", column = "favor_cap" }',
     "[rules.overrides] no_rule: [rules] gives no 'no_rule' to override"),
])
def test_a_bad_override_names_its_line(tmp_path: Path, toml: str, message: str) -> None:
    root = _draft(tmp_path, "dead-to-rites")
    text = (root / "game.toml").read_text(encoding="utf-8")
    text = re.sub(r"(?ms)^\[rules\.overrides\]\n.*?\n\n", toml + "\n\n", text, count=1)
    (root / "game.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ModuleError) as err:
        load_module(root)
    assert any(message in str(p) and p.line > 0 for p in err.value.problems), err.value


def test_a_counter_max_stated_twice_is_a_problem(tmp_path: Path) -> None:
    root = _draft(tmp_path, "dead-to-rites")
    _edit(root / "game.toml", r"^max_from = \{ rule = \"step_max\" \}", 'max = 5\n'
          'max_from = { rule = "step_max" }')
    with pytest.raises(ModuleError, match="both give its maximum"):
        load_module(root)


def test_the_watcher_warns_when_the_drafts_change_is_shadowed(tmp_path: Path) -> None:
    root = _draft(tmp_path, "dead-to-rites")
    _every_crown_sets(root, "favor_cap", "6")
    old = load_module(root)
    r = new_table(old, 4, rng=Rng(3))
    now = [0.0]
    watcher = DraftWatcher(r, old, root, settle=0.1, clock=lambda: now[0])
    _edit(root / "game.toml", r"^favor_cap = 6\b", "favor_cap = 7")
    assert watcher.poll() is None
    now[0] += 1
    event = watcher.poll()
    assert isinstance(event, Reloaded) and event.change.rules == {"favor_cap": (6, 7)}
    assert event.warnings == ["rules favor_cap = 7 has no effect: every Crown's favor_cap "
                              "column sets it (leave the column empty where the rule should "
                              "apply)"]


def test_a_cap_changed_mid_session_is_judged_by_the_value_in_force(tmp_path: Path) -> None:
    root = _draft(tmp_path, "dead-to-rites")
    old = load_module(root)
    ember = load_deck(old, (root / "decks" / "ember-court.txt").read_text(encoding="utf-8"))
    r = new_table(old, 4, {s: ember for s in range(1, 5)}, rng=Rng(3))
    _gain_to(r, 1, 7)  # over 6: flagged under the first version
    assert _dtr_flags(r, old).count("DTR-FAVOR-OVERCAP-LOST") == 1
    act.counter(r, "p1.favor", value=5, seat=1)
    _edit(root / "game.toml", r"^favor_cap = 6\b", "favor_cap = 7")
    _edit(root / "game.toml", r'^version = "([^"]+)"', r'version = "\1-2"')
    new = load_module(root)
    apply_change(r, plan_change(old, new, r))
    assert r.state.objs["p1.favor"].props["max"] == 7
    _gain_to(r, 1, 7)  # legal under the new version
    assert _dtr_flags(r, old).count("DTR-FAVOR-OVERCAP-LOST") == 1


def test_a_gauntlet_draft_with_hand_limit_4_raises_nothing_on_4_card_hands(
        tmp_path: Path) -> None:
    root = _draft(tmp_path, "gauntlet")
    _edit(root / "game.toml", r"^hand_limit = 3$", "hand_limit = 4")
    draft = load_module(root)
    r = new_table(draft, 2, rng=Rng(8))
    for _ in range(4):
        seat = r.state.turn["seat"]
        hand = r.state.objs[f"p{seat}.hand"]
        while len(hand.children) < 4:
            act.draw(r, f"p{seat}.deck", f"p{seat}.hand", 1, seat=seat)
        act.mark(r, "turn", for_seat=3 - seat, seat=seat)
    runner = AssistRunner.for_replica(r, draft, load_plugin("gauntlet", []), seat=ALL)
    assert [e.flag.rule for e in runner.entries() if e.flag.rule == "GAU-HAND-LIMIT"] == []
    seat = r.state.turn["seat"]
    act.draw(r, f"p{seat}.deck", f"p{seat}.hand", 2, seat=seat)  # 5 cards: over the draft's 4
    act.mark(r, "turn", for_seat=3 - seat, seat=seat)
    assert [e.flag.rule for e in runner.entries()].count("GAU-HAND-LIMIT") == 1
