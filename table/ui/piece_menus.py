"""Menu sections for the pieces around the cards: counters on cards, dice, trackers, tokens,
and the table's own menu that puts a new die, token or counter where it was opened.

Pieces a player adds carry `added: true` in their props; only those can be removed again
(the module's own pieces stay, as in a real box).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from table.core import actions
from table.core.objects import ROOT

from . import layout as lay
from . import placement
from .ask import ask_int, ask_text

if TYPE_CHECKING:
    from .scene import TableScene

DIE_SIDES = (4, 6, 8, 10, 12, 20)


def add_action(menu: QMenu, text: str, fn: Callable[[], Any], shortcut: str = "") -> QAction:
    act = menu.addAction(text)
    if shortcut:  # the key works while the menu is open, and reminds of the table's key
        act.setShortcut(shortcut)
        act.setShortcutVisibleInContextMenu(True)
    act.triggered.connect(lambda _=False: fn())
    return act


class PieceMenus:
    def __init__(self, scene: TableScene, parent: QWidget) -> None:
        self.scene, self.parent = scene, parent
        self.ctl = scene.ctl

    # --- counters on cards and tokens -------------------------------------------------------
    def counter_keys(self) -> list[tuple[str, str]]:
        found = list(getattr(self.ctl.catalog.module, "card_counters", ()) or ())
        return [(k, n) for k, n in found] or [("damage", "Damage"), ("value", "Counter")]

    def counters(self, menu: QMenu, ids: list[str]) -> None:
        sub = menu.addMenu("Counters")
        for key, name in self.counter_keys():
            add_action(sub, f"Add {name}", partial(self.bump_counters, ids, key, 1))
            add_action(sub, f"Remove {name}", partial(self.bump_counters, ids, key, -1))
            add_action(sub, f"Set {name}…", partial(self._set, ids, key, name))
            sub.addSeparator()
        state = self.ctl.replica.state
        if any(v for c in ids if state.live(c) is not None for v in state.objs[c].counters.values()):
            add_action(sub, "Clear all counters", lambda: self._clear(ids))

    def bump_counters(self, ids: list[str], key: str, delta: int) -> None:
        for oid in ids:
            self.ctl.act(actions.counter, oid, add=delta, key=key)

    def _set(self, ids: list[str], key: str, name: str) -> None:
        obj = self.ctl.replica.state.live(ids[0])
        now = obj.counters.get(key, 0) if obj is not None else 0
        value, ok = ask_int(self.parent, f"Set {name}", f"{name}:", now, -999, 999)
        if ok:
            for oid in ids:
                self.ctl.act(actions.counter, oid, value=value, key=key)

    def _clear(self, ids: list[str]) -> None:
        state = self.ctl.replica.state
        for oid in ids:
            obj = state.live(oid)
            for key, value in sorted(obj.counters.items()) if obj is not None else ():
                if value:
                    self.ctl.act(actions.counter, oid, value=0, key=key)

    # --- tokens, dice, trackers ------------------------------------------------------------
    def tokens(self, menu: QMenu, ids: list[str]) -> None:
        if not ids:
            return
        state = self.ctl.replica.state
        menu.addSection("Token" if len(ids) == 1 else f"{len(ids)} tokens")
        self.counters(menu, ids)
        added = [t for t in ids if state.objs[t].props.get("added")]
        if added:
            add_action(menu, "Remove from the table", lambda: self._delete(added))

    def die(self, menu: QMenu, die_id: str) -> None:
        obj = self.ctl.replica.state.objs[die_id]
        menu.addSection(f"{obj.props.get('name', 'Die')} (d{self.scene.die_sides(obj)})")
        add_action(menu, "Roll", lambda: self.scene.roll_die(die_id))
        add_action(menu, "Set value…", lambda: self._set_value(die_id, 1,
                                                               self.scene.die_sides(obj)))
        moves = menu.addMenu("Move to")
        for zid, name in self._free_places():
            add_action(moves, name, partial(self._move, die_id, zid))
        if obj.props.get("added"):
            add_action(menu, "Remove from the table", lambda: self._delete([die_id]))

    def _move(self, piece_id: str, zone_id: str) -> None:
        """The move a drag of the piece there makes (its next free place)."""
        self.scene.drops.send([piece_id], self.scene.zones.get(zone_id))

    def tracker(self, menu: QMenu, tracker_id: str) -> None:
        obj = self.ctl.replica.state.objs[tracker_id]
        menu.addSection(str(obj.props.get("name", "Counter")))
        add_action(menu, "+1", lambda: self.scene.bump_counter(tracker_id, 1))
        add_action(menu, "−1", lambda: self.scene.bump_counter(tracker_id, -1))
        add_action(menu, "Set value…", lambda: self._set_value(tracker_id, -999, 999))
        if obj.props.get("added"):
            add_action(menu, "Remove from the table", lambda: self._delete([tracker_id]))

    def _set_value(self, obj_id: str, lo: int, hi: int) -> None:
        obj = self.ctl.replica.state.objs[obj_id]
        value, ok = ask_int(self.parent, "Set value", str(obj.props.get("name", "")),
                                        obj.counters.get("value", 0), lo, hi)
        if ok:
            self.ctl.act(actions.counter, obj_id, value=value)

    def _delete(self, ids: list[str]) -> None:
        for oid in ids:
            self.ctl.act(lambda r, o, seat=None: r.issue("delete", {"id": o}, seat=seat), oid)

    def zones_in_order(self) -> list[tuple[str, Any]]:
        """The table's zones as a menu lists them, the same every time: one's own first, then
        the shared ones, then the others', each by name."""
        objs, seat = self.ctl.replica.state.objs, self.ctl.seat

        def key(entry: tuple[str, Any]) -> tuple[int, str, str]:
            obj = objs[entry[0]]
            whose = lay.seat_of(obj)
            rank = 0 if whose == seat else 1 if whose is None else 2
            return rank, str(obj.props.get("name", entry[0])).lower(), entry[0]
        return sorted(self.scene.zones.items(), key=key)

    def _free_places(self) -> list[tuple[str, str]]:
        """Zones a die may lie in: one's own free zones, the shared ones, the open table."""
        out = []
        for zid, item in self.zones_in_order():
            zobj = self.ctl.replica.state.objs[zid]
            if item.role == "zone" and lay.seat_of(zobj) in (None, self.ctl.seat):
                out.append((zid, str(zobj.props.get("name", zid))))
        return [*out, (ROOT, "Open table")]

    # --- the table's own menu: new pieces where it was opened -------------------------------
    def table(self, menu: QMenu, zone_id: str, scene_pos: QPointF | None) -> None:
        if self.ctl.read_only:
            return
        menu.addSection("Add to the table")
        dice = menu.addMenu("Add a die")
        for sides in DIE_SIDES:
            add_action(dice, f"d{sides}", partial(self.add_die, zone_id, scene_pos, sides))
        add_action(menu, "Add a token", lambda: self.add_token(zone_id, scene_pos))
        add_action(menu, "Add a counter…", lambda: self.add_counter(zone_id, scene_pos))

    def _where(self, zone_id: str, scene_pos: QPointF | None) -> dict[str, Any]:
        """`to` and `pos` for a piece put down at `scene_pos` in `zone_id`."""
        item = self.scene.zones.get(zone_id)
        rect = self.scene.layout.rects.get(zone_id)
        if item is None or rect is None or item.role not in ("zone", "table", "grid", "board"):
            zone_id, rect = ROOT, self.scene.layout.rects.get(ROOT)
            item = self.scene.zones.get(ROOT)
        if scene_pos is None or rect is None:
            return {"to": zone_id}
        if item is not None and item.role == "grid":
            cell = item.cell_at(scene_pos)
            return {"to": zone_id, "pos": list(cell)} if cell is not None else {"to": zone_id}
        k = self.scene.layout.scale.get(zone_id, 1.0)  # a shrunk zone: full-size units
        pos = placement.free_pos(lay.local(rect, k), lay.to_local(scene_pos, rect, k))
        return {"to": zone_id, "pos": self.scene.clear_spot(zone_id, pos, lay.DIE)}

    def _new_id(self, kind: str) -> str:
        objs = self.ctl.replica.state.objs
        stem = f"{kind}.{self.ctl.replica.peer_id[:6]}.s{self.ctl.seat}"
        n = 1
        while f"{stem}.{n}" in objs:
            n += 1
        return f"{stem}.{n}"

    def _create(self, kind: str, zone_id: str, scene_pos: QPointF | None,
                props: dict[str, Any], counters: dict[str, int] | None = None) -> None:
        fields: dict[str, Any] = {"props": {**props, "added": True}, "owner": self.ctl.seat}
        if counters:
            fields["counters"] = counters
        where = self._where(zone_id, scene_pos)
        self.ctl.act(actions.create, self._new_id(kind), kind, **where, **fields)

    def add_die(self, zone_id: str, scene_pos: QPointF | None, sides: int) -> None:
        self._create("die", zone_id, scene_pos, {"name": f"d{sides}", "sides": sides},
                     {"value": sides})

    def add_token(self, zone_id: str, scene_pos: QPointF | None) -> None:
        self._create("token", zone_id, scene_pos, {"name": "Token", "shape": "disc"})

    def add_counter(self, zone_id: str, scene_pos: QPointF | None) -> None:
        name, ok = ask_text(self.parent, "Add a counter", "Name:", text="Counter")
        if ok and name.strip():
            self._create("counter", zone_id, scene_pos, {"name": name.strip()}, {"value": 0})
