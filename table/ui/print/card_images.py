"""Card images: one PNG per card at a chosen DPI, and deck sheets in the grid Tabletop
Simulator imports (up to 10 x 7 faces a sheet, plus one back image), with a text file naming
which card is where. Each file is written beside its name and renamed when complete.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QImage, QImageWriter, QPainter

from table.games.card_faces import CardSize

from .true_size import PrintCard, paint_true_size

MAX_COLS, MAX_ROWS = 10, 7  # Tabletop Simulator's largest deck sheet
PNG_QUALITY = 80  # Qt's PNG quality: light, quick compression (the files are read once)


@dataclass(frozen=True, slots=True)
class ExportResult:
    cards: list[Path]
    sheets: list[Path]
    back: Path | None
    index: Path | None


def card_pixels(size: CardSize, dpi: int) -> tuple[int, int]:
    return round(size.width_mm * dpi / 25.4), round(size.height_mm * dpi / 25.4)


def card_image(card: PrintCard, size: CardSize, dpi: int, back: bool = False) -> QImage:
    w, h = card_pixels(size, dpi)
    img = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    paint_true_size(p, QRectF(0, 0, w, h), size, card, back)
    p.end()
    return img


def parse_grid(text: str) -> tuple[int, int]:
    """"10x7" -> (10, 7); at most Tabletop Simulator's 10 x 7, at least 2 x 2... or 1 x 1."""
    try:
        cols, rows = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--sheet '{text}' is not COLSxROWS, e.g. 10x7") from None
    if not (1 <= cols <= MAX_COLS and 1 <= rows <= MAX_ROWS):
        raise ValueError(f"--sheet {cols}x{rows}: a sheet holds at most {MAX_COLS}x{MAX_ROWS}")
    return cols, rows


def save(img: QImage, path: Path) -> Path:
    tmp = path.with_name(f".{path.name}.part")
    writer = QImageWriter(str(tmp), QByteArray(b"png"))
    writer.setQuality(PNG_QUALITY)
    if not writer.write(img):
        tmp.unlink(missing_ok=True)
        raise OSError(f"cannot write {path}")
    os.replace(tmp, path)
    return path


def export(cards: list[PrintCard], size: CardSize, out: Path, dpi: int = 300,
           grid: tuple[int, int] | None = (10, 7), singles: bool = True) -> ExportResult:
    """PNGs of each distinct card (`singles`) and TTS sheets of all `cards` in order."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    seen: set[str] = set()
    faces: dict[str, QImage] = {}
    for card in cards:
        if card.card_id not in faces:
            faces[card.card_id] = card_image(card, size, dpi)
        if singles and card.card_id not in seen:
            seen.add(card.card_id)
            written.append(save(faces[card.card_id], out / f"{card.card_id}.png"))
    if grid is None or not cards:
        return ExportResult(written, [], None, None)
    sheets, lines = _sheets(cards, faces, size, dpi, grid, out)
    back = save(card_image(cards[0], size, dpi, back=True), out / "back.png")
    index = out / "sheets.txt"
    tmp = index.with_name(".sheets.txt.part")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(tmp, index)
    return ExportResult(written, sheets, back, index)


def _sheets(cards: list[PrintCard], faces: dict[str, QImage], size: CardSize, dpi: int,
            grid: tuple[int, int], out: Path) -> tuple[list[Path], list[str]]:
    max_cols, max_rows = grid
    per = max_cols * max_rows
    w, h = card_pixels(size, dpi)
    sheets: list[Path] = []
    lines = [f"# Tabletop Simulator deck sheets: {len(cards)} card(s), each {w}x{h} px; "
             f"import each sheet with its width and height below, and back.png as the back.",
             "# sheet  width x height  slot (row, col from 1)  card id  name"]
    for n in range(math.ceil(len(cards) / per)):
        chunk = cards[n * per:(n + 1) * per]
        cols = min(max_cols, len(chunk))
        rows = math.ceil(len(chunk) / cols)
        img = QImage(cols * w, rows * h, QImage.Format.Format_ARGB32_Premultiplied)
        img.fill(Qt.GlobalColor.black)
        p = QPainter(img)
        for i, card in enumerate(chunk):
            r, c = divmod(i, cols)
            p.drawImage(c * w, r * h, faces[card.card_id])
            lines.append(f"sheet-{n + 1}.png  {cols} x {rows}  row {r + 1}, col {c + 1}  "
                         f"{card.card_id}  {card.face.name}")
        p.end()
        sheets.append(save(img, out / f"sheet-{n + 1}.png"))
    return sheets, lines
