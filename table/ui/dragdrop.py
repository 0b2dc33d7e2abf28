"""What a drag means: which container a drop lands in, and the move actions it issues.

Qt moves the dragged items under the mouse; on release this turns the drop into `move` ops
(JSON form, as the active seat). An accepted move has already put its item where the op says
(the scene follows each Change); every other dragged item (a refused or void move, one asked of
its owner's peer) is put back where the state says it is.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSceneMouseEvent

from table.core.objects import PUBLIC, ROOT
from table.core.state import State

from . import layout as lay
from . import placement
from .controller import TableController
from .items.card_item import CardItem
from .items.die_item import DieItem
from .items.token_item import TokenItem
from .items.zone_item import ZoneItem

DRAG_START = 6.0  # scene units moved before a press becomes a drag


class DropScene(Protocol):
    """What a drop needs of the table scene."""
    ctl: TableController
    zones: dict[str, ZoneItem]
    where: dict[str, str]  # piece id -> the container it is drawn in

    @property
    def state(self) -> State: ...
    def frame_of(self, container_id: str) -> tuple[QRectF | None, float]: ...
    def clear_spot(self, zone_id: str, pos: list[float], size: float) -> list[float]: ...
    def restore(self, ids: Iterable[str]) -> None: ...
    def selectedItems(self) -> list[QGraphicsItem]: ...
    def mouseGrabberItem(self) -> QGraphicsItem | None: ...
    def items(self, pos: QPointF) -> list[QGraphicsItem]: ...


class DropHandler:
    def __init__(self, scene: DropScene) -> None:
        self.scene = scene
        self.pressed_at: QPointF | None = None
        self.active = False
        self.target: ZoneItem | None = None
        self.dragged: list[CardItem | TokenItem | DieItem] = []

    def press(self, item: QGraphicsItem, event: QGraphicsSceneMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.pressed_at = event.scenePos()
            self.active = False

    def moving(self, event: QGraphicsSceneMouseEvent) -> None:
        if self.pressed_at is None or not (event.buttons() & Qt.MouseButton.LeftButton):
            return
        grabber = self.scene.mouseGrabberItem()
        if not isinstance(grabber, (CardItem, TokenItem, DieItem)) or \
                not grabber.flags() & QGraphicsItem.GraphicsItemFlag.ItemIsMovable:
            return
        if not self.active:
            delta = event.scenePos() - self.pressed_at
            if abs(delta.x()) + abs(delta.y()) < DRAG_START:
                return
            self.active = True
            self.dragged = self._movable(grabber)
            for i, item in enumerate(self.dragged):
                item.setZValue(1000 + i)  # above everything while carried
                item.setVisible(True)
        self._highlight(self.target_at(event.scenePos()))

    def release(self, item: QGraphicsItem, event: QGraphicsSceneMouseEvent) -> None:
        was_drag, self.pressed_at = self.active, None
        self.active = False
        self._highlight(None)
        if not was_drag:
            return
        target = self.target_at(event.scenePos())  # while the carried items are still skipped
        dragged, self.dragged = self.dragged, []
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        self.drop(dragged, target, face_down=shift)

    def _movable(self, grabber: QGraphicsItem) -> list[CardItem | TokenItem | DieItem]:
        items: list[CardItem | TokenItem | DieItem] = [
            i for i in self.scene.selectedItems() if isinstance(i, (CardItem, TokenItem))
            and i.flags() & QGraphicsItem.GraphicsItemFlag.ItemIsMovable]
        if grabber not in items:
            items.append(grabber)  # type: ignore[arg-type]
        items.sort(key=lambda i: i.zValue())  # bottom first, so a pile keeps their order
        return items

    def _highlight(self, zone: ZoneItem | None) -> None:
        if zone is not self.target:
            if self.target is not None:
                self.target.set_highlight(False)
            if zone is not None and zone.role != "table":
                zone.set_highlight(True)
            self.target = zone

    def target_at(self, pos: QPointF) -> ZoneItem | None:
        """The most specific container under `pos` (a slot before its board)."""
        for item in self.scene.items(pos):
            if item in self.dragged:
                continue
            if isinstance(item, ZoneItem) and item.isVisible():
                if item.role in ("tile", "tileslot"):
                    continue  # map tiles are scenery: pieces land on the grid beneath
                return item
            if isinstance(item, CardItem) and item.container_role in ("pile", "slot", "hand"):
                return self.scene.zones.get(self.scene.where.get(item.obj_id, ROOT))
        return self.scene.zones.get(ROOT)

    # --- turning a drop into actions ------------------------------------------------------------
    def drop(self, items: list[CardItem | TokenItem | DieItem], target: ZoneItem | None, *,
             face_down: bool = False) -> None:
        """Pieces carried by the mouse and let go over `target`, each where it was let go."""
        dest_id = target.obj_id if target is not None else ROOT
        if self.scene.state.live(dest_id) is None:
            return
        entries = [self.entry(i.obj_id, target, at=i.pos(), face_down=face_down) for i in items]
        placed = self._perform(entries)
        # what no op placed goes back where the state says (Qt's drag moved it by hand)
        self.scene.restore(i.obj_id for i in items if i.obj_id not in placed)

    def send(self, ids: list[str], target: ZoneItem | None, *, end: str | None = None,
             cell: tuple[int, int] | None = None) -> set[str]:
        """Pieces sent to `target` without being carried over a spot of it (a menu's Send to,
        a double-click, the keys' put down): the same moves a drop there makes, each piece in
        the next free place (`cell`: a grid's cell; `end`: a pile's top or bottom)."""
        dest_id = target.obj_id if target is not None else ROOT
        if self.scene.state.live(dest_id) is None:
            return set()
        placed = self._perform([self.entry(i, target, end=end, cell=cell) for i in ids])
        self.scene.restore(i for i in ids if i not in placed)
        return placed

    def _perform(self, entries: list[dict[str, Any] | None]) -> set[str]:
        placed: set[str] = set()
        for entry in entries:
            if entry is not None:
                placed |= self.scene.ctl.perform(entry).touched
        return placed

    def entry(self, obj_id: str, target: ZoneItem | None, *, at: QPointF | None = None,
              face_down: bool = False, end: str | None = None,
              cell: tuple[int, int] | None = None) -> dict[str, Any] | None:
        """The move (JSON op form) that putting `obj_id` in `target` means; None: no move.
        `at`: where on the table it was let go (a drag), else the next free place."""
        state = self.scene.state
        dest_id = target.obj_id if target is not None else ROOT
        obj, dest = state.live(obj_id), state.objs[dest_id]
        if obj is None:
            return None
        rect, k = self.scene.frame_of(dest_id)
        role = target.role if target is not None else "table"
        entry: dict[str, Any] = {"op": "move", "id": obj.id, "to": dest_id}
        if role in ("zone", "table", "board") and rect is not None:
            if at is not None and (rect.contains(at) or role == "table"):  # full-size units
                entry["pos"] = placement.free_pos(lay.local(rect, k), lay.to_local(at, rect, k))
            elif obj.kind == "die":  # a die lies at a spot of its own: the next free one
                entry["pos"] = self._free_spot(dest_id, lay.local(rect, k))
            # else: sent here without being carried over it: take the next free place
        elif role == "grid" and target is not None:
            spot = cell if cell is not None else target.cell_at(at) if at is not None else None
            if spot is None:
                return None
            entry["pos"] = list(spot)
        elif role in ("hand", "pile") and obj.container == dest_id and end is None:
            return None  # dropped back where it was (a pile's top or bottom: a move in it)
        if obj.kind == "die" and "pos" not in entry:
            return None  # a die lies on the table or in a free zone, not in a hand or pile
        if obj.kind == "card" and dest.visibility == PUBLIC:
            source = state.objs.get(obj.container or ROOT)
            from_hidden = source is not None and source.visibility != PUBLIC
            lies_up = dest.props.get("enter_face_up", True) is not False
            if face_down:
                entry["face_up"] = False
            elif from_hidden:  # played from a hand or deck: as the zone says (face up)
                entry["face_up"] = lies_up
        if role == "pile":
            entry["at"] = end or "top"
        return entry

    def _free_spot(self, zone_id: str, box: QRectF) -> list[float]:
        """The stored position of the next free place in a free zone (after the pieces laid
        out in a row there)."""
        objs = self.scene.state.objs
        auto = sum(1 for c in objs[zone_id].children
                   if objs[c].alive and objs[c].kind in ("card", "token") and objs[c].pos is None)
        pos = placement.free_pos(box, placement.free_spot(box, None, auto, auto).pos)
        return self.scene.clear_spot(zone_id, pos, lay.DIE)
