"""The replay's log panel as a model: a line is written only when the view shows it.

A long log (hundreds of thousands of ops) would cost a widget item, a rendered line and a
colour per op before the window could open; the view asks for the few dozen rows on screen,
and a seek repaints only the rows whose colour it changed (ops crossed become past or future).
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from table.core.timeline import Record

FUTURE = QColor("#8a8f98")
NOTE_COLOUR = QColor("#ffb300")
FLAG_COLOUR = QColor("#ff6e6e")
MARK_COLOUR = QColor("#ffd54a")

Index = QModelIndex | QPersistentModelIndex


class LogModel(QAbstractListModel):
    def __init__(self, records: Sequence[Record], line: Callable[[Record], str],
                 flags: dict[int, list[Any]], salvaged: set[tuple[str, int]],
                 position: int) -> None:
        super().__init__()
        self.records, self.line, self.flagged, self.salvaged = records, line, flags, salvaged
        self.position = position  # ops applied: rows from here on are still to come

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's API
        return 0 if parent.isValid() else len(self.records)

    def text(self, row: int) -> str:
        """Row `row`'s line as the chosen seat may read it, with its flags and salvage mark."""
        record = self.records[row]
        text = f"{row + 1:>5}  {self.line(record)}"
        if row in self.flagged:
            text += "   ⚑ " + ", ".join(f.rule for f in self.flagged[row])
        if record.op.ref in self.salvaged:
            text += "   ⚠ salvaged"
        return text

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = index.row()
        if not index.isValid() or not 0 <= row < len(self.records):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(row)
        if role == Qt.ItemDataRole.ForegroundRole:
            return self._colour(row)
        return None

    def _colour(self, row: int) -> QColor | None:
        if row >= self.position:
            return FUTURE
        if row in self.flagged:
            return FLAG_COLOUR
        kind = self.records[row].op.kind
        return NOTE_COLOUR if kind == "note" else MARK_COLOUR if kind == "mark" else None

    def set_position(self, position: int) -> None:
        """The cursor moved: the rows it crossed change colour."""
        lo, hi = sorted((self.position, position))
        self.position = position
        if hi > lo:
            self.dataChanged.emit(self.index(lo), self.index(hi - 1),
                                  [Qt.ItemDataRole.ForegroundRole])

    def refresh(self) -> None:
        """Every line again (the seat whose view is shown changed)."""
        if self.records:
            self.dataChanged.emit(self.index(0), self.index(len(self.records) - 1))


class TurnsAndPhases:
    """Which turn (its number and active seat) and phase the table is in after any op, found by
    bisecting the few ops that change them rather than kept for every op."""

    def __init__(self, records: Sequence[Record]) -> None:
        self._at: list[int] = []  # indices of the ops that changed turn or phase
        self._where: list[tuple[int, int | None, str | None]] = []
        turn, active, phase = 0, None, None
        for i, r in enumerate(records):
            if r.op.kind != "mark" or r.void is not None:
                continue
            a = r.op.args
            if a["what"] == "turn":
                turn, active, phase = turn + 1, a.get("seat"), None
            elif a["what"] in ("phase", "step"):
                phase = a.get("value")
            else:
                continue
            self._at.append(i)
            self._where.append((turn, active, phase))

    def after(self, position: int) -> tuple[int, int | None, str | None]:
        """(turn, active seat, phase) once the first `position` ops are applied."""
        i = bisect_right(self._at, position - 1)
        return self._where[i - 1] if i else (0, None, None)


def log_view(model: LogModel) -> QTableView:
    """A one-column table over the model: rows of one fixed height, so its layout costs nothing
    per row (a QListView lays every row out, seconds on a long log, again after each seek)."""
    view = QTableView()
    view.setModel(model)
    view.horizontalHeader().hide()
    view.horizontalHeader().setStretchLastSection(True)
    rows = view.verticalHeader()
    rows.hide()
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(view.fontMetrics().height() + 4)
    view.setShowGrid(False)
    view.setWordWrap(False)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    return view
