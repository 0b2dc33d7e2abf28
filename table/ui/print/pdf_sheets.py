"""Print-and-play sheets as a PDF at true size, with Qt's own PDF writer (vector text, art at
its own resolution).

The file appears only when complete: it is written beside its name and renamed at the end.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QMarginsF, QPointF, QRectF, QSizeF
from PySide6.QtGui import QColor, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen

from table.games.card_faces import CardSize

from .sheet_layout import SheetLayout, pages
from .true_size import PrintCard, paint_true_size

DPI = 1200  # device units of the writer: fine enough that a cut lands within 0.03 mm
_PAGE_IDS = {"a4": QPageSize.PageSizeId.A4, "letter": QPageSize.PageSizeId.Letter}


def write_pdf(out: str | Path, cards: list[PrintCard], size: CardSize, layout: SheetLayout,
              paper: str, backs: bool = True, title: str = "",
              progress: Callable[[int, int], None] | None = None, marks: bool = True) -> int:
    """Write the sheets; returns the number of pages."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".part", dir=out.parent)
    os.close(fd)
    try:
        count = _write(tmp, cards, size, layout, paper, backs, title, progress, marks)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as any written file, not mkstemp's private 0600
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return count


def _write(path: str, cards: list[PrintCard], size: CardSize, layout: SheetLayout, paper: str,
           backs: bool, title: str, progress: Callable[[int, int], None] | None,
           marks: bool) -> int:
    writer = QPdfWriter(path)
    writer.setResolution(DPI)
    writer.setTitle(title)
    writer.setCreator("Sandtable")
    writer.setPageLayout(QPageLayout(QPageSize(_PAGE_IDS[paper.lower()]),
                                     QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
    p = QPainter(writer)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    sheets = pages(len(cards), layout)
    count = 0
    for n, sheet in enumerate(sheets):
        for side in ((False, True) if backs else (False,)):
            if count:
                writer.newPage()
            paint_sheet(p, [cards[i] for i in sheet], size, layout, side, marks=marks)
            count += 1
        if progress is not None:
            progress(n + 1, len(sheets))
    p.end()
    return count


def mm(value: float) -> float:
    return value * DPI / 25.4


def paint_sheet(p: QPainter, cards: list[PrintCard], size: CardSize, layout: SheetLayout,
                back: bool, unit: Callable[[float], float] = mm, marks: bool = True) -> None:
    """One page: its cards (fronts, or backs at the mirrored places) and the crop marks."""
    for i, card in enumerate(cards):
        s = layout.slot(i, back)
        paint_true_size(p, QRectF(unit(s.x), unit(s.y), unit(s.w), unit(s.h)), size, card, back,
                        unit(layout.bleed))
    if not marks:
        return
    p.setPen(QPen(QColor("black"), unit(0.1)))
    for x1, y1, x2, y2 in layout.crop_marks():
        p.drawLine(QPointF(unit(x1), unit(y1)), QPointF(unit(x2), unit(y2)))


def page_size_mm(paper: str) -> QSizeF:
    return QPageSize(_PAGE_IDS[paper.lower()]).size(QPageSize.Unit.Millimeter)
