"""The Rules assist panel: flags appear, acknowledging issues an ack op, declarations, rollback."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from table.core.rng import Rng
from table.games import find_module
from table.games.setup import new_table
from table.ui.catalog import Catalog


def _window(qtbot):  # type: ignore[no-untyped-def]
    from table.ui.main_window import TableWindow

    module = find_module("dead-to-rites")
    replica = new_table(module, 4, rng=Rng(3), peer_id="hot", table_id="t")
    w = TableWindow(replica, Catalog.from_module(module))
    qtbot.addWidget(w)
    return w, replica


def test_flag_shows_and_acknowledge_issues_ack(qtbot) -> None:  # type: ignore[no-untyped-def]
    w, replica = _window(qtbot)
    assert w.assist_runner is not None and w.assist.tree.topLevelItemCount() == 0
    w.ctl.set_seat(1)
    replica.issue("counter", {"id": "p1.favor", "value": 9}, seat=1)
    w.refresh_panels()
    item = w.assist.tree.topLevelItem(0)
    assert item.text(2) == "DTR-FAVOR-CAP" and item.text(1) == "error"
    assert item.text(4) == "Turn structure"
    w.assist.tree.setCurrentItem(item)
    qtbot.mouseClick(w.assist.ack_house, qtbot_button())
    assert replica.records()[-1].op.kind == "ack"
    assert replica.records()[-1].op.args["reason"] == "house rule"
    w.refresh_panels()
    assert w.assist.tree.topLevelItemCount() == 0


def test_rollback_shows_recomputed_flags(qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.core.ops import Op

    w, replica = _window(qtbot)
    replica.issue("counter", {"id": "p1.favor", "value": 9}, seat=1)
    w.refresh_panels()
    assert w.assist.tree.topLevelItemCount() == 1
    # a remote op that sorts before ours (lower lamport) arrives late: the runner recomputes
    last = replica.records()[-1].op
    late = Op("zz-remote", 1, last.lamport - 1, "hello", {"name": "late"}, {}, 0.0, None)
    replica.timeline.insert(late)
    w.refresh_panels()
    assert [w.assist.tree.topLevelItem(i).text(2)
            for i in range(w.assist.tree.topLevelItemCount())] == ["DTR-FAVOR-CAP"]
    assert w.assist_runner.entries()[0].index == len(replica.records()) - 1


def test_declare_menu_lists_plugin_declarations(qtbot) -> None:  # type: ignore[no-untyped-def]
    w, replica = _window(qtbot)
    labels = [a.text() for a in w.declare_menu.actions()]
    assert labels[0].startswith("Card effect") and any(t.startswith("Attack") for t in labels)
    spec = next(s for s in w.assist_runner.declarations if s.name == "attack")
    w.ctl.set_seat(1)
    w.declare(spec, {"attacker": "x", "target": "y"})
    op = replica.records()[-1].op
    assert op.kind == "mark" and op.args["value"] == "attack"
    assert op.args["fields"] == {"attacker": "x", "target": "y"}


def test_plugin_that_raises_is_disabled_with_notice(qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    w, _replica = _window(qtbot)

    def boom(ctx):  # type: ignore[no-untyped-def]
        raise RuntimeError("bug in plugin")

    monkeypatch.setattr(w.assist_runner.plugin, "check", boom)  # the shared plugin instance
    # a declaration (a mark): every plugin is asked about marks (a note it may never flag)
    spec = next(s for s in w.assist_runner.declarations if s.name == "attack")
    w.ctl.set_seat(1)
    w.declare(spec, {"attacker": "x", "target": "y"})
    w.refresh_panels()
    assert "disabled" in w.assist.notice.text() and "bug in plugin" in w.assist.notice.text()


def qtbot_button():  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt
    return Qt.MouseButton.LeftButton


def test_flagged_card_wears_a_badge_and_its_log_line_names_the_rule(qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.core import actions

    w, replica = _window(qtbot)
    w.ctl.set_seat(1)
    wrong_rite = replica.state.objs["p1.rites"].children[0]  # the bottom Rite, not the next one
    actions.move(replica, wrong_rite, "altar", seat=1)
    w.refresh_panels()
    item = w.scene.cards[wrong_rite]
    assert item.flag_severity == "error" and "DTR-RITE-NEXT" in item.toolTip()
    last_line = w.log_panel.list.item(w.log_panel.list.count() - 1)
    assert "⚑ DTR-RITE-NEXT" in last_line.text()
    tip = last_line.toolTip().splitlines()  # the whole line (a laptop's panel cuts it), the flag
    assert tip[0] == last_line.text() and tip[1].startswith("DTR-RITE-NEXT (")
    # acknowledged: the badge and the log mark go
    entry = w.assist_runner.entries()[0]
    replica.issue("ack", {"flag": entry.flag.key, "reason": "card effect"}, seat=1)
    w.refresh_panels()
    assert item.flag_severity is None
    assert "⚑" not in w.log_panel.list.item(w.log_panel.list.count() - 2).text()



def test_undoing_a_flagged_move_clears_its_flag(qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.core import actions

    w, replica = _window(qtbot)
    w.ctl.set_seat(1)
    wrong_rite = replica.state.objs["p1.rites"].children[0]
    actions.move(replica, wrong_rite, "altar", seat=1)
    w.refresh_panels()
    assert [e.flag.rule for e in w.assist.entries] == ["DTR-RITE-NEXT"]  # its cost: pending
    w.ctl.undo()
    w.refresh_panels()
    assert w.assist.tree.topLevelItemCount() == 0
    assert w.scene.cards[wrong_rite].flag_severity is None


def test_undo_after_a_draw_takes_back_the_draw_not_something_older(qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.core import actions

    w, replica = _window(qtbot)
    w.ctl.set_seat(1)
    messages: list[str] = []
    w.ctl.status.connect(messages.append)
    actions.counter(replica, "p1.favor", add=1, seat=1)
    deck = [replica.knowledge.card_of(c) for c in replica.state.cards_in("p1.deck")]
    actions.draw(replica, "p1.deck", "p1.hand", 1, seat=1)
    w.ctl.undo()
    assert messages[-1] == "Undone: the draw of a card from your Main deck"
    assert [replica.knowledge.card_of(c) for c in replica.state.cards_in("p1.deck")] == deck
    assert replica.state.objs["p1.favor"].counters["value"] == 1  # nothing older was undone


def test_attack_is_declared_by_clicking_the_attacker_then_the_target(qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QToolButton

    from tests.ui.helpers import choose_when_open, click

    w, replica = _window(qtbot)
    w.resize(1500, 950)
    w.show()
    qtbot.waitExposed(w)
    w.ctl.set_seat(1)
    w.view.fit_table()
    mine = replica.state.objs["p1.crown"].children[0]
    theirs = replica.state.objs["p2.crown"].children[0]
    button = next(b for b in w.findChildren(QToolButton) if b.text() == "Declare")
    choose_when_open("Attack (attacker -> target)")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.pointer.active)
    assert "attacker" in w.statusBar().currentMessage()
    n = len(replica.records())
    click(w.view, w.scene.cards[mine].scenePos())
    assert "target" in w.statusBar().currentMessage() and len(replica.records()) == n
    click(w.view, w.scene.cards[theirs].scenePos())
    op = replica.records()[-1].op
    assert op.kind == "mark" and op.args["value"] == "attack"
    assert op.args["fields"] == {"attacker": mine, "target": theirs}
    assert not w.pointer.active
    # Esc gives up without declaring anything
    choose_when_open("Attack (attacker -> target)")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.pointer.active)
    qtbot.keyClick(w.view, Qt.Key.Key_Escape)
    assert not w.pointer.active and len(replica.records()) == n + 1
    w.shutdown()


def test_checklist_ticks_setup_prompts_and_follows_the_phases(qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt

    w, replica = _window(qtbot)
    w.resize(1500, 950)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()  # keyboard shortcuts need the active window
    qtbot.waitUntil(lambda: w.isActiveWindow())
    w.docks["checklist"].raise_()
    lst = w.checklist.list
    texts = [lst.item(i).text() for i in range(lst.count())]
    mulligans = [t for t in texts if "Mulligan" in t]
    assert len(mulligans) == 4 and all(t.startswith("○") for t in mulligans)
    row = next(i for i in range(lst.count()) if "Mulligan" in lst.item(i).text())
    rect = lst.visualItemRect(lst.item(row))
    qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    op = replica.records()[-1].op
    assert op.kind == "mark" and op.args["what"] == "setup" and op.args["value"] == "done"
    w.refresh_panels()
    assert lst.item(row).text().startswith("✓")
    w.turn.end_turn.click()  # the turn starts: its phases are listed, the first one current
    w.refresh_panels()
    texts = [lst.item(i).text() for i in range(lst.count())]
    assert "▶  Dawn" in texts and any(t.startswith("○  Main") and "next" in t for t in texts)
    assert w.curtain.isVisible()  # hot-seat: the next player opens the curtain first
    qtbot.keyClick(w.curtain, Qt.Key.Key_Space)
    qtbot.keyClick(w.view, Qt.Key.Key_N)
    w.refresh_panels()
    texts = [lst.item(i).text() for i in range(lst.count())]
    assert "✓  Dawn" in texts and "▶  Main" in texts
    w.shutdown()


def test_a_chosen_not_on_the_arena_badge_leaves_once_the_standee_is_dragged_there(qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QPointF, Qt

    from assist.api import AssistView, GameInfo
    from assist.mantle_of_the_keeper.board import read_board
    from table.ui.layout import CELL, LABEL, PAD
    from tests.ui.helpers import drag
    from tests.ui.test_games import _open

    w = _open(qtbot, "mantle-of-the-keeper", 3)
    try:
        runner = w.assist_runner
        assert runner is not None
        qtbot.keyClick(w.view, Qt.Key.Key_N)  # the first phase: play begins, standees are off
        w.refresh_panels()

        def badge(seat: int) -> list[str]:
            return [f.message for f in runner.flags_by_object().get(f"p{seat}.standee", [])]

        assert any("not on the arena" in m for m in badge(1))
        standee = w.scene.tokens["p1.standee"]
        assert standee.flag_severity is not None  # the badge on the standee
        board = read_board(AssistView(w.replica.state), GameInfo(runner.module, 3))
        assert board is not None
        taken = set(board.standees.values())
        cell = next((c, r) for r in range(board.rows) for c in range(board.cols)
                    if (c, r) not in board.obstacles and (c, r) not in taken
                    and (c, r) not in board.hazards.values()
                    and board.tile_of((c, r)) not in {board.tile_of(t) for t in taken})
        arena = w.scene.zones["arena"]  # the board's own units (drawn smaller on a small screen)
        target = arena.mapToScene(arena.rect.topLeft() + QPointF(
            PAD + (cell[0] + 0.5) * CELL, LABEL + PAD + (cell[1] + 0.5) * CELL))
        drag(w.view, standee.scenePos(), target)
        assert w.replica.state.objs["p1.standee"].container == "arena"
        w.refresh_panels()
        assert not any("not on the arena" in m for m in badge(1))  # the badge says no more
        assert any("not on the arena" in m for m in badge(2))  # the others are still off
        tree = w.assist.tree
        texts = [tree.topLevelItem(i).text(3) for i in range(tree.topLevelItemCount())]
        assert not any("Player 1" in t and "not on the arena" in t for t in texts), texts
        kept = runner.entries(include_resolved=True)
        assert any("not on the arena" in e.flag.message and "p1.standee" in e.flag.objects
                   for e in kept)  # the history keeps it
    finally:
        w.shutdown()
