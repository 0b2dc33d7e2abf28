"""Where a piece goes when it is put down among others (table.ui.placement)."""
from __future__ import annotations

from PySide6.QtCore import QRectF

from table.ui import placement


def test_a_piece_put_where_others_lie_goes_to_the_nearest_clear_place() -> None:
    zone = QRectF(0, 0, 400, 200)
    counter = QRectF(240, 10, 154, 62)  # a counter's wide box, where the die was asked for
    die = 56.0
    pos = placement.clear_of(zone, [282.0, 38.0], die, [counter])
    assert pos != [282.0, 38.0]
    assert not QRectF(pos[0] - die / 2, pos[1] - die / 2, die, die).intersects(counter)
    assert placement.clear_of(zone, [40.0, 38.0], die, [counter]) == [40.0, 38.0]  # clear already
