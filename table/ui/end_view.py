"""The end of the game, shown at every seat: once the table holds an `end` op (made here, or by
another peer of a LAN table), a panel over the table says who won or how it ended, with
Replay, Report and New game at hand. An undone end takes it away again; "Back to the table"
leaves it aside to look at the final position.

The window knows nothing of what those buttons open: the shell gives an :class:`EndActions`
(the replay view, the report, a new table) and hears of the end to offer the game under
Replay rather than Resume."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from .end_game import result_lines

if TYPE_CHECKING:
    from table.core.timeline import Change

    from .main_window import TableWindow

PANEL_WIDTH = 560  # at most: narrower windows get their width less a margin
TOP = 16  # pixels below the top of the table view


@dataclass
class EndActions:
    """What the end view's buttons do; `ended(log, summary)` hears of every result shown
    (summary "" when the end was taken back)."""
    replay: Callable[[], object]
    new_game: Callable[[], object]
    report: Callable[[], object] | None = None  # None: the report cannot be made here
    report_missing: str = ""  # why not, for the button's tooltip
    ended: Callable[[str], object] | None = None


class EndView(QFrame):
    """The panel (a child of the table view, over its top)."""

    def __init__(self, parent: QWidget, actions: EndActions) -> None:
        super().__init__(parent)
        self.setObjectName("end-view")
        self.setAutoFillBackground(True)
        self.setStyleSheet(
            "QFrame#end-view { background: rgba(16, 30, 24, 238); border: 2px solid #c98b2b;"
            " border-radius: 10px; }"
            "QLabel#end-title { color: #c98b2b; font-size: 14px; font-weight: bold; }"
            "QLabel#end-headline { color: #f4efe2; font-size: 24px; font-weight: bold; }"
            "QLabel#end-details { color: #dcdcdc; font-size: 14px; }")
        self.title = QLabel("The game is over")
        self.title.setObjectName("end-title")
        self.headline = QLabel()
        self.headline.setObjectName("end-headline")
        self.headline.setWordWrap(True)
        self.details = QLabel()
        self.details.setObjectName("end-details")
        self.details.setWordWrap(True)
        self.replay = self._button("Replay", "end-replay", actions.replay,
                                   "Watch the whole game again, move by move")
        self.report = self._button("Report", "end-report", actions.report,
                                   actions.report_missing or "The designer's report of this "
                                   "game (opens in your browser)")
        self.new_game = self._button("New game", "end-new-game", actions.new_game,
                                     "Start another game of the same kind")
        self.dismiss = self._button("Back to the table", "end-dismiss", self.hide,
                                    "Look at the final position (the result stays in the log)")
        row = QHBoxLayout()
        for b in (self.replay, self.report, self.new_game):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(self.dismiss)
        box = QVBoxLayout(self)
        box.setContentsMargins(18, 14, 18, 14)
        box.addWidget(self.title)
        box.addWidget(self.headline)
        box.addWidget(self.details)
        box.addSpacing(6)
        box.addLayout(row)
        self.hide()
        parent.installEventFilter(self)  # follows the view's size

    def _button(self, text: str, name: str, action: Callable[[], object] | None,
                tip: str) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.setToolTip(tip)
        button.setEnabled(action is not None)
        if action is not None:
            button.clicked.connect(lambda _checked=False: action())
        return button

    def show_result(self, headline: str, details: str) -> None:
        self.headline.setText(headline)
        self.details.setText(details)
        self.details.setVisible(bool(details))
        self.setAccessibleName(f"The game is over: {headline}")
        self.setAccessibleDescription(details)
        self.place()
        self.show()
        self.raise_()

    def place(self) -> None:
        parent = self.parentWidget()
        if parent is None:
            return
        width = min(PANEL_WIDTH, parent.width() - 24)
        self.setFixedWidth(max(200, width))
        height = self.heightForWidth(self.width()) if self.hasHeightForWidth() else -1
        self.resize(self.width(), max(height, self.sizeHint().height()))
        self.move((parent.width() - self.width()) // 2, TOP)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self.isVisible():
            self.place()
        return False

    def text(self) -> str:
        """What the panel says, as shown (tests, accessibility)."""
        return "\n".join(w.text() for w in (self.title, self.headline, self.details)
                         if w.isVisible() or not self.isVisible())


class EndWatch:
    """Shows the table's result in its window as soon as it holds one, and again after a
    change that alters it; tells the shell (`actions.ended`)."""

    def __init__(self, window: TableWindow, actions: EndActions, log_path: str) -> None:
        self.window, self.actions, self.log_path = window, actions, log_path
        self.view = EndView(window.view, actions)
        self.shown: Any = None  # the result on screen
        self._unsubscribe = window.replica.subscribe(self._changed)
        window.closed.connect(self.detach)
        self.follow()

    def _changed(self, _change: Change) -> None:
        self.follow()  # an end, its undo, or an op sorted in before it: one comparison

    def follow(self) -> None:
        result = self.window.replica.state.result
        if result == self.shown:
            return
        self.shown = dict(result) if result is not None else None
        if result is None:
            self.view.hide()
            if self.actions.ended is not None:
                self.actions.ended("")
            return
        headline, details = result_lines(result, self.window.ctl.seat_name)
        self.view.show_result(headline, details)
        if self.actions.ended is not None:
            self.actions.ended(headline + (f" ({details[:1].lower()}{details[1:]})"
                                           if details else ""))

    def detach(self) -> None:
        self._unsubscribe()


def watch_end(window: TableWindow, actions: EndActions, log_path: str) -> EndWatch:
    """Show the end of the game in `window` (see :class:`EndWatch`)."""
    return EndWatch(window, actions, log_path)  # kept alive by its subscription
