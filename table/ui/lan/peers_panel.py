"""The peers of a LAN table: who is here, their seats, and each link's state."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from .model import PeerRow

STATUS_TEXT = {"me": "you", "connected": "connected", "catching up": "catching up…",
               "reconnecting": "reconnecting…", "back": "back", "gone": "gone"}
STATUS_COLOUR = {"me": "#90caf9", "connected": "#81c784", "catching up": "#ffb74d",
                 "reconnecting": "#e57373", "back": "#aed581", "gone": "#9e9e9e"}


class PeersPanel(QWidget):
    """Reads ``rows()`` on :meth:`refresh` (coalesced by :meth:`schedule_refresh`)."""

    def __init__(self, rows: Callable[[], list[PeerRow]], *, table_line: str = "",
                 invite: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.setObjectName("peers-panel")
        self._rows = rows
        self.header = QLabel(table_line)
        self.header.setObjectName("muted")
        self.header.setWordWrap(True)
        self.header.setVisible(bool(table_line))
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Player", "Seat", "Link", "Address"])
        self.tree.setRootIsDecorated(False)
        self.tree.setColumnWidth(0, 70)
        self.tree.setColumnWidth(1, 36)
        self.tree.setColumnWidth(2, 78)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addWidget(self.header)
        box.addWidget(self.tree, 1)
        # the table's own "Invite over the internet…": opens the endpoint, shows the ticket
        self.invite = QPushButton("Invite over the internet…")
        self.invite.setObjectName("lan-invite")
        self.invite.setVisible(invite is not None)
        if invite is not None:
            self.invite.clicked.connect(lambda _checked=False: invite())
        box.addWidget(self.invite)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(50)
        self._timer.timeout.connect(self.refresh)
        self.current: list[PeerRow] = []
        self.refresh()

    def set_table_line(self, text: str) -> None:
        self.header.setText(text)
        self.header.setVisible(bool(text))

    def schedule_refresh(self) -> None:
        if not self._timer.isActive():
            self._timer.start()

    def refresh(self) -> None:
        try:
            rows = self._rows()
        except Exception:  # the table is closing
            return
        if rows == self.current:
            return
        self.current = list(rows)
        self.tree.clear()
        for r in sorted(rows, key=lambda r: (r.status != "me", r.status == "gone",
                                             r.seats or (99,), r.name)):
            name = r.name or r.peer_id[:8]
            seats = "watching" if r.watching else ", ".join(map(str, r.seats)) or "—"
            item = QTreeWidgetItem([name, seats,
                                    STATUS_TEXT.get(r.status, r.status), r.address])
            item.setForeground(2, QColor(STATUS_COLOUR.get(r.status, "#bdbdbd")))
            item.setToolTip(0, f"peer {r.peer_id}")
            self.tree.addTopLevelItem(item)

    def statuses(self) -> dict[str, str]:
        """Peer id -> status, as shown (tests)."""
        return {r.peer_id: r.status for r in self.current}
