"""The room the table is laid out for (the view says how much it has: layout.py fits the
others' areas and the middle into it), and converting a spot of a shrunk container to where it
is drawn. A mixin of TableScene.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem

from . import layout as lay
from . import placement

if TYPE_CHECKING:
    from table.core.state import State

    from .controller import TableController


class SceneSizes:
    if TYPE_CHECKING:
        ctl: TableController
        @property
        def state(self) -> State: ...
        layout: lay.Layout
        room: tuple[float, float] | None
        min_middle: float
        _tiles: dict[str, tuple[int, int, int]]

        def rebuild(self) -> None: ...
        def seats_from_here(self) -> list[int]: ...
        def item_for(self, obj_id: str) -> QGraphicsItem | None: ...

    def set_room(self, room: tuple[float, float], min_middle: float = 0.0) -> bool:
        """Lay the table out for a view of `room` (in the own area's units), the middle at
        least `min_middle` where it can be; True when that changed anything."""
        room = (round(room[0] / 8) * 8.0, round(room[1] / 8) * 8.0)  # a pixel's change: none
        if (room, min_middle) == (self.room, self.min_middle):
            return False
        self.room, self.min_middle = room, min_middle
        self.rebuild()
        return True

    def compute_layout(self) -> lay.Layout:
        return lay.compute(self.state, self.seats_from_here(), self._tiles, room=self.room,
                           min_middle=self.min_middle)

    def frame_of(self, container_id: str) -> tuple[QRectF | None, float]:
        """Where a container is drawn on the table, and at what size."""
        return self.layout.rects.get(container_id), self.layout.scale.get(container_id, 1.0)

    def clear_spot(self, zone_id: str, pos: list[float], size: float) -> list[float]:
        """`pos` in a free zone (its stored units), moved on to where a piece of `size` covers
        no token, die or counter lying there (placement.clear_of)."""
        rect, k = self.frame_of(zone_id)
        zone = self.state.objs.get(zone_id)
        if rect is None or zone is None:
            return pos
        box = lay.local(rect, k)
        taken = []
        for child in zone.children:
            item = self.item_for(child)
            if item is None or self.state.objs[child].kind == "card" or not item.isVisible():
                continue
            drawn = item.sceneBoundingRect()
            top_left = lay.to_local(drawn.topLeft(), rect, k) - box.topLeft()
            taken.append(QRectF(top_left, drawn.size() / k))
        return placement.clear_of(box, pos, size, taken)

    @staticmethod
    def _shrunk(spot: placement.Spot, rect: QRectF, k: float) -> placement.Spot:
        """A spot of a full-size container's rect, where it is drawn (shrunk by k)."""
        if k != 1.0:
            spot.pos, spot.scale = lay.to_scene(spot.pos, rect, k), spot.scale * k
        return spot
