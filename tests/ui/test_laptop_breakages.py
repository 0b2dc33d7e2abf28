"""Small things a laptop showed wrong, each by real input and read off the screen: the curtain's
title over its line, the turn panel's phase under "No turn yet", the replay's controls moving
under the pointer after a seek, the reading panel still saying "In your hand" of a card played,
and a seat's area read large by one key or a click on its name plate."""
from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication, QToolButton

from table.ui.main_window import TableWindow
from tests.ui.glyphs import blobs
from tests.ui.helpers import click, drag, hover, show_active
from tests.ui.test_legible_table import LAPTOP_WINDOW, measure_cards, open_table, settle


def _show(qtbot, w, size=LAPTOP_WINDOW):  # type: ignore[no-untyped-def]
    show_active(qtbot, w, size)
    return w


def _ink_rows(img: QImage, title: QColor) -> tuple[list[int], list[int]]:
    """The rows holding the title's ink (the next seat's colour) and those holding its line's
    (light grey), in the middle of the picture where the text is."""
    title_rows, line_rows = [], []
    want = (title.red(), title.green(), title.blue())
    for y in range(img.height()):
        is_title = is_line = False
        for x in range(img.width() // 5, img.width() * 4 // 5, 2):
            rgb = img.pixel(x, y)
            c = ((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255)
            if max(abs(a - b) for a, b in zip(c, want, strict=True)) < 40:
                is_title = True
            elif min(c) > 170 and max(c) - min(c) < 30:
                is_line = True
        if is_title:
            title_rows.append(y)
        if is_line:
            line_rows.append(y)
    return title_rows, line_rows


def test_the_curtain_s_title_stands_above_its_line(qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.ui.sample import sample_catalog, sample_table

    for size in (LAPTOP_WINDOW, (640, 480)):  # a narrow window wraps the title
        w = _show(qtbot, TableWindow(sample_table(2), sample_catalog()), size)
        try:
            w.view.setFocus()
            qtbot.keyClick(w.view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
            qtbot.waitUntil(w.curtain.isVisible)  # End turn: the view passes, the curtain
            shot = w.curtain.grab().toImage()
            # the title is in the next seat's colour, its line in light grey
            title_rows, line_rows = _ink_rows(shot, w.curtain.colour)
            assert title_rows and line_rows
            assert max(title_rows) < min(line_rows), (size, max(title_rows), min(line_rows))
        finally:
            w.shutdown()


def test_the_phase_shows_under_no_turn_yet(qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.ui.sample import sample_catalog, sample_table

    w = _show(qtbot, TableWindow(sample_table(2), sample_catalog()))
    try:
        w.view.setFocus()
        for _ in range(2):  # undo the first phase and the first turn: no turn yet
            qtbot.keyClick(w.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: "No turn yet" in w.turn.label.text())
        QApplication.processEvents()
        panel = w.turn
        shot = panel.grab().toImage()
        turn, phase = w.turn.label.geometry(), w.turn.phase_label.geometry()
        assert turn.bottom() < phase.top()  # one under the other, not over it
        assert panel.rect().contains(phase)  # and inside the panel, not cut off by it
        letters = [b for b in blobs(shot, phase) if b.height >= 5]
        assert len(letters) >= 5, "the phase line has no letters on the screen"
        assert all(turn.bottom() < b.top for b in letters)
    finally:
        w.shutdown()


def test_the_replay_controls_stay_under_the_pointer_after_a_seek(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from table.bench.simulated_sessions import play_session
    from table.games import find_module
    from table.ui.replay.run import open_replay

    path = tmp_path / "g.sandlog"
    play_session(find_module("gauntlet"), 2, 21, path, turns=2)
    w = _show(qtbot, open_replay(path))
    try:
        def button(key: str) -> QToolButton:
            return next(b for b in w.findChildren(QToolButton)
                        if b.defaultAction() is w.seek_actions[key])

        qtbot.mouseClick(button("end"), Qt.MouseButton.LeftButton)
        back = button("back")
        before = back.mapTo(w, QPoint(back.width() // 2, back.height() // 2))
        qtbot.mouseClick(button("next_turn"), Qt.MouseButton.LeftButton)  # none after: says so
        qtbot.waitUntil(lambda: w.statusBar().currentMessage() != "")
        end = w.position
        # a click where the step-back button was steps back one op
        target = w.childAt(before)
        assert isinstance(target, QToolButton) and target is back
        qtbot.mouseClick(target, Qt.MouseButton.LeftButton, pos=target.mapFrom(w, before))
        assert w.position == end - 1
    finally:
        w.shutdown()


def test_the_reading_panel_follows_a_card_played_from_the_hand(qtbot) -> None:  # type: ignore[no-untyped-def]
    w = open_table(qtbot, "dead-to-rites")
    try:
        hand = w.scene.own_hand()
        assert hand is not None
        cid = w.replica.state.objs[hand].children[0]
        item = w.scene.cards[cid]
        hover(w.view, item.sceneBoundingRect().center())
        qtbot.waitUntil(lambda: w.preview.current == cid)
        assert "In your hand" in w.preview.notes.text()
        play = w.scene.own_play_area()
        assert play is not None
        # dragged into the play area: the pointer stays on the card, which is still the one read
        drag(w.view, item.sceneBoundingRect().center(), w.scene.zones[play].sceneBoundingRect().center())
        qtbot.waitUntil(lambda: w.replica.state.objs[cid].container == play)
        qtbot.waitUntil(lambda: "In your hand" not in w.preview.notes.text())
        assert w.preview.current == cid and w.preview.rules.isVisible()  # still reading it
    finally:
        w.shutdown()


def test_each_other_seat_s_area_reads_large_by_one_key(qtbot, styled) -> None:  # type: ignore[no-untyped-def]
    """Six seats of Mantle do not fit at 7 px on a laptop: Alt+N shows seat N's area with its
    cards' names and stats at 9 px or more; a click on its name plate does the same."""
    w = open_table(qtbot, "mantle-of-the-keeper", seats=6)
    try:
        assert w.scene.layout.others < 0.75  # drawn smaller than they read at
        for seat in w.ctl.seats[1:]:
            qtbot.keyClick(w.view, getattr(Qt.Key, f"Key_{seat}"), Qt.KeyboardModifier.AltModifier)
            qtbot.waitUntil(lambda s=seat: w.view.reading == s)
            settle(qtbot, w)
            found = [m for m in measure_cards(w, w.grab().toImage()) if m.region == "others"]
            area = w.scene.layout.seat_areas[seat]
            assert found, seat
            assert min(m.px for m in found) >= 9, (seat, found)
            assert w.view.mapToScene(w.view.viewport().rect()).boundingRect().intersects(area)
        qtbot.keyClick(w.view, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)  # back
        qtbot.waitUntil(lambda: w.view.reading is None)
        plate = w.scene.areas[2].plate()
        click(w.view, w.scene.areas[2].mapToScene(plate.center()))
        qtbot.waitUntil(lambda: w.view.reading == 2)
        click(w.view, w.scene.areas[2].mapToScene(plate.center()))  # again: the whole table
        qtbot.waitUntil(lambda: w.view.reading is None)
    finally:
        w.shutdown()


def test_the_middle_reads_large_by_alt_0(qtbot, styled) -> None:  # type: ignore[no-untyped-def]
    """Gauntlet's middle (the territories) may be drawn small on a laptop: Alt+0 shows it with
    its cards' names at 9 px or more."""
    w = open_table(qtbot, "gauntlet")
    try:
        qtbot.keyClick(w.view, Qt.Key.Key_0, Qt.KeyboardModifier.AltModifier)
        qtbot.waitUntil(lambda: w.view.reading == 0)
        settle(qtbot, w)
        found = [m for m in measure_cards(w, w.grab().toImage()) if m.region == "middle"]
        assert found and min(m.px for m in found) >= 9, found
    finally:
        w.shutdown()
