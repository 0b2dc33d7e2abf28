"""A draft edited during play: the change is recorded as an op, the assist judges each op by the
version in effect at its place, and a change that would lose something is refused."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from assist.runner import AssistRunner, load_plugin
from table.core import actions as act
from table.core.render import Renderer
from table.core.replica import Replica
from table.core.rng import Rng
from table.core.views import ALL
from table.games import ModuleError, load_module
from table.games.reload import apply_change, plan_change
from table.games.setup import new_table

REPO = Path(__file__).resolve().parents[2]


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "draft" / "gauntlet"
    shutil.copytree(REPO / "assets" / "gauntlet", root)
    return root


def _edit(path: Path, pattern: str, repl: str) -> None:
    text = path.read_text(encoding="utf-8")
    text, n = re.subn(pattern, repl, text, count=1, flags=re.M)
    assert n == 1, pattern
    path.write_text(text, encoding="utf-8")


def _turn_with(r: Replica, cards: int) -> None:
    seat = r.state.turn["seat"]
    hand = r.state.objs[f"p{seat}.hand"]
    while len(hand.children) < cards:
        act.draw(r, f"p{seat}.deck", f"p{seat}.hand", 1, seat=seat)
    while len(hand.children) > cards:
        act.move(r, hand.children[-1], f"p{seat}.discard", seat=seat)
    act.mark(r, "turn", for_seat=3 - seat, seat=seat)


def _hand_limit_flags(r: Replica, module) -> list[int]:  # type: ignore[no-untyped-def]
    runner = AssistRunner.for_replica(r, module, load_plugin("gauntlet", []), seat=ALL)
    return [e.number for e in runner.entries(include_acked=True, include_undone=True)
            if e.flag.rule == "GAU-HAND-LIMIT"]


def test_a_rules_change_applies_from_its_op_on(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    old = load_module(root)
    r = new_table(old, 2, log_path=tmp_path / "t.sandlog", rng=Rng(8))
    _turn_with(r, 4)  # over the limit of 3: flagged
    flagged_before = _hand_limit_flags(r, old)
    assert len(flagged_before) == 1
    _edit(root / "game.toml", r"^hand_limit = 3$", "hand_limit = 4")
    card = "general"
    _edit(root / "cards.csv", r"Forward\. Again\.", "Forward. Always.")
    new = load_module(root)
    change = plan_change(old, new, r)
    assert not change.refused
    assert change.rules == {"hand_limit": (3, 4)} and change.cards_changed == [card]
    apply_change(r, change)
    _turn_with(r, 4)  # legal now
    r.close()
    again = Replica.from_log(tmp_path / "t.sandlog")
    assert again.state.module["hash"] == new.content_hash
    # judged from the log alone: the first 4-card turn flagged, the second not
    assert _hand_limit_flags(again, old) == flagged_before
    line = Renderer(again.state, again.knowledge, ALL, None).line(
        next(rec for rec in again.records() if rec.op.kind == "module" and
             rec.op.args.get("changes")))
    assert "updated the module to Gauntlet" in line
    assert "1 card(s) changed" in line and "hand_limit 3 -> 4" in line


def test_removing_a_card_on_the_table_is_refused(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    old = load_module(root)
    r = new_table(old, 2, rng=Rng(1))
    seat = r.state.turn["seat"]
    in_hand = r.knowledge.card_of(r.state.objs[f"p{seat}.hand"].children[0])
    assert in_hand is not None
    lines = (root / "cards.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (root / "cards.csv").write_text("".join(ln for ln in lines
                                            if not ln.startswith(in_hand + ",")),
                                    encoding="utf-8")
    decks = root / "decks"
    shutil.rmtree(decks)  # the starter decks name the card too; a draft may drop them
    decks.mkdir()
    change = plan_change(old, load_module(root), r)
    assert any(in_hand in reason and "on the table" in reason for reason in change.refused)
    ops = len(r.records())
    with pytest.raises(ValueError, match="on the table"):
        apply_change(r, change)
    assert len(r.records()) == ops and r.state.module["hash"] == old.content_hash


def test_a_broken_edit_names_file_and_line_and_changes_nothing(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    old = load_module(root)
    r = new_table(old, 2, rng=Rng(1))
    with open(root / "cards.csv", "a", encoding="utf-8") as f:
        f.write('broken-card,"unterminated\n')
    with pytest.raises(ModuleError) as err:
        load_module(root)
    assert "cards.csv:" in str(err.value)
    assert r.state.module["hash"] == old.content_hash


def test_another_game_is_refused(tmp_path: Path) -> None:
    old = load_module(REPO / "assets" / "gauntlet")
    other = load_module(REPO / "assets" / "dead-to-rites")
    r = new_table(old, 2, rng=Rng(1))
    assert "this table plays 'gauntlet'" in plan_change(old, other, r).refused[0]


def test_the_watcher_reloads_a_settled_edit_and_reports_a_broken_one(tmp_path: Path) -> None:
    from table.games.watch import Broken, DraftWatcher, Reloaded

    root = _copy(tmp_path)
    old = load_module(root)
    r = new_table(old, 2, rng=Rng(3))
    now = [100.0]
    watcher = DraftWatcher(r, old, root, clock=lambda: now[0])
    assert watcher.poll() is None
    good = (root / "cards.csv").read_text(encoding="utf-8")
    with open(root / "cards.csv", "a", encoding="utf-8") as f:
        f.write('broken-card,"unterminated\n')
    assert watcher.poll() is None  # just changed: wait for it to settle
    now[0] += 1
    event = watcher.poll()
    assert isinstance(event, Broken) and any("cards.csv:" in p for p in event.problems)
    now[0] += 1
    assert watcher.poll() is None  # reported once, not at every poll
    assert r.state.module["hash"] == old.content_hash
    (root / "cards.csv").write_text(good, encoding="utf-8")
    _edit(root / "game.toml", r"^hand_limit = 3$", "hand_limit = 5")
    watcher.poll()
    now[0] += 1
    event = watcher.poll()
    assert isinstance(event, Reloaded) and event.change.rules == {"hand_limit": (3, 5)}
    assert r.state.module["hash"] == event.change.new.content_hash
