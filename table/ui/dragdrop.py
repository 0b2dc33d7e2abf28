"""What a drag means: which container a drop lands in, and the move actions it issues.

Qt moves the dragged items under the mouse; on release this turns the drop into `move` actions
(as the active seat) and then puts every dragged item back where the state says it is. So a
refused or void move snaps back, and an accepted one lands where the op put it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSceneMouseEvent

from table.core import actions
from table.core.objects import PUBLIC, ROOT

from . import layout as lay
from . import placement
from .items.card_item import CardItem
from .items.die_item import DieItem
from .items.token_item import TokenItem
from .items.zone_item import ZoneItem

if TYPE_CHECKING:
    from .scene import TableScene

DRAG_START = 6.0  # scene units moved before a press becomes a drag


class DropHandler:
    def __init__(self, scene: "TableScene") -> None:
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
        scene = self.scene
        state = scene.state
        dest_id = target.obj_id if target is not None else ROOT
        dest = state.live(dest_id)
        if dest is None:
            return
        rect, k = scene.frame_of(dest_id)
        role = target.role if target is not None else "table"
        for item in items:
            obj = state.live(item.obj_id)
            if obj is None:
                continue
            kwargs: dict[str, Any] = {}
            if role in ("zone", "table", "board") and rect is not None:
                if rect.contains(item.pos()) or role == "table":  # in full-size units
                    kwargs["pos"] = placement.free_pos(lay.local(rect, k),
                                                       lay.to_local(item.pos(), rect, k))
                # else: sent here without being carried over it: take the next free place
            elif role == "grid" and target is not None:
                cell = target.cell_at(item.pos())
                if cell is None:
                    continue
                kwargs["pos"] = list(cell)
            elif role in ("hand", "pile") and obj.container == dest_id:
                continue  # dropped back where it was
            if isinstance(item, DieItem) and "pos" not in kwargs:
                continue  # a die lies on the table or in a free zone, not in a hand or pile
            if obj.kind == "card" and dest.visibility == PUBLIC:
                source = state.objs.get(obj.container or ROOT)
                from_hidden = source is not None and source.visibility != PUBLIC
                lies_up = dest.props.get("enter_face_up", True) is not False
                if face_down:
                    kwargs["face_up"] = False
                elif from_hidden:  # played from a hand or deck: as the zone says (face up)
                    kwargs["face_up"] = lies_up
            if role == "pile":
                kwargs["at"] = "top"
            scene.ctl.act(actions.move, obj.id, dest_id, **kwargs)
        # put everything where the state now says (snaps back what did not move)
        scene._dirty = set()
        for item in items:
            obj = state.objs.get(item.obj_id)
            if obj is not None and obj.alive and isinstance(item, DieItem):
                scene._configure_piece(obj)
            elif obj is not None and obj.alive:
                scene._update_piece(obj)
        for cid in scene._dirty:
            scene.arrange(cid)
