"""The "End the game…" dialog: who won, how it ended, the module's victory condition, scores.

Accepting it issues an `end` op (docs/ops.md), so the log itself carries the result that the
replay and the report read; every seat's window then shows it (:mod:`.end_view`), in the words
of :func:`result_lines`.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from table.core.apply import END_HOWS

from .window_fit import fit_window

HOW_LABELS = {"victory": "Victory", "concession": "Concession (the others gave up)",
              "time": "Time (stopped at the time limit)", "draw": "Draw (no winner)",
              "abandoned": "Abandoned (no result)"}


def _names(seats: list[int], seat_name: Callable[[int], str]) -> str:
    names = [seat_name(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def result_lines(result: dict[str, Any], seat_name: Callable[[int], str]) -> tuple[str, str]:
    """(headline, details) of an `end` op's result, in players' words: "Bob won" and "By
    victory: Ran the Gauntlet · Scores: Ada 3, Bob 7 · “close game”"."""
    how = str(result.get("how") or "")
    winners = [int(s) for s in result.get("winners") or [] if str(s).isdigit()]
    won = f"{_names(winners, seat_name)} won" if winners else ""
    headline = {"draw": "A draw: nobody won", "abandoned": "The game was abandoned"}.get(
        how, won or "The game ended with no winner named")
    details = []
    if how == "victory":
        condition = result.get("condition")
        details.append(f"By victory: {condition}" if condition else "By victory")
    elif how == "concession":
        details.append("The others conceded")
    elif how == "time":
        details.append("Stopped at the time limit")
    elif how == "abandoned":
        details.append("No result")
    scores = result.get("scores")
    if isinstance(scores, dict) and scores:
        details.append("Scores: " + ", ".join(
            f"{seat_name(int(s))} {v}" for s, v in sorted(scores.items(), key=lambda kv: -kv[1])
            if str(s).isdigit()))
    if result.get("text"):
        details.append(f"“{result['text']}”")
    return headline, " · ".join(details)


def victory_conditions(module: Any) -> list[str]:
    spec = (getattr(module, "rules", None) or {}).get("victory")
    conditions = spec.get("conditions") if isinstance(spec, dict) else None
    return [str(c) for c in conditions] if isinstance(conditions, list) else []


class EndGameDialog(QDialog):
    """Seats as winner checkboxes, how it ended, the condition, optional scores and a remark."""

    def __init__(self, seats: dict[int, str], module: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("End the game")
        self.setObjectName("end-game-dialog")
        self.winners: dict[int, QCheckBox] = {}
        self.scores: dict[int, QSpinBox] = {}
        box = QGroupBox("Who won")
        rows = QFormLayout(box)
        for seat, name in sorted(seats.items()):
            check = QCheckBox(f"{name} (seat {seat})")
            score = QSpinBox()
            score.setRange(-9999, 9999)
            score.setSpecialValueText("—")  # the minimum shows as "no score"
            score.setMinimum(-1)
            score.setValue(-1)
            score.setToolTip("Final score (leave at — for none)")
            line = QHBoxLayout()
            line.addWidget(check, 1)
            line.addWidget(score)
            rows.addRow(line)
            self.winners[seat], self.scores[seat] = check, score
        self.how = QComboBox()
        for how in END_HOWS:
            self.how.addItem(HOW_LABELS[how], how)
        self.condition = QComboBox()
        self.condition.addItem("—", None)
        for condition in victory_conditions(module):
            self.condition.addItem(condition, condition)
        self.remark = QLineEdit()
        self.remark.setPlaceholderText("optional: anything the designers should know")
        form = QFormLayout()
        form.addRow("How it ended", self.how)
        form.addRow("Victory condition", self.condition)
        form.addRow("Remark", self.remark)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(box)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.how.currentIndexChanged.connect(self._how_changed)
        self._how_changed()
        hint = self.sizeHint()
        self.fit = fit_window(self, "end-game", max(420, hint.width()), hint.height())

    def _how_changed(self) -> None:
        victory = self.how.currentData() == "victory"
        self.condition.setEnabled(victory)
        no_winner = self.how.currentData() in ("draw", "abandoned")
        for check in self.winners.values():
            check.setEnabled(not no_winner)

    def result_args(self) -> dict[str, Any]:
        """Arguments for `actions.end_game`."""
        how = str(self.how.currentData())
        winners = [] if how in ("draw", "abandoned") else \
            [s for s, c in self.winners.items() if c.isChecked()]
        scores = {s: box.value() for s, box in self.scores.items() if box.value() >= 0}
        return {"winners": winners, "how": how,
                "condition": self.condition.currentData() if how == "victory" else None,
                "scores": scores or None, "text": self.remark.text().strip() or None}


def ask_end_game(parent: QWidget, seats: dict[int, str], module: Any,
                 done: Callable[[dict[str, Any]], object]) -> EndGameDialog:
    """Open the dialog (window-modal, not blocking) and call `done` with the result on OK."""
    dialog = EndGameDialog(seats, module, parent)
    dialog.accepted.connect(lambda: done(dialog.result_args()))
    dialog.open()
    return dialog
