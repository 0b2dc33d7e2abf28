"""Trackers, dice and the seats' name plates on the table: where each sits and how it looks.

A die or tracker lies where it was put (its own position), else where the layout placed it,
else lined up inside its container, each apart. A mixin of TableScene.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QGraphicsItem

from table.core.objects import HIDDEN, ROOT, Obj

from . import layout as lay
from . import placement, theme
from .items.die_item import DieItem
from .items.seat_area_item import SeatAreaItem
from .items.tracker_item import TrackerItem
from .items.zone_item import ZoneItem

if TYPE_CHECKING:
    from table.core.state import State

    from .controller import TableController


class ScenePieces:
    if TYPE_CHECKING:
        ctl: TableController
        @property
        def state(self) -> State: ...
        layout: lay.Layout
        zones: dict[str, ZoneItem]
        trackers: dict[str, TrackerItem]
        dice: dict[str, DieItem]
        areas: dict[int, SeatAreaItem]

        def addItem(self, item: QGraphicsItem) -> None: ...
        def removeItem(self, item: QGraphicsItem) -> None: ...

    def _configure_areas(self) -> None:
        for seat, rect in self.layout.seat_areas.items():
            item = self.areas.get(seat)
            if item is None:
                item = self.areas[seat] = SeatAreaItem(seat)
                self.addItem(item)
            k = self.layout.seat_scale.get(seat, 1.0)
            item.setTransformOriginPoint(rect.topLeft())
            item.setScale(k)
            item.configure(lay.local(rect, k), self.ctl.seat_name(seat),
                           theme.seat_colour(seat, self.ctl.seat_colour(seat)),
                           seat == self.ctl.seat, seat in self.layout.flipped,
                           self._seat_summary(seat), self.ctl.viewer_mark(seat))
        for seat in [s for s in self.areas if s not in self.layout.seat_areas]:
            self.removeItem(self.areas.pop(seat))

    def _seat_summary(self, seat: int) -> str:
        hand = deck = 0
        for z in self.zones.values():
            obj = self.state.objs[z.obj_id]
            if lay.seat_of(obj) != seat:
                continue
            n = len(self.state.cards_in(obj))
            if z.role == "hand":
                hand += n
            elif obj.visibility == HIDDEN:
                deck += n
        return f"{hand} in hand · {deck} in deck"

    def _configure_piece(self, obj: Obj) -> None:
        drawn, k = self._piece_rect(obj)
        rect = lay.local(drawn, k)
        seat = lay.seat_of(obj)
        accent = theme.seat_colour(seat, self.ctl.seat_colour(seat))
        name = str(obj.props.get("name", obj.id))
        if seat is not None and obj.container not in (None, ROOT):
            name = f"{name} · {self.ctl.seat_name(seat)}"  # on a shared mat: say whose
        if obj.kind == "counter":
            tracker = self.trackers.get(obj.id)
            if tracker is None:
                tracker = self.trackers[obj.id] = TrackerItem(obj.id)
                self.addItem(tracker)
            lo, hi = obj.props.get("min"), obj.props.get("max")
            tracker.setTransformOriginPoint(rect.topLeft())
            tracker.setScale(k)
            tracker.configure(rect, name, obj.counters.get("value", 0),
                              lo if isinstance(lo, int) else None,
                              hi if isinstance(hi, int) else None, accent)
        else:
            die = self.dice.get(obj.id)
            if die is None:
                die = self.dice[obj.id] = DieItem(obj.id)
                self.addItem(die)
            die.setScale(k)  # about its centre, where it lies
            centre = drawn.center() if obj.pos is not None else \
                QPointF(drawn.left() + lay.DIE * k / 2, drawn.top() + lay.DIE * k / 2)
            die.configure(QRectF(centre.x() - lay.DIE / 2, centre.y() - lay.DIE / 2, lay.DIE,
                                 lay.DIE),
                          self.die_sides(obj), obj.counters.get("value", 0), name, accent)
            die.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, not self.ctl.read_only)

    @staticmethod
    def die_sides(obj: Obj) -> int:
        sides = obj.props.get("sides", 6)
        return sides if isinstance(sides, int) and sides > 1 else 6

    def _piece_rect(self, obj: Obj) -> tuple[QRectF, float]:
        """Where a die or tracker is drawn, and at what size: at its own position if it has one
        (put down or dragged there), else where the layout put it, else lined up inside its
        container, each apart."""
        w, h = (lay.DIE, lay.DIE) if obj.kind == "die" else (lay.TRACKER_W, lay.TRACKER_H)
        parent = self.state.objs.get(obj.container or ROOT)
        drawn = self.layout.rects.get(parent.id) if parent is not None else None
        k = self.layout.scale.get(parent.id, 1.0) if drawn is not None and parent else 1.0
        if drawn is None:
            drawn = self.layout.rects.get(ROOT, QRectF(0, 0, 400, 300))
            k = self.layout.scale.get(ROOT, 1.0)
        box = lay.local(drawn, k)
        if obj.pos is not None and len(obj.pos) >= 2:
            zone = self.zones.get(obj.container or ROOT)
            if zone is not None and zone.role == "grid":
                centre = placement.grid_spot(box, obj.pos, 0, False).pos
            else:
                centre = QPointF(box.left() + obj.pos[0], box.top() + obj.pos[1])
            at = lay.to_scene(centre, drawn, k)
            return QRectF(at.x() - w * k / 2, at.y() - h * k / 2, w * k, h * k), k
        laid = self.layout.rects.get(obj.id)
        if laid is not None:
            return laid, self.layout.scale.get(obj.id, 1.0)
        siblings = [c for c in (parent.children if parent is not None else [])
                    if self.state.objs[c].kind in lay.PIECES and self.state.objs[c].pos is None]
        i = siblings.index(obj.id) if obj.id in siblings else 0
        x = box.right() - lay.PAD - (i + 1) * (max(w, lay.DIE) + lay.PAD)
        y = max(box.top() + lay.LABEL + lay.PAD, box.bottom() - lay.PAD - h)  # at the foot,
        corner = lay.to_scene(QPointF(max(box.left() + lay.PAD, x), y), drawn, k)  # off names
        return QRectF(corner.x(), corner.y(), w * k, h * k), k
