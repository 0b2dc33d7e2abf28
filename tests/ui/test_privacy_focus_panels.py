"""Hot-seat privacy, the keys after typing, and the assist panel in a narrow dock, driven with
real mouse clicks and key presses at the widgets' and pieces' on-screen positions.

Keys go where a window system sends them: to the application's focus widget."""
from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QTabBar, QToolBar, QWidget

from table.core.rng import Rng
from table.games import find_module
from table.games.setup import new_table
from table.ui.catalog import Catalog
from table.ui.main_window import TableWindow
from table.ui.sample import sample_catalog, sample_table
from table.ui.settings import Settings
from tests.ui.helpers import cards_in, click, show_active

LEFT = Qt.MouseButton.LeftButton


def _press(qtbot, key, mods=Qt.KeyboardModifier.NoModifier) -> None:  # type: ignore[no-untyped-def]
    target = QApplication.focusWidget()
    assert target is not None
    qtbot.keyClick(target, key, mods)


def _show(qtbot, w: TableWindow, size: tuple[int, int] = (1366, 740)) -> TableWindow:  # type: ignore[no-untyped-def]
    show_active(qtbot, w, size)
    return w


def _hot_seat(qtbot, settings: Settings | None = None) -> TableWindow:  # type: ignore[no-untyped-def]
    return _show(qtbot, TableWindow(sample_table(2), sample_catalog(),
                                    settings=settings or Settings.load()))


def _on_top(w: TableWindow, widget: QWidget) -> QWidget | None:
    """The widget a click at the middle of `widget` reaches."""
    return w.childAt(widget.mapTo(w, widget.rect().center()))


def _tab(w: TableWindow, text: str) -> tuple[QTabBar, int]:
    for bar in w.findChildren(QTabBar):
        for i in range(bar.count()):
            if bar.tabText(i).startswith(text):
                return bar, i
    raise AssertionError(f"no tab {text!r}")


def _click_tab(qtbot, w: TableWindow, text: str) -> None:  # type: ignore[no-untyped-def]
    bar, i = _tab(w, text)
    qtbot.mouseClick(bar, LEFT, pos=bar.tabRect(i).center())


def _behind_curtain(w: TableWindow, name: str) -> None:
    assert w.curtain.isVisible() and w.curtain.name == name
    for covered in (w.view, w.preview, w.log_panel):
        hit = _on_top(w, covered)
        assert hit is w.curtain, f"{covered!r} shows through the curtain ({hit!r})"


def test_the_curtain_is_on_by_default_and_end_turn_passes_through_it(qtbot) -> None:  # type: ignore[no-untyped-def]
    w = _hot_seat(qtbot)
    try:
        assert w.act_curtain.isChecked()
        assert not w.curtain.isVisible()  # the first player is at the laptop already
        qtbot.mouseClick(w.turn.end_turn, LEFT)  # the End turn button, where it is
        assert w.ctl.seat == 2
        _behind_curtain(w, "East")
        n = len(w.replica.records())
        _press(qtbot, Qt.Key.Key_D)  # no table key reaches the table behind the curtain
        _press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # nor a shortcut
        _press(qtbot, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        assert len(w.replica.records()) == n and w.ctl.seat == 2 and w.curtain.isVisible()
        qtbot.mouseClick(w.curtain, LEFT, pos=w.curtain.rect().center())
        assert not w.curtain.isVisible()
        qtbot.waitUntil(lambda: QApplication.focusWidget() in (w.view, w.view.viewport()))
        _press(qtbot, Qt.Key.Key_D)
        assert len(cards_in(w.replica, "p2.hand")) == 6
    finally:
        w.shutdown()


def test_looking_at_another_seats_hand_during_a_turn_goes_through_the_curtain(qtbot) -> None:  # type: ignore[no-untyped-def]
    w = _hot_seat(qtbot)
    try:
        assert w.replica.state.turn["seat"] == 1
        _press(qtbot, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)  # North's turn
        assert w.ctl.seat == 2
        _behind_curtain(w, "East")
        _press(qtbot, Qt.Key.Key_Space)
        assert not w.curtain.isVisible()
        east = cards_in(w.replica, "p2.hand")
        assert all(w.scene.cards[c].face is not None for c in east)
        _click_tab(qtbot, w, "North")  # the seat bar's tab: the same curtain
        assert w.ctl.seat == 1
        _behind_curtain(w, "North")
    finally:
        w.shutdown()


def test_turning_the_curtain_off_is_remembered(qtbot) -> None:  # type: ignore[no-untyped-def]
    w = _hot_seat(qtbot)
    try:
        bar = w.findChild(QToolBar, "toolbar-table")
        button = bar.widgetForAction(w.act_curtain)
        qtbot.mouseClick(button, LEFT)
        assert not w.act_curtain.isChecked()
        assert Settings.load().extra["curtain"] is False
    finally:
        w.shutdown()
    w = _hot_seat(qtbot)
    try:
        assert not w.act_curtain.isChecked()
        _press(qtbot, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
        assert w.ctl.seat == 2 and not w.curtain.isVisible()
    finally:
        w.shutdown()


def test_esc_after_sending_a_chat_message_gives_the_table_its_keys(qtbot) -> None:  # type: ignore[no-untyped-def]
    w = _hot_seat(qtbot)
    try:
        _click_tab(qtbot, w, "Chat")
        qtbot.waitUntil(lambda: w.chat.entry.isVisible())
        qtbot.mouseClick(w.chat.entry, LEFT, pos=w.chat.entry.rect().center())
        assert QApplication.focusWidget() is w.chat.entry
        qtbot.keyClicks(w.chat.entry, "good luck")
        _press(qtbot, Qt.Key.Key_Return)
        assert w.replica.records()[-1].op.args["text"] == "good luck"
        assert QApplication.focusWidget() is w.chat.entry  # ready for the next line
        hand = len(cards_in(w.replica, "p1.hand"))
        _press(qtbot, Qt.Key.Key_Escape)
        assert QApplication.focusWidget() in (w.view, w.view.viewport())
        _press(qtbot, Qt.Key.Key_D)  # draws: does not type "d"
        assert w.chat.entry.text() == ""
        assert len(cards_in(w.replica, "p1.hand")) == hand + 1
        # the log's filter box too
        _click_tab(qtbot, w, "Log")
        box = w.log_panel.findChild(type(w.chat.entry))
        assert box is not None
        qtbot.waitUntil(box.isVisible)
        qtbot.mouseClick(box, LEFT, pos=box.rect().center())
        assert QApplication.focusWidget() is box
        qtbot.keyClicks(box, "drew")
        _press(qtbot, Qt.Key.Key_Escape)
        assert QApplication.focusWidget() in (w.view, w.view.viewport())
        _press(qtbot, Qt.Key.Key_D)
        assert box.text() == "drew" and len(cards_in(w.replica, "p1.hand")) == hand + 2
    finally:
        w.shutdown()


def _row_has_ink(image, row: QRect, band: tuple[float, float]) -> bool:  # type: ignore[no-untyped-def]
    """Text pixels (far from the row's background) in a horizontal band of the row."""
    back = image.pixelColor(row.left() + 1, row.bottom() - 1)
    top, bottom = int(row.top() + row.height() * band[0]), int(row.top() + row.height() * band[1])
    for y in range(top, bottom):
        for x in range(row.left() + 4, row.right() - 4):
            c = image.pixelColor(x, y)
            if abs(c.lightness() - back.lightness()) > 60:
                return True
    return False


def test_the_assist_panel_wraps_each_message_and_names_seats_as_the_table_does(qtbot) -> None:  # type: ignore[no-untyped-def]
    module = find_module("dead-to-rites")
    replica = new_table(module, 4, rng=Rng(3), peer_id="hot", table_id="t")
    held = replica.state.seats[1]  # a player who took a long name: the message must wrap
    replica.issue("seat", {"seat": 1, "name": "Ada of the Hollow Market", "colour": held.colour},
                  seat=1)
    w = _show(qtbot, TableWindow(replica, Catalog.from_module(module)))
    try:
        tracker = w.scene.trackers["p1.favor"]
        plus = tracker.plus_rect().center()
        assert w.view.viewport().rect().contains(w.view.mapFromScene(plus))
        for _ in range(8):  # past the cap of 6
            click(w.view, plus)
        assert replica.state.objs["p1.favor"].counters["value"] > 6
        _click_tab(qtbot, w, "Rules assist")
        tree = w.assist.tree
        qtbot.waitUntil(lambda: tree.topLevelItemCount() >= 1)
        item = next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
                    if tree.topLevelItem(i).text(2) == "DTR-FAVOR-CAP")
        message = item.text(3)
        seat_name = w.ctl.seat_name(1)
        assert seat_name == "Ada of the Hollow Market"
        assert message.startswith(f"{seat_name} has ") and "Seat 1" not in message
        assert seat_name in w.seat_bar.tabText(0)  # the same name as the seat's tab
        qtbot.waitUntil(lambda: tree.visualItemRect(item).height() > 0)
        row = tree.visualItemRect(item)
        width = tree.viewport().width()
        assert row.width() == width  # one row across the whole dock
        metrics = QFontMetrics(tree.font())
        one_line = metrics.height()
        assert metrics.horizontalAdvance(message) > width  # the dock is too narrow for one line
        wrapped = metrics.boundingRect(QRect(0, 0, width - 12, 100_000),
                                       int(Qt.TextFlag.TextWordWrap), message).height()
        assert wrapped >= 2 * one_line and row.height() >= wrapped + one_line  # all of it
        image = tree.viewport().grab().toImage()
        assert _row_has_ink(image, row, (0.75, 0.95))  # its last line is drawn, not cut off
        # a wider dock: fewer lines, a shorter row
        w.resizeDocks([w.docks["assist"]], [700], Qt.Orientation.Horizontal)
        qtbot.waitUntil(lambda: tree.viewport().width() > width + 100)
        qtbot.waitUntil(lambda: tree.visualItemRect(item).height() < row.height())
        # choosing the row (a click on its message) chooses the flag: acknowledge it
        at = tree.visualItemRect(item)
        qtbot.mouseClick(tree.viewport(), LEFT, pos=QPoint(at.center().x(), at.bottom() - 4))
        assert w.assist.ack_house.isEnabled()
        qtbot.mouseClick(w.assist.ack_house, LEFT)
        assert replica.records()[-1].op.kind == "ack"
    finally:
        w.shutdown()
