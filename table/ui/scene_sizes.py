"""How large the others' areas and the middle are drawn (the view chooses; layout.py lays them
out at full size and shrinks them into place), and converting a spot of a shrunk container to
where it is drawn. A mixin of TableScene.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF

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
        others_scale: tuple[float, float]
        _bounds: dict[tuple[float, float, int], QRectF]
        _tiles: dict[str, tuple[int, int, int]]

        def rebuild(self) -> None: ...
        def seats_from_here(self) -> list[int]: ...

    def set_others_scale(self, others: float, middle: float) -> None:
        """Draw the others' areas and the middle at these sizes (the view's choice)."""
        if (others, middle) != self.others_scale:
            self.others_scale = (others, middle)
            self.rebuild()

    def bounds_at(self, others: float, middle: float) -> QRectF:
        """The table's extent with the others and the middle drawn so (nothing moves); kept
        until the table is laid out again (the view asks on every resize)."""
        key = (others, middle, self.ctl.seat)
        if key not in self._bounds:
            self._bounds[key] = lay.compute(self.state, self.seats_from_here(), self._tiles,
                                            others, middle).bounds
        return self._bounds[key]

    def frame_of(self, container_id: str) -> tuple[QRectF | None, float]:
        """Where a container is drawn on the table, and at what size."""
        return self.layout.rects.get(container_id), self.layout.scale.get(container_id, 1.0)

    @staticmethod
    def _shrunk(spot: placement.Spot, rect: QRectF, k: float) -> placement.Spot:
        """A spot of a full-size container's rect, where it is drawn (shrunk by k)."""
        if k != 1.0:
            spot.pos, spot.scale = lay.to_scene(spot.pos, rect, k), spot.scale * k
        return spot
