"""On a 1366x768 laptop: the start screen shows everything (You, Play, the LAN tables played,
LAN, Continue or review) with no scrolling, and the Host and Join dialogs draw every field at
its full height (the passphrase field was squeezed to 14 px, the Choose… button squashed when
the seat step opened). Measured on the laid-out widgets at the size each window opens with on
that screen; the pictures are written to the test's folder (looked at when changed)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QScrollArea,
    QWidget,
)

LAPTOP = QRect(0, 0, 1366, 768)


@pytest.fixture(autouse=True)
def _app_style(qapp: QApplication) -> Iterator[None]:
    """The program's own style (paddings, fonts), as the app applies it; then the test
    session's again."""
    from table.ui.style import apply_style

    before = (qapp.style().name(), QPalette(qapp.palette()), qapp.styleSheet())
    apply_style(qapp)
    yield
    qapp.setStyle(before[0])
    qapp.setPalette(before[1])
    qapp.setStyleSheet(before[2])


def _on_laptop(window: QWidget) -> None:
    """The size the window opens with on the laptop's screen, frame and all (window_fit)."""
    from table.ui.window_fit import FRAME_GUESS, fitting

    window.resize(fitting(window.size(), LAPTOP, FRAME_GUESS))
    window.show()
    QApplication.processEvents()


def _squashed(window: QWidget) -> list[str]:
    """Every visible field or button drawn smaller than it needs."""
    out = []
    for w in window.findChildren(QWidget):
        if not isinstance(w, (QLineEdit, QAbstractButton, QComboBox, QAbstractSpinBox)) \
                or not w.isVisibleTo(window) or isinstance(w.parentWidget(), QAbstractSpinBox):
            continue
        need = QSize(w.minimumSizeHint().width(), w.sizeHint().height())
        if w.height() < need.height() or w.width() < need.width():
            text = getattr(w, "text", lambda: "")() or getattr(w, "placeholderText", str)()
            out.append(f"{type(w).__name__} {text!r}: {w.width()}x{w.height()}, needs "
                       f"{need.width()}x{need.height()}")
    return out


def test_the_start_screen_needs_no_scrolling_on_a_laptop(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from table.ui.lan import RejoinOffer
    from table.ui.settings import Settings
    from table.ui.shell import Shell

    log = tmp_path / "ended.sandlog"
    log.write_bytes(b"")
    settings = Settings.load()
    settings.name = "Ada"
    settings.last_ended = {"log": str(log), "summary": "Gauntlet: Bob won (by victory)"}
    shell = Shell(settings)
    shell.set_lan(lambda: None, lambda: None)
    start: Any = shell.start
    qtbot.addWidget(start)
    start.game.setCurrentIndex(start.game.findData("dead-to-rites"))  # four deck pickers
    start.set_lan_tables([RejoinOffer("a.sandlog", "Friday", "Ada", "Gauntlet", "seat 1", True),
                          RejoinOffer("b.sandlog", "Tuesday", "Ada", "Mantle of the Keeper",
                                      "seat 3", False)])
    start.refresh_resume()
    _on_laptop(start)
    start.grab().save(str(tmp_path / "start-1366x768.png"))
    scroll = start.findChild(QScrollArea)
    assert scroll.verticalScrollBar().maximum() == 0, "the start screen scrolls"
    assert scroll.horizontalScrollBar().maximum() == 0
    viewport = scroll.viewport().rect()
    for group in start.findChildren(QWidget):
        if group.inherits("QGroupBox") and group.isVisibleTo(start):
            where = QRect(group.mapTo(scroll.viewport(), group.rect().topLeft()), group.size())
            assert viewport.contains(where), f"{group.title()} is cut off at {where}"
    assert start.replay_last.isVisible() and [b.text() for b in start.rejoin_buttons.values()] \
        == ["Rejoin “Friday” as Ada", "Reopen “Tuesday” as Ada"]
    assert not _squashed(start), _squashed(start)


def test_the_host_and_join_dialogs_draw_every_field_whole(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from table.ui.games import available_games
    from table.ui.lan import HostDialog, JoinDialog, JoinedTable

    async def nothing(*_args: Any) -> None:
        return None

    host = HostDialog(available_games(), nothing, player_name="Ada")
    qtbot.addWidget(host)
    _on_laptop(host)
    host.grab().save(str(tmp_path / "host-dialog.png"))
    assert not _squashed(host), _squashed(host)
    assert host.passphrase.height() >= host.passphrase.sizeHint().height()

    join = JoinDialog(nothing, nothing, player_name="Bob")
    qtbot.addWidget(join)
    _on_laptop(join)
    assert not _squashed(join), _squashed(join)
    # the seat step of a table where Bob had seat 2: his to take back, never "taken"
    join.show_joined(JoinedTable("Friday", "gauntlet", "Gauntlet", 2, [], ["diplomats"],
                                 own_seats=[2], own_name="Bob"))
    QApplication.processEvents()
    join.grab().save(str(tmp_path / "join-seat-step.png"))
    assert not _squashed(join), _squashed(join)
    assert join.seat.currentText() == "Seat 2: yours as Bob, take it back"
    assert join.go.text() == "Take your seat back" and join.go.isEnabled()
    assert not join.error_text()  # not "Every seat is taken"
