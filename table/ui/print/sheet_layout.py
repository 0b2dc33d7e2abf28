"""Where cards go on a printed sheet, in millimetres: no Qt, so it is tested on its own.

Cards sit in a grid centred on the page; with a bleed each card's picture runs `bleed` past its
cut line and neighbours' bleeds meet, so one cut per edge. Crop marks stand in the margin, in
line with every cut. Backs print on the next page at the mirrored place (long-edge duplex: the
sheet turns about its vertical axis), so each back falls behind its own front.
"""
from __future__ import annotations

from dataclasses import dataclass

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARK_GAP = 1.5     # mm between the bleed edge and a crop mark
MARK_LEN = 4.0     # mm
MIN_MARGIN = MARK_GAP + MARK_LEN + 0.5  # room for the marks (and most printers' dead edge)


class LayoutError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class Slot:
    x: float   # the card's cut box (its true size), top-left, mm from the page's top-left
    y: float
    w: float
    h: float


@dataclass(frozen=True, slots=True)
class SheetLayout:
    page_w: float
    page_h: float
    card_w: float
    card_h: float
    bleed: float
    cols: int
    rows: int

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def pitch_x(self) -> float:
        return self.card_w + 2 * self.bleed

    @property
    def pitch_y(self) -> float:
        return self.card_h + 2 * self.bleed

    @property
    def left(self) -> float:  # the grid's outer (bleed) edge
        return (self.page_w - self.cols * self.pitch_x) / 2

    @property
    def top(self) -> float:
        return (self.page_h - self.rows * self.pitch_y) / 2

    def slot(self, index: int, back: bool = False) -> Slot:
        """The cut box of the `index`-th card of a page (row by row); on a back page, mirrored."""
        col, row = index % self.cols, index // self.cols
        x = self.left + col * self.pitch_x + self.bleed
        y = self.top + row * self.pitch_y + self.bleed
        if back:
            x = self.page_w - x - self.card_w
        return Slot(x, y, self.card_w, self.card_h)

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """The x of every vertical cut and the y of every horizontal one (sorted, unique)."""
        xs = sorted({round(self.left + c * self.pitch_x + self.bleed + d, 6)
                     for c in range(self.cols) for d in (0.0, self.card_w)})
        ys = sorted({round(self.top + r * self.pitch_y + self.bleed + d, 6)
                     for r in range(self.rows) for d in (0.0, self.card_h)})
        return xs, ys

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """Short lines (x1, y1, x2, y2) in the margins, in line with every cut."""
        xs, ys = self.cut_lines()
        top, bottom = self.top, self.top + self.rows * self.pitch_y
        left, right = self.left, self.left + self.cols * self.pitch_x
        marks = []
        for x in xs:
            marks.append((x, top - MARK_GAP - MARK_LEN, x, top - MARK_GAP))
            marks.append((x, bottom + MARK_GAP, x, bottom + MARK_GAP + MARK_LEN))
        for y in ys:
            marks.append((left - MARK_GAP - MARK_LEN, y, left - MARK_GAP, y))
            marks.append((right + MARK_GAP, y, right + MARK_GAP + MARK_LEN, y))
        return marks


def plan(paper: str, card_w: float, card_h: float, bleed: float = 0.0) -> SheetLayout:
    """As many cards as fit on the paper (either way up is not tried: cards print upright)."""
    if paper.lower() not in PAPERS:
        raise LayoutError(f"paper '{paper}' is not one of {', '.join(PAPERS)}")
    if not 0 <= bleed <= 10:
        raise LayoutError(f"a bleed of {bleed} mm is not usable (0 to 10 mm)")
    page_w, page_h = PAPERS[paper.lower()]
    usable_w, usable_h = page_w - 2 * MIN_MARGIN, page_h - 2 * MIN_MARGIN
    cols = int(usable_w // (card_w + 2 * bleed))
    rows = int(usable_h // (card_h + 2 * bleed))
    if cols < 1 or rows < 1:
        raise LayoutError(f"a {card_w:g} x {card_h:g} mm card (bleed {bleed:g} mm) does not fit "
                          f"on {paper} paper with room for crop marks")
    return SheetLayout(page_w, page_h, card_w, card_h, bleed, cols, rows)


def pages(count: int, layout: SheetLayout) -> list[range]:
    """The card indexes of each sheet."""
    n = layout.per_page
    return [range(i, min(i + n, count)) for i in range(0, count, n)]
