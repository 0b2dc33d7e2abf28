"""The rules assist of a table opened at the program's start comes once the table is on
screen (late_assist.py): it loses no flag, neither for a move made with the mouse then nor for
one made before it came."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from table.core.rng import Rng
from table.games import find_module
from table.games.setup import new_table
from table.ui.catalog import Catalog

from .helpers import drag


def _late_window(qtbot):  # type: ignore[no-untyped-def]
    from table.ui.main_window import TableWindow

    module = find_module("dead-to-rites")
    replica = new_table(module, 4, rng=Rng(3), peer_id="hot", table_id="t")
    w = TableWindow(replica, Catalog.from_module(module), assist_later=True)
    qtbot.addWidget(w)
    w.resize(1600, 1000)
    assert w.assist_runner is None  # not before the first frame
    return w, replica


def test_a_move_before_the_assist_came_is_flagged_once_it_comes(qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.core import actions

    w, replica = _late_window(qtbot)
    w.ctl.set_seat(1)
    wrong_rite = replica.state.objs["p1.rites"].children[0]  # the bottom Rite, not the next one
    actions.move(replica, wrong_rite, "altar", seat=1)
    w.show()
    qtbot.waitUntil(lambda: w.assist_runner is not None)
    qtbot.waitUntil(lambda: w.scene.cards[wrong_rite].flag_severity == "error")
    assert "DTR-RITE-NEXT" in w.scene.cards[wrong_rite].toolTip()
    assert [e.flag.rule for e in w.assist.entries] == ["DTR-RITE-NEXT"]  # (its cost: pending)
    assert w.declare_menu is not None and w.declare_menu.actions()  # its declarations came too


def test_the_first_illegal_move_made_with_the_mouse_is_flagged(qtbot) -> None:  # type: ignore[no-untyped-def]
    w, replica = _late_window(qtbot)
    w.show()
    qtbot.waitExposed(w)
    w.view.fit_table()
    w.ctl.set_seat(1)
    # seat 1 takes seat 2's next Rite to the altar: only the active player's Rite goes there
    rite = replica.state.objs["p2.rites"].children[-1]
    card, altar = w.scene.cards[rite], w.scene.zones["altar"]
    drag(w.view, card.sceneBoundingRect().center(), altar.sceneBoundingRect().center())
    assert replica.state.objs[rite].container == "altar"
    qtbot.waitUntil(lambda: card.flag_severity is not None)
    assert "DTR-RITE-ACTIVE-PLAYER" in card.toolTip()
    assert card.marks.isVisible()  # the badge is drawn


def test_the_flag_list_is_there_once_its_tab_is_chosen(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QTabBar

    w = window
    assert not w.assist.has_list  # behind the log's tab: not made for the first frame
    bar, index = next((b, i) for b in w.findChildren(QTabBar) for i in range(b.count())
                      if b.tabText(i) == "Rules assist")
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    qtbot.waitUntil(lambda: w.assist.has_list and w.assist.tree.isVisible())
