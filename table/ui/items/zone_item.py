"""A place on the table: a free zone, a hand, a pile, a slot, a board (slots or grid).

It paints the place and its label; the cards in it are separate CardItems the scene positions.
A pile paints its thickness and count under its top card.
"""
from __future__ import annotations

from typing import Protocol, cast

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from .. import theme
from ..layout import CELL, LABEL, PAD
from .zoom_still import ZoomStill


class ZoneHost(Protocol):
    """What a zone asks of the scene it lies in."""
    def draw_from(self, pile_id: str, count: int) -> None: ...


class ZoneItem(QGraphicsItem):
    def __init__(self, obj_id: str) -> None:
        super().__init__()
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)  # repaints blit
        self.still = ZoomStill(self, self._paint_live)  # while the view zooms
        self.obj_id = obj_id
        self.role = "zone"
        self.rect = QRectF(0, 0, 100, 100)
        self.name = obj_id
        self.count = 0
        self.accent: QColor = QColor("#9e9e9e")
        self.note = ""          # "private", "hidden"... under the name
        self.grid = (0, 0)
        self.highlight = False  # a drop would land here
        self.mine = False       # belongs to the viewing seat
        self.blocked: list[tuple[int, int]] = []  # obstruction cells of a map tile
        self.setZValue(-10 if self.role != "slot" else -5)

    def configure(self, role: str, rect: QRectF, name: str, count: int, accent: QColor,
                  note: str, mine: bool, grid: tuple[int, int] = (0, 0)) -> None:
        if rect != self.rect:
            self.prepareGeometryChange()
        self.role, self.rect, self.name, self.count = role, QRectF(rect), name, count
        self.accent, self.note, self.mine, self.grid = accent, note, mine, grid
        self.setZValue({"board": -20, "grid": -20, "slot": -8, "table": -30, "tile": -6,
                        "tileslot": -7}
                       .get(role, -10))
        self.still.changed()
        self.update()

    def set_count(self, count: int) -> None:
        if count != self.count:
            self.count = count
            self.still.changed()
            self.update()

    def set_highlight(self, on: bool) -> None:
        if on != self.highlight:
            self.highlight = on
            self.still.changed()
            self.update()

    def boundingRect(self) -> QRectF:
        return self.rect.adjusted(-4, -4, 4, 4)

    def card_anchor(self) -> QPointF:
        """Centre of the card spot of a pile or slot, on the table."""
        return self.mapToScene(self._anchor())

    def _anchor(self) -> QPointF:
        """That centre in the zone's own (full-size) units."""
        return QPointF(self.rect.center().x(), self.rect.top() + LABEL + PAD + theme.CARD_H / 2)

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        self.still.paint(p)

    def _paint_live(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        r = self.rect
        if self.role == "tile":
            self._tile(p)
            return
        if self.role == "tileslot":
            p.setPen(QPen(QColor(255, 255, 255, 50), 1.5, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(self.rect)
            return
        if self.role == "table":
            p.setPen(QPen(theme.ZONE_EDGE, 1.5, Qt.PenStyle.DotLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(r, 12, 12)
            self._label(p, "Open table", "drop cards and pieces anywhere")
            return
        edge = QColor(self.accent)
        edge.setAlpha(200 if self.mine else 120)
        fill = QColor(theme.ZONE_FILL)
        if self.role in ("board", "grid"):
            fill = QColor(0, 0, 0, 60)
        if self.role == "hand" and self.mine:
            fill = QColor(theme.PRIVATE.red(), theme.PRIVATE.green(), theme.PRIVATE.blue(), 30)
        if self.highlight:
            fill = QColor(theme.HILITE.red(), theme.HILITE.green(), theme.HILITE.blue(), 60)
            edge = theme.HILITE
        p.setPen(QPen(edge, 2.0 if self.highlight or self.mine else 1.4,
                      Qt.PenStyle.DashLine if self.role == "slot" else Qt.PenStyle.SolidLine))
        p.setBrush(fill)
        p.drawRoundedRect(r, 10, 10)
        if self.role == "grid":
            self._grid(p)
        if self.role == "pile":
            self._pile(p)
        if self.role == "slot" and self.count == 0:
            p.setFont(theme.legible_font(p, 12))
            if p.fontMetrics().horizontalAdvance("empty") < r.width() - 8:  # not a cube's place
                p.setPen(QColor(255, 255, 255, 60))
                p.drawText(QRectF(r.left(), self._anchor().y() - 20, r.width(), 40),
                           Qt.AlignmentFlag.AlignCenter, "empty")
        count = f"  ·  {self.count}" if self.role in ("pile", "hand") else ""
        self._label(p, self.name + count, self.note)

    def _label(self, p: QPainter, text: str, note: str) -> None:
        p.setFont(theme.legible_font(p, 13, bold=True))
        p.setPen(theme.ZONE_LABEL)
        fm = p.fontMetrics()
        w = self.rect.width() - 16
        main = fm.elidedText(text, Qt.TextElideMode.ElideRight, int(w))
        p.drawText(QRectF(self.rect.left() + 8, self.rect.top() + 2, w, LABEL),
                   Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, main)
        if note:
            used = fm.horizontalAdvance(main) + 10
            p.setFont(theme.legible_font(p, 11, italic=True))
            p.setPen(QColor(255, 255, 255, 120))
            p.drawText(QRectF(self.rect.left() + 8 + used, self.rect.top() + 2, w - used, LABEL),
                       Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                       p.fontMetrics().elidedText(note, Qt.TextElideMode.ElideRight,
                                                  int(max(0, w - used))))

    def _pile(self, p: QPainter) -> None:
        c = self._anchor()
        card = QRectF(c.x() - theme.CARD_W / 2, c.y() - theme.CARD_H / 2,
                      theme.CARD_W, theme.CARD_H)
        if self.count == 0:
            p.setPen(QPen(QColor(255, 255, 255, 70), 1.5, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(card, 8, 8)
            p.setFont(theme.legible_font(p, 12))
            p.setPen(QColor(255, 255, 255, 90))
            p.drawText(card, Qt.AlignmentFlag.AlignCenter, "empty")
            return
        # thickness: a few offset edges under the top card
        layers = min(4, max(0, (self.count - 1 + 9) // 10))
        for i in range(layers, 0, -1):
            edge = card.translated(i * 2.0, i * 2.0)
            p.setPen(QPen(QColor("#222"), 1))
            p.setBrush(QColor("#d8d2c0"))
            p.drawRoundedRect(edge, 8, 8)

    def _tile(self, p: QPainter) -> None:
        """A map tile: its outline, name, and obstruction cells shaded."""
        r = self.rect
        p.setPen(QPen(QColor(255, 255, 255, 110), 2))
        p.setBrush(QColor(120, 100, 70, 70))
        p.drawRect(r)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(25, 20, 15, 200))
        for x, y in self.blocked:
            p.drawRect(QRectF(r.left() + x * CELL + 2, r.top() + y * CELL + 2, CELL - 4, CELL - 4))
        p.setFont(theme.legible_font(p, 12, bold=True))
        p.setPen(QColor(255, 255, 255, 150))
        p.drawText(r.adjusted(4, 2, -4, -2), Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft,
                   self.name)

    def _grid(self, p: QPainter) -> None:
        cols, rows = self.grid
        left, top = self.rect.left() + PAD, self.rect.top() + LABEL + PAD
        p.setPen(QPen(QColor(255, 255, 255, 45), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        for i in range(cols + 1):
            p.drawLine(QPointF(left + i * CELL, top), QPointF(left + i * CELL, top + rows * CELL))
        for j in range(rows + 1):
            p.drawLine(QPointF(left, top + j * CELL), QPointF(left + cols * CELL, top + j * CELL))

    def cell_at(self, pos: QPointF) -> tuple[int, int] | None:
        """The grid cell under `pos` (on the table)."""
        pos = self.mapFromScene(pos)
        cols, rows = self.grid
        col = int((pos.x() - self.rect.left() - PAD) // CELL)
        row = int((pos.y() - self.rect.top() - LABEL - PAD) // CELL)
        return (col, row) if 0 <= col < cols and 0 <= row < rows else None

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        scene = cast(ZoneHost, self.scene())  # a zone lies only in the table scene
        if self.role == "pile":
            scene.draw_from(self.obj_id, 1)
