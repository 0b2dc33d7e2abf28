"""The default view of every game on a laptop (a 1366x768 screen: the window as it opens there,
frame taken off), measured on its rendered pixels: the cap height of every card's name, cost,
stat labels and digits in the player's own hand and play area (at least 9 px) and in the others'
areas (at least 7 px), the rules text of the card under the pointer in the reading panel (at
least 9 px, no key held), and Mantle's arena cells (at least 24 px).

Each text is found where the painter says it drew it (its record of texts and boxes), then its
first letter (a capital or a digit) is measured as a blob of ink in a screenshot of the window
(tests/ui/glyphs.py): the font's settings are never read.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import pytest
from PySide6.QtCore import QPoint, QRect, QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QImage, QPainter
from PySide6.QtWidgets import QApplication

from table.core.rng import Rng
from table.games import find_module
from table.games.setup import new_table
from table.ui import theme
from table.ui.card_pixmaps import STEPS
from table.ui.card_renderer import paint_face
from table.ui.catalog import Catalog
from table.ui.face_text import recording_drawn
from table.ui.items.card_item import CardItem
from table.ui.items.card_marks import CARD_RECT
from table.ui.main_window import TableWindow
from tests.ui.glyphs import glyph_height
from tests.ui.helpers import hover, show_active

LAPTOP_WINDOW = (1364, 743)  # 1366x768 less a title bar and border
USUAL_SEATS = {"gauntlet": 2, "mantle-of-the-keeper": 4, "dead-to-rites": 4}
MEASURED = ("name", "cost", "stat-label", "stat-value", "stat")
OWN_MIN, OTHERS_MIN, RULES_MIN, CELL_MIN = 9, 7, 9, 24


def open_table(qtbot, game: str, size: tuple[int, int] = LAPTOP_WINDOW,  # type: ignore[no-untyped-def]
               seats: int | None = None) -> TableWindow:
    module = find_module(game)
    replica = new_table(module, seats or USUAL_SEATS[game], rng=Rng(5), peer_id="hot",
                        table_id="t")
    w = TableWindow(replica, Catalog.from_module(module))
    show_active(qtbot, w, size)
    qtbot.waitUntil(lambda: w.view.legible)
    settle(qtbot, w)
    return w


def settle(qtbot, w: TableWindow) -> None:  # type: ignore[no-untyped-def]
    """Until the cards' pictures are rendered at the view's zoom (as once zooming pauses)."""
    qtbot.waitUntil(lambda: abs(w.scene.card_resolution - w.view.zoom) < 1e-3)
    QApplication.processEvents()


@dataclass(frozen=True, slots=True)
class Measured:
    region: str  # "own hand", "own play", "others", "middle"
    role: str
    text: str
    px: int      # the first letter's height (for "stat": the last one's too)


def _region(w: TableWindow, item: CardItem) -> str:
    at = item.sceneBoundingRect().center()
    own = w.ctl.seat
    for seat, area in w.scene.layout.seat_areas.items():
        if area.contains(at):
            if seat != own:
                return "others"
            return "own hand" if item.container_role == "hand" else "own play"
    return "middle"


def _on_window(w: TableWindow, item: CardItem, box: QRectF) -> QRect:
    """A box of the card's face (face units, from its top left) where it is on the window."""
    local = box.translated(CARD_RECT.topLeft())
    poly = w.view.mapFromScene(item.mapToScene(local))
    rect = poly.boundingRect()
    corner = w.view.viewport().mapTo(w, rect.topLeft())
    return QRect(corner, rect.size()).adjusted(-2, -2, 2, 2)


def _uncovered(w: TableWindow, item: CardItem, rect: QRect) -> bool:
    """Nothing lies over the card there, and it is inside the view."""
    vp = w.view.viewport()
    inner = QRect(vp.mapFrom(w, rect.topLeft()), rect.size())
    if not vp.rect().contains(inner):
        return False
    for point in (inner.center(), inner.topLeft() + QPoint(2, 2),
                  inner.bottomRight() - QPoint(2, 2)):
        top = next((i for i in w.view.items(point) if isinstance(i, CardItem)), None)
        if top is not item:
            return False
    return True


def face_texts(item: CardItem):  # type: ignore[no-untyped-def]
    """What the card's picture shows, painted again as it was rendered (same face, same
    scale): each text with its role and box."""
    scale = max(1, round(item.res * item.scale() * STEPS)) / STEPS
    img = QImage(8, 8, QImage.Format.Format_ARGB32)
    p = QPainter(img)
    with recording_drawn() as drawn:
        paint_face(p, QRectF(0, 0, theme.CARD_W, theme.CARD_H), item.face, scale)
    p.end()
    return drawn


def measure_cards(w: TableWindow, shot: QImage) -> list[Measured]:
    out: list[Measured] = []
    for item in w.scene.cards.values():
        if item.face is None or not item.isVisible():
            continue
        region = _region(w, item)
        for drawn in face_texts(item):
            if drawn.role not in MEASURED or not (drawn.text[:1].isupper() or
                                                  drawn.text[:1].isdigit()):
                continue
            rect = _on_window(w, item, drawn.ink)
            if not _uncovered(w, item, rect):
                continue
            px = glyph_height(shot, rect)
            if drawn.role == "stat":  # "Pow 2": the label's capital and the value's digit
                px = min(px, glyph_height(shot, rect, "last"))
            out.append(Measured(region, drawn.role, drawn.text, px))
    return out


def backs_in_hands_say_nothing(w: TableWindow) -> bool:
    """The others' hands are rows of overlapping backs: a back's label there would read as
    fragments ("DE F"), so they carry none (their pictures, painted again, draw no text)."""
    from table.ui.card_renderer import paint_back

    hidden = [i for i in w.scene.cards.values() if i.face is None and i.container_role == "hand"]
    img = QImage(8, 8, QImage.Format.Format_ARGB32)
    p = QPainter(img)
    with recording_drawn() as drawn:
        for item in hidden:
            paint_back(p, QRectF(0, 0, theme.CARD_W, theme.CARD_H), item.back, 0.5,
                       item.owner_colour)
    p.end()
    return bool(hidden) and not drawn


def smallest(found: list[Measured]) -> dict[tuple[str, str], int]:
    least: dict[tuple[str, str], int] = defaultdict(lambda: 999)
    for m in found:
        least[(m.region, m.role)] = min(least[(m.region, m.role)], m.px)
    return dict(least)


def rules_text_height(qtbot, w: TableWindow, item: CardItem) -> int:  # type: ignore[no-untyped-def]
    """Point at the card (a real mouse move, no key held) and measure the first letter of its
    rules text in the reading panel."""
    hover(w.view, item.sceneBoundingRect().center())
    qtbot.waitUntil(lambda: w.preview.current == item.obj_id)
    QApplication.processEvents()
    label = w.preview.rules
    assert label.isVisible() and label.text(), "the reading panel shows no rules text"
    shot = w.grab().toImage()
    corner = label.mapTo(w, QPoint(0, 0))
    # a margin round the label: its first letter may touch the label's edge
    return glyph_height(shot, QRect(corner, label.size()).adjusted(-3, -3, 3, 3))


def arena_cell_px(w: TableWindow) -> float:
    """A cell of Mantle's arena on screen: the board's grid lines' spacing, where drawn."""
    from table.ui.layout import CELL

    arena = w.scene.zones["arena"]
    return CELL * arena.scale() * w.view.zoom


def standee_tag_height(qtbot, w: TableWindow) -> int:  # type: ignore[no-untyped-def]
    """Drag the player's standee onto the arena (as setup says) and measure the first letter
    of the name it wears there."""
    from PySide6.QtCore import QPointF

    from table.ui.layout import CELL, LABEL, PAD
    from tests.ui.helpers import drag

    arena = w.scene.zones["arena"]
    standee = w.scene.tokens[f"p{w.ctl.seat}.standee"]
    target = arena.mapToScene(arena.rect.topLeft() + QPointF(PAD + 2.5 * CELL,
                                                             LABEL + PAD + 3.5 * CELL))
    drag(w.view, standee.scenePos(), target)
    qtbot.waitUntil(lambda: w.replica.state.objs[standee.obj_id].container == "arena")
    qtbot.waitUntil(lambda: standee.tag.isVisible())
    QApplication.processEvents()
    on_view = standee.tag.deviceTransform(w.view.viewportTransform())  # it ignores the zoom
    tag = on_view.mapRect(standee.tag.boundingRect()).toAlignedRect()
    corner = w.view.viewport().mapTo(w, tag.topLeft())
    return glyph_height(w.grab().toImage(), QRect(corner, tag.size()).adjusted(-2, -2, 2, 2))


def test_the_measure_reads_a_font_s_cap_height(qapp) -> None:  # type: ignore[no-untyped-def]
    """The ruler itself: text drawn at known sizes measures the font's cap height, +-1 px."""
    for px in (9, 10, 12, 13, 16, 20):
        img = QImage(200, 60, QImage.Format.Format_ARGB32)
        img.fill(theme.CARD_PAPER)
        p = QPainter(img)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        p.setFont(theme.font(px, bold=True))
        p.setPen(theme.TEXT_DARK)
        p.drawText(QRectF(4, 4, 190, 50), int(Qt.AlignmentFlag.AlignLeft), "Hip 7")
        p.end()
        cap = QFontMetricsF(theme.font(px, bold=True)).capHeight()
        assert abs(glyph_height(img, img.rect()) - cap) <= 1, px
        assert abs(glyph_height(img, img.rect(), "last") - cap) <= 1, px


@pytest.mark.parametrize("game", sorted(USUAL_SEATS))
def test_every_card_reads_where_it_lies_at_the_default_view(qtbot, styled, game: str) -> None:  # type: ignore[no-untyped-def]
    w = open_table(qtbot, game)
    try:
        shot = w.grab().toImage()
        found = measure_cards(w, shot)
        least = smallest(found)
        print(game, sorted(least.items()))
        regions = {m.region for m in found}
        assert {"own hand", "own play", "others"} <= regions, regions
        for (region, role), px in least.items():
            if region.startswith("own"):
                assert px >= OWN_MIN, (region, role, px, [m for m in found if m.px == px])
            elif region == "others":
                assert px >= OTHERS_MIN, (region, role, px, [m for m in found if m.px == px])
        assert backs_in_hands_say_nothing(w)
        with_text = [i for i in w.scene.cards.values() if i.face is not None and i.face.text
                     and _region(w, i) == "own hand"]
        assert with_text
        rules = rules_text_height(qtbot, w, with_text[0])
        print(game, "rules text", rules, "others drawn at", w.scene.layout.others)
        assert rules >= RULES_MIN
        if game == "mantle-of-the-keeper":
            cell, tag = arena_cell_px(w), standee_tag_height(qtbot, w)
            print(game, "arena cell", round(cell, 1), "standee's name", tag)
            assert cell >= CELL_MIN and tag >= OTHERS_MIN
    finally:
        w.shutdown()
