"""The table's invitation over the internet: its ticket, to copy and send to the players."""
from __future__ import annotations

from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

EXPLAIN = ("Send this ticket to the players who join over the internet (Join a LAN table → "
           "Ticket). The ticket alone seats no one: they also need the table's passphrase, "
           "which you give them another way.")
NO_PASSPHRASE = ("This table has no passphrase: anyone who gets the ticket can join. "
                 "Host with a passphrase to guard it.")


class InviteDialog(QDialog):
    def __init__(self, ticket: str, *, passphrase: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Invite over the internet — Sandtable")
        self.setObjectName("lan-invite-dialog")
        self.ticket = QLineEdit(ticket)
        self.ticket.setObjectName("lan-ticket-text")
        self.ticket.setAccessibleName("Ticket")
        self.ticket.setReadOnly(True)
        self.ticket.setCursorPosition(0)
        self.copy = QPushButton("Copy")
        self.copy.setObjectName("lan-copy-ticket")
        self.copy.clicked.connect(self._copy)
        explain = QLabel(EXPLAIN if passphrase else NO_PASSPHRASE)
        explain.setWordWrap(True)
        self.copied = QLabel("")
        self.copied.setObjectName("muted")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.copy, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(explain)
        box.addWidget(self.ticket)
        box.addWidget(self.copied)
        box.addWidget(buttons)
        self.resize(620, 180)

    def _copy(self) -> None:
        QApplication.clipboard().setText(self.ticket.text())
        self.copied.setText("Copied to the clipboard.")
