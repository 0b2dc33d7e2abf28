"""Every stat, labelled, at every size: the table's card, hover zoom and the card panel.

Real input: the cursor is moved onto the card at its on-screen position and Alt is held, as a
player does; what the zoom painted is read back from the painter's own record of its texts.
"""
from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF

from table.ui import theme
from table.ui.card_renderer import fit_text, recording_texts
from table.ui.items.card_marks import CARD_RECT
from tests.ui.helpers import cards_in, show_active


@pytest.fixture
def dtr(qtbot):  # type: ignore[no-untyped-def]
    from table.core.rng import Rng
    from table.ui.games import available_games, start_game
    from table.ui.main_window import TableWindow

    choices = {g.id: g for g in available_games()}
    replica, catalog = start_game(choices["dead-to-rites"], 4, rng=Rng(5))
    w = TableWindow(replica, catalog)
    show_active(qtbot, w, (1600, 1000))
    w.view.fit_table()
    w.view.setFocus()
    yield w
    w.shutdown()


def _champion_in_hand(w):  # type: ignore[no-untyped-def]
    for cid in cards_in(w.replica, "p1.hand"):
        face = w.scene.cards[cid].face
        if face is not None and face.type == "Champion" and len(face.stats) >= 3:
            return cid, face
    pytest.skip("no Champion with three stats in the opening hand")


def test_hover_zoom_of_a_champion_shows_power_guard_and_block(dtr, qtbot):  # type: ignore[no-untyped-def]
    w = dtr
    cid, face = _champion_in_hand(w)
    item = w.scene.cards[cid]
    w.view.centerOn(item)
    stats = dict(face.stats)
    w.view.hover_zoom.clear_cache()  # painted afresh while recorded
    with recording_texts() as texts:
        qtbot.mouseMove(w.view.viewport(), w.view.mapFromScene(item.scenePos()))
        qtbot.waitUntil(lambda: w.preview.current == cid)
        qtbot.keyPress(w.view, Qt.Key.Key_Alt, Qt.KeyboardModifier.AltModifier)
        assert w.view.hover_zoom.isVisible() and w.view.hover_zoom.obj_id == cid
    qtbot.keyRelease(w.view, Qt.Key.Key_Alt)
    for label in ("Power", "Guard", "Block"):
        assert f"{label} {stats[label]}" in texts, (label, texts)
    # the cost too, named as the module names it ([templates.front.labels] cost = "Favor")
    assert f"Favor {face.corner}" in texts
    caption = w.preview.caption.text()
    for label in ("Power", "Guard", "Block", "Favor"):
        assert label in caption, caption


def test_the_table_stat_line_is_labelled_and_counters_hang_below_it(dtr, qtbot):  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage, QPainter

    from table.ui.card_renderer import paint_face

    w = dtr
    cid, face = _champion_in_hand(w)
    img = QImage(120, 168, QImage.Format.Format_ARGB32)
    p = QPainter(img)
    with recording_texts() as far:
        paint_face(p, CARD_RECT.translated(60, 84), face, 0.4)
    p.end()
    # each value has its name over it, in the module's short form ([templates.front.labels])
    assert {"Pow", "Grd", "Blk"} <= set(far), far
    assert not {"GUA", "BLO", "Power", "Guard"} & set(far), far  # no blind cut, no full name
    item = w.scene.cards[cid]
    item.set_look(face, item.back, item.owner_colour, {"damage": 2}, item.private)
    for lod in (0.3, 1.0, 3.0):
        for _, _, rect in item.counter_rects(lod):
            assert rect.top() >= CARD_RECT.bottom()  # below the foot, never over the stats
            assert item.rect().contains(rect.topLeft())


@pytest.mark.parametrize("game", ["dead-to-rites", "gauntlet", "mantle-of-the-keeper"])
def test_no_card_name_loses_letters_at_hand_size(qapp, game):  # type: ignore[no-untyped-def]
    """A word wider than the name's box would be cut ("Cartogr"): the size chosen fits the
    longest word of every name (Qt may break after "/" or "-", as a reader would)."""
    from table.games.registry import find_module
    from table.ui.catalog import Catalog

    catalog = Catalog.from_module(find_module(game))
    width, height = theme.CARD_W - 16, theme.CARD_H - 10 - 30 - 32
    for face in catalog.faces.values():
        size = fit_text(face.name, width, height,
                        (30.0, 27.0, 24.0, 21.0, 18.0, 16.0, 14.0, 12.0, 11.0, 10.0), True)
        fm = QFontMetricsF(theme.font(size, bold=True))
        widest = max(fm.horizontalAdvance(w) for w in re.split(r"[\s/-]+", face.name))
        assert widest <= width + 0.5, face.name
