"""Focus follows the player, and a hot-seat table shows each seat only its own view.

Keys go where a window system sends them: to the application's focus widget."""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from table.ui.main_window import TableWindow
from table.ui.sample import sample_catalog, sample_table
from tests.ui.helpers import answer_next_dialog, cards_in, choose, click, right_click, show_active


def _press(qtbot, key, mods=Qt.KeyboardModifier.NoModifier):  # type: ignore[no-untyped-def]
    target = QApplication.focusWidget()
    assert target is not None
    qtbot.keyClick(target, key, mods)


def _open(qtbot) -> TableWindow:  # type: ignore[no-untyped-def]
    w = TableWindow(sample_table(2), sample_catalog())
    show_active(qtbot, w, (1400, 900))
    return w


def test_a_key_right_after_the_window_opens_draws_a_card(qtbot):  # type: ignore[no-untyped-def]
    w = _open(qtbot)
    try:
        assert QApplication.focusWidget() in (w.view, w.view.viewport())
        _press(qtbot, Qt.Key.Key_D)
        assert len(cards_in(w.replica, "p1.hand")) == 6
    finally:
        w.shutdown()


def test_after_help_and_after_a_click_on_the_phase_box_keys_still_reach_the_table(qtbot):  # type: ignore[no-untyped-def]
    w = _open(qtbot)
    try:
        _press(qtbot, Qt.Key.Key_F1)
        assert w.help.isVisible()
        _press(qtbot, Qt.Key.Key_Escape)
        assert not w.help.isVisible()
        _press(qtbot, Qt.Key.Key_D)
        assert w.replica.state.phase == "Dawn"  # the phase box did not take the D (Dusk)
        assert len(cards_in(w.replica, "p1.hand")) == 6
        qtbot.mouseClick(w.turn.phase, Qt.MouseButton.LeftButton)
        qtbot.keyClick(w.turn.phase.view(), Qt.Key.Key_Escape)  # close its list
        _press(qtbot, Qt.Key.Key_D)
        assert w.replica.state.phase == "Dawn"
        assert len(cards_in(w.replica, "p1.hand")) == 7
        qtbot.mouseClick(w.turn.next_phase, Qt.MouseButton.LeftButton)
        _press(qtbot, Qt.Key.Key_N)  # after a button: N is still "next phase", once
        assert w.replica.state.phase == "Combat"
    finally:
        w.shutdown()


def test_after_a_dialog_from_a_menu_the_table_has_the_keys_again(qtbot):  # type: ignore[no-untyped-def]
    w = _open(qtbot)
    try:
        answer_next_dialog(qtbot, 2)
        right_click(w.view, w.scene.zones["p1.deck"].card_anchor())
        choose("Draw N cards…")
        assert len(cards_in(w.replica, "p1.hand")) == 7
        qtbot.waitUntil(lambda: QApplication.focusWidget() in (w.view, w.view.viewport()))
        _press(qtbot, Qt.Key.Key_D)
        assert len(cards_in(w.replica, "p1.hand")) == 8
    finally:
        w.shutdown()


def test_chat_typing_stays_in_chat(qtbot):  # type: ignore[no-untyped-def]
    w = _open(qtbot)
    try:
        w.docks["chat"].raise_()
        qtbot.mouseClick(w.chat.entry, Qt.MouseButton.LeftButton)
        w.chat.entry.setFocus()
        assert QApplication.focusWidget() is w.chat.entry
        n = len(w.replica.records())
        for key in (Qt.Key.Key_D, Qt.Key.Key_F):
            _press(qtbot, key)
        assert len(w.replica.records()) == n and w.chat.entry.text().lower() == "df"
    finally:
        w.shutdown()


def _hover(w, qtbot, pos: QPointF) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseMove(w.view.viewport(), w.view.mapFromScene(pos))


def test_the_next_seats_preview_is_empty_and_end_turn_undoes_as_one(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    mine = cards_in(w.replica, "p1.hand")[-1]
    _hover(w, qtbot, w.scene.cards[mine].scenePos())
    qtbot.waitUntil(lambda: w.preview.current == mine)
    assert w.preview.canvas.face is not None
    qtbot.keyClick(w.view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # End turn
    assert w.ctl.seat == 2 and w.replica.state.turn["seat"] == 2
    assert w.preview.current == "" and w.preview.canvas.face is None
    assert "Hover" in w.preview.caption.text()
    # Ctrl+Z takes the End turn back, whoever's view it is now
    qtbot.keyClick(w.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert w.replica.state.turn["seat"] == 1 and w.replica.state.phase == "Dawn"
    assert w.ctl.seat == 1


def test_undo_in_hot_seat_takes_back_the_other_seats_last_move(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    click(w.view, w.scene.trackers["p1.favor"].plus_rect().center())
    assert w.replica.state.objs["p1.favor"].counters["value"] == 1
    qtbot.keyClick(w, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)  # look as East
    assert w.ctl.seat == 2
    qtbot.keyClick(w.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert w.replica.state.objs["p1.favor"].counters["value"] == 0


def test_curtain_covers_the_table_between_turns(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    w.act_curtain.setChecked(True)
    qtbot.keyClick(w.view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert w.curtain.isVisible() and "East" in w.curtain.name
    assert w.curtain.geometry().contains(w.view.geometry())
    n = len(w.replica.records())
    _press(qtbot, Qt.Key.Key_D)  # the curtain keeps the table's keys until it opens
    assert len(w.replica.records()) == n
    _press(qtbot, Qt.Key.Key_Space)
    assert not w.curtain.isVisible()
    qtbot.waitUntil(lambda: QApplication.focusWidget() in (w.view, w.view.viewport()))
    _press(qtbot, Qt.Key.Key_D)
    assert len(cards_in(w.replica, "p2.hand")) == 6


def test_hover_zoom_shows_the_card_under_the_cursor_while_alt_is_held(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    cid = cards_in(w.replica, "p1.hand")[-1]
    _hover(w, qtbot, w.scene.cards[cid].scenePos())
    qtbot.keyPress(w.view, Qt.Key.Key_Alt, Qt.KeyboardModifier.AltModifier)
    assert w.view.hover_zoom.isVisible() and w.view.hover_zoom.obj_id == cid
    assert w.view.hover_zoom.width() > 300  # large enough to read the rules text
    qtbot.keyRelease(w.view, Qt.Key.Key_Alt)
    assert not w.view.hover_zoom.isVisible()
    # another seat's hidden card zooms as its back, never its face
    theirs = cards_in(w.replica, "p2.hand")[-1]
    _hover(w, qtbot, w.scene.cards[theirs].scenePos())
    qtbot.keyPress(w.view, Qt.Key.Key_Z)
    assert w.view.hover_zoom.isVisible() and w.scene.cards[theirs].face is None
    assert w.view.hover_zoom.obj_id == theirs
    qtbot.keyRelease(w.view, Qt.Key.Key_Z)
    click(w.view, w.scene.layout.bounds.topLeft() + QPointF(5, 5))


def test_flag_tooltips_and_assist_lines_never_name_a_card_the_seat_cannot_see(window, qtbot):  # type: ignore[no-untyped-def]
    from types import SimpleNamespace

    from table.ui.privacy import HIDDEN_NAME, flag_message

    w = window
    theirs = cards_in(w.replica, "p2.hand")[-1]
    name = w.ctl.catalog.name_of(w.replica.knowledge.card_of(theirs))
    flag = SimpleNamespace(rule="X-1", severity="warning", section="Hands",
                           message=f"{name} was played out of turn", objects=(theirs,))
    w.scene.show_flags({theirs: [flag]})
    assert name not in w.scene.cards[theirs].toolTip()
    assert HIDDEN_NAME in w.scene.cards[theirs].toolTip()
    qtbot.keyClick(w, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)  # East may see it
    assert name in w.scene.cards[theirs].toolTip()
    assert name in flag_message(w.ctl, flag)
