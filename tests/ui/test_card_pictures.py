"""A card on the table shows its look's shared picture (card_pixmaps) at device size: what the
view paints of it is that picture, pixel for pixel, and after a zoom pauses (or in a smaller
area) the picture is the one rendered for that scale."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _upright_uncovered(w):  # type: ignore[no-untyped-def]
    """A card lying upright with nothing over it, its own marks included (a card of one's own
    hand wears the private outline), the view's middle first."""
    view = w.view
    in_view = view.mapToScene(view.viewport().rect()).boundingRect()
    for item in sorted(w.scene.cards.values(), key=lambda i: -i.zValue()):
        box = item.sceneBoundingRect()
        if not item.isVisible() or item.rotation() % 360 or not in_view.contains(box) or \
                item.marks.isVisible():
            continue
        over = [o for o in w.scene.items(box) if o.zValue() > item.zValue()
                and o.parentItem() is not item and o.isVisible()]
        if not over:
            return item
    raise AssertionError("no uncovered upright card in sight")


def test_the_view_paints_each_card_as_its_picture(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.ui.card_pixmaps import MARGIN, STEPS, picture
    from table.ui.items.card_marks import CARD_RECT

    w = window
    w.view.set_zoom(0.8)
    w.view.settle_zoom()
    shot = w.view.viewport().grab().toImage()
    item = _upright_uncovered(w)
    scale = w.view.zoom * w.view.devicePixelRatioF() * item.scale()  # a smaller area: smaller
    expected = picture(item.look, round(scale * STEPS)).toImage()
    corner = w.view.mapFromScene(item.scenePos() + CARD_RECT.topLeft() * item.scale())
    # the card's inside (its anti-aliased edge and the margin blend with what lies beneath)
    inset = MARGIN + 3
    differing = 0
    for y in range(inset, expected.height() - inset, 3):
        for x in range(inset, expected.width() - inset, 3):
            want = expected.pixelColor(x, y)
            got = shot.pixelColor(corner.x() - MARGIN + x, corner.y() - MARGIN + y)
            differing += want.rgb() != got.rgb()
    assert differing == 0


def test_a_card_takes_the_picture_of_its_scale_once_zooming_pauses(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.ui.card_pixmaps import STEPS, picture

    w = window
    w.view.set_zoom(0.6)
    w.view.settle_zoom()
    w.view.viewport().repaint()
    item = _upright_uncovered(w)
    scale = w.view.zoom * w.view.devicePixelRatioF() * item.scale()
    pix = item.picture.pixmap()
    assert pix.cacheKey() == picture(item.look, round(scale * STEPS)).cacheKey()
    # between two zoom levels the picture is scaled, not rendered again
    w.view.set_zoom(0.9)
    w.view.viewport().repaint()
    assert item.picture.pixmap().cacheKey() == pix.cacheKey()
    w.view.settle_zoom()
    w.view.viewport().repaint()  # only cards in sight take theirs: pick one in sight again
    item = _upright_uncovered(w)
    scale = w.view.zoom * w.view.devicePixelRatioF() * item.scale()
    assert item.picture.pixmap().cacheKey() == picture(item.look, round(scale * STEPS)).cacheKey()
