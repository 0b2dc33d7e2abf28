"""`sandtable print`: each shipped game's starter decks on paper, measured from the PDF itself.

pdfinfo gives the page size, pdftoppm renders the pages (the crop marks are measured in its
pixels) and pdftotext -bbox gives each word and where it is (poppler-utils).
"""
from __future__ import annotations

import itertools
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from table.app.cli import main
from table.games import find_module
from table.ui.print.sheet_layout import MARK_GAP, MARK_LEN, plan

pytestmark = [pytest.mark.skipif(not shutil.which("pdftoppm") or not shutil.which("pdftotext"),
                                reason="needs poppler-utils (pdftoppm, pdftotext)"), pytest.mark.processes]
GAMES = ["dead-to-rites", "gauntlet", "mantle-of-the-keeper"]
PT = 25.4 / 72  # mm per PDF point
PAPER_PT = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


def _print(*args: str) -> int:
    return main(["print", *args])


def _words(pdf: Path, page: int) -> list[tuple[float, float, str]]:
    """(x, y, word) in mm from the page's top-left, for the words of one page."""
    out = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf), "-"],
                         capture_output=True, text=True, check=True).stdout
    return [(float(m[1]) * PT, float(m[2]) * PT, _unescape(m[3]))
            for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)</word>',
                                 out)]


def _unescape(text: str) -> str:
    """The word as pdftotext gives it (no ligatures are drawn, so "Offering" reads as typed)."""
    return text.replace("&amp;", "&").replace("&apos;", "'").replace("&quot;", '"')


def _page_count(pdf: Path) -> tuple[int, tuple[float, float]]:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True,
                          check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info)[1])  # type: ignore[index]
    w, h = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups()  # type: ignore[union-attr]
    return pages, (float(w), float(h))


def _dark_runs(pixels: list[int], dpi: int) -> list[float]:
    """Centres (mm) of the dark runs along a line of grey pixels."""
    runs, start = [], None
    for i, v in enumerate([*pixels, 255]):
        if v < 128 and start is None:
            start = i
        elif v >= 128 and start is not None:
            runs.append((start + i - 1) / 2 * 25.4 / dpi)
            start = None
    return runs


def _strip(pdf: Path, page: int, dpi: int, box: tuple[int, int, int, int]) -> list[int]:
    """The grey pixels of a thin strip of the rendered page (pdftoppm -x -y -W -H)."""
    from PySide6.QtGui import QImage

    x, y, w, h = box
    stem = pdf.with_name(f"{pdf.stem}-p{page}-{x}-{y}")
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-f", str(page), "-l", str(page),
                    "-x", str(x), "-y", str(y), "-W", str(w), "-H", str(h), "-singlefile",
                    "-png", str(pdf), str(stem)], check=True)
    img = QImage(f"{stem}.png").convertToFormat(QImage.Format.Format_Grayscale8)
    if w >= h:
        return list(bytes(img.constScanLine(0))[:img.width()])
    return [img.pixelColor(0, i).value() for i in range(img.height())]


def _marks(pdf: Path, page: int, layout, dpi: int = 600) -> tuple[list[float], list[float]]:  # type: ignore[no-untyped-def]
    """The cut positions the crop marks of one page show: x from the top margin's marks, y from
    the left margin's, measured in a rendering of the page."""
    px = dpi / 25.4
    y_row = round((layout.top - MARK_GAP - MARK_LEN / 2) * px)
    x_col = round((layout.left - MARK_GAP - MARK_LEN / 2) * px)
    xs = _dark_runs(_strip(pdf, page, dpi, (0, y_row, round(layout.page_w * px), 1)), dpi)
    ys = _dark_runs(_strip(pdf, page, dpi, (x_col, 0, 1, round(layout.page_h * px))), dpi)
    return xs, ys


@pytest.mark.parametrize("game", GAMES)
def test_each_starter_deck_prints_at_true_size_with_its_counts_and_mirrored_backs(  # type: ignore[no-untyped-def]
        game, tmp_path, qapp):
    module = find_module(game)
    size = module.card_size
    assert size is not None
    paper = "letter" if game == "gauntlet" else "a4"
    layout = plan(paper, size.width_mm, size.height_mm)
    for deck_name, deck in module.starter_decks.items():
        pdf = tmp_path / f"{deck_name}.pdf"
        assert _print("--game", game, "--deck", deck_name, "--paper", paper,
                      "--out", str(pdf)) == 0
        pages, page_pt = _page_count(pdf)
        assert page_pt == pytest.approx(PAPER_PT[paper], abs=0.6)  # A4/Letter exactly
        wanted = Counter()
        for section in deck.sections.values():
            for cid, n in section:
                wanted[module.cards[cid].name] += n
        assert pages == 2 * -(-sum(wanted.values()) // layout.per_page)
        printed: Counter[str] = Counter()
        for page in range(1, pages + 1, 2):
            printed.update(_names_on_page(pdf, page, layout, set(wanted)))
        assert printed == wanted
        # no ligature glyphs: a name such as "Flare Offering" searches as typed
        assert not [t for _, _, t in _words(pdf, 1) if re.search("[\ufb00-\ufb06]", t)]
    # the crop marks measure the module's card size within 0.2 mm, fronts and backs alike
    for page in (1, 2):
        xs, ys = _marks(pdf, page, layout)
        assert len(xs) == layout.cols * 2 - (layout.cols - 1)  # cards abut: shared cuts
        widths = [b - a for a, b in itertools.pairwise(xs)]
        heights = [b - a for a, b in itertools.pairwise(ys)]
        assert all(abs(w - size.width_mm) < 0.2 for w in widths), widths
        assert all(abs(h - size.height_mm) < 0.2 for h in heights), heights
        assert xs[0] == pytest.approx(layout.slot(0).x, abs=0.2)
        # mirrored about the page's middle: the back page's cuts are the front page's
        assert [layout.page_w - x for x in reversed(xs)] == pytest.approx(xs, abs=0.2)


def _names_on_page(pdf: Path, page: int, layout, names: set[str]) -> Counter[str]:  # type: ignore[no-untyped-def]
    """The card name printed in each card's name band (top left of its cut box)."""
    words = _words(pdf, page)
    found: Counter[str] = Counter()
    squash = {re.sub(r"\s+", "", n): n for n in names}
    for i in range(layout.per_page):
        s = layout.slot(i)
        band = [(round(y, 0), x, t) for x, y, t in words
                if s.x <= x < s.x + s.w * 0.7 and s.y <= y < s.y + s.h * 0.25]
        text = "".join(t for _, _, t in sorted(band))
        match = max((k for k in squash if text.startswith(k)), key=len, default=None)
        if match is not None:
            found[squash[match]] += 1
    return found


def test_backs_fall_behind_their_fronts_on_a_partly_filled_sheet(tmp_path, qapp):  # type: ignore[no-untyped-def]
    """One card on a sheet: its front in the first slot, its back in the mirrored slot."""
    module = find_module("dead-to-rites")
    deck = tmp_path / "one.txt"
    deck.write_text("[rites]\n1 Ember Court Rite 5\n", encoding="utf-8")
    pdf = tmp_path / "one.pdf"
    assert _print("--game", "dead-to-rites", "--deck", str(deck), "--out", str(pdf)) == 0
    size = module.card_size
    layout = plan("a4", size.width_mm, size.height_mm)  # type: ignore[union-attr]
    front, back = layout.slot(0), layout.slot(0, back=True)
    assert back.x == pytest.approx(layout.page_w - front.x - front.w)
    words_front = [w for w in _words(pdf, 1) if w[2] == "Ember"]
    words_back = [w for w in _words(pdf, 2) if w[2] == "RITE"]
    assert words_front and front.x <= words_front[0][0] < front.x + front.w
    assert words_back and back.x <= words_back[0][0] < back.x + back.w
    assert not front.x <= words_back[0][0] < front.x + front.w


def test_fronts_only_and_bleed(tmp_path, qapp):  # type: ignore[no-untyped-def]
    pdf = tmp_path / "f.pdf"
    assert _print("--game", "gauntlet", "--deck", "military", "--fronts-only", "--bleed", "3",
                  "--out", str(pdf)) == 0
    module = find_module("gauntlet")
    size = module.card_size
    layout = plan("a4", size.width_mm, size.height_mm, 3.0)  # type: ignore[union-attr]
    pages, _ = _page_count(pdf)
    total = sum(n for s in module.starter_decks["military"].sections.values() for _, n in s)
    assert pages == -(-total // layout.per_page)  # no back pages
    xs, _ = _marks(pdf, 1, layout)
    assert len(xs) == 2 * layout.cols  # with a bleed each card has its own two cuts
    assert all(abs((b - a) - size.width_mm) < 0.2 for a, b in zip(xs[::2], xs[1::2], strict=True))  # type: ignore[union-attr]
