"""Context menus for what is under the cursor: piles, cards, trackers."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QMenu, QWidget

from table.core import actions
from table.core.objects import HIDDEN, ROOT

from . import layout as lay
from .pile_dialog import PileDialog

if TYPE_CHECKING:
    from .scene import TableScene


def _add(menu: QMenu, text: str, fn, shortcut: str = "") -> QAction:  # type: ignore[no-untyped-def]
    act = menu.addAction(text)
    if shortcut:
        act.setShortcut(shortcut)
        act.setShortcutVisibleInContextMenu(True)
    act.triggered.connect(lambda _=False: fn())
    return act


class Menus:
    def __init__(self, scene: "TableScene", parent: QWidget) -> None:
        self.scene, self.parent = scene, parent
        self.ctl = scene.ctl

    def build(self, obj_id: str) -> QMenu | None:
        obj = self.ctl.replica.state.live(obj_id)
        if obj is None:
            return None
        menu = QMenu(self.parent)
        if obj.kind == "card":
            parent = self.ctl.replica.state.objs.get(obj.container or ROOT)
            if parent is not None and parent.id != ROOT and lay.role(parent) == "pile":
                self._pile(menu, parent.id)  # a pile's top card stands for the pile
                menu.addSeparator()
            self._card(menu, obj_id)
        elif obj.kind in lay.CONTAINERS and obj_id != ROOT:
            if lay.role(obj) == "pile":
                self._pile(menu, obj_id)
            else:
                _add(menu, "Select all cards here", lambda: self._select_all(obj_id))
        elif obj.kind == "counter":
            _add(menu, "Set value…", lambda: self._set_counter(obj_id))
        return menu if not menu.isEmpty() else None

    # --- piles -----------------------------------------------------------------------------
    def _pile(self, menu: QMenu, pile_id: str) -> None:
        menu.addSection(str(self.ctl.replica.state.objs[pile_id].props.get("name", "Pile")))
        _add(menu, "Draw a card", lambda: self.scene.draw_from(pile_id, 1), "D")
        _add(menu, "Draw N cards…", lambda: self.draw_n(pile_id))
        _add(menu, "Shuffle", lambda: self.ctl.act(actions.shuffle, pile_id))
        _add(menu, "Search…", lambda: self.search(pile_id))
        _add(menu, "Peek at the top N…", lambda: self.peek(pile_id))
        _add(menu, "Reveal the top card", lambda: self.reveal_top(pile_id))
        moves = menu.addMenu("Move all cards to")
        into = menu.addMenu("Shuffle all cards into")
        for zid, item in self.scene.zones.items():
            zobj = self.ctl.replica.state.objs[zid]
            if zid == pile_id or item.role not in ("pile", "hand", "zone", "slot"):
                continue
            mine = lay.seat_of(zobj) in (None, self.ctl.seat)
            if not mine:
                continue
            name = str(zobj.props.get("name", zid))
            _add(moves, name, lambda z=zid: self.ctl.act(actions.move_all, pile_id, z))
            if item.role == "pile":
                _add(into, name, lambda z=zid: self.ctl.act(actions.move_all, pile_id, z,
                                                            shuffle=True))

    def _cards(self, pile_id: str) -> list[str]:
        state = self.ctl.replica.state
        return [c for c in reversed(state.objs[pile_id].children) if state.objs[c].kind == "card"]

    def draw_n(self, pile_id: str) -> None:
        n, ok = QInputDialog.getInt(self.parent, "Draw cards", "How many?", 2, 1, 60)
        if ok:
            self.scene.draw_from(pile_id, n)

    def peek(self, pile_id: str, count: int | None = None) -> PileDialog | None:
        if count is None:
            count, ok = QInputDialog.getInt(self.parent, "Peek", "Look at how many top cards?",
                                            3, 1, 60)
            if not ok:
                return None
        return self._browse(pile_id, self._cards(pile_id)[:count], f"Top {count}")

    def search(self, pile_id: str) -> PileDialog | None:
        return self._browse(pile_id, self._cards(pile_id), "Search")

    def _browse(self, pile_id: str, ids: list[str], title: str) -> PileDialog | None:
        state = self.ctl.replica.state
        if state.objs[pile_id].visibility == HIDDEN:
            for cid in ids:  # a peek is a private show to oneself: logged, seen by nobody else
                if self.ctl.act(actions.show, cid, self.ctl.seat) is None:
                    return None
        name = state.objs[pile_id].props.get("name", pile_id)
        dialog = PileDialog(self.ctl, pile_id, ids, f"{title}: {name}",
                            self.scene.own_hand(), self.parent)
        dialog.show()
        return dialog

    def reveal_top(self, pile_id: str) -> None:
        cards = self._cards(pile_id)
        if not cards:
            self.ctl.status.emit("The pile is empty")
            return
        self.ctl.act(actions.flip, cards[0], True)

    # --- cards -----------------------------------------------------------------------------
    def _card(self, menu: QMenu, card_id: str) -> None:
        obj = self.ctl.replica.state.objs[card_id]
        menu.addSection("Card")
        _add(menu, "Flip", lambda: self.ctl.act(actions.flip, card_id), "F")
        _add(menu, "Ready" if obj.rotation else "Engage (turn sideways)",
             lambda: self.scene.rotate_items([card_id]), "R")
        keys = self._counter_keys()
        sub = menu.addMenu("Counters")
        for key, name in keys:
            _add(sub, f"{name} +1", lambda k=key: self.ctl.act(actions.counter, card_id, add=1,
                                                                key=k))
            _add(sub, f"{name} −1", lambda k=key: self.ctl.act(actions.counter, card_id, add=-1,
                                                                key=k))
        shows = menu.addMenu("Show privately to")
        for seat in self.ctl.seats:
            if seat != self.ctl.seat:
                _add(shows, self.ctl.seat_name(seat),
                     lambda s=seat: self.ctl.act(actions.show, card_id, s))
        if obj.is_secret:
            _add(menu, "Reveal to everyone", lambda: self.ctl.act(actions.reveal, card_id))
        dests = menu.addMenu("Send to")
        for zid, item in self.scene.zones.items():
            zobj = self.ctl.replica.state.objs[zid]
            if lay.seat_of(zobj) == self.ctl.seat and item.role in ("hand", "pile"):
                _add(dests, str(zobj.props.get("name", zid)),
                     lambda z=zid: self.ctl.act(actions.move, card_id, z, at="top"))
                if item.role == "pile":
                    _add(dests, f"{zobj.props.get('name', zid)} (bottom)",
                         lambda z=zid: self.ctl.act(actions.move, card_id, z, at="bottom"))

    def _counter_keys(self) -> list[tuple[str, str]]:
        module = self.ctl.catalog.module
        found = list(getattr(module, "card_counters", ()) or ())
        return [(k, n) for k, n in found] or [("damage", "Damage"), ("value", "Counter")]

    # --- trackers --------------------------------------------------------------------------
    def _set_counter(self, obj_id: str) -> None:
        obj = self.ctl.replica.state.objs[obj_id]
        value, ok = QInputDialog.getInt(self.parent, "Set value", str(obj.props.get("name", "")),
                                        obj.counters.get("value", 0), -999, 999)
        if ok:
            self.ctl.act(actions.counter, obj_id, value=value)

    def _select_all(self, zone_id: str) -> None:
        self.scene.clearSelection()
        for cid in self.ctl.replica.state.objs[zone_id].children:
            item = self.scene.item_for(cid)
            if item is not None:
                item.setSelected(True)
