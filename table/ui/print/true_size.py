"""One card painted at its true size: the table's painter, scaled from scene units to paper.

The table draws a card 120 units wide; on paper that width is the module's card width, and the
height follows the module's proportions, so a tarot card is drawn tall, not stretched.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImageReader, QPainter

from table.games.card_faces import CardSize
from table.games.module import GameModule
from table.games.problems import ModuleError, Problem

from .. import theme
from ..card_renderer import paint_back, paint_face
from ..catalog import BackStyle, CardFace, Catalog

PRINT_LOD = 1.0  # the face a player reads on the table, rules text and all


@dataclass(frozen=True, slots=True)
class PrintCard:
    """A card to print: its front and its back (by card type)."""

    card_id: str
    face: CardFace
    back: BackStyle


def print_cards(module: GameModule, catalog: Catalog, picks: list[tuple[str, int]]
                ) -> list[PrintCard]:
    """Each picked card as many times as its count; art is checked before anything is drawn."""
    out: list[PrintCard] = []
    problems: list[Problem] = []
    for cid, count in picks:
        card = module.cards[cid]
        if card.image:
            _check_art(module, card.image, card.line, cid, problems)
        colour, label = module.back.by_type.get(card.type, (module.back.colour,
                                                            module.back.label))
        out.extend([PrintCard(cid, catalog.face(cid), BackStyle(colour, label))] * count)
    if problems:
        raise ModuleError(problems)
    return out


def _check_art(module: GameModule, image: str, line: int, cid: str,
               problems: list[Problem]) -> None:
    path = Path(module.path) / image
    where = f"{Path(module.path).name}/cards.csv"
    if not path.is_file():
        problems.append(Problem(where, line, f"card '{cid}': art '{image}' is missing"))
        return
    reader = QImageReader(str(path))
    if not reader.canRead() or reader.size().isEmpty():
        problems.append(Problem(where, line, f"card '{cid}': art '{image}' cannot be read "
                                f"({reader.errorString()})"))


def face_rect(size: CardSize) -> QRectF:
    """The card in scene units: 120 wide, as tall as the module's proportions make it."""
    return QRectF(0, 0, theme.CARD_W, theme.CARD_W * size.ratio)


def paint_true_size(p: QPainter, cut: QRectF, size: CardSize, card: PrintCard, back: bool,
                    bleed: float = 0.0) -> None:
    """Paint `card` into `cut` (device units of `p`); with a bleed its colour runs past it."""
    if bleed > 0:
        colour = QColor(card.back.colour if back else card.face.colour)
        p.fillRect(cut.adjusted(-bleed, -bleed, bleed, bleed),
                   colour if colour.isValid() else QColor("#777777"))
    rect = face_rect(size)
    p.save()
    p.translate(cut.topLeft())
    p.scale(cut.width() / rect.width(), cut.height() / rect.height())
    if back:
        paint_back(p, rect, card.back, PRINT_LOD)
    else:
        paint_face(p, rect, card.face, PRINT_LOD)
    p.restore()
