"""UI tests run offscreen, with settings and saved games in a temporary folder."""
from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def pytest_configure(config) -> None:  # type: ignore[no-untyped-def]
    config.addinivalue_line("markers", "xwindow: drives the real app in an Xvfb X server "
                                       "(skipped without Xvfb and xdotool)")


@pytest.fixture(autouse=True)
def _sandtable_home(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SANDTABLE_HOME", str(tmp_path / "home"))


@pytest.fixture(autouse=True)
def _no_window_left_shown() -> None:
    """A window an earlier test left shown (a start screen shown again when its table closed)
    would lie over this test's windows offscreen and take the pointer's events: hidden first."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if isinstance(app, QApplication):
        for widget in app.topLevelWidgets():
            if widget.isVisible():
                widget.hide()


@pytest.fixture
def window(qtbot) -> Iterator[object]:  # type: ignore[no-untyped-def]
    from table.ui.main_window import TableWindow
    from table.ui.sample import sample_catalog, sample_table
    from tests.ui.helpers import show_active

    w = TableWindow(sample_table(2), sample_catalog())
    show_active(qtbot, w, (1600, 1000))
    w.view.fit_table()
    w.view.setFocus()
    yield w
    w.shutdown()


@pytest.fixture
def styled(qapp):  # type: ignore[no-untyped-def]
    """The program's look (its style sets the panels' and tabs' sizes), put back after."""
    from table.ui.style import apply_style

    before = (qapp.style().name(), qapp.palette(), qapp.styleSheet())
    apply_style(qapp)
    yield qapp
    qapp.setStyle(before[0])
    qapp.setPalette(before[1])
    qapp.setStyleSheet(before[2])
