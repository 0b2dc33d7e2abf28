"""Host a LAN table: game, seats, table name, passphrase, your seat and deck."""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..games import GameChoice
from ..style import show_error
from ..window_fit import fit_window
from .model import HostRequest, NetworkOption, message_of, run_soon
from .network_choice import NetworkChoice
from .position_picker import position_picker


class HostDialog(QDialog):
    """``start(request)`` is a coroutine function that starts the table and opens its window
    (raising :class:`~.model.LanProblem` with a message for the player on failure)."""

    def __init__(self, games: list[GameChoice], start: Callable[[HostRequest], Awaitable[Any]],
                 *, player_name: str = "", last_game: str = "",
                 networks: list[NetworkOption] | None = None, network: str | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Host a LAN table — Sandtable")
        self.network = NetworkChoice(networks or [NetworkOption(None, "Every network")],
                                     network)
        self.setObjectName("lan-host")
        self.games = [g for g in games if g.module is not None] or list(games)
        self._start = start
        self._task: asyncio.Future[Any] | None = None
        form = self._table_fields(player_name, last_game)
        self._play_fields(form)
        self.note = QLabel("Your deck list stays on this computer: others see only its "
                           "public headers, and hidden cards never leave their owner's machine.")
        self._finish(form)

    def _table_fields(self, player_name: str, last_game: str) -> QFormLayout:
        """The table's game, seats, name and passphrase; this player's name, seat, deck, port."""
        self.game = QComboBox()
        for g in self.games:
            self.game.addItem(g.name, g.id)
        index = self.game.findData(last_game)
        self.game.setCurrentIndex(index if index >= 0 else 0)
        self.seats = QSpinBox()
        self.table_name = QLineEdit(f"{player_name}'s table" if player_name else "Playtest")
        self.table_name.setMaxLength(60)
        self.passphrase = QLineEdit()
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase.setPlaceholderText("optional: players must type it to join")
        self.passphrase.setAccessibleName("Passphrase")  # its row holds a Show box too
        self.show_pass = QCheckBox("show")
        self.show_pass.toggled.connect(lambda on: self.passphrase.setEchoMode(
            QLineEdit.EchoMode.Normal if on else QLineEdit.EchoMode.Password))
        self.name = QLineEdit(player_name)
        self.name.setPlaceholderText("Your name at the table")
        self.seat = QSpinBox()
        self.deck = QComboBox()
        self.port = QSpinBox()
        self.port.setRange(0, 65535)
        self.port.setSpecialValueText("any free port")
        self.port.setToolTip("The TCP port others connect to (allow it through the firewall)")
        self.position = position_picker(self, "optional: start from a position file "
                                              "(it names the game and seats)")
        form = QFormLayout()
        form.addRow("Game", self.game)
        form.addRow("Seats", self.seats)
        form.addRow("Table name", self.table_name)
        # one row, in a widget of its own: a layout nested in a form row is squeezed to the
        # label's height (the field drawn 14 px high)
        pass_row = QWidget()
        pass_box = QHBoxLayout(pass_row)
        pass_box.setContentsMargins(0, 0, 0, 0)
        pass_box.addWidget(self.passphrase, 1)
        pass_box.addWidget(self.show_pass)
        form.addRow("Passphrase", pass_row)
        form.addRow("Your name", self.name)
        form.addRow("Your seat", self.seat)
        form.addRow("Your deck", self.deck)
        form.addRow("Network", self.network)
        form.addRow("Port", self.port)
        form.addRow("Position", self.position)
        return form

    def _play_fields(self, form: QFormLayout) -> None:
        """Who may watch, internet play, and whether dice may be rolled alone."""
        self.watchers = QCheckBox("Let watchers join (no seat: they see the public table)")
        self.watchers.setObjectName("lan-watchers")
        self.watchers.setChecked(True)
        self.record = QCheckBox("At the end, players send their secrets to the watchers")
        self.record.setObjectName("lan-record")
        self.record.setChecked(True)
        self.watchers.toggled.connect(self.record.setEnabled)
        form.addRow("Watchers", self.watchers)
        form.addRow("", self.record)
        self.internet = QCheckBox("Invite over the internet… (shows a ticket to send the players)")
        self.internet.setObjectName("lan-internet")
        form.addRow("Internet", self.internet)
        self.local_draws = QCheckBox("Let players roll and shuffle alone (not audited)")
        self.local_draws.setObjectName("lan-local-draws")
        self.local_draws.setToolTip("Unticked, every roll and shuffle is drawn jointly, and a "
                                    "player's roll made alone is flagged on every peer")
        form.addRow("Dice", self.local_draws)
        self._session_fields(form)

    def _session_fields(self, form: QFormLayout) -> None:
        """What the session is, for the designer's report (`report --by group`): a tag op."""
        self.group = QLineEdit()
        self.group.setObjectName("lan-group")
        self.group.setPlaceholderText("optional: the playtest group (a club, a team)")
        self.event_name = QLineEdit()
        self.event_name.setObjectName("lan-event")
        self.event_name.setPlaceholderText("optional: where it is played")
        self.tags = QLineEdit()
        self.tags.setObjectName("lan-tags")
        self.tags.setPlaceholderText("optional: tags, separated by commas")
        form.addRow("Playtest group", self.group)
        form.addRow("Event", self.event_name)
        form.addRow("Tags", self.tags)

    def _finish(self, form: QFormLayout) -> None:
        self.note.setObjectName("muted")
        self.note.setWordWrap(True)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setObjectName("lan-status")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.host_button = self.buttons.addButton("Host the table",
                                                  QDialogButtonBox.ButtonRole.AcceptRole)
        self.host_button.setDefault(True)
        self.buttons.accepted.connect(self.submit)
        self.buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addLayout(form)
        box.addWidget(self.note)
        box.addWidget(self.status)
        box.addWidget(self.buttons)
        self.game.currentIndexChanged.connect(self._game_changed)
        self.seats.valueChanged.connect(self._seats_changed)
        self.seat.valueChanged.connect(self._seat_changed)
        self._game_changed()
        hint = self.sizeHint()  # never smaller than its fields need
        self.fit = fit_window(self, "host", max(520, hint.width()), hint.height())

    # --- inputs ------------------------------------------------------------------------------
    def choice(self) -> GameChoice:
        return self.games[max(0, self.game.currentIndex())]

    def _game_changed(self, *_: object) -> None:
        g = self.choice()
        self.seats.blockSignals(True)
        self.seats.setRange(g.min_seats, g.max_seats)
        self.seats.setValue(g.min_seats)
        self.seats.blockSignals(False)
        self.deck.clear()
        self.deck.addItems(g.decks or ["starter deck"])
        self.deck.setEnabled(bool(g.decks))
        self._seats_changed()

    def _seats_changed(self, *_: object) -> None:
        self.seat.setRange(1, self.seats.value())
        self._seat_changed()

    def _seat_changed(self, *_: object) -> None:
        g = self.choice()
        s = self.seat.value()
        if g.default_decks and s - 1 < len(g.default_decks):
            self.deck.setCurrentText(g.default_decks[s - 1])

    def request(self) -> HostRequest:
        g = self.choice()
        return HostRequest(
            game_id=g.id, seats=self.seats.value(),
            table_name=self.table_name.text().strip() or "Playtest",
            passphrase=self.passphrase.text() or None, seat=self.seat.value(),
            deck=self.deck.currentText() if g.decks else None,
            player_name=self.name.text().strip(), port=self.port.value(),
            position=self.position.path(), watchers=self.watchers.isChecked(),
            internet=self.internet.isChecked(),
            record_to_watchers=self.record.isChecked(),
            local_draws=self.local_draws.isChecked(), interfaces=self.network.interfaces(),
            tags=self.session_tags())

    def session_tags(self) -> dict[str, Any]:
        """The tag op's arguments the group, event and tags fields name ({}: none)."""
        tags: dict[str, Any] = {}
        if self.group.text().strip():
            tags["group"] = self.group.text().strip()
        if self.event_name.text().strip():
            tags["event"] = self.event_name.text().strip()
        free = [t.strip() for t in self.tags.text().split(",") if t.strip()]
        if free:
            tags["add"] = free
        return tags

    # --- running -----------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def submit(self) -> None:
        if self.busy:
            return
        self.show_error("")
        self.status.setText("Starting the table…")
        self._set_inputs(False)
        self._task = run_soon(self._start(self.request()), self._finished)

    def _finished(self, _result: Any, err: BaseException | None) -> None:
        self._task = None
        if err is not None:
            self._set_inputs(True)
            self.show_error(message_of(err))
            return
        self.status.setText("")
        self.accept()

    def show_error(self, text: str) -> None:
        show_error(self.status, text)

    def _set_inputs(self, on: bool) -> None:
        for w in (self.game, self.seats, self.table_name, self.passphrase, self.name, self.seat,
                  self.deck, self.port, self.group, self.event_name, self.tags, self.host_button):
            w.setEnabled(on)
        if on:
            self.deck.setEnabled(bool(self.choice().decks))

    def reject(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()  # the wiring leaves a half-started table on cancellation
            self._task = None
        super().reject()
