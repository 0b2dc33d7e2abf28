"""Text and art on a card face: fitting text to its box, drawing it (so that a reader of the
face, a test say, can collect what it reads), and a card's art read once. Shared by the faces
drawn from the card template (card_renderer.py) and those from a designer's layout
(face_regions.py)."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QImage, QPainter

from . import theme

_recorder: list[str] | None = None


@contextmanager
def recording_texts() -> Iterator[list[str]]:
    """Collect every text the painter draws meanwhile (what a reader of the face can read)."""
    global _recorder
    before, _recorder = _recorder, []
    try:
        yield _recorder
    finally:
        _recorder = before


def draw_text(p: QPainter, rect: QRectF, flags: int, text: str) -> None:
    if _recorder is not None:
        _recorder.append(text)
    p.drawText(rect, flags, text)


WRAP = int(Qt.TextFlag.TextWordWrap)
CENTRE_WRAP = int(Qt.AlignmentFlag.AlignCenter) | WRAP
TOP_WRAP = int(Qt.AlignmentFlag.AlignTop) | int(Qt.AlignmentFlag.AlignLeft) | WRAP


@lru_cache(maxsize=256)
def face_image(path: str) -> QImage | None:
    """A card's art, read once (None: the file cannot be read as an image)."""
    img = QImage(path)
    return None if img.isNull() else img


@lru_cache(maxsize=4096)
def fit_text(text: str, width: float, height: float, sizes: tuple[float, ...], bold: bool,
             flags: int = CENTRE_WRAP) -> float:
    """The largest of `sizes` (pixels) at which `text` wraps inside width x height; the
    smallest when none does."""
    for size in sizes:
        fm = QFontMetricsF(theme.font(size, bold=bold))
        need = fm.boundingRect(QRectF(0, 0, width, 10_000), flags, text)
        if need.height() <= height and need.width() <= width + 0.5:
            return size
    return sizes[-1]
