"""Colour for every eye and a name for every field.

* scripts/palette_check.py prints, per palette and colour vision (Machado et al. 2009), the
  smallest CIEDE2000 distance between seat colours, flag severities and highlights; each is held
  at the threshold (10), the arithmetic checked against published reference values.
* High contrast, chosen by keys from the View menu: the table is painted on black, the panels
  too, and the choice is remembered for the next window.
* A flag's badge tells error from warning by its shape, not its colour alone.
* Every field of every dialog, and of the table window's panels, has a name a screen reader
  reads (what Qt's accessibility gives AT-SPI).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QAccessible, QColor, QImage, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from tests.ui.helpers import choose_when_open, show_active

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.processes
def test_the_palette_check_holds_every_palette_above_the_threshold_for_every_eye() -> None:
    from table.ui.palettes import THRESHOLD

    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "palette_check.py"), "--json"],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert run.returncode == 0, run.stdout + run.stderr
    assert THRESHOLD >= 10
    assert {(r["palette"], r["set"], r["vision"]) for r in rows} == {
        (p, s, v) for p in ("every-eye", "high-contrast")
        for s in ("seat colours", "flag severities", "highlights")
        for v in ("typical", "protanopia", "deuteranopia", "tritanopia")}
    assert all(r["smallest"] >= THRESHOLD for r in rows), [r for r in rows if not r["ok"]]


def test_the_colour_arithmetic_matches_published_values() -> None:
    from table.ui.colour_vision import MACHADO, ciede2000, distance, simulate
    from table.ui.palettes import EVERY_EYE

    # Sharma, Wu and Dalal (2005), table 1: pairs 1, 7, 17 and 34
    for lab1, lab2, expected in (((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
                                 ((50, 0, 0), (50, -1, 2), 2.3669),
                                 ((50, 2.5, 0), (56, -27, -3), 31.9030),
                                 ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082)):
        assert abs(ciede2000(lab1, lab2) - expected) < 1e-4
    for matrix in MACHADO.values():  # a grey stays grey: each row sums to 1
        assert all(abs(sum(row) - 1) < 1e-3 for row in matrix)
    assert simulate((1.0, 1.0, 1.0), "deuteranopia") == pytest.approx((1.0, 1.0, 1.0), abs=1e-3)
    # the old red and green seats: apart to a typical eye, alike without green cones
    assert distance("#e53935", "#43a047") > 50 > 10 > distance("#e53935", "#43a047",
                                                               "deuteranopia")
    assert len(EVERY_EYE.seats) == 6


@pytest.fixture
def palette_restored():  # type: ignore[no-untyped-def]
    yield
    from table.ui.access_wiring import use_palette

    use_palette(None)


def test_high_contrast_by_keys_paints_the_table_black_and_is_remembered(qtbot, palette_restored):  # type: ignore[no-untyped-def]
    from table.ui.main_window import TableWindow
    from table.ui.sample import sample_catalog, sample_table
    from table.ui.settings import Settings

    settings = Settings()
    w = TableWindow(sample_table(2), sample_catalog(), settings=settings)
    show_active(qtbot, w, (1200, 800))
    w.view.setFocus()
    felt = w.view.viewport().grab().toImage().pixelColor(3, 3)
    assert felt.lightness() > 20  # the green felt
    choose_when_open("Colours", "High contrast")  # the menu runs its own loop while open
    qtbot.keyClick(w.view, Qt.Key.Key_V, Qt.KeyboardModifier.AltModifier)
    w.view.viewport().repaint()
    assert w.view.viewport().grab().toImage().pixelColor(3, 3) == QColor("#000000")
    assert QApplication.palette().window().color() == QColor("#000000")
    assert Settings.load().extra["palette"] == "high-contrast"
    w.shutdown()
    again = TableWindow(sample_table(2), sample_catalog(), settings=Settings.load())
    qtbot.addWidget(again)
    assert again.scene.backgroundBrush().color() == QColor("#000000")
    again.shutdown()


def _badge(severity: str) -> QImage:
    from table.ui.items.flag_badge import paint_badge

    img = QImage(80, 80, QImage.Format.Format_ARGB32)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    paint_badge(p, QRectF(30, 30, 10, 10), severity)
    p.end()
    return img


def test_a_flag_badge_tells_error_from_warning_by_its_shape() -> None:
    error, warning = _badge("error"), _badge("warning")
    differ = sum(1 for y in range(80) for x in range(80)
                 if (error.pixelColor(x, y).alpha() > 128) != (warning.pixelColor(x, y).alpha() > 128))
    covered = sum(1 for y in range(80) for x in range(80) if error.pixelColor(x, y).alpha() > 128)
    assert differ > covered * 0.25  # an octagon against a triangle, whatever their colours


FIELDS = (QLineEdit, QAbstractSpinBox, QComboBox, QAbstractItemView, QTextEdit, QPlainTextEdit)


def _unnamed(widget: QWidget) -> list[str]:
    widget.show()
    out = []
    for child in widget.findChildren(QWidget):
        if not isinstance(child, FIELDS) or isinstance(child, QHeaderView) or \
                child.objectName() == "qt_spinbox_lineedit" or not child.isVisibleTo(widget):
            continue  # a spin box's own line edit: the spin box is what is read
        iface = QAccessible.queryAccessibleInterface(child)
        if iface is None or not iface.text(QAccessible.Text.Name).strip():
            out.append(f"{type(widget).__name__}: {type(child).__name__} "
                       f"{child.objectName() or ''}")
    widget.close()
    return out


def test_every_field_of_every_dialog_and_panel_has_a_name(qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.games import find_module
    from table.ui.end_game import EndGameDialog
    from table.ui.games import available_games
    from table.ui.lan.consent_dialog import ConsentDialog
    from table.ui.lan.host_dialog import HostDialog
    from table.ui.lan.invite_dialog import InviteDialog
    from table.ui.lan.join_dialog import JoinDialog
    from table.ui.lan.rejoin_dialog import RejoinDialog
    from table.ui.main_window import TableWindow
    from table.ui.pile_dialog import PileDialog
    from table.ui.print.print_dialog import PrintDialog
    from table.ui.sample import sample_catalog, sample_table
    from table.ui.settings import Settings
    from table.ui.start_screen import StartScreen

    async def nothing(*_a):  # type: ignore[no-untyped-def]
        return None

    w = TableWindow(sample_table(2), sample_catalog())
    qtbot.addWidget(w)
    module = find_module("gauntlet")
    deck = w.replica.state.cards_in("p1.deck")[:3]
    dialogs = [HostDialog(available_games(), nothing), JoinDialog(nothing, nothing, lambda: None),
               RejoinDialog(str(ROOT / "x.sandlog"), "T", nothing, needs_passphrase=True),
               EndGameDialog({1: "A", 2: "B"}, module, w), PrintDialog(module, w),
               ConsentDialog("Bo", "look at your deck", lambda _a: None),
               InviteDialog("ticket", passphrase=True),
               PileDialog(w.ctl, "p1.deck", deck, "Search: Deck", "p1.hand", w),
               StartScreen(Settings())]
    unnamed = [line for d in dialogs for line in _unnamed(d)]
    for d in dialogs:  # gone now, while their Python halves (their event filters) still are
        shiboken6.delete(d)
    unnamed += _unnamed(w)
    assert not unnamed, unnamed
    w.shutdown()


def test_seats_pieces_say_whose_they_are_not_by_colour_alone(window) -> None:  # type: ignore[no-untyped-def]
    pawns = [window.scene.tokens[f"p{s}.pawn"] for s in (1, 2)]
    assert [p.label for p in pawns] == ["N1", "E2"]  # North's and East's pawns
    hazard = window.scene.tokens["hazard"]
    assert hazard.label == "!" and hazard.colour == QColor("#ff6f00")  # its own, not a seat's
