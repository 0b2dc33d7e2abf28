"""Reading text size off rendered pixels: the letters in a region of a picture, found as blobs
of ink, and the height of one of them (a capital or a digit: its cap height on screen).

Ink is every pixel whose lightness differs from the region's background (its commonest
colour) by at least half the largest difference there: the middle of the antialiased edge, so
a letter measures what a reader sees, give or take a pixel row of blur.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from PySide6.QtCore import QRect
from PySide6.QtGui import QImage

MIN_CONTRAST = 60  # lightness levels: less than this between ink and paper is no text


@dataclass(frozen=True, slots=True)
class Blob:
    left: int
    top: int
    right: int
    bottom: int

    @property
    def height(self) -> int:
        return self.bottom - self.top + 1

    @property
    def width(self) -> int:
        return self.right - self.left + 1


def _lightness(img: QImage, x: int, y: int) -> int:
    rgb = img.pixel(x, y)
    r, g, b = (rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255
    return (299 * r + 587 * g + 114 * b) // 1000


def blobs(img: QImage, region: QRect) -> list[Blob]:
    """The blobs of ink in `region` (clipped to the picture), in no particular order."""
    region = region.intersected(img.rect())
    if region.isEmpty():
        return []
    x0, y0, w, h = region.left(), region.top(), region.width(), region.height()
    light = [[_lightness(img, x0 + i, y0 + j) for i in range(w)] for j in range(h)]
    paper = Counter(v for row in light for v in row).most_common(1)[0][0]
    spread = max(abs(v - paper) for row in light for v in row)
    if spread < MIN_CONTRAST:
        return []
    ink = [[abs(v - paper) * 2 >= spread for v in row] for row in light]
    seen = [[False] * w for _ in range(h)]
    found: list[Blob] = []
    for j in range(h):
        for i in range(w):
            if not ink[j][i] or seen[j][i]:
                continue
            seen[j][i] = True
            stack, box = [(i, j)], [i, j, i, j]
            while stack:
                a, b = stack.pop()
                box = [min(box[0], a), min(box[1], b), max(box[2], a), max(box[3], b)]
                for da in (-1, 0, 1):
                    for db in (-1, 0, 1):
                        c, d = a + da, b + db
                        if 0 <= c < w and 0 <= d < h and ink[d][c] and not seen[d][c]:
                            seen[d][c] = True
                            stack.append((c, d))
            found.append(Blob(x0 + box[0], y0 + box[1], x0 + box[2], y0 + box[3]))
    return found


def _letters(found: list[Blob], region: QRect | None) -> list[Blob]:
    """Blobs that can be letters: not touching the region's edge (a frame or a neighbour's
    edge caught in the margin, or a letter cut by the region), and not specks (under half
    the tallest one's height: a stray dot, the antialiasing of a rounded corner)."""
    out = [b for b in found if b.height >= 3]
    if region is not None:
        out = [b for b in out if b.left > region.left() and b.top > region.top()
               and b.right < region.right() and b.bottom < region.bottom()]
    tall = max((b.height for b in out), default=0)
    return [b for b in out if b.height * 2 >= tall]


def first_line(found: list[Blob], region: QRect | None = None) -> list[Blob]:
    """The blobs of the topmost line, left to right (a blob whose top is within half the
    tallest letter's height of the highest top; specks of antialiasing left out)."""
    letters = _letters(found, region)
    if not letters:
        return []
    top = min(b.top for b in letters)
    tall = max(b.height for b in letters)
    return sorted((b for b in letters if b.top <= top + tall / 2), key=lambda b: b.left)


def last_line(found: list[Blob], region: QRect | None = None) -> list[Blob]:
    letters = _letters(found, region)
    if not letters:
        return []
    bottom = max(b.bottom for b in letters)
    tall = max(b.height for b in letters)
    return sorted((b for b in letters if b.bottom >= bottom - tall / 2), key=lambda b: b.left)


def glyph_height(img: QImage, region: QRect, which: str = "first") -> int:
    """The height in pixels of the first letter of the region's first line (`which`
    "first"), or of the last letter of its last line ("last"): 0 when there is no text."""
    region = region.intersected(img.rect())
    found = blobs(img, region)
    line = first_line(found, region) if which == "first" else last_line(found, region)
    if not line:
        return 0
    return (line[0] if which == "first" else line[-1]).height
