"""Rejoin a LAN game from its log: progress, plain errors, and HOST:PORT when nobody is found;
or reopen it when nobody of the table answers (alone, or at an address the player types)."""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from ..style import show_error
from ..window_fit import fit_window
from .model import NoPeersFound, RejoinRequest, message_of, run_soon


class RejoinDialog(QDialog):
    """``rejoin(request)`` is a coroutine function that reconnects and opens the table window
    (raising :class:`~.model.LanProblem` on failure; :class:`~.model.NoPeersFound` shows the
    HOST:PORT field). It starts at once unless the table needs its passphrase typed again."""

    def __init__(self, log_path: str, table_name: str,
                 rejoin: Callable[[RejoinRequest], Awaitable[Any]], *,
                 needs_passphrase: bool = False, reopen: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rejoin a LAN table — Sandtable")
        self.setObjectName("lan-rejoin")
        self.log_path = log_path
        self.table_name = table_name or "table"
        self._rejoin = rejoin
        self._task: asyncio.Future[Any] | None = None

        self.reopen = reopen  # nobody else of the table is there now: it opens alone
        self.intro = QLabel(
            f"Reopening table “{self.table_name}” as the same player: nobody else of it "
            "answers on the network now. Reopened, it is announced again and the others find "
            "it when they come back; or type the address of a player who is there." if reopen
            else
            f"Getting back into table “{self.table_name}” as the same player: your moves so "
            "far are in the saved log, the rest comes from the other players.")
        self.intro.setWordWrap(True)
        self.passphrase = QLineEdit()
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase.setPlaceholderText("the table's passphrase")
        self.address = QLineEdit()
        self.address.setPlaceholderText("HOST:PORT of another player (their peers panel)")
        self.form = QFormLayout()
        self.form.addRow("Passphrase", self.passphrase)
        self.form.addRow("Address", self.address)
        self.form.setRowVisible(self.passphrase, needs_passphrase)
        self.form.setRowVisible(self.address, reopen)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setObjectName("lan-status")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.go = self.buttons.addButton("Reopen" if reopen else "Rejoin",
                                         QDialogButtonBox.ButtonRole.AcceptRole)
        self.go.setDefault(True)
        self.buttons.accepted.connect(self.submit)
        self.buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(self.intro)
        box.addLayout(self.form)
        box.addWidget(self.status)
        box.addWidget(self.buttons)
        self.fit = fit_window(self, "rejoin", 460, 220)
        if needs_passphrase:
            self.status.setText("Type the table's passphrase to rejoin.")
        elif reopen:
            self.address.setPlaceholderText("optional: HOST:PORT of a player who is there")
        else:  # one click on the start screen was the player's say
            self.submit()

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def address_shown(self) -> bool:
        return self.form.isRowVisible(self.address)

    def request(self) -> RejoinRequest:
        address = self.address.text().strip() if self.address_shown() else ""
        return RejoinRequest(self.log_path, self.passphrase.text() or None, address)

    def submit(self) -> None:
        if self.busy:
            return
        self.show_error("")
        self.status.setText(f"{'Reopening' if self.reopen else 'Rejoining'} table "
                            f"{self.table_name}…")
        self._set_inputs(False)
        self._task = run_soon(self._rejoin(self.request()), self._finished)

    def _finished(self, _result: Any, err: BaseException | None) -> None:
        self._task = None
        self._set_inputs(True)
        if err is not None:
            if isinstance(err, NoPeersFound):
                self.form.setRowVisible(self.address, True)
                self.address.setFocus()
            self.show_error(message_of(err))
            return
        self.status.setText("")
        self.accept()

    def show_error(self, text: str) -> None:
        show_error(self.status, text)

    def error_text(self) -> str:
        return self.status.text() if self.status.property("error") else ""

    def _set_inputs(self, on: bool) -> None:
        for w in (self.passphrase, self.address, self.go):
            w.setEnabled(on)

    def reject(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()  # the wiring leaves a half-rejoined table on cancellation
            self._task = None
        super().reject()
