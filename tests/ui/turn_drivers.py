"""A whole turn of each game, played twice: by keys alone and by mouse alone.

A turn is a list of player actions (draw, play a card, engage it, move a piece, a counter +1, a
menu's Send to, the next phase, End turn). `Keys` plays each with real key events (QTest) sent to
whatever has the keyboard (the table, its menu) and records every key by its xdotool name, so
the very same keys can be sent to a real window from outside (tests/ui/test_keys_turns.py);
it finds how many Tabs and arrows reach a piece from where the table's keyboard focus is.
`Mouse` plays each with mouse events on the items and menu entries (a double-click, a drag, a
right-click then a click on the entry, a click on a button). Both name the same moves, so both
end in the same position.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu, QWidget

from tests.ui.helpers import click, drag, right_click

K = Qt.Key
XNAMES = {K.Key_Tab: "Tab", K.Key_Backtab: "shift+Tab", K.Key_Right: "Right",
          K.Key_Left: "Left", K.Key_Home: "Home", K.Key_End: "End", K.Key_Return: "Return",
          K.Key_Menu: "Menu", K.Key_Down: "Down", K.Key_Plus: "plus", K.Key_Minus: "minus",
          K.Key_D: "d", K.Key_N: "n", K.Key_R: "r", K.Key_T: "t", K.Key_P: "p",
          K.Key_Up: "Up", K.Key_Escape: "Escape"}


def card_named(w: Any, zone_id: str, name: str) -> str:
    """The id of the card called `name` in a zone, as the viewing seat knows it."""
    r = w.replica
    for cid in r.state.cards_in(zone_id):
        card = r.state.objs[cid].card or r.knowledge.card_of(cid)
        if card is not None and w.ctl.catalog.name_of(card) == name:
            return str(cid)
    raise AssertionError(f"no {name!r} in {zone_id}")


def _click_at(widget: QWidget, at: QPoint) -> None:
    """A left click as the window system sends it (QTest's would turn two quick clicks, in two
    windows, into a double-click)."""
    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
    where, glob = QPointF(at), QPointF(widget.mapToGlobal(at))
    for kind, button, buttons in ((QEvent.Type.MouseMove, none, none),
                                  (QEvent.Type.MouseButtonPress, left, left),
                                  (QEvent.Type.MouseButtonRelease, left, none)):
        QApplication.sendEvent(widget, QMouseEvent(kind, where, glob, button, buttons,
                                                   Qt.KeyboardModifier.NoModifier))


class Keys:
    def __init__(self, w: Any) -> None:
        self.w = w
        self.pressed: list[str] = []

    # --- keys ----------------------------------------------------------------------------------
    def press(self, key: Qt.Key, mods: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
              name: str = "") -> None:
        target: QWidget = QApplication.activePopupWidget() or QApplication.focusWidget() or \
            self.w.view
        QTest.keyClick(target, key, mods)
        self.pressed.append(name or XNAMES[key])

    def to_zone(self, zone_id: str) -> None:
        """Tab (or Shift+Tab, whichever is fewer) to the zone itself."""
        focus = self.w.keys.focus
        if focus.zone_id is None:
            self.press(K.Key_Tab)
        ids = [z.id for z in focus.zones]
        here, there = ids.index(focus.zone_id), ids.index(zone_id)
        ahead, back = (there - here) % len(ids), (here - there) % len(ids)
        for _ in range(ahead if ahead <= back else back):
            self.press(K.Key_Tab if ahead <= back else K.Key_Backtab)
        if focus.piece_id is not None:  # on a piece of the zone already: back to the zone
            self.press(K.Key_Home)
            self.press(K.Key_Left)
        assert focus.zone_id == zone_id and focus.piece_id is None, focus.describe()

    def to_piece(self, piece_id: str) -> None:
        focus = self.w.keys.focus
        zone = next(z for z in focus.zones if z.index_of(piece_id) >= 0)
        if focus.zone_id != zone.id:
            self.to_zone(zone.id)
        i, n = zone.index_of(piece_id), len(zone.pieces)
        if i < n - 1 - i:
            self.press(K.Key_Home)
            for _ in range(i):
                self.press(K.Key_Right)
        else:
            self.press(K.Key_End)
            for _ in range(n - 1 - i):
                self.press(K.Key_Left)
        assert focus.piece_id == piece_id, focus.describe()

    def menu(self, *path: str) -> None:
        """The focused piece's menu (the Menu key), each entry reached with Down, opened with
        Right, chosen with Return."""
        self.press(K.Key_Menu)
        for text in path:
            menu = QApplication.activePopupWidget()
            assert isinstance(menu, QMenu), "no menu open"
            wanted = next(a for a in menu.actions() if a.text() == text)
            for _ in range(len(menu.actions()) + 1):
                if menu.activeAction() is wanted:
                    break
                self.press(K.Key_Down)
            assert menu.activeAction() is wanted, f"cannot reach {text!r} by keys"
            self.press(K.Key_Right if wanted.menu() is not None else K.Key_Return)

    # --- the player's actions ------------------------------------------------------------------
    def bump(self, piece_id: str, delta: int) -> None:
        self.to_piece(piece_id)
        for _ in range(abs(delta)):
            self.press(K.Key_Plus if delta > 0 else K.Key_Minus)

    def draw(self) -> None:
        self.press(K.Key_D)

    def next_phase(self) -> None:
        self.press(K.Key_N)

    def play(self, card_id: str) -> None:
        self.to_piece(card_id)
        self.press(K.Key_Return)

    def turn_card(self, card_id: str, _menu_text: str) -> None:
        self.to_piece(card_id)
        self.press(K.Key_R)

    def move(self, piece_id: str, zone_id: str, cell: tuple[int, int] | None = None) -> None:
        self.to_piece(piece_id)
        self.press(K.Key_T)
        if self.w.keys.focus.zone_id != zone_id:
            self.to_zone(zone_id)
        while cell is not None and self.w.keys.focus.cell != cell:  # over a grid: its cell
            col, row = self.w.keys.focus.cell
            self.press(K.Key_Right if cell[0] > col else K.Key_Left if cell[0] < col else
                       K.Key_Down if cell[1] > row else K.Key_Up)
        self.press(K.Key_P)

    def send(self, card_id: str, *path: str) -> None:
        self.to_piece(card_id)
        self.menu(*path)

    def end_turn(self) -> None:
        self.press(K.Key_Return, Qt.KeyboardModifier.ControlModifier, "ctrl+Return")


class Mouse:
    def __init__(self, w: Any) -> None:
        self.w = w

    def _at(self, piece_id: str) -> QPointF:
        item = self.w.scene.item_for(piece_id)
        return item.sceneBoundingRect().center()

    def click_menu(self, *path: str) -> None:
        for text in path:
            menu = QApplication.activePopupWidget()
            assert isinstance(menu, QMenu), "no menu open"
            wanted = next(a for a in menu.actions() if a.text() == text)
            _click_at(menu, menu.actionGeometry(wanted).center())
            QApplication.processEvents()

    def _button(self, widget: QWidget) -> None:
        _click_at(widget, QPoint(widget.width() // 2, widget.height() // 2))

    def bump(self, piece_id: str, delta: int) -> None:
        tracker = self.w.scene.trackers[piece_id]
        rect = tracker.plus_rect() if delta > 0 else tracker.minus_rect()
        for _ in range(abs(delta)):
            click(self.w.view, tracker.mapToScene(rect.center()))

    def draw(self) -> None:
        deck = self.w.scene.own_deck()
        click(self.w.view, self.w.scene.zones[deck].card_anchor(), double=True)

    def next_phase(self) -> None:
        self._button(self.w.turn.next_phase)

    def play(self, card_id: str) -> None:
        click(self.w.view, self._at(card_id), double=True)

    def turn_card(self, card_id: str, menu_text: str) -> None:
        right_click(self.w.view, self._at(card_id))
        self.click_menu(menu_text)

    def move(self, piece_id: str, zone_id: str, cell: tuple[int, int] | None = None) -> None:
        zone = self.w.scene.zones[zone_id]
        if cell is not None:
            from table.ui.layout import CELL, LABEL, PAD
            r = zone.rect
            end = zone.mapToScene(QPointF(r.left() + PAD + (cell[0] + 0.5) * CELL,
                                          r.top() + LABEL + PAD + (cell[1] + 0.5) * CELL))
        else:
            end = zone.card_anchor()
        drag(self.w.view, self._at(piece_id), end)

    def send(self, card_id: str, *path: str) -> None:
        right_click(self.w.view, self._at(card_id))
        self.click_menu(*path)

    def end_turn(self) -> None:
        self._button(self.w.turn.end_turn)


Turn = Callable[[Any, Any], None]  # (the window, a driver)


def dead_to_rites(w: Any, d: Any) -> None:
    """Dawn: +1 Favor, draw; Main: play Cinder Adept; Combat: engage it; Rite: the top Rite to
    the Altar, then to Completed, +1 Step; Dusk: ready it; End turn."""
    d.bump("p1.favor", 1)
    d.draw()
    d.next_phase()
    adept = card_named(w, "p1.hand", "Cinder Adept")
    d.play(adept)
    d.next_phase()
    d.turn_card(adept, "Engage (turn sideways)")
    d.next_phase()
    rite = w.replica.state.cards_in("p1.rites")[-1]
    d.move(rite, "altar")
    d.move(rite, "p1.completed")
    d.bump("p1.step", 1)
    d.next_phase()
    d.turn_card(adept, "Ready")
    d.end_turn()


def gauntlet(w: Any, d: Any) -> None:
    """Capture (nothing to capture), Draw: one card; Action: Militia sent to the Asset Bank (its
    menu); Movement: the Player Token one Territory on; Action (after), Cleanup; End turn."""
    d.next_phase()
    d.draw()
    d.next_phase()
    d.send(card_named(w, "p1.hand", "Militia"), "Send to", "Asset Bank")
    d.next_phase()
    d.move("p1.token", "gauntlet.P2")
    d.next_phase()
    d.next_phase()
    d.end_turn()


def mantle_of_the_keeper(w: Any, d: Any) -> None:
    """Income: +1 Favor; Action: draw a card, Quick Shot to the Discard Pile (its menu), the
    standee three cells on in the arena; End of turn; End turn."""
    d.bump("p1.favor", 1)
    d.next_phase()
    d.draw()
    d.send(card_named(w, "p1.hand", "Quick Shot"), "Send to", "Discard Pile — top")
    d.move("p1.standee", "arena", cell=(5, 5))
    d.next_phase()
    d.end_turn()


TURNS: dict[str, Turn] = {"dead-to-rites": dead_to_rites, "gauntlet": gauntlet,
                          "mantle-of-the-keeper": mantle_of_the_keeper}
