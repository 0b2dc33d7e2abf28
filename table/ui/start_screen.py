"""The start screen: play hot-seat, host or join a LAN table, resume, open a log."""
from __future__ import annotations

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
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from .games import GameChoice, available_games
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
        column = QVBoxLayout()
        column.addWidget(title)
        column.addWidget(tagline)
        column.addSpacing(12)
        for group in (self._hot_seat(), self._logs(), self._lan(), self._you()):
            column.addWidget(group)
        column.addStretch(1)
        self._page(column)
        self._game_changed()
        self.refresh_resume()
        self.fit = fit_window(self, "start", 760, 720)

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
        lan_box = QHBoxLayout(lan)
        self.host = QPushButton("&Host a LAN table")  # Alt+H
        self.join = QPushButton("&Join a LAN table")  # Alt+J
        self.host.clicked.connect(self._host)
        self.join.clicked.connect(self._join)
        for b in (self.host, self.join):
            lan_box.addWidget(b)
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
        self.open_log = QPushButton("Open a log (replay)…")
        self.open_log.setToolTip("Replay a saved game: the table at any moment, step back and "
                                 "forward, jump by turn, flag or note, fork a new game from there")
        self.open_log.clicked.connect(self._open_log)
        logs_box.addWidget(self.resume)
        logs_box.addWidget(self.resume_note)
        logs_box.addWidget(self.open_log)
        return logs

    def _you(self) -> QGroupBox:
        you = QGroupBox("You")
        you_form = QFormLayout(you)
        self.name = QLineEdit(self.settings.name)
        self.name.setPlaceholderText("Your name at the table")
        self.name.editingFinished.connect(self._save_name)
        you_form.addRow("Name", self.name)
        return you

    def _page(self, column: QVBoxLayout) -> None:
        page = QWidget()  # scrolls when the screen is shorter than the page (a laptop, 4 decks)
        page.setObjectName("start-page")
        page.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        outer = QHBoxLayout(page)
        outer.addStretch(1)
        holder = QWidget()
        holder.setLayout(column)
        holder.setMaximumWidth(560)
        holder.setMinimumWidth(460)
        outer.addWidget(holder, 2)
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
        path = self.settings.resumable()
        self.resume.setEnabled(path is not None)
        table = self.settings.last_lan.get("table") if path is not None else None
        self.resume_note.setText(f"LAN table “{table}”: rejoin it" if table
                                 else f"Saved: {path.name}" if path else "No game in progress.")

    def _play(self) -> None:
        self._save_name()
        g = self.choice()
        decks = [p.currentText() for p in self.deck_pickers]
        self.playRequested.emit(g, self.seats.value(), decks)

    def _resume(self) -> None:
        path = self.settings.resumable()
        if path is not None:
            self.resumeRequested.emit(str(path))

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

