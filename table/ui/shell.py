"""The program's windows: the start screen, and the table windows it opens.

Every game is saved as it is played (its log is the save); the settings remember the log of the
game in progress so the start screen can offer to resume it.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox, QWidget

from table.core.errors import CoreError, LogError
from table.core.logfile import LogReader

from . import geometry_dump
from .catalog import Catalog
from .end_view import EndActions, watch_end
from .game_report import GameReport, report_missing
from .games import GameChoice, game_choice, open_log, start_game
from .main_window import TableWindow
from .settings import Settings, new_log_path

if TYPE_CHECKING:
    from .start_screen import StartScreen
log = logging.getLogger(__name__)


class Shell:
    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings.load()
        self._start: StartScreen | None = None  # made when first needed: a game opened
        # straight from the command line paints its table without waiting for it
        self.on_host: Callable[[], object] | None = None  # LAN play, wired in by the app
        self.on_join: Callable[[], object] | None = None
        self.on_rejoin: Callable[[str], object] | None = None  # a LAN game's log -> rejoin it
        self.on_start_shown: Callable[[], object] | None = None  # the app looks for tables
        self.on_open: Callable[[TableWindow], object] | None = None  # the app's bots, say
        self.tables: list[TableWindow] = []
        self.replays: list[QWidget] = []
        self.reports: list[QObject] = []  # reports being written (end of a game)

    @property
    def start(self) -> StartScreen:
        if self._start is None:
            from .start_screen import StartScreen

            start = self._start = StartScreen(self.settings)
            start.playRequested.connect(self.play)
            start.resumeRequested.connect(self.resume)
            start.openLogRequested.connect(self.open_replay)
            start.positionRequested.connect(self.play_position)
            start.moduleRequested.connect(self.play_module)
            start.hostRequested.connect(lambda: self.on_host() if self.on_host else None)
            start.joinRequested.connect(lambda: self.on_join() if self.on_join else None)
            start.rejoinRequested.connect(
                lambda path: self.on_rejoin(path) if self.on_rejoin else None)
            start.set_lan_available(self.on_host is not None)
        return self._start

    def _hide_start(self) -> None:
        if self._start is not None:
            self._start.hide()

    def set_lan(self, host: Callable[[], object], join: Callable[[], object],
                rejoin: Callable[[str], object] | None = None) -> None:
        """Enable Host/Join on the start screen; the app passes what they open (and what
        rejoins a LAN game from its log, for Resume)."""
        self.on_host, self.on_join, self.on_rejoin = host, join, rejoin
        if self._start is not None:
            self._start.set_lan_available(True)

    def open_table(self, window: TableWindow) -> TableWindow:
        """Show a table window opened elsewhere (a LAN table) like any other."""
        return self._open(window)

    def show_start(self) -> None:
        self.start.refresh_resume()
        self.start.set_lan_tables([])  # what was offered before may be open or over now:
        # the app offers again what it finds (on_start_shown)
        self.start.show()
        self.start.raise_()
        if self.on_start_shown is not None:
            self.on_start_shown()

    def start_shown(self) -> bool:
        return self._start is not None and self._start.isVisible()

    def offer_resume(self) -> bool:
        """On launch: if a game was left open, ask whether to pick it up again."""
        path = self.settings.resumable()
        if path is None:
            return False
        if is_lan_log(path):  # the start screen offers LAN tables, once found on the network
            return False
        answer = QMessageBox.question(self.start, "Resume your game?", (
            f"A game was in progress when Sandtable closed:\n{path.name}\n\nResume it?"))
        if answer == QMessageBox.StandardButton.Yes:
            return self.resume(str(path))
        return False

    def play(self, choice: GameChoice, seats: int, decks: list[str], *,
             assist_later: bool = False) -> TableWindow | None:
        """A new hot-seat table; `assist_later`: its rules assist starts once it is on screen
        (the program's start, late_assist.py)."""
        path = new_log_path(choice.id)
        try:
            replica, catalog = start_game(choice, seats, decks, log_path=path)
        except (CoreError, ValueError, KeyError, ImportError, OSError) as err:
            self._error("Cannot start the game", err)
            return None
        self.settings.last_game, self.settings.last_seats = choice.id, seats
        self.settings.last_log, self.settings.last_log_finished = str(path), False
        self.settings.save()
        return self._open(TableWindow(replica, catalog, settings=self.settings,
                                      assist_later=assist_later))

    def play_position(self, path: str) -> TableWindow | None:
        """A hot-seat table started from a position file (its problems shown, with lines)."""
        from table.games.position import PositionError, read_position
        from table.games.position_table import start_position

        try:
            position = read_position(path)
        except PositionError as err:
            self._error("Cannot start from this position", err)
            return None
        log_path = new_log_path(position.module.id)
        replica = start_position(position, log_path=log_path)
        self.settings.last_game = position.module.id
        self.settings.last_seats = position.seats
        self.settings.last_log, self.settings.last_log_finished = str(log_path), False
        self.settings.save()
        return self._open(TableWindow(replica, Catalog.from_module(position.module),
                                      settings=self.settings))

    def play_module(self, folder: str, seats: int | None = None) -> TableWindow | None:
        """A hot-seat table of the draft in `folder`, which follows the folder's edits."""
        from table.games import ModuleError, load_module

        from .drafts import DraftWatch

        try:
            module = load_module(Path(folder))
        except ModuleError as err:
            self._error("Cannot play this module folder", err)
            return None
        decks = sorted(module.starter_decks)
        count = seats or module.players.min
        choice = GameChoice(module.id, module.name, module.players.min, module.players.max,
                            decks, [decks[i % len(decks)] for i in range(count)] if decks
                            else [], module)
        window = self.play(choice, count, choice.default_decks)
        if window is not None:
            window.draft_watch = DraftWatch(window, module, Path(folder))
        return window

    def resume(self, path: str) -> bool:
        if is_lan_log(path):  # a LAN game: rejoin the table (never a local copy of it)
            if self.on_rejoin is None:
                self._error("Cannot resume the game",
                            ValueError("it is a LAN game, and LAN play is not available here"))
                return False
            self.on_rejoin(path)
            return True
        try:
            replica, catalog = open_log(path, reopen=True)
        except (CoreError, OSError) as err:
            self._error("Cannot resume the game", err)
            return False
        self._open(TableWindow(replica, catalog, settings=self.settings))
        return True

    def open_read_only(self, path: str) -> TableWindow | None:
        try:
            replica, catalog = open_log(path, reopen=False)
        except (CoreError, OSError) as err:
            self._error("Cannot open the log", err)
            return None
        return self._open(TableWindow(replica, catalog, read_only=True,
                                      title=f"{Path(path).name} — read-only — Sandtable"))

    def open_replay(self, path: str) -> QWidget | None:
        """The replay view of a log: seek both ways, fork a new table from any moment."""
        from .replay.run import open_replay

        try:
            window = open_replay(path, on_fork=lambda replica, catalog: self._open(
                TableWindow(replica, catalog, settings=self.settings)))
        except (CoreError, OSError) as err:
            self._error("Cannot open the log", err)
            return None
        self.replays.append(window)
        window.closed.connect(lambda w=window: self._replay_closed(w))
        window.show()
        self._hide_start()
        return cast(QWidget, window)

    def _replay_closed(self, window: QWidget) -> None:
        if window in self.replays:
            self.replays.remove(window)
        if not self.tables and not self.replays:
            self.show_start()

    def _open(self, window: TableWindow) -> TableWindow:
        self.tables.append(window)
        window.closed.connect(lambda w=window: self._closed(w))
        log_path = str(getattr(window.replica.log, "path", "") or "")
        if log_path:  # a table played here: its end is shown, with what comes next
            watch_end(window, self._end_actions(window, log_path), log_path)
        if self.on_open is not None:
            self.on_open(window)
        window.show()
        geometry_dump.watch(window)
        self._hide_start()
        return window

    def _closed(self, window: TableWindow) -> None:
        if window in self.tables:
            self.tables.remove(window)
        if not self.tables and not getattr(self, "replays", None):
            self.show_start()

    # --- the end of a game ----------------------------------------------------------------
    def _end_actions(self, window: TableWindow, log_path: str) -> EndActions:
        missing = report_missing()
        return EndActions(
            replay=lambda: self.open_replay(log_path),
            new_game=lambda: self.new_game_like(window),
            report=None if missing else lambda: self._report(window, log_path),
            report_missing=missing,
            ended=lambda summary: self.game_ended(window, log_path, summary))

    def game_ended(self, window: TableWindow, log_path: str, summary: str) -> None:
        """The game of this log ended (`summary` says how), or its end was taken back (""):
        offered under Replay rather than Resume, and no longer to rejoin."""
        settings = self.settings
        if summary:
            settings.last_ended = {"log": log_path,
                                   "summary": f"{window.ctl.catalog.game_name}: {summary}"}
        elif settings.last_ended.get("log") == log_path:
            settings.last_ended = {}
        if settings.last_log == log_path:  # an ended game is not resumed: it is replayed
            settings.last_log_finished = bool(summary)
        settings.save()
        from .lan import memory  # the LAN tables this computer sat at (loaded when needed)

        memory.ended(log_path, summary)
        if self._start is not None:
            self._start.refresh_resume()

    def new_game_like(self, window: TableWindow) -> TableWindow | None:
        """Another game of the same kind: hot-seat, a new table with the same seats at once; a
        LAN table is left and the Host dialog opens for the same game."""
        game = window.ctl.catalog.module.id if window.ctl.catalog.module is not None \
            else window.replica.game
        self.settings.last_game = game
        if window.peers_panel is not None:
            window.close()
            if self.on_host is not None:
                self.on_host()
            return None
        choice = game_choice(game)
        if choice is None:
            self._error("Cannot start a new game", ValueError(f"no game module {game!r}"))
            return None
        seats = max(choice.min_seats, min(choice.max_seats, len(window.ctl.seats)))
        opened = self.play(choice, seats, choice.default_decks[:seats])
        if opened is not None:
            window.close()
        return opened

    def _report(self, window: TableWindow, log_path: str) -> None:
        report = GameReport(log_path, lambda text: window.statusBar().showMessage(text, 15000),
                            window)
        self.reports.append(report)
        report.finished.connect(lambda *_: self.reports.remove(report)
                                if report in self.reports else None)
        report.start()

    def _error(self, title: str, err: Exception) -> None:
        log.warning("%s: %s", title, err)
        parent: QWidget = self.start
        QMessageBox.warning(parent, title, str(err))


def is_lan_log(path: str | Path) -> bool:
    """Whether a log is one peer's log of a LAN game (its header says ``lan``)."""
    try:
        return LogReader(path).header.get("lan") is True
    except (LogError, OSError):
        return False
