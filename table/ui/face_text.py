"""Text and art on a card face: fitting text to its box, drawing it (so that a reader of the
face, a test say, can collect what it reads and where), reporting text that does not fit its
box, and a card's art read once. Shared by the faces drawn from the card template
(card_renderer.py) and those from a designer's layout (face_regions.py)."""
from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QImage, QPainter

from . import theme

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class DrawnText:
    """One text as the painter drew it: what it says, what it is on the card (name, cost,
    type, stat, stat-label, stat-value, rules, back...), the box it was given and where its
    letters lie (both in the painter's units), and the font's pixel size there."""
    text: str
    role: str
    box: QRectF
    ink: QRectF
    px: float


@dataclass(frozen=True, slots=True)
class Overflow:
    """A text that did not fit its box: the card reads less than it says."""
    text: str
    role: str
    need: tuple[float, float]
    room: tuple[float, float]

    def __str__(self) -> str:
        return (f"{self.role or 'text'} {self.text!r} needs {self.need[0]:.1f}x{self.need[1]:.1f}"
                f" in {self.room[0]:.1f}x{self.room[1]:.1f}")


_texts: list[str] | None = None
_drawn: list[DrawnText] | None = None
_overflows: list[Overflow] | None = None
_reported: set[tuple[str, str, float, float]] = set()  # logged once each


@contextmanager
def recording_texts() -> Iterator[list[str]]:
    """Collect every text the painter draws meanwhile (what a reader of the face can read)."""
    global _texts
    before, _texts = _texts, []
    try:
        yield _texts
    finally:
        _texts = before


@contextmanager
def recording_drawn() -> Iterator[list[DrawnText]]:
    """Collect every text the painter draws meanwhile, with its role and where it lies."""
    global _drawn
    before, _drawn = _drawn, []
    try:
        yield _drawn
    finally:
        _drawn = before


@contextmanager
def recording_overflows() -> Iterator[list[Overflow]]:
    """Collect every text drawn meanwhile that did not fit its box."""
    global _overflows
    before, _overflows = _overflows, []
    try:
        yield _overflows
    finally:
        _overflows = before


SLACK = 0.75  # units: antialiasing and rounding, not a letter cut


def draw_text(p: QPainter, rect: QRectF, flags: int, text: str, role: str = "",
              whole: str | None = None) -> None:
    """Draw `text` in `rect`; a text wider or taller than its box is reported (and so is one
    drawn shortened: `whole` is what it stood for)."""
    if _texts is not None:
        _texts.append(text)
    fm = QFontMetricsF(p.font())
    ink = fm.boundingRect(rect, flags, text)
    if _drawn is not None:
        _drawn.append(DrawnText(text, role, QRectF(rect), ink, float(p.font().pixelSize())))
    if ink.width() > rect.width() + SLACK or ink.height() > rect.height() + SLACK or \
            (whole is not None and whole != text):
        _report(Overflow(whole or text, role, (ink.width(), ink.height()),
                         (rect.width(), rect.height())))
    p.drawText(rect, flags, text)


def _report(overflow: Overflow) -> None:
    if _overflows is not None:
        _overflows.append(overflow)
    key = (overflow.text, overflow.role, round(overflow.room[0]), round(overflow.room[1]))
    if key not in _reported and len(_reported) < 500:
        _reported.add(key)
        log.warning("card face: %s", overflow)


WRAP = int(Qt.TextFlag.TextWordWrap)
CENTRE_WRAP = int(Qt.AlignmentFlag.AlignCenter) | WRAP
TOP_WRAP = int(Qt.AlignmentFlag.AlignTop) | int(Qt.AlignmentFlag.AlignLeft) | WRAP


@lru_cache(maxsize=256)
def face_image(path: str) -> QImage | None:
    """A card's art, read once (None: the file cannot be read as an image)."""
    img = QImage(path)
    return None if img.isNull() else img


_VOWELS = set("aeiouyAEIOUY")
_ONSETS = {"bl", "br", "ch", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "ph", "pl", "pr", "sc",
           "sh", "sk", "sl", "sm", "sn", "sp", "st", "sw", "th", "tr", "tw", "wh", "wr"}


def _syllable_edge(word: str, i: int) -> int:
    """How good a place to hyphenate `word` before letter i is: 2 before a consonant (or a
    consonant pair that can start a syllable) that follows a vowel ("Mecha-nical", "Carto-
    grapher"), 1 between two consonants ("Ambas-sador"), 0 elsewhere."""
    a, b = word[i - 1], word[i]
    if not (a.isalpha() and b.isalpha()):
        return 0
    if a in _VOWELS and b not in _VOWELS:
        nxt = word[i + 1] if i + 1 < len(word) else ""
        if nxt in _VOWELS or (word[i:i + 2].lower() in _ONSETS):
            return 2
    if a not in _VOWELS and b not in _VOWELS and (a + b).lower() not in _ONSETS:
        return 1
    return 0


def _cut(word: str, fm: QFontMetricsF, width: float) -> int:
    """Where to hyphenate a word too wide for its line: after a "/" in reach, else at the best
    syllable edge among the cuts that fit (three letters at least on each side), the longest
    first line among equals."""
    fits = [i for i in range(3, len(word) - 2) if fm.horizontalAdvance(word[:i] + "-") <= width]
    if not fits:
        fits = [i for i in range(1, len(word)) if fm.horizontalAdvance(word[:i] + "-") <= width]
        return fits[-1] if fits else 1
    slash = [i for i in fits if word[i - 1] == "/"]
    if slash:
        return slash[-1]
    return max(fits, key=lambda i: (_syllable_edge(word, i), i))


def break_lines(text: str, fm: QFontMetricsF, width: float, hyphens: bool = True) -> list[str]:
    """`text` in lines no wider than `width`: broken between words, and a word wider than a
    line hyphenated ("Carto-" / "grapher") rather than cut or shrunk out of sight (without
    `hyphens`, such a word stays whole, wider than the line)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}" if line else word
            if fm.horizontalAdvance(trial) <= width:
                line = trial
                continue
            if hyphens and fm.horizontalAdvance(word) > width and line:
                # a word that must be hyphenated anyway starts on this line, if a piece fits
                room = width - fm.horizontalAdvance(line + " ")
                cut = _cut(word, fm, room)
                if 3 <= cut <= len(word) - 3 and \
                        fm.horizontalAdvance(word[:cut] + "-") <= room:
                    lines.append(f"{line} {word[:cut]}-")
                    line, word = "", word[cut:]
            if line:
                lines.append(line)
            while hyphens and fm.horizontalAdvance(word) > width and len(word) > 3:
                cut = _cut(word, fm, width)
                lines.append(word[:cut] if word[cut - 1] == "/" else word[:cut] + "-")
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


@lru_cache(maxsize=4096)
def fit_lines(text: str, width: float, height: float, sizes: tuple[float, ...],
              bold: bool, whole_words: int = 2) -> tuple[float, tuple[str, ...]]:
    """The largest of `sizes` at which `text` fits width x height, and its lines: broken
    between words at one of the first `whole_words` sizes, else with long words hyphenated at
    any size (a hyphen reads better than letters too small to read); the smallest size
    (hyphenated) when none fits."""
    lines: list[str] = []
    for hyphens, tried in ((False, sizes[:whole_words]), (True, sizes)):
        for size in tried:
            fm = QFontMetricsF(theme.font(size, bold=bold))
            lines = break_lines(text, fm, width, hyphens)
            need = fm.boundingRect(QRectF(0, 0, width, 10_000),
                                   int(Qt.AlignmentFlag.AlignCenter), "\n".join(lines))
            if need.height() <= height + SLACK and need.width() <= width + SLACK:
                return size, tuple(lines)
    return sizes[-1], tuple(lines)


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
