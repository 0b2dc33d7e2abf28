"""Game -> Print cards... with real input: the Game menu opened by a click on the window's
toolbar, its entry clicked where it is drawn, a starter deck picked by keyboard, Save as PDF...
clicked (only the file-name prompt answers by itself); the PDF holds the deck's cards."""
from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QFileDialog, QMenu, QToolButton

from table.ui.print.print_dialog import PrintDialog
from tests.ui.helpers import show_active

poppler = pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils")


@pytest.fixture
def dtr(qtbot):  # type: ignore[no-untyped-def]
    from table.core.rng import Rng
    from table.ui.games import available_games, start_game
    from table.ui.main_window import TableWindow

    choices = {g.id: g for g in available_games()}
    replica, catalog = start_game(choices["dead-to-rites"], 4, rng=Rng(3))
    w = TableWindow(replica, catalog)
    show_active(qtbot, w, (1600, 1000))
    yield w
    w.shutdown()


def _open_print_dialog(w, qtbot) -> PrintDialog:  # type: ignore[no-untyped-def]
    button = w.findChild(QToolButton, "game-menu")
    assert button is not None and button.isVisible()
    menu = button.menu()

    def click_entry() -> None:
        assert isinstance(menu, QMenu) and menu.isVisible()
        action = next(a for a in menu.actions() if a.text() == "Print cards…")
        QTest.mouseClick(menu, Qt.MouseButton.LeftButton,
                         pos=menu.actionGeometry(action).center())

    QTimer.singleShot(300, click_entry)
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)  # the menu pops up (and blocks)
    qtbot.waitUntil(lambda: w.findChild(PrintDialog) is not None, timeout=3000)
    dialog = w.findChild(PrintDialog)
    qtbot.waitExposed(dialog)
    return dialog  # type: ignore[no-any-return]


def _pick(qtbot, combo: QComboBox, text: str) -> None:  # type: ignore[no-untyped-def]
    """Choose an entry of a combo box by keyboard, as a person tabbing through the form does."""
    combo.setFocus()
    texts = [combo.itemText(i) for i in range(combo.count())]
    assert text in texts, texts
    for _ in range(combo.count()):
        if combo.currentText() == text:
            break
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentText() == text


@poppler
@pytest.mark.processes
def test_print_a_starter_deck_from_the_game_menu(dtr, qtbot, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    w = dtr
    module = w.ctl.catalog.module
    out = tmp_path / "ember.pdf"
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (asked.append(a), (str(out), ""))[1])
    dialog = _open_print_dialog(w, qtbot)
    assert dialog.error.text() == "" and dialog.preview.pixmap() is not None
    deck = module.starter_decks["ember-court"]
    _pick(qtbot, dialog.what, f"Starter deck: {deck.name}")
    _pick(qtbot, dialog.paper, "Letter")
    qtbot.mouseClick(dialog.fronts_only, Qt.MouseButton.LeftButton)
    assert dialog.fronts_only.isChecked()
    total = sum(n for section in deck.sections.values() for _, n in section)
    assert f"{total} card(s)" in dialog.summary.text()
    preview = dialog.preview.pixmap().toImage()
    assert preview.width() > 100 and len({preview.pixel(x, preview.height() // 3)
                                          for x in range(0, preview.width(), 7)}) > 3  # cards
    qtbot.mouseClick(dialog.save, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(out.exists, timeout=10000)
    assert len(asked) == 1 and dialog.error.text() == ""
    info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True,
                          check=True).stdout
    assert re.search(r"Page size:\s+612 x 792 pts", info), info  # Letter
    layout = dialog.layout_
    assert layout is not None
    pages = int(re.search(r"Pages:\s+(\d+)", info)[1])  # type: ignore[index]
    assert pages == -(-total // layout.per_page)  # fronts only
    text = " ".join(subprocess.run(["pdftotext", str(out), "-"], capture_output=True,
                                   text=True, check=True).stdout.split())
    want = Counter()
    for section in deck.sections.values():
        for cid, n in section:
            want[module.cards[cid].name] += n
    for name, n in want.items():
        assert text.count(name) >= n, (name, n, text.count(name))
    assert str(out) in dialog.summary.text()
    dialog.close()


def test_a_bad_deck_list_is_shown_in_the_dialog_and_nothing_is_saved(  # type: ignore[no-untyped-def]
        dtr, qtbot, tmp_path, monkeypatch):
    w = dtr
    bad = tmp_path / "bad.txt"
    bad.write_text("3 No Such Card\n", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    dialog = _open_print_dialog(w, qtbot)
    _pick(qtbot, dialog.what, "A deck list file…")
    qtbot.waitUntil(lambda: dialog.error.text() != "", timeout=3000)
    assert "bad.txt:1" in dialog.error.text(), dialog.error.text()
    assert not dialog.save.isEnabled()
    dialog.close()
