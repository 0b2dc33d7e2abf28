"""Every card of every shipped game, front and back, painted at every size it is shown at (the
player's own area, the others' areas, zoomed in, printed, read large): no text overflows its box
(the painter reports each one) and no letter falls outside the card."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

from table.games import find_module
from table.ui import theme
from table.ui.card_renderer import paint_back, paint_face
from table.ui.catalog import BackStyle, Catalog
from table.ui.face_text import recording_drawn, recording_overflows
from table.ui.hover_zoom import ZOOM_W
from table.ui.layout import OTHERS_SCALES
from table.ui.settings import TEXT_SCALES
from table.ui.view import OWN_ZOOM

GAMES = ["gauntlet", "mantle-of-the-keeper", "dead-to-rites"]
CARD = QRectF(0, 0, theme.CARD_W, theme.CARD_H)
# the table (the own area at each text size, each size the others' areas are drawn at), zoomed
# in, print, read large
SIZES = sorted({*(OWN_ZOOM * s for s in TEXT_SCALES), *(OWN_ZOOM * k for k in OTHERS_SCALES),
                1.0, 1.5, ZOOM_W / theme.CARD_W, 4.0})


@pytest.mark.parametrize("game", GAMES)
def test_no_text_overflows_on_any_face(qapp, game: str) -> None:  # type: ignore[no-untyped-def]
    module = find_module(game)
    catalog = Catalog.from_module(module)
    backs = {catalog.back, *(BackStyle(c, label) for c, label in module.back.by_type.values())}
    img = QImage(8, 8, QImage.Format.Format_ARGB32)
    painted = 0
    for lod in SIZES:
        p = QPainter(img)
        with recording_overflows() as overflows, recording_drawn() as drawn:
            for face in catalog.faces.values():
                paint_face(p, CARD, face, lod)
                painted += 1
            for back in backs:
                paint_back(p, CARD, back, lod, theme.seat_colour(1))
        p.end()
        assert overflows == [], f"{game} at {lod:.2f}: " + "; ".join(map(str, overflows))
        outside = [d for d in drawn if not CARD.contains(d.ink)]
        assert outside == [], f"{game} at {lod:.2f}: letters off the card: {outside[:3]}"
    assert painted == len(SIZES) * len(catalog.faces) > 100
