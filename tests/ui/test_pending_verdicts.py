"""A verdict that waits on later moves, in the window, by real mouse and keyboard: a Champion
dragged into play unpaid shows at once as a muted "pending" row in the assist panel (no badge,
no log mark); the next move that pays nothing (N: the next phase) turns it into a flag at the
play, with its badge; a Champion paid for right after (the Favor tracker's -) leaves nothing.
The panel shows a rule's section whole, and the badge's text uses no glyph the font lacks."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

from tests.ui.helpers import cards_in, click, drag, show_active


@pytest.fixture
def dtr(qtbot):  # type: ignore[no-untyped-def]
    from table.core import actions as act
    from table.core.rng import Rng
    from table.ui.games import available_games, start_game
    from table.ui.main_window import TableWindow

    game = {g.id: g for g in available_games()}["dead-to-rites"]
    replica, catalog = start_game(game, 4, rng=Rng(11))
    act.mark(replica, "phase", value="Main", seat=1)  # the situation: seat 1's Main, 3 Favor
    act.counter(replica, "p1.favor", value=3, seat=1)
    w = TableWindow(replica, catalog)
    show_active(qtbot, w, (1600, 1000))
    w.view.fit_table()
    w.view.setFocus()
    w.docks["assist"].raise_()
    yield w
    w.shutdown()


def _rows(w):  # type: ignore[no-untyped-def]
    tree = w.assist.tree
    return [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]


def _champion(w, name: str) -> str:  # type: ignore[no-untyped-def]
    module = w.ctl.catalog.module
    for handle in cards_in(w.replica, "p1.hand"):
        card = w.replica.state.objs[handle].card or w.replica.knowledge.card_of(handle)
        if module.cards[card].name == name:
            return handle
    raise AssertionError(f"no {name} in hand")


def _play(w, qtbot, name: str) -> str:  # type: ignore[no-untyped-def]
    """Drag the named card from the hand to the play area; its handle in play."""
    item = w.scene.cards[_champion(w, name)]
    item.setZValue(10_000)  # nothing of the fan covers it where the drag starts
    before = set(cards_in(w.replica, "p1.play"))
    drag(w.view, item.scenePos(), w.scene.layout.rects["p1.play"].center())
    (played,) = set(cards_in(w.replica, "p1.play")) - before
    return played


def test_unpaid_play_is_pending_then_flagged_and_paying_clears_it(dtr, qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.ui.panels.flag_list import MUTED_ROLE

    w = dtr
    played = _play(w, qtbot, "Brand Guard")  # cost 2, nothing paid
    qtbot.waitUntil(lambda: len(_rows(w)) == 1)
    (row,) = _rows(w)
    assert (row.text(1), row.text(2)) == ("pending", "DTR-PLAY-COST")
    assert "unpaid so far" in row.text(3) and row.data(0, MUTED_ROLE)
    assert w.scene.cards[played].flag_severity is None  # no badge while it is open
    assert not w.assist.ack_effect.isEnabled()
    last_line = w.log_panel.list.item(w.log_panel.list.count() - 1)
    assert "⚑" not in last_line.text()  # the log records settled verdicts only

    w.view.setFocus()
    qtbot.keyClick(w.view, Qt.Key.Key_N)  # the next phase: pays nothing, the payment is over
    assert w.replica.state.phase == "Combat"
    qtbot.waitUntil(lambda: [r.text(1) for r in _rows(w)] == ["error"])
    (row,) = _rows(w)
    assert row.text(2) == "DTR-PLAY-COST" and not row.data(0, MUTED_ROLE)
    assert "paid 0 Favor; it costs 2" in row.text(3)
    entry = w.assist_runner.entries()[0]
    assert entry.ref == w.replica.records()[-2].op.ref  # laid at the play, not the marker
    assert w.scene.cards[played].flag_severity == "error"

    # a second Champion, paid for right after it is played: nothing stays
    played = _play(w, qtbot, "Scorch Initiate")  # cost 1
    qtbot.waitUntil(lambda: [r.text(1) for r in _rows(w)] == ["error", "pending"])
    tracker = w.scene.trackers["p1.favor"]
    click(w.view, tracker.mapToScene(tracker.minus_rect().center()))
    assert w.replica.state.objs["p1.favor"].counters["value"] == 2
    qtbot.waitUntil(lambda: [r.text(1) for r in _rows(w)] == ["error"])
    w.view.setFocus()
    qtbot.keyClick(w.view, Qt.Key.Key_N)
    qtbot.wait(50)
    w.refresh_panels()
    assert [r.text(1) for r in _rows(w)] == ["error"]
    assert w.scene.cards[played].flag_severity is None


def test_the_section_is_whole_and_the_badge_text_has_every_glyph(dtr, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = dtr
    played = _play(w, qtbot, "Ashen Colossus")  # cost 4 with 3 Favor: flagged
    w.view.setFocus()
    qtbot.keyClick(w.view, Qt.Key.Key_N)
    qtbot.waitUntil(lambda: [r.text(1) for r in _rows(w)] == ["error"])
    tree = w.assist.tree
    (row,) = _rows(w)
    section = row.text(4)
    assert section == "Key terms"
    delegate = tree.itemDelegate()
    index = tree.indexFromItem(row)
    metrics = QFontMetrics(tree.font())
    rect = delegate.section_rect(tree.viewport().width(), index, metrics)
    assert rect.height() >= metrics.height()  # a line of its own, below the message
    assert tree.visualItemRect(row).height() >= rect.bottom()  # the row holds it whole
    tip = w.scene.cards[played].toolTip()
    assert tip.startswith("Error: DTR-PLAY-COST (Key terms)")
    font = QFontMetrics(w.scene.cards[played].font() if hasattr(w.scene.cards[played], "font")
                        else QApplication.font())
    assert all(font.inFontUcs4(ord(ch)) for ch in tip if not ch.isspace()), tip
