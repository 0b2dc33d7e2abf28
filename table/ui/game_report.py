"""The designer's report of one game, asked for from the end of the game: the same page as
`sandtable report LOG` (table.report), written in a worker thread (about a second) into the
reports folder beside the saved games, then opened in the browser. An install without the
report's data libraries (an install without them) says so on the button instead."""
from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QUrl, Signal
from PySide6.QtGui import QDesktopServices

from .settings import data_dir

log = logging.getLogger(__name__)
NEEDED = ("pyarrow", "duckdb")


def report_missing() -> str:
    """Why this install cannot make the report, or ""."""
    absent = [name for name in NEEDED if importlib.util.find_spec(name) is None]
    if not absent:
        return ""
    return (f"The report needs {' and '.join(NEEDED)}, which this install lacks: run "
            "`sandtable report LOG` from a Python install of Sandtable.")


def report_path(log_path: str) -> Path:
    folder = data_dir() / "reports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / (Path(log_path).stem + ".html")


class GameReport(QObject):
    """One report being written; `status` hears how it goes, `opened` the page once shown."""
    finished = Signal(str, str)  # the page's path, or "" and the reason it failed

    def __init__(self, log_path: str, status: Callable[[str], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.log_path, self.status = log_path, status
        self.page: Path | None = None
        self.finished.connect(self._finished)

    def start(self) -> None:
        self.status("Writing the report of this game…")
        threading.Thread(target=self._write, name="game-report", daemon=True).start()

    def _write(self) -> None:
        from table.report.build import build_report

        out = report_path(self.log_path)
        try:
            report = build_report([self.log_path], out, jobs=1, show_progress=False)
        except Exception as err:  # a damaged log, a full disk: said, never a crash
            log.exception("the report of %s failed", self.log_path)
            self.finished.emit("", str(err) or type(err).__name__)
            return
        if not report.sessions:
            why = "; ".join(str(reason) for _path, reason in report.skipped) or "nothing to show"
            self.finished.emit("", why)
            return
        self.finished.emit(str(out), "")

    def _finished(self, page: str, problem: str) -> None:
        if not page:
            self.status(f"The report could not be written: {problem}")
            return
        self.page = Path(page)
        self.status(f"Report written: {page}")
        QDesktopServices.openUrl(QUrl.fromLocalFile(page))
