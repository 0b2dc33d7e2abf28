"""The start screen: who you are, play hot-seat, host or join a LAN table, take back a place at
a LAN table you sat at, resume, replay a game that ended, open a log.

Two columns, laid out for a 1366x768 laptop first: everything is in view without scrolling
(the page still scrolls on a smaller screen)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from .games import GameChoice, available_games
from .lan.model import RejoinOffer
from .profiles import current
from .settings import Settings, games_dir
from .window_fit import fit_window

LAN_UNAVAILABLE = "LAN play is not available in this window (no network wiring)."
LAN_HOST_TIP = "Start a table others on this network can join (your deck stays on this computer)"
LAN_JOIN_TIP = "Join a table announced on this network, or one at HOST:PORT"


class StartScreen(QWidget):
    playRequested = Signal(object, int, list)  # GameChoice, seats, deck names
    resumeRequested = Signal(str)
    openLogRequested = Signal(str)
    positionRequested = Signal(str)  # a position file to start a hot-seat table from
    moduleRequested = Signal(str)  # a draft's module folder to play hot-seat (and edit live)
    hostRequested = Signal()
    joinRequested = Signal()
    rejoinRequested = Signal(str)  # a LAN table's log: take this player's place back

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings
        self.setWindowTitle("Sandtable")
        self.setObjectName("start")
        self.games = available_games()
        title = QLabel("Sandtable")
        title.setObjectName("title")
        tagline = QLabel("A virtual table for playtesting card games — every action logged.")
        tagline.setObjectName("tagline")
        tagline.setWordWrap(True)
        page = QGridLayout()
        page.setHorizontalSpacing(18)
        page.addWidget(title, 0, 0, 1, 2)
        page.addWidget(tagline, 1, 0, 1, 2)
        left, right = QVBoxLayout(), QVBoxLayout()
        for group in (self._you(), self._hot_seat()):
            left.addWidget(group)
        for group in (self._lan_tables(), self._lan(), self._logs()):
            right.addWidget(group)
        for n, column in enumerate((left, right)):
            column.addStretch(1)
            column.setContentsMargins(0, 0, 0, 0)
            holder = QWidget()  # two columns of one width, whatever their contents ask
            holder.setLayout(column)
            holder.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            holder.setMinimumWidth(330)
            page.addWidget(holder, 2, n)
            page.setColumnStretch(n, 1)
        self._page(page)
        self._game_changed()
        self.refresh_resume()
        self.fit = fit_window(self, "start-screen", 1000, 660)  # two columns: a size of its own

    def _hot_seat(self) -> QGroupBox:
        self.game = QComboBox()
        for g in self.games:
            self.game.addItem(g.name, g.id)
        last = self.game.findData(self.settings.last_game)
        self.game.setCurrentIndex(last if last >= 0 else 0)
        self.seats = QSpinBox()
        self.decks_box = QGridLayout()
        self.deck_pickers: list[QComboBox] = []
        self.play = QPushButton("Play hot-seat")
        self.play.setObjectName("primary")
        self.play.setDefault(True)
        self.play.setToolTip("One person plays every seat on this computer")
        self.play.clicked.connect(self._play)
        form = QFormLayout()
        form.addRow("Game", self.game)
        form.addRow("Seats", self.seats)
        form.addRow("Decks", self.decks_box)
        hot = QGroupBox("Play on this computer")
        hot_box = QVBoxLayout(hot)
        hot_box.addLayout(form)
        hot_box.addWidget(self.play)
        self.from_position = QPushButton("Start from a position…")
        self.from_position.setToolTip("Open a hot-seat table in a situation saved or written as a "
                                      "position file (docs/positions.md)")
        self.from_position.clicked.connect(self._from_position)
        hot_box.addWidget(self.from_position)
        self.from_folder = QPushButton("Play a module folder…")
        self.from_folder.setToolTip("Play a draft from its folder (game.toml, cards.csv, decks/); "
                                    "edits to its files reach the table as you save them")
        self.from_folder.clicked.connect(self._from_folder)
        hot_box.addWidget(self.from_folder)
        self.game.currentIndexChanged.connect(self._game_changed)
        self.seats.valueChanged.connect(self._seats_changed)
        return hot

    def _lan(self) -> QGroupBox:
        lan = QGroupBox("Play over the LAN")
        lan_box = QVBoxLayout(lan)
        row = QHBoxLayout()
        self.host = QPushButton("&Host a LAN table")  # Alt+H
        self.join = QPushButton("&Join a LAN table")  # Alt+J
        self.host.clicked.connect(self._host)
        self.join.clicked.connect(self._join)
        for b in (self.host, self.join):
            row.addWidget(b)
        lan_box.addLayout(row)
        self.lan_note = QLabel()
        self.lan_note.setObjectName("muted")
        lan_box.addWidget(self.lan_note)
        self.set_lan_available(False)
        return lan

    def _logs(self) -> QGroupBox:
        logs = QGroupBox("Continue or review")
        logs_box = QVBoxLayout(logs)
        self.resume = QPushButton("Resume the last game")
        self.resume.clicked.connect(self._resume)
        self.resume_note = QLabel()
        self.resume_note.setObjectName("muted")
        self.replay_last = QPushButton("Replay the last game")
        self.replay_last.setObjectName("replay-last")
        self.replay_last.setToolTip("The game that ended last, from its first move to its end")
        self.replay_last.clicked.connect(self._replay_last)
        self.replay_note = QLabel()
        self.replay_note.setObjectName("muted")
        self.replay_note.setWordWrap(True)
        self.open_log = QPushButton("Open a log (replay)…")
        self.open_log.setToolTip("Replay a saved game: the table at any moment, step back and "
                                 "forward, jump by turn, flag or note, fork a new game from there")
        self.open_log.clicked.connect(self._open_log)
        for w in (self.resume, self.resume_note, self.replay_last, self.replay_note,
                  self.open_log):
            logs_box.addWidget(w)
        return logs

    def _lan_tables(self) -> QGroupBox:
        """Each LAN table this computer's player sat at whose game goes on (the app fills it)."""
        self.lan_tables = QGroupBox("Your LAN tables")
        self.lan_tables.setObjectName("lan-tables-played")
        self.lan_tables_box = QVBoxLayout(self.lan_tables)
        self.rejoin_buttons: dict[str, QPushButton] = {}
        self.offers: list[RejoinOffer] = []
        self.lan_tables.setVisible(False)
        return self.lan_tables

    def _you(self) -> QGroupBox:
        you = QGroupBox("You")
        you_form = QFormLayout(you)
        self.name = QLineEdit(self.settings.name)
        self.name.setPlaceholderText("Your name at the table")
        self.name.editingFinished.connect(self._save_name)
        you_form.addRow("Name", self.name)
        if current() > 1:  # a second program on this computer: a second player
            note = QLabel("Another Sandtable window is open on this computer: this one is "
                          "another player, with a name and tables of its own.")
            note.setObjectName("muted")
            note.setWordWrap(True)
            you_form.addRow(note)
        return you

    def _page(self, column: QGridLayout) -> None:
        page = QWidget()  # scrolls when the screen is shorter than the page (a laptop, 4 decks)
        page.setObjectName("start-page")
        page.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        outer = QHBoxLayout(page)
        outer.addStretch(1)
        holder = QWidget()
        holder.setLayout(column)
        holder.setMaximumWidth(980)
        holder.setMinimumWidth(680)
        outer.addWidget(holder, 10)
        outer.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(page)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        whole = QVBoxLayout(self)
        whole.setContentsMargins(0, 0, 0, 0)
        whole.addWidget(scroll)

    def choice(self) -> GameChoice:
        return self.games[max(0, self.game.currentIndex())]

    def _game_changed(self, *_: object) -> None:
        g = self.choice()
        self.seats.blockSignals(True)
        self.seats.setRange(g.min_seats, g.max_seats)
        want = self.settings.last_seats if g.id == self.settings.last_game else g.max_seats
        self.seats.setValue(max(g.min_seats, min(g.max_seats, want or g.max_seats)))
        self.seats.blockSignals(False)
        self._seats_changed()

    def _seats_changed(self, *_: object) -> None:
        while self.decks_box.count():
            item = self.decks_box.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.deck_pickers = []
        g = self.choice()
        if not g.decks:
            note = QLabel("starter decks" if g.module is not None else "the sample deck")
            note.setObjectName("muted")
            self.decks_box.addWidget(note, 0, 0)
            return
        for s in range(self.seats.value()):
            pick = QComboBox()
            pick.addItems(g.decks)
            default = g.default_decks[s] if s < len(g.default_decks) else g.decks[0]
            pick.setCurrentText(default)
            self.decks_box.addWidget(QLabel(f"Seat {s + 1}"), s, 0)
            self.decks_box.addWidget(pick, s, 1)
            self.deck_pickers.append(pick)

    def refresh_resume(self) -> None:
        """Resume the game in progress; a game that ended is offered for replay instead."""
        ended = self.ended_log()
        path = self.settings.resumable()
        if path is not None and ended is not None and path == ended:
            path = None
        self.resume.setEnabled(path is not None)
        self.resume_note.setText(f"Saved: {path.name}" if path else "No game in progress.")
        self.replay_last.setVisible(ended is not None)
        self.replay_note.setVisible(ended is not None)
        if ended is not None:
            self.replay_note.setText(str(self.settings.last_ended.get("summary") or ended.name))

    def ended_log(self) -> Path | None:
        """The log of the last game that ended, if it is still there."""
        path = str(self.settings.last_ended.get("log") or "")
        return Path(path) if path and Path(path).exists() else None

    def set_lan_tables(self, offers: list[RejoinOffer]) -> None:
        """The LAN tables to offer back (the app looks for them on the network)."""
        if offers == self.offers:
            return
        self.offers = list(offers)
        while self.lan_tables_box.count():
            item = self.lan_tables_box.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.rejoin_buttons.clear()
        for offer in offers:
            button = QPushButton(offer.label())
            button.setObjectName("lan-rejoin-offer")
            button.setEnabled(offer.reachable is not None)
            button.setToolTip("Back at the table as the same player, in the same seat: your "
                              "moves are in your saved log, the rest comes from the others")
            button.clicked.connect(lambda _c=False, log=offer.log_path:
                                   self.rejoinRequested.emit(log))
            note = QLabel(offer.note())
            note.setObjectName("muted")
            note.setWordWrap(True)
            self.lan_tables_box.addWidget(button)
            self.lan_tables_box.addWidget(note)
            self.rejoin_buttons[offer.log_path] = button
        self.lan_tables.setVisible(bool(offers))

    def _play(self) -> None:
        self._save_name()
        g = self.choice()
        decks = [p.currentText() for p in self.deck_pickers]
        self.playRequested.emit(g, self.seats.value(), decks)

    def _resume(self) -> None:
        path = self.settings.resumable()
        if path is not None:
            self.resumeRequested.emit(str(path))

    def _replay_last(self) -> None:
        path = self.ended_log()
        if path is not None:
            self.openLogRequested.emit(str(path))

    def _open_log(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a Sandtable log", str(games_dir()),
                                              "Sandtable logs (*.sandlog);;All files (*)")
        if path:
            self.openLogRequested.emit(path)

    def _from_position(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Start from a position", "",
                                              "Positions (*.toml);;All files (*)")
        if path:
            self.positionRequested.emit(path)

    def _from_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Play a module folder")
        if path:
            self.moduleRequested.emit(path)

    def set_lan_available(self, available: bool) -> None:
        """The app enables Host/Join once it has wired the network in."""
        self.host.setEnabled(available)
        self.join.setEnabled(available)
        self.host.setToolTip(LAN_HOST_TIP if available else LAN_UNAVAILABLE)
        self.join.setToolTip(LAN_JOIN_TIP if available else LAN_UNAVAILABLE)
        self.lan_note.setText("" if available else "Not available here")
        self.lan_note.setVisible(not available)

    def _host(self) -> None:
        self._save_name()
        self.hostRequested.emit()

    def _join(self) -> None:
        self._save_name()
        self.joinRequested.emit()

    def _save_name(self) -> None:
        self.settings.name = self.name.text().strip()
        self.settings.save()

