"""The printed sheet's geometry on its own (no Qt): how many cards a page holds, where the backs
go, where the crop marks stand. Figures in millimetres, worked out by hand."""
from __future__ import annotations

import pytest

from table.games.card_faces import PRESETS
from table.ui.print.sheet_layout import (
    MARK_GAP,
    MARK_LEN,
    MIN_MARGIN,
    LayoutError,
    Slot,
    pages,
    plan,
)


@pytest.mark.parametrize(("paper", "size", "grid"), [
    ("a4", "poker", (3, 3)), ("letter", "poker", (3, 3)),
    ("a4", "mini", (4, 4)), ("letter", "mini", (4, 4)),
    ("a4", "tarot", (2, 2)), ("letter", "tarot", (2, 2)),
    ("a4", "bridge", (3, 3)), ("letter", "bridge", (3, 3)),
])
def test_cards_a_page_holds(paper, size, grid):  # type: ignore[no-untyped-def]
    w, h = PRESETS[size]
    layout = plan(paper, w, h)
    assert (layout.cols, layout.rows) == grid
    assert layout.per_page == grid[0] * grid[1]
    # every card inside the page with room for the marks, and one more column or row won't fit
    for i in range(layout.per_page):
        s = layout.slot(i)
        assert s.x >= MIN_MARGIN and s.x + s.w <= layout.page_w - MIN_MARGIN
        assert s.y >= MIN_MARGIN and s.y + s.h <= layout.page_h - MIN_MARGIN
    assert (layout.cols + 1) * w > layout.page_w - 2 * MIN_MARGIN
    assert (layout.rows + 1) * h > layout.page_h - 2 * MIN_MARGIN


def test_a_bleed_takes_room_and_the_grid_stays_centred():  # type: ignore[no-untyped-def]
    layout = plan("a4", 63, 88, bleed=3)
    assert (layout.cols, layout.rows) == (2, 3)  # 198 // 69, 285 // 94
    assert layout.left == pytest.approx((210 - 2 * 69) / 2)
    assert layout.slot(0) == Slot(layout.left + 3, layout.top + 3, 63, 88)
    assert layout.slot(1).x - layout.slot(0).x == pytest.approx(69)  # bleeds meet


def test_backs_sit_at_the_mirrored_places():  # type: ignore[no-untyped-def]
    layout = plan("a4", 63, 88)  # 3 x 3, the grid from x = 10.5 mm
    assert layout.slot(0) == Slot(10.5, 16.5, 63, 88)
    assert layout.slot(0, back=True) == Slot(136.5, 16.5, 63, 88)  # 210 - 10.5 - 63
    for i in range(layout.per_page):
        front, back = layout.slot(i), layout.slot(i, back=True)
        assert back.x == pytest.approx(layout.page_w - front.x - front.w) and back.y == front.y
        # the page turned about its vertical axis: column c's back is where column
        # cols-1-c's front is
        row, col = divmod(i, layout.cols)
        mirror = layout.slot(row * layout.cols + layout.cols - 1 - col)
        assert back.x == pytest.approx(mirror.x)


def test_crop_marks_stand_in_the_margins_in_line_with_every_cut():  # type: ignore[no-untyped-def]
    layout = plan("a4", 63, 88)
    xs, ys = layout.cut_lines()
    assert xs == [10.5, 73.5, 136.5, 199.5] and ys == [16.5, 104.5, 192.5, 280.5]
    marks = layout.crop_marks()
    assert len(marks) == 2 * len(xs) + 2 * len(ys)
    top, bottom = 16.5 - MARK_GAP, 280.5 + MARK_GAP
    left, right = 10.5 - MARK_GAP, 199.5 + MARK_GAP
    for x in xs:
        assert (x, top - MARK_LEN, x, top) in marks and (x, bottom, x, bottom + MARK_LEN) in marks
    for y in ys:
        assert (left - MARK_LEN, y, left, y) in marks and (right, y, right + MARK_LEN, y) in marks
    for x1, y1, x2, y2 in marks:  # on the page, never over a card
        assert min(x1, x2) >= 0 and max(x1, x2) <= layout.page_w
        assert min(y1, y2) >= 0 and max(y1, y2) <= layout.page_h
        inside_x = 10.5 < (x1 + x2) / 2 < 199.5
        inside_y = 16.5 < (y1 + y2) / 2 < 280.5
        assert not (inside_x and inside_y)


def test_crop_marks_with_a_bleed_point_at_the_cuts_not_the_bleed_edge():  # type: ignore[no-untyped-def]
    layout = plan("letter", 63, 88, bleed=2)
    xs, _ = layout.cut_lines()
    assert xs[0] == pytest.approx(layout.left + 2) and xs[1] == pytest.approx(layout.left + 65)
    first = layout.crop_marks()[0]
    assert first[0] == pytest.approx(xs[0])
    assert first[3] == pytest.approx(layout.top - MARK_GAP)  # outside the bleed, not the cut


def test_pages_split_the_cards_and_too_big_a_card_is_refused():  # type: ignore[no-untyped-def]
    layout = plan("a4", 63, 88)
    assert pages(20, layout) == [range(0, 9), range(9, 18), range(18, 20)]
    assert pages(0, layout) == []
    with pytest.raises(LayoutError, match="does not fit"):
        plan("a4", 250, 300)
    with pytest.raises(LayoutError, match="paper"):
        plan("a3", 63, 88)
    with pytest.raises(LayoutError, match="bleed"):
        plan("a4", 63, 88, bleed=-1)
