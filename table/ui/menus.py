"""Context menus for whatever is under the cursor: cards, piles, zones, trackers, dice, tokens
and the bare table. Right-click, the menu key or Shift+F10 open them (the view asks
`popup`); a menu on a selected piece acts on the whole selection.
"""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QPointF
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from table.core import actions
from table.core.objects import HIDDEN, ROOT

from . import layout as lay
from .ask import ask_int, back_to_table
from .items.card_item import CardItem
from .items.token_item import TokenItem
from .piece_menus import PieceMenus, add_action

if TYPE_CHECKING:
    from .pile_dialog import PileDialog
    from .scene import TableScene

_add = add_action


class Menus:
    def __init__(self, scene: TableScene, parent: QWidget) -> None:
        self.scene, self.parent = scene, parent
        self.ctl = scene.ctl
        self.pieces = PieceMenus(scene, parent)
        self.last: QMenu | None = None  # the open menu (kept alive while it shows)

    # --- opening ------------------------------------------------------------------------------
    def popup(self, scene_pos: QPointF, global_pos: QPoint) -> QMenu | None:
        """The menu of the topmost piece at `scene_pos` (or of the table there), shown."""
        item = self.scene.piece_at(scene_pos)
        obj_id = getattr(item, "obj_id", ROOT) if item is not None else ROOT
        targets = [obj_id]
        if isinstance(item, (CardItem, TokenItem)) and item.isSelected():
            targets = [obj_id] + [i for i in self.scene.selected_ids() if i != obj_id]
        elif item is not None and not item.isSelected():
            self.scene.clearSelection()  # the menu acts on what was clicked, as it shows
        return self._popup_menu(self.build(obj_id, targets, scene_pos), global_pos)

    def popup_for(self, obj_id: str, global_pos: QPoint,
                  scene_pos: QPointF | None = None) -> QMenu | None:
        """The menu of this piece or zone (where the keyboard is), shown; on a selected piece
        it acts on the whole selection, as a right-click on it does."""
        item = self.scene.item_for(obj_id)
        targets = [obj_id]
        if isinstance(item, (CardItem, TokenItem)) and item.isSelected():
            targets = [obj_id] + [i for i in self.scene.selected_ids() if i != obj_id]
        elif item is not None and not item.isSelected():
            self.scene.clearSelection()
        return self._popup_menu(self.build(obj_id, targets, scene_pos), global_pos)

    def _popup_menu(self, menu: QMenu | None, global_pos: QPoint) -> QMenu | None:
        if menu is None:
            return None
        if self.last is not None:
            self.last.deleteLater()
        self.last = menu
        menu.popup(global_pos)
        return menu

    def build(self, obj_id: str, targets: list[str] | None = None,
              scene_pos: QPointF | None = None) -> QMenu | None:
        obj = self.ctl.replica.state.live(obj_id)
        if obj is None:
            return None
        targets = targets or [obj_id]
        menu = QMenu(self.parent)
        if obj.kind == "card" and not self._in_reach(obj_id):
            owner = self.ctl.seat_name(obj.owner)
            menu.addAction(f"A card in {owner}'s hand: only {owner} handles it").setEnabled(False)
            return menu
        targets = [t for t in targets if self._kind(t) != "card" or self._in_reach(t)]
        if obj.kind == "card":
            parent = self.ctl.replica.state.objs.get(obj.container or ROOT)
            if len(targets) == 1 and parent is not None and parent.id != ROOT and \
                    lay.role(parent) == "pile":
                self._pile(menu, parent.id)  # a pile's top card stands for the pile
                menu.addSeparator()
            self._cards(menu, [t for t in targets if self._kind(t) == "card"])
            tokens = [t for t in targets if self._kind(t) == "token"]
            if tokens:
                self.pieces.tokens(menu, tokens)
        elif obj.kind == "token":
            self.pieces.tokens(menu, [t for t in targets if self._kind(t) == "token"])
            cards = [t for t in targets if self._kind(t) == "card"]
            if cards:
                self._cards(menu, cards)
        elif obj.kind == "die":
            self.pieces.die(menu, obj_id)
        elif obj.kind == "counter":
            self.pieces.tracker(menu, obj_id)
        elif obj.kind in lay.CONTAINERS and obj_id != ROOT and lay.role(obj) == "pile":
            self._pile(menu, obj_id)
        else:  # a zone, a board or the open table: what is here, and new pieces for it
            if obj_id != ROOT:
                menu.addSection(str(obj.props.get("name", obj_id)))
                _add(menu, "Select all cards here", lambda: self._select_all(obj_id))
            self.pieces.table(menu, obj_id, scene_pos)
        return menu if not menu.isEmpty() else None

    def _in_reach(self, card_id: str) -> bool:
        """Not a card hidden in another seat's hand (the scene makes those immovable)."""
        item = self.scene.cards.get(card_id)
        return item is None or bool(item.flags() & CardItem.GraphicsItemFlag.ItemIsMovable) \
            or self.ctl.read_only

    def _where(self, obj_id: str) -> str | None:
        obj = self.ctl.replica.state.live(obj_id)
        return obj.container if obj is not None else None

    def _kind(self, obj_id: str) -> str:
        obj = self.ctl.replica.state.live(obj_id)
        return obj.kind if obj is not None else ""

    # --- piles -----------------------------------------------------------------------------
    def _pile(self, menu: QMenu, pile_id: str) -> None:
        menu.addSection(str(self.ctl.replica.state.objs[pile_id].props.get("name", "Pile")))
        _add(menu, "Draw a card", lambda: self.scene.draw_from(pile_id, 1), "D")
        _add(menu, "Draw N cards…", lambda: self.draw_n(pile_id))
        _add(menu, "Shuffle", lambda: self.ctl.perform({"op": "shuffle", "pile": pile_id}))
        _add(menu, "Search…", lambda: self.search(pile_id))
        _add(menu, "Peek at the top N…", lambda: self.peek(pile_id))
        _add(menu, "Reveal the top card", lambda: self.reveal_top(pile_id))
        moves = menu.addMenu("Move all cards to")
        into = menu.addMenu("Shuffle all cards into")
        for zid, item in self.pieces.zones_in_order():
            zobj = self.ctl.replica.state.objs[zid]
            if zid == pile_id or item.role not in ("pile", "hand", "zone", "slot"):
                continue
            if lay.seat_of(zobj) not in (None, self.ctl.seat):
                continue
            name = str(zobj.props.get("name", zid))
            _add(moves, name, partial(self.ctl.act, actions.move_all, pile_id, zid))
            if item.role == "pile":
                _add(into, name, partial(self.ctl.act, actions.move_all, pile_id, zid,
                                         shuffle=True))

    def _pile_cards(self, pile_id: str) -> list[str]:
        state = self.ctl.replica.state
        return [c for c in reversed(state.objs[pile_id].children) if state.objs[c].kind == "card"]

    def draw_n(self, pile_id: str) -> None:
        n, ok = ask_int(self.parent, "Draw cards", "How many?", 2, 1, 60)
        if ok:
            self.scene.draw_from(pile_id, n)

    def peek(self, pile_id: str, count: int | None = None) -> PileDialog | None:
        if count is None:
            count, ok = ask_int(self.parent, "Peek", "Look at how many top cards?",
                                            3, 1, 60)
            if not ok:
                return None
        return self._browse(pile_id, self._pile_cards(pile_id)[:count], f"Top {count}")

    def search(self, pile_id: str) -> PileDialog | None:
        return self._browse(pile_id, self._pile_cards(pile_id), "Search")

    def _browse(self, pile_id: str, ids: list[str], title: str) -> PileDialog | None:
        state = self.ctl.replica.state
        if state.objs[pile_id].visibility == HIDDEN:
            for cid in ids:  # a peek is a private show to oneself: logged, seen by nobody else
                if self.ctl.act(actions.show, cid, self.ctl.seat).op is None:
                    return None
        name = state.objs[pile_id].props.get("name", pile_id)
        from .pile_dialog import PileDialog  # loaded when first used: not for the first frame

        dialog = PileDialog(self.ctl, pile_id, ids, f"{title}: {name}",
                            self.scene.own_hand(), self.parent)
        self.dialog = dialog
        dialog.finished.connect(lambda _=0: back_to_table(self.parent))
        dialog.show()
        return dialog

    def reveal_top(self, pile_id: str) -> None:
        cards = self._pile_cards(pile_id)
        if not cards:
            self.ctl.status.emit("The pile is empty")
            return
        self.ctl.act(actions.flip, cards[0], True)

    # --- cards -----------------------------------------------------------------------------
    def _cards(self, menu: QMenu, ids: list[str]) -> None:
        if not ids:
            return
        state = self.ctl.replica.state
        first = state.objs[ids[0]]
        menu.addSection("Card" if len(ids) == 1 else f"{len(ids)} cards")
        _add(menu, "Flip", lambda: [self.ctl.act(actions.flip, c) for c in ids], "F")
        _add(menu, "Ready" if first.rotation else "Engage (turn sideways)",
             lambda: self.scene.rotate_items(ids), "R")
        self.pieces.counters(menu, ids)
        shows = menu.addMenu("Show privately to")
        for seat in self.ctl.seats:
            if seat != self.ctl.seat:
                _add(shows, self.ctl.seat_name(seat),
                     partial(self._show, ids, seat))
        if any(state.objs[c].is_secret for c in ids):
            _add(menu, "Reveal to everyone",
                 lambda: [self.ctl.act(actions.reveal, c) for c in ids
                          if state.live(c) is not None and state.objs[c].is_secret])
        self._send_to(menu, ids)
        self._flags(menu, ids[0])

    def _flags(self, menu: QMenu, obj_id: str) -> None:
        """The rules assist's flags on the piece, acknowledged as the assist panel does (so a
        player without a mouse acknowledges them too)."""
        from .panels.assist_panel import acknowledge  # the panel's own action

        for flag in self.scene.flags_on(obj_id):
            sub = menu.addMenu(f"Acknowledge {flag.rule}")
            for reason in ("card effect", "house rule"):
                _add(sub, f"OK: {reason}", partial(self.ctl.act, acknowledge, flag.key, reason))

    def _send_to(self, menu: QMenu, ids: list[str]) -> None:
        dests = menu.addMenu("Send to")
        for zid, item in self.pieces.zones_in_order():
            zobj = self.ctl.replica.state.objs[zid]
            if item.role not in ("hand", "pile", "zone") or zid == ROOT:
                continue
            if lay.seat_of(zobj) not in (self.ctl.seat, None) or \
                    (item.role == "hand" and lay.seat_of(zobj) != self.ctl.seat):
                continue
            if item.role == "hand" and all(self._where(c) == zid for c in ids):
                continue  # already there
            name = str(zobj.props.get("name", zid))
            if lay.seat_of(zobj) is None:
                name += " (shared)"
            if item.role == "pile":
                _add(dests, f"{name} — top", partial(self._send, ids, zid, "top"))
                _add(dests, f"{name} — bottom", partial(self._send, ids, zid, "bottom"))
            else:
                _add(dests, name, partial(self._send, ids, zid, None))
        _add(dests, "Open table", lambda: self._send(ids, ROOT, None))

    def _show(self, ids: list[str], seat: int) -> None:
        for card in ids:
            self.ctl.act(actions.show, card, seat)

    def _send(self, ids: list[str], zone_id: str, at: str | None) -> None:
        """The moves a drop of these cards on that zone makes (face up into play from a hand,
        as a drag plays it): one move, whatever the route (dragdrop.DropHandler.send)."""
        self.scene.drops.send(ids, self.scene.zones.get(zone_id), end=at)

    def _select_all(self, zone_id: str) -> None:
        self.scene.clearSelection()
        for cid in self.ctl.replica.state.objs[zone_id].children:
            item = self.scene.item_for(cid)
            if item is not None:
                item.setSelected(True)


__all__ = ["Menus", "QAction"]
