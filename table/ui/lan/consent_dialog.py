"""Another player asks this table to act on one of your hidden piles: accept, refuse, or
always accept for this game. Closing the dialog refuses."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from ..window_fit import fit_window

ANSWERS = ("accept", "refuse", "always")


class ConsentDialog(QDialog):
    """``answer(choice)`` is called once, with "accept", "refuse" or "always"."""

    def __init__(self, who: str, what: str, answer: Callable[[str], None], *,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("A request for your table — Sandtable")
        self.setObjectName("lan-consent")
        self._answer = answer
        self.answered: str | None = None
        self.question = QLabel(f"{who} asks your table to {what}.")
        self.question.setWordWrap(True)
        self.buttons = QDialogButtonBox()
        self.accept_button = self.buttons.addButton("Accept", QDialogButtonBox.ButtonRole.AcceptRole)
        self.refuse_button = self.buttons.addButton("Refuse", QDialogButtonBox.ButtonRole.RejectRole)
        self.always_button = self.buttons.addButton("Always for this game",
                                                    QDialogButtonBox.ButtonRole.YesRole)
        self.accept_button.clicked.connect(lambda: self._choose("accept"))
        self.refuse_button.clicked.connect(lambda: self._choose("refuse"))
        self.always_button.clicked.connect(lambda: self._choose("always"))
        box = QVBoxLayout(self)
        box.addWidget(self.question)
        box.addWidget(self.buttons)
        self.fit = fit_window(self, "consent", 420, 140)

    def _choose(self, choice: str) -> None:
        if self.answered is None:
            self.answered = choice
            self._answer(choice)
        self.done(QDialog.DialogCode.Accepted if choice != "refuse"
                  else QDialog.DialogCode.Rejected)

    def reject(self) -> None:  # Esc or the close button
        if self.answered is None:
            self.answered = "refuse"
            self._answer("refuse")
        super().reject()

    def withdraw(self) -> None:
        """The request timed out (or the table closed): close without answering again."""
        self.answered = self.answered or "withdrawn"
        super().reject()
