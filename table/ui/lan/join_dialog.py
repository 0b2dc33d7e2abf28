"""Join a LAN table: pick one the LAN announces (a live list) or type HOST:PORT, give the
passphrase, connect and catch up, then choose a free seat and your deck."""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..style import show_error
from ..window_fit import fit_window
from .model import (
    WATCH_SEAT,
    JoinedTable,
    JoinRequest,
    NetworkOption,
    TableEntry,
    message_of,
    run_soon,
)
from .network_choice import NetworkChoice
from .position_picker import position_picker

SEARCHING = "Looking for tables on this network…"
NO_MDNS = ("Not listed? Some networks block table discovery (mDNS): ask the host for the "
           "address shown in their Peers panel and type it below.")


class JoinDialog(QDialog):
    """``connect(request)`` (coroutine function) joins and catches up, returning a
    :class:`JoinedTable`; ``take_seat(seat, deck)`` (coroutine function) claims the seat, sets
    it up and opens the table window; ``leave()`` is called if the dialog is closed after
    connecting but before taking a seat. Feed the live list with :meth:`set_tables`."""

    def __init__(self, connect: Callable[[JoinRequest], Awaitable[JoinedTable]],
                 take_seat: Callable[[int, str | None], Awaitable[Any]],
                 leave: Callable[[], None] | None = None, *, player_name: str = "",
                 networks: list[NetworkOption] | None = None, network: str | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # where tables are looked for: changing it starts the list again (the app listens to
        # its currentIndexChanged)
        self.network = NetworkChoice(networks or [NetworkOption(None, "Every network")],
                                     network)
        self.setWindowTitle("Join a LAN table — Sandtable")
        self.setObjectName("lan-join")
        self._connect, self._take_seat, self._leave = connect, take_seat, leave
        self._task: asyncio.Future[Any] | None = None
        self.joined: JoinedTable | None = None
        self.entries: list[TableEntry] = []
        where = self._which_table(player_name)
        self.seat_box = self._seat_step()
        self.status = QLabel()
        self._finish(where)

    def _which_table(self, player_name: str) -> QGroupBox:
        """Step 1: which table (the live list, an address or a ticket), and who joins it."""
        self.tables = QTreeWidget()
        self.tables.setObjectName("lan-tables")
        self.tables.setHeaderLabels(["Table", "Game", "Players", "Free", "Passphrase"])
        self.tables.setRootIsDecorated(False)
        self.tables.setUniformRowHeights(True)
        for column, width in enumerate((170, 120, 60, 45)):
            self.tables.setColumnWidth(column, width)
        self.tables.itemSelectionChanged.connect(self._selection_changed)
        self.tables.itemDoubleClicked.connect(lambda *_: self.submit())
        self.searching = QLabel(SEARCHING)
        self.searching.setObjectName("muted")
        self.hint = QLabel(NO_MDNS)
        self.hint.setObjectName("muted")
        self.hint.setWordWrap(True)
        self.address = QLineEdit()
        self.address.setPlaceholderText("HOST:PORT, e.g. 192.168.1.20:47113")
        self.address.textEdited.connect(lambda _t: self.tables.clearSelection())
        self.ticket = QLineEdit()
        self.ticket.setObjectName("lan-ticket")
        self.ticket.setPlaceholderText("a ticket the host sent, to join over the internet")
        self.ticket.textEdited.connect(lambda _t: self.tables.clearSelection())
        self.passphrase = QLineEdit()
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase.setPlaceholderText("if the table has one")
        self.name = QLineEdit(player_name)
        self.name.setPlaceholderText("Your name at the table")
        where = QGroupBox("Table")
        where_box = QVBoxLayout(where)
        where_box.addWidget(self.searching)
        where_box.addWidget(self.tables, 1)
        where_box.addWidget(self.hint)
        form = QFormLayout()
        form.addRow("Network", self.network)
        form.addRow("Address", self.address)
        form.addRow("Ticket", self.ticket)
        form.addRow("Passphrase", self.passphrase)
        form.addRow("Your name", self.name)
        self.position = position_picker(self, "if the table starts from a position: the same "
                                              "file as the host's")
        form.addRow("Position", self.position)
        self.watch = QCheckBox("Watch: take no seat (see the public table, chat, add notes)")
        self.watch.setObjectName("lan-watch")
        form.addRow("", self.watch)
        where_box.addLayout(form)
        return where

    def _seat_step(self) -> QGroupBox:
        """Step 2: seat and deck, shown once caught up."""
        seat_box = QGroupBox("Your seat")
        seat_form = QFormLayout(seat_box)
        self.joined_label = QLabel()
        self.joined_label.setWordWrap(True)
        self.seat = QComboBox()
        self.deck = QComboBox()
        self.seat.currentIndexChanged.connect(self._seat_changed)
        seat_form.addRow(self.joined_label)
        seat_form.addRow("Seat", self.seat)
        seat_form.addRow("Deck", self.deck)
        seat_box.setVisible(False)
        return seat_box

    def _finish(self, where: QGroupBox) -> None:
        self.status.setObjectName("lan-status")
        self.status.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.go = self.buttons.addButton("Connect", QDialogButtonBox.ButtonRole.AcceptRole)
        self.go.setDefault(True)
        self.buttons.accepted.connect(self.submit)
        self.buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(where, 1)
        box.addWidget(self.seat_box)
        box.addWidget(self.status)
        box.addWidget(self.buttons)
        self.fit = fit_window(self, "join", 560, 520)

    # --- the live list ---------------------------------------------------------------------
    def set_tables(self, entries: list[TableEntry]) -> None:
        """Replace the listed tables (keeps the selection when that table is still there)."""
        selected = self.selected_entry()
        self.entries = list(entries)
        self.tables.blockSignals(True)
        self.tables.clear()
        for e in self.entries:
            name = f"{e.name} (yours)" if e.yours else e.name
            item = QTreeWidgetItem([name, e.game, str(e.players), str(e.free_seats),
                                    "needed" if e.passphrase_needed else "—"])
            item.setData(0, Qt.ItemDataRole.UserRole, e.table_id)
            mine = f"\nYour {e.yours}: connect to take it back." if e.yours else ""
            item.setToolTip(0, f"{e.name} — {', '.join(e.addresses)}{mine}")
            self.tables.addTopLevelItem(item)
            if selected is not None and e.table_id == selected.table_id:
                item.setSelected(True)
        self.tables.blockSignals(False)
        self.searching.setText(SEARCHING if not self.entries else
                               f"{len(self.entries)} table{'s' if len(self.entries) != 1 else ''}"
                               " on this network:")

    def table_names(self) -> list[str]:
        return [e.name for e in self.entries]

    def selected_entry(self) -> TableEntry | None:
        items = self.tables.selectedItems()
        if not items:
            return None
        tid = items[0].data(0, Qt.ItemDataRole.UserRole)
        return next((e for e in self.entries if e.table_id == tid), None)

    def select_table(self, name: str) -> bool:
        for i in range(self.tables.topLevelItemCount()):
            item = self.tables.topLevelItem(i)
            if item is not None and item.text(0).removesuffix(" (yours)") == name:
                self.tables.setCurrentItem(item)
                item.setSelected(True)
                return True
        return False

    def _selection_changed(self) -> None:
        e = self.selected_entry()
        if e is not None:
            self.address.clear()
            self.passphrase.setPlaceholderText("required by this table" if e.passphrase_needed
                                               else "not needed for this table")

    # --- running -----------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def request(self) -> JoinRequest | None:
        name = self.name.text().strip()
        passphrase = self.passphrase.text() or None
        text = self.address.text().strip()
        position = self.position.path()
        watch = self.watch.isChecked()
        ticket = self.ticket.text().strip()
        if ticket:
            return JoinRequest("", (), passphrase, name, position, watch, ticket=ticket,
                               interfaces=self.network.interfaces())
        if text:
            return JoinRequest("", (text,), passphrase, name, position, watch,
                               interfaces=self.network.interfaces())
        e = self.selected_entry()
        if e is None:
            return None
        return JoinRequest(e.table_id, e.addresses, passphrase, name, position, watch,
                           interfaces=self.network.interfaces())

    def submit(self) -> None:
        if self.busy:
            return
        if self.joined is not None:
            self._take()
            return
        req = self.request()
        if req is None:
            self.show_error("Pick a table in the list, type its address (HOST:PORT), or paste "
                            "the ticket the host sent.")
            return
        self.show_error("")
        self.status.setText("Connecting and catching up…")
        self._set_step1(False)
        self._task = run_soon(self._connect(req), self._connected)

    def _connected(self, joined: Any, err: BaseException | None) -> None:
        self._task = None
        if err is not None:
            self._set_step1(True)
            self.show_error(message_of(err))
            return
        assert isinstance(joined, JoinedTable)
        self.show_joined(joined)

    def show_joined(self, joined: JoinedTable) -> None:
        self.joined = joined
        self.status.setText("")
        note = "".join(f"\nNote: {text}." for text in (joined.draws_note, joined.record_note)
                       if text)
        self.joined_label.setText(f"Joined “{joined.table_name}” ({joined.game_name}, "
                                  f"{joined.seats} seats).{note}")
        if joined.watching:  # no seat to choose: open the table
            self.status.setText("Opening the table to watch…")
            self._task = run_soon(self._take_seat(WATCH_SEAT, None), self._seated)
            return
        self.seat.clear()
        who = f" as {joined.own_name}" if joined.own_name else ""
        for s in joined.own_seats:  # this player's own place: theirs to take back
            self.seat.addItem(f"Seat {s}: yours{who}, take it back", s)
        for s in joined.free_seats:
            self.seat.addItem(f"Seat {s}", s)
        self.deck.clear()
        self.deck.addItems(joined.decks or ["starter deck"])
        self.deck.setEnabled(bool(joined.decks))
        self._seat_changed()
        self.seat_box.setVisible(True)
        if self.height() < self.sizeHint().height():  # room for the seat step
            self.resize(self.width(), self.sizeHint().height())
            self.fit.keep_inside()
        seats = joined.own_seats + joined.free_seats
        if not seats:
            self.show_error("Every seat is taken at this table.")
        self.go.setText("Take your seat back" if joined.own_seats else "Take the seat")
        self.go.setEnabled(bool(seats))

    def _seat_changed(self, *_: object) -> None:
        if self.joined is None:
            return
        seat = self.seat.currentData()
        own = seat in self.joined.own_seats  # its deck is the one it was dealt
        self.deck.setEnabled(bool(self.joined.decks) and not own)
        self.go.setText("Take your seat back" if own else "Take the seat")
        default = self.joined.default_decks.get(seat) if isinstance(seat, int) else None
        if default:
            self.deck.setCurrentText(default)

    def _take(self) -> None:
        assert self.joined is not None
        seat = self.seat.currentData()
        if not isinstance(seat, int):
            return
        deck = self.deck.currentText() if self.joined.decks and seat not in \
            self.joined.own_seats else None
        self.show_error("")
        self.status.setText(f"Setting up seat {seat}…")
        self.go.setEnabled(False)
        self.seat.setEnabled(False)
        self.deck.setEnabled(False)
        self._task = run_soon(self._take_seat(seat, deck), self._seated)

    def _seated(self, _result: Any, err: BaseException | None) -> None:
        self._task = None
        if err is not None:
            self.go.setEnabled(True)
            self.seat.setEnabled(True)
            self.deck.setEnabled(bool(self.joined and self.joined.decks))
            self.show_error(message_of(err))
            return
        self.joined = None  # the table window owns the table now
        self.accept()

    def show_error(self, text: str) -> None:
        show_error(self.status, text)

    def error_text(self) -> str:
        return self.status.text()

    def _set_step1(self, on: bool) -> None:
        for w in (self.tables, self.address, self.ticket, self.passphrase, self.name, self.watch,
                  self.go):
            w.setEnabled(on)

    def reject(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            self._task = None
        if self.joined is not None and self._leave is not None:
            self.joined = None
            self._leave()
        super().reject()
