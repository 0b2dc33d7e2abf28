"""The default view on a laptop (a 1366x768 screen: the window as it opens there, frame and
panels taken off): every seat's area on screen, the player's own area large enough that no
label is under 9 px, and the player's hand fanned wide enough to show every card's name."""
from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

from table.core.rng import Rng
from table.games import find_module
from table.games.setup import new_table
from table.ui import theme
from table.ui.catalog import Catalog
from table.ui.games import available_games
from table.ui.main_window import TableWindow
from table.ui.view import LEGIBLE_ZOOM
from tests.ui.helpers import show_active

LAPTOP_WINDOW = (1364, 743)  # 1366x768 less a title bar and border
GAMES = ["gauntlet", "mantle-of-the-keeper", "dead-to-rites"]


def _open(qtbot, game: str) -> TableWindow:  # type: ignore[no-untyped-def]
    module = find_module(game)
    seats = next(c for c in available_games() if c.id == game).min_seats
    replica = new_table(module, max(seats, 4 if game == "dead-to-rites" else seats), rng=Rng(5),
                        peer_id="hot", table_id="t")
    w = TableWindow(replica, Catalog.from_module(module))
    show_active(qtbot, w, LAPTOP_WINDOW)
    qtbot.waitUntil(lambda: w.view.legible and w.view.zoom >= LEGIBLE_ZOOM - 1e-6)
    return w


def _on_screen(w: TableWindow, rect: QRectF) -> bool:
    shown = w.view.mapFromScene(rect).boundingRect()
    return w.view.viewport().rect().adjusted(-1, -1, 1, 1).contains(shown)


def _smallest_label_px(zoom: float) -> float:
    """The smallest label the own area draws (11 px on the table), on screen at `zoom`."""
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    p = QPainter(image)
    p.scale(zoom, zoom)
    px = theme.legible_font(p, 11, italic=True).pixelSize()
    p.end()
    return px * zoom


@pytest.mark.parametrize("game", GAMES)
def test_every_seat_is_on_screen_and_the_own_area_is_legible(qtbot, game: str) -> None:  # type: ignore[no-untyped-def]
    w = _open(qtbot, game)
    try:
        layout = w.scene.layout
        assert len(layout.seat_areas) >= 2
        for seat, area in layout.seat_areas.items():
            assert _on_screen(w, area), f"{game}: seat {seat}'s area is cut off"
        assert _on_screen(w, layout.middle)
        own = w.ctl.seat
        assert layout.seat_scale[own] == 1.0  # the player's own area is never shrunk
        zoom = w.view.zoom
        assert zoom >= LEGIBLE_ZOOM
        assert _smallest_label_px(zoom) >= 9.0
        for oid, item in w.scene.zones.items():  # every own zone at full size
            obj = w.replica.state.objs[oid]
            if obj.props.get("seat") == own:
                assert item.scale() == 1.0
    finally:
        w.shutdown()


def test_a_full_hand_shows_every_name(qtbot) -> None:  # type: ignore[no-untyped-def]
    w = _open(qtbot, "gauntlet")
    try:
        hand = w.scene.own_hand()
        assert hand is not None
        w.view.setFocus()
        while len(w.replica.state.objs[hand].children) < 6:
            qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_D)  # Draw
        cards = sorted((w.scene.cards[c] for c in w.replica.state.objs[hand].children),
                       key=lambda item: item.pos().x())
        for left, right in itertools.pairwise(cards):  # side by side: no card covers a name
            assert right.pos().x() - left.pos().x() >= theme.CARD_W
        for item in cards:
            assert _on_screen(w, item.sceneBoundingRect())
    finally:
        w.shutdown()
